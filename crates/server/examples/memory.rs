//! How much memory a game in memory takes, against the server's estimate of it (which sizes
//! the games kept in memory: `Server::with_memory`). For each bundled battle named, makes
//! `--games` games of two people at one screen, plays `--actions` of their choices in each (the
//! first offered, else the last), keeps them all in memory, and reports the process's growth in
//! memory a game against the estimate.
//!
//!     cargo run --release -p volley-server --example memory -- --games 200 --actions 60
//!     cargo run --release -p volley-server --example memory -- --battle mittelhof
//!
//! Figures for BENCHMARKS.md ("Games in memory"); not a test.

use std::sync::Arc;

use serde_json::{Value, json};
use volley_server::{Creator, NewGame, Server};
use volley_store::{SqliteStore, Store};

fn arg(name: &str, default: usize) -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn rss() -> usize {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmRSS:")).map(str::to_string))
        .and_then(|l| l.split_whitespace().nth(1).and_then(|k| k.parse::<usize>().ok()))
        .map_or(0, |kb| kb * 1024)
}

fn main() {
    let games = arg("--games", 200);
    let actions = arg("--actions", 60);
    let dir = std::env::temp_dir().join(format!("volley-memory-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let args: Vec<String> = std::env::args().collect();
    if !args.iter().any(|a| a == "--no-header") {
        println!("{games} games a battle, {actions} actions each, all kept in memory");
        println!("| battle | actions a game | lines a game | memory a game (RSS) | estimate a game |");
        println!("|---|---|---|---|---|");
    }
    // One battle a process gives the truest growth (memory freed by one is reused by the next):
    // `--battle NAME` for one.
    let only = args.iter().position(|a| a == "--battle").and_then(|i| args.get(i + 1)).cloned();
    let all =
        ["hochdorf-mill", "crossroads", "the-village", "the-farm", "attack-on-the-ridge", "lobositz", "mittelhof"];
    for (k, scenario) in all.into_iter().filter(|b| only.as_deref().is_none_or(|o| o == *b)).enumerate() {
        let store: Arc<dyn Store> =
            Arc::new(SqliteStore::open(&dir.join(format!("games-{k}.db"))).unwrap_or_else(|e| panic!("{e}")));
        let s = Server::with_memory(store, usize::MAX, usize::MAX);
        let before = rss();
        let (mut acted, mut lines) = (0usize, 0usize);
        for g in 0..games {
            let req = NewGame {
                open: false,
                scenario: scenario.into(),
                scenario_text: None,
                players: vec!["human".into(), "human".into()],
                seed: Some(g as u64),
                creator: Some(Creator::HotSeat),
                private: false,
                hold_results: false,
                umpire: false,
                rules_shown: false,
            };
            let made = s.create(&req).unwrap_or_else(|e| panic!("{e:?}"));
            let id = made["id"].as_str().unwrap_or_default().to_string();
            let tokens: Vec<String> = made["credentials"]
                .as_array()
                .map(|c| c.iter().filter_map(|c| c["token"].as_str().map(str::to_string)).collect())
                .unwrap_or_default();
            for n in 0..actions {
                // Whoever must act: the first token whose view offers choices.
                let Some((token, cands)) = tokens.iter().find_map(|t| {
                    let v: Value = s.view(&id, Some(t), None).ok()?;
                    let c = v["candidates"].as_array().cloned().unwrap_or_default();
                    (!c.is_empty()).then(|| (t.clone(), c))
                }) else {
                    break;
                };
                let pick = if n % 2 == 0 { &cands[0] } else { &cands[cands.len() - 1] };
                if s.act(&id, &token, &json!(pick["action"])).is_ok() {
                    acted += 1;
                }
            }
            lines += s
                .view(&id, tokens.first().map(String::as_str), None)
                .ok()
                .and_then(|v| v["log"].as_array().map(Vec::len))
                .unwrap_or(0);
        }
        let grew = rss().saturating_sub(before);
        println!(
            "| {scenario} | {:.0} | {:.0} | {:.0} KiB | {:.0} KiB |",
            acted as f64 / games as f64,
            lines as f64 / games as f64,
            grew as f64 / games as f64 / 1024.0,
            s.memory_for_games() as f64 / games as f64 / 1024.0
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
