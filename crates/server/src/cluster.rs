//! Several `torite serve` nodes on one PostgreSQL database, the only thing they share.
//!
//! - **Leases.** Each live table is driven (loaded, its task run, its bots and timers played) by
//!   exactly one node: the one holding its row in `torite_leases` (node id, expiry by the
//!   database's clock). A lease is taken atomically (an insert, or an update of an expired
//!   lease, in one statement), renewed every quarter of [`Config::lease`](crate::Config::lease) while the node lives
//!   and deleted when the node lets the table go or shuts down. The renewal has connections
//!   and a task of its own ([`UPKEEP_CONNECTIONS`]): it never waits behind the tables' own
//!   queries or behind taking tables over, which under load could take longer than a lease
//!   and let a live node's tables go to another while its sockets still waited on them.
//! - **Fencing.** A node appends an event only while it holds the table's lease: the insert
//!   checks the lease in the same statement, and the log's key `(table_id, seq)` refuses a
//!   second writer of one number. The events waiting from every table of a node go in one
//!   statement, each row with its own lease check ([`Cluster::append`]). An append refused
//!   either way stops that node's task for the table ([`AppendError::Lost`]): its sockets are
//!   closed (code 1001) and reconnect, and the table is driven by its new owner from the log.
//!   A table's log can therefore never fork.
//! - **Forwarding.** Every node answers every URL. A request for a table another live node
//!   owns (`/api/tables/{id}...`, `/ws/{id}`) is forwarded to that node's internal address
//!   (`torite_nodes`), the WebSocket tunnelled byte for byte after the owner's handshake; the
//!   owner is told the client's address under the cluster's secret, so per-address limits
//!   count the client, not the node. A forwarded request is never forwarded again. An owner
//!   that accepts nothing or answers nothing (its machine gone, or cut off: no connection is
//!   refused, it just hangs) is given a few seconds, then the client is told the table is not
//!   running and asks again; a tunnel is closed once the lease is no longer the node's it
//!   leads to, so that its client reconnects to the new owner instead of waiting on silence.
//! - **Takeover.** A table whose lease has expired, or whose owner's address refuses
//!   connections (nothing listens there: the process is gone), is taken over by the node that
//!   needs it, by replaying its log; every node also takes over such tables by itself, so that
//!   tables of bots alone go on.
//! - **Lobby.** Each node sends the summaries of its tables that changed on the `torite_lobby`
//!   channel (`NOTIFY`) and keeps the other nodes' ones (`LISTEN`), so that the lobby and who
//!   is present are current on every node; a score sheet's change is told there too, so that
//!   its followers on every node read it anew.

use std::collections::{HashMap, HashSet};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex, PoisonError, Weak};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use sqlx::Row;
use sqlx::postgres::{PgListener, PgPool};
use tokio::sync::{mpsc, oneshot};

use crate::hub::Hub;
use crate::refusal::{Refusal, RefusalKind, Why};
use crate::store::StoreError;
use crate::table::Summary;

/// The database's clock in milliseconds since the Unix epoch: every lease is timed by it, so
/// that the nodes' clocks need not agree.
const NOW_MS: &str = "(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT";

/// The `NOTIFY` channel of the lobby.
const CHANNEL: &str = "torite_lobby";

/// The most events one statement of a node's appender writes.
const APPEND_BATCH: usize = 512;

/// The most statements of a node's appender under way at once: one waits for the disk (the
/// commit's flush) while the next is sent.
const APPENDS_IN_FLIGHT: usize = 2;

/// The largest `NOTIFY` payload sent (PostgreSQL takes up to 8000 bytes).
const PAYLOAD: usize = 7000;

/// How often a node sends its tables' changed summaries.
const LOBBY_EVERY: Duration = Duration::from_millis(300);

/// The most tables of other nodes a node keeps in its lobby.
const MAX_REMOTE: usize = 100_000;

/// The database connections kept for the leases' upkeep (renewal, the tunnels' check, the
/// live nodes), apart from the store's, which the tables' traffic can hold for seconds.
pub const UPKEEP_CONNECTIONS: u32 = 2;

/// How long a node waits for another to accept a forwarded connection.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);

/// How long a node waits for the head of another's answer to a forwarded request (or to a
/// WebSocket's handshake): a node whose machine is gone, or cut off, accepts nothing or answers
/// nothing, and the client is told the table is not running rather than kept waiting.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(5);

/// The header carrying the cluster's secret on a forwarded request.
const FORWARDED: &str = "torite-forwarded";
/// The header carrying the client's address on a forwarded request.
const CLIENT: &str = "torite-client";

/// The cluster's tables, created by the first node (under an advisory lock, so that nodes
/// starting at once do not race).
const SCHEMA: [&str; 3] = [
    "CREATE TABLE IF NOT EXISTS torite_nodes (id TEXT PRIMARY KEY, addr TEXT NOT NULL, \
     seen BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS torite_leases (table_id TEXT PRIMARY KEY, node TEXT NOT NULL, \
     expires BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS torite_cluster (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
];

/// Why an append of a node of the cluster was not stored.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum AppendError {
    /// This node no longer holds the table's lease, or another node wrote that event: the
    /// table is driven elsewhere now.
    Lost,
    /// The database failed.
    Failed(StoreError),
}

/// Held while a table is being taken over ([`Cluster::adopting`]).
pub(crate) struct Adopting<'a> {
    cluster: &'a Cluster,
    id: String,
    lock: Arc<tokio::sync::Mutex<()>>,
    _guard: tokio::sync::OwnedMutexGuard<()>,
}

impl Drop for Adopting<'_> {
    fn drop(&mut self) {
        let mut locks = self
            .cluster
            .adopting
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        // Held by the map, this guard's two handles and nobody else: no task waits for it.
        if Arc::strong_count(&self.lock) <= 3 {
            locks.remove(&self.id);
        }
    }
}

/// Where a table's lease is.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct Owner {
    /// The owning node's id.
    pub node: String,
    /// Its internal address, if it is registered.
    pub addr: Option<String>,
    /// Whether the lease is still valid.
    pub live: bool,
}

/// A table of another node, as its lobby summary.
#[derive(Clone, Debug)]
struct Remote {
    node: String,
    created: u64,
    summary: Value,
}

/// A WebSocket tunnelled from a client to the node that owned its table when it was opened.
#[derive(Debug)]
struct Tunnel {
    table: String,
    node: String,
    /// Told when the table's lease is no longer that node's, or has expired.
    stop: Arc<tokio::sync::Notify>,
}

