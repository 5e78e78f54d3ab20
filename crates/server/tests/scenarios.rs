//! Scenarios beside the bundled ones: a folder's (`volley serve --scenarios DIR`), and a
//! person's own file sent as text (checked, then played) — against a real server on loopback,
//! restarts included.
#![allow(clippy::unwrap_used)] // tests may panic on what they did not expect

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use volley_scenario::Source;
use volley_server::catalog::{self, Library};
use volley_store::{SqliteStore, Store};

struct Running {
    addr: SocketAddr,
    task: tokio::task::JoinHandle<()>,
}

/// A server over the database `db`, offering the bundled scenarios and `files`.
async fn start(db: &std::path::Path, files: Vec<Source>) -> Running {
    start_with(db, files, volley_server::limits::Limits::none()).await
}

/// [`start`], keeping to `limits`.
async fn start_with(db: &std::path::Path, files: Vec<Source>, limits: volley_server::limits::Limits) -> Running {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::open(db).unwrap());
    let (library, problems) = Library::with_files(files);
    assert!(problems.is_empty(), "{problems:?}");
    let (tx, rx) = tokio::sync::oneshot::channel();
    let task = tokio::spawn(async move {
        let _ = volley_server::serve_offering("127.0.0.1:0", store, limits, library, move |a| {
            let _ = tx.send(a);
        })
        .await;
    });
    Running { addr: rx.await.unwrap(), task }
}

fn temp_db(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("volley-scenarios-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("games.db")
}

/// One request, `Connection: close`: the status and the JSON body.
async fn http(addr: SocketAddr, token: Option<&str>, method: &str, path: &str, body: Option<&str>) -> (u16, Value) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let body = body.unwrap_or("");
    let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: test\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.unwrap();
    let text = String::from_utf8_lossy(&out);
    let status: u16 = text.split(' ').nth(1).unwrap().parse().unwrap();
    let json = text.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or("");
    (status, serde_json::from_str(json).unwrap_or(Value::Null))
}

/// Hochdorf mill, bundled, with another title.
fn renamed_mill(title: &str) -> String {
    let text = catalog::find("hochdorf-mill").unwrap().text;
    let first = text.lines().next().unwrap();
    assert!(first.starts_with("name = "), "{first}");
    text.replacen(first, &format!("name = {title:?}"), 1)
}

/// A new game of `body` (its scenario and players), side 0 a person: its id and his token.
async fn new_game(addr: SocketAddr, body: Value) -> (String, String) {
    let (status, g) = http(addr, None, "POST", "/api/games", Some(&body.to_string())).await;
    assert_eq!(status, 200, "{g}");
    (g["id"].as_str().unwrap().to_string(), g["credentials"][0]["token"].as_str().unwrap().to_string())
}

#[test]
fn a_folder_s_bad_files_are_told_where_and_left_out() {
    let files = vec![
        Source::new("dir/my-mill.toml", renamed_mill("My mill")),
        Source::new("dir/broken.toml", "name = \"Broken\"\nruleset = \"itchy-scratchy\"\nturn_limt = 3\n"),
        Source::new("dir/mittelhof.toml", catalog::find("mittelhof").unwrap().text),
    ];
    let (library, problems) = Library::with_files(files);
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(problems[0].starts_with("dir/broken.toml:3:1: unknown field `turn_limt`"), "{problems:?}");
    assert!(
        problems[1].starts_with("dir/mittelhof.toml:1:1: a bundled scenario is named \"mittelhof\""),
        "{problems:?}"
    );
    let list = library.list();
    assert_eq!(list.len(), catalog::list().len() + 1);
    let mine = list.last().unwrap();
    assert_eq!(
        (mine.name.as_str(), mine.title.as_str(), mine.file.as_deref()),
        ("my-mill", "My mill", Some("my-mill.toml"))
    );
    assert_eq!(library.find("my-mill").unwrap().text, renamed_mill("My mill"));
    assert!(library.find("broken").is_none());
    assert_eq!(library.preview("my-mill").unwrap().title, "My mill");
    assert_eq!(library.find("mittelhof").unwrap().path, "scenarios/old-fritz/mittelhof.toml", "the bundled one");
}

