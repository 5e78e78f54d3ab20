//! The HTTP API against a real server on loopback: refusals, redaction, computer players,
//! durability and restarts.
#![allow(clippy::unwrap_used)] // tests may panic on what they did not expect

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use volley_store::{SqliteStore, Store};

struct Running {
    addr: SocketAddr,
    task: tokio::task::JoinHandle<()>,
}

async fn start(db: &std::path::Path) -> Running {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::open(db).unwrap());
    let (tx, rx) = tokio::sync::oneshot::channel();
    let task = tokio::spawn(async move {
        let _ = volley_server::serve("127.0.0.1:0", store, move |a| {
            let _ = tx.send(a);
        })
        .await;
    });
    Running { addr: rx.await.unwrap(), task }
}

fn temp_db(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("volley-api-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("games.db")
}

/// One request, `Connection: close`: the status and the JSON body.
async fn http(addr: SocketAddr, method: &str, path: &str, body: Option<&str>) -> (u16, Value) {
    http_as(addr, None, method, path, body).await
}

/// One request with a credential in the `Authorization` header.
async fn http_as(addr: SocketAddr, token: Option<&str>, method: &str, path: &str, body: Option<&str>) -> (u16, Value) {
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

/// The game as the holder of `token` sees it.
async fn look(addr: SocketAddr, id: &str, token: Option<&str>) -> Value {
    let (status, g) = http_as(addr, token, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(status, 200, "{g}");
    g
}

/// A new game with the seed 5, created by side 0's player if a person plays it; every other
/// person's seat claimed by its invitation. Its id and each person's seat's token.
async fn new_game(addr: SocketAddr, scenario: &str, players: [&str; 2]) -> (String, Vec<Option<String>>) {
    let body = json!({"scenario": scenario, "players": players, "seed": 5}).to_string();
    let (status, g) = http(addr, "POST", "/api/games", Some(&body)).await;
    assert_eq!(status, 200, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    let mut tokens = vec![None, None];
    for c in g["credentials"].as_array().unwrap() {
        if let Some(side) = c["role"]["side"].as_u64() {
            tokens[side as usize] = c["token"].as_str().map(str::to_string);
        }
    }
    for inv in g["invitations"].as_array().unwrap() {
        if let Some(side) = inv["role"]["side"].as_u64() {
            let (status, c) = claim(addr, &id, inv["code"].as_str().unwrap()).await;
            assert_eq!(status, 200, "{c}");
            tokens[side as usize] = c["token"].as_str().map(str::to_string);
        }
    }
    (id, tokens)
}

async fn claim(addr: SocketAddr, id: &str, code: &str) -> (u16, Value) {
    http(addr, "POST", &format!("/api/games/{id}/claim"), Some(&json!({"invitation": code}).to_string())).await
}

async fn act(addr: SocketAddr, id: &str, token: &str, action: Value) -> (u16, Value) {
    let body = json!({"action": action}).to_string();
    http_as(addr, Some(token), "POST", &format!("/api/games/{id}/actions"), Some(&body)).await
}

#[tokio::test]
async fn wrong_tokens_illegal_and_malformed_requests_are_refused_with_json_and_change_nothing() {
    let db = temp_db("refusals");
    let s = start(&db).await;
    let (id, tokens) = new_game(s.addr, "attack-on-the-ridge", ["human", "human"]).await;
    let (t0, t1) = (tokens[0].clone().unwrap(), tokens[1].clone().unwrap());

    let (status, e) = act(s.addr, &id, "not-a-token", json!("end_orders")).await;
    assert_eq!(status, 403, "{e}");
    assert!(e["error"].as_str().unwrap().contains("credential"), "{e}");
    let (status, e) = act(s.addr, &id, &t1, json!("end_orders")).await;
    assert_eq!(status, 409, "side 1 acts out of turn: {e}");
    let (status, e) = act(s.addr, &id, &t0, json!({"order": {"wing": 2, "order": {"kind": "reserve"}}})).await;
    assert_eq!(status, 422, "another side's wing: {e}");
    assert!(e["error"].as_str().unwrap().contains("not yours"), "{e}");
    let (status, e) = act(s.addr, &id, &t0, json!({"fly": true})).await;
    assert_eq!(status, 400, "{e}");
    let (status, e) = http(s.addr, "POST", &format!("/api/games/{id}/actions"), Some("{oops")).await;
    assert_eq!(status, 400, "{e}");
    assert!(e["error"].is_string());
    let big = format!("{{\"action\": \"{}\"}}", "x".repeat(100_000));
    let (status, e) = http(s.addr, "POST", &format!("/api/games/{id}/actions"), Some(&big)).await;
    assert_eq!(status, 413, "{e}");
    let (status, e) = http(s.addr, "GET", "/api/games/nope", None).await;
    assert_eq!(status, 404, "{e}");
    let (status, e) = http(s.addr, "DELETE", "/api/games", None).await;
    assert_eq!((status, e["error"].is_string()), (405, true), "{e}");
    let (status, e) = http(s.addr, "GET", "/nowhere", None).await;
    assert_eq!((status, e["error"].is_string()), (404, true), "{e}");
    let (status, e) =
        http(s.addr, "POST", "/api/games", Some(r#"{"scenario": "nowhere", "players": ["human", "human"]}"#)).await;
    assert_eq!((status, e["error"].as_str().unwrap().contains("unknown scenario")), (400, true));

    let g = look(s.addr, &id, Some(&t0)).await;
    assert_eq!(g["actions"], 0, "nothing was taken");
    assert_eq!(SqliteStore::open(&db).unwrap().game(&id).unwrap().unwrap().1.len(), 0);
    s.task.abort();
}

#[tokio::test]
async fn a_player_sees_only_what_his_side_may_see() {
    let db = temp_db("redaction");
    let s = start(&db).await;
    let (id, tokens) = new_game(s.addr, "attack-on-the-ridge", ["human", "human"]).await;
    let (t0, t1) = (tokens[0].clone().unwrap(), tokens[1].clone().unwrap());
    let order = json!({"order": {"wing": 0, "order": {"kind": "attack", "at": [36, 36]}}});
    let (status, r) = act(s.addr, &id, &t0, order).await;
    assert_eq!(status, 200, "{r}");
    let text = |g: &Value| g.to_string();
    let mine = look(s.addr, &id, Some(&t0)).await;
    let theirs = look(s.addr, &id, Some(&t1)).await;
    let watcher = look(s.addr, &id, None).await;
    // The place is named by the ground it lies in: the ridge.
    let sent = "attack the enemy at the ridge";
    assert!(text(&mine).contains(sent), "the sender sees his order");
    assert!(!text(&theirs).contains(sent), "the enemy does not: {}", theirs["log"]);
    assert!(!text(&watcher).contains(sent), "nor does a spectator");
    assert_eq!(theirs["candidates"], json!([]), "not its turn: no choices");
    assert!(!mine["candidates"].as_array().unwrap().is_empty());
    // Each choice comes with its words and the places it involves (an order: from the wing's
    // centre to the place).
    let c = mine["candidates"].as_array().unwrap().iter().find(|c| c["action"]["order"].is_object()).unwrap();
    assert!(c["text"].as_str().unwrap().starts_with("order the "), "{c}");
    assert_eq!(c["points"].as_array().unwrap().len(), 2, "{c}");
    s.task.abort();
}

#[tokio::test]
async fn acknowledged_actions_are_stored_and_a_restarted_server_carries_on() {
    let db = temp_db("restart");
    let s = start(&db).await;
    let (id, tokens) = new_game(s.addr, "hochdorf-mill", ["human", "human"]).await;
    let t0 = tokens[0].clone().unwrap();
    // Itchy and Scratchy: side 0 throws for the initiative.
    let (status, r) = act(s.addr, &id, &t0, json!("throw")).await;
    assert_eq!(status, 200, "{r}");
    assert_eq!(SqliteStore::open(&db).unwrap().game(&id).unwrap().unwrap().1.len(), 1, "stored when acknowledged");
    let (_, before) = http(s.addr, "GET", &format!("/api/games/{id}"), None).await;
    s.task.abort();
    let _ = s.task.await;

    let s = start(&db).await;
    let (_, after) = http(s.addr, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(after["view"], before["view"], "the same battle after the restart");
    assert_eq!(after["log"], before["log"]);
    assert_eq!(after["actions"], 1);
    // And it goes on: whoever must act now can.
    let side = after["actor"]["side"].as_u64().unwrap() as usize;
    let token = tokens[side].clone().unwrap();
    let g = look(s.addr, &id, Some(&token)).await;
    let first = g["candidates"][0]["action"].clone();
    let (status, r) = act(s.addr, &id, &token, first).await;
    assert_eq!(status, 200, "{r}");
    let (_, list) = http(s.addr, "GET", "/api/games", None).await;
    assert_eq!(list[0]["actions"], 2, "{list}");
    assert!(list[0]["status"].as_str().unwrap().contains("to act"), "{list}");
    s.task.abort();
}

#[tokio::test]
async fn the_computer_answers_a_move_on_its_own() {
    // The heuristic player, and the search player (200 ms a decision).
    for computer in ["heuristic", "mcts"] {
        let db = temp_db(&format!("computer-{computer}"));
        let s = start(&db).await;
        let (id, tokens) = new_game(s.addr, "mittelhof", ["human", computer]).await;
        assert!(tokens[1].is_none(), "a computer seat's token is never given out");
        let t0 = tokens[0].clone().unwrap();
        let (status, r) = act(s.addr, &id, &t0, json!("end_orders")).await;
        assert_eq!(status, 200, "{r}");
        // The computer sends its orders and ends them: the bound is fought and it is side 0's
        // turn again.
        let mut g = Value::Null;
        for _ in 0..300 {
            g = look(s.addr, &id, Some(&t0)).await;
            if g["actor"] == json!({"side": 0}) && g["view"]["turn"] == 2 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert_eq!(g["view"]["turn"], 2, "{computer}: {}", g["log"]);
        assert!(g["actions"].as_u64().unwrap() >= 2);
        s.task.abort();
    }
}

#[tokio::test]
async fn replays_step_through_a_game() {
    let db = temp_db("replay");
    let s = start(&db).await;
    let (id, tokens) = new_game(s.addr, "hochdorf-mill", ["human", "human"]).await;
    let t0 = tokens[0].clone().unwrap();
    act(s.addr, &id, &t0, json!("throw")).await;
    let (_, r0) = http(s.addr, "GET", &format!("/api/games/{id}/replay?step=0"), None).await;
    let (_, r1) = http(s.addr, "GET", &format!("/api/games/{id}/replay?step=1"), None).await;
    assert_eq!((r0["step"].clone(), r1["step"].clone(), r1["total"].clone()), (json!(0), json!(1), json!(1)));
    assert!(r0["log"].as_array().unwrap().is_empty());
    assert!(r1["log"].to_string().contains("Initiative"), "{}", r1["log"]);
    let (status, _) = http(s.addr, "GET", &format!("/api/games/{id}/replay?step=x"), None).await;
    assert_eq!(status, 400);
    s.task.abort();
}

#[tokio::test]
async fn a_side_is_told_what_happened_since_its_own_last_action_even_after_a_restart() {
    let db = temp_db("since");
    let s = start(&db).await;
    let (id, tokens) = new_game(s.addr, "hochdorf-mill", ["human", "human"]).await;
    let t = [tokens[0].clone().unwrap(), tokens[1].clone().unwrap()];
    assert_eq!(look(s.addr, &id, Some(&t[0])).await["since"], Value::Null, "nothing to tell before it acts");
    // Whoever is to act takes his first choice, until side 1 has acted after side 0's third action.
    let mut side0_acted = 0;
    let mut after = 0;
    let mut lines_at_mark = 0;
    let mut pieces_at_mark = Value::Null;
    for _ in 0..200 {
        let g = look(s.addr, &id, None).await;
        let Some(side) = g["actor"]["side"].as_u64().map(|s| s as usize) else { break };
        let mine = look(s.addr, &id, Some(&t[side])).await;
        // (A move where there is one, so that something is seen to change.)
        let cands = mine["candidates"].as_array().unwrap();
        let pick = cands.iter().find(|c| c["text"].as_str().unwrap_or("").starts_with("move")).unwrap_or(&cands[0]);
        let (status, r) = act(s.addr, &id, &t[side], pick["action"].clone()).await;
        assert_eq!(status, 200, "{r}");
        if side == 0 {
            side0_acted += 1;
            after = 0;
            let me = look(s.addr, &id, Some(&t[0])).await;
            lines_at_mark = me["log"].as_array().unwrap().len();
            pieces_at_mark = me["view"]["pieces"].clone();
        } else if side0_acted > 0 {
            after += 1;
        }
        if side0_acted >= 3 && after >= 1 {
            break;
        }
    }
    assert!(side0_acted >= 3 && after >= 1, "side 1 acted after side 0's third action");
    let me = look(s.addr, &id, Some(&t[0])).await;
    let since = me["since"].clone();
    // The pieces as side 0 saw them just after its last action; the lines after it are new.
    assert_eq!(since["pieces"], pieces_at_mark);
    let log = me["log"].as_array().unwrap();
    let new = log.iter().filter(|l| l["n"].as_u64().unwrap() > since["n"].as_u64().unwrap()).count();
    assert_eq!(new, log.len() - lines_at_mark, "the lines after its last action are those it has not seen");
    assert!(new > 0);
    assert_ne!(since["pieces"], me["view"]["pieces"], "the other side's moves since are told apart");
    // The other side, and a spectator, are told their own (or nothing).
    assert_eq!(look(s.addr, &id, None).await["since"], Value::Null);
    // After a restart, the game rebuilt from the store tells the same.
    s.task.abort();
    let s = start(&db).await;
    assert_eq!(look(s.addr, &id, Some(&t[0])).await["since"], since);
    s.task.abort();
}

#[tokio::test]
async fn a_side_takes_back_its_own_last_actions_where_nothing_was_drawn_or_passed_on() {
    let db = temp_db("undo");
    let s = start(&db).await;
    // Old Fritz: a side's orders are sent one by one (no dice), then ended.
    let (id, tokens) = new_game(s.addr, "mittelhof", ["human", "human"]).await;
    let t0 = tokens[0].clone().unwrap();
    let t1 = tokens[1].clone().unwrap();
    let start_view = look(s.addr, &id, Some(&t0)).await;
    assert_eq!(start_view["undo"], false, "nothing to take back yet");
    let order = |g: &Value| {
        g["candidates"].as_array().unwrap().iter().find(|c| c["text"].as_str().unwrap().starts_with("order")).unwrap()["action"].clone()
    };
    let (status, r) = act(s.addr, &id, &t0, order(&start_view)).await;
    assert_eq!(status, 200, "{r}");
    let after_one = look(s.addr, &id, Some(&t0)).await;
    assert_eq!(after_one["undo"], true);
    let (status, r) = act(s.addr, &id, &t0, order(&after_one)).await;
    assert_eq!(status, 200, "{r}");
    // The other side, a spectator and the umpire-less game: only the side itself takes back.
    let (status, _) = http_as(s.addr, Some(&t1), "POST", &format!("/api/games/{id}/undo"), None).await;
    assert_eq!(status, 409, "not the other side's action");
    let (status, _) = http_as(s.addr, None, "POST", &format!("/api/games/{id}/undo"), None).await;
    assert_eq!(status, 401);
    // Two steps back: the game is as it began, and the actions are gone from its history.
    for left in [1, 0] {
        let (status, r) = http_as(s.addr, Some(&t0), "POST", &format!("/api/games/{id}/undo"), None).await;
        assert_eq!(status, 200, "{r}");
        assert_eq!(r["actions"], left);
    }
    let back = look(s.addr, &id, Some(&t0)).await;
    assert_eq!(back["view"], start_view["view"]);
    assert_eq!(back["log"], start_view["log"]);
    assert_eq!(back["actions"], 0);
    let (status, _) = http_as(s.addr, Some(&t0), "POST", &format!("/api/games/{id}/undo"), None).await;
    assert_eq!(status, 409, "nothing left to take back");
    // Ending the orders passes the decision on: it stands.
    act(s.addr, &id, &t0, order(&back)).await;
    let (status, r) = act(s.addr, &id, &t0, json!("end_orders")).await;
    assert_eq!(status, 200, "{r}");
    let (status, r) = http_as(s.addr, Some(&t0), "POST", &format!("/api/games/{id}/undo"), None).await;
    assert_eq!(status, 409, "{r}");
    // After a restart the store has no trace of what was taken back.
    s.task.abort();
    let s = start(&db).await;
    assert_eq!(look(s.addr, &id, Some(&t0)).await["actions"], 2);
    s.task.abort();

    // Itchy and Scratchy: the initiative is thrown with dice, so it stands.
    let s = start(&temp_db("undo-dice")).await;
    let (id, tokens) = new_game(s.addr, "hochdorf-mill", ["human", "human"]).await;
    let t0 = tokens[0].clone().unwrap();
    act(s.addr, &id, &t0, json!("throw")).await;
    let (status, r) = http_as(s.addr, Some(&t0), "POST", &format!("/api/games/{id}/undo"), None).await;
    assert_eq!(status, 409, "{r}");
    assert!(r["error"].as_str().unwrap().contains("dice"), "{r}");
    s.task.abort();
}

#[tokio::test]
async fn a_players_replay_has_his_own_secret_orders_and_nobody_elses() {
    let db = temp_db("replay-own");
    let s = start(&db).await;
    let (id, tokens) = new_game(s.addr, "mittelhof", ["human", "human"]).await;
    let t0 = tokens[0].clone().unwrap();
    let t1 = tokens[1].clone().unwrap();
    let g = look(s.addr, &id, Some(&t0)).await;
    let order = g["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["text"].as_str().unwrap().starts_with("order"))
        .unwrap()
        .clone();
    let (status, r) = act(s.addr, &id, &t0, order["action"].clone()).await;
    assert_eq!(status, 200, "{r}");
    let (_, mine) = http_as(s.addr, Some(&t0), "GET", &format!("/api/games/{id}/replay"), None).await;
    assert_eq!(mine["total"], 1, "{mine}");
    assert!(mine["log"].to_string().contains("order"), "{}", mine["log"]);
    for other in [Some(t1.as_str()), None] {
        let (_, theirs) = http_as(s.addr, other, "GET", &format!("/api/games/{id}/replay"), None).await;
        assert_eq!(theirs["total"], 0, "{theirs}");
        assert_eq!(theirs["log"], json!([]));
    }
    s.task.abort();
}

#[tokio::test]
async fn a_replay_jumps_to_the_start_of_a_turn() {
    let db = temp_db("replay-turn");
    let s = start(&db).await;
    let (id, _) = new_game(s.addr, "hochdorf-mill", ["heuristic", "heuristic"]).await;
    // The computers play on their own: wait until the battle is in its fourth turn.
    let mut g = Value::Null;
    for _ in 0..400 {
        g = look(s.addr, &id, None).await;
        if g["view"]["turn"].as_u64().unwrap_or(0) >= 4 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(g["view"]["turn"].as_u64().unwrap() >= 4, "{}", g["log"]);
    let (status, r) = http(s.addr, "GET", &format!("/api/games/{id}/replay?turn=3"), None).await;
    assert_eq!(status, 200, "{r}");
    let k = r["step"].as_u64().unwrap();
    assert_eq!(r["view"]["turn"], 3, "{r}");
    // The step before it is still in turn 2: it is the first step of turn 3.
    let (_, before) = http(s.addr, "GET", &format!("/api/games/{id}/replay?step={}", k - 1), None).await;
    assert_eq!(before["view"]["turn"], 2);
    // Turn 1 is the start of the record; a turn not reached is its last step.
    let (_, first) = http(s.addr, "GET", &format!("/api/games/{id}/replay?turn=0"), None).await;
    assert_eq!(first["step"], 0);
    let (_, last) = http(s.addr, "GET", &format!("/api/games/{id}/replay?turn=999"), None).await;
    assert_eq!(last["step"], last["total"]);
    let (status, _) = http(s.addr, "GET", &format!("/api/games/{id}/replay?turn=x"), None).await;
    assert_eq!(status, 400);
    s.task.abort();
}

#[tokio::test]
async fn the_umpires_desk_gives_schemas_exact_odds_and_resolutions() {
    let db = temp_db("desk");
    let s = start(&db).await;
    for rs in ["blown-away", "itchy-scratchy", "old-fritz"] {
        let (status, schema) = http(s.addr, "GET", &format!("/api/desk/{rs}/schema"), None).await;
        assert_eq!(status, 200, "{rs}");
        assert!(schema["properties"].is_object(), "{rs}: {schema}");
    }
    let unit = json!({"arm": "infantry", "quality": "C", "figures": 12});
    let situation = json!({"attacker": unit, "defender": unit});
    let (status, odds) =
        http(s.addr, "POST", "/api/desk/old-fritz/odds", Some(&json!({"situation": situation}).to_string())).await;
    assert_eq!(status, 200, "{odds}");
    let total: f64 = odds["outcomes"].as_array().unwrap().iter().map(|o| o["probability"].as_f64().unwrap()).sum();
    assert!((total - 1.0).abs() < 1e-9, "{total}");
    let body = json!({"situation": situation, "draws": "7 3 1 1 1 1"}).to_string();
    let (status, r) = http(s.addr, "POST", "/api/desk/old-fritz/resolve", Some(&body)).await;
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["resolution"]["defender"]["reaction"], "withdraw", "{r}");
    let body = json!({"situation": situation, "draws": "7"}).to_string();
    let (status, r) = http(s.addr, "POST", "/api/desk/old-fritz/resolve", Some(&body)).await;
    assert_eq!(status, 400, "too few dice: {r}");
    let (status, r) =
        http(s.addr, "POST", "/api/desk/old-fritz/odds", Some(&json!({"situation": {"attacker": 1}}).to_string()))
            .await;
    assert_eq!(status, 400, "{r}");
    assert!(r["error"].as_str().unwrap().contains("situation"), "{r}");
    let (status, _) = http(s.addr, "GET", "/api/desk/chess/schema", None).await;
    assert_eq!(status, 404);
    s.task.abort();
}

#[tokio::test]
async fn seats_go_by_invitation_once_and_only_the_umpire_acts_as_umpire() {
    let db = temp_db("roles");
    let s = start(&db).await;
    // Without asking, a game has no umpire: no seat for anyone to claim and see everything by.
    let body = json!({"scenario": "attack-on-the-ridge", "players": ["human", "human"]}).to_string();
    let (_, plain) = http(s.addr, "POST", "/api/games", Some(&body)).await;
    assert_eq!(plain["invitations"].as_array().unwrap().len(), 1, "the other side's only: {plain}");
    assert_eq!(look(s.addr, plain["id"].as_str().unwrap(), None).await["umpire"], "none");
    // Asked for an umpire without saying who he is, the creator is the umpire, and both sides
    // go by invitation: nobody who plays holds the umpire's invitation.
    let body = json!({"scenario": "attack-on-the-ridge", "players": ["human", "human"], "umpire": true}).to_string();
    let (status, g) = http(s.addr, "POST", "/api/games", Some(&body)).await;
    assert_eq!(status, 200, "{g}");
    assert_eq!(
        g["credentials"].as_array().map(|c| c.iter().map(|c| c["role"].clone()).collect::<Vec<_>>()),
        Some(vec![json!("umpire")]),
        "{g}"
    );
    assert_eq!(g["invitations"].as_array().map(Vec::len), Some(2), "{g}");
    assert_eq!(look(s.addr, g["id"].as_str().unwrap(), None).await["umpire_invited_by"], Value::Null);
    // A side's player who makes a game with an umpire holds the umpire's invitation: every
    // player is told so.
    let body = json!({"scenario": "attack-on-the-ridge", "players": ["human", "human"], "umpire": true, "creator": {"side": 0}}).to_string();
    let (status, g) = http(s.addr, "POST", "/api/games", Some(&body)).await;
    assert_eq!(status, 200, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    assert_eq!(look(s.addr, &id, None).await["umpire_invited_by"], json!(0));
    // The creator holds his own seat and nothing else: the other seat and the umpire go by
    // invitation, and no seat's token appears anywhere in the answer but his own.
    let creds = g["credentials"].as_array().unwrap();
    assert_eq!(creds.len(), 1, "{g}");
    assert_eq!(creds[0]["role"], json!({"side": 0}));
    let t0 = creds[0]["token"].as_str().unwrap().to_string();
    let invitations = g["invitations"].as_array().unwrap();
    let code = |role: Value| {
        invitations.iter().find(|i| i["role"] == role).map(|i| i["code"].as_str().unwrap().to_string()).unwrap()
    };
    let (side1, umpire) = (code(json!({"side": 1})), code(json!("umpire")));
    assert!(g["seats"].to_string().find("token").is_none(), "{g}");

    // Claimed once.
    let (status, c) = claim(s.addr, &id, &side1).await;
    assert_eq!((status, c["role"].clone()), (200, json!({"side": 1})), "{c}");
    let t1 = c["token"].as_str().unwrap().to_string();
    let (status, e) = claim(s.addr, &id, &side1).await;
    assert_eq!(status, 409, "a spent invitation: {e}");
    let (status, e) = claim(s.addr, &id, "made-up").await;
    assert_eq!(status, 403, "{e}");
    // Every player is told whether an umpire is seated (he sees everything).
    assert_eq!(look(s.addr, &id, Some(&t1)).await["umpire"], "invited");
    let (status, c) = claim(s.addr, &id, &umpire).await;
    assert_eq!((status, c["role"].clone()), (200, json!("umpire")), "{c}");
    assert_eq!(look(s.addr, &id, Some(&t1)).await["umpire"], "seated");
    let tu = c["token"].as_str().unwrap().to_string();

    // Another game's credentials and invitations open nothing here.
    let (other, other_tokens) = new_game(s.addr, "attack-on-the-ridge", ["human", "human"]).await;
    let (status, e) = act(s.addr, &id, other_tokens[0].as_deref().unwrap(), json!("end_orders")).await;
    assert_eq!(status, 403, "a seat token of another game: {e}");
    let (status, _) = claim(s.addr, &other, &umpire).await;
    assert_eq!(status, 403, "an invitation of another game");

    // A seat cannot act as the umpire, whichever side and whenever: the rules refuse it.
    let adjust = json!({"adjust": {"unit": 15, "figures": 1, "greens": 6, "reason": "because I say so"}});
    let advantage = json!({"advantage": {"unit": 0, "value": 3, "reason": "mine"}});
    for (token, what) in [(&t0, &adjust), (&t0, &advantage), (&t1, &adjust)] {
        let (status, e) = act(s.addr, &id, token, what.clone()).await;
        assert!(status == 422 || status == 409, "{status} {e}");
    }
    let (status, e) = act(s.addr, &id, &t0, adjust.clone()).await;
    assert_eq!(status, 422);
    assert!(e["error"].as_str().unwrap().contains("only the umpire"), "{e}");
    // Nor can a spectator act, nor the umpire play a side's turn.
    let (status, e) =
        http(s.addr, "POST", &format!("/api/games/{id}/actions"), Some(&json!({"action": "end_orders"}).to_string()))
            .await;
    assert_eq!(status, 400, "no credential: {e}");
    let (status, e) = act(s.addr, &id, &tu, json!("end_orders")).await;
    assert_eq!(status, 422, "{e}");
    assert!(e["error"].as_str().unwrap().contains("side's turn"), "{e}");
    assert_eq!(look(s.addr, &id, None).await["actions"], 0, "nothing was taken");

    // The umpire adjusts openly: every log says so, with the reason.
    let fix = json!({"adjust": {"unit": 15, "greens": 1, "reason": "the regiment was fresh from garrison"}});
    let (status, r) = act(s.addr, &id, &tu, fix).await;
    assert_eq!(status, 200, "{r}");
    for token in [Some(t0.as_str()), Some(t1.as_str()), Some(tu.as_str()), None] {
        let g = look(s.addr, &id, token).await;
        assert!(g["log"].to_string().contains("the umpire adjusts"), "{token:?}: {}", g["log"]);
        assert!(g["log"].to_string().contains("because the regiment was fresh from garrison"));
    }
    // The umpire sees everything and may look as either side; nobody else may.
    let u = look(s.addr, &id, Some(&tu)).await;
    assert_eq!((u["role"].clone(), u["candidates"].clone()), (json!("umpire"), json!([])));
    let (status, as1) = http_as(s.addr, Some(&tu), "GET", &format!("/api/games/{id}?view_as=1"), None).await;
    assert_eq!((status, as1["viewing_as"].clone()), (200, json!({"side": 1})), "{as1}");
    assert_eq!(as1["view"], look(s.addr, &id, Some(&t1)).await["view"]);
    let (status, _) = http_as(s.addr, Some(&t0), "GET", &format!("/api/games/{id}?view_as=1"), None).await;
    assert_eq!(status, 403, "a side may not look as the other");
    // Credentials never travel in the address.
    let (status, e) = http(s.addr, "GET", &format!("/api/games/{id}?token={t0}"), None).await;
    assert_eq!(status, 400, "{e}");
    s.task.abort();
}

#[tokio::test]
async fn a_hot_seat_game_gives_its_creator_both_seats_and_says_so() {
    let db = temp_db("hot-seat");
    let s = start(&db).await;
    let body = json!({"scenario": "hochdorf-mill", "players": ["human", "human"], "creator": "hot_seat"}).to_string();
    let (status, g) = http(s.addr, "POST", "/api/games", Some(&body)).await;
    assert_eq!(status, 200, "{g}");
    let roles: Vec<Value> = g["credentials"].as_array().unwrap().iter().map(|c| c["role"].clone()).collect();
    assert_eq!(roles, [json!({"side": 0}), json!({"side": 1})]);
    assert_eq!(g["invitations"].as_array().unwrap().len(), 0, "no umpire unless asked for: {g}");
    assert_eq!(look(s.addr, g["id"].as_str().unwrap(), None).await["hot_seat"], true);
    // A hot seat needs two people; a creator's side must be a person's.
    let body = json!({"scenario": "hochdorf-mill", "players": ["human", "random"], "creator": "hot_seat"}).to_string();
    assert_eq!(http(s.addr, "POST", "/api/games", Some(&body)).await.0, 400);
    let body = json!({"scenario": "hochdorf-mill", "players": ["human", "random"], "creator": {"side": 1}}).to_string();
    assert_eq!(http(s.addr, "POST", "/api/games", Some(&body)).await.0, 400);
    s.task.abort();
}

#[tokio::test]
async fn the_seed_is_secret_with_its_commitment_published_unless_chosen() {
    let db = temp_db("seed");
    let s = start(&db).await;
    let body = json!({"scenario": "hochdorf-mill", "players": ["human", "human"], "private": true}).to_string();
    let (_, g) = http(s.addr, "POST", "/api/games", Some(&body)).await;
    let id = g["id"].as_str().unwrap();
    let t0 = g["credentials"][0]["token"].as_str().unwrap();
    let seed = look(s.addr, id, Some(t0)).await["seed"].clone();
    assert_eq!((seed["chosen"].clone(), seed["value"].clone()), (json!(false), Value::Null), "{seed}");
    assert_eq!(seed["commitment"].as_str().unwrap().len(), 64);
    assert_eq!(seed["salt"], Value::Null, "the salt is shown with the seed, at the end");
    // Stored, it is the seed the commitment names.
    let record = SqliteStore::open(&db).unwrap().game(id).unwrap().unwrap().0;
    assert_eq!(seed["commitment"], json!(volley_server::seed_commitment(record.seed, record.salt.as_deref())));
    // A private game is left out of the list.
    let (_, list) = http(s.addr, "GET", "/api/games", None).await;
    assert!(!list.to_string().contains(id), "{list}");
    // A chosen seed is shown as such.
    let (id, _) = new_game(s.addr, "hochdorf-mill", ["human", "human"]).await;
    let seed = look(s.addr, &id, None).await["seed"].clone();
    assert_eq!((seed["chosen"].clone(), seed["value"].clone()), (json!(true), json!("5")), "{seed}");
    s.task.abort();
}

#[tokio::test]
async fn a_client_may_create_twenty_games_a_minute() {
    let db = temp_db("limits");
    let s = start(&db).await;
    let body = json!({"scenario": "hochdorf-mill", "players": ["human", "random"]}).to_string();
    for i in 0..20 {
        let (status, g) = http(s.addr, "POST", "/api/games", Some(&body)).await;
        assert_eq!(status, 200, "game {i}: {g}");
    }
    let (status, e) = http(s.addr, "POST", "/api/games", Some(&body)).await;
    assert_eq!(status, 429, "{e}");
    assert!(e["error"].as_str().unwrap().contains("20 a minute"), "{e}");
    s.task.abort();
}

/// Take the first of the candidates the side to act is offered that `want` accepts, acting
/// through the other choices (the first offered) until one is; the side and the action.
async fn act_until(
    addr: SocketAddr,
    id: &str,
    tokens: &[Option<String>],
    want: impl Fn(&Value) -> bool,
) -> (usize, Value) {
    for _ in 0..40 {
        for (side, t) in tokens.iter().enumerate() {
            let g = look(addr, id, t.as_deref()).await;
            let cands = g["candidates"].as_array().unwrap();
            if cands.is_empty() {
                continue;
            }
            if let Some(c) = cands.iter().find(|c| want(&c["action"])) {
                return (side, c["action"].clone());
            }
            let (status, r) = act(addr, id, t.as_deref().unwrap(), cands[0]["action"].clone()).await;
            assert_eq!(status, 200, "{r}");
            break;
        }
    }
    panic!("no such choice came");
}

#[tokio::test]
async fn a_dragged_move_is_checked_and_halted_where_the_rules_allow_without_being_taken() {
    let db = temp_db("check");
    let s = start(&db).await;
    let (id, tokens) = new_game(s.addr, "the-village", ["human", "human"]).await;
    let (side, mv) = act_until(s.addr, &id, &tokens, |a| a["kind"] == "move").await;
    let token = tokens[side].clone().unwrap();
    let other = tokens[1 - side].clone().unwrap();
    let check = |token: Option<String>, action: Value, from: Option<[f64; 2]>| {
        let body = json!({"action": action, "from": from}).to_string();
        let id = id.clone();
        async move { http_as(s.addr, token.as_deref(), "POST", &format!("/api/games/{id}/check"), Some(&body)).await }
    };
    let before = look(s.addr, &id, Some(&token)).await["actions"].clone();
    // An offered move is legal.
    let (status, r) = check(Some(token.clone()), mv.clone(), None).await;
    assert_eq!((status, r["legal"].as_bool()), (200, Some(true)), "{r}");
    assert!(r["text"].as_str().is_some_and(|t| t.contains(':') && !t.contains('[')), "the move in words: {r}");
    // Dragged 40" on: refused with the rule's reason, and halted short of it on the line.
    let to = [mv["to"][0].as_f64().unwrap(), mv["to"][1].as_f64().unwrap()];
    let unit = mv["unit"].as_u64().unwrap() as usize;
    let g = look(s.addr, &id, Some(&token)).await;
    let name = g["candidates"].as_array().unwrap().iter().find(|c| c["action"] == mv).unwrap()["text"]
        .as_str()
        .unwrap()
        .split(':')
        .next()
        .unwrap()
        .to_string();
    let piece = g["view"]["pieces"].as_array().unwrap().iter().find(|p| p["unit"] == name.as_str()).unwrap();
    let pts = piece["footprint"]["points"].as_array().unwrap();
    let from = [
        pts.iter().map(|p| p[0].as_f64().unwrap()).sum::<f64>() / pts.len() as f64,
        pts.iter().map(|p| p[1].as_f64().unwrap()).sum::<f64>() / pts.len() as f64,
    ];
    let (dx, dy) = (to[0] - from[0], to[1] - from[1]);
    let len = (dx * dx + dy * dy).sqrt().max(1e-9);
    let far = [from[0] + dx / len * 40.0, from[1] + dy / len * 40.0];
    let mut dragged = mv.clone();
    dragged["to"] = json!(far);
    let (status, r) = check(Some(token.clone()), dragged.clone(), Some(from)).await;
    assert_eq!((status, r["legal"].as_bool()), (200, Some(false)), "{r}");
    assert!(r["why"].as_str().unwrap().len() > 5, "{r}");
    assert!(!r["why"].as_str().unwrap().starts_with("illegal:"), "{r}");
    let halt = [r["halt"][0].as_f64().unwrap(), r["halt"][1].as_f64().unwrap()];
    let gone = ((halt[0] - from[0]).powi(2) + (halt[1] - from[1]).powi(2)).sqrt();
    assert!(gone > 1.0 && gone < 40.0, "halted {gone}\" along: {r}");
    assert_eq!(r["halt_action"]["unit"].as_u64(), Some(unit as u64));
    assert!(r["halt_text"].as_str().is_some_and(|t| !t.is_empty()), "{r}");
    let (status, r2) = check(Some(token.clone()), r["halt_action"].clone(), None).await;
    assert_eq!((status, r2["legal"].as_bool()), (200, Some(true)), "the halt is legal: {r2}");
    // Nothing was taken; the other side, a spectator and a bad action are refused.
    assert_eq!(look(s.addr, &id, Some(&token)).await["actions"], before);
    let (status, _) = check(Some(other), mv.clone(), None).await;
    assert_eq!(status, 409);
    let (status, _) = check(None, mv.clone(), None).await;
    assert_eq!(status, 400);
    let (status, r) = check(Some(token.clone()), json!({"kind": "move", "unit": "x"}), None).await;
    assert_eq!(status, 400, "{r}");
    s.task.abort();
}

#[tokio::test]
async fn the_desk_lists_every_draw_it_made_in_order_and_says_what_was_not_needed() {
    let db = temp_db("desk-draws");
    let s = start(&db).await;
    let unit = json!({"arm": "infantry", "quality": "C", "figures": 12});
    let situation = json!({"attacker": unit, "defender": unit});
    let body = json!({"situation": situation, "seed": 11}).to_string();
    let (status, r) = http(s.addr, "POST", "/api/desk/old-fritz/resolve", Some(&body)).await;
    assert_eq!(status, 200, "{r}");
    let draws = r["draws"].as_array().unwrap();
    assert!(draws.len() >= 2, "{r}");
    assert!(draws.iter().all(|d| d["kind"] == "die" && d["sides"] == 10 && !d["purpose"].as_str().unwrap().is_empty()));
    // The same dice typed in, in that order, give the same result.
    let typed: Vec<String> = draws.iter().map(|d| d["value"].to_string()).collect();
    let body = json!({"situation": situation, "draws": typed.join(" ")}).to_string();
    let (status, r2) = http(s.addr, "POST", "/api/desk/old-fritz/resolve", Some(&body)).await;
    assert_eq!(status, 200, "{r2}");
    assert_eq!(r2["text"], r["text"]);
    assert_eq!(r2["draws"], r["draws"]);
    // One too many: the error counts what was needed and names each.
    let body = json!({"situation": situation, "draws": format!("{} 4", typed.join(" "))}).to_string();
    let (status, e) = http(s.addr, "POST", "/api/desk/old-fritz/resolve", Some(&body)).await;
    assert_eq!(status, 400);
    let msg = e["error"].as_str().unwrap();
    assert!(msg.contains(&format!("this combat needed {}", draws.len())), "{msg}");
    assert!(msg.contains(draws[0]["purpose"].as_str().unwrap()), "{msg}");
    s.task.abort();
}

#[tokio::test]
async fn every_bundled_battle_has_a_picture_its_armies_named_a_measure_and_every_piece_its_arm() {
    let db = temp_db("previews");
    let s = start(&db).await;
    let (status, list) = http(s.addr, "GET", "/api/scenarios", None).await;
    assert_eq!(status, 200);
    let list = list.as_array().unwrap();
    assert!(list.len() >= 13);
    for sc in list {
        let name = sc["name"].as_str().unwrap();
        let sides = sc["sides"].as_array().unwrap();
        assert_eq!(sides.len(), 2, "{name}: {sc}");
        let (status, v) = http(s.addr, "GET", &format!("/api/scenarios/{name}/view"), None).await;
        assert_eq!(status, 200, "{name}: {v}");
        assert_eq!(v["sides"].as_array().unwrap(), sides, "{name}");
        assert!(matches!(v["unit"].as_str(), Some("inch" | "cm" | "area")), "{name}: {}", v["unit"]);
        // Where the battle stands: a line for each side at least.
        let standing = v["standing"].as_array().cloned().unwrap_or_default();
        for side in 0..2 {
            assert!(
                standing.iter().any(|l| l["side"] == side && !l["text"].as_str().unwrap().is_empty()),
                "{name}: {standing:?}"
            );
        }
        // Every battle's picture shows its armies (a secret deployment's as the file sets them).
        assert!(!v["pieces"].as_array().unwrap().is_empty(), "{name}: an empty table");
        for p in v["pieces"].as_array().unwrap() {
            let arm = p["arm"].as_str().unwrap_or("");
            assert!(["infantry", "cavalry", "artillery", "general", "transport"].contains(&arm), "{name}: {p}");
        }
    }
    let (status, e) = http(s.addr, "GET", "/api/scenarios/no-such-battle/view", None).await;
    assert_eq!(status, 404);
    assert!(e["error"].as_str().unwrap().contains("no-such-battle"), "{e}");
    // The page's modules and its icon are served; an unknown module is not.
    for path in ["/js/map.js", "/js/game.js", "/favicon.ico"] {
        let mut sock = TcpStream::connect(s.addr).await.unwrap();
        sock.write_all(format!("GET {path} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n").as_bytes())
            .await
            .unwrap();
        let mut out = Vec::new();
        sock.read_to_end(&mut out).await.unwrap();
        assert!(String::from_utf8_lossy(&out).starts_with("HTTP/1.1 200"), "{path}");
    }
    let (status, _) = http(s.addr, "GET", "/js/nothing.js", None).await;
    assert_eq!(status, 404);
    s.task.abort();
}

#[tokio::test]
async fn every_desk_offers_examples_that_resolve() {
    let db = temp_db("desk-examples");
    let s = start(&db).await;
    let (_, list) = http(s.addr, "GET", "/api/desk", None).await;
    for rs in list.as_array().unwrap() {
        let rs = rs.as_str().unwrap();
        let (status, schema) = http(s.addr, "GET", &format!("/api/desk/{rs}/schema"), None).await;
        assert_eq!(status, 200);
        let examples = schema["examples"].as_array().unwrap();
        assert!(!examples.is_empty(), "{rs}");
        for e in examples {
            let body = json!({"situation": e, "seed": 3}).to_string();
            let (status, r) = http(s.addr, "POST", &format!("/api/desk/{rs}/resolve"), Some(&body)).await;
            assert_eq!(status, 200, "{rs}: {e}: {r}");
            let (status, r) =
                http(s.addr, "POST", &format!("/api/desk/{rs}/odds"), Some(&json!({"situation": e}).to_string())).await;
            assert_eq!(status, 200, "{rs}: {e}: {r}");
        }
    }
    s.task.abort();
}

#[tokio::test]
async fn a_players_refusal_is_in_words_and_the_umpire_reads_the_reason() {
    // En Avant with its rules hidden (issue 28): a player told why his order cannot be carried
    // out reads no rule and no number; the umpire (Game Control) reads the rule.
    let db = temp_db("refusals");
    let s = start(&db).await;
    let body = json!({"scenario": "the-farm", "players": ["human", "human"], "umpire": true, "creator": {"side": 0}, "seed": 5}).to_string();
    let (status, g) = http(s.addr, "POST", "/api/games", Some(&body)).await;
    assert_eq!(status, 200, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    let mut tokens = [g["credentials"][0]["token"].as_str().unwrap().to_string(), String::new(), String::new()];
    for inv in g["invitations"].as_array().unwrap() {
        let (status, c) = claim(s.addr, &id, inv["code"].as_str().unwrap()).await;
        assert_eq!(status, 200, "{c}");
        let slot = c["role"]["side"].as_u64().map_or(2, |s| s as usize);
        tokens[slot] = c["token"].as_str().unwrap().to_string();
    }
    let side = look(s.addr, &id, Some(&tokens[2])).await["actor"]["side"].as_u64().unwrap() as usize;
    // The side's commander rides at most 60 cm a turn: the 14th Light Dragoons (unit 3) stand
    // 70 cm from Colonel Barnard, the 3e Hussards (unit 8) 70 cm from General Ferey.
    let far = if side == 0 { 3 } else { 8 };
    let (status, e) = act(s.addr, &id, &tokens[side], json!({"kind": "ride", "unit": far})).await;
    assert_eq!(status, 422, "{e}");
    let said = e["error"].as_str().unwrap_or_default().to_string();
    assert!(!said.is_empty() && !said.contains("60") && !said.contains("cm"), "the player reads words: {said}");
    let umpire = look(s.addr, &id, Some(&tokens[2])).await;
    let refused = &umpire["refusals"][0];
    assert_eq!(refused["side"], json!(side), "{umpire}");
    assert!(refused["reason"].as_str().unwrap().contains("60"), "the umpire reads the rule: {refused}");
    for t in [&tokens[0], &tokens[1]] {
        assert!(look(s.addr, &id, Some(t)).await["refusals"].is_null(), "a player is not shown the refusals");
    }
}
