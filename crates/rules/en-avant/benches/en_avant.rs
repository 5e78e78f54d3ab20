//! The calculator's speed (a close assault resolved) and the battle's (whole battles, heuristic
//! against heuristic; one decision's candidates; Game Control's forecast of a turn).
//!
//!     cargo bench -p volley-en-avant --bench en_avant

use volley_chance::Seeded;
use volley_core::calc::Calculator;
use volley_en_avant::combat::{Combat, Situation};

fn main() {
    divan::main();
}

const ASSAULT: &str = r#"{"assault": {"attacker": {"arm": "cavalry", "status": "determined", "formation": "line", "senior_officer": true},
    "defender": {"arm": "infantry", "status": "steady", "formation": "line", "forming_square": true, "fired_last_turn": true},
    "direction": "flank", "cavalry_within_half_a_turn": true}}"#;

#[divan::bench]
fn assault_resolved(b: divan::Bencher) {
    let s: Situation = serde_json::from_str(ASSAULT).unwrap_or_else(|e| panic!("{e}"));
    let mut rng = Seeded::new(1);
    b.bench_local(|| divan::black_box(Combat.resolve(&s, &mut rng).map(|r| r.to_string().len()).unwrap_or(0)));
}

fn scenario(name: &str) -> volley_en_avant::Battle {
    let path = format!("{}/../../../scenarios/en-avant/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    volley_en_avant::load(&volley_scenario::Source::new(path, text)).unwrap_or_else(|e| panic!("{e}"))
}

/// Whole battles, heuristic against heuristic, one core: battles a second is the item rate.
#[divan::bench(args = ["the-farm", "the-heath"], sample_count = 20, sample_size = 5)]
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
        let agents: Vec<&mut dyn Agent<volley_en_avant::Battle>> = vec![&mut a, &mut b];
        let header = Header::unkept(volley_en_avant::RULESET_ID, seed);
        let mut runner = Runner::new(start.clone(), header, agents);
        runner.keep_events = false;
        if let Err(e) = runner.play(&mut Seeded::new(seed), 1_000_000) {
            panic!("seed {seed}: {e}");
        }
        divan::black_box(runner.log.entries.len())
    });
}

/// One decision's candidate actions at The Farm's first orders: every unit's cards.
#[divan::bench]
fn candidates_the_farm(bencher: divan::Bencher) {
    use volley_core::GameState;
    let b = scenario("the-farm");
    let mut out = Vec::new();
    bencher.bench_local(|| {
        out.clear();
        b.candidate_actions(&mut out);
        divan::black_box(out.len())
    });
}

/// Game Control's view while orders are given: the turn played on a copy to show what it brings.
#[divan::bench]
fn umpire_view_with_forecast(bencher: divan::Bencher) {
    use volley_core::{GameState, Viewer};
    let b = scenario("the-farm");
    bencher.bench_local(|| divan::black_box(b.view(Viewer::Umpire).notes.len()));
}
