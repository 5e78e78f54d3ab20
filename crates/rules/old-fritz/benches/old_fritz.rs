//! Old Fritz benchmarks: close combats resolved against the draws alone, and exact odds.
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
    Situation { attacker: unit(Arm::Infantry), defender: d }
}

const COMBATS: usize = 10_000;

/// Close combats resolved (the battery's d6, two d10s, the casualty tests), explanation built.
#[divan::bench]
fn close_combat_resolved(bencher: Bencher) {
    let s = infantry_against_a_battery();
    let mut rng = Seeded::new(3);
    bencher.counter(ItemsCount::new(COMBATS)).bench_local(|| {
        let mut n = 0u32;
        for _ in 0..COMBATS {
            n += Combat.resolve(&s, &mut rng).map_or(0, |r| u32::from(r.defender.test_casualties));
        }
        black_box(n)
    });
}

/// The same number of dice drawn (a d6, two d10, four d10 for the tests), nothing resolved.
#[divan::bench]
fn dice_drawn_only(bencher: Bencher) {
    let mut rng = Seeded::new(3);
    bencher.counter(ItemsCount::new(COMBATS)).bench_local(|| {
        let mut sum = 0u32;
        for _ in 0..COMBATS {
            sum += rng.draw(&DrawKind::Die { sides: 6 }, &"b").unwrap_or(0);
            for _ in 0..6 {
                sum += rng.draw(&DrawKind::Die { sides: 10 }, &"b").unwrap_or(0);
            }
        }
        black_box(sum)
    });
}

/// Exact odds of a close combat: cavalry against cavalry, and infantry against a battery (the
/// slowest: the guns' d6 on top).
#[divan::bench(args = ["cavalry", "battery"])]
fn exact_odds(bencher: Bencher, which: &str) {
    let s = match which {
        "cavalry" => Situation { attacker: unit(Arm::Cavalry), defender: unit(Arm::Cavalry) },
        _ => infantry_against_a_battery(),
    };
    bencher.bench_local(|| black_box(Combat.odds(black_box(&s))));
}