/// An event waiting for the node's appender.
#[derive(Debug)]
struct PendingAppend {
    id: String,
    seq: i64,
    body: String,
    done: oneshot::Sender<Result<(), AppendError>>,
}

/// This node's part in the cluster.
#[derive(Debug)]
pub struct Cluster {
    pool: PgPool,
    /// The appender's queue ([`Cluster::append`]).
    appends: mpsc::Sender<PendingAppend>,
    /// [`UPKEEP_CONNECTIONS`] connections of the leases' upkeep alone.
    upkeep: PgPool,
    node: String,
    addr: String,
    secret: String,
    lease: Duration,
    /// One lock a table being taken over, so that a table is loaded once while others are
    /// taken over beside it (a dead node's hundreds of tables at once).
    adopting: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
    remote: Mutex<HashMap<String, Remote>>,
    /// Another node has just started listening: send every summary again.
    hello: AtomicBool,
    /// The WebSockets tunnelled to other nodes, by a number of their own.
    tunnels: Mutex<HashMap<u64, Tunnel>>,
    next_tunnel: AtomicU64,
}

fn failed(e: sqlx::Error) -> StoreError {
    StoreError(e.to_string())
}

/// The node's appender: takes the events waiting (up to [`APPEND_BATCH`]), writes them in one
/// statement, answers each, and again, with up to [`APPENDS_IN_FLIGHT`] statements under way
/// at once. A table's next event waits for the answer to its last, so statements under way
/// together never hold two events of one table and cannot reorder a log.
async fn append_batches(pool: PgPool, node: String, mut waiting: mpsc::Receiver<PendingAppend>) {
    let in_flight = Arc::new(tokio::sync::Semaphore::new(APPENDS_IN_FLIGHT));
    loop {
        // While every statement is under way, the events waiting gather into the next one.
        let Ok(permit) = Arc::clone(&in_flight).acquire_owned().await else {
            return;
        };
        let mut batch = Vec::with_capacity(APPEND_BATCH);
        if waiting.recv_many(&mut batch, APPEND_BATCH).await == 0 {
            return;
        }
        let (pool, node) = (pool.clone(), node.clone());
        tokio::spawn(async move {
            append_all(&pool, &node, &mut batch).await;
            drop(permit);
        });
    }
}

/// Appends `batch` in one statement and answers each event (emptying it): stored, or
/// [`AppendError::Lost`] where this node no longer holds the table's lease. When the database
/// refuses the statement as a whole (a number taken by another node refuses every row with
/// it), each event is written alone so that each gets its own answer; when the database
/// cannot be reached, every event is answered with that failure at once (written alone, each
/// would wait out the pool's timeout in turn).
async fn append_all(pool: &PgPool, node: &str, batch: &mut Vec<PendingAppend>) {
    // One statement of one shape for any number of rows: the rows go as three arrays.
    static APPEND_ALL: LazyLock<String> = LazyLock::new(|| {
        format!(
            "INSERT INTO torite_events (table_id, seq, body) \
             SELECT v.table_id, v.seq, v.body FROM UNNEST($1::TEXT[], $2::BIGINT[], $3::TEXT[]) \
             AS v (table_id, seq, body) \
             WHERE EXISTS (SELECT 1 FROM torite_leases l WHERE l.table_id = v.table_id \
             AND l.node = $4 AND l.expires > {NOW_MS}) \
             RETURNING table_id, seq"
        )
    });
    let ids: Vec<&str> = batch.iter().map(|a| a.id.as_str()).collect();
    let seqs: Vec<i64> = batch.iter().map(|a| a.seq).collect();
    let bodies: Vec<&str> = batch.iter().map(|a| a.body.as_str()).collect();
    let stored = sqlx::query(&APPEND_ALL)
        .bind(&ids)
        .bind(&seqs)
        .bind(&bodies)
        .bind(node)
        .fetch_all(pool)
        .await
        .and_then(|rows| {
            rows.iter()
                .map(|r| Ok((r.try_get::<String, _>(0)?, r.try_get::<i64, _>(1)?)))
                .collect::<Result<HashSet<_>, sqlx::Error>>()
        });
    match stored {
        Ok(stored) => {
            for a in batch.drain(..) {
                let answer = if stored.contains(&(a.id, a.seq)) {
                    Ok(())
                } else {
                    Err(AppendError::Lost)
                };
                let _ = a.done.send(answer);
            }
        }
        Err(sqlx::Error::Database(_)) => {
            for a in batch.drain(..) {
                let answer = append_one(pool, node, &a.id, a.seq, &a.body).await;
                let _ = a.done.send(answer);
            }
        }
        Err(e) => {
            let e = failed(e);
            for a in batch.drain(..) {
                let _ = a.done.send(Err(AppendError::Failed(e.clone())));
            }
        }
    }
}

/// Appends one event as [`append_all`] does.
async fn append_one(
    pool: &PgPool,
    node: &str,
    id: &str,
    seq: i64,
    body: &str,
) -> Result<(), AppendError> {
    static APPEND_ONE: LazyLock<String> = LazyLock::new(|| {
        format!(
            "INSERT INTO torite_events (table_id, seq, body) SELECT $1, $2, $3 \
             WHERE EXISTS (SELECT 1 FROM torite_leases WHERE table_id = $1 AND node = $4 \
             AND expires > {NOW_MS})"
        )
    });
    let done = sqlx::query(&APPEND_ONE)
        .bind(id)
        .bind(seq)
        .bind(body)
        .bind(node)
        .execute(pool)
        .await;
    match done {
        Ok(r) if r.rows_affected() == 1 => Ok(()),
        Ok(_) => Err(AppendError::Lost),
        Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Err(AppendError::Lost),
        Err(e) => Err(AppendError::Failed(failed(e))),
    }
}

