//! The HTTP API and the page.
//!
//! | method and path | what |
//! |---|---|
//! | `GET /` | the page (`web/`, embedded; its modules at `/js/{file}`) |
//! | `GET /api/scenarios` | the scenarios offered: the bundled ones and the server's folder's (name, rule set, title, description, the sides' names, the file) |
//! | `GET /api/scenarios/{name}/view` | an offered scenario's table before the battle, as a spectator sees it |
//! | `POST /api/scenarios/check` | `{"text", "name"?}`: a scenario's TOML checked → its card and table, or its problems with line and column |
//! | `GET /api/games` | the stored games, but the private ones, newest first, a page at a time (`?page=`, `?per_page=`, `?open=true`; the total in `X-Total-Count`) |
//! | `POST /api/games` | a new game: `{"scenario", "scenario_text"?, "players": [..2], "seed"?, "creator"?, "private"?, "hold_results"?}` → its id, the creator's credentials and an invitation for every other role |
//! | `POST /api/games/{id}/release` | the umpire releases the turn's results he holds |
//! | `POST /api/games/{id}/claim` | `{"invitation"}` → that role's credential, once |
//! | `GET /api/games/{id}?view_as=S` | the game as the credential's holder sees it (a spectator without one; the umpire may look as side S), with its choices when it must act |
//! | `POST /api/games/{id}/actions` | `{"action"}`: act as the credential's holder; answered once the action is stored |
//! | `POST /api/games/{id}/check` | `{"action", "from"?}`: whether the side to act may take it, taking nothing; if not, why, and the farthest legal place short of it on the line from `from` |
//! | `GET /api/games/{id}/replay?step=K` | the game after K actions (those a spectator may know of, while it lasts) |
//! | `GET /api/games/{id}/log` | the game's log once it is over, signed with the server's key (`volley replay` checks it) |
//! | `GET /api/key` | the server's public key, which signs the logs it exports |
//! | `GET /api/games/{id}/ws` | a WebSocket: send `{"token"?}` first; it says `{"actions": n, "held": b}` whenever the count of actions you may know of changes, or results are held or released |
//! | `GET /api/desk/{ruleset}/schema` | the JSON Schema of a rule set's combat situation |
//! | `POST /api/desk/{ruleset}/odds` | `{"situation"}` → the exact probability of every outcome |
//! | `POST /api/desk/{ruleset}/resolve` | `{"situation", "draws"?, "seed"?}` → the result, explained |
//!
//! A credential (a seat's token or the umpire's) travels in the `Authorization: Bearer` header,
//! never in a URL (a POST may also carry it as `"token"` in its body; the WebSocket, which a
//! browser cannot give headers, as its first message).
//!
//! A client (an address) may create 20 games a minute, have 20 scenarios checked a minute and
//! hold 16 WebSockets open (2048 on the whole server): more is refused with 429
//! ([`crate::limits`]). Scenarios are checked one at a time.
//!
//! Errors are JSON, `{"error": "..."}`, with a 4xx status for what the caller got wrong.

use std::collections::HashMap;

use axum::Router;
use axum::body::{Body, to_bytes};
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use std::net::SocketAddr;

use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Value, json};

use crate::catalog;
use crate::limits::Gate;
use crate::server::{ApiError, NewGame, Server};

/// The largest request body accepted.
pub const BODY_LIMIT: usize = 64 * 1024;

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        (status, [(header::CONTENT_TYPE, "application/json")], json!({"error": self.message}).to_string())
            .into_response()
    }
}

fn ok(v: Value) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], v.to_string()).into_response()
}

/// Run blocking game work (SQLite, rule sets, computer players) off the async workers.
async fn blocking<F: FnOnce() -> Result<Value, ApiError> + Send + 'static>(f: F) -> Response {
    match tokio::task::spawn_blocking(f).await {
        Ok(Ok(v)) => ok(v),
        Ok(Err(e)) => e.into_response(),
        Err(e) => ApiError { status: 500, message: format!("the request failed: {e}") }.into_response(),
    }
}

/// How long a request's body may take to arrive, whole.
pub const BODY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

