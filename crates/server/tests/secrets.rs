//! Nothing secret leaks, through any door: for every rule set, seeded games played through the
//! server, with every door a player or a spectator has looked through before and after each
//! action — the game as he sees it (view, choices, log, count of actions), the list of games,
//! the replay, the WebSocket's count and the refusal of an action out of turn.
//!
//! * An action the rules keep from a viewer (an order sent, in Old Fritz) changes nothing behind
//!   any of his doors: not even the number of actions.
//! * A line of the log kept from a viewer never appears behind any of his doors.
//! * Only the side that must act is offered choices.
//! * Blown Away's secret deployment: whatever side 0 fixes, side 1 and a spectator see the same
//!   until both have deployed.
//! * Once the battle is over, everyone sees everything.
#![allow(clippy::unwrap_used)] // tests may panic on what they did not expect

use std::sync::Arc;

use serde_json::{Value, json};
use volley_chance::Seeded;
use volley_core::{Actor, Viewer};
use volley_scenario::Source;
use volley_server::{Creator, NewGame, Server, catalog, slot};
use volley_store::SqliteStore;

const SEED: u64 = 11;

/// A game between two people at one screen (so the test holds both seats), with the umpire's
/// invitation claimed: (server, id, side tokens, umpire token).
fn game(scenario: &str) -> (Server, String, [String; 2], String) {
    let s = Server::new(Arc::new(SqliteStore::in_memory().unwrap()));
    let req = NewGame {
        open: false,
        scenario: scenario.into(),
        scenario_text: None,
        players: vec!["human".into(), "human".into()],
        seed: Some(SEED),
        creator: Some(Creator::HotSeat),
        private: false,
        hold_results: false,
        umpire: true,
        rules_shown: false,
    };
    let g = s.create(&req).unwrap();
    let id = g["id"].as_str().unwrap().to_string();
    let token = |i: usize| g["credentials"][i]["token"].as_str().unwrap().to_string();
    let code = g["invitations"][0]["code"].as_str().unwrap();
    let umpire = s.claim(&id, code).unwrap()["token"].as_str().unwrap().to_string();
    (s, id, [token(0), token(1)], umpire)
}

/// Everything `viewer` (holding `token`) may look at, as one JSON value.
fn doors(s: &Server, id: &str, viewer: Viewer, token: Option<&str>) -> Value {
    let list = s.list().unwrap();
    let listed = list.as_array().unwrap().iter().find(|g| g["id"] == json!(id)).cloned();
    let (_, counts, _) = s.watch(id, token).unwrap();
    // A side out of turn is refused; the refusal is a door too.
    let game = s.view(id, token, None).unwrap();
    let mine = matches!(viewer, Viewer::Side(v) if game["actor"] == json!({"side": v}));
    let refused = token.filter(|_| !mine).map(|t| s.act(id, t, &json!("end_orders")).map(|_| "accepted!".to_string()));
    // (When things happened, to the second, is no secret; two runs a second apart differ in it.)
    let untimed = |mut v: Value| {
        fn strip(v: &mut Value) {
            match v {
                Value::Object(m) => {
                    m.remove("last_action_at");
                    m.values_mut().for_each(strip);
                }
                Value::Array(a) => a.iter_mut().for_each(strip),
                _ => {}
            }
        }
        strip(&mut v);
        v
    };
    json!({
        "game": untimed(game),
        "list": listed.map(untimed),
        // (A side's replay is of what his side knows: a door like any other.)
        "replay": if viewer == Viewer::Umpire { Value::Null } else { s.replay(id, u64::MAX, None, token).unwrap() },
        "ws": [counts.actions[slot(viewer)], u64::from(counts.held)],
        "refused": refused.map(|r| r.unwrap_err().message),
    })
}

/// Where `a` and `b` differ, as JSON paths with both values (short).
fn diff(a: &Value, b: &Value, path: &str, out: &mut Vec<String>) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for k in x.keys().chain(y.keys().filter(|k| !x.contains_key(*k))) {
                diff(x.get(k).unwrap_or(&Value::Null), y.get(k).unwrap_or(&Value::Null), &format!("{path}.{k}"), out);
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                diff(p, q, &format!("{path}[{i}]"), out);
            }
        }
        _ if a != b => {
            let short = |v: &Value| v.to_string().chars().take(160).collect::<String>();
            out.push(format!("{path}: {} / {}", short(a), short(b)));
        }
        _ => {}
    }
}