impl Cluster {
    /// Joins the cluster of the database behind `pool` as a new node reached at `addr`
    /// (`host:port`) by the others: creates the cluster's tables if needed, reads (or makes)
    /// the cluster's secret and registers the node.
    ///
    /// # Errors
    ///
    /// The database fails.
    pub async fn join(
        pool: PgPool,
        addr: String,
        lease: Duration,
    ) -> Result<Arc<Cluster>, StoreError> {
        let mut tx = pool.begin().await.map_err(failed)?;
        sqlx::query("SELECT pg_advisory_xact_lock(7411853)")
            .execute(&mut *tx)
            .await
            .map_err(failed)?;
        for statement in SCHEMA {
            sqlx::query(statement)
                .execute(&mut *tx)
                .await
                .map_err(failed)?;
        }
        sqlx::query(
            "INSERT INTO torite_cluster (name, value) VALUES ('secret', $1) \
             ON CONFLICT (name) DO NOTHING",
        )
        .bind(crate::actor::new_token())
        .execute(&mut *tx)
        .await
        .map_err(failed)?;
        let secret: String = sqlx::query("SELECT value FROM torite_cluster WHERE name = 'secret'")
            .fetch_one(&mut *tx)
            .await
            .and_then(|r| r.try_get(0))
            .map_err(failed)?;
        tx.commit().await.map_err(failed)?;
        let node = crate::actor::new_token()[..16].to_owned();
        sqlx::query(&format!(
            "INSERT INTO torite_nodes (id, addr, seen) VALUES ($1, $2, {NOW_MS})"
        ))
        .bind(&node)
        .bind(&addr)
        .execute(&pool)
        .await
        .map_err(failed)?;
        tracing::info!(node = %node, addr = %addr, "joined the cluster");
        let upkeep = sqlx::postgres::PgPoolOptions::new()
            .max_connections(UPKEEP_CONNECTIONS)
            .acquire_timeout(lease)
            .connect_with(pool.connect_options().as_ref().clone())
            .await
            .map_err(failed)?;
        let (appends, waiting) = mpsc::channel(4 * APPEND_BATCH);
        tokio::spawn(append_batches(pool.clone(), node.clone(), waiting));
        Ok(Arc::new(Cluster {
            pool,
            appends,
            upkeep,
            node,
            addr,
            secret,
            lease,
            adopting: Mutex::new(HashMap::new()),
            remote: Mutex::new(HashMap::new()),
            hello: AtomicBool::new(true),
            tunnels: Mutex::new(HashMap::new()),
            next_tunnel: AtomicU64::new(0),
        }))
    }

