//! Blown Away benchmarks: full battles, card combats, and the draws they need.
//!
//! Run with `cargo bench -p volley-blown-away --bench blown_away`; the figures go in
//! BENCHMARKS.md.

use std::hint::black_box;

use divan::{Bencher, counter::ItemsCount};
use volley_ai::HeuristicAgent;
use volley_blown_away::combat::{CardSide, Quarter, resolve_cards};
use volley_blown_away::model::Arm;
use volley_blown_away::{Battle, load};
use volley_chance::{Deck, Seeded};
use volley_core::Agent;
use volley_core::log::Header;
use volley_core::run::Runner;
use volley_scenario::Source;

fn main() {
    divan::main();
}

fn scenario(name: &str) -> Battle {
    let path = format!("{}/../../../scenarios/blown-away/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    load(&Source::new(path, text)).unwrap_or_else(|e| panic!("{e}"))
}

fn header() -> Header {
    Header::unkept("blown-away", 0)
}

/// Play one battle heuristic against heuristic; returns the number of decisions.
fn battle(start: &Battle, seed: u64) -> usize {
    let mut a = HeuristicAgent::new(seed ^ 1);
    let mut b = HeuristicAgent::new(seed ^ 2);
    let agents: Vec<&mut dyn Agent<Battle>> = vec![&mut a, &mut b];
    let mut runner = Runner::new(start.clone(), header(), agents);
    runner.keep_events = false;
    let mut rng = Seeded::new(seed);
    if let Err(e) = runner.play(&mut rng, 1_000_000) {
        panic!("seed {seed}: {e}");
    }
    runner.log.entries.len()
}

/// Whole battles, heuristic against heuristic, one core: battles per second is the item rate.
#[divan::bench(args = ["advance-guard", "crossroads", "fieldworks", "seven-years-war-chance", "seven-years-war-without-chance"], sample_count = 10, sample_size = 5)]
fn full_battle(bencher: Bencher, name: &str) {
    let start = scenario(name);
    let mut seed = 0u64;
    bencher.counter(ItemsCount::new(1usize)).bench_local(|| {
        seed += 1;
        black_box(battle(&start, seed))
    });
}

const COMBATS: usize = 10_000;

fn sides() -> [CardSide; 2] {
    let inf = CardSide { arm: Some(Arm::Infantry), killed_before: 2, ..CardSide::default() };
    let cav = CardSide { arm: Some(Arm::Cavalry), quarter: Quarter::Flank, ..CardSide::default() };
    [cav, inf]
}

/// Card combats resolved: two cards turned up from the sides' decks, then the result worked out.
#[divan::bench]
fn card_combat_resolved(bencher: Bencher) {
    let sides = sides();
    let mut rng = Seeded::new(7);
    let mut decks = [Deck::new(), Deck::new()];
    bencher.counter(ItemsCount::new(COMBATS)).bench_local(|| {
        let mut killed = 0u32;
        for _ in 0..COMBATS {
            let a = decks[0].draw(&mut rng, &"bench").unwrap_or(1);
            let b = decks[1].draw(&mut rng, &"bench").unwrap_or(1);
            let r = resolve_cards(black_box(&sides), [a, b]);
            killed += r.losses.iter().flatten().map(|l| u32::from(l.killed)).sum::<u32>();
        }
        black_box(killed)
    });
}

/// The same two cards drawn, without the combat: the cost of the draws alone.
#[divan::bench]
fn card_draws_only(bencher: Bencher) {
    let mut rng = Seeded::new(7);
    let mut decks = [Deck::new(), Deck::new()];
    bencher.counter(ItemsCount::new(COMBATS)).bench_local(|| {
        let mut sum = 0u32;
        for _ in 0..COMBATS {
            let a = decks[0].draw(&mut rng, &"bench").unwrap_or(1);
            let b = decks[1].draw(&mut rng, &"bench").unwrap_or(1);
            sum += u32::from(a) + u32::from(b);
        }
        black_box(sum)
    });
}

/// Iterations of one search decision (MCTS, 300 iterations, rollouts of 40 decisions by the
/// heuristic player), from the first choice after 30 decisions of a heuristic battle: the item
/// rate is iterations a second on one core.
#[divan::bench(args = ["crossroads", "seven-years-war-chance"], sample_count = 10, sample_size = 1)]
fn mcts_iterations(bencher: Bencher, name: &str) {
    use volley_core::Agent;
    const ITERATIONS: u64 = 300;
    let (s, cands): (Battle, _) =
        volley_ai::position_with_a_choice(&scenario(name), 30, 1).unwrap_or_else(|| panic!("{name}"));
    let cfg = volley_ai::MctsConfig { budget: volley_ai::Budget::Iterations(ITERATIONS), ..Default::default() };
    bencher.counter(ItemsCount::new(ITERATIONS)).bench_local(|| {
        let mut agent = volley_ai::MctsAgent::new(cfg.clone(), 1);
        black_box(agent.choose(&s, &cands))
    });
}

/// Exact odds of a card combat (the calculator's `odds`): the slowest situation of the space is
/// the chance version with two full decks, 13 × 13 pairs of card values each judged; here with
/// modifiers in play (the attacker on the flank, the defender behind a wall, men killed so far,
/// pikes, a cap on the men in ranks).
#[divan::bench]
fn exact_odds_full_decks(bencher: Bencher) {
    use volley_blown_away::calc::{Combat, CombatUnit, Situation};
    use volley_blown_away::model::Variant;
    use volley_core::calc::Calculator;
    let unit = |flank: bool, cover| CombatUnit {
        arm: Arm::Infantry,
        men_in_ranks: Some(9),
        killed_so_far: 2,
        pikes_or_guards: 1,
        militia: false,
        quarter: if flank { Quarter::Flank } else { Quarter::Front },
        cover,
        faces_the_other: true,
        deck: None,
    };
    let s = Situation {
        variant: Variant::Chance,
        attacker: unit(true, volley_table::Cover::Open),
        defender: unit(false, volley_table::Cover::Wall),
    };
    // A situation the calculator refuses would time its error message instead.
    assert!(Combat.odds(&s).is_ok_and(|o| o.len() > 1), "the benchmark's situation must be valid");
    bencher.bench_local(|| black_box(Combat.odds(black_box(&s))));
}

/// Fieldworks tiled `k` times side by side (`volley generate fieldworks --times k`), at the
/// start of turn 2, the deployment and turn 1 played by the heuristic player.
fn tiled_at_turn_two(k: u32) -> Battle {
    let path = format!("{}/../../../scenarios/blown-away/fieldworks.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let text = volley_scenario::generate::tile(&text, k).unwrap_or_else(|e| panic!("{e}"));
    let b = load(&Source::new("tiled", text)).unwrap_or_else(|e| panic!("{e}"));
    volley_ai::advanced_while(&b, 1, |b| b.turn < 2).unwrap_or_else(|| panic!("a refused candidate"))
}

/// The scale test: turns 2 to 5 of Fieldworks tiled 1, 2, 5 and 10 times (a side acts in a
/// turn, so two turns each), heuristic against heuristic — every decision (the candidates
/// listed and scored) and every action carried out, the rules' own work (moves, fire, combats,
/// morale) among them. The item is a turn; the time a turn against the number of units shows
/// how the cost of a turn grows.
#[divan::bench(args = [1, 2, 5, 10], sample_count = 10, sample_size = 1)]
fn turn_of_a_tiled_battle(bencher: Bencher, k: u32) {
    let start = tiled_at_turn_two(k);
    bencher
        .counter(ItemsCount::new(4usize))
        .bench_local(|| volley_ai::advanced_while(&start, 7, |b| b.turn < 6).map(|b| b.turn));
}
