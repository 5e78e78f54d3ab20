//! Itchy and Scratchy benchmarks: exact odds by pool size, attacks resolved against the draws
//! alone.
//!
//! Run with `cargo bench -p volley-itchy-scratchy --bench itchy_scratchy`; the figures go in
//! BENCHMARKS.md.

use std::hint::black_box;

use divan::{Bencher, counter::ItemsCount};
use volley_chance::{Chance, DrawKind, Seeded};
use volley_core::calc::Calculator;
use volley_itchy_scratchy::combat::{Combat, Situation, Target, Weapon, odds};

fn main() {
    divan::main();
}

/// Infantry in cover with a General, attacked by a weapon throwing `base` dice (with a General
/// beside the attacker when `base` needs it): the costliest judgement, both patterns in cover.
fn pool(n: u8) -> Situation {
    // Machine guns throw 8, 6, 4, 2 at ranges 1 to 4; a General adds 2.
    let (range, general) = match n {
        2 => (4, false),
        4 => (3, false),
        6 => (2, false),
        8 => (1, false),
        _ => (1, true),
    };
    Situation {
        weapon: Weapon::MachineGuns,
        range,
        target: Target::Infantry,
        target_in_cover: true,
        general_with_attacker: general,
        general_with_target: true,
    }
}

/// Exact odds of one attack, by the number of dice thrown (10 is the most the table allows).
#[divan::bench(args = [2, 4, 6, 8, 10])]
fn exact_odds(bencher: Bencher, n: u8) {
    let s = pool(n);
    bencher.bench_local(|| black_box(odds(black_box(&s))));
}

/// Exact odds of a pool of 12 dice (beyond the table, the bound): rifled field artillery
/// at range 1 (6) is the base; the count is forced to 12 by judging 12 dice directly.
#[divan::bench]
fn exact_odds_twelve_dice(bencher: Bencher) {
    let s = pool(10);
    bencher.bench_local(|| {
        let mut ways = [0u128; 4];
        volley_itchy_scratchy::combat::each_throw(12, |c, w| {
            let o = s.outcome(c);
            ways[usize::from(o.target_hit) * 2 + usize::from(o.general_killed)] += w;
        });
        black_box(ways)
    });
}

const ATTACKS: usize = 10_000;

/// Attacks resolved: 6 dice drawn and judged, with the explanation built.
#[divan::bench]
fn attack_resolved(bencher: Bencher) {
    let s = pool(6);
    let mut rng = Seeded::new(7);
    bencher.counter(ItemsCount::new(ATTACKS)).bench_local(|| {
        let mut hits = 0u32;
        for _ in 0..ATTACKS {
            hits += u32::from(Combat.resolve(&s, &mut rng).map(|r| r.outcome.target_hit).unwrap_or(false));
        }
        black_box(hits)
    });
}

/// The same 6 dice drawn, nothing judged.
#[divan::bench]
fn dice_drawn_only(bencher: Bencher) {
    let mut rng = Seeded::new(7);
    let d6 = DrawKind::Die { sides: 6 };
    bencher.counter(ItemsCount::new(ATTACKS)).bench_local(|| {
        let mut sum = 0u32;
        for _ in 0..ATTACKS {
            for _ in 0..6 {
                sum += rng.draw(&d6, &"bench").unwrap_or(0);
            }
        }
        black_box(sum)
    });
}

/// The same 6 dice drawn as the attack draws them: in one throw through `&mut dyn Chance` (so
/// that scripted and recorded dice can stand in); nothing judged.
#[divan::bench]
fn dice_drawn_as_resolved(bencher: Bencher) {
    let mut seeded = Seeded::new(7);
    let rng: &mut dyn Chance = &mut seeded;
    let purpose = |_: usize, f: &mut std::fmt::Formatter<'_>| f.write_str("bench");
    bencher.counter(ItemsCount::new(ATTACKS)).bench_local(|| {
        let mut sum = 0u32;
        for _ in 0..ATTACKS {
            let mut dice = [0u8; 6];
            if rng.dice(6, &mut dice, &purpose).is_ok() {
                sum += dice.iter().map(|&d| u32::from(d)).sum::<u32>();
            }
        }
        black_box(sum)
    });
}

