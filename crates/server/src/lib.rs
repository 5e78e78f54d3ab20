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
pub use server::{ApiError, Counts, Creator, GAMES_IN_MEMORY, NewGame, Server, seed_commitment, slot};

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
    let server = Server::new(store).offering(library);
    server.resume_all();
    ready(local);
    let app = router(server, limits::Gate::new(limits));
    axum::serve(listener, app.into_make_service_with_connect_info::<std::net::SocketAddr>())
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    Ok(())
}
