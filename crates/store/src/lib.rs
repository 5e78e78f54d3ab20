//! Where games are kept: a [`Store`] trait, and [`SqliteStore`], the default.
//!
//! A game is its record (rule set, scenario text, seed, seats) and the list of actions taken, each
//! with the draws it made — the same facts as a battle log. The state is never stored: it is
//! rebuilt by replaying the actions, which the rule sets make exact. An action is durable when
//! [`Store::append_action`] returns: SQLite in WAL mode with `synchronous = FULL` has it on disk.
//!
//! What this crate is not: it knows no rule set and no HTTP; it stores JSON it is given.
#![deny(missing_docs)]

use std::path::Path;
use std::sync::Mutex;

use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};

/// Why the store failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database failed (the cause is the error's source).
    #[error("the database failed")]
    Db(#[from] rusqlite::Error),
    /// A stored record could not be read back.
    #[error("a stored record is damaged: {0}")]
    Damaged(#[from] serde_json::Error),
    /// Another action already has this number: two writers raced, and this one lost.
    #[error("action {n} of game {game} is already stored")]
    Conflict {
        /// The game.
        game: String,
        /// The action's number.
        n: u64,
    },
    /// Another server has the file.
    #[error("{0}")]
    Locked(String),
    /// The file could not be opened or locked.
    #[error("{0}")]
    Io(String),
    /// The store's lock was poisoned by a panic elsewhere.
    #[error("the game store is unusable after an earlier failure")]
    Poisoned,
}

/// Who sits in a seat of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    /// `human`, or a computer player's name (`random`, `heuristic`).
    pub player: String,
    /// The seat's secret: whoever holds it acts for the seat.
    pub token: String,
    /// The invitation that gives a person this seat: claimed once ([`Store::claim`]), by the
    /// browser that opens it. None for a computer player's seat, the creator's own seat and
    /// games kept before invitations were.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invitation: Option<String>,
}

/// A game as it was created.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Its id.
    pub id: String,
    /// The rule set's id.
    pub ruleset: String,
    /// The scenario's name or path, for lists.
    pub scenario_name: String,
    /// The scenario's text.
    pub scenario: String,
    /// The seed of its dice and cards.
    pub seed: u64,
    /// The seats, one a side, in side order.
    pub seats: Vec<Seat>,
    /// When it was created, seconds since 1970.
    pub created: u64,
    /// The umpire's secret: whoever holds it sees everything and takes the umpire's actions.
    /// None in games kept before the umpire was a role.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub umpire: Option<String>,
    /// The invitation that makes a person the umpire (claimed once), unless the creator is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub umpire_invitation: Option<String>,
    /// Both sides play at one screen, taking turns: the creator holds every person's seat.
    #[serde(default)]
    pub hot_seat: bool,
    /// Left out of the list of games: watched only by those given its link.
    #[serde(default)]
    pub private: bool,
    /// The umpire releases results: the outcome of each turn is shown to the umpire first, who
    /// may amend it before the players see it.
    #[serde(default)]
    pub hold_results: bool,
    /// The seed was chosen by the creator (a practice or analysis game), not drawn by the
    /// server and kept secret until the end.
    #[serde(default)]
    pub seed_chosen: bool,
    /// A secret mixed into the seed's published commitment, so that it cannot be found by
    /// trying seeds; shown with the seed at the end (none in games kept before this was).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub salt: Option<String>,
    /// Where the game stood when it was made, in words, and the side to act then: what a list
    /// shows before the first action (none in games kept before this was).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// The side to act when it was made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_act: Option<u8>,
    /// Each action's draws come from the seed by the count of actions everyone may know of
    /// (`volley_core::log::DrawScheme::PerPublicAction`); games kept before this was draw by the
    /// action's number.
    #[serde(default)]
    pub public_draws: bool,
    /// Open to anyone: the first page lists its seats not yet taken, with their invitations,
    /// for anyone to take with one click.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub open: bool,
    /// The side whose player made the game and was handed the umpire's invitation (he could
    /// claim it himself): every player is told.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub umpire_invited_by: Option<u8>,
}

