//! Every text a person reads — the account's lines, the phase, the pieces' labels and status,
//! the markers, the notes, the candidates' descriptions — in words: no name from the program
//! (a `Debug` name such as `RunAway`, braces, snake_case) and no place given as raw coordinates
//! (`[15.0, 13.9]`) in a candidate's description or an event's text, over seeded battles of every
//! bundled scenario.
#![allow(clippy::unwrap_used)] // tests may panic on what they did not expect

use volley_chance::Seeded;
use volley_core::Agent;
use volley_core::conformance::{Words, check_words_with};
use volley_itchy_scratchy::{Battle, load};
use volley_scenario::Source;

fn scenario(name: &str) -> Battle {
    let path = format!("{}/../../../scenarios/itchy-scratchy/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    load(&Source::new(name, text)).unwrap_or_else(|e| panic!("{e}"))
}

fn agents(kind: &'static str) -> impl FnMut(u64) -> Vec<Box<dyn Agent<Battle>>> {
    move |seed| (0..2).map(|i| volley_ai::by_name::<Battle>(kind, Seeded::derive(seed, i as u64)).unwrap()).collect()
}

const SCENARIOS: &[&str] = &["elands-ridge.toml", "hochdorf-mill.toml"];

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

/// Every attack of seeded battles says for each result rule that could apply what the throw did
/// or what it needed, and the phase says who acts and whether first or second.
#[test]
fn every_attack_says_what_it_needed_and_the_phase_who_acts() {
    use volley_core::{Actor, GameState, Viewer};
    use volley_itchy_scratchy::Event;
    let (mut misses, mut phases) = (0, 0);
    for s in SCENARIOS {
        for g in 0..3 {
            let seed = Seeded::derive(75, g);
            let mut rng = Seeded::new(seed);
            let mut players = agents("heuristic")(seed);
            let mut b = scenario(s);
            let (mut cands, mut events) = (Vec::new(), Vec::new());
            while b.outcome().is_none() {
                let Actor::Side(side) = b.actor() else { break };
                let phase = b.view(Viewer::Spectator).phase;
                if phase.contains("move and attack") {
                    let who = b.view(Viewer::Spectator).sides[usize::from(side)].clone();
                    assert!(phase.starts_with(&format!("the {who} move and attack (")), "{phase}");
                    assert!(phase.ends_with("(first)") || phase.ends_with("(second)"), "{phase}");
                    phases += 1;
                }
                cands.clear();
                b.candidate_actions(&mut cands);
                let i = players[usize::from(side)].choose(&b, &cands);
                events.clear();
                b.apply(&cands[i], &mut rng, &mut events).unwrap();
                for e in &events {
                    let Event::Attack { resolution, .. } = e else { continue };
                    let text = e.to_string();
                    let rules = 1 + usize::from(resolution.situation.general_with_target);
                    let hits =
                        usize::from(resolution.outcome.target_hit) + usize::from(resolution.outcome.general_killed);
                    assert_eq!(text.matches("needed a ").count(), rules - hits, "{text}");
                    if hits == 0 {
                        assert!(text.ends_with(": no effect."), "{text}");
                        misses += 1;
                    }
                    assert!(text.contains(" dice"), "the dice's number explained: {text}");
                }
            }
        }
    }
    assert!(misses > 20 && phases > 20, "{misses} misses, {phases} phases read");
}
