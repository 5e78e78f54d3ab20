//! Old Fritz benchmarks: close combats resolved against the draws alone, exact odds, and whole
//! battles.
//!
//! Run with `cargo bench -p volley-old-fritz --bench old_fritz`; the figures go in
//! BENCHMARKS.md.

use std::hint::black_box;

use divan::{Bencher, counter::ItemsCount};
use volley_chance::{Chance, DrawKind, Seeded};
use volley_core::calc::Calculator;
use volley_old_fritz::combat::{Arm, Cavalry, Combat, Guns, Quality, Situation, Unit};

fn main() {
    divan::main();
}

fn unit(arm: Arm) -> Unit {
    let cavalry = (arm == Arm::Cavalry).then_some(Cavalry::Cuirassiers);
    Unit { figures_at_start: Some(14), greens: 1, ..Unit::new(arm, cavalry, Quality::C, 12) }
}

fn infantry_against_a_battery() -> Situation {
    let mut d = unit(Arm::Artillery);
    d.figures = 6;
    d.guns = Some(Guns { heavy: false, gunners_lost: 0 });
    Situation::new(unit(Arm::Infantry), d)
}

const COMBATS: usize = 10_000;

/// The casualty tests' dice each of the first [`COMBATS`] combats from seed 3 throws: the tests
/// are taken or not as the combat goes (here 0 or 3 dice, 1.26 on average beside the d6 and the
/// two d10s), so the draws-alone benches read them from the resolutions themselves.
fn test_dice_thrown() -> Vec<usize> {
    let s = infantry_against_a_battery();
    let mut rng = Seeded::new(3);
    (0..COMBATS)
        .map(|_| {
            // The d6 and the two d10s come first.
            Combat.resolve(&s, &mut rng).unwrap_or_else(|e| panic!("{e}")).dice_thrown() - 3
        })
        .collect()
}

/// Close combats resolved (the battery's d6, two d10s, the casualty tests), explanation built:
/// the first [`COMBATS`] combats from seed 3, each iteration.
#[divan::bench]
fn close_combat_resolved(bencher: Bencher) {
    let s = infantry_against_a_battery();
    bencher.counter(ItemsCount::new(COMBATS)).bench_local(|| {
        let mut rng = Seeded::new(3);
        let mut n = 0u32;
        for _ in 0..COMBATS {
            n += Combat.resolve(&s, &mut rng).map_or(0, |r| u32::from(r.defender.test_casualties));
        }
        black_box(n)
    });
}

/// The same dice as [`close_combat_resolved`] throws (the d6, two d10s and each combat's test
/// dice), drawn one at a time from the generator; nothing resolved.
#[divan::bench]
fn dice_drawn_only(bencher: Bencher) {
    let tests = test_dice_thrown();
    bencher.counter(ItemsCount::new(COMBATS)).bench_local(|| {
        let mut rng = Seeded::new(3);
        let mut sum = 0u32;
        for &n in &tests {
            sum += rng.draw(&DrawKind::Die { sides: 6 }, &"b").unwrap_or(0);
            for _ in 0..2 + n {
                sum += rng.draw(&DrawKind::Die { sides: 10 }, &"b").unwrap_or(0);
            }
        }
        black_box(sum)
    });
}

/// The same dice as [`close_combat_resolved`] throws, drawn as it draws them: through
/// `&mut dyn Chance` (so that scripted and recorded dice can stand in), the d6 alone, the two
/// d10s in one throw and the tests' dice (when there are any) in another; nothing resolved.
#[divan::bench]
fn dice_drawn_as_resolved(bencher: Bencher) {
    let tests = test_dice_thrown();
    let purpose = |_: usize, f: &mut std::fmt::Formatter<'_>| f.write_str("b");
    let mut buffer = [0u8; 2 * volley_old_fritz::combat::MAX_TEST_DICE];
    bencher.counter(ItemsCount::new(COMBATS)).bench_local(|| {
        let mut seeded = Seeded::new(3);
        let rng: &mut dyn Chance = &mut seeded;
        let mut sum = 0u32;
        for &n in &tests {
            sum += rng.draw(&DrawKind::Die { sides: 6 }, &"b").unwrap_or(0);
            let mut d10s = [0u8; 2];
            let thrown = &mut buffer[..n];
            if rng.dice(10, &mut d10s, &purpose).is_ok() && (n == 0 || rng.dice(10, thrown, &purpose).is_ok()) {
                // Enough of the dice read that none can be left undrawn.
                sum += u32::from(d10s[0]) + u32::from(d10s[1]) + thrown.last().map_or(0, |&d| u32::from(d));
            }
        }
        black_box(sum)
    });
}

/// Check, once, that the draws-alone benches draw exactly the resolutions' dice: the same
/// generator left in the same place.
#[divan::bench(sample_count = 1, sample_size = 1)]
fn draws_match_the_resolutions(bencher: Bencher) {
    let tests = test_dice_thrown();
    let s = infantry_against_a_battery();
    bencher.bench_local(|| {
        let (mut a, mut b) = (Seeded::new(3), Seeded::new(3));
        for &n in &tests {
            let _ = Combat.resolve(&s, &mut a);
            for sides in std::iter::once(6).chain(std::iter::repeat_n(10, 2 + n)) {
                let _ = b.draw(&DrawKind::Die { sides }, &"b");
            }
        }
        let next = |r: &mut Seeded| r.draw(&DrawKind::Die { sides: 1_000_000 }, &"b").unwrap_or(0);
        assert_eq!(next(&mut a), next(&mut b), "the draws-alone benches draw other dice than the combats");
    });
}