async fn body_json(body: Body) -> Result<Value, ApiError> {
    let bytes = tokio::time::timeout(BODY_TIMEOUT, to_bytes(body, BODY_LIMIT))
        .await
        .map_err(|_| ApiError {
            status: 408,
            message: format!("the request body took over {BODY_TIMEOUT:?} to arrive"),
        })?
        .map_err(|_| ApiError { status: 413, message: format!("the request body is over {BODY_LIMIT} bytes") })?;
    serde_json::from_slice(&bytes).map_err(|e| ApiError::bad(format!("the request body is not JSON: {e}")))
}

/// What every request may use: the games, and the count of what each client is doing.
#[derive(Clone)]
pub struct App {
    server: Server,
    gate: Gate,
}

impl axum::extract::FromRef<App> for Gate {
    fn from_ref(app: &App) -> Gate {
        app.gate.clone()
    }
}

impl axum::extract::FromRef<App> for Server {
    fn from_ref(app: &App) -> Server {
        app.server.clone()
    }
}

/// The router: the API and the page, over `server`, keeping each client within `gate`'s
/// limits. Serve it with `into_make_service_with_connect_info::<SocketAddr>()`: a client is
/// known by its address.
pub fn router(server: Server, gate: Gate) -> Router {
    Router::new()
        .route("/", get(|| async { page("text/html; charset=utf-8", INDEX) }))
        .route("/app.js", get(|| async { page("text/javascript; charset=utf-8", APP) }))
        .route("/style.css", get(|| async { page("text/css; charset=utf-8", STYLE) }))
        .route("/favicon.ico", get(|| async { page("image/svg+xml", ICON) }))
        .route("/favicon.svg", get(|| async { page("image/svg+xml", ICON) }))
        .route("/js/{file}", get(module))
        .route("/api/rulesets/{id}/{what}", get(ruleset_text))
        .route(
            "/api/rulesets",
            get(|| async {
                ok(json!(
                    catalog::NAMES
                        .iter()
                        .map(|(id, name, draws)| json!({"id": id, "name": name, "draws": draws}))
                        .collect::<Vec<_>>()
                ))
            }),
        )
        .route("/api/scenarios", get(|s: State<Server>| async move { ok(json!(s.library().list())) }))
        .route("/api/scenarios/check", post(check_scenario))
        .route("/api/scenarios/{name}/view", get(scenario_view))
        .route("/api/games", get(list_games).post(create_game))
        .route("/api/games/{id}", get(game_view))
        .route("/api/games/{id}/actions", post(act))
        .route("/api/games/{id}/check", post(check))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/claim", post(claim))
        .route("/api/games/{id}/release", post(release))
        .route("/api/games/{id}/log", get(export))
        .route("/api/key", get(public_key))
        .route("/api/games/{id}/replay", get(replay))
        .route("/api/games/{id}/ws", get(watch))
        .route("/api/desk", get(|| async { ok(json!(catalog::CALCULATORS)) }))
        .route("/api/desk/{ruleset}/schema", get(desk_schema))
        .route("/api/desk/{ruleset}/{what}", post(desk_work))
        .fallback(|| async { ApiError { status: 404, message: "no such page".into() } })
        .method_not_allowed_fallback(|| async { ApiError { status: 405, message: "not with that method".into() } })
        .layer(axum::middleware::from_fn_with_state(gate.clone(), armour))
        .with_state(App { server, gate })
}

/// Whether a request carries a body (a POST without one, such as an undo, says no more than its
/// path and its credential).
fn has_body(headers: &HeaderMap) -> bool {
    headers.contains_key(header::TRANSFER_ENCODING)
        || headers
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.trim().parse::<u64>().map_or(true, |n| n > 0))
}