    /// Waits until no other task of this node is taking table `id` over, and holds it off
    /// until the guard is dropped.
    pub(crate) async fn adopting(&self, id: &str) -> Adopting<'_> {
        let lock = Arc::clone(
            self.adopting
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .entry(id.to_owned())
                .or_default(),
        );
        let guard = Arc::clone(&lock).lock_owned().await;
        Adopting {
            cluster: self,
            id: id.to_owned(),
            lock,
            _guard: guard,
        }
    }

    /// This node's id.
    #[must_use]
    pub fn node(&self) -> &str {
        &self.node
    }

    /// The address the other nodes reach this one at.
    #[must_use]
    pub fn addr(&self) -> &str {
        &self.addr
    }

    fn lease_ms(&self) -> i64 {
        i64::try_from(self.lease.as_millis()).unwrap_or(i64::MAX)
    }

    /// Takes the lease of a table just being created (its id is new).
    pub(crate) async fn take_new(&self, id: &str) -> Result<(), StoreError> {
        sqlx::query(&format!(
            "INSERT INTO torite_leases (table_id, node, expires) VALUES ($1, $2, {NOW_MS} + $3)"
        ))
        .bind(id)
        .bind(&self.node)
        .bind(self.lease_ms())
        .execute(&self.pool)
        .await
        .map_err(failed)?;
        Ok(())
    }

    /// Takes a stored table's lease if nobody holds it (none, or expired) or this node does,
    /// and the table is live (not finished, not expired): true when this node holds it now.
    pub(crate) async fn take(&self, id: &str) -> Result<bool, StoreError> {
        let q = format!(
            "INSERT INTO torite_leases (table_id, node, expires) \
             SELECT $1, $2, {NOW_MS} + $3 WHERE EXISTS (SELECT 1 FROM torite_tables WHERE id = $1) \
             AND NOT EXISTS (SELECT 1 FROM torite_records WHERE table_id = $1) \
             AND NOT EXISTS (SELECT 1 FROM torite_expired WHERE table_id = $1) \
             ON CONFLICT (table_id) DO UPDATE SET node = excluded.node, expires = excluded.expires \
             WHERE torite_leases.expires < {NOW_MS} OR torite_leases.node = excluded.node \
             RETURNING node"
        );
        let row = sqlx::query(&q)
            .bind(id)
            .bind(&self.node)
            .bind(self.lease_ms())
            .fetch_optional(&self.pool)
            .await
            .map_err(failed)?;
        Ok(row.is_some())
    }

    /// Takes the lease of a table from `dead`, a node whose address refuses connections,
    /// if `dead` still holds it: true when this node holds it now.
    pub(crate) async fn take_from(&self, id: &str, dead: &str) -> Result<bool, StoreError> {
        let q = format!(
            "UPDATE torite_leases SET node = $1, expires = {NOW_MS} + $2 \
             WHERE table_id = $3 AND node = $4 RETURNING node"
        );
        let row = sqlx::query(&q)
            .bind(&self.node)
            .bind(self.lease_ms())
            .bind(id)
            .bind(dead)
            .fetch_optional(&self.pool)
            .await
            .map_err(failed)?;
        Ok(row.is_some())
    }

    /// Renews every lease this node holds (and its own registration); returns the tables
    /// whose leases it still holds.
    pub(crate) async fn renew(&self) -> Result<HashSet<String>, StoreError> {
        sqlx::query(&format!(
            "INSERT INTO torite_nodes (id, addr, seen) VALUES ($1, $2, {NOW_MS}) \
             ON CONFLICT (id) DO UPDATE SET seen = excluded.seen"
        ))
        .bind(&self.node)
        .bind(&self.addr)
        .execute(&self.upkeep)
        .await
        .map_err(failed)?;
        let rows = sqlx::query(&format!(
            "UPDATE torite_leases SET expires = {NOW_MS} + $1 WHERE node = $2 RETURNING table_id"
        ))
        .bind(self.lease_ms())
        .bind(&self.node)
        .fetch_all(&self.upkeep)
        .await
        .map_err(failed)?;
        rows.iter()
            .map(|r| r.try_get::<String, _>(0).map_err(failed))
            .collect()
    }

    /// Gives up a table's lease (the table was let go here).
    pub(crate) async fn release(&self, id: &str) {
        let done = sqlx::query("DELETE FROM torite_leases WHERE table_id = $1 AND node = $2")
            .bind(id)
            .bind(&self.node)
            .execute(&self.pool)
            .await;
        if let Err(e) = done {
            tracing::warn!(table = %id, "lease not released (it expires by itself): {e}");
        }
    }

    /// Gives up every lease and the node's registration (shutdown).
    pub(crate) async fn leave(&self) {
        let leases = sqlx::query("DELETE FROM torite_leases WHERE node = $1")
            .bind(&self.node)
            .execute(&self.pool)
            .await;
        let node = sqlx::query("DELETE FROM torite_nodes WHERE id = $1")
            .bind(&self.node)
            .execute(&self.pool)
            .await;
        match leases.and(node) {
            Ok(_) => tracing::info!(node = %self.node, "left the cluster: every lease released"),
            Err(e) => tracing::warn!("leases not released (they expire by themselves): {e}"),
        }
    }

    /// Who holds a table's lease, if anyone.
    pub(crate) async fn owner(&self, id: &str) -> Result<Option<Owner>, StoreError> {
        let q = format!(
            "SELECT l.node, n.addr, l.expires > {NOW_MS} FROM torite_leases l \
             LEFT JOIN torite_nodes n ON n.id = l.node WHERE l.table_id = $1"
        );
        let row = sqlx::query(&q)
            .bind(id)
            .fetch_optional(&self.pool)
            .await
            .map_err(failed)?;
        row.map(|r| {
            Ok(Owner {
                node: r.try_get(0)?,
                addr: r.try_get(1)?,
                live: r.try_get(2)?,
            })
        })
        .transpose()
        .map_err(failed)
    }

    /// Live tables (not finished, not expired) whose lease nobody holds, oldest first.
    pub(crate) async fn orphans(&self, limit: i64) -> Result<Vec<String>, StoreError> {
        let q = format!(
            "SELECT t.id FROM torite_tables t LEFT JOIN torite_leases l ON l.table_id = t.id \
             WHERE (l.table_id IS NULL OR l.expires < {NOW_MS}) \
             AND NOT EXISTS (SELECT 1 FROM torite_records r WHERE r.table_id = t.id) \
             AND NOT EXISTS (SELECT 1 FROM torite_expired x WHERE x.table_id = t.id) \
             ORDER BY t.created, t.id LIMIT $1"
        );
        let rows = sqlx::query(&q)
            .bind(limit)
            .fetch_all(&self.pool)
            .await
            .map_err(failed)?;
        rows.iter()
            .map(|r| r.try_get::<String, _>(0).map_err(failed))
            .collect()
    }

    /// A table's events in order.
    pub(crate) async fn events(&self, id: &str) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query("SELECT body FROM torite_events WHERE table_id = $1 ORDER BY seq")
            .bind(id)
            .fetch_all(&self.pool)
            .await
            .map_err(failed)?;
        rows.iter()
            .map(|r| r.try_get::<String, _>(0).map_err(failed))
            .collect()
    }

    /// Appends event `seq` of table `id` if this node still holds its lease and nobody has
    /// written that number.
    ///
    /// The node's one appender writes the events waiting from all its tables in one
    /// statement, each row checked against its lease, and answers each once it has
    /// committed: a commit (a flush of PostgreSQL's log to disk) is far dearer than a row, and
    /// a transaction of its own for each event held 2,500 busy tables to under 4,000 events a
    /// second with every action waiting for the pool.
    ///
    /// # Errors
    ///
    /// [`AppendError::Lost`] when the lease is another node's (or expired) or the number is
    /// taken; [`AppendError::Failed`] when the database fails.
    pub async fn append(&self, id: &str, seq: i64, body: &str) -> Result<(), AppendError> {
        let (done, answer) = oneshot::channel();
        let gone = || AppendError::Failed(StoreError("the event writer has stopped".into()));
        let pending = PendingAppend {
            id: id.to_owned(),
            seq,
            body: body.to_owned(),
            done,
        };
        self.appends.send(pending).await.map_err(|_| gone())?;
        answer.await.map_err(|_| gone())?
    }

    /// Registers a tunnel to `node` for `table`: the returned handle is told to stop when the
    /// lease is no longer `node`'s or has expired (see [`Cluster::check_tunnels`]).
    fn open_tunnel(&self, table: &str, node: &str) -> (u64, Arc<tokio::sync::Notify>) {
        let key = self.next_tunnel.fetch_add(1, Ordering::Relaxed);
        let stop = Arc::new(tokio::sync::Notify::new());
        self.tunnels
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(
                key,
                Tunnel {
                    table: table.to_owned(),
                    node: node.to_owned(),
                    stop: Arc::clone(&stop),
                },
            );
        (key, stop)
    }

    fn close_tunnel(&self, key: u64) {
        self.tunnels
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&key);
    }

    /// Stops the tunnels whose table's lease has expired or moved to another node than the
    /// one tunnelled to: that node's machine may be gone or cut off, its end of the socket
    /// silent for ever, and the client, its socket closed, reconnects to the table's new
    /// owner. One query for all the tunnels.
    async fn check_tunnels(&self) -> Result<usize, StoreError> {
        // The tunnels open now: one opened while the query runs is left for the next check,
        // since its table's lease was not asked for.
        let (open, tables): (HashSet<u64>, Vec<String>) = {
            let tunnels = self.tunnels.lock().unwrap_or_else(PoisonError::into_inner);
            let set: HashSet<&String> = tunnels.values().map(|t| &t.table).collect();
            (
                tunnels.keys().copied().collect(),
                set.into_iter().cloned().collect(),
            )
        };
        if tables.is_empty() {
            return Ok(0);
        }
        let rows = sqlx::query(&format!(
            "SELECT table_id, node FROM torite_leases WHERE table_id = ANY($1) \
             AND expires > {NOW_MS}"
        ))
        .bind(&tables)
        .fetch_all(&self.upkeep)
        .await
        .map_err(failed)?;
        let mut owners = HashMap::new();
        for r in &rows {
            let table: String = r.try_get(0).map_err(failed)?;
            let node: String = r.try_get(1).map_err(failed)?;
            owners.insert(table, node);
        }
        let tunnels = self.tunnels.lock().unwrap_or_else(PoisonError::into_inner);
        let stale = stale_tunnels(&tunnels, &open, &owners);
        for key in &stale {
            tunnels[key].stop.notify_one();
        }
        Ok(stale.len())
    }

    /// Nodes whose registration is current (seen within a lease).
    async fn live_nodes(&self) -> Result<HashSet<String>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT id FROM torite_nodes WHERE seen > {NOW_MS} - $1"
        ))
        .bind(self.lease_ms())
        .fetch_all(&self.upkeep)
        .await
        .map_err(failed)?;
        rows.iter()
            .map(|r| r.try_get::<String, _>(0).map_err(failed))
            .collect()
    }

    /// The other nodes' tables, as lobby summaries, leaving out `local` ones.
    pub(crate) fn remote_summaries(&self, local: &HashSet<String>) -> Vec<(u64, String, Value)> {
        self.remote
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .filter(|(id, _)| !local.contains(*id))
            .map(|(id, r)| (r.created, id.clone(), r.summary.clone()))
            .collect()
    }

    /// Takes in one lobby message of another node.
    fn heard(&self, payload: &str) {
        let Ok(msg) = serde_json::from_str::<Value>(payload) else {
            return;
        };
        let Some(node) = msg["node"].as_str() else {
            return;
        };
        if node == self.node {
            return;
        }
        if msg["hello"] == true {
            self.hello.store(true, Ordering::SeqCst);
        }
        if let Some(sheet) = msg["sheet"].as_str() {
            crate::http::scoresheets::changed(sheet);
        }
        let mut remote = self.remote.lock().unwrap_or_else(PoisonError::into_inner);
        for id in msg["gone"].as_array().into_iter().flatten() {
            if let Some(id) = id.as_str()
                && remote.get(id).is_some_and(|r| r.node == node)
            {
                remote.remove(id);
            }
        }
        for summary in msg["up"].as_array().into_iter().flatten() {
            let Some(id) = summary["id"].as_str() else {
                continue;
            };
            if remote.len() >= MAX_REMOTE && !remote.contains_key(id) {
                continue;
            }
            remote.insert(
                id.to_owned(),
                Remote {
                    node: node.to_owned(),
                    created: summary["created"].as_u64().unwrap_or(0),
                    summary: summary.clone(),
                },
            );
        }
    }

    /// Forgets the tables of nodes that are no longer registered.
    fn forget_nodes(&self, live: &HashSet<String>) {
        self.remote
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .retain(|_, r| live.contains(&r.node));
    }

    /// Tells the other nodes that a score sheet changed, so that its followers there read it
    /// anew.
    pub(crate) async fn sheet_changed(&self, id: &str) {
        self.notify(&json!({"node": self.node, "sheet": id})).await;
    }

    /// Sends one lobby message.
    async fn notify(&self, body: &Value) {
        let sent = sqlx::query("SELECT pg_notify($1, $2)")
            .bind(CHANNEL)
            .bind(body.to_string())
            .execute(&self.pool)
            .await;
        if let Err(e) = sent {
            tracing::warn!("lobby change not sent to the other nodes: {e}");
        }
    }
}

