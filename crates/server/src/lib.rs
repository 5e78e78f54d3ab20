//! volley in the browser: an HTTP and WebSocket server (axum) that keeps games of every rule set
//! in a [`volley_store::Store`] and serves the page in `web/`, embedded in the binary.
//!
//! * [`catalog`] — the bundled scenarios and the others a server offers (a folder's), and loading
//!   any scenario into a game of its rule set.
//! * [`live`] — a game of any rule set behind one object-safe trait.
//! * [`Server`] — the games: creating them, acting for a seat, computer players, rebuilding a
//!   game from its stored actions after a restart.
//! * [`desk`] — the umpire's desk: each rule set's calculator for JSON.
//! * [`limits`] — what one client may ask: games created a minute, WebSockets open.
//! * [`signing`] — the server's key, which signs the logs it exports.
//! * [`router`] — the HTTP API and the page.
//!
//! The server is the authority: every action is validated by the rule set, each seat acts only
//! with its own secret token, a view holds only what its viewer may see, and an action is stored
//! for good before it is acknowledged.
//!
//! What this crate is not: the rules (the rule crates), storage (volley-store), or the terminal
//! (volley-cli, whose `volley serve` starts this).
#![deny(missing_docs)]

#[macro_use]
pub mod catalog;
pub mod desk;
mod http;
pub mod limits;
pub mod live;
mod server;
pub mod signing;

pub use http::router;
pub use server::{
    ApiError, Counts, Creator, GAMES_IN_MEMORY, MEMORY_FOR_GAMES, NewGame, Server, seed_commitment, slot,
};

/// Why the server could not start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The address could not be bound.
    #[error("cannot listen on {addr}: {error}")]
    Bind {
        /// The address.
        addr: String,
        /// Why.
        error: std::io::Error,
    },
    /// The store could not be opened.
    #[error(transparent)]
    Store(#[from] volley_store::StoreError),
    /// Serving failed.
    #[error("the server stopped: {0}")]
    Io(#[from] std::io::Error),
}

/// Serve on `addr` with games kept in `store` until the process is interrupted. Calls
/// `ready(address)` once listening (with the port chosen, if `addr` asked for port 0).
pub async fn serve(
    addr: &str,
    store: std::sync::Arc<dyn volley_store::Store>,
    ready: impl FnOnce(std::net::SocketAddr),
) -> Result<(), ServeError> {
    serve_with(addr, store, limits::Limits::default(), ready).await
}

/// [`serve`], keeping to `limits`.
pub async fn serve_with(
    addr: &str,
    store: std::sync::Arc<dyn volley_store::Store>,
    limits: limits::Limits,
    ready: impl FnOnce(std::net::SocketAddr),
) -> Result<(), ServeError> {
    serve_offering(addr, store, limits, catalog::Library::default(), ready).await
}

/// [`serve_with`], offering `library`'s scenarios for new games: the bundled ones and a
/// folder's (`volley serve --scenarios DIR`).
pub async fn serve_offering(
    addr: &str,
    store: std::sync::Arc<dyn volley_store::Store>,
    limits: limits::Limits,
    library: catalog::Library,
    ready: impl FnOnce(std::net::SocketAddr),
) -> Result<(), ServeError> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|error| ServeError::Bind { addr: addr.to_string(), error })?;
    let local = listener.local_addr()?;
    let server = Server::with_memory(store, GAMES_IN_MEMORY, limits.memory_for_games).offering(library);
    server.resume_all();
    ready(local);
    let (head_timeout, most) = (limits.head_timeout, limits.connections);
    let most =
        most.unwrap_or_else(|| usize::try_from(open_files().saturating_sub(FILES_KEPT).max(16)).unwrap_or(usize::MAX));
    let app = router(server, limits::Gate::new(limits));
    serve_connections(listener, app, head_timeout, most).await
}

/// Files kept for the store, its journal and the rest beside the connections.
const FILES_KEPT: u64 = 64;

/// The open-file limit, raised to its hard limit where the system allows (a server's connections
/// are files: 1,024, a common soft limit, is soon spent).
fn open_files() -> u64 {
    #[cfg(unix)]
    {
        use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
        let now = getrlimit(Resource::Nofile);
        if let Some(hard) = now.maximum
            && now.current.is_none_or(|c| c < hard)
        {
            let _ = setrlimit(Resource::Nofile, Rlimit { current: Some(hard), maximum: Some(hard) });
        }
        getrlimit(Resource::Nofile).current.unwrap_or(1 << 20)
    }
    #[cfg(not(unix))]
    {
        8192
    }
}

/// Serve `app` on `listener` until Ctrl-C: each connection with `head_timeout` for a request's
/// head (and for an idle kept-alive connection: a client that opens connections and sends
/// nothing holds no file for long), and at most `most` at once (so that the open files are never
/// spent): past that a new connection is closed at once, and the server goes on answering.
async fn serve_connections(
    listener: tokio::net::TcpListener,
    app: axum::Router,
    head_timeout: std::time::Duration,
    most: usize,
) -> Result<(), ServeError> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    use tower::ServiceExt;
    let slots = std::sync::Arc::new(tokio::sync::Semaphore::new(most.min(tokio::sync::Semaphore::MAX_PERMITS)));
    let mut stop = std::pin::pin!(async {
        let _ = tokio::signal::ctrl_c().await;
    });
    loop {
        let (stream, peer) = tokio::select! {
            _ = &mut stop => return Ok(()),
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                // Out of files or a connection gone before it was taken: wait a moment, go on.
                Err(_) => {
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let Ok(slot) = slots.clone().try_acquire_owned() else {
            drop(stream);
            continue;
        };
        let app = app.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |request: axum::http::Request<hyper::body::Incoming>| {
                let mut request = request.map(axum::body::Body::new);
                request.extensions_mut().insert(axum::extract::ConnectInfo(peer));
                app.clone().oneshot(request)
            });
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder.timer(TokioTimer::new()).header_read_timeout(head_timeout).keep_alive(true);
            let _ = builder.serve_connection(TokioIo::new(stream), service).with_upgrades().await;
            drop(slot);
        });
    }
}
