//! The conformance harness over every bundled En Avant scenario, with random and heuristic
//! players; the table's geometry checked after every action; and the property that with the rules
//! hidden no player-facing text carries a number, a modifier or a table.
#![allow(clippy::unwrap_used)] // tests may panic on what they did not expect

use volley_core::conformance::{Words, check_words_with};
use volley_core::conformance::{check, check_with, games};
use volley_core::{Agent, GameState, Viewer};
use volley_en_avant::battle::{CONTACT, Presence, STAND_OFF, STEP};
use volley_en_avant::combat::Direction;
use volley_en_avant::events::{Attacker, Blocked, Body, Fact, Figure, NextTurn, Stage, Stop, UnitResult};
use volley_en_avant::model::rate;
use volley_en_avant::{Action, Battle, Event, load};
use volley_scenario::Source;
use volley_table::{Point, convex_distance, convex_overlap, norm_heading};

fn scenario(name: &str) -> Battle {
    let path = format!("{}/../../../scenarios/en-avant/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    load(&Source::new(name, text)).unwrap_or_else(|e| panic!("{e}"))
}

fn agents(kinds: [&'static str; 2]) -> impl FnMut(u64) -> Vec<Box<dyn Agent<Battle>>> {
    let names = kinds.map(String::from);
    move |seed| volley_ai::seated::<Battle>(&names, seed).unwrap()
}

const SCENARIOS: &[&str] = &["the-farm.toml", "the-heath.toml"];

/// The farthest a unit's front may go in one turn: running at double its fastest rate, or a
/// 50 cm withdrawal, and turning about its centre first.
fn most(b: &Battle, u: usize) -> f64 {
    let x = &b.units[u];
    let fastest = x.kind.formations().iter().map(|&f| rate(x.kind, f)).fold(25.0, f64::max);
    (2.0 * fastest).max(50.0) + 30.0
}

/// Words a player may not read when the rules are hidden.
const RULE_WORDS: &[&str] = &[
    "modifier", "table", " row", "cell", "level", "step one", "step two", "+", "=", " cm", "6/5/4", "3/2/1", "band",
    "rules)",
];

/// What is left of `text` once the names it may carry are taken out: it must have no digit and
/// none of the rules' words.
fn hidden_ok(b: &Battle, text: &str) -> Result<(), String> {
    let mut t = text.to_string();
    let mut names: Vec<&str> = b.stat().unit_names.iter().map(String::as_str).collect();
    names.extend(b.stat().sides.iter().map(String::as_str));
    names.extend(b.officers.iter().map(|o| o.name.as_str()));
    names.sort_by_key(|n| std::cmp::Reverse(n.len()));
    for n in names {
        t = t.replace(n, "NAME");
    }
    // A turn's number and the count of units lost are no rule.
    let t = regexless_strip(&t);
    if let Some(c) = t.chars().find(char::is_ascii_digit) {
        return Err(format!("a number ({c}) in {text:?}"));
    }
    for w in RULE_WORDS {
        if t.contains(w) {
            return Err(format!("{w:?} in {text:?}"));
        }
    }
    Ok(())
}

/// Take out "turn N of M" and "N of M units".
fn regexless_strip(t: &str) -> String {
    let words: Vec<&str> = t.split(' ').collect();
    let mut out = Vec::new();
    let mut k = 0;
    while k < words.len() {
        let num = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit() || c == ':');
        if k + 2 < words.len() && num(words[k]) && words[k + 1] == "of" && num(words[k + 2].trim_end_matches(':')) {
            k += 3;
            continue;
        }
        out.push(words[k]);
        k += 1;
    }
    out.join(" ")
}

/// The geometry of one action, and with the rules hidden every door a player reads.
fn invariants(before: &Battle, action: &Action, after: &Battle, events: &[Event]) -> Result<(), String> {
    let present: Vec<usize> = (0..after.units.len()).filter(|&i| after.units[i].here()).collect();
    let table = &after.stat().table;
    for &i in &present {
        let u = &after.units[i];
        let c = u.corners();
        for &j in present.iter().filter(|&&j| j > i) {
            if convex_overlap(&c, &after.units[j].corners()) {
                return Err(format!("{} stands on {} after {action:?}", after.name(i), after.name(j)));
            }
        }
        if !c.iter().all(|&p| table.contains(p)) {
            return Err(format!("{} is off the table at {:?}", after.name(i), u.at));
        }
        let was = &before.units[i];
        if was.presence == Presence::Here {
            let moved = was.at.dist(u.at);
            if moved > most(before, i) {
                return Err(format!(
                    "{} went {moved:.1} cm in one turn (at most {:.1})",
                    after.name(i),
                    most(before, i)
                ));
            }
        }
    }
    for (u0, u1) in before.units.iter().zip(&after.units) {
        if matches!(u0.presence, Presence::Removed | Presence::Destroyed) && u1.presence != u0.presence {
            return Err("a unit came back from the dead".into());
        }
    }
    // Once the battle is over everyone may read everything.
    if after.rules_hidden() && after.outcome.is_none() {
        for viewer in [Viewer::Side(0), Viewer::Side(1), Viewer::Spectator] {
            for e in events.iter().filter(|e| after.event_visible(e, viewer)) {
                if let Event::Told { text } | Event::Ordered { text, .. } = e {
                    hidden_ok(after, text)?;
                }
                if matches!(e, Event::Explained { .. }) {
                    return Err(format!("{viewer:?} sees the rules: {e}"));
                }
            }
            let v = after.view(viewer);
            for p in &v.pieces {
                hidden_ok(after, &p.label)?;
                hidden_ok(after, &p.status)?;
                if !p.counters.is_empty() || !p.ranges.is_empty() {
                    return Err(format!("{viewer:?} sees numbers or reaches on {}", p.label));
                }
            }
            for m in &v.markers {
                hidden_ok(after, &m.label)?;
            }
            for n in &v.notes {
                hidden_ok(after, n)?;
            }
            for l in &v.standing {
                hidden_ok(after, &l.text)?;
            }
        }
        let mut cands = Vec::new();
        after.candidate_actions(&mut cands);
        for a in &cands {
            hidden_ok(after, &after.describe(a))?;
        }
        // A player's refusals are in words too (issue 28, item 11): whatever he tries, as his
        // side's orders begin.
        if let (volley_core::Actor::Side(side), Action::Done) = (after.actor(), action) {
            for a in tries(after, side) {
                if let Err(e) = after.validate_by(volley_core::Actor::Side(side), &a) {
                    hidden_ok(after, &e.reason).map_err(|w| format!("a refusal of {a:?}: {w}"))?;
                }
            }
        }
    }
    Ok(())
}

/// Actions a player of `side` might try that the rules may refuse: charging every enemy, turning
/// about a quarter turn and more, a second line's call, riding to every unit of his.
fn tries(b: &Battle, side: u8) -> Vec<Action> {
    use volley_en_avant::orders::Order;
    let mut out = Vec::new();
    for (u, x) in b.units.iter().enumerate().filter(|(_, x)| x.side == side && x.here()) {
        let u = u as u16;
        for (t, _) in b.units.iter().enumerate().filter(|(_, y)| y.side != side) {
            out.push(Action::Order { unit: u, order: Order::Charge { target: t as u16 } });
        }
        for turn in [135.0, 400.0] {
            let facing = ((x.facing + turn).round() as u16) % 360 + if turn > 360.0 { 360 } else { 0 };
            out.push(Action::Order { unit: u, order: Order::Face { facing } });
        }
        out.push(Action::Order { unit: u, order: Order::Fire });
        out.push(Action::Order { unit: u, order: Order::Advance });
        out.push(Action::SecondLine { unit: u });
        out.push(Action::Ride { unit: Some(u) });
    }
    out
}

// Invariants from play (issue 28, item 17), written from the text's clauses and checked over the
// facts each explanation carries (`volley_en_avant::events::Fact`) and the state after each
// action: what a checker of a trace has.

/// The unit called `name`.
fn index(b: &Battle, name: &str) -> Result<usize, String> {
    b.stat().unit_names.iter().position(|n| n == name).ok_or_else(|| format!("no unit called {name:?}"))
}

fn body(b: &Body) -> [Point; 4] {
    b.corners.map(Point::from)
}

fn same(a: &[Point; 4], b: &[Point; 4]) -> bool {
    a.iter().zip(b).all(|(p, q)| p.dist(*q) < 1e-6)
}

/// "In order for units to get into base to base contact …": every close assault is fought
/// between units in contact when it is resolved. The bodies are the state's after the action (an
/// assault's units do not move again that turn; a failed attacker stops short straight back, by
/// the distance its data gives, at most the text's 5 cm), and the data's must agree with them —
/// but for a defender caught in the last turn of a change, which completes after the melee
/// (interpretation 34): where it stands is its change's body, told after the assault.
fn assaults_in_contact(after: &Battle, events: &[Event]) -> Result<(), String> {
    let facts: Vec<&Fact> = events.iter().filter_map(Event::fact).collect();
    for (k, f) in facts.iter().enumerate() {
        let Fact::Assault { defender, body: d_body, attackers, .. } = f else { continue };
        let d = index(after, defender)?;
        let changed = facts[k..].iter().find_map(|g| match g {
            Fact::Manoeuvre { unit, stage: Stage::Done, body: b, .. } if unit == defender => Some(b),
            _ => None,
        });
        let dc = match changed {
            Some(b) if !same(&after.units[d].corners(), &body(b)) => {
                return Err(format!("{defender} is not where its change after the melee says it stands"));
            }
            Some(_) => body(d_body),
            None => after.units[d].corners(),
        };
        if !same(&dc, &body(d_body)) {
            return Err(format!("{defender} is not where its close assault says it stood"));
        }
        for a in attackers {
            let i = index(after, &a.unit)?;
            let back = a.stood_off.unwrap_or(0.0);
            if !(0.0..=STAND_OFF + 1e-9).contains(&back) {
                return Err(format!("{} stopped {back:.1} cm short of {defender}", a.unit));
            }
            let fwd = volley_table::unit(after.units[i].facing) * back;
            let then = after.units[i].corners().map(|p| p + fwd);
            if !same(&then, &body(&a.body)) {
                return Err(format!("{} is not where its close assault on {defender} says it stood", a.unit));
            }
            let gap = convex_distance(&then, &dc);
            if gap > CONTACT + 1e-9 {
                return Err(format!("{} assaulted {defender} from {gap:.1} cm away", a.unit));
            }
        }
    }
    Ok(())
}

/// No two bodies overlap after any action (enemies above all: pursuits and runs included).
fn no_overlap(after: &Battle) -> Result<(), String> {
    let here: Vec<usize> = (0..after.units.len()).filter(|&i| after.units[i].here()).collect();
    for &i in &here {
        for &j in here.iter().filter(|&&j| j > i) {
            if convex_overlap(&after.units[i].corners(), &after.units[j].corners()) {
                return Err(format!("{} stands on {}", after.name(i), after.name(j)));
            }
        }
    }
    Ok(())
}

/// A withdrawal the results table orders goes straight back its whole distance, or the
/// register's rule for a blocked one applies (interpretation 35): cut short by the table's edge it
/// leaves the battle; still touching an enemy it is caught and runs; else it stands where the
/// ground stopped it, clear of every enemy.
fn withdrawals_by_the_register(before: &Battle, after: &Battle, events: &[Event]) -> Result<(), String> {
    for f in events.iter().filter_map(Event::fact) {
        let Fact::Withdrawal {
            unit, winner, from, to, heading, ordered, done, stop, rule, touching, turned_at, ..
        } = f
        else {
            continue;
        };
        let i = index(after, unit)?;
        // Straight back its distance: its centre goes `done` on its heading (a turn to face the
        // winner is about its centre, where it stood or on its way).
        let back = volley_table::unit(*heading) * *done;
        let centre = |b: &Body| (Point::from(b.corners[0]) + Point::from(b.corners[2])) * 0.5;
        let faces = (to.facing - from.facing).abs() > 1e-9;
        if centre(to).dist(centre(from) + back) > 1e-6
            || faces != turned_at.is_some()
            || turned_at.is_some_and(|t| !(0.0..=*done + 1e-9).contains(&t))
        {
            return Err(format!("{unit} did not withdraw straight {done:.1} cm (turned at {turned_at:?})"));
        }
        // Facing the winner where it ends, if it turned.
        if turned_at.is_some() && volley_table::turn(norm_heading(to.facing + 180.0), *heading).abs() > 1e-6 {
            return Err(format!(
                "{unit} turned to face {:.0}°, not its winner {winner} ({heading:.0}° reversed)",
                to.facing
            ));
        }
        // Away from the winner, where it stood as the turn's moves began (or where it stood after
        // them, had it moved first: a winner withdrawing from another fight).
        let w = index(before, winner)?;
        let away = |b: &Battle| volley_table::heading_to(b.units[w].centre(), centre(from));
        if before.units[w].here() && [before, after].iter().all(|b| volley_table::turn(away(b), *heading).abs() > 1e-6)
        {
            return Err(format!("{unit} withdrew on {heading:.0}°, not away from {winner} ({:.0}°)", away(before)));
        }
        if *done > ordered + 1e-6 {
            return Err(format!("{unit} withdrew {done:.1} cm of {ordered} cm"));
        }
        let table = &after.stat().table;
        let touches = |b: &Battle| {
            (0..b.units.len()).any(|j| {
                b.units[j].here()
                    && b.units[j].side != b.units[i].side
                    && convex_distance(&body(to), &b.units[j].corners()) <= CONTACT
            })
        };
        match rule {
            Blocked::None if *done < ordered - 1e-6 => {
                return Err(format!("{unit} withdrew {done:.1} cm of {ordered} cm with no rule for it"));
            }
            Blocked::None => {}
            Blocked::Short => {
                if *done >= ordered - 1e-6 || matches!(stop, Stop::Edge | Stop::Full) || touches(before) {
                    return Err(format!("{unit}: cut short ({stop:?}) though {done:.1} of {ordered} cm and clear"));
                }
            }
            Blocked::OffTheField => {
                let further = volley_table::unit(*heading) * (ordered - done).min(STEP);
                let next = body(to).map(|p| p + further);
                if *stop != Stop::Edge
                    || next.iter().all(|&p| table.contains(p))
                    || after.units[i].presence != Presence::Removed
                {
                    return Err(format!("{unit} left the field though its way back was not over the edge"));
                }
            }
            Blocked::Caught => {
                let e = touching.as_deref().map(|n| index(after, n)).transpose()?;
                let held = e.is_some_and(|e| {
                    [before, after].iter().any(|b| convex_distance(&body(to), &b.units[e].corners()) <= CONTACT)
                });
                let broke = !after.units[i].here() || after.units[i].running();
                if matches!(stop, Stop::Edge | Stop::Full) || !held || !broke {
                    return Err(format!("{unit} was caught ({stop:?}) though clear of the enemy, or did not break"));
                }
            }
        }
    }
    Ok(())
}

/// What the play invariants keep from one action to the next: the turn last played, each pair
/// of enemies in contact with the turns in a row they have stood so with no combat and no
/// written reason, and the pairs whose last close assault was drawn and who have stood in contact
/// since.
#[derive(Default)]
struct Watch {
    turn: u32,
    streak: Vec<((usize, usize), u32)>,
    drawn: Vec<(usize, usize)>,
}

/// The turns in a row two enemies may stand in contact with no combat between them and no
/// written reason before the check reports them.
const FROZEN: u32 = 3;

/// No enemies stand in contact for three turns without combat (a close assault or a fire between
/// them) or a written reason the register gives (interpretations 31, 34, 35): one of them would
/// run and its way is blocked, it withdrew and was cut short, or it failed to close and cannot
/// draw back; or their last close assault, fought between them, was drawn (interpretation 40:
/// no rule parts two units that charged each other and tied, and either may charge again or
/// move off when it will).
fn contacts_resolve(w: &mut Watch, before: &Battle, after: &Battle, events: &[Event]) -> Result<(), String> {
    if before.turn == after.turn && after.outcome.is_none() {
        return Ok(()); // orders given: no turn played
    }
    if before.turn <= w.turn {
        w.streak.clear(); // a new battle
        w.drawn.clear();
    }
    w.turn = before.turn;
    let mut fought: Vec<(usize, usize)> = Vec::new();
    let mut excused: Vec<usize> = Vec::new();
    let pair = |a: usize, b: usize| (a.min(b), a.max(b));
    for f in events.iter().filter_map(Event::fact) {
        match f {
            Fact::Assault { defender, attackers, results, .. } => {
                let d = index(after, defender)?;
                let drawn = !results.is_empty() && results.iter().all(|r| r.next == NextTurn::Drawn);
                for a in attackers {
                    let i = index(after, &a.unit)?;
                    fought.push(pair(i, d));
                    if drawn && !w.drawn.contains(&pair(i, d)) {
                        w.drawn.push(pair(i, d));
                    }
                    if a.stood_off.is_some_and(|s| s < CONTACT) {
                        excused.push(i);
                    }
                }
            }
            Fact::Fire { firer, target, .. } => fought.push(pair(index(after, firer)?, index(after, target)?)),
            Fact::Run { unit, done, ordered, off_the_field: false, .. } if *done < ordered - 1e-6 => {
                excused.push(index(after, unit)?)
            }
            Fact::Withdrawal { unit, rule, .. } if *rule != Blocked::None => excused.push(index(after, unit)?),
            _ => {}
        }
    }
    let n = after.units.len();
    let mut now = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            let (x, y) = (&after.units[a], &after.units[b]);
            if !x.here() || !y.here() || x.side == y.side || after.gap(a, b) > CONTACT {
                continue;
            }
            let k = (a, b);
            let was = w.streak.iter().find(|(p, _)| *p == k).map_or(0, |(_, s)| *s);
            let excuse = fought.contains(&k) || excused.contains(&a) || excused.contains(&b) || w.drawn.contains(&k);
            let s = if excuse { 0 } else { was + 1 };
            if s >= FROZEN {
                return Err(format!(
                    "{} and {} have stood in contact {s} turns with no combat and no reason",
                    after.name(a),
                    after.name(b)
                ));
            }
            now.push((k, s));
        }
    }
    w.drawn.retain(|k| now.iter().any(|(p, _)| p == k));
    w.streak = now;
    Ok(())
}

