//! What one client may ask of the server: games created a minute, scenarios checked a minute,
//! and WebSockets open at once (per client and in all). A client is its IP address.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The limits a server keeps to.
#[derive(Clone, Debug, PartialEq)]
pub struct Limits {
    /// Games one client may create a minute: a burst of this many, refilled evenly.
    pub creations_per_minute: f64,
    /// Scenario texts one client may have checked a minute (`POST /api/scenarios/check`): a
    /// burst of this many, refilled evenly. A short text can ask for a big table, whose check
    /// takes seconds and hundreds of megabytes.
    pub checks_per_minute: f64,
    /// WebSockets one client may hold open at once.
    pub watchers_per_client: usize,
    /// WebSockets open at once on the whole server.
    pub watchers: usize,
    /// The host names (as a request's `Host` gives them, without the port) the server answers
    /// to; empty, any. A request for another is refused (a DNS rebinding page gets nothing).
    pub hosts: Vec<String>,
    /// Proxies whose word is taken for a client's address (`X-Forwarded-For`): a server behind
    /// one counts each client by its own address, not all as the proxy.
    pub trusted_proxies: Vec<IpAddr>,
    /// How long a client may take to send a request's head, and how long an idle kept-alive
    /// connection stays open.
    pub head_timeout: std::time::Duration,
    /// Connections served at once, past which a new one is closed at once; `None`, as many as
    /// the open-file limit (raised to its hard limit at start) allows, less a few for the store.
    pub connections: Option<usize>,
    /// Bytes the games kept in memory between requests may take, by their estimated size
    /// (`Server::with_memory`).
    pub memory_for_games: usize,
    /// API requests in hand at once (from a request's head read to its answer; a WebSocket's
    /// until it is opened; the page's own files are not counted), past which a new one is
    /// answered 503 at once, with `Retry-After`: under more load than the machine serves, those
    /// let in are answered in time, and the rest are told to come back rather than left waiting
    /// in a queue that only grows.
    pub waiting: usize,
}

/// Requests in hand at once by default ([`Limits::waiting`]).
pub const WAITING: usize = 256;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            creations_per_minute: 20.0,
            checks_per_minute: 20.0,
            watchers_per_client: 16,
            watchers: 2048,
            hosts: Vec::new(),
            trusted_proxies: Vec::new(),
            head_timeout: std::time::Duration::from_secs(15),
            connections: None,
            memory_for_games: crate::MEMORY_FOR_GAMES,
            waiting: WAITING,
        }
    }
}

impl Limits {
    /// No limits, for load tests and trusted setups.
    pub fn none() -> Self {
        Limits {
            creations_per_minute: f64::INFINITY,
            checks_per_minute: f64::INFINITY,
            watchers_per_client: usize::MAX,
            watchers: usize::MAX,
            hosts: Vec::new(),
            trusted_proxies: Vec::new(),
            head_timeout: std::time::Duration::from_secs(15),
            connections: None,
            memory_for_games: crate::MEMORY_FOR_GAMES,
            waiting: usize::MAX,
        }
    }
}

/// How many clients' creation buckets are kept before full ones are forgotten.
const BUCKETS_KEPT: usize = 10_000;

#[derive(Default)]
struct State {
    /// Per client: tokens left and when they were counted.
    buckets: HashMap<IpAddr, (f64, Instant)>,
    /// Per client, for scenario checks: tokens left and when they were counted.
    check_buckets: HashMap<IpAddr, (f64, Instant)>,
    /// Per client: WebSockets open.
    open: HashMap<IpAddr, usize>,
    /// WebSockets open in all.
    total: usize,
}

/// The server's count of what each client is doing, shared by all requests.
#[derive(Clone, Default)]
pub struct Gate {
    limits: Limits,
    state: Arc<Mutex<State>>,
    /// Requests in hand now ([`Limits::waiting`]).
    in_hand: Arc<std::sync::atomic::AtomicUsize>,
}

/// A request counted as in hand until this is dropped ([`Gate::enter`]).
pub struct InHand(Arc<std::sync::atomic::AtomicUsize>);

impl Drop for InHand {
    fn drop(&mut self) {
        self.0.fetch_sub(1, std::sync::atomic::Ordering::AcqRel);
    }
}

/// A WebSocket counted against its client until this is dropped.
pub struct Watching {
    gate: Gate,
    client: IpAddr,
}

impl std::fmt::Debug for Watching {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Watching({})", self.client)
    }
}

impl Drop for Watching {
    fn drop(&mut self) {
        if let Ok(mut s) = self.gate.state.lock() {
            s.total = s.total.saturating_sub(1);
            if let Some(n) = s.open.get_mut(&self.client) {
                *n = n.saturating_sub(1);
                if *n == 0 {
                    s.open.remove(&self.client);
                }
            }
        }
    }
}

impl Gate {
    /// The limits kept.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// A gate keeping to `limits`.
    pub fn new(limits: Limits) -> Self {
        Gate { limits, state: Arc::default(), in_hand: Arc::default() }
    }