/// Runs this node's part of the cluster until the hub is gone or shutting down: renews the
/// leases (stopping the tables whose lease was lost), takes over the tables nobody drives,
/// and keeps the lobby current both ways.
pub(crate) fn start(hub: &Arc<Hub>, cluster: &Arc<Cluster>) {
    tokio::spawn(leases(Arc::downgrade(hub), Arc::clone(cluster)));
    tokio::spawn(adoptions(Arc::downgrade(hub), Arc::clone(cluster)));
    tokio::spawn(send_lobby(Arc::downgrade(hub), Arc::clone(cluster)));
    tokio::spawn(hear_lobby(Arc::downgrade(hub), Arc::clone(cluster)));
}

/// A clock of the cluster's periodic tasks: a tick late (the node busy) is not made up for.
fn ticks(period: Duration) -> tokio::time::Interval {
    let mut every = tokio::time::interval(period);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    every
}

/// Waits for the next tick of `every`: the hub then, while it lives and is not closing.
async fn tick(every: &mut tokio::time::Interval, hub: &Weak<Hub>) -> Option<Arc<Hub>> {
    every.tick().await;
    hub.upgrade().filter(|hub| !hub.is_closing())
}

/// Renews this node's leases every quarter lease, lets go of the tables whose lease it has
/// lost, and closes the tunnels to nodes that lost theirs; nothing else waits in this task, so
/// that a lease is renewed on time however long taking tables over takes.
async fn leases(hub: Weak<Hub>, cluster: Arc<Cluster>) {
    let mut every = ticks(cluster.lease / 4);
    let mut renewed = Instant::now();
    loop {
        let Some(hub) = tick(&mut every, &hub).await else {
            return;
        };
        let local = hub.local_tables().await;
        match cluster.renew().await {
            Ok(held) => {
                let since = renewed.elapsed();
                if since > cluster.lease / 2 {
                    tracing::warn!(
                        ms = u64::try_from(since.as_millis()).unwrap_or(u64::MAX),
                        "leases renewed late"
                    );
                }
                renewed = Instant::now();
                for table in &local {
                    let stopped = table.tx.is_closed();
                    if stopped || !held.contains(&table.id) {
                        if !stopped {
                            tracing::warn!(table = %table.id, "lease lost: another node drives the table now");
                        }
                        hub.let_go(&table.id).await;
                        if stopped {
                            cluster.release(&table.id).await;
                        }
                    }
                }
            }
            Err(e) => {
                tracing::error!("leases not renewed: {e}");
                if renewed.elapsed() >= cluster.lease {
                    // Another node may have taken them by now: stop driving them.
                    for table in &local {
                        hub.let_go(&table.id).await;
                    }
                }
                continue;
            }
        }
        match cluster.check_tunnels().await {
            Ok(0) => {}
            Ok(n) => tracing::warn!("{n} sockets tunnelled to a node that lost its tables closed"),
            Err(e) => tracing::warn!("tunnelled sockets not checked: {e}"),
        }
    }
}

/// Every quarter lease, takes over tables that no node drives (their lease expired) and
/// forgets the lobby entries of nodes that are gone.
async fn adoptions(hub: Weak<Hub>, cluster: Arc<Cluster>) {
    let mut every = ticks(cluster.lease / 4);
    loop {
        let Some(hub) = tick(&mut every, &hub).await else {
            return;
        };
        match cluster.orphans(64).await {
            Ok(ids) => {
                for id in ids {
                    hub.adopt(&id, None).await;
                }
            }
            Err(e) => tracing::error!("tables without a node not looked up: {e}"),
        }
        match cluster.live_nodes().await {
            Ok(live) => cluster.forget_nodes(&live),
            Err(e) => tracing::warn!("nodes not looked up: {e}"),
        }
    }
}

