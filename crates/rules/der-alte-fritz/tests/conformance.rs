//! The conformance harness over every bundled Der Alte Fritz scenario, with both agents, and the
//! table's geometry checked after every action; the heuristic player against the random one.
#![allow(clippy::unwrap_used)] // tests may panic on what they did not expect

use volley_core::Agent;
use volley_core::conformance::{Words, check_words_with};
use volley_core::conformance::{check, check_with, games};
use volley_der_alte_fritz::model::{Formation, State, rate};
use volley_der_alte_fritz::units::Arm;
use volley_der_alte_fritz::{Action, Battle, Event, load};
use volley_scenario::Source;
use volley_table::convex_overlap;

fn scenario(name: &str) -> Battle {
    let path = format!("{}/../../../scenarios/der-alte-fritz/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    load(&Source::new(name, text)).unwrap_or_else(|e| panic!("{e}"))
}

fn agents(kinds: [&'static str; 2]) -> impl FnMut(u64) -> Vec<Box<dyn Agent<Battle>>> {
    let names = kinds.map(String::from);
    move |seed| volley_ai::seated::<Battle>(&names, seed).unwrap()
}

const SCENARIOS: &[&str] = &["the-village.toml", "lobositz.toml"];

/// The farthest a unit may go in one action by the text's rates: its fastest formation's rate
/// with the charge bonus (a charge), or the pursuit's line rate and 24", or a rout move.
fn most(b: &Battle, u: usize) -> f64 {
    let x = &b.units[u];
    let p = x.kind.profile();
    let fastest = volley_der_alte_fritz::model::formations(x.kind).filter_map(|f| rate(x.kind, f)).fold(0.0, f64::max);
    let pursuit = if x.arm() == Arm::Cavalry { p.line.or(p.skirmish).unwrap_or(0.0) + 24.0 } else { 0.0 };
    (fastest + p.charge.unwrap_or(0.0)).max(pursuit).max(x.rout_move()) + 0.2
}

/// What the text allows of one action: no footprint on another, every unit on the table, no
/// move beyond the rates, a move's words matching where the unit went, squares standing still.
fn invariants(before: &Battle, action: &Action, after: &Battle, events: &[Event]) -> Result<(), String> {
    let present: Vec<usize> = (0..after.units.len()).filter(|&i| after.units[i].present()).collect();
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
        let moved = before.units[i].at.dist(u.at);
        if moved > most(before, i) {
            return Err(format!("{} went {moved:.1}\" in one action (at most {:.1})", after.name(i), most(before, i)));
        }
    }
    if let Action::Move { unit, formation, .. } = action {
        let u0 = &before.units[usize::from(*unit)];
        if u0.formation == Formation::Square && *formation == Formation::Square && moved_by(before, after, *unit) > 1e-9
        {
            return Err("a square moved".into());
        }
        if !events.iter().any(|e| matches!(e, Event::Moved { unit: m, .. } if m == unit)) {
            return Err(format!("a move of {} told nothing", before.name(usize::from(*unit))));
        }
    }
    // The quick test for a phase with nothing to do (entering a phase, one is passed over when its
    // side could only end it) agrees with the candidates.
    let mut cands = Vec::new();
    volley_core::GameState::candidate_actions(after, &mut cands);
    if after.has_choice() != (cands.len() > 1) {
        return Err(format!("has_choice {} but {} candidates: {cands:?}", after.has_choice(), cands.len()));
    }
    // Counts never grow: figures, and a removed unit stays removed.
    for (u0, u1) in before.units.iter().zip(&after.units) {
        if u1.figures > u0.figures || (u0.state == State::Removed && u1.state != State::Removed) {
            return Err("a unit came back".into());
        }
    }
    Ok(())
}

fn moved_by(before: &Battle, after: &Battle, u: u16) -> f64 {
    before.units[usize::from(u)].at.dist(after.units[usize::from(u)].at)
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
        let r = check_with(|| b.clone(), agents(["heuristic", "heuristic"]), 42, games(20), 100_000, invariants);
        eprintln!("{s} heuristic: {r:?}");
        assert!(r.results[0] + r.results[1] > 0, "{s}: some heuristic battles should be won");
    }
}

#[test]
fn the_heuristic_player_beats_the_random_one_in_nine_decided_battles_of_ten() {
    // The Village is even: the same three battalions, a regiment and a battery a side. The
    // heuristic side, played from both sides, wins at least nine in ten of the decided battles.
    let b = scenario("the-village.toml");
    let (mut heuristic_wins, mut random_wins) = (0, 0);
    for (kinds, h) in [(["heuristic", "random"], 0u8), (["random", "heuristic"], 1u8)] {
        let r = check(|| b.clone(), agents(kinds), 43, 20, 100_000);
        heuristic_wins += r.results[usize::from(h)];
        random_wins += r.results[usize::from(1 - h)];
    }
    eprintln!("The Village: heuristic {heuristic_wins} wins, random {random_wins}");
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
