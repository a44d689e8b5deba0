//! Online play for torite: a lobby and tables over HTTP and WebSocket.
//!
//! - Each table is owned by one task ([`actor`]): commands arrive on a bounded channel, every
//!   event is written to the [`store`] before it is applied, and each new state is published
//!   to the table's sockets, every seat's message built from that seat's view
//!   ([`table::TableState::state_message`]).
//! - Bots fill seats; search bots run on the blocking pool. A host can seat bots, replace an
//!   absent player by a bot and start the game; an optional per-move timer lets a bot play for
//!   a person who does not act in time.
//! - On start every stored table is replayed, so a server killed at any moment resumes every
//!   table where it was.
//! - Every refusal ([`refusal`]) is a message of the Fluent catalogs, sent as its English
//!   text, its code and its arguments, so that a client can word it in its reader's language.
//!
//! The protocol is described in `docs/PROTOCOL.md`.
//!
//! With the `loadtest` feature (the command line enables it for `torite loadtest`), the
//! library also has a small client of the protocol (`client`) and the load test that plays
//! tables through it (`loadtest`); with the `fuzzing` feature (the fuzz targets of `fuzz/`
//! enable it), the harness that drives a table with client messages (`fuzzing`). Without
//! them, the library is the server only.

#![deny(missing_docs)]

pub mod actor;
mod ask;
pub mod assets;
#[cfg(feature = "loadtest")]
pub mod client;
#[cfg(feature = "fuzzing")]
pub mod fuzzing;
mod http;
mod hub;
#[cfg(feature = "loadtest")]
pub mod loadtest;
pub mod protocol;
pub mod refusal;
pub mod store;
pub mod table;
mod ws;

pub(crate) use hub::now_secs;
pub use hub::{Config, Hub, LOBBY_SIZE, normal_origin};

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use crate::store::SqlStore;

/// The HTTP and WebSocket routes of a hub. Serve them with
/// `into_make_service_with_connect_info::<SocketAddr>()`: table creation is limited per
/// address.
pub fn router(hub: Arc<Hub>) -> axum::Router {
    http::router(hub)
}

/// Opens the store at `db`, reloads every table and serves on `listener` until the process
/// ends.
///
/// # Errors
///
/// The store cannot be opened or read, or the server fails.
pub async fn serve_on(
    listener: tokio::net::TcpListener,
    db: &str,
    config: Config,
) -> Result<(), String> {
    let store = SqlStore::open(db).await.map_err(|e| e.to_string())?;
    let period = (config.keep_finished.min(config.expire_open) / 2)
        .clamp(Duration::from_millis(100), Duration::from_secs(30));
    let hub = Hub::load(Arc::new(store), config).await?;
    let sweeper = Arc::downgrade(&hub);
    tokio::spawn(async move {
        let mut every = tokio::time::interval(period);
        loop {
            every.tick().await;
            match sweeper.upgrade() {
                Some(hub) => hub.sweep().await,
                None => return,
            }
        }
    });
    axum::serve(
        listener,
        router(hub).into_make_service_with_connect_info::<SocketAddr>(),
    )
    .await
    .map_err(|e| e.to_string())
}

/// Binds `addr` and serves (see [`serve_on`]), printing the address to standard error.
///
/// # Errors
///
/// The address cannot be bound, or as [`serve_on`].
pub async fn serve(addr: SocketAddr, db: &str, config: Config) -> Result<(), String> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    eprintln!("torite: serving http://{local}/ (database {db})");
    serve_on(listener, db, config).await
}
