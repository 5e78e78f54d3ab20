//! A finished game's log, exported by the server: signed with its key, and every draw checked
//! against the game's seed when it replays.
#![allow(clippy::unwrap_used)] // tests may panic on what they did not expect

use std::sync::Arc;

use serde_json::Value;
use volley_chance::Seeded;
use volley_core::GameState;
use volley_core::log::{DrawScheme, Log};
use volley_core::run::replay_verified;
use volley_scenario::Source;
use volley_server::{Creator, NewGame, Server};
use volley_store::SqliteStore;

#[test]
fn a_finished_games_log_is_signed_and_its_draws_are_the_seeds() {
    let s = Server::new(Arc::new(SqliteStore::in_memory().unwrap()));
    // The server's own seed, secret while the game lasts.
    let req = NewGame {
        open: false,
        scenario: "attack-on-the-ridge".into(),
        scenario_text: None,
        players: vec!["human".into(), "human".into()],
        seed: None,
        creator: Some(Creator::HotSeat),
        private: false,
        hold_results: false,
        umpire: false,
        rules_shown: false,
    };
    let g = s.create(&req).unwrap();
    let id = g["id"].as_str().unwrap().to_string();
    let tokens: Vec<String> = (0..2).map(|i| g["credentials"][i]["token"].as_str().unwrap().to_string()).collect();
    let early = s.export(&id).unwrap_err();
    assert_eq!(early.status, 409, "{early:?}");
    let mut pick = 5u64;
    for n in 0..2000u64 {
        let v = s.view(&id, None, None).unwrap();
        if v["outcome"] != Value::Null {
            break;
        }
        let side = v["actor"]["side"].as_u64().unwrap() as usize;
        let mine = s.view(&id, Some(&tokens[side]), None).unwrap();
        let cands = mine["candidates"].as_array().unwrap();
        pick = Seeded::derive(pick, n);
        // End the orders one time in three, so that bounds are fought.
        let i = if pick.is_multiple_of(3) { cands.len() - 1 } else { (pick % cands.len() as u64) as usize };
        s.act(&id, &tokens[side], &cands[i]["action"]).unwrap();
    }
    let over = s.view(&id, None, None).unwrap();
    assert_ne!(over["outcome"], Value::Null, "the battle ended");
    let seed: u64 = over["seed"]["value"].as_str().unwrap().parse().unwrap();
    assert_eq!(
        over["seed"]["commitment"],
        serde_json::json!(volley_server::seed_commitment(seed, over["seed"]["salt"].as_str())),
        "the seed kept its word"
    );

    let text = s.export(&id).unwrap();
    let log: Log<volley_old_fritz::Action> = Log::parse(&text).unwrap();
    assert_eq!((log.header.seed, log.header.draws, log.header.seed_chosen), (seed, DrawScheme::PerPublicAction, false));
    let (sig, signed) = log.signature.clone().unwrap();
    assert_eq!(sig.key, s.key().unwrap().public_hex(), "signed with the server's key");
    volley_server::signing::verify(&sig, &signed).unwrap();
    assert!(volley_server::signing::verify(&sig, &signed.replacen("human", "heuristic", 1)).is_err());

    let src = Source::new(log.header.scenario_path.clone(), log.header.scenario.clone());
    let fresh = || volley_old_fritz::load(&src).unwrap();
    let mut b = fresh();
    replay_verified(&mut b, &log.entries, Some((seed, DrawScheme::PerPublicAction)), |_, _, _| {}).unwrap();
    let footer = log.footer.as_ref().unwrap();
    assert_eq!(volley_core::hash_hex(b.state_hash()), footer.state_hash);
    assert!(log.entries.iter().any(|e| !e.draws.is_empty()), "dice were thrown");
    // Another seed, or one draw changed, and the replay says so.
    let err = replay_verified(&mut fresh(), &log.entries, Some((seed ^ 1, DrawScheme::PerPublicAction)), |_, _, _| {})
        .unwrap_err();
    assert!(err.to_string().contains("the log's seed gives"), "{err}");
    let mut changed = log.entries.clone();
    let e = changed.iter_mut().find(|e| !e.draws.is_empty()).unwrap();
    e.draws[0].value = e.draws[0].value % 6 + 1;
    let err =
        replay_verified(&mut fresh(), &changed, Some((seed, DrawScheme::PerPublicAction)), |_, _, _| {}).unwrap_err();
    assert!(err.to_string().contains("recorded draw"), "{err}");
}
