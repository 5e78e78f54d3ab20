//! Every text a person reads — the account's lines, the phase, the pieces' labels and status,
//! the markers, the notes, the candidates' descriptions — in words: no name from the program
//! (a `Debug` name such as `RunAway`, braces, snake_case) and no place given as raw coordinates
//! (`[15.0, 13.9]`) in a candidate's description or an event's text, over seeded battles of every
//! bundled scenario.
#![allow(clippy::unwrap_used)] // tests may panic on what they did not expect

use volley_blown_away::{Battle, load};
use volley_chance::Seeded;
use volley_core::Agent;
use volley_core::conformance::{Words, check_words_with};
use volley_scenario::Source;

fn scenario(name: &str) -> Battle {
    let path = format!("{}/../../../scenarios/blown-away/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    load(&Source::new(name, text)).unwrap_or_else(|e| panic!("{e}"))
}

fn agents(kind: &'static str) -> impl FnMut(u64) -> Vec<Box<dyn Agent<Battle>>> {
    move |seed| (0..2).map(|i| volley_ai::by_name::<Battle>(kind, Seeded::derive(seed, i as u64)).unwrap()).collect()
}

const SCENARIOS: &[&str] = &[
    "advance-guard.toml",
    "crossroads.toml",
    "fieldworks.toml",
    "seven-years-war-chance.toml",
    "seven-years-war-without-chance.toml",
];

/// Proper names of the scenarios that are not in the view (commanders) and are spelled with a
/// capital inside a word.
const NAMES: &[&str] = &[];

#[test]
fn every_text_a_person_reads_is_in_words() {
    for s in SCENARIOS {
        let b = scenario(s);
        for (kind, master, games) in [("heuristic", 71, 2), ("random", 72, 1)] {
            let words = Words { no_coordinates: true };
            let read = check_words_with(|| b.clone(), agents(kind), master, games, 100_000, NAMES, words);
            assert!(read > 100, "{s}: only {read} texts read");
        }
    }
}

/// `text` without what stands in brackets (the reasons).
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

/// Every combat of seeded battles gives the men to run term by term, and the terms add up.
#[test]
fn the_men_to_run_are_given_term_by_term_and_add_up() {
    use volley_core::{Actor, GameState};
    let mut read = 0;
    for s in SCENARIOS {
        let seed = Seeded::derive(76, 0);
        let mut rng = Seeded::new(seed);
        let mut players = agents("heuristic")(seed);
        let mut b = scenario(s);
        let (mut cands, mut events) = (Vec::new(), Vec::new());
        while b.outcome().is_none() {
            let Actor::Side(side) = b.actor() else { break };
            cands.clear();
            b.candidate_actions(&mut cands);
            let i = players[usize::from(side)].choose(&b, &cands);
            events.clear();
            b.apply(&cands[i], &mut rng, &mut events).unwrap();
            for line in events.iter().map(ToString::to_string) {
                for (at, _) in line.match_indices(" to run: ") {
                    let before: String = line[..at]
                        .chars()
                        .rev()
                        .take_while(char::is_ascii_digit)
                        .collect::<Vec<_>>()
                        .into_iter()
                        .rev()
                        .collect();
                    let total: i32 = before.parse().unwrap();
                    let rest = &line[at + 9..];
                    let terms = without_brackets(&rest[..rest.find(" -> ").unwrap()]);
                    // Fewer than none run none: "... = -1: none".
                    let terms = terms.split(" = ").next().unwrap_or("");
                    let sum: i32 = terms.split_whitespace().map(|t| t.parse::<i32>().unwrap()).sum();
                    assert_eq!(sum.max(0), total, "{line}");
                    read += 1;
                }
            }
        }
    }
    assert!(read > 20, "{read} combats read");
}
