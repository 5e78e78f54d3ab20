//! Every text a person reads — the account's lines, the phase, the pieces' labels and status,
//! the markers, the notes, the candidates' descriptions — in words: no name from the program
//! (a `Debug` name such as `RunAway`, braces, snake_case) and no place given as raw coordinates
//! (`[15.0, 13.9]`) in a candidate's description or an event's text, over seeded battles of every
//! bundled scenario.
#![allow(clippy::unwrap_used)] // tests may panic on what they did not expect

use volley_chance::Seeded;
use volley_core::Agent;
use volley_core::conformance::{Words, check_words_with};
use volley_old_fritz::{Battle, load};
use volley_scenario::Source;

fn scenario(name: &str) -> Battle {
    let path = format!("{}/../../../scenarios/old-fritz/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    load(&Source::new(name, text)).unwrap_or_else(|e| panic!("{e}"))
}

fn agents(kind: &'static str) -> impl FnMut(u64) -> Vec<Box<dyn Agent<Battle>>> {
    move |seed| (0..2).map(|i| volley_ai::by_name::<Battle>(kind, Seeded::derive(seed, i as u64)).unwrap()).collect()
}

const SCENARIOS: &[&str] = &["attack-on-the-ridge.toml", "mittelhof.toml"];

/// Proper names of the scenarios that are not in the view (commanders) and are spelled with a
/// capital inside a word: the generals' rank "GdC" (General der Cavallerie).
const NAMES: &[&str] = &["GdC"];

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

/// Every event's text of `games` battles of scenario `s` with `kind` players.
fn accounts(s: &str, kind: &'static str, master: u64, games: u64) -> Vec<String> {
    use volley_core::{Actor, GameState};
    let mut lines = Vec::new();
    for g in 0..games {
        let seed = Seeded::derive(master, g);
        let mut rng = Seeded::new(seed);
        let mut players = agents(kind)(seed);
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
