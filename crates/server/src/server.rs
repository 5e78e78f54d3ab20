//! The games the server holds: creating them, acting for a seat, the computer players, and
//! rebuilding a game from its stored actions.

use std::collections::HashMap;
use std::io::Read;
use std::sync::{Arc, Mutex};

use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::broadcast;
use volley_chance::{Chance, Recorder, Scripted, Seeded};
use volley_core::{Actor, Viewer};
use volley_scenario::Source;
use volley_store::{ActionRecord, GameRecord, Seat, Store};

use crate::catalog;
use crate::live::{Live, LiveError};

/// A refusal or failure, with the HTTP status it is answered with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// HTTP status code.
    pub status: u16,
    /// What was wrong, in words.
    pub message: String,
}

impl ApiError {
    fn new(status: u16, message: impl Into<String>) -> Self {
        ApiError { status, message: message.into() }
    }

    pub(crate) fn bad(message: impl Into<String>) -> Self {
        Self::new(400, message)
    }

    fn internal(e: impl std::fmt::Display) -> Self {
        Self::new(500, e.to_string())
    }

    /// A store's failure, with its causes.
    fn store(e: volley_store::StoreError) -> Self {
        let mut message = e.to_string();
        let mut cause = std::error::Error::source(&e);
        while let Some(c) = cause {
            message.push_str(&format!(": {c}"));
            cause = c.source();
        }
        Self::new(500, message)
    }
}

/// What a new game needs.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// A bundled scenario's name.
    pub scenario: String,
    /// Who plays each side: `human`, `random`, `heuristic` or `mcts` (the search player, 200 ms a decision).
    pub players: Vec<String>,
    /// The seed of the dice and cards; default: a fresh one.
    #[serde(default)]
    pub seed: Option<u64>,
}

/// The players a seat may have.
pub const PLAYERS: [&str; 4] = ["human", "random", "heuristic", "mcts"];

/// One line of what happened: the action's number, the text, whether side 0 and side 1 may see it.
type LogLine = (u64, String, [bool; 2]);

/// One game in memory: its record, the state rebuilt from its actions, and what happened.
struct Game {
    record: GameRecord,
    live: Box<dyn Live>,
    /// Actions taken.
    n: u64,
    /// What happened, in words.
    log: Vec<LogLine>,
    /// Views after each action, for replays: the actions themselves, kept to rebuild any step.
    actions: Vec<ActionRecord>,
    /// Tells watchers that the game changed (the number of actions).
    tx: broadcast::Sender<u64>,
    /// A computer player is thinking.
    thinking: bool,
}

/// How many games a server keeps in memory by default ([`Server::new`]); the others are in the
/// store and rebuilt from their actions when asked for.
pub const GAMES_IN_MEMORY: usize = 256;

/// The games in memory, each with when it was last asked for; at most `limit` of them once the
/// idle ones can be let go.
struct Games {
    map: HashMap<String, (Arc<Mutex<Game>>, u64)>,
    /// Counts requests, for "last asked for".
    clock: u64,
    limit: usize,
}

impl Games {
    /// The game `id` if it is in memory, marked as just asked for.
    fn get(&mut self, id: &str) -> Option<Arc<Mutex<Game>>> {
        self.clock += 1;
        let clock = self.clock;
        self.map.get_mut(id).map(|(g, used)| {
            *used = clock;
            g.clone()
        })
    }

    /// Keep `game` as `id` (unless another request loaded it first: then that one), and let the
    /// least recently asked-for idle games go until at most `limit` are kept. A game is idle
    /// when nothing else holds it (no request, no computer player thinking) and nobody watches
    /// it; everything it holds is in the store, so letting it go loses nothing.
    fn insert(&mut self, id: &str, game: Arc<Mutex<Game>>) -> Arc<Mutex<Game>> {
        self.clock += 1;
        let clock = self.clock;
        let kept = self.map.entry(id.to_string()).or_insert((game, clock)).0.clone();
        if self.map.len() > self.limit {
            let mut idle: Vec<(u64, String)> = self
                .map
                .iter()
                .filter(|(other, (g, _))| {
                    other.as_str() != id
                        // Held by nothing but this map.
                        && Arc::strong_count(g) == 1
                        && g.try_lock().is_ok_and(|g| !g.thinking && g.tx.receiver_count() == 0)
                })
                .map(|(other, (_, used))| (*used, other.clone()))
                .collect();
            idle.sort_unstable();
            let excess = self.map.len() - self.limit;
            for (_, other) in idle.into_iter().take(excess) {
                self.map.remove(&other);
            }
        }
        kept
    }
}

