//! The conformance harness over every bundled Itchy and Scratchy scenario, with both agents.
#![allow(clippy::unwrap_used)] // tests may panic on what they did not expect

use volley_chance::Seeded;
use volley_core::Agent;
use volley_core::conformance::{Words, check_words_with};
use volley_core::conformance::{check, check_with, games};
use volley_itchy_scratchy::{Action, Battle, Event, load};
use volley_scenario::Source;
use volley_table::grid::{Area, line_between};

fn scenario(name: &str) -> Battle {
    let path = format!("{}/../../../scenarios/itchy-scratchy/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    load(&Source::new(name, text)).unwrap_or_else(|e| panic!("{e}"))
}

fn agents(kind: &'static str) -> impl FnMut(u64) -> Vec<Box<dyn Agent<Battle>>> {
    move |seed| (0..2).map(|i| volley_ai::by_name::<Battle>(kind, seed.wrapping_add(i)).unwrap()).collect()
}

const SCENARIOS: &[&str] = &["elands-ridge.toml", "hochdorf-mill.toml"];

#[test]
fn an_objective_of_several_areas_is_drawn_round_all_of_them() {
    // Eland's Ridge: the ridge is the block from [4, 7] to [7, 7], four areas in a row.
    let b = scenario("elands-ridge.toml");
    let v = volley_core::GameState::view(&b, volley_core::Viewer::Umpire);
    let ridge = v.objectives.iter().find(|o| o.name == "the ridge").unwrap();
    assert_eq!(ridge.points, vec![[4.0, 7.0], [8.0, 7.0], [8.0, 8.0], [4.0, 8.0]]);
}

#[test]
fn random_agents_conform() {
    for s in SCENARIOS {
        let b = scenario(s);
        let r = check_with(|| b.clone(), agents("random"), 21, games(200), 100_000, invariants);
        assert_eq!(r.games, games(200), "{s}");
        eprintln!("{s} random: {r:?}");
    }
}

#[test]
fn heuristic_agents_conform_and_finish_battles() {
    for s in SCENARIOS {
        let b = scenario(s);
        let r = check(|| b.clone(), agents("heuristic"), 22, games(200), 100_000);
        eprintln!("{s} heuristic: {r:?}");
        assert!(r.results[0] + r.results[1] > 0, "{s}: heuristic battles should be won");
    }
}

#[test]
fn the_heuristic_scores_the_same_all_together_as_one_by_one() {
    // The scores of a decision share a survey of the battle (where the units stand, how far
    // the nearest enemy and objective are): it must change no score. Ten Elands Ridges side by
    // side as well, where the survey matters most.
    let path = format!("{}/../../../scenarios/itchy-scratchy/elands-ridge.toml", env!("CARGO_MANIFEST_DIR"));
    let tiled = volley_scenario::generate::tile(&std::fs::read_to_string(path).unwrap(), 10).unwrap();
    let big = load(&Source::new("tiled", tiled)).unwrap();
    for (b, decisions) in [(scenario("elands-ridge.toml"), 400), (scenario("hochdorf-mill.toml"), 400), (big, 300)] {
        let n = volley_ai::check_scores(&b, decisions, 5).unwrap_or_else(|e| panic!("{}: {e}", b.stat().name));
        assert!(n > 100, "{} decisions checked", n);
    }
}

// ----- The grid's geometry, checked after every action of the battles above -----

/// What the text allows of one action, from the grid before it: a move of edge steps within the
/// unit's rate (one less if it attacked), never into an enemy's area, halting on entering an
/// area next to an enemy; an attack within the weapon's reach, its line of fire entering no
/// cover but the target's own.
fn invariants(before: &Battle, action: &Action, _after: &Battle, _events: &[Event]) -> Result<(), String> {
    let enemy_at = |side: u8, a: Area| before.units.iter().any(|x| x.alive() && x.side != side && x.area == a);
    match action {
        Action::Move { unit, path, .. } => {
            let u = &before.units[usize::from(*unit)];
            let allow = u.allowance(u.attacked.is_some());
            if path.len() > usize::from(allow) {
                return Err(format!("{} moved {} areas (rate {allow})", before.name(usize::from(*unit)), path.len()));
            }
            let mut at = u.area;
            for (k, &next) in path.iter().enumerate() {
                if at.distance(next) != 1 {
                    return Err(format!("a step from {at:?} to {next:?} is not through an edge"));
                }
                if enemy_at(u.side, next) {
                    return Err(format!("{} entered an enemy's area {next:?}", before.name(usize::from(*unit))));
                }
                let next_to_enemy = next.neighbours().into_iter().any(|n| enemy_at(u.side, n));
                if next_to_enemy && k + 1 < path.len() {
                    return Err(format!("{} went on past {next:?}, next to an enemy", before.name(usize::from(*unit))));
                }
                at = next;
            }
        }
        Action::Attack { unit, target } => {
            let (u, t) = (&before.units[usize::from(*unit)], &before.units[usize::from(*target)]);
            let weapon = u.weapon.ok_or("an attack by a unit with no weapon")?;
            let range = u.area.distance(t.area);
            if range > u16::from(weapon.max_range()) {
                return Err(format!("an attack at range {range}, beyond {}", weapon.max_range()));
            }
            let cover = |a: Area| before.stat().terrain(a).cover();
            let (between, corners) = line_between(u.area, t.area);
            if let Some(a) = between.into_iter().find(|&a| cover(a)) {
                return Err(format!("a line of fire through cover at {a:?} to a target beyond"));
            }
            if corners.into_iter().any(|[x, y]| cover(x) && cover(y)) {
                return Err("a line of fire between two areas of cover meeting at a corner".into());
            }
        }
        _ => {}
    }
    Ok(())
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