/// All the invariants from play.
fn play(w: &mut Watch, before: &Battle, after: &Battle, events: &[Event]) -> Result<(), String> {
    assaults_in_contact(after, events)?;
    no_overlap(after)?;
    withdrawals_by_the_register(before, after, events)?;
    contacts_resolve(w, before, after, events)
}

/// Battles of each kind the play invariants run over: 4 kinds × 2 scenarios × this = 200.
const PLAYED: u64 = 25;

#[test]
fn random_agents_conform() {
    for s in SCENARIOS {
        let b = scenario(s);
        let mut w = Watch::default();
        let r = check_with(
            || b.clone(),
            agents(["random", "random"]),
            41,
            games(2 * PLAYED),
            100_000,
            |x, a, y, e| {
                invariants(x, a, y, e)?;
                play(&mut w, x, y, e)
            },
        );
        assert_eq!(r.games, games(2 * PLAYED), "{s}");
        eprintln!("{s} random: {r:?}");
    }
}

#[test]
fn heuristic_agents_conform_and_fight() {
    for s in SCENARIOS {
        let b = scenario(s);
        for (kinds, master) in [(["heuristic", "random"], 44), (["random", "heuristic"], 45)] {
            let mut w = Watch::default();
            let r = check_with(
                || b.clone(),
                agents(kinds),
                master,
                games(PLAYED),
                100_000,
                |x, a, y, e| {
                    invariants(x, a, y, e)?;
                    play(&mut w, x, y, e)
                },
            );
            eprintln!("{s} {kinds:?}: {r:?}");
            assert_eq!(r.games, games(PLAYED));
        }
        let r = check_with(|| b.clone(), agents(["heuristic", "heuristic"]), 42, games(4), 100_000, invariants);
        eprintln!("{s} heuristic: {r:?}");
        assert!(r.games > 0);
    }
}