/// Exact odds of a close combat: cavalry against cavalry, and infantry against a battery (the
/// slowest: the guns' d6 on top).
#[divan::bench(args = ["cavalry", "battery"])]
fn exact_odds(bencher: Bencher, which: &str) {
    let s = match which {
        "cavalry" => Situation::new(unit(Arm::Cavalry), unit(Arm::Cavalry)),
        _ => infantry_against_a_battery(),
    };
    bencher.bench_local(|| black_box(Combat.odds(black_box(&s))));
}

fn scenario(name: &str) -> volley_old_fritz::Battle {
    let path = format!("{}/../../../scenarios/old-fritz/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    volley_old_fritz::load(&volley_scenario::Source::new(path, text)).unwrap_or_else(|e| panic!("{e}"))
}

/// Whole battles, heuristic against heuristic, one core: battles per second is the item rate.
#[divan::bench(args = ["attack-on-the-ridge", "mittelhof"], sample_count = 20, sample_size = 5)]
fn full_battle(bencher: Bencher, name: &str) {
    use volley_core::Agent;
    use volley_core::log::Header;
    use volley_core::run::Runner;
    let start = scenario(name);
    let mut seed = 0u64;
    bencher.counter(ItemsCount::new(1usize)).bench_local(|| {
        seed += 1;
        let mut a = volley_ai::HeuristicAgent::new(seed ^ 1);
        let mut b = volley_ai::HeuristicAgent::new(seed ^ 2);
        let agents: Vec<&mut dyn Agent<volley_old_fritz::Battle>> = vec![&mut a, &mut b];
        let header = Header::unkept("old-fritz", seed);
        let mut runner = Runner::new(start.clone(), header, agents);
        runner.keep_events = false;
        if let Err(e) = runner.play(&mut Seeded::new(seed), 1_000_000) {
            panic!("seed {seed}: {e}");
        }
        black_box(runner.log.entries.len())
    });
}

/// Mittelhof tiled `k` times side by side (`volley generate mittelhof --times k`: 42·k units),
/// with every wing's first orders given by the heuristic player in bound 1.
fn tiled_after_first_orders(k: u32) -> volley_old_fritz::Battle {
    let path = format!("{}/../../../scenarios/old-fritz/mittelhof.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let text = volley_scenario::generate::tile(&text, k).unwrap_or_else(|e| panic!("{e}"));
    let mut b = volley_old_fritz::load(&volley_scenario::Source::new("tiled", text)).unwrap_or_else(|e| panic!("{e}"));
    while b.bound == 1 {
        b = volley_ai::advanced(&b, 1, 1).unwrap_or_else(|| panic!("a refused candidate"));
    }
    b
}

/// The scale test: the rule set's own work in a bound (every unit's orders carried out, moves,
/// fire, close combats, results), the players only ending their orders, for 10 bounds from the
/// first orders, in Mittelhof tiled 1, 2, 5 and 10 times. The item rate is bounds a second; the
/// time a bound against the number of units shows how the cost of a turn grows.
#[divan::bench(args = [1, 2, 5, 10], sample_count = 10, sample_size = 1)]
fn bound_of_a_tiled_battle(bencher: Bencher, k: u32) {
    use volley_core::GameState;
    use volley_old_fritz::Action;
    let start = tiled_after_first_orders(k);
    bencher.counter(ItemsCount::new(10usize)).bench_local(|| {
        let mut b = start.clone();
        let mut rng = Seeded::new(7);
        let mut events = Vec::new();
        for _ in 0..20 {
            if b.outcome().is_some() {
                break;
            }
            events.clear();
            b.apply(&Action::EndOrders, &mut rng, &mut events).unwrap_or_else(|e| panic!("{e}"));
        }
        black_box(b.bound)
    });
}

/// Iterations of one search decision (MCTS, 300 iterations, rollouts of 40 decisions by the
/// heuristic player), from the first choice after 30 decisions of a heuristic battle: the item
/// rate is iterations a second on one core.
#[divan::bench(args = ["attack-on-the-ridge", "mittelhof"], sample_count = 10, sample_size = 1)]
fn mcts_iterations(bencher: Bencher, name: &str) {
    use volley_core::Agent;
    const ITERATIONS: u64 = 300;
    let (s, cands): (volley_old_fritz::Battle, _) =
        volley_ai::position_with_a_choice(&scenario(name), 30, 1).unwrap_or_else(|| panic!("{name}"));
    let cfg = volley_ai::MctsConfig { budget: volley_ai::Budget::Iterations(ITERATIONS), ..Default::default() };
    bencher.counter(ItemsCount::new(ITERATIONS)).bench_local(|| {
        let mut agent = volley_ai::MctsAgent::new(cfg.clone(), 1);
        black_box(agent.choose(&s, &cands))
    });
}
