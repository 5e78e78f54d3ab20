//! The conformance harness over every bundled Blown Away scenario, with both agents.
#![allow(clippy::unwrap_used)] // tests may panic on what they did not expect

use volley_blown_away::{Battle, load};
use volley_core::Agent;
use volley_core::conformance::check;
use volley_scenario::Source;

fn scenario(name: &str) -> Battle {
    let path = format!("{}/../../../scenarios/blown-away/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    load(&Source::new(name, text)).unwrap_or_else(|e| panic!("{e}"))
}

fn agents(kind: &'static str) -> impl FnMut(u64) -> Vec<Box<dyn Agent<Battle>>> {
    move |seed| (0..2).map(|i| volley_ai::by_name::<Battle>(kind, seed.wrapping_add(i)).expect("known agent")).collect()
}

/// Games per scenario and agent; `VOLLEY_CONFORMANCE_GAMES` raises it for a long soak.
fn games(default: u64) -> u64 {
    std::env::var("VOLLEY_CONFORMANCE_GAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

const SCENARIOS: &[&str] = &[
    "advance-guard.toml",
    "crossroads.toml",
    "fieldworks.toml",
    "seven-years-war-chance.toml",
    "seven-years-war-without-chance.toml",
];

#[test]
fn random_agents_conform() {
    for s in SCENARIOS {
        let b = scenario(s);
        let r = check(|| b.clone(), agents("random"), 11, games(100), 200_000);
        assert_eq!(r.games, games(100), "{s}");
        eprintln!("{s} random: {r:?}");
    }
}

#[test]
fn heuristic_agents_conform_and_finish_battles() {
    for s in SCENARIOS {
        let b = scenario(s);
        let r = check(|| b.clone(), agents("heuristic"), 12, games(100), 200_000);
        eprintln!("{s} heuristic: {r:?}");
        assert!(r.results[0] + r.results[1] > 0, "{s}: heuristic battles should sometimes be won");
    }
}

#[test]
fn the_heuristic_scores_the_same_all_together_as_one_by_one() {
    // The scores of a decision share what they can (the enemy bodies, the nearest enemy to a
    // unit's front, the objective a unit alone holds, whether a gun has a target): it must
    // change no score. Five Fieldworks side by side as well.
    let path = format!("{}/../../../scenarios/blown-away/fieldworks.toml", env!("CARGO_MANIFEST_DIR"));
    let tiled = volley_scenario::generate::tile(&std::fs::read_to_string(path).unwrap(), 5).unwrap();
    let mut battles: Vec<Battle> = SCENARIOS.iter().map(|s| scenario(s)).collect();
    battles.push(load(&Source::new("tiled", tiled)).unwrap());
    for b in battles {
        let n = volley_ai::check_scores(&b, 300, 5).unwrap_or_else(|e| panic!("{}: {e}", b.stat().name));
        assert!(n > 50, "{n} decisions checked");
    }
}