fn scenario(name: &str) -> volley_itchy_scratchy::Battle {
    let path = format!("{}/../../../scenarios/itchy-scratchy/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    volley_itchy_scratchy::load(&volley_scenario::Source::new(path, text)).unwrap_or_else(|e| panic!("{e}"))
}

/// Whole battles, heuristic against heuristic, one core: battles per second is the item rate.
#[divan::bench(args = ["elands-ridge", "hochdorf-mill"], sample_count = 20, sample_size = 5)]
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
        let agents: Vec<&mut dyn Agent<volley_itchy_scratchy::Battle>> = vec![&mut a, &mut b];
        let header = Header::unkept("itchy-scratchy", seed);
        let mut runner = Runner::new(start.clone(), header, agents);
        runner.keep_events = false;
        if let Err(e) = runner.play(&mut Seeded::new(seed), 1_000_000) {
            panic!("seed {seed}: {e}");
        }
        black_box(runner.log.entries.len())
    });
}

/// Iterations of one search decision (MCTS, 300 iterations, rollouts of 40 decisions by the
/// heuristic player), from the first choice after 30 decisions of a heuristic battle: the item
/// rate is iterations a second on one core.
#[divan::bench(args = ["elands-ridge", "hochdorf-mill"], sample_count = 10, sample_size = 1)]
fn mcts_iterations(bencher: Bencher, name: &str) {
    use volley_core::Agent;
    const ITERATIONS: u64 = 300;
    let (s, cands): (volley_itchy_scratchy::Battle, _) =
        volley_ai::position_with_a_choice(&scenario(name), 30, 1).unwrap_or_else(|| panic!("{name}"));
    let cfg = volley_ai::MctsConfig { budget: volley_ai::Budget::Iterations(ITERATIONS), ..Default::default() };
    bencher.counter(ItemsCount::new(ITERATIONS)).bench_local(|| {
        let mut agent = volley_ai::MctsAgent::new(cfg.clone(), 1);
        black_box(agent.choose(&s, &cands))
    });
}

/// Elands Ridge tiled `k` times side by side (`volley generate elands-ridge --times k`: 16·k
/// units on a grid 12·k areas wide), at the start of turn 2, turn 1 played by the heuristic
/// player.
fn tiled_at_turn_two(k: u32) -> volley_itchy_scratchy::Battle {
    let path = format!("{}/../../../scenarios/itchy-scratchy/elands-ridge.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let text = volley_scenario::generate::tile(&text, k).unwrap_or_else(|e| panic!("{e}"));
    let b = volley_itchy_scratchy::load(&volley_scenario::Source::new("tiled", text)).unwrap_or_else(|e| panic!("{e}"));
    volley_ai::advanced_while(&b, 1, |b| b.turn == 1).unwrap_or_else(|| panic!("a refused candidate"))
}

/// The scale test: one whole turn (turn 2) of Elands Ridge tiled 1, 2, 5 and 10 times,
/// heuristic against heuristic — every decision (the candidates listed and scored) and every
/// action carried out. Nothing moves in this rule set but by a player's decision, so a turn is
/// the players' work as much as the rules'. The time a turn against the number of units shows
/// how the cost of a turn grows.
#[divan::bench(args = [1, 2, 5, 10], sample_count = 10, sample_size = 1)]
fn turn_of_a_tiled_battle(bencher: Bencher, k: u32) {
    let start = tiled_at_turn_two(k);
    bencher.bench_local(|| volley_ai::advanced_while(&start, 7, |b| b.turn == 2).map(|b| b.turn));
}
