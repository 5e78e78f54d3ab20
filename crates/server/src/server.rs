//! The games the server holds: creating them, acting for a seat, the computer players, and
//! rebuilding a game from its stored actions.

use std::collections::HashMap;
use std::io::Read;
use std::sync::{Arc, Mutex};

use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::broadcast;
use volley_chance::{Chance, Recorder, Scripted, Seeded};
use volley_core::log::{DrawScheme, Entry, FORMAT, Footer, Header, Log};
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
        let message = message.into();
        // A huge value in a request makes a short error, not a huge one.
        let message = volley_scenario::shorten(&message).into_owned();
        ApiError { status, message }
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

/// Who the creator of a game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Creator {
    /// A person playing this side (a human seat).
    Side(u8),
    /// Both sides at one screen, taking turns (every human seat).
    HotSeat,
    /// The umpire, who runs the game and sees everything.
    Umpire,
    /// Nobody in the game: every person's seat, and the umpire's, go by invitation.
    Spectator,
}

/// What a new game needs.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// The scenario's name: a bundled one's or one of the server's folder's
    /// ([`catalog::Library`]); with `scenario_text`, a name for it in lists (its file's name;
    /// default: the scenario's own `name`).
    #[serde(default)]
    pub scenario: String,
    /// A scenario's whole text (TOML), played instead of a named one: checked as `volley check`
    /// checks it, and kept with the game.
    #[serde(default)]
    pub scenario_text: Option<String>,
    /// Who plays each side: `human`, `random`, `heuristic` or `mcts` (the search player, 200 ms a decision).
    pub players: Vec<String>,
    /// The seed of the dice and cards, for a practice or analysis game (shown as such). Without
    /// one, the server draws a seed and keeps it secret until the game ends, publishing only a
    /// commitment to it (its SHA-256).
    #[serde(default)]
    pub seed: Option<u64>,
    /// Who the creator is; default: the first side a person plays, else a spectator.
    #[serde(default)]
    pub creator: Option<Creator>,
    /// Leave the game out of the list: only those given its link can watch it.
    #[serde(default)]
    pub private: bool,
    /// Open to anyone: the first page lists its seats not yet taken, and anyone takes one with
    /// a click (their invitations are public). Not with `private`.
    #[serde(default)]
    pub open: bool,
    /// The umpire releases results: each turn's outcome is shown to the umpire first, who may
    /// amend it (with his own actions, where the rules give him any) before releasing it.
    #[serde(default)]
    pub hold_results: bool,
    /// The game has an umpire (by invitation, unless the creator is the umpire). Implied by
    /// `creator: "umpire"` and `hold_results`. Every player sees whether an umpire is seated.
    #[serde(default)]
    pub umpire: bool,
    /// En Avant only: the players read the rules' reasons (the table's row and cell, every
    /// modifier) as Game Control does, rather than the rules being kept from them (the
    /// scenario's `rules_hidden` set to false) — for a game against the computer, or among
    /// friends who want to see why.
    #[serde(default)]
    pub rules_shown: bool,
}

/// The longest name a game made from a scenario's text may give it (`NewGame::scenario`).
pub const SCENARIO_NAME_LONGEST: usize = 200;

/// The players a seat may have.
pub const PLAYERS: [&str; 4] = ["human", "random", "heuristic", "mcts"];

/// One line of what happened: the action's number, the text, whether side 0 and side 1 may see it.
type LogLine = (u64, String, [bool; 2]);

/// Who may know each action was taken: side 0, side 1, a spectator (the umpire knows all).
type Seen = [bool; 3];

/// What a game's watchers hear after each change: per viewer (side 0, side 1, spectator,
/// umpire; see [`slot`]) how many actions it may know were taken, and whether a turn's results
/// are held for the umpire (which everyone may know: they wait for him).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counts {
    /// Actions each viewer may know of.
    pub actions: [u64; 4],
    /// Results are held.
    pub held: bool,
}

/// One game in memory: its record, the state rebuilt from its actions, and what happened.
struct Game {
    /// The size of the umpire's view of it when it was loaded, bytes of JSON: how big its
    /// state is (its units, their men, their marks), for [`Game::bytes`].
    view_bytes: usize,
    record: GameRecord,
    live: Box<dyn Live>,
    /// Actions taken.
    n: u64,
    /// What happened, in words.
    log: Vec<LogLine>,
    /// The actions themselves, kept to rebuild any step for replays.
    actions: Vec<ActionRecord>,
    /// Who may know of each action.
    seen: Vec<Seen>,
    /// Tells watchers that the game changed: each viewer's count of actions it may know of.
    tx: broadcast::Sender<Counts>,
    /// A computer player is thinking.
    thinking: bool,
    /// Results held for the umpire, if any.
    hold: Option<Hold>,
    /// Someone holds the umpire's credential (every player is told: the umpire sees everything).
    umpire_seated: bool,
    /// Each side's seat is taken: its invitation claimed (or it had none: the creator's own, a
    /// computer's).
    seats_taken: [bool; 2],
    /// The sides' latest refused actions, with the umpire's reason for each (newest last, at
    /// most [`REFUSALS_KEPT`]): the umpire reads why, where a player may read only words. Kept
    /// in memory only; they change nothing in the game.
    refusals: std::collections::VecDeque<Value>,
    /// Each side's last action and the pieces as that side saw them right after it: what the
    /// side has missed since is told from there (kept in memory; rebuilt with the game).
    marks: [Option<Mark>; 2],
}

/// A side's last action (its number) and the pieces as the side saw them just after it.
#[derive(Clone)]
struct Mark {
    n: u64,
    pieces: Vec<volley_core::ViewPiece>,
}

/// How many of the sides' refused actions a game keeps for its umpire.
pub const REFUSALS_KEPT: usize = 20;

/// A turn's results the umpire has not yet released: the players see the game as it was before
/// action `from`.
struct Hold {
    /// The action whose results are held (the one that ended a turn).
    from: u64,
    /// The game as it was before it: what the players see meanwhile.
    shown: Box<dyn Live>,
}

impl Game {
    /// The least a game in memory is taken to take, bytes ([`Game::bytes`]).
    const BASE: usize = 128 << 10;
    /// Bytes taken for each byte of the umpire's view (the state it shows) and of the
    /// scenario's text (kept, and its ground built from it).
    const PER_STATE_BYTE: usize = 5;
    /// Bytes taken for each action (its record, who may know of it, its draws).
    const PER_ACTION: usize = 1 << 10;
    /// Bytes taken for each line of the account.
    const PER_LINE: usize = 512;

    /// An estimate of the memory the game takes, bytes, for sizing the games kept in memory by
    /// memory rather than by count: from the size of its state (its view's JSON when loaded) and
    /// scenario, and how many actions and lines of account it holds (measured against the bundled
    /// battles: BENCHMARKS.md, "Games in memory").
    fn bytes(&self) -> usize {
        Self::BASE
            + (self.view_bytes + self.record.scenario.len()) * Self::PER_STATE_BYTE
            + self.actions.len() * Self::PER_ACTION
            + self.log.len() * Self::PER_LINE
    }

    /// How many actions `viewer` may know were taken.
    fn count(&self, viewer: Viewer) -> u64 {
        self.counts().actions[slot(viewer)]
    }

    fn counts(&self) -> Counts {
        let upto = self.upto(Viewer::Spectator) as usize;
        let mut c = [0, 0, 0, self.n];
        for s in self.seen.iter().take(upto) {
            for (i, &yes) in s.iter().enumerate() {
                c[i] += u64::from(yes);
            }
        }
        Counts { actions: c, held: self.hold.is_some() }
    }

    /// How many actions' results `viewer` may see: all but those held for the umpire.
    fn upto(&self, viewer: Viewer) -> u64 {
        match (&self.hold, viewer) {
            (Some(h), Viewer::Side(_) | Viewer::Spectator) => h.from - 1,
            _ => self.n,
        }
    }

    /// The game as the players see it: as it was before held results.
    fn public(&self) -> &dyn Live {
        self.hold.as_ref().map_or(self.live.as_ref(), |h| h.shown.as_ref())
    }

    /// Whether the battle is over as the players know it.
    fn over(&self) -> bool {
        self.public().outcome().is_some()
    }

