//! A server on the internet (issue 30): the web's usual armour (security headers on every
//! answer, JSON-only POSTs, a credential never taken from an address, an optional allowed host,
//! every refusal JSON), and the public list a page at a time.
#![allow(clippy::unwrap_used)] // tests may panic on what they did not expect

use std::net::SocketAddr;
use std::sync::Arc;

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use volley_server::limits::Limits;
use volley_store::{SqliteStore, Store};

async fn start(name: &str, limits: Limits) -> SocketAddr {
    let db = std::env::temp_dir().join(format!("volley-armour-{name}-{}.db", std::process::id()));
    let _ = std::fs::remove_file(&db);
    let store: Arc<dyn Store> = Arc::new(SqliteStore::open(&db).unwrap());
    let (tx, rx) = tokio::sync::oneshot::channel();
    tokio::spawn(async move {
        let _ = volley_server::serve_with("127.0.0.1:0", store, limits, move |a| {
            let _ = tx.send(a);
        })
        .await;
    });
    rx.await.unwrap()
}

/// One raw request: its status, its headers (lower-case names) and its body.
async fn raw(addr: SocketAddr, request: &str) -> (u16, Vec<(String, String)>, String) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(request.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.unwrap();
    let text = String::from_utf8_lossy(&out).to_string();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status: u16 = head.split(' ').nth(1).unwrap().parse().unwrap();
    let headers = head
        .lines()
        .skip(1)
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    (status, headers, body.to_string())
}

fn get(path: &str, host: &str) -> String {
    format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n")
}