/// `a` and `b` are the same; else the test fails naming where they differ.
fn same(a: &Value, b: &Value, what: &str) {
    let mut out = Vec::new();
    diff(a, b, "", &mut out);
    assert!(out.is_empty(), "{what}:\n{}", out.into_iter().take(12).collect::<Vec<_>>().join("\n"));
}

/// Play `scenario` through the server for up to `limit` actions, choosing among the candidates
/// with a seeded generator, and check every door of every viewer who is not acting.
fn no_leaks(scenario: &str, limit: usize) -> (usize, usize) {
    let (s, id, tokens, umpire) = game(scenario);
    // A mirror of the game, to know what the rules keep from whom.
    let bundled = catalog::find(scenario).unwrap();
    let (_, mut mirror) = catalog::load(&Source::new(bundled.path, bundled.text)).unwrap();
    let mut pick = Seeded::derive(SEED, 99);
    let (mut hidden, mut secret_lines) = (0, 0);
    let mut kept: Vec<(Viewer, String)> = Vec::new();
    let (mut public, mut secret) = (0u64, [0u64; 2]);
    for n in 1..=limit as u64 {
        let over = s.view(&id, None, None).unwrap()["outcome"] != Value::Null;
        if over {
            break;
        }
        let Actor::Side(side) = mirror.actor() else { panic!("{scenario}: actor {:?}", mirror.actor()) };
        let others =
            [(Viewer::Side(1 - side), Some(tokens[usize::from(1 - side)].as_str())), (Viewer::Spectator, None)];
        let before: Vec<Value> = others.iter().map(|&(v, t)| doors(&s, &id, v, t)).collect();
        for (v, _) in &others {
            let i = others.iter().position(|(w, _)| w == v).unwrap();
            assert_eq!(before[i]["game"]["candidates"], json!([]), "{scenario} {n}: {v:?} is not to act");
        }
        // The acting side's choice.
        let mine = s.view(&id, Some(&tokens[usize::from(side)]), None).unwrap();
        let cands = mine["candidates"].as_array().unwrap();
        assert!(!cands.is_empty(), "{scenario} {n}: no choices for the side to act");
        pick = Seeded::derive(pick, n);
        let action = cands[(pick % cands.len() as u64) as usize]["action"].clone();
        // The server's dice for it: by the count of public acts, or of this side's secret ones.
        let open = mirror.visible(Actor::Side(side), &action).unwrap()[2];
        let k = if open { &mut public } else { &mut secret[usize::from(side)] };
        *k += 1;
        let draws = volley_core::log::draw_seed(SEED, open, Actor::Side(side), *k);
        let applied = mirror
            .apply(Actor::Side(side), &action, &mut Seeded::new(draws))
            .unwrap_or_else(|e| panic!("{scenario} {n}: the mirror refused {action}: {e}"));
        s.act(&id, &tokens[usize::from(side)], &action).unwrap();
        for (line, vis) in &applied.lines {
            for &(v, _) in &others {
                let may = match v {
                    Viewer::Side(o) => vis[usize::from(o)],
                    _ => vis[0] && vis[1],
                };
                if !may {
                    kept.push((v, line.clone()));
                    secret_lines += 1;
                }
            }
        }
        for (i, &(v, t)) in others.iter().enumerate() {
            let after = doors(&s, &id, v, t);
            let seen = applied.seen[if v == Viewer::Spectator { 2 } else { usize::from(1 - side) }];
            if !seen {
                hidden += 1;
                same(&before[i], &after, &format!("{scenario} {n}: {v:?} learnt of a secret {action}"));
            }
            // Once the battle is over everyone may read everything.
            let text = after.to_string();
            let ended = after["game"]["outcome"] != Value::Null;
            for (w, line) in kept.iter().filter(|_| !ended) {
                if *w == v {
                    let quoted = serde_json::to_string(line).unwrap();
                    assert!(!text.contains(quoted.trim_matches('"')), "{scenario} {n}: {v:?} reads {line:?}");
                }
            }
        }
        // The umpire sees every line.
        let u = s.view(&id, Some(&umpire), None).unwrap();
        assert_eq!(u["actions"], json!(n), "{scenario}: the umpire knows of every action");
    }
    if s.view(&id, None, None).unwrap()["outcome"] != Value::Null {
        let everyone = s.view(&id, None, None).unwrap();
        let umpire = s.view(&id, Some(&umpire), None).unwrap();
        assert_eq!(everyone["view"], umpire["view"], "{scenario}: after the battle, everyone sees everything");
        assert_eq!(everyone["log"], umpire["log"]);
    }
    (hidden, secret_lines)
}