/// The web's usual armour, on every request and answer:
/// - a request for a host the server is not told to answer to (`--host`) is refused;
/// - a credential in an address (`?token=`) is refused on every endpoint: it travels in the
///   `Authorization` header, or in a POST's JSON body;
/// - a POST with a body must say it is JSON (`Content-Type: application/json`): a cross-origin
///   form or plain-text POST, which a browser sends without asking, is refused;
/// - every answer says what it is (`X-Content-Type-Options: nosniff`), may not be framed by
///   another site, and the page runs only its own scripts (a content security policy);
/// - every refusal is JSON (`{"error"}`), also those made before a handler runs;
/// - past [`crate::limits::Limits::waiting`] API requests in hand, a new one is answered 503 at
///   once, with `Retry-After` (the page's own files are always served).
async fn armour(State(gate): State<Gate>, request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let refuse = |status: u16, message: &str| ApiError { status, message: message.to_string() }.into_response();
    // (An API request is counted as in hand until its answer is made. The page's own files are
    // not: they are answered from memory at once, and a browser does not ask again for a script
    // refused.)
    let in_hand = if request.uri().path().starts_with("/api/") { gate.enter().map(Some) } else { Ok(None) };
    let host = request.headers().get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("").to_string();
    let hosts = &gate.limits().hosts;
    // (The name without its port; an IPv6 address keeps its brackets.)
    let name = match host.rfind(':') {
        Some(i) if !host[i..].contains(']') => &host[..i],
        _ => host.as_str(),
    };
    let mut answer = if let Err(n) = &in_hand {
        // More requests in hand than the server answers in time: this one is told to come back.
        let mut busy = refuse(
            503,
            &format!(
                "the server is busy ({n} request{} in hand): try again in a moment",
                if *n == 1 { "" } else { "s" }
            ),
        );
        busy.headers_mut().insert(header::RETRY_AFTER, header::HeaderValue::from_static("1"));
        busy
    } else if !hosts.is_empty() && !hosts.iter().any(|h| h.eq_ignore_ascii_case(name)) {
        refuse(421, "this server does not answer for that host")
    } else if request.uri().query().is_some_and(|q| q.split('&').any(|kv| kv.split('=').next() == Some("token"))) {
        refuse(400, "a credential travels in the Authorization header (or a POST's JSON body), never in an address")
    } else if request.method() == axum::http::Method::POST
        && has_body(request.headers())
        && !request
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|c| c.to_str().ok())
            .is_some_and(|c| c.trim_start().to_ascii_lowercase().starts_with("application/json"))
    {
        refuse(415, "a POST's body is JSON: send it with Content-Type: application/json")
    } else {
        next.run(request).await
    };
    // A refusal made before a handler ran (a bad path or query, a WebSocket asked for without
    // its headers) is plain text: made JSON.
    let status = answer.status();
    let json = answer
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|c| c.to_str().ok())
        .is_some_and(|c| c.starts_with("application/json"));
    if (status.is_client_error() || status.is_server_error()) && !json {
        let bytes = to_bytes(std::mem::take(answer.body_mut()), BODY_LIMIT).await.unwrap_or_default();
        let text = String::from_utf8_lossy(&bytes).trim().to_string();
        let message = if text.is_empty() { status.canonical_reason().unwrap_or("refused").to_string() } else { text };
        answer = ApiError { status: status.as_u16(), message }.into_response();
    }
    let h = answer.headers_mut();
    h.insert(header::X_CONTENT_TYPE_OPTIONS, header::HeaderValue::from_static("nosniff"));
    h.insert(header::X_FRAME_OPTIONS, header::HeaderValue::from_static("DENY"));
    h.insert(header::REFERRER_POLICY, header::HeaderValue::from_static("no-referrer"));
    // (The page's WebSocket is to its own host: 'self' covers it in today's browsers, and the
    // host's ws: and wss: addresses are named for the others.)
    let own: String = host.chars().filter(|c| c.is_ascii_alphanumeric() || ".-:[]".contains(*c)).collect();
    let sockets = if own.is_empty() { String::new() } else { format!(" ws://{own} wss://{own}") };
    let policy = format!(
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; \
         connect-src 'self'{sockets}; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    );
    if let Ok(v) = header::HeaderValue::from_str(&policy) {
        h.insert(header::CONTENT_SECURITY_POLICY, v);
    }
    answer
}

const INDEX: &str = include_str!("../../../web/index.html");
const APP: &str = include_str!("../../../web/app.js");
const STYLE: &str = include_str!("../../../web/style.css");
const ICON: &str = include_str!("../../../web/favicon.svg");

/// The page's modules (`web/js/`), by file name.
const MODULES: &[(&str, &str)] = &[
    ("util.js", include_str!("../../../web/js/util.js")),
    ("map.js", include_str!("../../../web/js/map.js")),
    ("home.js", include_str!("../../../web/js/home.js")),
    ("game.js", include_str!("../../../web/js/game.js")),
    ("replay.js", include_str!("../../../web/js/replay.js")),
    ("rules.js", include_str!("../../../web/js/rules.js")),
    ("desk.js", include_str!("../../../web/js/desk.js")),
];

