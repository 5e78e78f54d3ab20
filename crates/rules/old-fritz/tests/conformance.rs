//! The conformance harness over every bundled Old Fritz scenario, with both agents; and the
//! heuristic player against the random one.
#![allow(clippy::unwrap_used)] // tests may panic on what they did not expect

use volley_chance::Seeded;
use volley_core::Agent;
use volley_core::conformance::{Words, check_words_with};
use volley_core::conformance::{check, check_with, games};
use volley_old_fritz::model::{Kind, RUN_RATE, State, Unit};
use volley_old_fritz::{Action, Battle, Event, load};
use volley_scenario::Source;
use volley_table::{Point, convex_overlap};

fn scenario(name: &str) -> Battle {
    let path = format!("{}/../../../scenarios/old-fritz/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    load(&Source::new(name, text)).unwrap_or_else(|e| panic!("{e}"))
}

fn agents(kinds: [&'static str; 2]) -> impl FnMut(u64) -> Vec<Box<dyn Agent<Battle>>> {
    move |seed| {
        (0..2).map(|i| volley_ai::by_name::<Battle>(kinds[i], Seeded::derive(seed, i as u64)).unwrap()).collect()
    }
}

const SCENARIOS: &[&str] = &["attack-on-the-ridge.toml", "mittelhof.toml"];

#[test]
fn random_agents_conform() {
    for s in SCENARIOS {
        let b = scenario(s);
        let r = check_with(|| b.clone(), agents(["random", "random"]), 31, games(40), 100_000, invariants);
        assert_eq!(r.games, games(40), "{s}");
        eprintln!("{s} random: {r:?}");
    }
}

#[test]
fn heuristic_agents_conform_and_fight() {
    for s in SCENARIOS {
        let b = scenario(s);
        let r = check_with(|| b.clone(), agents(["heuristic", "heuristic"]), 32, games(40), 100_000, invariants);
        eprintln!("{s} heuristic: {r:?}");
        assert!(r.results[0] + r.results[1] > 0, "{s}: some heuristic battles should be won");
    }
}

#[test]
fn the_heuristic_player_beats_the_random_one_more_often_than_not() {
    // Mittelhof is nearly even: both armies alike but for their generals. The heuristic side, played from
    // both sides, wins more battles than the random side.
    let b = scenario("mittelhof.toml");
    let mut heuristic_wins = 0;
    let mut random_wins = 0;
    for (kinds, h) in [(["heuristic", "random"], 0u8), (["random", "heuristic"], 1u8)] {
        let r = check(|| b.clone(), agents(kinds), 33, 20, 100_000);
        heuristic_wins += r.results[usize::from(h)];
        random_wins += r.results[usize::from(1 - h)];
    }
    eprintln!("Mittelhof: heuristic {heuristic_wins} wins, random {random_wins}");
    assert!(heuristic_wins > random_wins, "heuristic {heuristic_wins}, random {random_wins}");
}

/// The orders the heuristic player gives for the side to move, best first, until it ends its
/// orders.
fn heuristic_orders(b: &mut Battle) -> Vec<(u16, volley_old_fritz::model::Order)> {
    use volley_core::{GameState, Heuristic};
    use volley_old_fritz::Action;
    let mut given = Vec::new();
    for _ in 0..20 {
        let mut cands = Vec::new();
        b.candidate_actions(&mut cands);
        let mut scores = Vec::new();
        b.scores(&cands, &mut scores);
        let best = (0..cands.len()).max_by(|&i, &j| scores[i].total_cmp(&scores[j])).unwrap();
        let action = cands[best].clone();
        if let Action::Order { wing, order } = &action {
            given.push((*wing, *order));
            b.apply(&action, &mut volley_chance::Scripted::new([]), &mut Vec::new()).unwrap();
        } else {
            break;
        }
    }
    given
}

fn sent_to(orders: &[(u16, volley_old_fritz::model::Order)], wing: u16, p: volley_table::Point) -> bool {
    orders.iter().any(|(w, o)| *w == wing && o.place().is_some_and(|at| at.dist(p) < 1.0))
}

#[test]
fn the_heuristic_keeps_its_wagons_with_the_wing_farthest_from_the_objectives() {
    // Mittelhof: three wings a side. The Prussian right wing (wing 2, under the Kiefernwald)
    // is farthest from both objectives: it keeps the wagons; the centre goes for Mittelhof.
    let mut b = scenario("mittelhof.toml");
    let orders = heuristic_orders(&mut b);
    let park = b.stat.parks[0].0;
    assert!(sent_to(&orders, 2, park), "{orders:?}");
    assert!(!sent_to(&orders, 0, park) && !sent_to(&orders, 1, park), "{orders:?}");
    assert!(sent_to(&orders, 0, volley_table::Point::new(48.0, 30.0)), "{orders:?}");
    // The attack on the ridge: two wings a side, both needed in the fight: neither is sent to
    // the wagons.
    let mut b = scenario("attack-on-the-ridge.toml");
    let orders = heuristic_orders(&mut b);
    let park = b.stat.parks[0].0;
    assert!(!orders.iter().any(|(w, _)| sent_to(&orders, *w, park)), "{orders:?}");
}

#[test]
fn a_wing_holding_an_objective_alone_stays_there() {
    use volley_core::{GameState, Heuristic};
    use volley_old_fritz::Action;
    use volley_old_fritz::model::Order;
    // The Prussian centre stands in Mittelhof, which the Prussians hold, ordered to hold it;
    // the Galgenberg is the Austrians', held by one weak battalion. Past half the bounds, one
    // objective each (not winning), the hill is worth going for — but not by the centre, which
    // would leave the town empty: a wing that holds nothing should go.
    let mut b = scenario("mittelhof.toml");
    let town = volley_table::Point::new(48.0, 30.0);
    for (k, u) in b.units.iter_mut().enumerate().filter(|(_, u)| u.side == 0 && u.wing == 0) {
        u.at = volley_table::Point::new(45.0 + (k % 4) as f64 * 2.0, 28.0 + (k / 4 % 3) as f64 * 2.0);
    }
    b.wings[0].order = Order::Hold { at: town };
    // The Austrian right wing is wing 5.
    let hill = b.units.iter().position(|u| u.side == 1 && u.wing == 5).unwrap();
    b.units[hill].at = volley_table::Point::new(22.0, 30.0);
    b.holders = vec![Some(0), Some(1)];
    b.bound = 16;
    let mut cands = Vec::new();
    b.candidate_actions(&mut cands);
    let mut scores = Vec::new();
    b.scores(&cands, &mut scores);
    let to_hill = |wing: u16| {
        let i = cands
            .iter()
            .position(|c| matches!(c, Action::Order { wing: w, order: Order::Attack { at } } if *w == wing && at.dist(volley_table::Point::new(23.0, 31.0)) < 1.0))
            .unwrap();
        scores[i]
    };
    assert!(to_hill(0) < 0.0, "the centre would leave the town: {}", to_hill(0));
    assert!(to_hill(2) > 0.0, "the hill is worth a wing that holds nothing: {}", to_hill(2));
}

#[test]
fn the_heuristic_scores_the_same_all_together_as_one_by_one() {
    // The scores of a decision share a survey (wings' centres, objectives held, the places
    // near each wing): it must change no score. Ten Mittelhofs side by side as well, where a
    // wing is offered only the places nearest it.
    let path = format!("{}/../../../scenarios/old-fritz/mittelhof.toml", env!("CARGO_MANIFEST_DIR"));
    let tiled = volley_scenario::generate::tile(&std::fs::read_to_string(path).unwrap(), 10).unwrap();
    let mut battles: Vec<Battle> = SCENARIOS.iter().map(|s| scenario(s)).collect();
    battles.push(load(&Source::new("tiled", tiled)).unwrap());
    for b in battles {
        // Battles from more seeds until more than 50 decisions are checked (a battle may be
        // short: an army broken early).
        let mut n = 0;
        for seed in 5..10 {
            n += volley_ai::check_scores(&b, 300, seed).unwrap_or_else(|e| panic!("{}: {e}", b.stat().name));
            if n > 50 {
                break;
            }
        }
        assert!(n > 50, "{}: {n} decisions checked", b.stat().name);
    }
}

// ----- The table's geometry, checked after every bound of every battle above -----

/// A unit's footprint with its centre at `at`.
fn footprint(u: &Unit, at: Point) -> [Point; 4] {
    u.outline(u.facing, u.formation).map(|c| c + at)
}

/// The most a unit may cover in a bound, by the text's rates: its walk (infantry, guns), its
/// trot (cavalry), 20" running (infantry).
fn most(u: &Unit) -> f64 {
    let d = u.kind.data();
    match u.kind {
        Kind::LineInfantry | Kind::Grenz => d.walk.max(RUN_RATE),
        Kind::MediumGuns | Kind::HeavyGuns => d.walk.max(RUN_RATE),
        _ => d.trot.max(d.walk),
    }
}

/// What the text allows of one bound: every move within its rate, and no unit's footprint
/// passing through an enemy's that stood still.
fn invariants(before: &Battle, _action: &Action, after: &Battle, events: &[Event]) -> Result<(), String> {
    if !events.iter().any(|e| matches!(e, Event::BoundBegins { .. })) {
        return Ok(());
    }
    // Close combat only between units in contact: after the bound (the beaten withdraw or run
    // only next bound), every attacker that still stands where it fought is within 2½" of its
    // defender, body to body.
    for ev in events {
        let Event::CloseCombat { attackers, defender, .. } = ev else { continue };
        let pos = |name: &str| after.stat().unit_names.iter().position(|n| n == name);
        let Some(d) = pos(defender) else { continue };
        let dv = &after.units[d];
        if !dv.present() {
            continue;
        }
        for a in attackers {
            let Some(k) = pos(a) else { continue };
            let av = &after.units[k];
            // A winner that finished its move, or one already pursuing, has left the spot.
            if !av.present() || av.move_left > 0.0 || !matches!(av.state, State::Steady) {
                continue;
            }
            // Measured after the combat's losses, which narrow both lines: each footprint lies
            // within half the frontage it lost of the one that fought.
            let lost = |b: &Unit, a: &Unit| (b.frontage() - a.frontage()).max(0.0) / 2.0;
            let slack = lost(&before.units[k], av) + lost(&before.units[d], dv) + 0.1;
            let gap = volley_table::convex_distance(&footprint(av, av.at), &footprint(dv, dv.at));
            if gap > volley_old_fritz::model::APPROACH + slack {
                return Err(format!("{a} fought {defender} with {gap:.2}\" between them"));
            }
        }
    }
    for (i, (u0, u1)) in before.units.iter().zip(&after.units).enumerate() {
        if !u1.present() || !u0.present() {
            continue;
        }
        let moved = u0.at.dist(u1.at);
        if moved > most(u0) + 1e-6 {
            return Err(format!("{} moved {moved:.2}\" in a bound (at most {})", before.name(i), most(u0)));
        }
        if moved < 1e-9 {
            continue;
        }
        // The footprint along the straight way, at the facing it ended with, against enemies
        // that did not move this bound and that it did not already touch.
        let shape = u1;
        let start = footprint(shape, u0.at);
        for (j, (e0, e1)) in before.units.iter().zip(&after.units).enumerate() {
            // Only enemies that stood still all bound (place, facing, formation and figures), so
            // that the footprint the mover met is the one seen here.
            let still = e0.at.dist(e1.at) < 1e-9
                && (e0.facing - e1.facing).abs() < 1e-9
                && e0.formation == e1.formation
                && e0.figures == e1.figures;
            if e0.side == u0.side || !e0.present() || !e1.present() || !still {
                continue;
            }
            if matches!(e0.state, State::Running) || matches!(e1.state, State::Running) {
                continue;
            }
            let body = footprint(e1, e1.at);
            if convex_overlap(&start, &body) || convex_overlap(&footprint(shape, u1.at), &body) {
                continue;
            }
            let steps = (moved / 0.25).ceil() as u32;
            for k in 1..steps {
                let p = u0.at.lerp(u1.at, f64::from(k) / f64::from(steps));
                if convex_overlap(&footprint(shape, p), &body) {
                    return Err(format!(
                        "{} ({:?}, then {:?}; facing {:.0} then {:.0}, {:?}) passed through {} at {:?} facing {:.0} on its way from {:?} to {:?}",
                        before.name(i),
                        u0.state,
                        u1.state,
                        u0.facing,
                        u1.facing,
                        u1.formation,
                        before.name(j),
                        e1.at,
                        e1.facing,
                        u0.at,
                        u1.at
                    ));
                }
            }
        }
    }
    Ok(())
}

// Every text a person reads — the account's lines, the phase, the pieces' labels and status,
// the markers, the notes, the candidates' descriptions — in words: no name from the program
// (a `Debug` name such as `RunAway`, braces, snake_case) and no place given as raw coordinates
// (`[15.0, 13.9]`) in a candidate's description or an event's text, over seeded battles of every
// bundled scenario.

/// Proper names of the scenarios that are not in the view (commanders) and are spelled with a
/// capital inside a word: the generals' rank "GdC" (General der Cavallerie).
const NAMES: &[&str] = &["GdC"];

#[test]
fn every_text_a_person_reads_is_in_words() {
    for s in SCENARIOS {
        let b = scenario(s);
        for (kind, master, games) in [("heuristic", 71, 3), ("random", 72, 2)] {
            let words = Words { no_coordinates: true };
            let read = check_words_with(|| b.clone(), agents([kind, kind]), master, games, 100_000, NAMES, words);
            assert!(read > 100, "{s}: only {read} texts read");
        }
    }
}

/// Every event's text of `games` battles of scenario `s` with `kind` players.
fn accounts(s: &str, kind: &'static str, master: u64, games: u64) -> Vec<String> {
    use volley_core::{Actor, GameState};
    let mut lines = Vec::new();
    for g in 0..games {
        let seed = Seeded::derive(master, g);
        let mut rng = Seeded::new(seed);
        let mut players = agents([kind, kind])(seed);
        let mut b = scenario(s);
        let (mut cands, mut events) = (Vec::new(), Vec::new());
        while b.outcome().is_none() {
            let Actor::Side(side) = b.actor() else { break };
            cands.clear();
            b.candidate_actions(&mut cands);
            let i = players[usize::from(side)].choose(&b, &cands);
            events.clear();
            b.apply(&cands[i], &mut rng, &mut events).unwrap();
            lines.extend(events.iter().map(ToString::to_string));
        }
    }
    lines
}

/// `text` without what stands in brackets (the reasons), nested or not.
fn without_brackets(text: &str) -> String {
    let mut depth = 0usize;
    text.chars()
        .filter(|&c| {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth = depth.saturating_sub(1);
                    return false;
                }
                _ => {}
            }
            depth == 0
        })
        .collect()
}