/// One action taken, as stored: JSON the rule set reads back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ActionRecord {
    /// Its number, from 1.
    pub n: u64,
    /// Who took it (`{"side": 0}`, `"umpire"`).
    pub by: serde_json::Value,
    /// The action.
    pub action: serde_json::Value,
    /// The draws it made, with what each was for.
    pub draws: serde_json::Value,
    /// Where the game stood after it, in words, for lists of games (none in actions kept before
    /// this was): the last action's lets a list show every game without rebuilding it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// The side to act after it, if a side is (none once the game is over, and in actions kept
    /// before this was): a server starting up looks for games a computer player must go on with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_act: Option<u8>,
    /// How many of the actions so far, this one included, a spectator may know were taken (a
    /// side's secret orders are not counted), for lists of games. None in actions kept before
    /// this was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub public: Option<u64>,
    /// Its results are held for the umpire: the players see the game as it was before it until
    /// the umpire releases them ([`Store::release`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub held: bool,
    /// Results were held when it was kept (it, or an earlier action, started a hold not yet
    /// released): `status` and `to_act` are then what the players were shown, and a server
    /// starting up must look at the game to see whether a release let a computer player go on.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub holding: bool,
    /// When it was kept, in seconds since 1970 (none in games kept before it was).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<u64>,
}

/// A game in a list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameSummary {
    /// The game's id.
    pub id: String,
    /// The rule set.
    pub ruleset: String,
    /// The scenario's name.
    pub scenario_name: String,
    /// Who plays each side.
    pub players: Vec<String>,
    /// Actions taken so far that a spectator may know of (every action, in games kept before
    /// this was counted).
    pub actions: u64,
    /// Left out of public lists.
    #[serde(default)]
    pub private: bool,
    /// Both sides play at one screen.
    #[serde(default)]
    pub hot_seat: bool,
    /// When it was created.
    pub created: u64,
    /// Where it stands, in words, as its last action left it (none before its first action, or
    /// if that was kept without one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// The side to act, as its last action left it (none as for `status`, or if no side is to
    /// act).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_act: Option<u8>,
    /// Its last action was kept while results were held ([`ActionRecord::holding`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub holding: bool,
    /// A game open to anyone: its sides' seats not yet taken, each with the invitation that
    /// takes it (empty for any other game).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub open_seats: Vec<OpenSeat>,
}

/// A seat of a game open to anyone, not yet taken.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OpenSeat {
    /// The side.
    pub side: u8,
    /// The invitation that takes it.
    pub invitation: String,
}

/// Where games are kept. Implementations must make an action durable before
/// [`Store::append_action`] returns.
pub trait Store: Send + Sync {
    /// Keep a new game.
    fn create_game(&self, game: &GameRecord) -> Result<(), StoreError>;
    /// Keep an action; its number must be one more than the last one kept for the game.
    fn append_action(&self, game: &str, action: &ActionRecord) -> Result<(), StoreError>;
    /// Take back action `n` of game `game`, which must be its last (else a conflict): a side's
    /// undo, allowed only where nothing was drawn or revealed, leaves no trace in the history.
    fn take_back(&self, game: &str, n: u64) -> Result<(), StoreError>;
    /// A game and all its actions, in order.
    fn game(&self, id: &str) -> Result<Option<(GameRecord, Vec<ActionRecord>)>, StoreError>;
    /// Every game, newest first.
    fn games(&self) -> Result<Vec<GameSummary>, StoreError>;
    /// Spend the invitation `code` of game `game`: true the first time, false ever after (two
    /// browsers racing for it: exactly one gets true). The caller checks that the code is one
    /// of the game's.
    fn claim(&self, game: &str, code: &str) -> Result<bool, StoreError>;
    /// Whether the invitation `code` of game `game` has been claimed.
    fn claimed(&self, game: &str, code: &str) -> Result<bool, StoreError>;
    /// The setting `name`: the one kept, or `fresh`, kept from now on if there was none (the
    /// server's signing key is made this way, once).
    fn setting(&self, name: &str, fresh: &str) -> Result<String, StoreError>;
    /// Release the results held from action `from` of game `game` (see [`ActionRecord::held`]).
    fn release(&self, game: &str, from: u64) -> Result<(), StoreError>;
    /// The held actions of game `game` whose results have been released.
    fn released(&self, game: &str) -> Result<Vec<u64>, StoreError>;
}