async fn module(Path(file): Path<String>) -> Response {
    match MODULES.iter().find(|(name, _)| *name == file) {
        Some((_, text)) => page("text/javascript; charset=utf-8", text),
        None => ApiError { status: 404, message: format!("no such module: {file}") }.into_response(),
    }
}

async fn scenario_view(State(s): State<Server>, Path(name): Path<String>) -> Response {
    blocking(move || {
        let view = s
            .library()
            .preview(&name)
            .ok_or_else(|| ApiError { status: 404, message: format!("no scenario here is named {name:?}") })?;
        serde_json::to_value(view).map_err(|e| ApiError { status: 500, message: e.to_string() })
    })
    .await
}

/// Held while a scenario's text is checked ([`check_scenario`]).
static CHECKING: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// `{"text", "name"?}`: a scenario's text checked as `volley check` checks it (`name`, its
/// file's name, names it in the diagnostics) → `{"ok": true, "scenario": card, "view"}`, or
/// `{"ok": false, "diagnostics": [{"file", "line", "col", "message"}]}`.
async fn check_scenario(
    State(gate): State<Gate>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    if let Err(why) = gate.check(client_of(&gate, peer, &headers)) {
        return ApiError { status: 429, message: why }.into_response();
    }
    let v = match body_json(body).await {
        Ok(v) => v,
        Err(e) => return e.into_response(),
    };
    let Some(text) = v.get("text").and_then(Value::as_str).map(str::to_string) else {
        return ApiError::bad("expected {\"text\": \"...the scenario's TOML...\", \"name\"?: \"my-battle.toml\"}")
            .into_response();
    };
    let name = v.get("name").and_then(Value::as_str).map(str::trim).filter(|n| !n.is_empty());
    let name = name.unwrap_or("scenario.toml").to_string();
    blocking(move || {
        // One check at a time: a short text may ask for a big table, which takes seconds and
        // hundreds of megabytes to load.
        let _one = CHECKING.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let src = volley_scenario::Source::new(name.as_str(), text);
        match catalog::check(&name, &src) {
            Ok((card, view)) => Ok(json!({"ok": true, "scenario": card, "view": view})),
            Err(e) => {
                let diagnostics: Vec<Value> =
                    e.0.iter()
                        .map(|d| {
                            let message = volley_scenario::shorten(&d.message);
                            json!({"file": d.path, "line": d.line, "col": d.col, "message": message})
                        })
                        .collect();
                Ok(json!({"ok": false, "diagnostics": diagnostics}))
            }
        }
    })
    .await
}

fn page(kind: &'static str, text: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind), (header::CACHE_CONTROL, "no-cache")], text).into_response()
}

/// Games a page of `GET /api/games` lists unless told otherwise, and at most.
pub const PER_PAGE: (usize, usize) = (50, 200);

/// `GET /api/games?page=N&per_page=K&open=true`: the public games, newest first, a page at a
/// time (page 1, 50 a page, unless told); `open=true` lists only those with a seat open to
/// anyone. The total (of those the pages choose from) is in `X-Total-Count`.
async fn list_games(State(s): State<Server>, Query(q): Query<std::collections::HashMap<String, String>>) -> Response {
    let number = |key: &str, default: usize, most: usize| -> Result<usize, ApiError> {
        match q.get(key) {
            None => Ok(default),
            Some(v) => v
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=most).contains(n))
                .ok_or_else(|| ApiError::bad(format!("{key}: a whole number from 1 to {most}, not {v:?}"))),
        }
    };
    let page = match (number("page", 1, usize::MAX / 2), number("per_page", PER_PAGE.0, PER_PAGE.1)) {
        (Ok(page), Ok(per_page)) => {
            crate::server::Page { page, per_page, open: q.get("open").is_some_and(|v| v == "true" || v == "1") }
        }
        (Err(e), _) | (_, Err(e)) => return e.into_response(),
    };
    let (per_page, number_of) = (page.per_page, page.page);
    match tokio::task::spawn_blocking(move || s.list_page(&page)).await {
        Ok(Ok((v, total))) => {
            let mut answer = ok(v);
            let h = answer.headers_mut();
            for (name, value) in [("x-total-count", total), ("x-page", number_of), ("x-per-page", per_page)] {
                if let Ok(v) = header::HeaderValue::from_str(&value.to_string()) {
                    h.insert(name, v);
                }
            }
            answer
        }
        Ok(Err(e)) => e.into_response(),
        Err(e) => ApiError { status: 500, message: format!("the request failed: {e}") }.into_response(),
    }
}