async fn send_lobby(hub: Weak<Hub>, cluster: Arc<Cluster>) {
    let mut sent: HashMap<String, Summary> = HashMap::new();
    let mut every = ticks(LOBBY_EVERY);
    loop {
        let Some(hub) = tick(&mut every, &hub).await else {
            return;
        };
        if cluster.hello.swap(false, Ordering::SeqCst) {
            sent.clear();
        }
        // The lobby's own tables (never a private one): each node's newest are enough for the
        // newest of all.
        let now: HashMap<String, Summary> = hub
            .summaries()
            .await
            .into_iter()
            .map(|s| (s.id.clone(), s))
            .collect();
        drop(hub);
        let gone: Vec<String> = sent
            .keys()
            .filter(|id| !now.contains_key(*id))
            .cloned()
            .collect();
        let mut up = Vec::new();
        for (id, summary) in &now {
            if sent.get(id) != Some(summary) {
                up.push(serde_json::to_value(summary).unwrap_or(Value::Null));
            }
        }
        for id in &gone {
            sent.remove(id);
        }
        sent.extend(now);
        let mut batch_up = Vec::new();
        let mut size = 0;
        for summary in up {
            let len = summary.to_string().len();
            if size + len > PAYLOAD && !batch_up.is_empty() {
                let body = json!({"node": cluster.node, "up": std::mem::take(&mut batch_up)});
                cluster.notify(&body).await;
                size = 0;
            }
            size += len + 1;
            batch_up.push(summary);
        }
        let mut batch_gone = Vec::new();
        for id in gone {
            if size + id.len() + 3 > PAYLOAD {
                let body = json!({"node": cluster.node, "up": std::mem::take(&mut batch_up), "gone": std::mem::take(&mut batch_gone)});
                cluster.notify(&body).await;
                size = 0;
            }
            size += id.len() + 3;
            batch_gone.push(Value::String(id));
        }
        if !batch_up.is_empty() || !batch_gone.is_empty() {
            let body = json!({"node": cluster.node, "up": batch_up, "gone": batch_gone});
            cluster.notify(&body).await;
        }
    }
}

