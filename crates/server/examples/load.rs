//! A load test: many people, each playing a game against the computer and acting every few
//! seconds (paced, not as fast as a script can), against a real server on loopback. Reports how
//! long a person's action takes to be answered (p50, p99, max), the actions a second, and the
//! server's memory.
//!
//!     cargo run --release -p volley-server --example load -- --games 1000 --every 5 --seconds 60
//!
//! With `--people 2`, two people play each game against each other (the second claims the
//! invitation, as a friend would): each looks at the game every few seconds and acts when it is
//! his turn. The looks (views) and the actions are timed apart. `--pin` runs the server's
//! threads on the first `--server-cores` cores and the players' on the others (Linux);
//! `--memory MIB` is the server's memory for games kept between requests (`volley serve
//! --memory`, 256 by default); `--waiting N` its cap on requests in hand (`volley serve
//! --waiting`; none by default), past which a request is told at once that it is busy (503).
//!
//!     cargo run --release -p volley-server --example load -- --people 2 --games 500 --every 5 --seconds 60
//!
//! Figures for BENCHMARKS.md; not a test (timings on a shared machine wander).

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use volley_server::limits::Limits;
use volley_store::{SqliteStore, Store};

fn arg(name: &str, default: f64) -> f64 {
    let args: Vec<String> = std::env::args().collect();
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn text_arg(name: &str, default: &str) -> String {
    let args: Vec<String> = std::env::args().collect();
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned().unwrap_or_else(|| default.to_string())
}

/// One request, `Connection: close`: status and body.
async fn http(addr: std::net::SocketAddr, method: &str, path: &str, token: Option<&str>, body: &str) -> (u16, Value) {
    let Ok(mut s) = TcpStream::connect(addr).await else { return (0, Value::Null) };
    let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: load\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    if s.write_all(req.as_bytes()).await.is_err() {
        return (0, Value::Null);
    }
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out).await;
    let text = String::from_utf8_lossy(&out);
    let status = text.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let json = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    (status, serde_json::from_str(json).unwrap_or(Value::Null))
}

fn rss_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmRSS:")).map(str::to_string))
        .and_then(|l| l.split_whitespace().nth(1).and_then(|k| k.parse::<f64>().ok()))
        .map_or(0.0, |kb| kb / 1024.0)
}