/// The server's games, shared by all requests.
#[derive(Clone)]
pub struct Server {
    store: Arc<dyn Store>,
    games: Arc<Mutex<Games>>,
}

fn now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// `bytes` random bytes from the operating system, as hex: seat tokens and game ids must not
/// be guessable, so they do not come from the games' seeded dice.
fn secret(bytes: usize) -> Result<String, ApiError> {
    let mut buf = vec![0u8; bytes];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut buf))
        .map_err(|e| ApiError::internal(format!("no randomness for a token: {e}")))?;
    Ok(buf.iter().map(|b| format!("{b:02x}")).collect())
}

fn lock<T>(m: &Mutex<T>) -> Result<std::sync::MutexGuard<'_, T>, ApiError> {
    m.lock().map_err(|_| ApiError::internal("a game's lock was poisoned by an earlier failure"))
}

impl Server {
    /// A server keeping its games in `store`, and at most [`GAMES_IN_MEMORY`] of them in memory
    /// while they are idle.
    pub fn new(store: Arc<dyn Store>) -> Self {
        Self::with_memory_for(store, GAMES_IN_MEMORY)
    }

    /// A server keeping its games in `store`, and at most `games` of them (at least one) in
    /// memory while they are idle: games being played, thought about or watched stay.
    pub fn with_memory_for(store: Arc<dyn Store>, games: usize) -> Self {
        let games = Games { map: HashMap::new(), clock: 0, limit: games.max(1) };
        Server { store, games: Arc::new(Mutex::new(games)) }
    }

    /// How many games are in memory now.
    pub fn games_in_memory(&self) -> usize {
        self.games.lock().map_or(0, |g| g.map.len())
    }

    /// Let the computer players carry on where they stopped: every stored game a computer
    /// player must act in is loaded. A game whose last action says a person is to act, or
    /// nobody (it is over), is left in the store; one not yet begun, or whose last action was
    /// kept without saying, is loaded to see.
    pub fn resume_all(&self) {
        if let Ok(list) = self.store.games() {
            for g in list {
                let computer = |s: u8| g.players.get(usize::from(s)).is_some_and(|p| p != "human");
                let maybe = match (&g.status, g.to_act) {
                    (Some(_), Some(s)) => computer(s),
                    (Some(_), None) => false,
                    (None, _) => true,
                };
                if maybe {
                    if let Ok(game) = self.game(&g.id) {
                        self.kick(&game);
                    }
                }
            }
        }
    }

    /// Create a game; returns its id and each seat's token for human seats.
    pub fn create(&self, req: &NewGame) -> Result<Value, ApiError> {
        let bundled = catalog::find(&req.scenario)
            .ok_or_else(|| ApiError::bad(format!("unknown scenario {:?}: see /api/scenarios", req.scenario)))?;
        if req.players.len() != 2 {
            return Err(ApiError::bad(format!("players: two, one a side; found {}", req.players.len())));
        }
        if let Some(p) = req.players.iter().find(|p| !PLAYERS.contains(&p.as_str())) {
            return Err(ApiError::bad(format!("player {p:?}: expected one of {PLAYERS:?}")));
        }
        let src = Source::new(bundled.path, bundled.text);
        let (ruleset, _) = catalog::load(&src).map_err(|e| ApiError::internal(e.to_string()))?;
        let seed = match req.seed {
            Some(s) => s,
            None => u64::from_str_radix(&secret(8)?, 16).unwrap_or(1),
        };
        let seats = req
            .players
            .iter()
            .map(|p| Ok(Seat { player: p.clone(), token: secret(16)? }))
            .collect::<Result<Vec<_>, ApiError>>()?;
        let record = GameRecord {
            id: secret(8)?,
            ruleset: ruleset.to_string(),
            scenario_name: bundled.name.to_string(),
            scenario: bundled.text.to_string(),
            seed,
            seats,
            created: now(),
        };
        self.store.create_game(&record).map_err(ApiError::store)?;
        let game = self.game(&record.id)?;
        self.kick(&game);
        let seats: Vec<Value> = record
            .seats
            .iter()
            .map(|s| {
                if s.player == "human" {
                    json!({"player": s.player, "token": s.token})
                } else {
                    json!({"player": s.player})
                }
            })
            .collect();
        Ok(json!({"id": record.id, "seats": seats}))
    }