    /// Whom a credential makes its holder: a side, the umpire, or (without one) a spectator.
    fn role(&self, token: Option<&str>) -> Result<Viewer, ApiError> {
        let Some(t) = token else { return Ok(Viewer::Spectator) };
        if let Some(i) = self.record.seats.iter().position(|s| s.player == "human" && s.token == t) {
            return Ok(Viewer::Side(i as u8));
        }
        if self.record.umpire.as_deref() == Some(t) {
            return Ok(Viewer::Umpire);
        }
        Err(ApiError::new(403, "this credential opens nothing in this game"))
    }
}

/// Where a viewer's count is kept in [`Counts`].
pub fn slot(viewer: Viewer) -> usize {
    match viewer {
        Viewer::Side(s) => usize::from(s) & 1,
        Viewer::Spectator => 2,
        Viewer::Umpire => 3,
    }
}

/// Whether `viewer` may read a log line seen by sides `vis`.
fn line_visible(vis: [bool; 2], viewer: Viewer) -> bool {
    match viewer {
        Viewer::Side(s) => vis[usize::from(s) & 1],
        Viewer::Spectator => vis[0] && vis[1],
        Viewer::Umpire => true,
    }
}

/// The last place (`[x, y]`, two numbers) an action's JSON names, depth first.
fn last_point(v: &Value) -> Option<[f64; 2]> {
    match v {
        Value::Array(a) if a.len() == 2 && a.iter().all(Value::is_number) => Some([a[0].as_f64()?, a[1].as_f64()?]),
        Value::Array(a) => a.iter().rev().find_map(last_point),
        Value::Object(o) => o.values().rev().find_map(last_point),
        _ => None,
    }
}

/// Put `p` in place of the last place an action's JSON names (see [`last_point`]).
fn set_last_point(v: &mut Value, p: [f64; 2]) -> bool {
    match v {
        Value::Array(a) if a.len() == 2 && a.iter().all(Value::is_number) => {
            *v = json!(p);
            true
        }
        Value::Array(a) => a.iter_mut().rev().any(|x| set_last_point(x, p)),
        Value::Object(o) => o.values_mut().rev().any(|x| set_last_point(x, p)),
        _ => false,
    }
}

