//! The calculator's speed: a volley resolved, and the exact odds of the longest chains.
//!
//!     cargo bench -p volley-der-alte-fritz --bench der_alte_fritz

use volley_chance::Seeded;
use volley_core::calc::Calculator;
use volley_der_alte_fritz::combat::{Combat, Situation};

fn main() {
    divan::main();
}

fn situation(json: &str) -> Situation {
    serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}"))
}

const VOLLEY: &str = r#"{"volley": {"firer": {"type": "musketeers", "firing": 32},
    "target": {"type": "musketeers", "figures": 32, "figures_per_stand": 4, "formation": "line",
               "officer_attached": true, "leader_attached": true, "secure_flanks": true}}}"#;

/// The longest charge: 30 dice a side, cavalry on cavalry (pursuit), leaders and secure flanks.
const MELEE: &str = r#"{"melee": {"charger": {"type": "cuirassiers", "figures": 120, "leader_attached": true},
    "defender": {"type": "dragoons", "figures": 120, "secure_flanks": true}}}"#;

#[divan::bench]
fn volley_resolved(b: divan::Bencher) {
    let s = situation(VOLLEY);
    let mut rng = Seeded::new(1);
    b.bench_local(|| divan::black_box(Combat.resolve(&s, &mut rng).map(|r| r.to_string().len()).unwrap_or(0)));
}

#[divan::bench]
fn volley_exact_odds(b: divan::Bencher) {
    let s = situation(VOLLEY);
    b.bench_local(|| divan::black_box(Combat.odds(&s).map(|o| o.len()).unwrap_or(0)));
}

#[divan::bench]
fn longest_charge_exact_odds(b: divan::Bencher) {
    let s = situation(MELEE);
    b.bench_local(|| divan::black_box(Combat.odds(&s).map(|o| o.len()).unwrap_or(0)));
}
