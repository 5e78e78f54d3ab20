//! The conformance harness over every bundled En Avant scenario, with random and heuristic
//! players; the table's geometry checked after every action; and the property that with the rules
//! hidden no player-facing text carries a number, a modifier or a table.
#![allow(clippy::unwrap_used)] // tests may panic on what they did not expect

use volley_core::conformance::{Words, check_words_with};
use volley_core::conformance::{check, check_with, games};
use volley_core::{Agent, GameState, Viewer};
use volley_en_avant::battle::Presence;
use volley_en_avant::model::rate;
use volley_en_avant::{Action, Battle, Event, load};
use volley_scenario::Source;
use volley_table::convex_overlap;

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
    }
    Ok(())
}

#[test]
fn random_agents_conform() {
    for s in SCENARIOS {
        let b = scenario(s);
        let r = check_with(|| b.clone(), agents(["random", "random"]), 41, games(20), 100_000, invariants);
        assert_eq!(r.games, games(20), "{s}");
        eprintln!("{s} random: {r:?}");
    }
}

#[test]
fn heuristic_agents_conform_and_fight() {
    for s in SCENARIOS {
        let b = scenario(s);
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
            let words = Words { no_coordinates: true };
            let read = check_words_with(|| b.clone(), agents([kind, kind]), master, games, 100_000, NAMES, words);
            assert!(read > 100, "{s}: only {read} texts read");
        }
    }
}