#[test]
fn the_heuristic_player_beats_the_random_one_in_nine_decided_battles_of_ten() {
    // The Heath is even (each side the other turned about the table's centre).
    let b = scenario("the-heath.toml");
    let (mut heuristic_wins, mut random_wins) = (0, 0);
    for (kinds, h) in [(["heuristic", "random"], 0u8), (["random", "heuristic"], 1u8)] {
        let r = check(|| b.clone(), agents(kinds), 43, 20, 100_000);
        heuristic_wins += r.results[usize::from(h)];
        random_wins += r.results[usize::from(1 - h)];
    }
    eprintln!("The Heath: heuristic {heuristic_wins} wins, random {random_wins}");
    assert!(
        heuristic_wins >= 9 * (heuristic_wins + random_wins) / 10,
        "heuristic {heuristic_wins}, random {random_wins}"
    );
}

#[test]
fn the_heuristic_scores_the_same_all_together_as_one_by_one() {
    for s in SCENARIOS {
        let b = scenario(s);
        let n = volley_ai::check_scores(&b, 300, 5).unwrap_or_else(|e| panic!("{s}: {e}"));
        assert!(n > 50, "{n} decisions checked");
    }
}

#[test]
fn the_property_test_catches_a_number() {
    let b = scenario("the-farm.toml");
    assert!(hidden_ok(&b, "1/52nd's volley shakes 2/6e Leger: it is now Nervous").is_ok());
    assert!(hidden_ok(&b, "1/52nd is now Nervous (3)").is_err());
    assert!(hidden_ok(&b, "step one: Steady +1 outnumbering").is_err());
    assert!(hidden_ok(&b, "turn 3 of 12").is_ok());
}

