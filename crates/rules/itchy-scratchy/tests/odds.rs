//! Exact odds against brute force: every ordered throw of the dice, one by one.
#![allow(clippy::unwrap_used)] // tests may panic on what they did not expect

use volley_chance::Seeded;
use volley_core::calc::Calculator;
use volley_itchy_scratchy::combat::{Combat, Counts, Outcome, Situation, Target, Weapon, odds};

const TARGETS: [Target; 6] =
    [Target::Infantry, Target::Cavalry, Target::MachineGuns, Target::Artillery, Target::Transport, Target::General];

/// Every situation the rules allow: weapon, range, target, cover, Generals.
fn all_situations() -> Vec<Situation> {
    let mut out = Vec::new();
    for weapon in Weapon::ALL {
        for range in 1..=weapon.max_range() {
            for target in TARGETS {
                for cover in [false, true] {
                    for gen_a in [false, true] {
                        for gen_t in [false, true] {
                            if target == Target::General && gen_t {
                                continue;
                            }
                            out.push(Situation {
                                weapon,
                                range,
                                target,
                                target_in_cover: cover,
                                general_with_attacker: gen_a,
                                general_with_target: gen_t,
                            });
                        }
                    }
                }
            }
        }
    }
    out
}

fn n_dice(s: &Situation) -> u8 {
    s.dice_count().unwrap()
}

/// The situation's judgement depends on its dice, target, cover and General with the target:
/// count, over all `6^n` ordered throws of `n` dice, how many give each outcome for each of
/// `judged` (one pass over the throws for all of them).
fn brute_force(n: u8, judged: &[Situation]) -> Vec<[u64; 4]> {
    let mut tally = vec![[0u64; 4]; judged.len()];
    let mut dice = vec![1u8; usize::from(n)];
    let mut counts: Counts = [0; 6];
    counts[0] = n;
    loop {
        for (s, t) in judged.iter().zip(tally.iter_mut()) {
            let o = s.outcome(&counts);
            t[usize::from(o.target_hit) * 2 + usize::from(o.general_killed)] += 1;
        }
        // The next throw, as an odometer over the dice.
        let mut i = 0;
        loop {
            if i == dice.len() {
                return tally;
            }
            counts[usize::from(dice[i]) - 1] -= 1;
            if dice[i] < 6 {
                dice[i] += 1;
                counts[usize::from(dice[i]) - 1] += 1;
                break;
            }
            dice[i] = 1;
            counts[0] += 1;
            i += 1;
        }
    }
}

#[test]
fn exact_odds_equal_brute_force_for_every_weapon_range_target_and_cover() {
    let all = all_situations();
    let mut sizes: Vec<u8> = all.iter().map(n_dice).collect();
    sizes.sort_unstable();
    sizes.dedup();
    assert_eq!(sizes, vec![2, 4, 6, 8, 10], "the table's pools, with and without a General");
    for n in sizes {
        // The distinct judgements at this pool size (targets, cover, General with the target).
        let mut judged: Vec<Situation> = Vec::new();
        for s in all.iter().filter(|s| n_dice(s) == n) {
            if !judged.iter().any(|j| {
                (j.target, j.target_in_cover, j.general_with_target)
                    == (s.target, s.target_in_cover, s.general_with_target)
            }) {
                judged.push(s.clone());
            }
        }
        let tally = brute_force(n, &judged);
        let total = 6f64.powi(i32::from(n));
        for s in all.iter().filter(|s| n_dice(s) == n) {
            let j = judged
                .iter()
                .position(|j| {
                    (j.target, j.target_in_cover, j.general_with_target)
                        == (s.target, s.target_in_cover, s.general_with_target)
                })
                .unwrap();
            let exact = odds(s).unwrap();
            let sum: f64 = exact.iter().map(|o| o.probability).sum();
            assert!((sum - 1.0).abs() < 1e-12, "{s:?}: {sum}");
            for (k, &count) in tally[j].iter().enumerate() {
                let outcome = Outcome { target_hit: k >= 2, general_killed: k % 2 == 1 };
                let p = exact.iter().find(|o| o.outcome == outcome).map_or(0.0, |o| o.probability);
                assert!((p - count as f64 / total).abs() < 1e-15, "{s:?} {outcome:?}: {p} vs {count}/{total}");
            }
        }
    }
}

#[test]
fn resolving_many_times_agrees_with_the_odds() {
    // Machine guns at range 1 with a General, against infantry in cover with a General: every
    // outcome has a fair probability. 40 000 throws; each frequency within 5 standard errors.
    let s = Situation {
        weapon: Weapon::MachineGuns,
        range: 1,
        target: Target::Infantry,
        target_in_cover: true,
        general_with_attacker: true,
        general_with_target: true,
    };
    let exact = odds(&s).unwrap();
    assert_eq!(exact.len(), 4);
    let mut rng = Seeded::new(2024);
    let runs = 40_000;
    let mut seen = [0u32; 4];
    for _ in 0..runs {
        let r = Combat.resolve(&s, &mut rng).unwrap();
        assert_eq!(r.dice().len(), 10);
        seen[usize::from(r.outcome.target_hit) * 2 + usize::from(r.outcome.general_killed)] += 1;
    }
    for o in &exact {
        let k = usize::from(o.outcome.target_hit) * 2 + usize::from(o.outcome.general_killed);
        let freq = f64::from(seen[k]) / f64::from(runs);
        let se = (o.probability * (1.0 - o.probability) / f64::from(runs)).sqrt();
        assert!((freq - o.probability).abs() < 5.0 * se, "{:?}: {freq} vs {}", o.outcome, o.probability);
    }
}