/// The published commitment to a seed: SHA-256 of `volley seed <seed> <salt>` (the seed in
/// decimal, the salt as kept; without a salt, of `volley seed <seed>`), in hex.
pub fn seed_commitment(seed: u64, salt: Option<&str>) -> String {
    use sha2::Digest;
    let text = match salt {
        Some(salt) => format!("volley seed {seed} {salt}"),
        None => format!("volley seed {seed}"),
    };
    sha2::Sha256::digest(text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// How many battles of computer players alone a server fights at once.
pub const COMPUTER_BATTLES: usize = 16;

/// How many games a server keeps in memory at most by default ([`Server::new`]), however
/// small; the others are in the store and rebuilt from their actions when asked for.
pub const GAMES_IN_MEMORY: usize = 100_000;

/// How much memory the games a server keeps idle may take by default, bytes (by
/// [`Game::bytes`]'s estimate): 256 MiB.
pub const MEMORY_FOR_GAMES: usize = 256 << 20;

/// The games in memory, each with when it was last asked for and its size as last seen; at most
/// `limit` of them, and at most `budget` bytes by their estimates, once the idle ones can be let
/// go.
struct Games {
    map: HashMap<String, Kept>,
    /// Counts requests, for "last asked for".
    clock: u64,
    limit: usize,
    /// Bytes the games in memory may take, by [`Game::bytes`].
    budget: usize,
}

/// A game in memory, when it was last asked for, and its [`Game::bytes`] when last seen
/// unlocked (a game busy now counts as it was).
struct Kept {
    game: Arc<Mutex<Game>>,
    used: u64,
    bytes: usize,
}

impl Games {
    /// The game `id` if it is in memory, marked as just asked for.
    fn get(&mut self, id: &str) -> Option<Arc<Mutex<Game>>> {
        self.clock += 1;
        let clock = self.clock;
        self.map.get_mut(id).map(|k| {
            k.used = clock;
            k.game.clone()
        })
    }

    /// Keep `game` as `id` (unless another request loaded it first: then that one), and let the
    /// least recently asked-for idle games go until at most `limit`, and `budget` bytes, are kept.
    fn insert(&mut self, id: &str, game: Arc<Mutex<Game>>) -> Arc<Mutex<Game>> {
        self.clock += 1;
        let used = self.clock;
        let bytes = game.try_lock().map_or(Game::BASE, |g| g.bytes());
        let kept = self.map.entry(id.to_string()).or_insert(Kept { game, used, bytes }).game.clone();
        self.let_go(Some(id));
        kept
    }

    /// The games' estimated bytes, as last seen.
    fn bytes(&self) -> usize {
        self.map.values().map(|k| k.bytes).sum()
    }

    /// Let the least recently asked-for idle games go (but `keep`) until at most `limit` are
    /// kept taking at most `budget` bytes. A game is idle when nothing else holds it (no
    /// request, no computer player thinking); its watchers listen on the server's channel for
    /// it, which outlives it. Everything it holds is in the store, so letting it go loses nothing.
    fn let_go(&mut self, keep: Option<&str>) {
        // Each game's size as it is now, where it is not busy.
        for k in self.map.values_mut() {
            if let Ok(g) = k.game.try_lock() {
                k.bytes = g.bytes();
            }
        }
        if self.map.len() <= self.limit && self.bytes() <= self.budget {
            return;
        }
        let mut idle: Vec<(u64, String, usize)> = self
            .map
            .iter()
            // Held by nothing but this map.
            .filter(|(other, k)| Some(other.as_str()) != keep && Arc::strong_count(&k.game) == 1)
            .filter_map(|(other, k)| match k.game.try_lock() {
                Ok(g) => (!g.thinking).then(|| (k.used, other.clone(), k.bytes)),
                // Broken by an earlier failure: let it go, to be rebuilt from the store.
                Err(std::sync::TryLockError::Poisoned(_)) => Some((k.used, other.clone(), k.bytes)),
                Err(std::sync::TryLockError::WouldBlock) => None,
            })
            .collect();
        idle.sort_unstable();
        let mut bytes = self.bytes();
        for (_, other, b) in idle {
            if self.map.len() <= self.limit && bytes <= self.budget {
                break;
            }
            self.map.remove(&other);
            bytes = bytes.saturating_sub(b);
        }
    }

    /// Whether another game may come into memory: fewer than twice the limit, in games and in
    /// bytes, once the idle ones are let go (a game being played or thought about stays while
    /// it is).
    fn has_room(&mut self) -> bool {
        self.let_go(None);
        self.map.len() < self.limit.saturating_mul(2) && self.bytes() < self.budget.saturating_mul(2)
    }
}

/// The server's games, shared by all requests.
#[derive(Clone)]
pub struct Server {
    store: Arc<dyn Store>,
    games: Arc<Mutex<Games>>,
    thinking: Arc<Thinking>,
    /// The scenarios offered: the bundled ones, and a folder's.
    library: catalog::Library,
    /// Who watches each game now, by role (side 0, side 1, the umpire): live channels open.
    presence: Arc<Mutex<HashMap<String, [u32; 3]>>>,
    /// Each watched game's channel, kept here rather than by the game so that a game in memory
    /// may be let go while it is watched, and loaded again onto the same channel (issue 30, 1).
    channels: Arc<Mutex<HashMap<String, broadcast::Sender<Counts>>>>,
}

/// A live channel's presence in a game, counted while it lasts ([`Server::here`]).
pub struct Here {
    presence: Arc<Mutex<HashMap<String, [u32; 3]>>>,
    id: String,
    slot: Option<usize>,
}

impl Drop for Here {
    fn drop(&mut self) {
        let (Some(slot), Ok(mut p)) = (self.slot, self.presence.lock()) else { return };
        if let Some(c) = p.get_mut(&self.id) {
            c[slot] = c[slot].saturating_sub(1);
            if c.iter().all(|&n| n == 0) {
                p.remove(&self.id);
            }
        }
    }
}

/// The computer players' work: games waiting for a computer's decision, taken one decision at a
/// time, in turn, by at most `max` threads — so that however many computers must think, people's
/// requests keep the other cores (and the async runtime's blocking threads) to themselves.
struct Thinking {
    queue: Mutex<std::collections::VecDeque<Arc<Mutex<Game>>>>,
    active: std::sync::atomic::AtomicUsize,
    max: usize,
}

impl Thinking {
    fn new() -> Self {
        // One core for people on a machine of two; all but one elsewhere.
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
        Thinking { queue: Mutex::default(), active: Default::default(), max: cores.saturating_sub(1).max(1) }
    }
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

/// The answer when memory is full of games in play.
fn busy() -> ApiError {
    ApiError::new(503, "the server has as many games in play as it can hold: try again soon")
}

fn lock<T>(m: &Mutex<T>) -> Result<std::sync::MutexGuard<'_, T>, ApiError> {
    m.lock().map_err(|_| ApiError::internal("a game's lock was poisoned by an earlier failure"))
}

impl Server {
    /// A server keeping its games in `store`, and while they are idle at most
    /// [`MEMORY_FOR_GAMES`] of them in memory by their estimated size (and at most
    /// [`GAMES_IN_MEMORY`] however small).
    pub fn new(store: Arc<dyn Store>) -> Self {
        Self::with_memory_for(store, GAMES_IN_MEMORY)
    }

    /// A server keeping its games in `store`, and at most `games` of them (at least one) in
    /// memory while they are idle (and at most [`MEMORY_FOR_GAMES`] by their estimated size):
    /// games being played or thought about stay (a watched game does not: its watchers listen
    /// on the server's channel for it).
    pub fn with_memory_for(store: Arc<dyn Store>, games: usize) -> Self {
        Self::with_memory(store, games, MEMORY_FOR_GAMES)
    }

    /// A server keeping its games in `store`, and while they are idle at most `games` of them
    /// (at least one) taking at most `bytes` by their estimates: games being played or thought
    /// about stay (a watched game does not: its watchers listen on the server's channel for it).
    pub fn with_memory(store: Arc<dyn Store>, games: usize, bytes: usize) -> Self {
        let games = Games { map: HashMap::new(), clock: 0, limit: games.max(1), budget: bytes };
        Server {
            store,
            games: Arc::new(Mutex::new(games)),
            thinking: Arc::new(Thinking::new()),
            library: catalog::Library::default(),
            presence: Arc::default(),
            channels: Arc::default(),
        }
    }

    /// The channel for game `id`, being loaded: the one its watchers listen on if it has any,
    /// else a new one (kept by the server only once someone watches: [`Server::watch`]).
    fn channel(&self, id: &str) -> Result<broadcast::Sender<Counts>, ApiError> {
        Ok(lock(&self.channels)?.get(id).cloned().unwrap_or_else(|| broadcast::channel(64).0))
    }

    /// How many games' channels the server keeps (for tests: they go with their watchers).
    pub fn channels_kept(&self) -> usize {
        self.channels.lock().map_or(0, |c| c.values().filter(|tx| tx.receiver_count() > 0).count())
    }

    /// Counts a live channel of `role` in game `id` as present while the value lives (sides and
    /// the umpire; a spectator is not counted).
    pub fn here(&self, id: &str, role: Viewer) -> Here {
        let slot = match role {
            Viewer::Side(s) if s < 2 => Some(usize::from(s)),
            Viewer::Umpire => Some(2),
            _ => None,
        };
        if let (Some(slot), Ok(mut p)) = (slot, self.presence.lock()) {
            p.entry(id.to_string()).or_default()[slot] += 1;
        }
        Here { presence: self.presence.clone(), id: id.to_string(), slot }
    }

    /// Whether each side and the umpire have a live channel open on game `id` now.
    fn present(&self, id: &str) -> [bool; 3] {
        self.presence.lock().ok().and_then(|p| p.get(id).map(|c| c.map(|n| n > 0))).unwrap_or_default()
    }

    /// This server, offering `library`'s scenarios (the bundled ones and a folder's) for new
    /// games. A game keeps its scenario's text: it plays on whatever becomes of the file.
    pub fn offering(mut self, library: catalog::Library) -> Self {
        self.library = library;
        self
    }

    /// The scenarios this server offers.
    pub fn library(&self) -> &catalog::Library {
        &self.library
    }

    /// How many games are in memory now.
    pub fn games_in_memory(&self) -> usize {
        self.games.lock().map_or(0, |g| g.map.len())
    }

    /// The estimated bytes of the games in memory now (what the memory budget counts).
    pub fn memory_for_games(&self) -> usize {
        self.games.lock().map_or(0, |g| g.bytes())
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
                    // Held results: a release may have let a computer player go on.
                    _ if g.holding => g.players.iter().any(|p| p != "human"),
                    (Some(_), Some(s)) => computer(s),
                    (Some(_), None) => false,
                    (None, _) => true,
                };
                if maybe && let Ok(game) = self.game(&g.id) {
                    self.kick(&game);
                }
            }
        }
    }

    /// Create a game. Returns its id, the creator's credentials (its own seat's token, every
    /// seat's in a hot-seat game, or the umpire's) and an invitation for every other person's
    /// seat and for the umpire, each claimed once ([`Server::claim`]). Nobody but the claimer
    /// ever receives a seat's token.
    pub fn create(&self, req: &NewGame) -> Result<Value, ApiError> {
        let (scenario_name, src) = self.scenario_of(req)?;
        if req.players.len() != 2 {
            return Err(ApiError::bad(format!("players: two, one a side; found {}", req.players.len())));
        }
        if let Some(p) = req.players.iter().find(|p| !PLAYERS.contains(&p.as_str())) {
            return Err(ApiError::bad(format!("player {p:?}: expected one of {PLAYERS:?}")));
        }
        let human = |s: usize| req.players.get(s).is_some_and(|p| p == "human");
        // Unless told otherwise, the creator of a game with an umpire is the umpire, who invites
        // both sides: a side's player holding the umpire's invitation could claim it himself.
        let creator = match req.creator {
            Some(c) => c,
            None if req.umpire || req.hold_results => Creator::Umpire,
            None => (0..2).find(|&s| human(s)).map_or(Creator::Spectator, |s| Creator::Side(s as u8)),
        };
        match creator {
            Creator::Side(s) if !human(usize::from(s)) => {
                return Err(ApiError::bad(format!("creator: side {s} is played by the computer, not a person")));
            }
            Creator::HotSeat if !human(0) || !human(1) => {
                return Err(ApiError::bad("creator: a hot-seat game needs a person on each side"));
            }
            _ => {}
        }
        {
            let mut games = lock(&self.games)?;
            if !games.has_room() {
                return Err(busy());
            }
            // Battles of computers alone think without end and hold their memory: a few at a time.
            if !req.players.iter().any(|p| p == "human") {
                let running = games
                    .map
                    .values()
                    .filter(|k| {
                        k.game.try_lock().is_ok_and(|g| !g.over() && g.record.seats.iter().all(|s| s.player != "human"))
                    })
                    .count();
                if running >= COMPUTER_BATTLES {
                    return Err(ApiError::new(
                        503,
                        format!("{running} battles of computers alone are being fought: watch one, or try again later"),
                    ));
                }
            }
        }
        // An umpire only when asked for: an umpire's seat a side's player could claim himself
        // would let him see everything.
        let has_umpire = req.umpire || req.hold_results || creator == Creator::Umpire;
        // A scenario sent as text is checked here (an offered one was checked before).
        let (mut ruleset, mut fresh) = catalog::load(&src).map_err(|e| match req.scenario_text {
            Some(_) => ApiError::bad(format!("the scenario does not load:\n{e}")),
            None => ApiError::internal(e.to_string()),
        })?;
        let mut src = src;
        if req.rules_shown {
            // The rules shown: the scenario's own switch, kept in the game's text.
            if ruleset != "en-avant" {
                return Err(ApiError::bad(format!(
                    "rules_shown: only En Avant keeps its rules from the players ({ruleset} shows every reason)"
                )));
            }
            let text = volley_scenario::edit::set(&src.text, "rules.rules_hidden", "false")
                .map_err(|e| ApiError::bad(format!("rules_shown: {}", e.0)))?;
            src = Source::new(src.path.clone(), text);
            (ruleset, fresh) =
                catalog::load(&src).map_err(|e| ApiError::bad(format!("the scenario does not load:\n{e}")))?;
        }
        let seed = match req.seed {
            Some(s) => s,
            None => u64::from_str_radix(&secret(8)?, 16).unwrap_or(1),
        };
        let mine = |s: usize| match creator {
            Creator::Side(c) => usize::from(c) == s,
            Creator::HotSeat => true,
            Creator::Umpire | Creator::Spectator => false,
        };
        let seats = req
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let invitation = if p == "human" && !mine(i) { Some(secret(16)?) } else { None };
                Ok(Seat { player: p.clone(), token: secret(16)?, invitation })
            })
            .collect::<Result<Vec<_>, ApiError>>()?;
        let record = GameRecord {
            id: secret(8)?,
            ruleset: ruleset.to_string(),
            scenario_name,
            scenario: src.text.clone(),
            seed,
            seats,
            created: now(),
            umpire: if has_umpire { Some(secret(16)?) } else { None },
            umpire_invitation: if has_umpire && creator != Creator::Umpire { Some(secret(16)?) } else { None },
            hot_seat: creator == Creator::HotSeat,
            private: req.private,
            hold_results: req.hold_results,
            seed_chosen: req.seed.is_some(),
            public_draws: true,
            status: None,
            to_act: None,
            open: req.open && !req.private,
            salt: Some(secret(16)?),
            umpire_invited_by: match creator {
                Creator::Side(s) if has_umpire => Some(s),
                _ => None,
            },
        };
        // Where it stands before its first action, for lists that must not rebuild it.
        let record = GameRecord {
            status: Some(fresh.status()),
            to_act: match fresh.actor() {
                Actor::Side(s) => Some(s),
                _ => None,
            },
            ..record
        };
        self.store.create_game(&record).map_err(ApiError::store)?;
        let game = self.game(&record.id)?;
        self.kick(&game);
        let mut credentials = Vec::new();
        let mut invitations = Vec::new();
        for (i, s) in record.seats.iter().enumerate() {
            let role = json!({"side": i});
            if let Some(code) = &s.invitation {
                invitations.push(json!({"role": role, "code": code}));
            } else if s.player == "human" {
                credentials.push(json!({"role": role, "token": s.token}));
            }
        }
        match (&record.umpire_invitation, &record.umpire) {
            (Some(code), _) => invitations.push(json!({"role": "umpire", "code": code})),
            (None, Some(token)) => credentials.push(json!({"role": "umpire", "token": token})),
            (None, None) => {}
        }
        let seats: Vec<Value> = record.seats.iter().map(|s| json!({"player": s.player})).collect();
        Ok(json!({
            "id": record.id,
            "seats": seats,
            "credentials": credentials,
            "invitations": invitations,
            "hot_seat": record.hot_seat,
            "private": record.private,
            "hold_results": record.hold_results,
            "umpire": record.umpire.is_some(),
            "seed": seed_info(&record, false),
        }))
    }

    /// A new game's scenario: its name in lists and its text, from the scenarios offered or
    /// from the text sent (checked: a scenario that does not load is refused with every
    /// problem at its line and column, the file named as `scenario` names it).
    fn scenario_of(&self, req: &NewGame) -> Result<(String, Source), ApiError> {
        let Some(text) = &req.scenario_text else {
            let found = self
                .library
                .find(&req.scenario)
                .ok_or_else(|| ApiError::bad(format!("unknown scenario {:?}: see /api/scenarios", req.scenario)))?;
            return Ok((found.name.to_string(), Source::new(found.path, found.text)));
        };
        let label = req.scenario.trim();
        if self.library.find(label).is_some() {
            return Err(ApiError::bad(format!(
                "scenario: {label:?} names a scenario this server offers; name the scenario sent otherwise (its file's name)"
            )));
        }
        if label.chars().count() > SCENARIO_NAME_LONGEST {
            return Err(ApiError::bad(format!(
                "scenario: a name of at most {SCENARIO_NAME_LONGEST} characters for the scenario sent"
            )));
        }
        let src = Source::new(if label.is_empty() { "scenario.toml" } else { label }, text.as_str());
        // Loaded (and so checked) once, by `create`: a big table is costly to load.
        let name = match catalog::card(label, text, None) {
            Some(card) if label.is_empty() => card.title,
            _ if label.is_empty() => "scenario.toml".to_string(),
            _ => label.to_string(),
        };
        Ok((name, src))
    }

    /// Claim an invitation to game `id`: the first to present `code` gets the role's credential;
    /// anyone after is refused (409). A code that is not one of the game's is refused (403).
    pub fn claim(&self, id: &str, code: &str) -> Result<Value, ApiError> {
        let game = self.game(id)?;
        let (role, token) = {
            let g = lock(&game)?;
            let r = &g.record;
            let seat = r.seats.iter().position(|s| s.invitation.as_deref() == Some(code));
            match (seat, &r.umpire_invitation, &r.umpire) {
                (Some(i), _, _) => (json!({"side": i}), r.seats[i].token.clone()),
                (None, Some(u), Some(token)) if u == code => (json!("umpire"), token.clone()),
                _ => return Err(ApiError::new(403, "this invitation is not one of this game's")),
            }
        };
        if !self.store.claim(id, code).map_err(ApiError::store)? {
            return Err(ApiError::new(409, "this invitation has been claimed already: ask for a new game"));
        }
        {
            let mut g = lock(&game)?;
            if role == json!("umpire") {
                g.umpire_seated = true;
            } else if let Some(taken) = role["side"].as_u64().and_then(|i| g.seats_taken.get_mut(i as usize)) {
                *taken = true;
            }
            let _ = g.tx.send(g.counts());
        }
        Ok(json!({"id": id, "role": role, "token": token}))
    }

    /// The game `id`, loaded from the store (and rebuilt) if it is not in memory.
    fn game(&self, id: &str) -> Result<Arc<Mutex<Game>>, ApiError> {
        {
            let mut games = lock(&self.games)?;
            if let Some(g) = games.get(id) {
                return Ok(g);
            }
            if !games.has_room() {
                return Err(busy());
            }
        }
        let (record, actions) = self
            .store
            .game(id)
            .map_err(ApiError::store)?
            .ok_or_else(|| ApiError::new(404, format!("there is no game {id:?}")))?;
        let mut marks = [None, None];
        let (live, log, seen) = rebuild_marked(&record, &actions, actions.len(), &mut marks)?;
        // Results held and not yet released: the players see the game from before them.
        let released = self.store.released(id).map_err(ApiError::store)?;
        let hold = match actions.iter().rev().find(|a| a.held) {
            Some(a) if !released.contains(&a.n) => {
                let (shown, _, _) = rebuild(&record, &actions, a.n as usize - 1)?;
                Some(Hold { from: a.n, shown })
            }
            _ => None,
        };
        let mut seats_taken = [true, true];
        for (taken, seat) in seats_taken.iter_mut().zip(&record.seats) {
            if let Some(code) = &seat.invitation {
                *taken = self.store.claimed(id, code).map_err(ApiError::store)?;
            }
        }
        let umpire_seated = match (&record.umpire, &record.umpire_invitation) {
            (None, _) => false,
            (Some(_), None) => true,
            (Some(_), Some(code)) => self.store.claimed(id, code).map_err(ApiError::store)?,
        };
        let tx = self.channel(id)?;
        let view_bytes = serde_json::to_vec(&live.view(Viewer::Umpire)).map_or(0, |v| v.len());
        let game = Arc::new(Mutex::new(Game {
            view_bytes,
            n: actions.len() as u64,
            record,
            live,
            log,
            actions,
            seen,
            tx,
            thinking: false,
            hold,
            umpire_seated,
            seats_taken,
            refusals: std::collections::VecDeque::new(),
            marks,
        }));
        // Another request may have loaded it meanwhile: the first is kept.
        let game = lock(&self.games)?.insert(id, game);
        // A computer player left to act (after a restart, a release) goes on.
        self.kick(&game);
        Ok(game)
    }

    /// The game as the holder of `token` may see it (a spectator without one). The umpire may
    /// look as a side sees it (`view_as`). Once the battle is over, everyone sees everything.
    pub fn view(&self, id: &str, token: Option<&str>, view_as: Option<u8>) -> Result<Value, ApiError> {
        let game = self.game(id)?;
        let g = lock(&game)?;
        let role = g.role(token)?;
        let looking = match (role, view_as) {
            (_, None) => role,
            (Viewer::Umpire, Some(s)) if s < 2 => Viewer::Side(s),
            (Viewer::Umpire, Some(s)) => return Err(ApiError::bad(format!("view_as: side 0 or 1, not {s}"))),
            (_, Some(_)) => return Err(ApiError::new(403, "only the umpire may look as another sees")),
        };
        let viewer = if g.over() { Viewer::Umpire } else { looking };
        // The umpire sees the game as it is; the players, without results held for him.
        let live = if role == Viewer::Umpire { g.live.as_ref() } else { g.public() };
        let held = g.hold.is_some();
        let actor = live.actor();
        let mine = !held && matches!((actor, role), (Actor::Side(a), Viewer::Side(s)) if a == s);
        let candidates: Vec<Value> = if mine {
            live.candidates()
                .into_iter()
                .map(|(action, text, points)| json!({"action": action, "text": text, "points": points}))
                .collect()
        } else {
            Vec::new()
        };
        let log = log_for(&g.log, &g.seen, viewer, g.upto(role));
        let seat = match role {
            Viewer::Side(s) => Some(s),
            _ => None,
        };
        Ok(json!({
            "id": g.record.id,
            "ruleset": g.record.ruleset,
            "scenario": g.record.scenario_name,
            "players": g.record.seats.iter().map(|s| s.player.clone()).collect::<Vec<_>>(),
            "seat": seat,
            "role": role,
            "viewing_as": looking,
            "hot_seat": g.record.hot_seat,
            "private": g.record.private,
            "seed": seed_info(&g.record, g.over()),
            "chance": g.live.chance_words(),
            "hold_results": g.record.hold_results,
            "held": held,
            "umpire": match (&g.record.umpire, g.umpire_seated) {
                (None, _) => "none",
                (Some(_), false) => "invited",
                (Some(_), true) => "seated",
            },
            // The side whose player made the game holding the umpire's invitation (he could
            // have claimed it himself), told to everyone.
            "umpire_invited_by": g.record.umpire_invited_by,
            "actor": actor,
            "phase": live.phase(),
            "outcome": live.outcome(),
            "actions": g.count(if role == Viewer::Umpire { Viewer::Umpire } else { viewer }),
            "thinking": g.thinking,
            "view": live.view(viewer),
            "candidates": candidates,
            "umpire_units": if role == Viewer::Umpire { g.live.umpire_units() } else { None },
            "umpire_schema": if role == Viewer::Umpire { g.live.umpire_schema() } else { None },
            "umpire_values": if role == Viewer::Umpire { g.live.umpire_values() } else { None },
            // Whether a side may know anything the other may not (a hot seat's page hands the
            // screen over between the sides only then).
            "secrets": g.live.has_secrets(),
            "refusals": if role == Viewer::Umpire { Some(&g.refusals) } else { None },
            "since": since(&g, role, looking, viewer),
            "undo": may_undo(&g, role),
            "seats": seats(&g, self.present(id)),
            "last_action_at": last_known_at(&g, role, viewer),
            "log": log,
        }))
    }

    /// A step of a game's replay: the game after the `step`th action a spectator may know of,
    /// as a spectator sees it; once the battle is over, after `step` actions of all of them, as
    /// the umpire sees it.
    ///
    /// With `turn`, the step asked for is the first at which the battle stands in that turn (or
    /// a later one; the last step if it never does): `step` is then ignored.
    pub fn replay(&self, id: &str, step: u64, turn: Option<u32>, token: Option<&str>) -> Result<Value, ApiError> {
        let game = self.game(id)?;
        let (record, actions, seen, over, upto, role) = {
            let g = lock(&game)?;
            let role = g.role(token)?;
            (g.record.clone(), g.actions.clone(), g.seen.clone(), g.over(), g.upto(role) as usize, role)
        };
        // A side's player replays what his side knows (his own orders among it), the umpire
        // everything, anyone else what a spectator knows; once it is over, everyone everything.
        let viewer = if over { Viewer::Umpire } else { role };
        let steps: Vec<usize> = if over {
            (1..=actions.len()).collect()
        } else {
            seen.iter()
                .take(upto)
                .enumerate()
                .filter(|(_, s)| viewer == Viewer::Umpire || s[slot(viewer).min(2)])
                .map(|(i, _)| i + 1)
                .collect()
        };
        let step = match turn {
            None => step.min(steps.len() as u64),
            Some(n) => first_step_in_turn(&record, &actions, &steps, n)?,
        };
        let upto = if step == 0 { 0 } else { steps[step as usize - 1] };
        let (live, log, seen) = rebuild(&record, &actions, upto)?;
        let log = log_for(&log, &seen, viewer, upto as u64);
        Ok(
            json!({"step": step, "total": steps.len(), "view": live.view(viewer), "log": log, "as": viewer, "over": over}),
        )
    }

    /// A watcher's channel: it hears, after each change, how many actions each viewer may know
    /// of ([`slot`] picks the watcher's). Also the watcher's role, from its credential.
    pub fn watch(
        &self,
        id: &str,
        token: Option<&str>,
    ) -> Result<(Viewer, Counts, broadcast::Receiver<Counts>), ApiError> {
        let game = self.game(id)?;
        let g = lock(&game)?;
        let role = g.role(token)?;
        // The game's channel is the server's while anyone listens: the game may be let go and
        // loaded again, onto this channel.
        let rx = g.tx.subscribe();
        let mut channels = lock(&self.channels)?;
        // (Those nobody listens on any more are dropped as the map doubles.)
        if channels.len() >= 64 && channels.len().is_power_of_two() {
            channels.retain(|_, tx| tx.receiver_count() > 0);
        }
        channels.entry(id.to_string()).or_insert_with(|| g.tx.clone());
        Ok((role, g.counts(), rx))
    }

    /// The server's signing key, made (and kept in the store) on first use.
    pub fn key(&self) -> Result<crate::signing::Key, ApiError> {
        let secret = self.store.setting("ed25519", &secret(32)?).map_err(ApiError::store)?;
        crate::signing::Key::from_hex(&secret).map_err(ApiError::internal)
    }

    /// Game `id`'s log, as `volley replay` reads it, signed with the server's key: only once
    /// the battle is over, for it holds every side's orders and the seed. Its draws come from
    /// the seed by the count of actions everyone may know of ([`DrawScheme::PerPublicAction`]; the
    /// action's number in games kept before), so a replay checks every one.
    pub fn export(&self, id: &str) -> Result<String, ApiError> {
        let game = self.game(id)?;
        let g = lock(&game)?;
        if !g.over() {
            return Err(ApiError::new(
                409,
                "the log is published when the battle is over: it holds every side's orders and the seed",
            ));
        }
        let path =
            catalog::find(&g.record.scenario_name).map_or(g.record.scenario_name.clone(), |b| b.path.to_string());
        let src = Source::new(path, g.record.scenario.clone());
        let header = Header {
            format: FORMAT.to_string(),
            ruleset: g.record.ruleset.clone(),
            variant: g.live.variant().map(str::to_string),
            scenario_path: src.path.clone(),
            scenario_hash: src.hash(),
            scenario: src.text.clone(),
            seed: g.record.seed,
            agents: g.record.seats.iter().map(|s| s.player.clone()).collect(),
            seed_chosen: g.record.seed_chosen,
            draws: if g.record.public_draws { DrawScheme::PerPublicAction } else { DrawScheme::PerAction },
        };
        let entries = g
            .actions
            .iter()
            .map(|a| {
                Ok(Entry {
                    n: a.n,
                    by: serde_json::from_value(a.by.clone()).map_err(ApiError::internal)?,
                    action: a.action.clone(),
                    draws: serde_json::from_value(a.draws.clone()).map_err(ApiError::internal)?,
                })
            })
            .collect::<Result<Vec<_>, ApiError>>()?;
        let footer = Footer {
            actions: g.n,
            turns: g.live.phase().turn,
            outcome: g.live.outcome(),
            state_hash: volley_core::hash_hex(g.live.state_hash()),
        };
        let text = Log { header, entries, footer: Some(footer), signature: None }.to_jsonl();
        let sig = self.key()?.sign(&text);
        Ok(text + &Log::<Value>::signature_line(&sig))
    }

    /// Whether game `id` is over now (everyone may then see everything).
    pub fn is_over(&self, id: &str) -> Result<bool, ApiError> {
        let game = self.game(id)?;
        let over = lock(&game)?.over();
        Ok(over)
    }

    /// The holder of a side's `token` takes back that side's last action, as Rally the Troops
    /// allows: only while it is the game's last action, nothing was drawn for it (no die, no
    /// card), it showed the side nothing new of the enemy nor the enemy anything new of the
    /// side, and the side is still the one to act (the decision has not passed on). The action
    /// leaves the game's history (the store, the log, the replay and the signed export never
    /// had it), and watchers hear the count go back. Its number and the game's state after.
    pub fn undo(&self, id: &str, token: &str) -> Result<Value, ApiError> {
        let game = self.game(id)?;
        let mut g = lock(&game)?;
        let role = g.role(Some(token))?;
        let Viewer::Side(side) = role else {
            return Err(ApiError::new(403, "only a side takes back its own action"));
        };
        if g.over() {
            return Err(ApiError::new(409, "the battle is over: nothing is taken back"));
        }
        if g.hold.is_some() {
            return Err(ApiError::new(409, "the umpire is looking at the turn's results: nothing is taken back"));
        }
        let Some(last) = g.actions.last() else {
            return Err(ApiError::new(409, "nothing has been done yet"));
        };
        let n = last.n;
        let by: Actor = serde_json::from_value(last.by.clone()).map_err(ApiError::internal)?;
        if by != Actor::Side(side) {
            return Err(ApiError::new(409, "the last action is not yours: only your own last actions are taken back"));
        }
        if last.draws.as_array().is_some_and(|d| !d.is_empty()) {
            return Err(ApiError::new(409, "dice were thrown or a card drawn for it: it stands"));
        }
        if g.live.actor() != Actor::Side(side) {
            return Err(ApiError::new(409, "it passed the decision to the other side: it stands"));
        }
        let mut marks = [None, None];
        let (before, log, seen) = rebuild_marked(&g.record, &g.actions, g.actions.len() - 1, &mut marks)?;
        // Nothing new shown to anyone: the enemy's pieces as the side sees them, and the side's
        // pieces as the enemy sees them, are as many as before.
        let other = 1 - side.min(1);
        let count = |live: &dyn Live, viewer: u8, of: u8| {
            live.view(Viewer::Side(viewer)).pieces.iter().filter(|p| p.side == Some(of)).count()
        };
        let enemy_now = g.live.view(Viewer::Side(side)).pieces.into_iter().filter(|p| p.side == Some(other));
        let enemy_before = before.view(Viewer::Side(side)).pieces.into_iter().filter(|p| p.side == Some(other));
        let seen_more_of_enemy = serde_json::to_value(enemy_now.collect::<Vec<_>>()).map_err(ApiError::internal)?
            != serde_json::to_value(enemy_before.collect::<Vec<_>>()).map_err(ApiError::internal)?;
        if seen_more_of_enemy || count(g.live.as_ref(), other, side) > count(before.as_ref(), other, side) {
            return Err(ApiError::new(409, "it showed something new: it stands"));
        }
        self.store.take_back(&g.record.id, n).map_err(ApiError::store)?;
        g.live = before;
        g.log = log;
        g.seen = seen;
        g.marks = marks;
        g.actions.pop();
        g.n = n - 1;
        let _ = g.tx.send(g.counts());
        Ok(json!({"undone": n, "actor": g.live.actor(), "actions": g.count(role)}))
    }

    /// Take `action` as the holder of `token`: a side when it must act, or the umpire (whose
    /// actions the rules allow at any decision). The action is stored for good before this
    /// returns; then the computer players, if it is their turn, think on another thread.
    pub fn act(&self, id: &str, token: &str, action: &Value) -> Result<Value, ApiError> {
        let game = self.game(id)?;
        let role = {
            let mut g = lock(&game)?;
            let role = g.role(Some(token))?;
            // Held results first, and the players' own picture of who acts: that the battle
            // ended may be among what is held.
            let actor = if role == Viewer::Umpire { g.live.actor() } else { g.public().actor() };
            let by = match (role, actor) {
                (Viewer::Side(_), _) if g.hold.is_some() => {
                    return Err(ApiError::new(
                        409,
                        "the umpire is looking at the turn's results: wait until he releases them",
                    ));
                }
                (_, Actor::Terminal) => return Err(ApiError::new(409, "the battle is over")),
                (Viewer::Umpire, _) => Actor::Umpire,
                (Viewer::Side(s), Actor::Side(a)) if s == a => Actor::Side(s),
                (Viewer::Side(_), other) => {
                    return Err(ApiError::new(409, format!("it is not your turn: {other} must act")));
                }
                (Viewer::Spectator, _) => return Err(ApiError::new(403, "a spectator does not act")),
            };
            if let Err(e) = self.commit(&mut g, by, action) {
                // The umpire reads why a side's action was refused.
                if let (Actor::Side(side), 422) = (by, e.status)
                    && let Some(reason) = g.live.umpire_reason(by, action)
                {
                    let what = g.live.describe(action).unwrap_or_else(|| action.to_string());
                    if g.refusals.len() >= REFUSALS_KEPT {
                        g.refusals.pop_front();
                    }
                    let entry = json!({"side": side, "after": g.n, "action": what, "reason": reason});
                    g.refusals.push_back(entry);
                }
                return Err(e);
            }
            role
        };
        self.kick(&game);
        let g = lock(&game)?;
        // A side learns no more than its view would show: not what held results hold.
        let actor = if role == Viewer::Umpire { g.live.actor() } else { g.public().actor() };
        Ok(json!({"ok": true, "actions": g.count(role), "actor": actor, "held": g.hold.is_some()}))
    }

    /// Whether the holder of `token` (the side to act) may take `action` now, taking nothing:
    /// `{"legal": true, "text"}` (the action in words), or `{"legal": false, "why"}` with the rule
    /// set's reason and, given
    /// `from` (where the unit stands), `halt` and `halt_action`: the farthest place on the
    /// straight line from `from` to the action's last place that the rules allow, and the
    /// action that goes there. The page asks this while a unit is dragged. It tells nothing the
    /// side's own choices do not: whether its own moves are legal.
    pub fn check(&self, id: &str, token: &str, action: &Value, from: Option<[f64; 2]>) -> Result<Value, ApiError> {
        let game = self.game(id)?;
        let g = lock(&game)?;
        let role = g.role(Some(token))?;
        let live = g.public();
        let by = match (role, live.actor()) {
            (Viewer::Side(_), _) if g.hold.is_some() => {
                return Err(ApiError::new(409, "the umpire is looking at the turn's results"));
            }
            (Viewer::Side(s), Actor::Side(a)) if s == a => Actor::Side(s),
            (Viewer::Side(_), other) => {
                return Err(ApiError::new(409, format!("it is not your turn: {other} must act")));
            }
            _ => return Err(ApiError::new(403, "only the side to act checks its moves")),
        };
        let why = match live.check(by, action) {
            Ok(()) => return Ok(json!({"legal": true, "text": live.describe(action)})),
            Err(LiveError::Malformed(m)) => return Err(ApiError::bad(format!("not an action of this game: {m}"))),
            Err(LiveError::Refused(e)) => e.to_string(),
        };
        let why = why.strip_prefix("illegal: ").unwrap_or(&why).to_string();
        // The farthest legal place short of it on the straight line, found by halving.
        let halt = from.and_then(|from| {
            let to = last_point(action)?;
            let at = |t: f64| [from[0] + (to[0] - from[0]) * t, from[1] + (to[1] - from[1]) * t];
            let legal = |t: f64| {
                let mut a = action.clone();
                set_last_point(&mut a, at(t));
                live.check(by, &a).is_ok().then_some(a)
            };
            let (mut lo, mut hi) = (0.0, 1.0);
            let mut best = None;
            for _ in 0..14 {
                let mid = (lo + hi) / 2.0;
                match legal(mid) {
                    Some(a) => {
                        best = Some((mid, a));
                        lo = mid;
                    }
                    None => hi = mid,
                }
            }
            best.filter(|(t, _)| *t > 0.02).map(|(t, a)| (at(t), a))
        });
        Ok(match halt {
            Some((point, a)) => {
                json!({"legal": false, "why": why, "halt": point, "halt_text": live.describe(&a), "halt_action": a})
            }
            None => json!({"legal": false, "why": why}),
        })
    }

    /// Release the results held for the umpire (the holder of `token`): the players see them,
    /// with whatever he amended meanwhile, and play goes on.
    pub fn release(&self, id: &str, token: &str) -> Result<Value, ApiError> {
        let game = self.game(id)?;
        {
            let mut g = lock(&game)?;
            if g.role(Some(token))? != Viewer::Umpire {
                return Err(ApiError::new(403, "only the umpire releases results"));
            }
            let Some(from) = g.hold.as_ref().map(|h| h.from) else {
                return Err(ApiError::new(409, "no results are held"));
            };
            self.store.release(&g.record.id, from).map_err(ApiError::store)?;
            g.hold = None;
            let _ = g.tx.send(g.counts());
        }
        self.kick(&game);
        let g = lock(&game)?;
        Ok(json!({"ok": true, "actions": g.n, "actor": g.live.actor()}))
    }

    /// Apply `action` by `by` to a copy, store it, then keep the copy.
    fn commit(&self, g: &mut Game, by: Actor, action: &Value) -> Result<(), ApiError> {
        let n = g.n + 1;
        let mut next = g.live.clone_box();
        // The dice: from the count of actions everyone may know of (or this actor's secret
        // ones), so that secret orders never shift what anyone's dice come to.
        let draw_seed = if g.record.public_draws {
            let open = match g.live.visible(by, action) {
                Ok(seen) => seen[2],
                Err(LiveError::Malformed(e)) => {
                    return Err(ApiError::bad(format!("not an action of this game: {e}")));
                }
                Err(e) => return Err(ApiError::new(422, e.to_string())),
            };
            let k = g
                .seen
                .iter()
                .zip(&g.actions)
                .filter(|(s, a)| {
                    if open { s[2] } else { !s[2] && serde_json::from_value::<Actor>(a.by.clone()).ok() == Some(by) }
                })
                .count() as u64
                + 1;
            volley_core::log::draw_seed(g.record.seed, open, by, k)
        } else {
            Seeded::derive(g.record.seed, n)
        };
        let mut rng = Seeded::new(draw_seed);
        let mut rec = Recorder::new(&mut rng as &mut dyn Chance);
        let applied = match next.apply(by, action, &mut rec) {
            Ok(a) => a,
            Err(LiveError::Malformed(e)) => return Err(ApiError::bad(format!("not an action of this game: {e}"))),
            Err(LiveError::Refused(e)) => return Err(ApiError::new(422, e.to_string())),
        };
        let draws = serde_json::to_value(&rec.draws).map_err(ApiError::internal)?;
        let by_json = serde_json::to_value(by).map_err(ApiError::internal)?;
        let to_act = match next.actor() {
            Actor::Side(s) => Some(s),
            _ => None,
        };
        // A side's action that ends a turn (or the battle), in a game whose umpire releases
        // results: its results are held for him.
        let holds = g.record.hold_results
            && g.hold.is_none()
            && matches!(by, Actor::Side(_))
            && (next.phase().turn != g.live.phase().turn || next.outcome().is_some());
        let holding = holds || g.hold.is_some();
        // What the list shows is what the players see: nothing held.
        let public = g.count(Viewer::Spectator) + u64::from(applied.seen[2] && !holding);
        let (status, to_act) = if holding {
            let shown = g.hold.as_ref().map_or(g.live.as_ref(), |h| h.shown.as_ref());
            (shown.status(), None)
        } else {
            (next.status(), to_act)
        };
        let record = ActionRecord {
            n,
            by: by_json,
            action: action.clone(),
            draws,
            status: Some(status),
            to_act,
            public: Some(public),
            held: holds,
            holding,
            at: Some(now()),
        };
        self.store.append_action(&g.record.id, &record).map_err(ApiError::store)?;
        let before = std::mem::replace(&mut g.live, next);
        if holds {
            g.hold = Some(Hold { from: n, shown: before });
        }
        g.n = n;
        g.actions.push(record);
        g.seen.push(applied.seen);
        g.log.extend(applied.lines.into_iter().map(|(t, v)| (n, t, v)));
        if let Actor::Side(side) = by
            && usize::from(side) < g.marks.len()
        {
            let pieces = g.public().view(Viewer::Side(side)).pieces;
            g.marks[usize::from(side)] = Some(Mark { n, pieces });
        }
        let _ = g.tx.send(g.counts());
        Ok(())
    }

    /// If a computer player must act, let it play until a person must: on one of the computer
    /// players' threads ([`Thinking`]), or on this thread outside an async runtime (tools, tests).
    fn kick(&self, game: &Arc<Mutex<Game>>) {
        {
            let Ok(mut g) = game.lock() else { return };
            if g.thinking || !computer_to_act(&g) {
                return;
            }
            g.thinking = true;
        }
        if tokio::runtime::Handle::try_current().is_err() {
            while self.decide(game) {}
            return;
        }
        if let Ok(mut q) = self.thinking.queue.lock() {
            q.push_back(game.clone());
        }
        self.more_thinkers();
    }

    /// Start a computer players' thread if there is work and fewer than the most are running.
    fn more_thinkers(&self) {
        use std::sync::atomic::Ordering::SeqCst;
        let t = &self.thinking;
        loop {
            let waiting = t.queue.lock().is_ok_and(|q| !q.is_empty());
            let active = t.active.load(SeqCst);
            if !waiting || active >= t.max {
                return;
            }
            if t.active.compare_exchange(active, active + 1, SeqCst, SeqCst).is_ok() {
                break;
            }
        }
        let server = self.clone();
        let work = move || {
            loop {
                let next = server.thinking.queue.lock().ok().and_then(|mut q| q.pop_front());
                let Some(game) = next else { break };
                // One decision, then the next game's turn: no game keeps a thread to itself.
                if server.decide(&game)
                    && let Ok(mut q) = server.thinking.queue.lock()
                {
                    q.push_back(game);
                }
            }
            server.thinking.active.fetch_sub(1, SeqCst);
            // Work queued as this thread was finishing.
            server.more_thinkers();
        };
        match tokio::runtime::Handle::try_current() {
            Ok(h) => {
                h.spawn_blocking(work);
            }
            Err(_) => work(),
        }
    }

    /// One computer player's decision in `game`; whether a computer must decide again.
    fn decide(&self, game: &Arc<Mutex<Game>>) -> bool {
        let Ok(mut g) = game.lock() else { return false };
        if !computer_to_act(&g) {
            g.thinking = false;
            let _ = g.tx.send(g.counts());
            return false;
        }
        let Actor::Side(s) = g.live.actor() else { return false };
        let player = g.record.seats[usize::from(s)].player.clone();
        let seed = Seeded::derive(g.record.seed ^ 0x5eed, g.n + 1);
        let done = match g.live.choose(&player, seed) {
            Some(action) => self.commit(&mut g, Actor::Side(s), &action).is_err(),
            None => true,
        };
        if done {
            g.thinking = false;
            return false;
        }
        true
    }

    /// Every stored game but the private ones, newest first, with where it stands: as its last action left it (kept
    /// with the action), or, for a game not yet begun or whose actions were kept without it,
    /// from the game itself.
    pub fn list(&self) -> Result<Value, ApiError> {
        Ok(self.list_page(&Page { page: 1, per_page: usize::MAX, open: false })?.0)
    }

    /// One page of the public games, newest first ([`Page`]), and how many there are in all (of
    /// those the page chooses from). Only the page's games are looked at.
    ///
    /// # Errors
    /// The store failing.
    pub fn list_page(&self, page: &Page) -> Result<(Value, usize), ApiError> {
        let mut games: Vec<_> = self
            .store
            .games()
            .map_err(ApiError::store)?
            .into_iter()
            .filter(|g| !g.private && (!page.open || !g.open_seats.is_empty()))
            .collect();
        games.sort_by(|a, b| b.created.cmp(&a.created).then_with(|| b.id.cmp(&a.id)));
        let total = games.len();
        let skip = page.page.saturating_sub(1).saturating_mul(page.per_page);
        let games: Vec<_> = games.into_iter().skip(skip).take(page.per_page).collect();
        let mut out = Vec::with_capacity(games.len());
        for summary in games {
            let mut v = serde_json::to_value(&summary).map_err(ApiError::internal)?;
            // Whether results are held is shown as `held` (which everyone may know).
            if let Some(o) = v.as_object_mut() {
                o.remove("holding");
                o.insert("held".into(), json!(summary.holding));
            }
            // A game in memory says where it stands now (a release changes that without an
            // action); one not yet begun is loaded to say it.
            let kept = lock(&self.games)?.map.get(&summary.id).map(|k| k.game.clone());
            let game = match kept {
                Some(g) => Some(g),
                None if summary.status.is_none() => self.game(&summary.id).ok(),
                None => None,
            };
            if let Some(game) = game {
                let g = lock(&game)?;
                let shown = g.public();
                v["status"] = json!(shown.status());
                v["actions"] = json!(g.count(Viewer::Spectator));
                // As a stored action would say it: a first secret order must not show.
                v["to_act"] = match shown.actor() {
                    Actor::Side(s) => json!(s),
                    _ => Value::Null,
                };
                v["held"] = json!(g.hold.is_some());
            }
            out.push(v);
        }
        Ok((Value::Array(out), total))
    }
}

