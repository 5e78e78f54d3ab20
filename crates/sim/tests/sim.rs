//! Simulations of a real scenario: the same summary whatever the number of threads, and sums
//! that agree with the battles.
#![allow(clippy::unwrap_used)] // tests may panic on what they did not expect

use volley_sim::{Config, run, run_indices, summarize};

fn mill() -> volley_itchy_scratchy::Battle {
    let path = format!("{}/../../scenarios/itchy-scratchy/hochdorf-mill.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    volley_itchy_scratchy::load(&volley_scenario::Source::new(path, text)).unwrap()
}

fn config(jobs: usize) -> Config {
    Config { runs: 60, master_seed: 7, agents: ["heuristic".into(), "random".into()], jobs, max_actions: 100_000 }
}

#[test]
fn the_summary_is_the_same_whatever_the_number_of_threads() {
    let b = mill();
    let one = run(&b, &config(1), &|_| {}).unwrap();
    let two = run(&b, &config(2), &|_| {}).unwrap();
    assert_eq!(one, two);
    let (s1, s2) = (summarize(&b, &config(1), &one), summarize(&b, &config(2), &two));
    assert_eq!(serde_json::to_string(&s1).unwrap(), serde_json::to_string(&s2).unwrap());
    assert_eq!(one.iter().map(|r| r.index).collect::<Vec<_>>(), (0..60).collect::<Vec<_>>());
}

#[test]
fn threads_are_refused_past_the_limit_and_never_more_than_the_battles() {
    let b = mill();
    let e = run(&b, &config(volley_sim::MAX_JOBS + 1), &|_| {}).unwrap_err().to_string();
    assert_eq!(e, format!("jobs: at most {} threads, not {}", volley_sim::MAX_JOBS, volley_sim::MAX_JOBS + 1));
    // As many threads as the limit, for two battles: two are started, the battles the same.
    let few = Config { runs: 2, ..config(volley_sim::MAX_JOBS) };
    assert_eq!(run(&b, &few, &|_| {}).unwrap(), run(&b, &Config { runs: 2, ..config(1) }, &|_| {}).unwrap());
    assert!(run_indices(&b, &config(volley_sim::MAX_JOBS + 1), 0..1).is_err());
}

#[test]
fn a_simulation_split_into_shares_plays_the_same_battles() {
    let b = mill();
    let whole = run(&b, &config(2), &|_| {}).unwrap();
    let mut shares = Vec::new();
    for range in [0..17, 17..40, 40..60] {
        shares.extend(run_indices(&b, &config(1), range).unwrap());
    }
    assert_eq!(shares, whole);
    // A record goes through JSON (between machines) unchanged.
    let text = serde_json::to_string(&shares).unwrap();
    let back: Vec<volley_sim::BattleRecord> = serde_json::from_str(&text).unwrap();
    assert_eq!(back, whole);
}

#[test]
fn the_sums_agree_with_the_battles() {
    let b = mill();
    let cfg = config(2);
    let records = run(&b, &cfg, &|_| {}).unwrap();
    let s = summarize(&b, &cfg, &records);
    assert_eq!(s.runs, 60);
    assert_eq!(s.sides[0].wins + s.sides[1].wins + s.draws, 60);
    let [lo, hi] = s.sides[0].win_rate_95;
    assert!(lo <= s.sides[0].win_rate && s.sides[0].win_rate <= hi);
    assert!(s.sides[0].wins > s.sides[1].wins, "heuristic beats random: {:?}", s.sides);
    let mean0: f64 = records.iter().map(|r| r.sides[0].casualty_pct()).sum::<f64>() / 60.0;
    assert!((s.sides[0].casualty_pct.mean - mean0).abs() < 1e-9);
    // Every unit the scenario has is listed, each gone no more often than there were battles.
    assert_eq!(s.units.len(), 12, "{:?}", s.units);
    assert!(s.units.iter().all(|u| u.gone <= 60 && u.routed <= 60));
    assert!(s.units.iter().any(|u| u.gone > 0));
    let csv = volley_sim::csv(&b, &records);
    assert_eq!(csv.lines().count(), 61);
    assert!(csv.starts_with("index,seed,winner,turns,actions,French_start"), "{}", csv.lines().next().unwrap());
}

#[test]
fn a_tournament_counts_each_agents_wins_on_both_sides() {
    let b = mill();
    let agents = ["random".to_string(), "heuristic".to_string()];
    let t = volley_sim::tournament(&b, &agents, 10, 5, 2, true, &|_, _, _| {}).unwrap();
    // random–random, random–heuristic, heuristic–heuristic.
    assert_eq!(t.len(), 3);
    for p in &t {
        assert_eq!(p.a_wins + p.b_wins + p.draws, 20, "{p:?}");
    }
    let p = &t[1];
    assert_eq!((p.a.as_str(), p.b.as_str()), ("random", "heuristic"));
    // The same battles played by hand: the pairing's third and fourth runs of ten.
    let seed = |k| volley_chance::Seeded::derive(5, k);
    let cfg = |k, a: &str, b: &str| Config {
        runs: 10,
        master_seed: seed(k),
        agents: [a.into(), b.into()],
        jobs: 1,
        max_actions: 100_000,
    };
    let first = run(&b, &cfg(2, "random", "heuristic"), &|_| {}).unwrap();
    let second = run(&b, &cfg(3, "heuristic", "random"), &|_| {}).unwrap();
    let random_wins =
        first.iter().filter(|r| r.winner == Some(0)).count() + second.iter().filter(|r| r.winner == Some(1)).count();
    assert_eq!(p.a_wins, random_wins as u64);
    assert!(p.b_wins > p.a_wins, "the heuristic player is the stronger: {p:?}");
    // Without the mirrors, the one pairing left is the same battles.
    let counted = std::sync::atomic::AtomicU64::new(0);
    let tick = |a: &str, b: &str, _| {
        assert_eq!((a, b), ("random", "heuristic"));
        counted.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    };
    let lone = volley_sim::tournament(&b, &agents, 10, 5, 1, false, &tick).unwrap();
    assert_eq!(lone, vec![p.clone()]);
    assert_eq!(counted.into_inner(), 20, "progress told of every battle");
}

#[test]
fn a_battle_past_the_limit_is_an_error_that_says_what_would_end_it() {
    let cfg = Config { runs: 2, max_actions: 5, ..config(1) };
    let e = run(&mill(), &cfg, &|_| {}).unwrap_err().to_string();
    assert!(e.contains("still going after 5 actions, at turn ") && e.contains("turn_limit"), "{e}");
}