#[test]
fn old_fritz_orders_stay_with_their_side() {
    for scenario in ["attack-on-the-ridge", "mittelhof"] {
        let (hidden, lines) = no_leaks(scenario, 160);
        assert!(
            hidden >= 10 && lines >= 10,
            "{scenario}: the test met {hidden} hidden actions and {lines} secret lines"
        );
    }
}

#[test]
fn en_avant_orders_and_rules_stay_hidden() {
    // Each side's cards are its own until the turn is played, and with the rules hidden the
    // tables and numbers behind each result are Game Control's.
    for scenario in ["the-farm", "the-heath"] {
        let (hidden, lines) = no_leaks(scenario, 160);
        assert!(
            hidden >= 10 && lines >= 10,
            "{scenario}: the test met {hidden} hidden actions and {lines} secret lines"
        );
    }
}

#[test]
fn itchy_and_scratchy_and_blown_away_hide_nothing_they_should_not() {
    // Their rules keep little secret (Blown Away's deployment); these play to check that what is
    // public stays so, and that nothing is hidden that the rules show.
    for scenario in ["hochdorf-mill", "crossroads", "elands-ridge"] {
        let (hidden, _) = no_leaks(scenario, 120);
        assert_eq!(hidden, 0, "{scenario}: every action is public");
    }
}

#[test]
fn blown_away_secret_deployment_tells_the_enemy_nothing() {
    use volley_blown_away::{Action, Placement};
    // A placement of side 0's first unit a little to the side of where the plan has it.
    let bundled = catalog::find("crossroads").unwrap();
    let b = volley_blown_away::load(&Source::new(bundled.path, bundled.text)).unwrap();
    let (i, u) = b.units.iter().enumerate().find(|(_, u)| u.side == 0).unwrap();
    let moved = [-2.0, -1.0, 1.0, 2.0]
        .into_iter()
        .map(|dx| Placement {
            unit: i as u16,
            at: volley_table::Point::new(u.front.x + dx, u.front.y),
            facing: u.facing,
            formation: u.formation,
        })
        .find(|p| volley_core::GameState::validate(&b, &Action::Deploy { placements: vec![p.clone()] }).is_ok())
        .expect("a placement 1-2\" aside is allowed");
    let plans = [json!({"deploy": {"placements": []}}), json!({"deploy": {"placements": [moved]}})];
    let mut seen = Vec::new();
    for plan in &plans {
        let (s, id, tokens, _) = game("crossroads");
        s.act(&id, &tokens[0], plan).unwrap();
        // The game's own id and time apart.
        let anonymous = |mut v: Value| {
            v["game"]["id"] = Value::Null;
            v["game"]["seed"] = Value::Null; // each game's own salt

            v["list"] = Value::Null;
            v
        };
        let enemy = anonymous(doors(&s, &id, Viewer::Side(1), Some(&tokens[1])));
        let watcher = anonymous(doors(&s, &id, Viewer::Spectator, None));
        let own = s.view(&id, Some(&tokens[0]), None).unwrap();
        seen.push((enemy, watcher, own));
    }
    same(&seen[0].0, &seen[1].0, "side 1 sees the same whatever side 0 fixed");
    same(&seen[0].1, &seen[1].1, "so does a spectator");
    assert_ne!(seen[0].2["log"], seen[1].2["log"], "side 0 itself reads how many units it placed otherwise");
}

