//! The conformance harness over every bundled Old Fritz scenario, with both agents; and the
//! heuristic player against the random one.
#![allow(clippy::unwrap_used)] // tests may panic on what they did not expect

use volley_chance::Seeded;
use volley_core::Agent;
use volley_core::conformance::check;
use volley_old_fritz::{Battle, load};
use volley_scenario::Source;

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

/// Games per scenario and agent; `VOLLEY_CONFORMANCE_GAMES` raises it for a long soak.
fn games(default: u64) -> u64 {
    std::env::var("VOLLEY_CONFORMANCE_GAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

const SCENARIOS: &[&str] = &["attack-on-the-ridge.toml", "mittelhof.toml"];

#[test]
fn random_agents_conform() {
    for s in SCENARIOS {
        let b = scenario(s);
        let r = check(|| b.clone(), agents(["random", "random"]), 31, games(40), 100_000);
        assert_eq!(r.games, games(40), "{s}");
        eprintln!("{s} random: {r:?}");
    }
}

#[test]
fn heuristic_agents_conform_and_fight() {
    for s in SCENARIOS {
        let b = scenario(s);
        let r = check(|| b.clone(), agents(["heuristic", "heuristic"]), 32, games(40), 100_000);
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