async fn create_game(
    State(s): State<Server>,
    State(gate): State<Gate>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    // (A request that does not read as a new game spends nothing of the client's allowance.)
    let v = match body_json(body).await {
        Ok(v) => v,
        Err(e) => return e.into_response(),
    };
    let req: NewGame = match serde_json::from_value(v) {
        Ok(r) => r,
        Err(e) => return ApiError::bad(format!("a new game: {e}")).into_response(),
    };
    if let Err(why) = gate.create(client_of(&gate, peer, &headers)) {
        return ApiError { status: 429, message: why }.into_response();
    }
    blocking(move || s.create(&req)).await
}

/// Who a request is from, as the limits count clients: the connecting address, or, when that is
/// a proxy the server is told to trust (`--trusted-proxy`), the address the proxy says it came
/// from (the last in `X-Forwarded-For`, which that proxy added; one it does not say, its own).
fn client_of(gate: &Gate, peer: SocketAddr, headers: &HeaderMap) -> std::net::IpAddr {
    let ip = peer.ip();
    if !gate.limits().trusted_proxies.contains(&ip) {
        return ip;
    }
    headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter_map(|a| a.trim().parse::<std::net::IpAddr>().ok())
        .next_back()
        .unwrap_or(ip)
}

/// The credential in the `Authorization: Bearer` header, if any.
fn bearer(headers: &HeaderMap) -> Option<String> {
    let v = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    v.strip_prefix("Bearer ").map(|t| t.trim().to_string()).filter(|t| !t.is_empty())
}

async fn game_view(
    State(s): State<Server>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    if q.contains_key("token") {
        return ApiError::bad("a credential goes in the Authorization header, not the address").into_response();
    }
    let view_as = match q.get("view_as").map(|v| v.parse::<u8>()) {
        None => None,
        Some(Ok(side)) => Some(side),
        Some(Err(_)) => return ApiError::bad("view_as: a side's number, 0 or 1").into_response(),
    };
    let token = bearer(&headers);
    blocking(move || s.view(&id, token.as_deref(), view_as)).await
}

async fn act(State(s): State<Server>, Path(id): Path<String>, headers: HeaderMap, body: Body) -> Response {
    let v = match body_json(body).await {
        Ok(v) => v,
        Err(e) => return e.into_response(),
    };
    let token = bearer(&headers).or_else(|| v.get("token").and_then(Value::as_str).map(str::to_string));
    let (Some(token), Some(action)) = (token, v.get("action")) else {
        return ApiError::bad("expected {\"action\": ...} and a credential (Authorization: Bearer ...)")
            .into_response();
    };
    let action = action.clone();
    blocking(move || s.act(&id, &token, &action)).await
}

async fn check(State(s): State<Server>, Path(id): Path<String>, headers: HeaderMap, body: Body) -> Response {
    let v = match body_json(body).await {
        Ok(v) => v,
        Err(e) => return e.into_response(),
    };
    let token = bearer(&headers).or_else(|| v.get("token").and_then(Value::as_str).map(str::to_string));
    let (Some(token), Some(action)) = (token, v.get("action")) else {
        return ApiError::bad(
            "expected {\"action\": ..., \"from\"?: [x, y]} and a credential (Authorization: Bearer ...)",
        )
        .into_response();
    };
    let from = match v.get("from") {
        None | Some(Value::Null) => None,
        Some(f) => match serde_json::from_value::<[f64; 2]>(f.clone()) {
            Ok(p) if p.iter().all(|c| c.is_finite()) => Some(p),
            _ => return ApiError::bad("from: a place, [x, y]").into_response(),
        },
    };
    let action = action.clone();
    blocking(move || s.check(&id, &token, &action, from)).await
}

async fn export(State(s): State<Server>, Path(id): Path<String>) -> Response {
    match tokio::task::spawn_blocking(move || s.export(&id)).await {
        Ok(Ok(text)) => ([(header::CONTENT_TYPE, "application/x-ndjson; charset=utf-8")], text).into_response(),
        Ok(Err(e)) => e.into_response(),
        Err(e) => ApiError { status: 500, message: e.to_string() }.into_response(),
    }
}