#[test]
fn held_results_are_the_umpires_until_he_releases_them() {
    let store = Arc::new(SqliteStore::in_memory().unwrap());
    let s = Server::new(store.clone());
    let req = NewGame {
        open: false,
        scenario: "attack-on-the-ridge".into(),
        scenario_text: None,
        players: vec!["human".into(), "human".into()],
        seed: Some(SEED),
        creator: Some(Creator::HotSeat),
        private: false,
        hold_results: true,
        umpire: true,
        rules_shown: false,
    };
    let g = s.create(&req).unwrap();
    let id = g["id"].as_str().unwrap().to_string();
    let t: Vec<String> = (0..2).map(|i| g["credentials"][i]["token"].as_str().unwrap().to_string()).collect();
    let u = s.claim(&id, g["invitations"][0]["code"].as_str().unwrap()).unwrap()["token"].as_str().unwrap().to_string();
    let order = json!({"order": {"wing": 0, "order": {"kind": "attack", "at": [36, 36]}}});
    s.act(&id, &t[0], &order).unwrap();
    s.act(&id, &t[0], &json!("end_orders")).unwrap();
    // Everything the players and a spectator see, but whether results are held (which everyone
    // may know: they wait for the umpire).
    let look = |token: Option<&str>, viewer| {
        let mut d = doors(&s, &id, viewer, token);
        d["game"]["held"] = Value::Null;
        d["list"]["held"] = Value::Null;
        d["ws"][1] = Value::Null;
        d["refused"] = Value::Null;
        d
    };
    let before = [look(Some(&t[0]), Viewer::Side(0)), look(None, Viewer::Spectator)];
    // The Austrians end their orders: the bound is fought, and held for the umpire. The answer
    // tells them no more than their view: whose turn it was before the bound.
    let answer = s.act(&id, &t[1], &json!("end_orders")).unwrap();
    assert_eq!((answer["actor"].clone(), answer["held"].clone()), (json!({"side": 1}), json!(true)), "{answer}");
    let umpire = s.view(&id, Some(&u), None).unwrap();
    assert_eq!((umpire["held"].clone(), umpire["view"]["turn"].clone()), (json!(true), json!(2)), "he sees the bound");
    same(&before[0], &look(Some(&t[0]), Viewer::Side(0)), "the Prussians see nothing of the bound yet");
    same(&before[1], &look(None, Viewer::Spectator), "nor does a spectator");
    let austrians = s.view(&id, Some(&t[1]), None).unwrap();
    assert_eq!((austrians["held"].clone(), austrians["candidates"].clone()), (json!(true), json!([])));
    assert_eq!(austrians["view"]["turn"], 1);
    let wait = s.act(&id, &t[0], &json!("end_orders")).unwrap_err();
    assert_eq!(wait.status, 409, "{wait:?}");
    assert!(wait.message.contains("umpire"), "{wait:?}");
    // He amends the results; still nobody sees them.
    let fix = json!({"adjust": {"unit": 0, "greens": 0, "reason": "the fog hid them"}});
    s.act(&id, &u, &fix).unwrap();
    same(&before[0], &look(Some(&t[0]), Viewer::Side(0)), "an amendment is held too");
    assert_eq!(s.export(&id).unwrap_err().status, 409);
    // Only the umpire releases; and then everyone sees the bound and the amendment.
    assert_eq!(s.release(&id, &t[0]).unwrap_err().status, 403);
    // A server started afresh on the same store keeps them held.
    drop(s);
    let s = Server::new(store);
    let held = s.view(&id, Some(&t[0]), None).unwrap();
    assert_eq!((held["held"].clone(), held["view"]["turn"].clone()), (json!(true), json!(1)));
    s.release(&id, &u).unwrap();
    assert_eq!(s.release(&id, &u).unwrap_err().status, 409, "nothing is held now");
    let after = s.view(&id, Some(&t[0]), None).unwrap();
    assert_eq!((after["held"].clone(), after["view"]["turn"].clone()), (json!(false), json!(2)));
    assert!(after["log"].to_string().contains("because the fog hid them"), "{}", after["log"]);
    assert!(!after["candidates"].as_array().unwrap().is_empty(), "the Prussians order again");
    // On to the end (the turn limit): the bound that ends the battle is held like any other —
    // neither side learns the battle is over until the umpire releases it, not even by acting.
    let mut ended = false;
    for _ in 0..60 {
        s.act(&id, &t[0], &json!("end_orders")).unwrap();
        let answer = s.act(&id, &t[1], &json!("end_orders")).unwrap();
        assert_ne!(answer["actor"], json!("terminal"), "{answer}");
        if s.view(&id, Some(&u), None).unwrap()["outcome"] != Value::Null {
            for token in [&t[0], &t[1]] {
                let e = s.act(&id, token, &json!("end_orders")).unwrap_err();
                assert!(e.message.contains("umpire is looking"), "{e:?}");
                let v = s.view(&id, Some(token), None).unwrap();
                assert_eq!((v["outcome"].clone(), v["seed"]["value"].is_string()), (Value::Null, true), "chosen seed");
            }
            assert_eq!(s.view(&id, None, None).unwrap()["outcome"], Value::Null);
            s.release(&id, &u).unwrap();
            assert_ne!(s.view(&id, None, None).unwrap()["outcome"], Value::Null, "released: everyone sees the end");
            ended = true;
            break;
        }
        s.release(&id, &u).unwrap();
    }
    assert!(ended, "the battle reached its turn limit");
}