fn main() {
    let games = arg("--games", 1000.0) as usize;
    let every = arg("--every", 5.0);
    let seconds = arg("--seconds", 60.0);
    let scenario = text_arg("--scenario", "hochdorf-mill");
    let computer = text_arg("--computer", "heuristic");
    let people = arg("--people", 1.0) as usize;
    if people == 2 {
        return two_people(games, every, seconds, &scenario);
    }
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap_or_else(|e| panic!("{e}"));
    rt.block_on(async move {
        let dir = std::env::temp_dir().join(format!("volley-load-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
        let store: Arc<dyn Store> =
            Arc::new(SqliteStore::open_exclusive(&dir.join("games.db")).unwrap_or_else(|e| panic!("{e}")));
        let (tx, rx) = tokio::sync::oneshot::channel();
        tokio::spawn(async move {
            let _ = volley_server::serve_with("127.0.0.1:0", store, Limits::none(), move |a| {
                let _ = tx.send(a);
            })
            .await;
        });
        let addr = rx.await.unwrap_or_else(|e| panic!("{e}"));
        let rss_start = rss_mib();
        // The people's games.
        let body = json!({"scenario": scenario, "players": ["human", computer]}).to_string();
        let mut seats = Vec::new();
        for _ in 0..games {
            let (status, g) = http(addr, "POST", "/api/games", None, &body).await;
            assert_eq!(status, 200, "{g}");
            let id = g["id"].as_str().unwrap_or_default().to_string();
            let token = g["credentials"][0]["token"].as_str().unwrap_or_default().to_string();
            seats.push((id, token));
        }
        println!("{games} games of {scenario} against the {computer} player, one action each every {every} s, for {seconds} s");
        let start = Instant::now();
        let end = start + Duration::from_secs_f64(seconds);
        let mut tasks = Vec::new();
        for (i, (id, token)) in seats.into_iter().enumerate() {
            tasks.push(tokio::spawn(async move {
                let mut times = Vec::new();
                let (mut refused, mut waited) = (0u64, 0u64);
                // Spread evenly over the first period, then every `every` seconds.
                let mut next = start + Duration::from_secs_f64(every * i as f64 / games as f64);
                let mut pick = i as u64;
                while next < end {
                    tokio::time::sleep_until(next.into()).await;
                    next += Duration::from_secs_f64(every);
                    let (_, g) = http(addr, "GET", &format!("/api/games/{id}"), Some(&token), "").await;
                    let cands = g["candidates"].as_array().cloned().unwrap_or_default();
                    if cands.is_empty() {
                        // The computer is still thinking, or the battle is over.
                        waited += 1;
                        continue;
                    }
                    pick = pick.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    let action = cands[(pick >> 33) as usize % cands.len()]["action"].clone();
                    let body = json!({"action": action}).to_string();
                    let t = Instant::now();
                    let (status, _) = http(addr, "POST", &format!("/api/games/{id}/actions"), Some(&token), &body).await;
                    let ms = t.elapsed().as_secs_f64() * 1000.0;
                    if status == 200 {
                        times.push(ms);
                    } else {
                        refused += 1;
                    }
                }
                (times, refused, waited)
            }));
        }
        let mut all = Vec::new();
        let (mut refused, mut waited) = (0, 0);
        for t in tasks {
            if let Ok((times, r, w)) = t.await {
                all.extend(times);
                refused += r;
                waited += w;
            }
        }
        let took = start.elapsed().as_secs_f64();
        all.sort_by(f64::total_cmp);
        let q = |p: f64| all.get(((all.len() as f64 - 1.0) * p).round() as usize).copied().unwrap_or(f64::NAN);
        println!(
            "a person's action answered in: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms ({} actions, {:.0} a second; {refused} refused; {waited} times the computer was still thinking)",
            q(0.5),
            q(0.99),
            all.last().copied().unwrap_or(f64::NAN),
            all.len(),
            all.len() as f64 / took
        );
        println!("memory: {:.0} MiB at the start, {:.0} MiB at the end", rss_start, rss_mib());
        let _ = std::fs::remove_dir_all(&dir);
    });
}

/// The server on its own runtime (on the first `--server-cores` cores with `--pin`), its address.
fn start_server(dir: &std::path::Path) -> std::net::SocketAddr {
    let store: Arc<dyn Store> =
        Arc::new(SqliteStore::open_exclusive(&dir.join("games.db")).unwrap_or_else(|e| panic!("{e}")));
    let (tx, rx) = std::sync::mpsc::channel();
    let pin = std::env::args().any(|a| a == "--pin");
    let cores = arg("--server-cores", 1.0) as usize;
    let memory = arg("--memory", 256.0) as usize;
    std::thread::spawn(move || {
        if pin {
            pin_to(0..cores);
        }
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(cores.max(1))
            .on_thread_start(move || {
                if pin {
                    pin_to(0..cores);
                }
            })
            .enable_all()
            .build()
            .unwrap_or_else(|e| panic!("{e}"));
        rt.block_on(async move {
            // (`--waiting N`: the server's cap on requests in hand, as `volley serve --waiting`;
            // none by default.)
            let waiting = arg("--waiting", 0.0) as usize;
            let limits = Limits {
                memory_for_games: memory << 20,
                waiting: if waiting == 0 { usize::MAX } else { waiting },
                ..Limits::none()
            };
            let _ = volley_server::serve_with("127.0.0.1:0", store, limits, move |a| {
                let _ = tx.send(a);
            })
            .await;
        });
    });
    rx.recv().unwrap_or_else(|e| panic!("{e}"))
}

/// Pin the calling thread to `cores` (Linux's `taskset`, by its command: no crate for a trifle).
fn pin_to(cores: std::ops::Range<usize>) {
    let list: Vec<String> = cores.map(|c| c.to_string()).collect();
    let tid = thread_id();
    let _ = std::process::Command::new("taskset").args(["-p", "-c", &list.join(","), &tid.to_string()]).output();
}

/// The calling thread's id (Linux), from /proc/thread-self.
fn thread_id() -> u64 {
    std::fs::read_link("/proc/thread-self")
        .ok()
        .and_then(|p| p.file_name().and_then(|n| n.to_str()).and_then(|n| n.parse().ok()))
        .unwrap_or(0)
}

/// A quantile of sorted times.
fn quantile(sorted: &[f64], p: f64) -> f64 {
    sorted.get(((sorted.len() as f64 - 1.0) * p).round() as usize).copied().unwrap_or(f64::NAN)
}

/// Two people a game, each looking every `every` seconds and acting when it is his turn.
fn two_people(games: usize, every: f64, seconds: f64, scenario: &str) {
    let dir = std::env::temp_dir().join(format!("volley-load-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let addr = start_server(&dir);
    let pin = std::env::args().any(|a| a == "--pin");
    let server_cores = arg("--server-cores", 1.0) as usize;
    let all_cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .on_thread_start(move || {
            if pin && all_cores > server_cores {
                pin_to(server_cores..all_cores);
            }
        })
        .enable_all()
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    let scenario = scenario.to_string();
    rt.block_on(async move {
        let rss_start = rss_mib();
        let body = json!({"scenario": scenario, "players": ["human", "human"], "creator": {"side": 0}}).to_string();
        let mut seats = Vec::new();
        for _ in 0..games {
            let (status, g) = http(addr, "POST", "/api/games", None, &body).await;
            assert_eq!(status, 200, "{g}");
            let id = g["id"].as_str().unwrap_or_default().to_string();
            let token = g["credentials"][0]["token"].as_str().unwrap_or_default().to_string();
            let code = g["invitations"][0]["code"].as_str().unwrap_or_default().to_string();
            let claim = json!({"invitation": code}).to_string();
            let (status, c) = http(addr, "POST", &format!("/api/games/{id}/claim"), None, &claim).await;
            assert_eq!(status, 200, "{c}");
            let other = c["token"].as_str().unwrap_or_default().to_string();
            seats.push((id.clone(), token));
            seats.push((id, other));
        }
        let players = seats.len();
        println!(
            "{players} people in {games} games of {scenario}, two a game, each looking every {every} s and acting when it is his turn, for {seconds} s{}",
            if pin { format!(" (server on {server_cores} of {all_cores} cores, players on the rest)") } else { String::new() }
        );
        let start = Instant::now();
        let end = start + Duration::from_secs_f64(seconds);
        let mut tasks = Vec::new();
        for (i, (id, token)) in seats.into_iter().enumerate() {
            tasks.push(tokio::spawn(async move {
                let (mut views, mut acts) = (Vec::new(), Vec::new());
                let (mut failed, mut busy) = (0u64, 0u64);
                let mut next = start + Duration::from_secs_f64(every * i as f64 / players as f64);
                let mut pick = i as u64;
                while next < end {
                    tokio::time::sleep_until(next.into()).await;
                    next += Duration::from_secs_f64(every);
                    let t = Instant::now();
                    let (status, g) = http(addr, "GET", &format!("/api/games/{id}"), Some(&token), "").await;
                    if status == 503 {
                        busy += 1;
                        continue;
                    }
                    if status != 200 {
                        failed += 1;
                        continue;
                    }
                    views.push(t.elapsed().as_secs_f64() * 1000.0);
                    // Acting while it is his turn (several actions in a row if he has several).
                    let mut g = g;
                    for _ in 0..4 {
                        let cands = g["candidates"].as_array().cloned().unwrap_or_default();
                        if cands.is_empty() {
                            break;
                        }
                        pick = pick.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                        let action = cands[(pick >> 33) as usize % cands.len()]["action"].clone();
                        let body = json!({"action": action}).to_string();
                        let t = Instant::now();
                        let (status, r) = http(addr, "POST", &format!("/api/games/{id}/actions"), Some(&token), &body).await;
                        if status == 503 {
                            busy += 1;
                            break;
                        }
                        if status != 200 {
                            failed += 1;
                            break;
                        }
                        acts.push(t.elapsed().as_secs_f64() * 1000.0);
                        g = r;
                    }
                }
                (views, acts, failed, busy)
            }));
        }
        let (mut views, mut acts, mut failed, mut busy) = (Vec::new(), Vec::new(), 0, 0);
        for t in tasks {
            if let Ok((v, a, f, b)) = t.await {
                views.extend(v);
                acts.extend(a);
                failed += f;
                busy += b;
            }
        }
        let took = start.elapsed().as_secs_f64();
        for (what, times) in [("a look (the view)", &mut views), ("an action", &mut acts)] {
            times.sort_by(f64::total_cmp);
            println!(
                "{what} answered in: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms ({} in all, {:.0} a second)",
                quantile(times, 0.5),
                quantile(times, 0.99),
                times.last().copied().unwrap_or(f64::NAN),
                times.len(),
                times.len() as f64 / took
            );
        }
        println!("{busy} requests told the server is busy (503, past --waiting)");
        println!("{failed} requests refused or failed otherwise; memory (server and players): {rss_start:.0} MiB at the start, {:.0} MiB at the end", rss_mib());
        let _ = std::fs::remove_dir_all(&dir);
    });
}