    /// The game `id`, loaded from the store (and rebuilt) if it is not in memory.
    fn game(&self, id: &str) -> Result<Arc<Mutex<Game>>, ApiError> {
        if let Some(g) = lock(&self.games)?.get(id) {
            return Ok(g);
        }
        let (record, actions) = self
            .store
            .game(id)
            .map_err(ApiError::store)?
            .ok_or_else(|| ApiError::new(404, format!("there is no game {id:?}")))?;
        let (live, log) = rebuild(&record, &actions, actions.len())?;
        let (tx, _) = broadcast::channel(64);
        let game =
            Arc::new(Mutex::new(Game { n: actions.len() as u64, record, live, log, actions, tx, thinking: false }));
        // Another request may have loaded it meanwhile: the first is kept.
        Ok(lock(&self.games)?.insert(id, game))
    }

    /// The seat a token opens, if any.
    fn seat_of(record: &GameRecord, token: Option<&str>) -> Option<u8> {
        let t = token?;
        record.seats.iter().position(|s| s.player == "human" && s.token == t).map(|i| i as u8)
    }

    /// The game as the holder of `token` may see it (a spectator without one).
    pub fn view(&self, id: &str, token: Option<&str>) -> Result<Value, ApiError> {
        let game = self.game(id)?;
        let g = lock(&game)?;
        let seat = Self::seat_of(&g.record, token);
        if token.is_some() && seat.is_none() {
            return Err(ApiError::new(403, "this token opens no seat of this game"));
        }
        let viewer = seat.map_or(Viewer::Spectator, Viewer::Side);
        let actor = g.live.actor();
        let mine = matches!((actor, seat), (Actor::Side(a), Some(s)) if a == s);
        let candidates: Vec<Value> = if mine {
            g.live
                .candidates()
                .into_iter()
                .map(|(action, text, points)| json!({"action": action, "text": text, "points": points}))
                .collect()
        } else {
            Vec::new()
        };
        let log: Vec<Value> = g
            .log
            .iter()
            .filter(|(_, _, vis)| match seat {
                Some(s) => vis[usize::from(s) & 1],
                None => vis[0] && vis[1],
            })
            .map(|(n, text, _)| json!({"n": n, "text": text}))
            .collect();
        Ok(json!({
            "id": g.record.id,
            "ruleset": g.record.ruleset,
            "scenario": g.record.scenario_name,
            "players": g.record.seats.iter().map(|s| s.player.clone()).collect::<Vec<_>>(),
            "seat": seat,
            "actor": actor,
            "phase": g.live.phase(),
            "outcome": g.live.outcome(),
            "actions": g.n,
            "thinking": g.thinking,
            "view": g.live.view(viewer),
            "candidates": candidates,
            "log": log,
        }))
    }

    /// A step of a game's replay: the state after `step` actions, as a spectator sees it (the
    /// umpire's view once the battle is over).
    pub fn replay(&self, id: &str, step: u64) -> Result<Value, ApiError> {
        let game = self.game(id)?;
        let (record, actions, over) = {
            let g = lock(&game)?;
            (g.record.clone(), g.actions.clone(), g.live.outcome().is_some())
        };
        let step = step.min(actions.len() as u64);
        let (live, log) = rebuild(&record, &actions, step as usize)?;
        let viewer = if over { Viewer::Umpire } else { Viewer::Spectator };
        let log: Vec<Value> = log
            .iter()
            .filter(|(_, _, vis)| over || (vis[0] && vis[1]))
            .map(|(n, text, _)| json!({"n": n, "text": text}))
            .collect();
        Ok(json!({"step": step, "total": actions.len(), "view": live.view(viewer), "log": log}))
    }

    /// A watcher's channel: it hears the number of actions after each change.
    pub fn watch(&self, id: &str) -> Result<(u64, broadcast::Receiver<u64>), ApiError> {
        let game = self.game(id)?;
        let g = lock(&game)?;
        Ok((g.n, g.tx.subscribe()))
    }

    /// Take `action` for the seat `token` opens. The action is stored for good before this
    /// returns; then the computer players, if it is their turn, think on another thread.
    pub fn act(&self, id: &str, token: &str, action: &Value) -> Result<Value, ApiError> {
        let game = self.game(id)?;
        {
            let mut g = lock(&game)?;
            let seat = Self::seat_of(&g.record, Some(token))
                .ok_or_else(|| ApiError::new(403, "this token opens no seat of this game"))?;
            match g.live.actor() {
                Actor::Side(s) if s == seat => {}
                Actor::Terminal => return Err(ApiError::new(409, "the battle is over")),
                other => return Err(ApiError::new(409, format!("it is not your turn: {other} must act"))),
            }
            self.commit(&mut g, Actor::Side(seat), action)?;
        }
        self.kick(&game);
        let g = lock(&game)?;
        Ok(json!({"ok": true, "actions": g.n, "actor": g.live.actor()}))
    }

