//! The server keeps a bounded number of idle games in memory; the others are rebuilt from the
//! store when asked for, unchanged.
#![allow(clippy::unwrap_used)] // tests may panic on what they did not expect

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::json;
use volley_server::{Creator, NewGame, Server};
use volley_store::{ActionRecord, GameRecord, GameSummary, SqliteStore, Store, StoreError};

fn server(name: &str, games: usize) -> Server {
    let dir = std::env::temp_dir().join(format!("volley-memory-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let store: Arc<dyn Store> = Arc::new(SqliteStore::open(&dir.join("games.db")).unwrap());
    Server::with_memory_for(store, games)
}

/// A game of two people at Hochdorf mill: its id and side 0's token.
fn new_game(s: &Server) -> (String, String) {
    let req = NewGame {
        open: false,
        scenario: "hochdorf-mill".into(),
        scenario_text: None,
        players: vec!["human".into(), "human".into()],
        seed: Some(5),
        creator: Some(Creator::HotSeat),
        private: false,
        hold_results: false,
        umpire: false,
        rules_shown: false,
    };
    let g = s.create(&req).unwrap();
    (g["id"].as_str().unwrap().to_string(), g["credentials"][0]["token"].as_str().unwrap().to_string())
}

#[test]
fn idle_games_are_let_go_and_come_back_unchanged() {
    let s = server("idle", 2);
    let mut games = Vec::new();
    for _ in 0..5 {
        let (id, token) = new_game(&s);
        let view = s.view(&id, Some(&token), None).unwrap();
        games.push((id, token, view));
        assert!(s.games_in_memory() <= 2, "{} games in memory", s.games_in_memory());
    }
    // The first games were let go; each comes back as it was.
    for (id, token, view) in &games {
        assert_eq!(&s.view(id, Some(token), None).unwrap(), view);
        assert!(s.games_in_memory() <= 2);
    }
    // And play goes on in one that was let go: side 0 throws for the initiative.
    let (id, token, _) = &games[0];
    let _ = new_game(&s);
    let _ = new_game(&s);
    let r = s.act(id, token, &json!("throw")).unwrap();
    assert_eq!(r["actions"], 1, "{r}");
    let _ = new_game(&s);
    let _ = new_game(&s);
    assert_eq!(s.view(id, Some(token), None).unwrap()["actions"], 1, "the action was kept");
}

/// Issue 30, 1: watching holds no game in memory. A watched game is let go like any idle one;
/// when it is loaded again (to act in it), its watchers hear the change on the same channel.
#[test]
fn a_watched_game_is_let_go_and_its_watchers_still_hear() {
    let s = server("watched", 1);
    let (watched, token) = new_game(&s);
    let (_, counts, mut rx) = s.watch(&watched, None).unwrap();
    assert_eq!(counts.actions, [0; 4]);
    let _ = new_game(&s);
    let _ = new_game(&s);
    assert_eq!(s.games_in_memory(), 1, "the watched game was let go");
    // Side 0 throws for the initiative in it: loaded again, and the watcher hears.
    s.act(&watched, &token, &json!("throw")).unwrap();
    let heard = rx.try_recv().expect("the watcher heard the action");
    assert_eq!(heard.actions[0], 1, "{heard:?}");
    assert_eq!(s.channels_kept(), 1);
    drop(rx);
    assert_eq!(s.channels_kept(), 0, "a channel goes with its last watcher");
}

/// Issue 30, 1: 512 watchers of 512 games (an outside probe's attack) pinned 512 games and made
/// every creation answer 503. Now they hold channels, not games: the games in memory stay at the
/// limit, and new games are made.
#[test]
fn watchers_of_many_games_keep_none_in_memory_and_lock_nobody_out() {
    let s = server("watched-many", 2);
    let ids: Vec<String> = (0..40).map(|_| new_game(&s).0).collect();
    let watched: Vec<_> = ids.iter().map(|id| s.watch(id, None).unwrap()).collect();
    assert!(s.games_in_memory() <= 2, "{} games in memory", s.games_in_memory());
    assert_eq!(s.channels_kept(), 40);
    // A new game, and a view of one let go, answer as usual.
    let (id, token) = new_game(&s);
    assert_eq!(s.view(&id, Some(&token), None).unwrap()["actions"], 0);
    assert!(s.view(&ids[0], None, None).is_ok());
    assert!(s.games_in_memory() <= 2);
    drop(watched);
    assert_eq!(s.channels_kept(), 0);
}

/// A store that counts the games read back whole (each one rebuilt by the server).
struct Counting {
    inner: SqliteStore,
    reads: AtomicUsize,
}

impl Store for Counting {
    fn create_game(&self, game: &GameRecord) -> Result<(), StoreError> {
        self.inner.create_game(game)
    }
    fn append_action(&self, game: &str, action: &ActionRecord) -> Result<(), StoreError> {
        self.inner.append_action(game, action)
    }
    fn take_back(&self, game: &str, n: u64) -> Result<(), StoreError> {
        self.inner.take_back(game, n)
    }
    fn game(&self, id: &str) -> Result<Option<(GameRecord, Vec<ActionRecord>)>, StoreError> {
        self.reads.fetch_add(1, Ordering::SeqCst);
        self.inner.game(id)
    }
    fn games(&self) -> Result<Vec<GameSummary>, StoreError> {
        self.inner.games()
    }
    fn claim(&self, game: &str, code: &str) -> Result<bool, StoreError> {
        self.inner.claim(game, code)
    }
    fn claimed(&self, game: &str, code: &str) -> Result<bool, StoreError> {
        self.inner.claimed(game, code)
    }
    fn setting(&self, name: &str, fresh: &str) -> Result<String, StoreError> {
        self.inner.setting(name, fresh)
    }
    fn release(&self, game: &str, from: u64) -> Result<(), StoreError> {
        self.inner.release(game, from)
    }
    fn released(&self, game: &str) -> Result<Vec<u64>, StoreError> {
        self.inner.released(game)
    }
}

#[test]
fn the_list_shows_where_games_let_go_stand_without_bringing_them_back() {
    let store = Arc::new(Counting { inner: SqliteStore::in_memory().unwrap(), reads: AtomicUsize::new(0) });
    let s = Server::with_memory_for(store.clone(), 2);
    let mut games = Vec::new();
    for _ in 0..5 {
        let (id, token) = new_game(&s);
        s.act(&id, &token, &json!("throw")).unwrap();
        // Where it stands, from the game itself: the winner of the initiative chooses.
        let v = s.view(&id, None, None).unwrap();
        let side = v["actor"]["side"].as_u64().unwrap() as usize;
        let status = format!("turn {}, {} to act", v["view"]["turn"], v["view"]["sides"][side].as_str().unwrap());
        games.push((id, status));
    }
    // Three games were let go; the list shows where all five stand without rebuilding one.
    assert_eq!(s.games_in_memory(), 2);
    let reads = store.reads.load(Ordering::SeqCst);
    let list = s.list().unwrap();
    assert_eq!(store.reads.load(Ordering::SeqCst), reads, "no game read back for the list");
    for (id, status) in &games {
        let line = list.as_array().unwrap().iter().find(|g| g["id"] == json!(id)).unwrap();
        assert_eq!(line["status"], json!(status), "{line}");
    }
    // A game not yet begun has no action to keep its status: it is worked out from the game.
    let (fresh, _) = new_game(&s);
    let list = s.list().unwrap();
    let line = list.as_array().unwrap().iter().find(|g| g["id"] == json!(fresh)).unwrap();
    assert!(line["status"].as_str().is_some_and(|st| st.starts_with("turn 1, ")), "{line}");
}

#[test]
fn starting_up_loads_only_the_games_a_computer_player_must_go_on_with() {
    // A real first action (the initiative throw at Hochdorf mill, seed 5), as a store keeps it.
    let kept = Arc::new(SqliteStore::in_memory().unwrap());
    let first = Server::with_memory_for(kept.clone(), 4);
    let (id, token) = new_game(&first);
    first.act(&id, &token, &json!("throw")).unwrap();
    let winner = first.view(&id, None, None).unwrap()["actor"]["side"].as_u64().unwrap() as usize;
    assert_eq!(first.list().unwrap()[0]["to_act"], json!(winner));
    let (record, actions) = kept.game(&id).unwrap().unwrap();
    // The same game kept three ways: the throw's winner a computer player; a person; and not yet
    // thrown, a computer player to throw.
    let store = Arc::new(Counting { inner: SqliteStore::in_memory().unwrap(), reads: AtomicUsize::new(0) });
    let keep = |id: &str, computer: usize, with_action: bool| {
        let mut seats = record.seats.clone();
        seats[computer].player = "heuristic".into();
        store.create_game(&GameRecord { id: id.into(), seats, ..record.clone() }).unwrap();
        if with_action {
            store.append_action(id, &actions[0]).unwrap();
        }
    };
    keep("computer-to-act", winner, true);
    keep("person-to-act", 1 - winner, true);
    keep("not-begun", 0, false);
    let s = Server::with_memory_for(store.clone(), 8);
    s.resume_all();
    assert_eq!(store.reads.load(Ordering::SeqCst), 2, "the game a person must go on with stays in the store");
    // The computer player went on: it chose, and a person is to act again.
    let v = s.view("computer-to-act", None, None).unwrap();
    assert!(v["actions"].as_u64().unwrap() > 1, "{}", v["actions"]);
    assert_eq!(v["actor"]["side"], json!(1 - winner));
}

// The creator sees whether each seat's invitation was claimed and whether its player has the
// game open now (a live channel), and when the last action was taken.
#[test]
fn seats_say_whether_claimed_and_whether_their_player_is_there() {
    let s = server("seats", 8);
    let req = NewGame {
        open: false,
        scenario: "hochdorf-mill".into(),
        scenario_text: None,
        players: vec!["human".into(), "human".into()],
        seed: Some(5),
        creator: None,
        private: false,
        hold_results: false,
        umpire: false,
        rules_shown: false,
    };
    let g = s.create(&req).unwrap();
    let id = g["id"].as_str().unwrap().to_string();
    let mine = g["credentials"][0]["token"].as_str().unwrap().to_string();
    let code = g["invitations"][0]["code"].as_str().unwrap().to_string();
    let seats = |s: &Server| s.view(&id, Some(&mine), None).unwrap()["seats"].clone();
    assert_eq!(seats(&s)[1], json!({"player": "human", "taken": false, "connected": false}));
    let other = s.claim(&id, &code).unwrap()["token"].as_str().unwrap().to_string();
    assert_eq!(seats(&s)[1]["taken"], true);
    {
        let (role, _, _) = s.watch(&id, Some(&other)).unwrap();
        let _here = s.here(&id, role);
        assert_eq!(seats(&s)[1]["connected"], true);
        assert_eq!(seats(&s)[0]["connected"], false, "side 0 has no channel open");
    }
    assert_eq!(seats(&s)[1]["connected"], false, "gone when the channel closes");
    let v = s.view(&id, Some(&mine), None).unwrap();
    assert!(v["last_action_at"].as_u64().unwrap() > 1_700_000_000, "{v}");
}

/// Issue 30, 3: the games kept in memory are counted by their size, not their number. A budget
/// of three and a half small games keeps three; a bigger battle (Crossroads, a man a figure)
/// counts for more than a small one; every game let go comes back when asked for.
#[test]
fn the_games_kept_in_memory_are_sized_by_memory_not_by_count() {
    let dir = std::env::temp_dir().join(format!("volley-memory-{}-budget", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let store: Arc<dyn Store> = Arc::new(SqliteStore::open(&dir.join("games.db")).unwrap());
    // One small game's size, as the server estimates it.
    let probe = Server::with_memory(store.clone(), usize::MAX, usize::MAX);
    let _ = new_game(&probe);
    let small = probe.memory_for_games();
    let big = {
        let s = Server::with_memory(store.clone(), usize::MAX, usize::MAX);
        let req = NewGame {
            open: false,
            scenario: "crossroads".into(),
            scenario_text: None,
            players: vec!["human".into(), "human".into()],
            seed: Some(5),
            creator: Some(Creator::HotSeat),
            private: false,
            hold_results: false,
            umpire: false,
            rules_shown: false,
        };
        s.create(&req).unwrap();
        s.memory_for_games()
    };
    assert!(big > small * 3 / 2, "a Crossroads game ({big} bytes) counts for more than a Hochdorf one ({small})");
    let budget = small * 7 / 2;
    let s = Server::with_memory(store, usize::MAX, budget);
    let games: Vec<(String, String)> = (0..10).map(|_| new_game(&s)).collect();
    assert_eq!(s.games_in_memory(), 3, "{} bytes in memory of {budget}", s.memory_for_games());
    assert!(s.memory_for_games() <= budget);
    for (id, token) in &games {
        assert_eq!(s.view(id, Some(token), None).unwrap()["actions"], 0);
        assert!(s.memory_for_games() <= budget);
    }
}