/// Which page of the public games to list (`GET /api/games?page=&per_page=&open=`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Page {
    /// The page, from 1.
    pub page: usize,
    /// Games a page.
    pub per_page: usize,
    /// Only games with a seat open to anyone.
    pub open: bool,
}

fn computer_to_act(g: &Game) -> bool {
    if g.hold.is_some() {
        return false;
    }
    match g.live.actor() {
        Actor::Side(s) => g.record.seats.get(usize::from(s)).is_some_and(|p| p.player != "human"),
        _ => false,
    }
}

/// Where the seed stands: chosen by the creator (and shown), or the server's, kept secret with
/// its commitment published until the game is over, then shown.
fn seed_info(record: &GameRecord, over: bool) -> Value {
    let shown = record.seed_chosen || over;
    json!({
        "chosen": record.seed_chosen,
        "commitment": seed_commitment(record.seed, record.salt.as_deref()),
        "value": if shown { Some(record.seed.to_string()) } else { None },
        "salt": if shown { record.salt.clone() } else { None },
    })
}

/// A game rebuilt from its record: the state, what happened, and who may know of each action.
type Rebuilt = (Box<dyn Live>, Vec<LogLine>, Vec<Seen>);

/// When the last action `viewer` may know of was taken (the game's creation if none): an
/// enemy's secret order moves nothing, not even the time.
fn last_known_at(g: &Game, role: Viewer, viewer: Viewer) -> u64 {
    let upto = usize::try_from(g.upto(role)).unwrap_or(usize::MAX);
    g.actions
        .iter()
        .zip(&g.seen)
        .take(upto)
        .rev()
        .find(|(_, s)| viewer == Viewer::Umpire || s[slot(viewer).min(2)])
        .map_or(g.record.created, |(a, _)| a.at.unwrap_or(g.record.created))
}