/// Games in an SQLite file.
pub struct SqliteStore {
    conn: Mutex<Connection>,
    /// The lock on the database file that makes this its only server, if taken.
    _lock: Option<std::fs::File>,
}

impl SqliteStore {
    /// Open (or create) the store at `path`.
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        Self::with(Connection::open(path)?)
    }

    /// Open the store at `path` as its only server: a second server on the same file is refused
    /// (two servers would each keep games in memory and write actions the other never sees).
    /// The lock is on the database file itself (the system's `flock`, apart from SQLite's own
    /// locks), so that no other path to it — a hard link, a symbolic link, `./` — and no file
    /// deleted beside it lets a second server in. It is held until the store is dropped or the
    /// process ends, however it ends. Readers ([`SqliteStore::open`]) are not stopped.
    pub fn open_exclusive(path: &Path) -> Result<Self, StoreError> {
        // (Made if missing: an empty file is an empty SQLite database.)
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(|e| StoreError::Io(format!("unable to open the file: {e}")))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(StoreError::Locked(format!(
                    "another server is using {} (by this path or another): stop it first",
                    path.display()
                )));
            }
            Err(std::fs::TryLockError::Error(e)) => {
                return Err(StoreError::Io(format!("unable to lock the file: {e}")));
            }
        }
        let mut store = Self::open(path)?;
        store._lock = Some(file);
        Ok(store)
    }

    /// A store in memory, for tests.
    pub fn in_memory() -> Result<Self, StoreError> {
        Self::with(Connection::open_in_memory()?)
    }

    fn with(conn: Connection) -> Result<Self, StoreError> {
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.execute_batch(
            "CREATE TABLE IF NOT EXISTS games (
                id TEXT PRIMARY KEY,
                created INTEGER NOT NULL,
                record TEXT NOT NULL
            );
            CREATE TABLE IF NOT EXISTS releases (
                game TEXT NOT NULL REFERENCES games(id),
                action INTEGER NOT NULL,
                PRIMARY KEY (game, action)
            );
            CREATE TABLE IF NOT EXISTS settings (
                name TEXT PRIMARY KEY,
                value TEXT NOT NULL
            );
            CREATE TABLE IF NOT EXISTS claims (
                game TEXT NOT NULL REFERENCES games(id),
                code TEXT NOT NULL,
                PRIMARY KEY (game, code)
            );
            CREATE TABLE IF NOT EXISTS actions (
                game TEXT NOT NULL REFERENCES games(id),
                n INTEGER NOT NULL,
                record TEXT NOT NULL,
                PRIMARY KEY (game, n)
            );",
        )?;
        Ok(SqliteStore { conn: Mutex::new(conn), _lock: None })
    }

    fn conn(&self) -> Result<std::sync::MutexGuard<'_, Connection>, StoreError> {
        self.conn.lock().map_err(|_| StoreError::Poisoned)
    }
}

impl Store for SqliteStore {
    fn create_game(&self, game: &GameRecord) -> Result<(), StoreError> {
        let text = serde_json::to_string(game)?;
        self.conn()?.execute(
            "INSERT INTO games (id, created, record) VALUES (?1, ?2, ?3)",
            params![game.id, game.created as i64, text],
        )?;
        Ok(())
    }