fn post(path: &str, content_type: &str, body: &str) -> String {
    format!(
        "POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
}

#[tokio::test]
async fn every_answer_is_armoured_and_every_refusal_is_json() {
    let addr = start("headers", Limits::default()).await;
    for path in ["/", "/js/game.js", "/api/scenarios", "/api/games/nope", "/no-such-page"] {
        let (_, h, _) = raw(addr, &get(path, "localhost")).await;
        assert_eq!(header(&h, "x-content-type-options"), Some("nosniff"), "{path}");
        assert_eq!(header(&h, "x-frame-options"), Some("DENY"), "{path}");
        let csp = header(&h, "content-security-policy").unwrap_or_default();
        assert!(csp.contains("frame-ancestors 'none'") && csp.contains("script-src 'self'"), "{path}: {csp}");
    }
    // Refusals made before a handler runs are JSON too: a bad query, a WebSocket asked for
    // without its headers, a path that is not an id.
    for path in ["/api/games/x/replay?step=many", "/api/games/x/ws"] {
        let (status, h, body) = raw(addr, &get(path, "localhost")).await;
        assert!((400..500).contains(&status), "{path}: {status}");
        assert!(header(&h, "content-type").unwrap_or_default().starts_with("application/json"), "{path}: {h:?}");
        let v: Value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{path}: {e}: {body}"));
        assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{path}: {v}");
    }
}

#[tokio::test]
async fn a_post_must_be_json_and_a_credential_is_never_taken_from_an_address() {
    let addr = start("posts", Limits::default()).await;
    let new_game = r#"{"scenario": "hochdorf-mill", "players": ["human", "heuristic"]}"#;
    // A plain-text or form POST, as another site's page could send without asking: refused, no
    // game made.
    for ct in ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"] {
        let (status, _, body) = raw(addr, &post("/api/games", ct, new_game)).await;
        assert_eq!(status, 415, "{ct}: {body}");
        assert!(body.contains("application/json"), "{body}");
    }
    let (_, _, list) = raw(addr, &get("/api/games", "localhost")).await;
    assert_eq!(serde_json::from_str::<Value>(&list).unwrap().as_array().map(Vec::len), Some(0), "{list}");
    let (status, _, body) = raw(addr, &post("/api/games", "application/json", new_game)).await;
    assert_eq!(status, 200);
    // A POST without a body (an undo, a release) needs no type: it is the credential that counts.
    let id = serde_json::from_str::<Value>(&body).unwrap()["id"].as_str().unwrap().to_string();
    let undo = format!(
        "POST /api/games/{id}/undo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    );
    let (status, _, body) = raw(addr, &undo).await;
    assert_eq!(status, 401, "asked for the credential, not the type: {body}");
    // `?token=` is refused on every endpoint, not only the game's view.
    for path in ["/api/games?token=abc", "/api/scenarios?x=1&token=abc", "/api/games/x/replay?token=abc", "/?token=abc"]
    {
        let (status, _, body) = raw(addr, &get(path, "localhost")).await;
        assert_eq!(status, 400, "{path}: {body}");
        assert!(body.contains("Authorization"), "{path}: {body}");
    }
}

#[tokio::test]
async fn told_its_host_names_the_server_answers_for_them_only() {
    let limits = Limits { hosts: vec!["volley.example".into()], ..Limits::default() };
    let addr = start("hosts", limits).await;
    let (status, _, _) = raw(addr, &get("/api/scenarios", "volley.example")).await;
    assert_eq!(status, 200);
    let (status, _, _) = raw(addr, &get("/api/scenarios", "VOLLEY.example:8080")).await;
    assert_eq!(status, 200, "any port, any case");
    // A name an attacker's DNS points here (rebinding): refused, as JSON.
    let (status, _, body) = raw(addr, &get("/api/scenarios", "evil.example")).await;
    assert_eq!(status, 421, "{body}");
    assert!(serde_json::from_str::<Value>(&body).unwrap()["error"].is_string());
    // Without names given, any host is answered.
    let open = start("any-host", Limits::default()).await;
    assert_eq!(raw(open, &get("/api/scenarios", "anything.example")).await.0, 200);
}

#[tokio::test]
async fn the_public_list_comes_a_page_at_a_time_newest_first_with_a_total() {
    let addr = start("pages", Limits { creations_per_minute: 1000.0, ..Limits::default() }).await;
    let mut made = Vec::new();
    for i in 0..7 {
        let body = if i == 3 {
            r#"{"scenario": "hochdorf-mill", "players": ["human", "human"], "open": true}"#
        } else {
            r#"{"scenario": "hochdorf-mill", "players": ["human", "heuristic"]}"#
        };
        let (status, _, b) = raw(addr, &post("/api/games", "application/json", body)).await;
        assert_eq!(status, 200, "{b}");
        made.push(serde_json::from_str::<Value>(&b).unwrap()["id"].as_str().unwrap().to_string());
    }
    let list = |v: &str| serde_json::from_str::<Value>(v).unwrap().as_array().unwrap().clone();
    let mut seen = Vec::new();
    for page in 1..=4 {
        let (status, h, body) = raw(addr, &get(&format!("/api/games?per_page=2&page={page}"), "localhost")).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(header(&h, "x-total-count"), Some("7"));
        let games = list(&body);
        assert_eq!(games.len(), if page < 4 { 2 } else { 1 }, "page {page}");
        seen.extend(games.into_iter().map(|g| (g["created"].as_u64().unwrap(), g["id"].as_str().unwrap().to_string())));
    }
    // Every game once, the newest first.
    let mut ids: Vec<&String> = seen.iter().map(|(_, id)| id).collect();
    ids.sort();
    let mut all: Vec<&String> = made.iter().collect();
    all.sort();
    assert_eq!(ids, all);
    assert!(seen.windows(2).all(|w| w[0].0 >= w[1].0), "{seen:?}");
    // Past the end: an empty page, the total still said.
    let (_, h, body) = raw(addr, &get("/api/games?per_page=2&page=9", "localhost")).await;
    assert_eq!((list(&body).len(), header(&h, "x-total-count")), (0, Some("7")));
    // Without asking: the first 50. Only those with an open seat: the one.
    let (_, _, body) = raw(addr, &get("/api/games", "localhost")).await;
    assert_eq!(list(&body).len(), 7);
    let (_, h, body) = raw(addr, &get("/api/games?open=true", "localhost")).await;
    assert_eq!((list(&body).len(), header(&h, "x-total-count")), (1, Some("1")));
    assert_eq!(list(&body)[0]["id"].as_str(), Some(made[3].as_str()));
    // A page asked for badly is refused, with words.
    for q in ["per_page=0", "per_page=5000", "page=0", "page=two"] {
        let (status, _, body) = raw(addr, &get(&format!("/api/games?{q}"), "localhost")).await;
        assert_eq!(status, 400, "{q}: {body}");
    }
}

#[tokio::test]
async fn the_servers_key_comes_with_its_fingerprint() {
    let addr = start("key", Limits::default()).await;
    let (status, _, body) = raw(addr, &get("/api/key", "localhost")).await;
    assert_eq!(status, 200);
    let v: Value = serde_json::from_str(&body).unwrap();
    let key = v["ed25519"].as_str().unwrap();
    assert_eq!(v["fingerprint"].as_str(), volley_server::signing::fingerprint(key).as_deref());
}

fn create_from(forwarded: Option<&str>, body: &str) -> String {
    let xff = forwarded.map_or(String::new(), |f| format!("X-Forwarded-For: {f}\r\n"));
    format!(
        "POST /api/games HTTP/1.1\r\nHost: localhost\r\n{xff}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
}

#[tokio::test]
async fn behind_a_trusted_proxy_each_client_is_counted_by_its_own_address_and_a_malformed_request_costs_nothing() {
    let good = r#"{"scenario": "hochdorf-mill", "players": ["human", "heuristic"]}"#;
    // Two games a minute for each client; the proxy is this machine.
    let limits =
        Limits { creations_per_minute: 2.0, trusted_proxies: vec!["127.0.0.1".parse().unwrap()], ..Limits::default() };
    let addr = start("proxy", limits).await;
    // Malformed requests spend nothing.
    for bad in ["{", r#"{"scenario": 5}"#, "[]"] {
        let (status, _, _) = raw(addr, &create_from(Some("203.0.113.7"), bad)).await;
        assert_eq!(status, 400, "{bad}");
    }
    for _ in 0..2 {
        assert_eq!(raw(addr, &create_from(Some("203.0.113.7"), good)).await.0, 200);
    }
    assert_eq!(raw(addr, &create_from(Some("203.0.113.7"), good)).await.0, 429, "that client's two are spent");
    // Another client behind the same proxy has its own; the address the proxy added (the last)
    // is the one counted, not one the client wrote before it.
    assert_eq!(raw(addr, &create_from(Some("203.0.113.7, 198.51.100.2"), good)).await.0, 200);
    assert_eq!(raw(addr, &create_from(Some("198.51.100.9"), good)).await.0, 200);
    // Not trusted, the proxy's word is not taken: every request is the proxy's own.
    let plain = start("no-proxy", Limits { creations_per_minute: 2.0, ..Limits::default() }).await;
    for (i, who) in ["203.0.113.1", "203.0.113.2", "203.0.113.3"].iter().enumerate() {
        let want = if i < 2 { 200 } else { 429 };
        assert_eq!(raw(plain, &create_from(Some(who), good)).await.0, want, "{who}");
    }
}

/// Whether the server has closed `s` (a read gives nothing, or fails) within `within`.
async fn closed_within(s: &mut TcpStream, within: std::time::Duration) -> bool {
    let mut buf = [0u8; 64];
    matches!(tokio::time::timeout(within, s.read(&mut buf)).await, Ok(Ok(0) | Err(_)))
}

#[tokio::test]
async fn idle_connections_are_closed_and_lock_nobody_out() {
    let head = std::time::Duration::from_millis(600);
    let addr = start("idle", Limits { head_timeout: head, connections: Some(40), ..Limits::default() }).await;
    // Thirty connections that send nothing, and one that sends half a request's head.
    let mut idle = Vec::new();
    for _ in 0..30 {
        idle.push(TcpStream::connect(addr).await.unwrap());
    }
    let mut slow = TcpStream::connect(addr).await.unwrap();
    slow.write_all(b"GET /api/scenarios HTTP/1.1\r\nHost: loc").await.unwrap();
    // Meanwhile another client is answered at once.
    let (status, _, _) = raw(addr, &get("/api/scenarios", "localhost")).await;
    assert_eq!(status, 200);
    // Past the head's time, every one of them is closed by the server.
    for s in idle.iter_mut().chain(std::iter::once(&mut slow)) {
        assert!(closed_within(s, head * 4).await, "an idle connection stays open");
    }
    // Past the cap, a new connection is closed at once, and the server answers again once the
    // idle ones are gone.
    let mut full = Vec::new();
    for _ in 0..40 {
        full.push(TcpStream::connect(addr).await.unwrap());
    }
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    let mut over = TcpStream::connect(addr).await.unwrap();
    assert!(closed_within(&mut over, head / 2).await, "the connection past the cap is closed at once");
    for s in &mut full {
        assert!(closed_within(s, head * 4).await);
    }
    let (status, _, _) = raw(addr, &get("/api/scenarios", "localhost")).await;
    assert_eq!(status, 200, "answering again");
}

#[tokio::test]
async fn past_the_requests_in_hand_a_new_one_is_told_at_once_to_come_back() {
    let addr = start("in-hand", Limits { waiting: 1, ..Limits::default() }).await;
    // One request in hand: a new game whose body is slow to come.
    let mut slow = TcpStream::connect(addr).await.unwrap();
    slow.write_all(b"POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 60\r\n\r\n{\"scen")
        .await
        .unwrap();
    // (Until the server has read its head, the next may still be let in.)
    let mut refused = None;
    for _ in 0..50 {
        let (status, headers, body) = raw(addr, &get("/api/rulesets", "localhost")).await;
        if status == 503 {
            refused = Some((headers, body));
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let (headers, body) = refused.expect("a second request is refused while the first is in hand");
    assert_eq!(header(&headers, "retry-after"), Some("1"));
    let v: Value = serde_json::from_str(&body).unwrap();
    assert!(v["error"].as_str().unwrap().contains("the server is busy (1 request in hand)"), "{body}");
    assert_eq!(header(&headers, "x-content-type-options"), Some("nosniff"), "armoured like every answer");
    // Once it is done (its client gone), the next is served.
    drop(slow);
    let mut served = false;
    for _ in 0..100 {
        if raw(addr, &get("/api/rulesets", "localhost")).await.0 == 200 {
            served = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(served, "the count goes down when a request ends");
}