#[tokio::test]
async fn a_folder_s_battle_is_listed_played_and_survives_a_restart_without_its_file() {
    let db = temp_db("folder");
    let s = start(&db, vec![Source::new("dir/my-mill.toml", renamed_mill("My mill"))]).await;
    let (_, list) = http(s.addr, None, "GET", "/api/scenarios", None).await;
    let mine = list.as_array().unwrap().iter().find(|c| c["name"] == "my-mill").unwrap();
    assert_eq!(mine["title"], "My mill");
    assert_eq!(mine["file"], "my-mill.toml");
    assert_eq!(mine["sides"], json!(["French", "Prussians"]));
    assert!(list.as_array().unwrap().iter().any(|c| c["name"] == "mittelhof" && c.get("file").is_none()));
    let (status, view) = http(s.addr, None, "GET", "/api/scenarios/my-mill/view", None).await;
    assert_eq!((status, view["title"].as_str()), (200, Some("My mill")));

    let (id, token) =
        new_game(s.addr, json!({"scenario": "my-mill", "players": ["human", "heuristic"], "seed": 3})).await;
    let (status, r) = http(
        s.addr,
        Some(&token),
        "POST",
        &format!("/api/games/{id}/actions"),
        Some(&json!({"action": "throw"}).to_string()),
    )
    .await;
    assert_eq!(status, 200, "{r}");
    let (_, before) = http(s.addr, None, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(before["scenario"], "my-mill");
    assert_eq!(before["view"]["title"], "My mill");
    s.task.abort();
    let _ = s.task.await;

    // The file gone: the game is rebuilt from the text kept with it.
    let s = start(&db, Vec::new()).await;
    let (status, after) = http(s.addr, None, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(status, 200, "{after}");
    assert_eq!(after["view"]["title"], "My mill");
    assert_eq!(after["log"], before["log"]);
    assert!(after["actions"].as_u64().unwrap() >= 1, "{after}");
    let (status, e) = http(
        s.addr,
        None,
        "POST",
        "/api/games",
        Some(&json!({"scenario": "my-mill", "players": ["human", "heuristic"]}).to_string()),
    )
    .await;
    assert_eq!(status, 400, "no longer offered: {e}");
    s.task.abort();
    let _ = s.task.await;

    // The file changed: the old game keeps its own text; a new one takes the new.
    let s = start(&db, vec![Source::new("dir/my-mill.toml", renamed_mill("My mill, again"))]).await;
    let (_, after) = http(s.addr, None, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(after["view"]["title"], "My mill");
    let (id2, _) = new_game(s.addr, json!({"scenario": "my-mill", "players": ["human", "heuristic"]})).await;
    let (_, new) = http(s.addr, None, "GET", &format!("/api/games/{id2}"), None).await;
    assert_eq!(new["view"]["title"], "My mill, again");
    s.task.abort();
}

#[tokio::test]
async fn a_scenario_s_text_is_checked_with_lines_and_columns_and_played() {
    let db = temp_db("text");
    let s = start(&db, Vec::new()).await;
    // A bad one: every problem with its line and column, the file named as sent.
    let bad = "name = \"Broken\"\nruleset = \"itchy-scratchy\"\nturn_limt = 3\n";
    let body = json!({"text": bad, "name": "broken.toml"}).to_string();
    let (status, r) = http(s.addr, None, "POST", "/api/scenarios/check", Some(&body)).await;
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["ok"], false);
    let d = &r["diagnostics"][0];
    assert_eq!(
        (d["file"].as_str(), d["line"].as_u64(), d["col"].as_u64()),
        (Some("broken.toml"), Some(3), Some(1)),
        "{r}"
    );
    assert!(d["message"].as_str().unwrap().starts_with("unknown field `turn_limt`"), "{r}");
    let (status, r) = http(s.addr, None, "POST", "/api/scenarios/check", Some("{\"name\": \"x.toml\"}")).await;
    assert_eq!(status, 400, "{r}");
    assert!(r["error"].as_str().unwrap().contains("\"text\""), "{r}");
    // A good one: its card and its table.
    let good = renamed_mill("Upstream of the mill");
    let body = json!({"text": good, "name": "upstream.toml"}).to_string();
    let (status, r) = http(s.addr, None, "POST", "/api/scenarios/check", Some(&body)).await;
    assert_eq!((status, &r["ok"]), (200, &json!(true)), "{r}");
    assert_eq!(r["scenario"]["title"], "Upstream of the mill");
    assert_eq!(r["scenario"]["ruleset"], "itchy-scratchy");
    assert_eq!(r["scenario"]["file"], "upstream.toml");
    assert_eq!(r["view"]["title"], "Upstream of the mill");
    // Played like a bundled one, kept with its text: after a restart it is the same game.
    let (id, token) = new_game(
        s.addr,
        json!({"scenario": "upstream.toml", "scenario_text": good, "players": ["human", "heuristic"]}),
    )
    .await;
    let (status, g) = http(s.addr, Some(&token), "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(status, 200, "{g}");
    assert_eq!(g["view"]["title"], "Upstream of the mill");
    assert_eq!(g["scenario"], "upstream.toml");
    assert_eq!(g["candidates"][0]["action"], "throw");
    let (_, games) = http(s.addr, None, "GET", "/api/games", None).await;
    assert!(games.as_array().unwrap().iter().any(|x| x["scenario_name"] == "upstream.toml"), "{games}");
    // A bad text is refused at its line and column; so is a name the server's scenarios have.
    let body = json!({"scenario": "broken.toml", "scenario_text": bad, "players": ["human", "heuristic"]}).to_string();
    let (status, e) = http(s.addr, None, "POST", "/api/games", Some(&body)).await;
    assert_eq!(status, 400);
    assert!(e["error"].as_str().unwrap().contains("broken.toml:3:1: unknown field `turn_limt`"), "{e}");
    let body = json!({"scenario": "crossroads", "scenario_text": good, "players": ["human", "heuristic"]}).to_string();
    let (status, e) = http(s.addr, None, "POST", "/api/games", Some(&body)).await;
    assert_eq!(status, 400);
    assert!(e["error"].as_str().unwrap().contains("names a scenario this server offers"), "{e}");
    // Without a name, the scenario's own.
    let (id2, _) = new_game(s.addr, json!({"scenario_text": good, "players": ["human", "heuristic"]})).await;
    let (_, g2) = http(s.addr, None, "GET", &format!("/api/games/{id2}"), None).await;
    assert_eq!(g2["scenario"], "Upstream of the mill");
    // Too big for a request: refused, saying the limit.
    let huge = format!("{good}\n# {}\n", "x".repeat(70 * 1024));
    let body = json!({"text": huge, "name": "huge.toml"}).to_string();
    let (status, e) = http(s.addr, None, "POST", "/api/scenarios/check", Some(&body)).await;
    assert_eq!(status, 413, "{e}");
    assert!(e["error"].as_str().unwrap().contains("65536 bytes"), "{e}");
    s.task.abort();
    let _ = s.task.await;

    let s = start(&db, Vec::new()).await;
    let (status, after) = http(s.addr, Some(&token), "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(status, 200, "{after}");
    assert_eq!(after["view"]["title"], "Upstream of the mill");
    s.task.abort();
}

#[tokio::test]
async fn a_client_has_so_many_scenarios_checked_a_minute() {
    let db = temp_db("check-limit");
    let limits = volley_server::limits::Limits { checks_per_minute: 2.0, ..volley_server::limits::Limits::default() };
    let s = start_with(&db, Vec::new(), limits).await;
    let body = json!({"text": "name = \"x\"", "name": "x.toml"}).to_string();
    for _ in 0..2 {
        let (status, r) = http(s.addr, None, "POST", "/api/scenarios/check", Some(&body)).await;
        assert_eq!((status, &r["ok"]), (200, &json!(false)), "{r}");
    }
    let (status, r) = http(s.addr, None, "POST", "/api/scenarios/check", Some(&body)).await;
    assert_eq!(status, 429, "{r}");
    assert!(
        r["error"].as_str().unwrap().starts_with("too many scenarios checked from this address: 2 a minute"),
        "{r}"
    );
    // New games are counted apart.
    let (id, _) = new_game(s.addr, json!({"scenario": "hochdorf-mill", "players": ["human", "heuristic"]})).await;
    assert_eq!(id.len(), 16);
    s.task.abort();
}