async fn public_key(State(s): State<Server>) -> Response {
    blocking(move || {
        let key = s.key()?.public_hex();
        Ok(json!({"fingerprint": crate::signing::fingerprint(&key), "ed25519": key}))
    })
    .await
}

async fn release(State(s): State<Server>, Path(id): Path<String>, headers: HeaderMap) -> Response {
    let Some(token) = bearer(&headers) else {
        return ApiError { status: 401, message: "only the umpire releases results: his credential, please".into() }
            .into_response();
    };
    blocking(move || s.release(&id, &token)).await
}

/// Each rule set's guide for players (how a turn goes, what a player decides) and its register
/// (how volley reads the rule text, clause by clause), as Markdown.
const RULESET_TEXTS: &[(&str, &str, &str)] = &[
    (
        "blown-away",
        include_str!("../../../docs/guide/blown-away.md"),
        include_str!("../../../docs/rules/blown-away.md"),
    ),
    (
        "der-alte-fritz",
        include_str!("../../../docs/guide/der-alte-fritz.md"),
        include_str!("../../../docs/rules/der-alte-fritz.md"),
    ),
    ("en-avant", include_str!("../../../docs/guide/en-avant.md"), include_str!("../../../docs/rules/en-avant.md")),
    (
        "itchy-scratchy",
        include_str!("../../../docs/guide/itchy-scratchy.md"),
        include_str!("../../../docs/rules/itchy-scratchy.md"),
    ),
    ("old-fritz", include_str!("../../../docs/guide/old-fritz.md"), include_str!("../../../docs/rules/old-fritz.md")),
];

async fn ruleset_text(Path((id, what)): Path<(String, String)>) -> Response {
    let Some((_, guide, register)) = RULESET_TEXTS.iter().find(|(r, _, _)| *r == id) else {
        return ApiError { status: 404, message: format!("no rule set {id:?}") }.into_response();
    };
    match what.as_str() {
        "guide" => page("text/markdown; charset=utf-8", guide),
        "register" => page("text/markdown; charset=utf-8", register),
        _ => ApiError { status: 404, message: format!("a rule set has a guide and a register, not {what:?}") }
            .into_response(),
    }
}

async fn undo(State(s): State<Server>, Path(id): Path<String>, headers: HeaderMap) -> Response {
    let Some(token) = bearer(&headers) else {
        return ApiError {
            status: 401,
            message: "only a side takes back its own action: its credential, please".into(),
        }
        .into_response();
    };
    blocking(move || s.undo(&id, &token)).await
}

async fn claim(State(s): State<Server>, Path(id): Path<String>, body: Body) -> Response {
    let v = match body_json(body).await {
        Ok(v) => v,
        Err(e) => return e.into_response(),
    };
    let Some(code) = v.get("invitation").and_then(Value::as_str).map(str::to_string) else {
        return ApiError::bad("expected {\"invitation\": \"...\"}").into_response();
    };
    blocking(move || s.claim(&id, &code)).await
}

fn desk_for(ruleset: &str) -> Result<Box<dyn crate::desk::Desk>, ApiError> {
    crate::desk::desk(ruleset).ok_or_else(|| ApiError {
        status: 404,
        message: format!("no rule set {ruleset:?}: {:?}", catalog::CALCULATORS),
    })
}

async fn desk_schema(Path(ruleset): Path<String>) -> Response {
    match desk_for(&ruleset) {
        Ok(d) => ok(d.schema()),
        Err(e) => e.into_response(),
    }
}

async fn desk_work(Path((ruleset, what)): Path<(String, String)>, body: Body) -> Response {
    let v = match body_json(body).await {
        Ok(v) => v,
        Err(e) => return e.into_response(),
    };
    let Some(situation) = v.get("situation").cloned() else {
        return ApiError::bad("expected {\"situation\": {...}}").into_response();
    };
    let draws = v.get("draws").and_then(Value::as_str).filter(|d| !d.trim().is_empty()).map(str::to_string);
    let seed = v.get("seed").and_then(Value::as_u64).unwrap_or(1);
    blocking(move || {
        let d = desk_for(&ruleset)?;
        match what.as_str() {
            "odds" => d.odds(&situation),
            "resolve" => d.resolve(&situation, draws.as_deref(), seed),
            _ => Err(ApiError { status: 404, message: format!("the desk does {what:?}? it gives odds or resolves") }),
        }
    })
    .await
}