/// The signed whole numbers of `terms` ("9+2 +2 -4"), or why it holds something else.
fn numbers(terms: &str) -> Result<Vec<i32>, String> {
    let mut out = Vec::new();
    let mut chars = terms.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        let mut n = String::new();
        if c == '+' || c == '-' {
            n.push(c);
            chars.next();
        }
        while let Some(&d) = chars.peek().filter(|d| d.is_ascii_digit()) {
            n.push(d);
            chars.next();
        }
        out.push(n.parse::<i32>().map_err(|_| format!("{terms:?} holds more than numbers"))?);
    }
    Ok(out)
}

/// Each sum in `line` that starts after `key`: the terms up to " = " (their reasons in brackets
/// left out) and the total printed after it. Fails if the terms do not add up to the total.
fn check_sums(line: &str, key: &str) -> Result<usize, String> {
    let mut checked = 0;
    for (at, _) in line.match_indices(key) {
        let rest = &line[at + key.len()..];
        let Some(eq) = rest.find(" = ") else { continue };
        let terms = numbers(&without_brackets(&rest[..eq]))?;
        let total: String =
            rest[eq + 3..].chars().take_while(|c| c.is_ascii_digit() || *c == '-' || *c == '+').collect();
        let total: i32 = total.parse().map_err(|_| format!("no total after {key:?} in {line}"))?;
        if terms.iter().sum::<i32>() != total {
            return Err(format!("{terms:?} do not add up to {total} after {key:?} in {line}"));
        }
        checked += 1;
    }
    Ok(checked)
}