    /// Apply `action` by `by` to a copy, store it, then keep the copy.
    fn commit(&self, g: &mut Game, by: Actor, action: &Value) -> Result<(), ApiError> {
        let n = g.n + 1;
        let mut next = g.live.clone_box();
        let mut rng = Seeded::new(Seeded::derive(g.record.seed, n));
        let mut rec = Recorder::new(&mut rng as &mut dyn Chance);
        let events = match next.apply(action, &mut rec) {
            Ok(ev) => ev,
            Err(LiveError::Malformed(e)) => return Err(ApiError::bad(format!("not an action of this game: {e}"))),
            Err(LiveError::Refused(e)) => return Err(ApiError::new(422, e.to_string())),
        };
        let draws = serde_json::to_value(&rec.draws).map_err(ApiError::internal)?;
        let by = serde_json::to_value(by).map_err(ApiError::internal)?;
        let to_act = match next.actor() {
            Actor::Side(s) => Some(s),
            _ => None,
        };
        let record = ActionRecord { n, by, action: action.clone(), draws, status: Some(next.status()), to_act };
        self.store.append_action(&g.record.id, &record).map_err(ApiError::store)?;
        g.live = next;
        g.n = n;
        g.actions.push(record);
        g.log.extend(events.into_iter().map(|(t, v)| (n, t, v)));
        let _ = g.tx.send(n);
        Ok(())
    }

    /// If a computer player must act, let it play (off the async workers) until a person must.
    fn kick(&self, game: &Arc<Mutex<Game>>) {
        {
            let Ok(mut g) = game.lock() else { return };
            if g.thinking || !computer_to_act(&g) {
                return;
            }
            g.thinking = true;
        }
        let server = self.clone();
        let game = game.clone();
        let work = move || server.computer_plays(&game);
        match tokio::runtime::Handle::try_current() {
            Ok(h) => {
                h.spawn_blocking(work);
            }
            Err(_) => work(),
        }
    }

    fn computer_plays(&self, game: &Arc<Mutex<Game>>) {
        loop {
            let Ok(mut g) = game.lock() else { return };
            if !computer_to_act(&g) {
                g.thinking = false;
                let n = g.n;
                let _ = g.tx.send(n);
                return;
            }
            let Actor::Side(s) = g.live.actor() else { return };
            let player = g.record.seats[usize::from(s)].player.clone();
            let seed = Seeded::derive(g.record.seed ^ 0x5eed, g.n + 1);
            let Some(action) = g.live.choose(&player, seed) else {
                g.thinking = false;
                return;
            };
            if self.commit(&mut g, Actor::Side(s), &action).is_err() {
                g.thinking = false;
                return;
            }
            drop(g);
            // Let people's requests in between the computer's moves.
            std::thread::yield_now();
        }
    }

    /// Every stored game, newest first, with where it stands: as its last action left it (kept
    /// with the action), or, for a game not yet begun or whose actions were kept without it,
    /// from the game itself.
    pub fn list(&self) -> Result<Value, ApiError> {
        let games = self.store.games().map_err(ApiError::store)?;
        let mut out = Vec::with_capacity(games.len());
        for summary in games {
            let mut v = serde_json::to_value(&summary).map_err(ApiError::internal)?;
            if summary.status.is_none() {
                if let Ok(game) = self.game(&summary.id) {
                    v["status"] = json!(lock(&game)?.live.status());
                }
            }
            out.push(v);
        }
        Ok(Value::Array(out))
    }
}

fn computer_to_act(g: &Game) -> bool {
    match g.live.actor() {
        Actor::Side(s) => g.record.seats.get(usize::from(s)).is_some_and(|p| p.player != "human"),
        _ => false,
    }
}

/// The game after the first `upto` of its actions, and what happened, rebuilt from the record.
fn rebuild(
    record: &GameRecord,
    actions: &[ActionRecord],
    upto: usize,
) -> Result<(Box<dyn Live>, Vec<LogLine>), ApiError> {
    let src = Source::new(record.scenario_name.clone(), record.scenario.clone());
    let (_, mut live) =
        catalog::load(&src).map_err(|e| ApiError::internal(format!("the stored scenario no longer loads: {e}")))?;
    let mut log = Vec::new();
    for a in actions.iter().take(upto) {
        let draws: Vec<volley_chance::Draw> = serde_json::from_value(a.draws.clone()).map_err(ApiError::internal)?;
        let mut script = Scripted::new(draws.iter().map(|d| d.value));
        let events = live
            .apply(&a.action, &mut script)
            .map_err(|e| ApiError::internal(format!("stored action {} no longer applies: {e}", a.n)))?;
        log.extend(events.into_iter().map(|(t, v)| (a.n, t, v)));
    }
    Ok((live, log))
}