async fn replay(
    State(s): State<Server>,
    Path(id): Path<String>,
    Query(q): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Response {
    let step = match q.get("step").map(|v| v.parse::<u64>()) {
        None => u64::MAX,
        Some(Ok(k)) => k,
        Some(Err(_)) => return ApiError::bad("step: a whole number of actions").into_response(),
    };
    let turn = match q.get("turn").map(|v| v.parse::<u32>()) {
        None => None,
        Some(Ok(t)) => Some(t),
        Some(Err(_)) => return ApiError::bad("turn: a turn's number, from 1").into_response(),
    };
    let token = bearer(&headers);
    blocking(move || s.replay(&id, step, turn, token.as_deref())).await
}

async fn watch(
    State(s): State<Server>,
    State(gate): State<Gate>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(id): Path<String>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    let client = client_of(&gate, peer, &headers);
    let counted = match gate.watch(client) {
        Ok(c) => c,
        Err(why) => return ApiError { status: 429, message: why }.into_response(),
    };
    // The game must exist before the socket opens; the credential comes in the first message.
    let probe = s.clone();
    let known = id.clone();
    match tokio::task::spawn_blocking(move || probe.is_over(&known)).await {
        Ok(Ok(_)) => {}
        Ok(Err(e)) => return e.into_response(),
        Err(e) => return ApiError { status: 500, message: e.to_string() }.into_response(),
    }
    // A watcher says who it is in a few bytes and says nothing after: no room for more.
    ws.max_message_size(WATCHER_MESSAGE_LIMIT).max_frame_size(WATCHER_MESSAGE_LIMIT).on_upgrade(
        move |socket| async move {
            forward(socket, s, id).await;
            drop(counted);
        },
    )
}

/// The largest message a watcher may send (its greeting: a credential).
const WATCHER_MESSAGE_LIMIT: usize = 4096;

/// How long a watcher has to say who it is.
const HELLO_WITHIN: std::time::Duration = std::time::Duration::from_secs(10);

async fn send(socket: &mut WebSocket, v: Value) -> bool {
    socket.send(Message::Text(v.to_string().into())).await.is_ok()
}

async fn forward(mut socket: WebSocket, s: Server, id: String) {
    // First, who watches: `{"token": "..."}`, or `{}` for a spectator.
    let hello = match tokio::time::timeout(HELLO_WITHIN, socket.recv()).await {
        Ok(Some(Ok(Message::Text(t)))) => serde_json::from_str::<Value>(&t).unwrap_or(Value::Null),
        _ => {
            let _ = send(&mut socket, json!({"error": "say who watches first: {\"token\": ...} or {}"})).await;
            return;
        }
    };
    let token = hello.get("token").and_then(Value::as_str).map(str::to_string);
    let server = s.clone();
    let game = id.clone();
    let sub = tokio::task::spawn_blocking(move || server.watch(&game, token.as_deref())).await;
    let (role, counts, mut rx) = match sub {
        Ok(Ok(sub)) => sub,
        Ok(Err(e)) => {
            let _ = send(&mut socket, json!({"error": e.message})).await;
            return;
        }
        Err(_) => return,
    };
    // Counted as present while the channel lasts (the other players see it).
    let _here = s.here(&id, role);
    let mine = |c: &crate::server::Counts| (c.actions[crate::server::slot(role)], c.held);
    let mut last = mine(&counts);
    if !send(&mut socket, json!({"actions": last.0, "held": last.1})).await {
        return;
    }
    loop {
        tokio::select! {
            changed = rx.recv() => {
                let counts = match changed {
                    Ok(c) => c,
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                    Err(_) => return,
                };
                // Only what this watcher may know of: an enemy's secret order moves nothing.
                if mine(&counts) != last {
                    last = mine(&counts);
                    if !send(&mut socket, json!({"actions": last.0, "held": last.1})).await {
                        return;
                    }
                }
            }
            msg = socket.recv() => {
                match msg {
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                    _ => {}
                }
            }
        }
    }
}