#[test]
fn every_sum_in_the_account_adds_up_to_the_total_it_prints() {
    let mut tests = 0;
    let mut others = 0;
    for s in SCENARIOS {
        for (kind, master) in [("heuristic", 73), ("random", 74)] {
            for line in accounts(s, kind, master, 3) {
                // The casualty tests: each die and each addition, then the score.
                tests += check_sums(&line, "casualty test against it: ").unwrap();
                // The close combats' d10s with their additions, the pursuit tests', the
                // bombardments' and the guns' scores.
                for key in ["attacker: d10 ", "defender: d10 ", "pursuit test: d10 ", "\"): ", "at close range: "] {
                    others += check_sums(&line, key).unwrap();
                }
                // Each score is its total less the enemy's: "score +4 (7 against 3)".
                for (at, _) in line.match_indices("score ") {
                    let rest = &line[at + 6..];
                    let nums =
                        numbers(&rest[..rest.find(')').unwrap()].replace(['(', ','], " ").replace("against", " "))
                            .unwrap();
                    assert_eq!(nums.len(), 3, "{line}");
                    assert_eq!(nums[0], nums[1] - nums[2], "{line}");
                }
            }
        }
    }
    assert!(tests > 50 && others > 100, "{tests} casualty tests and {others} other sums read");
}

#[test]
fn a_casualty_tests_sum_is_read_term_by_term() {
    let line = "x; casualty test against it: 5+9 (2 d10 for IR 3's 12 figures firing) +0 (quality E, enemy \
                withdrawing) +5 (1 d10 for B's 6 figures firing) +1 (quality D, enemy withdrawing) -2 (1 green \
                counter on the firer, -2 each) = 18: 2 casualties (15 to 24)";
    assert_eq!(check_sums(line, "casualty test against it: "), Ok(1));
    let wrong = line.replace("= 18", "= 19");
    assert!(check_sums(&wrong, "casualty test against it: ").is_err());
    let hidden = "casualty test against it: 3+3 = 0: no casualties (under 5)";
    assert!(check_sums(hidden, "casualty test against it: ").is_err(), "an addition left out");
}