// Every text a person reads — the account's lines, the phase, the pieces' labels and status,
// the markers, the notes, the candidates' descriptions — in words: no name from the program
// (a `Debug` name such as `RunAway`, braces, snake_case) and no place given as raw coordinates
// (`[15.0, 13.9]`) in a candidate's description or an event's text, over seeded battles of every
// bundled scenario.

/// Proper names of the scenarios that are not in the view (commanders) and are spelled with a
/// capital inside a word.
const NAMES: &[&str] = &[];

#[test]
fn every_text_a_person_reads_is_in_words() {
    for s in SCENARIOS {
        let b = scenario(s);
        for (kind, master, games) in [("heuristic", 71, 3), ("random", 72, 2)] {
            let words = Words { no_coordinates: true, distinct_choices: true };
            let read = check_words_with(|| b.clone(), agents([kind, kind]), master, games, 100_000, NAMES, words);
            assert!(read > 100, "{s}: only {read} texts read");
        }
    }
}

// Each play invariant shown able to fail: fed a doctored step or state, it reports.

mod common;

/// Blue's horse charges Red's line 12 cm off and wins: (the battle before, after, the events).
fn a_close_assault() -> (Battle, Battle, Vec<Event>) {
    use volley_en_avant::orders::Order;
    let mut b = common::battle(
        &common::blues(r#"{ name = "Blue horse", kind = "cavalry", at = [90, 40] }"#),
        &common::reds(r#"{ name = "Red line", kind = "infantry", at = [90, 52] }"#),
        "",
    );
    let (h, r) = (common::unit(&b, "Blue horse"), common::unit(&b, "Red line"));
    let mut events = Vec::new();
    let mut chance = volley_chance::Seeded::new(1);
    let charge = Action::Order { unit: h as u16, order: Order::Charge { target: r as u16 } };
    b.apply(&charge, &mut chance, &mut events).unwrap();
    b.apply(&Action::Done, &mut chance, &mut events).unwrap();
    let before = b.clone();
    b.apply(&Action::Done, &mut chance, &mut events).unwrap();
    (before, b, events)
}

/// The events with each fact changed by `f`.
fn doctored(events: &[Event], mut f: impl FnMut(&mut Fact)) -> Vec<Event> {
    let mut out = events.to_vec();
    for e in &mut out {
        if let Event::Explained { fact: Some(x), .. } = e {
            f(x);
        }
    }
    out
}

#[test]
fn the_assault_check_reports_an_assault_fought_out_of_contact() {
    let (_, after, events) = a_close_assault();
    assaults_in_contact(&after, &events).unwrap();
    let r = common::unit(&after, "Red line");
    // The defender stood elsewhere than the data says.
    let mut moved = after.clone();
    moved.units[r].at.y += 10.0;
    assert!(assaults_in_contact(&moved, &events).unwrap_err().contains("not where"));
    // State and data agree, 10 cm apart.
    let shifted = after.body(r).corners.map(|p| [p[0], p[1] + 10.0]);
    let far = doctored(&events, |f| {
        if let Fact::Assault { body, .. } = f {
            body.corners = shifted;
        }
    });
    let e = assaults_in_contact(&moved, &far).unwrap_err();
    assert!(e.contains("from 10.0 cm away"), "{e}");
    // A failed attacker said to have stopped farther back than 5 cm.
    let back = doctored(&events, |f| {
        if let Fact::Assault { attackers, .. } = f {
            attackers[0].stood_off = Some(6.0);
        }
    });
    assert!(assaults_in_contact(&after, &back).unwrap_err().contains("6.0 cm short"));
}

#[test]
fn the_overlap_check_reports_a_body_on_another() {
    let (_, after, _) = a_close_assault();
    no_overlap(&after).unwrap();
    let mut on = after.clone();
    let (h, r) = (common::unit(&after, "Blue horse"), common::unit(&after, "Red line"));
    on.units[h].at = on.units[r].at;
    on.units[h].facing = on.units[r].facing;
    assert!(no_overlap(&on).unwrap_err().contains("stands on"));
}

#[test]
fn the_withdrawal_check_reports_a_withdrawal_cut_short_with_no_rule() {
    let (before, after, _) = a_close_assault();
    let r = common::unit(&after, "Red line");
    let from = after.body(r);
    let mut to = from.clone();
    let heading =
        volley_table::heading_to(before.units[common::unit(&after, "Blue horse")].centre(), after.units[r].centre());
    let back = volley_table::unit(heading) * 4.0;
    to.at = [from.at[0] + back.x, from.at[1] + back.y];
    to.corners = from.corners.map(|p| [p[0] + back.x, p[1] + back.y]);
    let step = |rule, stop| {
        vec![Event::Explained {
            text: String::new(),
            fact: Some(Box::new(Fact::Withdrawal {
                unit: "Red line".into(),
                winner: "Blue horse".into(),
                from: from.clone(),
                to: to.clone(),
                heading,
                ordered: 10.0,
                done: 4.0,
                stop,
                rule,
                touching: None,
                turned_at: None,
                lines: Vec::new(),
            })),
        }]
    };
    let blocked = Stop::Body { unit: "Red reserve".into(), enemy: false };
    withdrawals_by_the_register(&before, &after, &step(Blocked::Short, blocked.clone())).unwrap();
    let e = withdrawals_by_the_register(&before, &after, &step(Blocked::None, blocked.clone())).unwrap_err();
    assert!(e.contains("with no rule"), "{e}");
    // Not away from the winner; off the field with the table's edge nowhere near; caught
    // touching nobody.
    let mut aside = step(Blocked::Short, blocked.clone());
    if let Event::Explained { fact: Some(f), .. } = &mut aside[0]
        && let Fact::Withdrawal { heading, to, from, .. } = f.as_mut()
    {
        *heading += 90.0;
        let v = volley_table::unit(*heading) * 4.0;
        to.at = [from.at[0] + v.x, from.at[1] + v.y];
        to.corners = from.corners.map(|p| [p[0] + v.x, p[1] + v.y]);
    }
    assert!(withdrawals_by_the_register(&before, &after, &aside).unwrap_err().contains("not away from"));
    assert!(withdrawals_by_the_register(&before, &after, &step(Blocked::OffTheField, Stop::Edge)).is_err());
    assert!(withdrawals_by_the_register(&before, &after, &step(Blocked::Caught, blocked)).is_err());
}

#[test]
fn the_contact_check_reports_enemies_standing_in_contact_three_turns() {
    // Blue's horse and Red's line touching front to front, and nothing happening.
    let b = common::battle(
        &common::blues(r#"{ name = "Blue horse", kind = "cavalry", at = [90, 50] }"#),
        &common::reds(r#"{ name = "Red line", kind = "infantry", at = [90, 50] }"#),
        "",
    );
    let turns: Vec<Battle> = (1..=4)
        .map(|t| {
            let mut x = b.clone();
            x.turn = t;
            x
        })
        .collect();
    let mut w = Watch::default();
    contacts_resolve(&mut w, &turns[0], &turns[1], &[]).unwrap();
    contacts_resolve(&mut w, &turns[1], &turns[2], &[]).unwrap();
    let e = contacts_resolve(&mut w, &turns[2], &turns[3], &[]).unwrap_err();
    assert!(e.contains("Blue horse and Red line have stood in contact 3 turns"), "{e}");
    // A written reason each turn: the line would run and its way is blocked.
    let h = common::unit(&b, "Red line");
    let blocked = vec![Event::Explained {
        text: String::new(),
        fact: Some(Box::new(Fact::Run {
            unit: "Red line".into(),
            from: b.body(h),
            to: b.body(h),
            heading: 0.0,
            ordered: 40.0,
            done: 0.0,
            first_turn: true,
            stop: Stop::Body { unit: "Red reserve".into(), enemy: false },
            off_the_field: false,
            turned_at: None,
            cut_down: false,
        })),
    }];
    let mut w = Watch::default();
    for k in 0..3 {
        contacts_resolve(&mut w, &turns[k], &turns[k + 1], &blocked).unwrap();
    }
    // Their close assault drawn in the first turn: they may stand so (interpretation 40).
    let drawn = vec![Event::Explained {
        text: String::new(),
        fact: Some(Box::new(Fact::Assault {
            defender: "Red line".into(),
            body: b.body(h),
            attackers: vec![Attacker {
                unit: "Blue horse".into(),
                body: b.body(common::unit(&b, "Blue horse")),
                direction: Direction::Front,
                gap: 0.0,
                step_one: [
                    Figure { status: 4, modifiers: Vec::new(), total: 4 },
                    Figure { status: 4, modifiers: Vec::new(), total: 4 },
                ],
                closed: true,
                stood_off: None,
            }],
            outnumbering: false,
            mutual: true,
            step_two: None,
            best: None,
            attackers_won: None,
            results: ["Blue horse", "Red line"]
                .map(|u| UnitResult { unit: u.into(), won: false, lines: Vec::new(), next: NextTurn::Drawn })
                .to_vec(),
        })),
    }];
    let mut w = Watch::default();
    contacts_resolve(&mut w, &turns[0], &turns[1], &drawn).unwrap();
    contacts_resolve(&mut w, &turns[1], &turns[2], &[]).unwrap();
    contacts_resolve(&mut w, &turns[2], &turns[3], &[]).unwrap();
}
