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
//!   table where it was; on a shutdown signal ([`serve_until`]) it stops taking connections,
//!   closes every socket with code 1001 and closes the store once its writes are done.
//! - `GET /healthz` answers while the process is up, `GET /readyz` while the database is
//!   reachable and holds its tables.
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
pub mod analysis;
mod ask;
pub mod assets;
#[cfg(feature = "loadtest")]
pub mod client;
pub mod cluster;
#[cfg(feature = "fuzzing")]
pub mod fuzzing;
mod http;
mod hub;
#[cfg(feature = "loadtest")]
pub mod loadtest;
pub mod profiles;
pub mod protocol;
pub mod refusal;
pub mod store;
pub mod table;
mod ws;

pub(crate) use hub::now_secs;
pub use hub::{Config, Hub, LOBBY_SIZE, normal_origin};

use axum::serve::ListenerExt;
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

/// How long a shutdown waits for the sockets to close before it lets the tables go.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

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
    serve_until(listener, db, config, std::future::pending()).await
}

/// Opens the store at `db`, reloads every table and serves on `listener` until `shutdown`
/// completes; then shuts down gracefully: stops taking connections, lets the requests under
/// way finish, closes every WebSocket with code 1001 (going away) once the action it is
/// sending has been answered (waiting at most [`SHUTDOWN_GRACE`]), and closes the store once
/// its writes are done. Everything acknowledged before is in the store, as after a kill.
///
/// # Errors
///
/// The store cannot be opened or read, or the server fails.
pub async fn serve_until(
    listener: tokio::net::TcpListener,
    db: &str,
    config: Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), String> {
    let store = SqlStore::open(db).await.map_err(|e| e.to_string())?;
    let period = (config.keep_finished.min(config.expire_open) / 2)
        .clamp(Duration::from_millis(100), Duration::from_secs(30));
    // On PostgreSQL every server is a node of a cluster, one node or more.
    let cluster = match &store {
        SqlStore::Postgres { pool, .. } => {
            let addr = node_addr(&config, &listener)?;
            let cluster = cluster::Cluster::join(pool.clone(), addr, config.lease)
                .await
                .map_err(|e| e.to_string())?;
            Some(cluster)
        }
        SqlStore::Sqlite { .. } => None,
    };
    let hub = Hub::load_in(Arc::new(store), config, cluster.clone()).await?;
    if let Some(cluster) = &cluster {
        cluster::start(&hub, cluster);
    }
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
    let signalled = Arc::clone(&hub);
    // TCP_NODELAY: a state message goes out at once rather than waiting for the client's
    // acknowledgement of the last one (Nagle's algorithm against delayed ACKs costs up to
    // 40 ms a message).
    let listener = listener.tap_io(|t| {
        if let Err(e) = t.set_nodelay(true) {
            tracing::debug!("TCP_NODELAY not set on a connection: {e}");
        }
    });
    let served = axum::serve(
        listener,
        router(Arc::clone(&hub)).into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(async move {
        shutdown.await;
        tracing::info!("shutting down: no new connections, closing the sockets");
        signalled.begin_close();
    })
    .await
    .map_err(|e| e.to_string());
    let left = hub.close(SHUTDOWN_GRACE).await;
    if left > 0 {
        tracing::warn!(
            sockets = left,
            "shut down with sockets that did not close in time"
        );
    } else {
        tracing::info!("shut down: every socket closed, the store closed");
    }
    served
}

/// The address the other nodes of a cluster reach this one at: [`Config::node_addr`], else
/// the address listened on (`127.0.0.1` for an unspecified one, as `0.0.0.0`).
fn node_addr(config: &Config, listener: &tokio::net::TcpListener) -> Result<String, String> {
    if let Some(addr) = &config.node_addr {
        return Ok(addr.clone());
    }
    let mut local = listener.local_addr().map_err(|e| e.to_string())?;
    if local.ip().is_unspecified() {
        local.set_ip(std::net::Ipv4Addr::LOCALHOST.into());
    }
    Ok(local.to_string())
}

/// Binds `addr` and serves (see [`serve_on`]), printing the address to standard error.
///
/// # Errors
///
/// The address cannot be bound, or as [`serve_on`].
pub async fn serve(addr: SocketAddr, db: &str, config: Config) -> Result<(), String> {
    serve_with_shutdown(addr, db, config, std::future::pending()).await
}

/// Binds `addr` and serves until `shutdown` completes (see [`serve_until`]), printing the
/// address to standard error.
///
/// # Errors
///
/// The address cannot be bound, or as [`serve_until`].
pub async fn serve_with_shutdown(
    addr: SocketAddr,
    db: &str,
    config: Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), String> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    eprintln!(
        "torite: serving http://{local}/ (database {})",
        without_password(db)
    );
    serve_until(listener, db, config, shutdown).await
}

/// A database URL as it may be shown: a password in it (`postgres://user:secret@host/db`)
/// replaced by `***`.
#[must_use]
pub fn without_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let (authority, tail) = rest.split_at(rest.find(['/', '?']).unwrap_or(rest.len()));
    match authority.rsplit_once('@') {
        Some((user, host)) if user.contains(':') => {
            let name = user.split(':').next().unwrap_or_default();
            format!("{scheme}://{name}:***@{host}{tail}")
        }
        _ => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::without_password;

    #[test]
    fn passwords_are_not_shown() {
        assert_eq!(
            without_password("postgres://torite:s3cr@t@db.example:5432/torite?sslmode=require"),
            "postgres://torite:***@db.example:5432/torite?sslmode=require"
        );
        assert_eq!(
            without_password("postgres://torite@db/torite"),
            "postgres://torite@db/torite"
        );
        assert_eq!(without_password("sqlite:torite.db"), "sqlite:torite.db");
        assert_eq!(
            without_password("/var/lib/torite/t.db"),
            "/var/lib/torite/t.db"
        );
    }
}