/// Each side's seat: who plays it, whether its invitation was claimed, and whether its player
/// has the game open now (a live channel).
fn seats(g: &Game, present: [bool; 3]) -> Value {
    g.record
        .seats
        .iter()
        .enumerate()
        .map(|(i, s)| {
            json!({
                "player": s.player,
                "taken": g.seats_taken.get(i).copied().unwrap_or(true),
                "connected": s.player != "human" || present.get(i).copied().unwrap_or(false),
            })
        })
        .collect()
}

/// Whether `role` may try to take back the game's last action: it is his side's, nothing was
/// drawn for it, his side is still to act, and nothing is held or over ([`Server::undo`] also
/// makes sure it showed nothing new).
fn may_undo(g: &Game, role: Viewer) -> bool {
    let Viewer::Side(side) = role else { return false };
    g.hold.is_none()
        && !g.over()
        && g.live.actor() == Actor::Side(side)
        && g.actions.last().is_some_and(|a| {
            serde_json::from_value::<Actor>(a.by.clone()).ok() == Some(Actor::Side(side))
                && a.draws.as_array().is_none_or(|d| d.is_empty())
        })
}

/// For a side's player looking as himself: what he has missed since his own last action — its
/// number among the actions he may know of (the log's lines numbered after it are new to him)
/// and the pieces as he saw them just after it (those moved since were moved by others).
/// `null` for anyone else, or before the side has acted.
fn since(g: &Game, role: Viewer, looking: Viewer, numbering: Viewer) -> Value {
    let Viewer::Side(side) = role else { return Value::Null };
    if looking != role {
        return Value::Null;
    }
    let Some(mark) = g.marks.get(usize::from(side)).and_then(Option::as_ref) else { return Value::Null };
    // Its count of actions up to and including its last one, as the log's lines are numbered
    // for it (every action, once the battle is over).
    let k = g
        .seen
        .iter()
        .take(usize::try_from(mark.n).unwrap_or(usize::MAX))
        .filter(|s| numbering == Viewer::Umpire || s[slot(numbering).min(2)])
        .count();
    json!({"n": k, "pieces": mark.pieces})
}