    /// May one more request be taken in hand now? Counted until the returned guard is dropped;
    /// else how many are in hand already.
    pub fn enter(&self) -> Result<InHand, usize> {
        use std::sync::atomic::Ordering;
        let n = self.in_hand.fetch_add(1, Ordering::AcqRel);
        let guard = InHand(self.in_hand.clone());
        if n >= self.limits.waiting {
            return Err(n);
        }
        Ok(guard)
    }

    /// May `client` create a game now? Takes one of its tokens if so; else says when to try again.
    pub fn create(&self, client: IpAddr) -> Result<(), String> {
        let per_minute = self.limits.creations_per_minute;
        let Ok(mut s) = self.state.lock() else { return Err("the server's count of clients failed".into()) };
        spend(&mut s.buckets, client, per_minute).map_err(|wait| {
            format!("too many new games from this address: {per_minute} a minute; try again in {wait} s")
        })
    }

    /// May `client` have a scenario checked now? Takes one of its tokens if so; else says when
    /// to try again.
    pub fn check(&self, client: IpAddr) -> Result<(), String> {
        let per_minute = self.limits.checks_per_minute;
        let Ok(mut s) = self.state.lock() else { return Err("the server's count of clients failed".into()) };
        spend(&mut s.check_buckets, client, per_minute).map_err(|wait| {
            format!("too many scenarios checked from this address: {per_minute} a minute; try again in {wait} s")
        })
    }

    /// May `client` open another WebSocket? Counted until the returned guard is dropped.
    pub fn watch(&self, client: IpAddr) -> Result<Watching, String> {
        let Ok(mut s) = self.state.lock() else { return Err("the server's count of clients failed".into()) };
        if s.total >= self.limits.watchers {
            return Err(format!("the server is watched by {} already: try again later", s.total));
        }
        let mine = s.open.get(&client).copied().unwrap_or(0);
        if mine >= self.limits.watchers_per_client {
            return Err(format!("this address watches {mine} games already, the most one may"));
        }
        s.total += 1;
        *s.open.entry(client).or_insert(0) += 1;
        Ok(Watching { gate: self.clone(), client })
    }
}

/// Take one of `client`'s tokens from `buckets` (a burst of `per_minute`, refilled evenly), or
/// say in how many seconds one will be there.
fn spend(buckets: &mut HashMap<IpAddr, (f64, Instant)>, client: IpAddr, per_minute: f64) -> Result<(), f64> {
    if per_minute.is_infinite() {
        return Ok(());
    }
    let now = Instant::now();
    if buckets.len() > BUCKETS_KEPT {
        // Forget clients whose bucket has filled up again: they would start full anyway.
        buckets
            .retain(|_, (tokens, at)| *tokens + now.duration_since(*at).as_secs_f64() * per_minute / 60.0 < per_minute);
    }
    let (tokens, at) = buckets.entry(client).or_insert((per_minute, now));
    *tokens = (*tokens + now.duration_since(*at).as_secs_f64() * per_minute / 60.0).min(per_minute);
    *at = now;
    if *tokens >= 1.0 {
        *tokens -= 1.0;
        Ok(())
    } else {
        Err(((1.0 - *tokens) * 60.0 / per_minute).ceil())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_client_creates_so_many_a_minute_and_watches_so_many_at_once() {
        let limits = Limits {
            creations_per_minute: 3.0,
            checks_per_minute: 2.0,
            watchers_per_client: 2,
            watchers: 3,
            hosts: Vec::new(),
            trusted_proxies: Vec::new(),
            head_timeout: std::time::Duration::from_secs(15),
            connections: None,
            memory_for_games: crate::MEMORY_FOR_GAMES,
            waiting: 2,
        };
        let gate = Gate::new(limits);
        // Two requests in hand at once; a third is told how many are; one ending lets one in.
        let (r1, r2) = (gate.enter().unwrap(), gate.enter().unwrap());
        assert_eq!(gate.enter().err(), Some(2));
        drop(r1);
        let r3 = gate.enter().unwrap();
        assert_eq!(gate.enter().err(), Some(2), "a refused one is not counted");
        drop((r2, r3));
        let (a, b): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        for _ in 0..3 {
            gate.create(a).unwrap();
        }
        assert!(gate.create(a).unwrap_err().contains("3 a minute"));
        gate.create(b).unwrap();
        // Checks count apart from new games.
        gate.check(a).unwrap();
        gate.check(a).unwrap();
        let e = gate.check(a).unwrap_err();
        assert!(e.starts_with("too many scenarios checked from this address: 2 a minute; try again in"), "{e}");
        gate.check(b).unwrap();
        let w1 = gate.watch(a).unwrap();
        let _w2 = gate.watch(a).unwrap();
        assert!(gate.watch(a).unwrap_err().contains("the most one may"));
        let _w3 = gate.watch(b).unwrap();
        assert!(gate.watch(b).unwrap_err().contains("watched by 3"), "the whole server's limit");
        drop(w1);
        assert!(gate.watch(b).is_ok(), "a socket closed frees its place");
    }
}
