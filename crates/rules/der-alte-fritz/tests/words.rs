//! Every text a person reads — the account's lines, the phase, the pieces' labels and status,
//! the markers, the notes, the candidates' descriptions — in words: no name from the program
//! (a `Debug` name such as `RunAway`, braces, snake_case) and no place given as raw coordinates
//! (`[15.0, 13.9]`) in a candidate's description or an event's text, over seeded battles of every
//! bundled scenario.
#![allow(clippy::unwrap_used)] // tests may panic on what they did not expect

use volley_chance::Seeded;
use volley_core::Agent;
use volley_core::conformance::{Words, check_words_with};
use volley_der_alte_fritz::{Battle, load};
use volley_scenario::Source;

fn scenario(name: &str) -> Battle {
    let path = format!("{}/../../../scenarios/der-alte-fritz/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    load(&Source::new(name, text)).unwrap_or_else(|e| panic!("{e}"))
}

fn agents(kind: &'static str) -> impl FnMut(u64) -> Vec<Box<dyn Agent<Battle>>> {
    move |seed| (0..2).map(|i| volley_ai::by_name::<Battle>(kind, Seeded::derive(seed, i as u64)).unwrap()).collect()
}

const SCENARIOS: &[&str] = &["the-village.toml", "lobositz.toml"];

/// Proper names of the scenarios that are not in the view (commanders) and are spelled with a
/// capital inside a word.
const NAMES: &[&str] = &[];

#[test]
fn every_text_a_person_reads_is_in_words() {
    for s in SCENARIOS {
        let b = scenario(s);
        for (kind, master, games) in [("heuristic", 71, 3), ("random", 72, 2)] {
            let words = Words { no_coordinates: true };
            let read = check_words_with(|| b.clone(), agents(kind), master, games, 100_000, NAMES, words);
            assert!(read > 100, "{s}: only {read} texts read");
        }
    }
}
