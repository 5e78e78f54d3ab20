//! The server's answer to a player: an action validated, resolved and stored for good (SQLite,
//! fsync), and the player's view built — the path behind "answered within 100 ms".
//!
//! Run with `cargo bench -p volley-server --bench server`; the figures go in BENCHMARKS.md.

use std::sync::Arc;

use divan::Bencher;
use serde_json::json;
use volley_server::{Creator, NewGame, Server};
use volley_store::SqliteStore;

fn main() {
    divan::main();
}

fn game(name: &str) -> (Server, String, [String; 2], std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("volley-bench-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let store = SqliteStore::open(&dir.join("games.db")).unwrap_or_else(|e| panic!("{e}"));
    let server = Server::new(Arc::new(store));
    let req = NewGame {
        open: false,
        scenario: name.into(),
        scenario_text: None,
        players: vec!["human".into(), "human".into()],
        seed: Some(1),
        creator: Some(Creator::HotSeat),
        private: false,
        hold_results: false,
        umpire: false,
        rules_shown: false,
    };
    let g = server.create(&req).unwrap_or_else(|e| panic!("{e:?}"));
    let id = g["id"].as_str().unwrap_or_default().to_string();
    let token = |i: usize| g["credentials"][i]["token"].as_str().unwrap_or_default().to_string();
    (server, id, [token(0), token(1)], dir)
}

/// One action (the side's orders ended; every second one carries out a whole bound of
/// Mittelhof, 42 units) stored, then the acting player's view with its choices.
#[divan::bench(sample_count = 14, sample_size = 4)]
fn action_answered(bencher: Bencher) {
    let (server, id, tokens, dir) = game("mittelhof");
    let mut n = 0usize;
    bencher.bench_local(|| {
        let token = &tokens[n % 2];
        n += 1;
        // 56 actions in all: the battle (30 bounds, 60 actions) is not over.
        if let Err(e) = server.act(&id, token, &json!("end_orders")) {
            panic!("{e:?}");
        }
        divan::black_box(server.view(&id, Some(token), None).map(|v| v.to_string().len()).unwrap_or(0))
    });
    let _ = std::fs::remove_dir_all(dir);
}

/// A player's view alone, with its choices, as JSON text.
#[divan::bench(sample_count = 30, sample_size = 10)]
fn view_built(bencher: Bencher) {
    let (server, id, tokens, dir) = game("mittelhof");
    bencher.bench_local(|| {
        divan::black_box(server.view(&id, Some(&tokens[0]), None).map(|v| v.to_string().len()).unwrap_or(0))
    });
    let _ = std::fs::remove_dir_all(dir);
}

/// A free move checked while it is dragged (`Server::check`): a Der Alte Fritz battalion taken
/// 40" on, refused, and the farthest legal place on the line found by halving (up to 15 of the
/// rules' validations) — the path behind the page's answer as a unit is dragged.
#[divan::bench(sample_count = 30, sample_size = 10)]
fn move_checked(bencher: Bencher) {
    let (server, id, tokens, dir) = game("the-village");
    // To the movement phase: act through the first choices until a move is offered.
    let mut found = None;
    for _ in 0..20 {
        let (side, v) = (0..2)
            .map(|s| (s, server.view(&id, Some(&tokens[s]), None).unwrap_or_default()))
            .find(|(_, v)| v["candidates"].as_array().is_some_and(|c| !c.is_empty()))
            .unwrap_or_else(|| panic!("somebody acts"));
        let cands = v["candidates"].as_array().cloned().unwrap_or_default();
        if let Some(m) = cands.iter().find(|c| c["action"]["kind"] == "move") {
            found = Some((side, m["action"].clone()));
            break;
        }
        if let Err(e) = server.act(&id, &tokens[side], &cands[0]["action"]) {
            panic!("{e:?}");
        }
    }
    let (side, mut action) = found.unwrap_or_else(|| panic!("a move is offered"));
    let to = [action["to"][0].as_f64().unwrap_or(0.0), action["to"][1].as_f64().unwrap_or(0.0)];
    action["to"] = json!([to[0], to[1] + 40.0]);
    let from = [to[0], to[1] - 4.0];
    bencher.bench_local(|| {
        let r = server.check(&id, &tokens[side], &action, Some(from)).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(r["legal"], false);
        divan::black_box(r)
    });
    let _ = std::fs::remove_dir_all(dir);
}