#[test]
fn secret_orders_do_not_change_the_dice_even_to_one_who_knows_the_seed() {
    // The same chosen seed, the same public play: bounds fought with no orders until one throws
    // dice. In the other games the Prussians send orders in secret before that bound (they take
    // effect bounds later). The Austrians must see the same bound, dice and all.
    let dice = |v: &Value| {
        v["log"].as_array().unwrap().iter().any(|l| {
            let t = l["text"].as_str().unwrap_or_default();
            t.contains("d6") || t.contains("d10")
        })
    };
    let mut seen = Vec::new();
    let mut bound_with_dice = None;
    for secret_orders in [0, 1, 3] {
        let (s, id, t, _) = game("attack-on-the-ridge");
        // Both sides send every wing to attack, the same in every game.
        for side in 0..2 {
            loop {
                let mine = s.view(&id, Some(&t[side]), None).unwrap();
                let attack = mine["candidates"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| c["action"].clone())
                    .find(|a| a["order"]["order"]["kind"] == "attack");
                let Some(attack) = attack else { break };
                s.act(&id, &t[side], &attack).unwrap();
            }
            if side == 0 {
                s.act(&id, &t[0], &json!("end_orders")).unwrap();
            }
        }
        s.act(&id, &t[1], &json!("end_orders")).unwrap();
        for bound in 2..=16 {
            if Some(bound) == bound_with_dice {
                let mine = s.view(&id, Some(&t[0]), None).unwrap();
                let order = mine["candidates"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| c["action"].clone())
                    .find(|a| a["order"].is_object())
                    .unwrap();
                for _ in 0..secret_orders {
                    s.act(&id, &t[0], &order).unwrap();
                }
            }
            s.act(&id, &t[0], &json!("end_orders")).unwrap();
            s.act(&id, &t[1], &json!("end_orders")).unwrap();
            let austrians = s.view(&id, Some(&t[1]), None).unwrap();
            if bound_with_dice.is_none() && dice(&austrians) {
                bound_with_dice = Some(bound);
            }
            if Some(bound) == bound_with_dice {
                let mut a = austrians;
                a["id"] = Value::Null;
                a["seed"] = Value::Null; // each game's own salt
                seen.push(a);
                break;
            }
        }
    }
    assert_eq!(seen.len(), 3, "a bound threw dice: {bound_with_dice:?}");
    same(&seen[0], &seen[1], "one secret order changed nothing the Austrians see");
    same(&seen[0], &seen[2], "nor did three");
}

#[test]
fn en_avant_rules_shown_by_choice_are_read_by_the_players() {
    // A game made with `rules_shown`: the players read Game Control's reasons; made without,
    // they do not. The same seed and the same choices, so the same battle.
    let play = |shown: bool| {
        let s = Server::new(Arc::new(SqliteStore::in_memory().unwrap()));
        let req = NewGame {
            scenario: "the-farm".into(),
            players: vec!["human".into(), "human".into()],
            seed: Some(SEED),
            creator: Some(Creator::HotSeat),
            rules_shown: shown,
            ..NewGame::default()
        };
        let g = s.create(&req).unwrap();
        let id = g["id"].as_str().unwrap().to_string();
        let tokens: Vec<String> = (0..2).map(|i| g["credentials"][i]["token"].as_str().unwrap().to_string()).collect();
        let mut pick = Seeded::derive(SEED, 7);
        let mut read = [String::new(), String::new()];
        for n in 0..120u64 {
            let v = s.view(&id, None, None).unwrap();
            if v["outcome"] != Value::Null {
                break;
            }
            let side = v["actor"]["side"].as_u64().unwrap() as usize;
            let mine = s.view(&id, Some(&tokens[side]), None).unwrap();
            let cands = mine["candidates"].as_array().unwrap();
            pick = Seeded::derive(pick, n);
            let action = cands[(pick % cands.len() as u64) as usize]["action"].clone();
            s.act(&id, &tokens[side], &action).unwrap();
        }
        for side in 0..2 {
            read[side] = s.view(&id, Some(&tokens[side]), None).unwrap().to_string();
        }
        read
    };
    let (shown, hidden) = (play(true), play(false));
    for side in 0..2 {
        assert!(shown[side].contains("(rules)"), "side {side} reads the reasons when shown");
        assert!(!shown[side].contains("Game Control keeps the rules"), "no note that they are kept");
        assert!(!hidden[side].contains("(rules)"), "side {side} reads no reason when the rules are kept");
        assert!(hidden[side].contains("Game Control keeps the rules"), "and is told why");
    }
    // Only En Avant keeps its rules from the players.
    let s = Server::new(Arc::new(SqliteStore::in_memory().unwrap()));
    let req = NewGame {
        scenario: "hochdorf-mill".into(),
        players: vec!["human".into(), "heuristic".into()],
        rules_shown: true,
        ..NewGame::default()
    };
    let e = s.create(&req).unwrap_err();
    assert!(e.message.contains("only En Avant keeps its rules"), "{}", e.message);
}