    fn append_action(&self, game: &str, action: &ActionRecord) -> Result<(), StoreError> {
        let text = serde_json::to_string(action)?;
        let conn = self.conn()?;
        let last: Option<i64> =
            conn.query_row("SELECT MAX(n) FROM actions WHERE game = ?1", params![game], |r| r.get(0))?;
        if last.unwrap_or(0) as u64 + 1 != action.n {
            return Err(StoreError::Conflict { game: game.to_string(), n: action.n });
        }
        conn.execute(
            "INSERT INTO actions (game, n, record) VALUES (?1, ?2, ?3)",
            params![game, action.n as i64, text],
        )?;
        Ok(())
    }

    fn take_back(&self, game: &str, n: u64) -> Result<(), StoreError> {
        let conn = self.conn()?;
        let last: Option<i64> =
            conn.query_row("SELECT MAX(n) FROM actions WHERE game = ?1", params![game], |r| r.get(0))?;
        if last.map(|l| l as u64) != Some(n) {
            return Err(StoreError::Conflict { game: game.to_string(), n });
        }
        conn.execute("DELETE FROM actions WHERE game = ?1 AND n = ?2", params![game, n as i64])?;
        Ok(())
    }

    fn game(&self, id: &str) -> Result<Option<(GameRecord, Vec<ActionRecord>)>, StoreError> {
        let conn = self.conn()?;
        let record: Option<String> =
            conn.query_row("SELECT record FROM games WHERE id = ?1", params![id], |r| r.get(0)).optional()?;
        let Some(record) = record else { return Ok(None) };
        let game: GameRecord = serde_json::from_str(&record)?;
        let mut stmt = conn.prepare("SELECT record FROM actions WHERE game = ?1 ORDER BY n")?;
        let rows = stmt.query_map(params![id], |r| r.get::<_, String>(0))?;
        let mut actions = Vec::new();
        for row in rows {
            actions.push(serde_json::from_str(&row?)?);
        }
        Ok(Some((game, actions)))
    }