/// The lines of the log `viewer` may read, of the first `upto` actions, numbered by the actions
/// it may know of.
fn log_for(log: &[LogLine], seen: &[Seen], viewer: Viewer, upto: u64) -> Vec<Value> {
    // The viewer's own count of actions up to each action.
    let mut numbers = Vec::with_capacity(seen.len());
    let mut k = 0u64;
    for s in seen {
        if viewer == Viewer::Umpire || s[slot(viewer).min(2)] {
            k += 1;
        }
        numbers.push(k);
    }
    log.iter()
        .filter(|(n, _, vis)| *n <= upto && line_visible(*vis, viewer))
        .map(|(n, text, _)| {
            let shown = usize::try_from(*n).ok().and_then(|n| numbers.get(n.wrapping_sub(1))).copied().unwrap_or(*n);
            json!({"n": shown, "text": text})
        })
        .collect()
}

/// The first of the `steps` (counts of actions) at which the battle stands in turn `turn` or a
/// later one, by number from 1 (0 is the start); the last step if it never gets there.
fn first_step_in_turn(
    record: &GameRecord,
    actions: &[ActionRecord],
    steps: &[usize],
    turn: u32,
) -> Result<u64, ApiError> {
    let mut live = fresh_live(record)?;
    if live.phase().turn >= turn {
        return Ok(0);
    }
    let mut applied = 0;
    for (i, &upto) in steps.iter().enumerate() {
        for a in &actions[applied..upto] {
            reapply(live.as_mut(), a)?;
        }
        applied = upto;
        if live.phase().turn >= turn {
            return Ok(i as u64 + 1);
        }
    }
    Ok(steps.len() as u64)
}