async fn hear_lobby(hub: Weak<Hub>, cluster: Arc<Cluster>) {
    loop {
        if hub.upgrade().is_none_or(|h| h.is_closing()) {
            return;
        }
        let mut listener = match PgListener::connect_with(&cluster.pool).await {
            Ok(l) => l,
            Err(e) => {
                tracing::warn!("lobby of the other nodes not heard (retrying): {e}");
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        if let Err(e) = listener.listen(CHANNEL).await {
            tracing::warn!("lobby of the other nodes not heard (retrying): {e}");
            tokio::time::sleep(Duration::from_secs(1)).await;
            continue;
        }
        // Listening from now: ask the others for all their tables.
        cluster
            .notify(&json!({"node": cluster.node, "hello": true}))
            .await;
        loop {
            if hub.upgrade().is_none_or(|h| h.is_closing()) {
                return;
            }
            // Not cancelled midway (a message could be cut): closing the store on shutdown
            // ends the wait with an error.
            match listener.try_recv().await {
                Ok(Some(n)) => cluster.heard(n.payload()),
                // The connection was lost (messages meanwhile too): listen again, ask again.
                Ok(None) => {
                    cluster
                        .notify(&json!({"node": cluster.node, "hello": true}))
                        .await;
                }
                Err(e) => {
                    if hub.upgrade().is_none_or(|h| h.is_closing()) {
                        return;
                    }
                    tracing::warn!("lobby of the other nodes: {e}");
                    break;
                }
            }
        }
    }
}

/// The table a path is about, if it is one of a table's own (`/api/tables/{id}...`,
/// `/ws/{id}`).
fn table_of_path(path: &str) -> Option<&str> {
    let rest = path
        .strip_prefix("/ws/")
        .or_else(|| path.strip_prefix("/api/tables/"))?;
    let id = rest.split('/').next()?;
    (!id.is_empty() && id.len() <= 64).then_some(id)
}

/// How forwarding to the owner failed.
enum Unforwarded {
    /// Nothing listens at the owner's address: its process is gone.
    Refused,
    /// The owner did not answer in time, or the connection broke.
    Unreachable(String),
}

/// The tunnels of `asked` (those open when the leases were looked up) whose table's live
/// lease, as `owners` has it, is not the node they lead to. A tunnel opened since is not
/// judged: its table's lease was not looked up.
fn stale_tunnels(
    tunnels: &HashMap<u64, Tunnel>,
    asked: &HashSet<u64>,
    owners: &HashMap<String, String>,
) -> Vec<u64> {
    tunnels
        .iter()
        .filter(|(key, t)| asked.contains(*key) && owners.get(&t.table) != Some(&t.node))
        .map(|(key, _)| *key)
        .collect()
}

/// The outermost layer of a node of a cluster: a request for a table another node drives is
/// forwarded there; one for a table nobody drives takes the table over first.
pub(crate) async fn route(
    State(hub): State<Arc<Hub>>,
    mut request: Request,
    next: Next,
) -> Response {
    let Some(cluster) = hub.cluster().cloned() else {
        return next.run(request).await;
    };
    let headers = request.headers_mut();
    let vouched = headers
        .get(FORWARDED)
        .is_some_and(|s| s.as_bytes() == cluster.secret.as_bytes());
    let client = headers
        .get(CLIENT)
        .and_then(|c| c.to_str().ok())
        .and_then(|c| c.parse::<SocketAddr>().ok());
    headers.remove(FORWARDED);
    headers.remove(CLIENT);
    if vouched && let Some(client) = client {
        request.extensions_mut().insert(ConnectInfo(client));
    }
    let Some(id) = table_of_path(request.uri().path()).map(str::to_owned) else {
        return next.run(request).await;
    };
    if hub.table(&id).await.is_some() {
        return next.run(request).await;
    }
    let owner = match cluster.owner(&id).await {
        Ok(owner) => owner,
        Err(e) => {
            tracing::error!(table = %id, "lease not looked up: {e}");
            return next.run(request).await;
        }
    };
    match owner {
        Some(owner) if owner.live && owner.node != cluster.node && !vouched => {
            let Some(addr) = owner.addr.clone() else {
                return not_running();
            };
            let failed = match connect(&addr).await {
                Ok(stream) => match forward(request, stream, &cluster, &id, &owner.node).await {
                    Ok(response) => return response,
                    Err(e) => e,
                },
                Err(Unforwarded::Refused) => {
                    tracing::warn!(table = %id, node = %owner.node, addr = %addr, "the owner's address refuses connections: taking the table over");
                    hub.adopt(&id, Some(&owner.node)).await;
                    return next.run(request).await;
                }
                Err(Unforwarded::Unreachable(e)) => e,
            };
            tracing::warn!(table = %id, node = %owner.node, addr = %addr, "not forwarded to the table's node: {failed}");
            // Its lease may have run out meanwhile (its machine gone or cut off): then the
            // table is taken over here, and the client asks again.
            if let Ok(Some(now)) = cluster.owner(&id).await
                && !now.live
            {
                hub.adopt(&id, None).await;
            }
            not_running()
        }
        Some(owner) if owner.live && owner.node != cluster.node => {
            // Forwarded here, but the table is another node's: never forwarded twice.
            not_running()
        }
        _ => {
            hub.adopt(&id, None).await;
            next.run(request).await
        }
    }
}

fn not_running() -> Response {
    Refusal::new(RefusalKind::Busy, Why::TableNotRunning).into_response()
}

/// Connects to the node at `addr`.
async fn connect(addr: &str) -> Result<tokio::net::TcpStream, Unforwarded> {
    match tokio::time::timeout(CONNECT_TIMEOUT, tokio::net::TcpStream::connect(addr)).await {
        Err(_) => Err(Unforwarded::Unreachable(format!(
            "no connection within {} s",
            CONNECT_TIMEOUT.as_secs()
        ))),
        Ok(Err(e)) if e.kind() == std::io::ErrorKind::ConnectionRefused => {
            Err(Unforwarded::Refused)
        }
        Ok(Err(e)) => Err(Unforwarded::Unreachable(e.to_string())),
        Ok(Ok(stream)) => Ok(stream),
    }
}

/// Sends `request` to the node at the other end of `stream` (`node`, the owner of `table`)
/// and answers with its answer, waiting for it at most [`ANSWER_TIMEOUT`]; a WebSocket
/// upgrade is then tunnelled between the client and that node until either end closes or the
/// lease is no longer that node's.
async fn forward(
    request: Request,
    stream: tokio::net::TcpStream,
    cluster: &Arc<Cluster>,
    table: &str,
    node: &str,
) -> Result<Response, String> {
    match tokio::time::timeout(
        ANSWER_TIMEOUT,
        send_forward(request, stream, cluster, table, node),
    )
    .await
    {
        Ok(Ok(response)) => Ok(response),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err(format!("no answer within {} s", ANSWER_TIMEOUT.as_secs())),
    }
}

async fn send_forward(
    mut request: Request,
    stream: tokio::net::TcpStream,
    cluster: &Arc<Cluster>,
    table: &str,
    node: &str,
) -> Result<Response, hyper::Error> {
    let _ = stream.set_nodelay(true);
    let (mut sender, connection) =
        hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream)).await?;
    tokio::spawn(async move {
        let _ = connection.with_upgrades().await;
    });
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0);
    let upgrade = request
        .headers()
        .contains_key(header::UPGRADE)
        .then(|| hyper::upgrade::on(&mut request));
    let headers = request.headers_mut();
    if let Ok(secret) = HeaderValue::from_str(&cluster.secret) {
        headers.insert(FORWARDED, secret);
    }
    if let Some(peer) = peer
        && let Ok(peer) = HeaderValue::from_str(&peer.to_string())
    {
        headers.insert(CLIENT, peer);
    }
    let mut response = sender.send_request(request).await?;
    if response.status() == StatusCode::SWITCHING_PROTOCOLS
        && let Some(client) = upgrade
    {
        let owner = hyper::upgrade::on(&mut response);
        let (key, stop) = cluster.open_tunnel(table, node);
        let cluster = Arc::clone(cluster);
        tokio::spawn(async move {
            let tunnel = async {
                let (Ok(client), Ok(owner)) = (client.await, owner.await) else {
                    return;
                };
                let mut client = hyper_util::rt::TokioIo::new(client);
                let mut owner = hyper_util::rt::TokioIo::new(owner);
                let _ = tokio::io::copy_bidirectional(&mut client, &mut owner).await;
            };
            // Both ends are dropped (closed) when the lease moves on.
            tokio::select! {
                () = tunnel => {}
                () = stop.notified() => {}
            }
            cluster.close_tunnel(key);
        });
    }
    Ok(response.map(Body::new))
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    /// Events of many tables appended at once by one node go in one statement, each row
    /// checked alone: every event of this node's tables is stored in order, every event of
    /// a table whose lease is another node's is refused as lost (and not stored), and so is
    /// a number already taken, whatever else is written with it.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    #[ignore = "needs PostgreSQL: .ci/run starts one; by hand, set TORITE_TEST_POSTGRES and pass --ignored"]
    async fn appends_of_many_tables_are_each_answered_on_postgres() {
        use crate::store::{SqlStore, Store};
        let url = std::env::var("TORITE_TEST_POSTGRES")
            .ok()
            .filter(|u| !u.is_empty())
            .expect("TORITE_TEST_POSTGRES must name a PostgreSQL database (postgres://user@host:port/db)");
        let store = SqlStore::open(&url).await.unwrap();
        let SqlStore::Postgres { pool, .. } = &store else {
            unreachable!("a PostgreSQL store")
        };
        let lease = Duration::from_secs(60);
        let here = Cluster::join(pool.clone(), "127.0.0.1:9".into(), lease)
            .await
            .unwrap();
        let there = Cluster::join(pool.clone(), "127.0.0.1:9".into(), lease)
            .await
            .unwrap();
        let run = crate::actor::new_token()[..8].to_owned();
        let tables = APPEND_BATCH + 60;
        let theirs = |t: usize| t % 7 == 3;
        for t in 0..tables {
            let id = format!("{run}-{t}");
            store.create_table(&id, 1, "{\"e\":0}").await.unwrap();
            let owner = if theirs(t) { &there } else { &here };
            owner.take_new(&id).await.unwrap();
        }
        let events = 5;
        let mut tasks = Vec::new();
        for t in 0..tables {
            let here = Arc::clone(&here);
            let id = format!("{run}-{t}");
            tasks.push(tokio::spawn(async move {
                for seq in 1..=events {
                    let appended = here.append(&id, seq, &format!("{{\"e\":{seq}}}")).await;
                    if theirs(t) {
                        assert_eq!(appended, Err(AppendError::Lost), "{id} {seq}");
                    } else {
                        assert_eq!(appended, Ok(()), "{id} {seq}");
                    }
                }
                let again = here.append(&id, 2, "{\"e\":\"again\"}").await;
                assert_eq!(again, Err(AppendError::Lost), "{id}");
            }));
        }
        for task in tasks {
            task.await.unwrap();
        }
        for t in 0..tables {
            let id = format!("{run}-{t}");
            let kept = here.events(&id).await.unwrap();
            let last = if theirs(t) { 0 } else { events };
            let expected: Vec<String> = (0..=last).map(|seq| format!("{{\"e\":{seq}}}")).collect();
            assert_eq!(kept, expected, "{id}");
            // Let go, so that nodes started later on a shared database do not take it over.
            store.expire(&id, 1).await.unwrap();
        }
        here.leave().await;
        there.leave().await;
    }

    /// Appends while the database cannot be reached are each answered with the failure, at
    /// once: not written alone one after another, each waiting out the pool's timeout.
    #[tokio::test]
    async fn appends_fail_together_when_the_database_is_unreachable() {
        let timeout = Duration::from_millis(500);
        let pool = sqlx::postgres::PgPoolOptions::new()
            .acquire_timeout(timeout)
            .connect_lazy("postgres://nobody@127.0.0.1:9/none")
            .unwrap();
        let (appends, waiting) = mpsc::channel(4 * APPEND_BATCH);
        tokio::spawn(append_batches(pool, "n".into(), waiting));
        let tables = 40;
        let mut answers = Vec::new();
        for t in 0..tables {
            let (done, answer) = oneshot::channel();
            let pending = PendingAppend {
                id: format!("t{t}"),
                seq: 1,
                body: "{}".into(),
                done,
            };
            appends.send(pending).await.unwrap();
            answers.push(answer);
        }
        let started = Instant::now();
        for answer in answers {
            assert!(matches!(answer.await.unwrap(), Err(AppendError::Failed(_))));
        }
        // Written alone they would take 40 timeouts; a few batches take a few.
        assert!(
            started.elapsed() < timeout * (tables / 4),
            "{:?}",
            started.elapsed()
        );
    }

    /// A node whose database is never reached (the lobby's bookkeeping needs none).
    async fn cluster(node: &str) -> Cluster {
        let pool = sqlx::postgres::PgPoolOptions::new()
            .connect_lazy("postgres://nobody@127.0.0.1:9/none")
            .unwrap();
        Cluster {
            upkeep: pool.clone(),
            appends: mpsc::channel(1).0,
            pool,
            node: node.to_owned(),
            addr: "127.0.0.1:9".into(),
            secret: "s".into(),
            lease: Duration::from_secs(5),
            adopting: Mutex::new(HashMap::new()),
            remote: Mutex::new(HashMap::new()),
            hello: AtomicBool::new(false),
            tunnels: Mutex::new(HashMap::new()),
            next_tunnel: AtomicU64::new(0),
        }
    }

    fn ids(c: &Cluster, local: &[&str]) -> Vec<String> {
        let local: HashSet<String> = local.iter().map(|s| (*s).to_owned()).collect();
        let mut ids: Vec<String> = c
            .remote_summaries(&local)
            .into_iter()
            .map(|(_, id, _)| id)
            .collect();
        ids.sort();
        ids
    }

    #[tokio::test]
    async fn tables_are_taken_over_side_by_side_but_each_by_one_task_at_a_time() {
        let c = cluster("me").await;
        let one = c.adopting("t1").await;
        // Another table is not held up by the first.
        let two = tokio::time::timeout(Duration::from_secs(5), c.adopting("t2"))
            .await
            .expect("another table is taken over beside the first");
        // The same table waits until the first is done.
        assert!(
            tokio::time::timeout(Duration::from_millis(50), c.adopting("t1"))
                .await
                .is_err()
        );
        drop(one);
        let again = tokio::time::timeout(Duration::from_secs(5), c.adopting("t1"))
            .await
            .expect("the table is free once its takeover is done");
        drop((two, again));
        // No lock is kept for a table nobody takes over.
        assert!(c.adopting.lock().unwrap().is_empty());
    }

    #[test]
    fn a_tunnel_is_closed_once_its_table_is_another_nodes_but_not_before_it_is_checked() {
        let tunnel = |table: &str, node: &str| Tunnel {
            table: table.into(),
            node: node.into(),
            stop: Arc::new(tokio::sync::Notify::new()),
        };
        let tunnels = HashMap::from([
            (1, tunnel("t1", "a")),
            (2, tunnel("t2", "a")),
            (3, tunnel("t3", "a")),
            // Opened while the leases were looked up: its table was not asked about.
            (4, tunnel("t4", "a")),
        ]);
        let asked = HashSet::from([1, 2, 3]);
        // t1 is still a's; t2 moved to b; t3's lease has run out (no live owner).
        let owners = HashMap::from([("t1".to_owned(), "a".to_owned()), ("t2".into(), "b".into())]);
        let mut stale = stale_tunnels(&tunnels, &asked, &owners);
        stale.sort_unstable();
        assert_eq!(stale, [2, 3]);
    }

    #[tokio::test]
    async fn the_lobby_keeps_the_other_nodes_tables() {
        let c = cluster("me").await;
        let up = |id: &str| json!({"id": id, "created": 1, "status": "open"});
        c.heard(&json!({"node": "b", "up": [up("t1"), up("t2")]}).to_string());
        c.heard(&json!({"node": "c", "up": [up("t3")], "gone": []}).to_string());
        // A node's own messages come back to it: ignored.
        c.heard(&json!({"node": "me", "up": [up("t9")]}).to_string());
        // Not JSON, or no node: ignored.
        c.heard("not json");
        c.heard(&json!({"up": [up("t8")]}).to_string());
        assert_eq!(ids(&c, &[]), ["t1", "t2", "t3"]);
        // A table local here is not listed twice.
        assert_eq!(ids(&c, &["t2"]), ["t1", "t3"]);
        // Only the node that sent a table may say it is gone; a newer owner replaces it.
        c.heard(&json!({"node": "c", "gone": ["t1"]}).to_string());
        assert_eq!(ids(&c, &[]), ["t1", "t2", "t3"]);
        c.heard(&json!({"node": "c", "up": [up("t1")]}).to_string());
        c.heard(&json!({"node": "b", "gone": ["t1", "t2"]}).to_string());
        assert_eq!(ids(&c, &[]), ["t1", "t3"]);
        // The tables of a node no longer registered are forgotten.
        c.forget_nodes(&HashSet::from(["b".to_owned()]));
        assert!(ids(&c, &[]).is_empty());
        // A node that starts listening asks for everything again.
        assert!(!c.hello.load(Ordering::SeqCst));
        c.heard(&json!({"node": "d", "hello": true}).to_string());
        assert!(c.hello.load(Ordering::SeqCst));
    }

    #[test]
    fn the_table_of_a_path() {
        assert_eq!(table_of_path("/ws/abc123"), Some("abc123"));
        assert_eq!(table_of_path("/api/tables/abc123"), Some("abc123"));
        assert_eq!(table_of_path("/api/tables/abc123/join"), Some("abc123"));
        assert_eq!(table_of_path("/api/tables"), None);
        assert_eq!(table_of_path("/api/tables/"), None);
        assert_eq!(table_of_path("/t/abc123"), None);
        assert_eq!(table_of_path(&format!("/ws/{}", "x".repeat(65))), None);
    }
}
