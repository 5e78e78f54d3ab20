//! The calculator's speed (a volley resolved, the exact odds of the longest chains) and the
//! battle's (whole battles, heuristic against heuristic; one decision's candidates).
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

fn scenario(name: &str) -> volley_der_alte_fritz::Battle {
    let path = format!("{}/../../../scenarios/der-alte-fritz/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    volley_der_alte_fritz::load(&volley_scenario::Source::new(path, text)).unwrap_or_else(|e| panic!("{e}"))
}

/// Whole battles, heuristic against heuristic, one core: battles a second is the item rate.
#[divan::bench(args = ["the-village", "lobositz"], sample_count = 20, sample_size = 5)]
fn full_battle(bencher: divan::Bencher, name: &str) {
    use volley_core::Agent;
    use volley_core::log::Header;
    use volley_core::run::Runner;
    let start = scenario(name);
    let mut seed = 0u64;
    bencher.counter(divan::counter::ItemsCount::new(1usize)).bench_local(|| {
        seed += 1;
        let mut a = volley_ai::HeuristicAgent::new(seed ^ 1);
        let mut b = volley_ai::HeuristicAgent::new(seed ^ 2);
        let agents: Vec<&mut dyn Agent<volley_der_alte_fritz::Battle>> = vec![&mut a, &mut b];
        let header = Header::unkept(volley_der_alte_fritz::RULESET_ID, seed);
        let mut runner = Runner::new(start.clone(), header, agents);
        runner.keep_events = false;
        if let Err(e) = runner.play(&mut Seeded::new(seed), 1_000_000) {
            panic!("seed {seed}: {e}");
        }
        divan::black_box(runner.log.entries.len())
    });
}

/// One decision's candidate actions in Lobositz's first movement phase (every unit's moves and
/// charges, each checked against the table): what a computer player and the page ask for.
#[divan::bench]
fn candidates_lobositz(bencher: divan::Bencher) {
    use volley_core::GameState;
    let mut b = scenario("lobositz");
    let mut rng = Seeded::new(1);
    b.apply(&volley_der_alte_fritz::Action::Begin, &mut rng, &mut Vec::new()).unwrap_or_else(|e| panic!("{e}"));
    b.apply(&volley_der_alte_fritz::Action::Initiative { move_first: true }, &mut rng, &mut Vec::new())
        .unwrap_or_else(|e| panic!("{e}"));
    let mut out = Vec::new();
    bencher.bench_local(|| {
        out.clear();
        b.candidate_actions(&mut out);
        divan::black_box(out.len())
    });
}