/// The game as its record's scenario begins it.
fn fresh_live(record: &GameRecord) -> Result<Box<dyn Live>, ApiError> {
    let src = Source::new(record.scenario_name.clone(), record.scenario.clone());
    let (_, live) =
        catalog::load(&src).map_err(|e| ApiError::internal(format!("the stored scenario no longer loads: {e}")))?;
    Ok(live)
}

/// Stored action `a` applied again to `live`, with the draws it was kept with.
fn reapply(live: &mut dyn Live, a: &ActionRecord) -> Result<crate::live::Applied, ApiError> {
    let draws: Vec<volley_chance::Draw> = serde_json::from_value(a.draws.clone()).map_err(ApiError::internal)?;
    let by: Actor = serde_json::from_value(a.by.clone()).map_err(ApiError::internal)?;
    let mut script = Scripted::new(draws.iter().map(|d| d.value));
    live.apply(by, &a.action, &mut script)
        .map_err(|e| ApiError::internal(format!("stored action {} no longer applies: {e}", a.n)))
}

/// The game after the first `upto` of its actions, what happened, and who may know of each
/// action, rebuilt from the record.
fn rebuild(record: &GameRecord, actions: &[ActionRecord], upto: usize) -> Result<Rebuilt, ApiError> {
    rebuild_marked(record, actions, upto, &mut [None, None])
}

/// [`rebuild`], keeping each side's [`Mark`]: its last action and the pieces as it saw them.
fn rebuild_marked(
    record: &GameRecord,
    actions: &[ActionRecord],
    upto: usize,
    marks: &mut [Option<Mark>; 2],
) -> Result<Rebuilt, ApiError> {
    // Each side's last action among them (its index).
    let mut last = [None, None];
    for (i, a) in actions.iter().take(upto).enumerate() {
        if let Ok(Actor::Side(s)) = serde_json::from_value::<Actor>(a.by.clone())
            && let Some(l) = last.get_mut(usize::from(s))
        {
            *l = Some(i);
        }
    }
    let mut live = fresh_live(record)?;
    let mut log = Vec::new();
    let mut seen = Vec::new();
    for (i, a) in actions.iter().take(upto).enumerate() {
        let applied = reapply(live.as_mut(), a)?;
        log.extend(applied.lines.into_iter().map(|(t, v)| (a.n, t, v)));
        seen.push(applied.seen);
        for (side, l) in (0u8..).zip(last) {
            if l == Some(i) {
                marks[usize::from(side)] = Some(Mark { n: a.n, pieces: live.view(Viewer::Side(side)).pieces });
            }
        }
    }
    Ok((live, log, seen))
}