    fn games(&self) -> Result<Vec<GameSummary>, StoreError> {
        let conn = self.conn()?;
        let mut stmt = conn.prepare(
            "SELECT g.record, (SELECT COUNT(*) FROM actions a WHERE a.game = g.id),
                (SELECT a.record FROM actions a WHERE a.game = g.id ORDER BY a.n DESC LIMIT 1)
             FROM games g ORDER BY g.created DESC, g.id",
        )?;
        let rows =
            stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?, r.get::<_, Option<String>>(2)?)))?;
        let mut out = Vec::new();
        for row in rows {
            let (record, n, last) = row?;
            let g: GameRecord = serde_json::from_str(&record)?;
            let (status, to_act, public, holding) = match last {
                Some(text) => {
                    let a: ActionRecord = serde_json::from_str(&text)?;
                    (a.status, a.to_act, a.public, a.holding)
                }
                None => (g.status.clone(), g.to_act, None, false),
            };
            let mut open_seats = Vec::new();
            if g.open && !g.private {
                for (side, seat) in (0u8..).zip(&g.seats) {
                    if let Some(code) = &seat.invitation {
                        let taken: i64 = conn.query_row(
                            "SELECT COUNT(*) FROM claims WHERE game = ?1 AND code = ?2",
                            params![g.id, code],
                            |r| r.get(0),
                        )?;
                        if taken == 0 {
                            open_seats.push(OpenSeat { side, invitation: code.clone() });
                        }
                    }
                }
            }
            out.push(GameSummary {
                open_seats,
                id: g.id,
                ruleset: g.ruleset,
                scenario_name: g.scenario_name,
                players: g.seats.into_iter().map(|s| s.player).collect(),
                actions: public.unwrap_or(n as u64),
                private: g.private,
                hot_seat: g.hot_seat,
                created: g.created,
                status,
                to_act,
                holding,
            });
        }
        Ok(out)
    }

    fn claim(&self, game: &str, code: &str) -> Result<bool, StoreError> {
        let n =
            self.conn()?.execute("INSERT OR IGNORE INTO claims (game, code) VALUES (?1, ?2)", params![game, code])?;
        Ok(n == 1)
    }

    fn claimed(&self, game: &str, code: &str) -> Result<bool, StoreError> {
        let n: i64 = self.conn()?.query_row(
            "SELECT COUNT(*) FROM claims WHERE game = ?1 AND code = ?2",
            params![game, code],
            |r| r.get(0),
        )?;
        Ok(n > 0)
    }

    fn release(&self, game: &str, from: u64) -> Result<(), StoreError> {
        self.conn()?
            .execute("INSERT OR IGNORE INTO releases (game, action) VALUES (?1, ?2)", params![game, from as i64])?;
        Ok(())
    }

    fn released(&self, game: &str) -> Result<Vec<u64>, StoreError> {
        let conn = self.conn()?;
        let mut stmt = conn.prepare("SELECT action FROM releases WHERE game = ?1 ORDER BY action")?;
        let rows = stmt.query_map(params![game], |r| r.get::<_, i64>(0))?;
        rows.map(|r| r.map(|n| n as u64).map_err(StoreError::from)).collect()
    }

    fn setting(&self, name: &str, fresh: &str) -> Result<String, StoreError> {
        let conn = self.conn()?;
        conn.execute("INSERT OR IGNORE INTO settings (name, value) VALUES (?1, ?2)", params![name, fresh])?;
        Ok(conn.query_row("SELECT value FROM settings WHERE name = ?1", params![name], |r| r.get(0))?)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn record(id: &str) -> GameRecord {
        GameRecord {
            id: id.into(),
            ruleset: "old-fritz".into(),
            scenario_name: "mittelhof".into(),
            scenario: "name = \"x\"".into(),
            seed: 7,
            seats: vec![
                Seat { player: "human".into(), token: "a".into(), invitation: None },
                Seat { player: "heuristic".into(), token: "b".into(), invitation: None },
            ],
            created: 1,
            umpire: Some("u".into()),
            umpire_invitation: None,
            hot_seat: false,
            private: false,
            hold_results: false,
            seed_chosen: true,
            public_draws: true,
            status: None,
            to_act: None,
            open: false,
            salt: None,
            umpire_invited_by: None,
        }
    }

    fn action(n: u64) -> ActionRecord {
        ActionRecord {
            n,
            by: serde_json::json!({"side": 0}),
            action: serde_json::json!("end_orders"),
            draws: serde_json::json!([]),
            status: Some(format!("after action {n}")),
            to_act: Some((n % 2) as u8),
            public: Some(n - 1),
            held: false,
            holding: false,
            at: Some(1_000 + n),
        }
    }

    #[test]
    fn only_the_last_action_is_taken_back() {
        let store = SqliteStore::in_memory().unwrap();
        store.create_game(&record("g")).unwrap();
        for n in 1..=3 {
            store.append_action("g", &action(n)).unwrap();
        }
        assert!(matches!(store.take_back("g", 2), Err(StoreError::Conflict { .. })), "not the last");
        store.take_back("g", 3).unwrap();
        let (_, actions) = store.game("g").unwrap().unwrap();
        assert_eq!(actions.iter().map(|a| a.n).collect::<Vec<_>>(), vec![1, 2]);
        // The next action takes the number again.
        store.append_action("g", &action(3)).unwrap();
        assert!(matches!(store.take_back("nothing", 1), Err(StoreError::Conflict { .. })));
    }

    #[test]
    fn actions_are_kept_in_order_and_survive_reopening() {
        let dir = std::env::temp_dir().join(format!("volley-store-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.db");
        let _ = std::fs::remove_file(&path);
        {
            let s = SqliteStore::open(&path).unwrap();
            s.create_game(&record("g1")).unwrap();
            s.append_action("g1", &action(1)).unwrap();
            s.append_action("g1", &action(2)).unwrap();
            assert!(matches!(s.append_action("g1", &action(2)), Err(StoreError::Conflict { n: 2, .. })));
            assert!(matches!(s.append_action("g1", &action(4)), Err(StoreError::Conflict { n: 4, .. })));
        }
        let s = SqliteStore::open(&path).unwrap();
        let (g, actions) = s.game("g1").unwrap().unwrap();
        assert_eq!(g, record("g1"));
        assert_eq!(actions.iter().map(|a| a.n).collect::<Vec<_>>(), vec![1, 2]);
        let list = s.games().unwrap();
        assert_eq!(list.len(), 1);
        assert_eq!(list[0].players, vec!["human".to_string(), "heuristic".to_string()]);
        assert_eq!(list[0].status.as_deref(), Some("after action 2"), "the last action's status");
        assert_eq!(list[0].to_act, Some(0), "and side to act");
        assert_eq!(list[0].actions, 1, "the actions a spectator may know of");
        assert!(s.game("nope").unwrap().is_none());
        // A game without actions has no status; nor has one whose last action was kept without.
        s.create_game(&GameRecord { id: "g2".into(), created: 2, ..record("g2") }).unwrap();
        s.create_game(&GameRecord { id: "g3".into(), created: 3, ..record("g3") }).unwrap();
        s.append_action("g3", &ActionRecord { status: None, to_act: None, public: None, ..action(1) }).unwrap();
        let list = s.games().unwrap();
        assert_eq!(
            list.iter().map(|g| (g.id.as_str(), g.status.is_some())).collect::<Vec<_>>(),
            [("g3", false), ("g2", false), ("g1", true)]
        );
        assert_eq!(list[0].actions, 1, "without a public count, every action");
        // An invitation is spent once, even across reopening; another game's is its own.
        assert!(s.claim("g1", "inv").unwrap());
        assert!(!s.claim("g1", "inv").unwrap());
        assert!(s.claimed("g1", "inv").unwrap() && !s.claimed("g1", "other").unwrap());
        assert!(s.claim("g2", "inv").unwrap());
        drop(s);
        assert!(!SqliteStore::open(&path).unwrap().claim("g1", "inv").unwrap());
        // A setting is made once and kept.
        let s = SqliteStore::open(&path).unwrap();
        assert_eq!(s.setting("key", "first").unwrap(), "first");
        assert_eq!(s.setting("key", "second").unwrap(), "first");
        drop(s);
        assert_eq!(SqliteStore::open(&path).unwrap().setting("key", "third").unwrap(), "first");
        // One server at a time: a second is refused while the first holds the file.
        let first = SqliteStore::open_exclusive(&path).unwrap();
        let second = SqliteStore::open_exclusive(&path).err().unwrap().to_string();
        assert!(second.contains("another server is using"), "{second}");
        assert!(SqliteStore::open(&path).is_ok(), "a reader is not stopped");
        drop(first);
        assert!(SqliteStore::open_exclusive(&path).is_ok(), "free again once the first is gone");
        // Nor by another path to the same file: a hard link, a symbolic link.
        let first = SqliteStore::open_exclusive(&path).unwrap();
        let hard = dir.join("hard-link.db");
        std::fs::hard_link(&path, &hard).unwrap();
        let second = SqliteStore::open_exclusive(&hard).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(second.contains("another server is using"), "a hard link: {second}");
        #[cfg(unix)]
        {
            let soft = dir.join("soft-link.db");
            std::os::unix::fs::symlink(&path, &soft).unwrap();
            let second = SqliteStore::open_exclusive(&soft).err().map(|e| e.to_string()).unwrap_or_default();
            assert!(second.contains("another server is using"), "a symbolic link: {second}");
        }
        drop(first);
        assert!(SqliteStore::open_exclusive(&hard).is_ok(), "free again by any path");
        // Releases are kept, once each, per game.
        let s = SqliteStore::open(&path).unwrap();
        assert_eq!(s.released("g1").unwrap(), Vec::<u64>::new());
        s.release("g1", 7).unwrap();
        s.release("g1", 3).unwrap();
        s.release("g1", 7).unwrap();
        s.release("g2", 5).unwrap();
        assert_eq!(s.released("g1").unwrap(), vec![3, 7]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
