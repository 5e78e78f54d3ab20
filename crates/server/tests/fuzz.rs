//! The fuzzing test: the corpus in `fuzz/corpus` (and the bundled scenarios), mutated, fed to the
//! scenario loader, each rule set's calculator and live games through the server. Nothing may
//! panic; a scenario's refusal names its line and column; no error runs past a page. Runs for
//! `VOLLEY_FUZZ_SECONDS` (default 20) with mutations from `VOLLEY_FUZZ_SEED`.
#![allow(clippy::unwrap_used)] // tests may panic on what they did not expect

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::Value;
use volley_chance::Seeded;
use volley_scenario::Source;
use volley_server::{Creator, NewGame, Server, catalog, desk};
use volley_store::SqliteStore;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn files(dir: &Path, ext: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == ext))
                .filter_map(|p| Some((p.display().to_string(), std::fs::read_to_string(&p).ok()?)))
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// One mutation of `text`: a byte changed, a span deleted or repeated, a number made huge, zero,
/// negative or fractional, a string made long, a line duplicated.
fn mutate(text: &str, rng: &mut Seeded) -> String {
    let mut b = text.as_bytes().to_vec();
    if b.is_empty() {
        return "x".into();
    }
    let n = b.len() as u64;
    let at = rng.below(n) as usize;
    match rng.below(8) {
        0 => b[at] = rng.below(256) as u8,
        1 => {
            let len = (rng.below(16) as usize).min(b.len() - at);
            b.drain(at..at + len);
        }
        2 => {
            let len = (rng.below(32) as usize).min(b.len() - at);
            let span: Vec<u8> = b[at..at + len].to_vec();
            for _ in 0..rng.below(4) + 1 {
                b.splice(at..at, span.iter().copied());
            }
        }
        3..=5 => {
            // A number somewhere becomes another.
            let s = String::from_utf8_lossy(&b).into_owned();
            let digits: Vec<usize> = s.char_indices().filter(|(_, c)| c.is_ascii_digit()).map(|(i, _)| i).collect();
            if let Some(&i) = digits.get(rng.below(digits.len().max(1) as u64) as usize) {
                let end = s[i..].find(|c: char| !c.is_ascii_digit() && c != '.').map_or(s.len(), |k| i + k);
                let with =
                    ["0", "-1", "65535", "65536", "4294967296", "1e308", "0.5", "-0", "99999999999999999999", "NaN"];
                let w = with[rng.below(with.len() as u64) as usize];
                return format!("{}{w}{}", &s[..i], &s[end..]);
            }
        }
        6 => {
            let s = String::from_utf8_lossy(&b).into_owned();
            if let Some(i) = s.find('"') {
                return format!("{}\"{}{}", &s[..i], "w".repeat(rng.below(100_000) as usize), &s[i..]);
            }
        }
        _ => {
            let s = String::from_utf8_lossy(&b).into_owned();
            let lines: Vec<&str> = s.lines().collect();
            let k = rng.below(lines.len().max(1) as u64) as usize;
            let mut out: Vec<&str> = lines.clone();
            if let Some(l) = lines.get(k) {
                out.insert(k, l);
            }
            return out.join("\n");
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

/// The error text is short, and says where (a scenario's: `path:line:col:`).
fn bounded(what: &str, error: &str) {
    assert!(error.len() < 4_000, "{what}: an error of {} bytes: {}…", error.len(), &error[..200.min(error.len())]);
}

#[test]
fn mutated_scenarios_situations_and_actions_are_refused_clearly_never_with_a_panic() {
    let seconds: u64 = std::env::var("VOLLEY_FUZZ_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(20);
    let seed: u64 = std::env::var("VOLLEY_FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(16);
    let mut rng = Seeded::new(seed);
    let corpus = root().join("fuzz/corpus");
    let mut scenarios: Vec<(String, String)> =
        catalog::SCENARIOS.iter().map(|b| (b.path.to_string(), b.text.to_string())).collect();
    scenarios.extend(files(&corpus.join("scenarios"), "toml"));
    let rulesets = catalog::RULESETS;
    let situations: Vec<(&str, Vec<(String, String)>)> =
        catalog::CALCULATORS.iter().map(|rs| (*rs, files(&corpus.join("situations").join(rs), "json"))).collect();
    let actions: Vec<(&str, Vec<String>)> = rulesets
        .iter()
        .map(|rs| {
            let lines = files(&corpus.join("actions").join(rs), "jsonl")
                .into_iter()
                .flat_map(|(_, t)| t.lines().map(str::to_string).collect::<Vec<_>>())
                .collect();
            (*rs, lines)
        })
        .collect();
    assert!(situations.iter().all(|(_, s)| !s.is_empty()) && actions.iter().all(|(_, a)| !a.is_empty()), "a corpus");
    // One live game of each rule set, two people at one screen and the umpire.
    let server = Server::new(Arc::new(SqliteStore::in_memory().unwrap()));
    let mut live = Vec::new();
    for (rs, scenario) in [
        ("blown-away", "crossroads"),
        ("itchy-scratchy", "hochdorf-mill"),
        ("old-fritz", "mittelhof"),
        ("der-alte-fritz", "the-village"),
    ] {
        let req = NewGame {
            open: false,
            scenario: scenario.into(),
            scenario_text: None,
            players: vec!["human".into(), "human".into()],
            seed: Some(seed),
            creator: Some(Creator::HotSeat),
            private: false,
            hold_results: false,
            umpire: true,
            rules_shown: false,
        };
        let g = server.create(&req).unwrap();
        let id = g["id"].as_str().unwrap().to_string();
        let mut tokens: Vec<String> =
            (0..2).map(|i| g["credentials"][i]["token"].as_str().unwrap().to_string()).collect();
        tokens.push(
            server.claim(&id, g["invitations"][0]["code"].as_str().unwrap()).unwrap()["token"].as_str().unwrap().into(),
        );
        live.push((rs, id, tokens));
    }

    let end = Instant::now() + Duration::from_secs(seconds);
    let mut cases = [0u64; 3];
    while Instant::now() < end {
        // A scenario.
        let (path, text) = &scenarios[rng.below(scenarios.len() as u64) as usize];
        let mut mutated = text.clone();
        for _ in 0..rng.below(3) + 1 {
            mutated = mutate(&mutated, &mut rng);
        }
        let src = Source::new(path.clone(), mutated.clone());
        let loaded = catch_unwind(AssertUnwindSafe(|| catalog::load(&src).map(|_| ())));
        match loaded {
            Err(_) => panic!("loading panicked; the file:\n{}", &mutated[..mutated.len().min(4000)]),
            Ok(Err(d)) => {
                let e = d.to_string();
                bounded(path, &e);
                assert!(e.starts_with(&format!("{path}:")), "a scenario's error says where: {e}");
                let place: Vec<&str> = e.splitn(4, ':').collect();
                assert!(
                    place.len() == 4 && place[1].parse::<usize>().is_ok() && place[2].parse::<usize>().is_ok(),
                    "line and column: {e}"
                );
            }
            Ok(Ok(())) => {}
        }
        cases[0] += 1;

        // A situation, resolved with the seeded dice and with exact odds.
        let (rs, list) = &situations[rng.below(situations.len() as u64) as usize];
        let (_, text) = &list[rng.below(list.len() as u64) as usize];
        let mutated = mutate(text, &mut rng);
        if let Ok(situation) = serde_json::from_str::<Value>(&mutated) {
            let d = desk::desk(rs).unwrap();
            for what in ["resolve", "odds"] {
                let r = catch_unwind(AssertUnwindSafe(|| match what {
                    "resolve" => d.resolve(&situation, None, seed),
                    _ => d.odds(&situation),
                }));
                match r {
                    Err(_) => panic!("{rs} {what} panicked on {mutated}"),
                    Ok(Err(e)) => bounded(rs, &e.message),
                    Ok(Ok(_)) => {}
                }
            }
        }
        cases[1] += 1;

        // An action, posted by a side or the umpire.
        let (rs, id, tokens) = &live[rng.below(live.len() as u64) as usize];
        let list = &actions.iter().find(|(r, _)| r == rs).unwrap().1;
        let mutated = mutate(&list[rng.below(list.len() as u64) as usize], &mut rng);
        if let Ok(action) = serde_json::from_str::<Value>(&mutated) {
            let token = &tokens[rng.below(3) as usize];
            let r = catch_unwind(AssertUnwindSafe(|| server.act(id, token, &action)));
            match r {
                Err(_) => panic!("{rs}: acting panicked on {mutated}"),
                Ok(Err(e)) => {
                    bounded(rs, &e.message);
                    assert!(e.status < 500, "{rs}: {} for {mutated}: {}", e.status, e.message);
                }
                Ok(Ok(_)) => {}
            }
            // The game still answers, whatever was accepted.
            assert!(server.view(id, Some(&tokens[0]), None).is_ok());
        }
        cases[2] += 1;
    }
    println!("{} scenarios, {} situations, {} actions in {seconds} s", cases[0], cases[1], cases[2]);
    assert!(cases.iter().all(|&c| c > 0));
}
