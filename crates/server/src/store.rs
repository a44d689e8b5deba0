//! Persistence: every table's event log, in SQLite (the default) or PostgreSQL.
//!
//! The [`Store`] trait is all the server needs: create a table, append an event, load every
//! table back, keep a finished game's record. [`SqlStore`] implements it with `sqlx` runtime
//! queries (no compile-time checking, so no database is needed to build). The same SQL runs on
//! both databases: `$1`-style parameters in order of appearance, `BIGINT` and `TEXT` columns,
//! `ON CONFLICT` upserts. Only the writers' batches differ: SQLite's go as multi-row `VALUES`,
//! PostgreSQL's as arrays (`UNNEST`), one statement of one shape for any number of rows.

use std::future::Future;
use std::pin::Pin;
use std::str::FromStr;
use std::time::Duration;

use sqlx::Row;
use sqlx::postgres::{PgArguments, PgPool, PgPoolOptions, PgQueryResult};
use sqlx::query_builder::Separated;
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};
use tokio::sync::{mpsc, oneshot};

/// A boxed future, so that [`Store`] can be used as a trait object.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A storage failure, as one line.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct StoreError(pub String);

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "storage failed: {}", self.0)
    }
}

impl std::error::Error for StoreError {}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> StoreError {
        StoreError(e.to_string())
    }
}

type TableRow = (String, i64);
type EventRow = (String, String);

/// A table as stored: its id, creation time and events in order.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct StoredTable {
    /// The table id.
    pub id: String,
    /// Creation time, seconds since the Unix epoch.
    pub created: i64,
    /// The events (JSON), in order.
    pub events: Vec<String>,
}

/// Where tables are kept.
pub trait Store: Send + Sync + 'static {
    /// Creates a table with its first event. Fails if the id exists.
    fn create_table<'a>(
        &'a self,
        id: &'a str,
        created: i64,
        first: &'a str,
    ) -> BoxFuture<'a, Result<(), StoreError>>;

    /// Appends event number `seq` (the first event is 0) to a table's log. Fails if that
    /// number is taken, so two writers cannot both extend one log.
    fn append<'a>(
        &'a self,
        id: &'a str,
        seq: i64,
        event: &'a str,
    ) -> BoxFuture<'a, Result<(), StoreError>>;

    /// Every table whose game has not ended (no record kept) and that has not expired, with
    /// its events, oldest table first.
    fn load_all(&self) -> BoxFuture<'_, Result<Vec<StoredTable>, StoreError>>;

    /// Keeps a finished game's record (`RECORD.md` JSON), replacing any earlier one.
    fn save_record<'a>(
        &'a self,
        id: &'a str,
        record: &'a str,
    ) -> BoxFuture<'a, Result<(), StoreError>>;

    /// A kept record.
    fn record<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<String>, StoreError>>;

    /// The first event of a table's log (its `created` event, JSON), also once the table has
    /// been let go: whether it is private. A store that cannot read it refuses.
    fn first_event<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<String>, StoreError>> {
        Box::pin(async move {
            Err(StoreError(format!(
                "table {id}: this store cannot read a table's log"
            )))
        })
    }

    /// Whether the store answers and holds every table of its schema (`/readyz`). A store
    /// with nothing to reach is ready.
    fn ready(&self) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(async { Ok(()) })
    }

    /// Closes the store on shutdown: waits for the writes under way and refuses new ones.
    fn close(&self) -> BoxFuture<'_, ()> {
        Box::pin(async {})
    }

    /// The player profiles' rows, for a store that keeps them (`None`: profiles are refused).
    fn profiles(&self) -> Option<&dyn ProfileStore> {
        None
    }

    /// The duplicate series' rows, for a store that keeps them (`None`: series are refused).
    fn duplicates(&self) -> Option<&dyn DuplicateStore> {
        None
    }

    /// Creates a scorekeeper's sheet (`body`: its JSON) at version 0. Fails if the id
    /// exists. A store that cannot keep sheets refuses.
    fn create_scoresheet<'a>(
        &'a self,
        id: &'a str,
        created: i64,
        body: &'a str,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        let _ = (created, body);
        Box::pin(async move {
            Err(StoreError(format!(
                "score sheet {id}: this store cannot keep score sheets"
            )))
        })
    }

    /// A scorekeeper's sheet and its version, if there is one.
    fn scoresheet<'a>(
        &'a self,
        id: &'a str,
    ) -> BoxFuture<'a, Result<Option<(String, i64)>, StoreError>> {
        let _ = id;
        Box::pin(async { Ok(None) })
    }

    /// Replaces a sheet's JSON if it is still at `version`, which then goes up by one;
    /// `false` (nothing written) if it was changed meanwhile.
    fn update_scoresheet<'a>(
        &'a self,
        id: &'a str,
        version: i64,
        body: &'a str,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        let _ = (version, body);
        Box::pin(async move {
            Err(StoreError(format!(
                "score sheet {id}: this store cannot keep score sheets"
            )))
        })
    }

    /// A kept analysis of a finished game (`docs/ANALYSIS.md` JSON) under `selection` (its
    /// seats and budget), if there is one. A store that cannot keep analyses has none.
    fn analysis<'a>(
        &'a self,
        id: &'a str,
        selection: &'a str,
    ) -> BoxFuture<'a, Result<Option<String>, StoreError>> {
        let _ = (id, selection);
        Box::pin(async { Ok(None) })
    }

    /// Keeps a finished game's analysis under `selection`, replacing any earlier one. A store
    /// that cannot keep analyses refuses (the server then keeps a few in memory).
    fn save_analysis<'a>(
        &'a self,
        id: &'a str,
        selection: &'a str,
        body: &'a str,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        let _ = (selection, body);
        Box::pin(async move {
            Err(StoreError(format!(
                "table {id}: this store cannot keep analyses"
            )))
        })
    }

    /// Marks a table that was never started as expired at `at` (seconds since the Unix
    /// epoch): its log stays, but [`Store::load_all`] no longer returns it. A store that
    /// cannot keep the mark refuses, and the table stays live.
    fn expire<'a>(&'a self, id: &'a str, at: i64) -> BoxFuture<'a, Result<(), StoreError>> {
        let _ = at;
        Box::pin(async move {
            Err(StoreError(format!(
                "table {id}: this store cannot mark tables expired"
            )))
        })
    }
}

/// The SQL store: SQLite or PostgreSQL.
#[derive(Clone, Debug)]
pub enum SqlStore {
    /// An SQLite file (or memory).
    Sqlite {
        /// The connections.
        pool: SqlitePool,
        /// The group-commit writer of events and records (see [`SqlStore::open`]).
        writer: mpsc::Sender<Write>,
    },
    /// A PostgreSQL database.
    Postgres {
        /// The connections.
        pool: PgPool,
        /// The group-commit writer of records and of events outside a cluster's tables (see
        /// [`SqlStore::open`]).
        writer: mpsc::Sender<Write>,
    },
}

/// An event waiting for the writer.
#[derive(Debug)]
pub struct Append {
    id: String,
    seq: i64,
    body: String,
    done: oneshot::Sender<Result<(), StoreError>>,
}

/// A finished game's record waiting for the writer.
#[derive(Debug)]
pub struct Record {
    id: String,
    body: String,
    done: oneshot::Sender<Result<(), StoreError>>,
}

/// What the writer is given: every write made while tables are played goes through it. On
/// SQLite a second writer would find the database locked and wait in SQLite's busy handler,
/// which sleeps for up to 100 ms at a time (a burst of games ending together held every
/// table's events back that long); on PostgreSQL each write alone would be a commit, a flush
/// of the database's log to disk, and 2,500 games ending together queued their records
/// behind each other's flushes for the pool's connections. (On PostgreSQL a table's events
/// are the cluster's to write, [`crate::cluster::Cluster::append`], and only the few written
/// outside it come here.)
#[derive(Debug)]
pub enum Write {
    /// An event of a table's log.
    Event(Append),
    /// A finished game's record.
    Record(Record),
}

const APPEND: &str = "INSERT INTO torite_events (table_id, seq, body) VALUES ($1, $2, $3)";
/// [`APPEND`] before and after its rows, for the SQLite writer's multi-row statements.
const APPEND_ROWS: (&str, &str) = ("INSERT INTO torite_events (table_id, seq, body) ", "");
const SAVE_RECORD: &str = "INSERT INTO torite_records (table_id, body) VALUES ($1, $2) \
                           ON CONFLICT (table_id) DO UPDATE SET body = excluded.body";
/// [`SAVE_RECORD`] before and after its rows.
const SAVE_RECORD_ROWS: (&str, &str) = (
    "INSERT INTO torite_records (table_id, body) ",
    " ON CONFLICT (table_id) DO UPDATE SET body = excluded.body",
);
/// The most writes the writer takes at once.
const BATCH: usize = 512;

/// SQLite has one writer at a time, and a transaction costs far more than a row: one task
/// takes the writes waiting from every table and commits them in a few statements, then
/// answers each. An event is still acknowledged only once its statement has committed.
async fn write_batches(pool: SqlitePool, mut rx: mpsc::Receiver<Write>) {
    let mut events = Vec::with_capacity(BATCH);
    let mut records = Vec::new();
    while let Some(first) = rx.recv().await {
        let mut take = |w| match w {
            Write::Event(a) => events.push(a),
            Write::Record(r) => records.push(r),
        };
        take(first);
        for _ in 1..BATCH {
            match rx.try_recv() {
                Ok(w) => take(w),
                Err(_) => break,
            }
        }
        // Events first: a record is only saved once its game's last event was answered, so
        // the two never depend on each other within a batch.
        write_all(&pool, &mut events, APPEND_ROWS, |row, a| {
            row.push_bind(&a.id).push_bind(a.seq).push_bind(&a.body);
        })
        .await;
        write_all(&pool, &mut records, SAVE_RECORD_ROWS, |row, r| {
            row.push_bind(&r.id).push_bind(&r.body);
        })
        .await;
    }
}

/// Hands a write to the SQLite writer and waits for its answer.
async fn by_writer(
    writer: &mpsc::Sender<Write>,
    write: impl FnOnce(oneshot::Sender<Result<(), StoreError>>) -> Write,
) -> Result<(), StoreError> {
    let (done, answer) = oneshot::channel();
    let gone = || StoreError("the database writer has stopped".into());
    writer.send(write(done)).await.map_err(|_| gone())?;
    answer.await.map_err(|_| gone())?
}

/// A write the SQLite writer answers.
trait Answered {
    /// Tells the one who waits for the write how it went.
    fn answer(self, result: Result<(), StoreError>);
}

impl Answered for Append {
    fn answer(self, result: Result<(), StoreError>) {
        let _ = self.done.send(result);
    }
}

impl Answered for Record {
    fn answer(self, result: Result<(), StoreError>) {
        let _ = self.done.send(result);
    }
}

/// One `INSERT` of `rows`: `head`, the rows' `VALUES` bound by `bind`, then `tail`.
fn multi_row<'q, T>(
    head: &str,
    tail: &str,
    rows: &'q [T],
    bind: impl for<'b> Fn(&mut Separated<'b, 'q, sqlx::Sqlite, &'static str>, &'q T),
) -> sqlx::QueryBuilder<'q, sqlx::Sqlite> {
    let mut insert = sqlx::QueryBuilder::<sqlx::Sqlite>::new(head);
    insert.push_values(rows, |mut row, r| bind(&mut row, r));
    insert.push(tail);
    insert
}

/// Writes and answers every row of `rows` (emptying it): `INSERT INTO ... (columns)` in
/// `head`, the rows' `VALUES` bound by `bind`, then `tail`.
///
/// The rows go in statements of a power of two of rows each, so that their few shapes stay
/// in the connection's statement cache. One statement is one transaction of its own, all or
/// none: each is a single round trip to the connection's thread, where BEGIN, the rows and
/// COMMIT would be three or more. Once a statement is refused (a taken sequence number) or the
/// database fails, its rows and the ones after it are written each alone, so that each gets
/// its own answer.
async fn write_all<T: Answered>(
    pool: &SqlitePool,
    rows: &mut Vec<T>,
    (head, tail): (&str, &str),
    bind: impl for<'b, 'q> Fn(&mut Separated<'b, 'q, sqlx::Sqlite, &'static str>, &'q T) + Copy,
) {
    let mut written = 0;
    while written < rows.len() {
        let n = 1 << (rows.len() - written).ilog2();
        let mut insert = multi_row(head, tail, &rows[written..written + n], bind);
        if insert.build().execute(pool).await.is_err() {
            break;
        }
        written += n;
    }
    let mut answers = rows.drain(..);
    for r in answers.by_ref().take(written) {
        r.answer(Ok(()));
    }
    for r in answers {
        let mut insert = multi_row(head, tail, std::slice::from_ref(&r), bind);
        let one = insert
            .build()
            .execute(pool)
            .await
            .map(|_| ())
            .map_err(StoreError::from);
        r.answer(one);
    }
}

/// [`APPEND`] of any number of rows, given as three arrays: one statement of one shape.
const APPEND_ARRAYS: &str = "INSERT INTO torite_events (table_id, seq, body) \
                             SELECT * FROM UNNEST($1::TEXT[], $2::BIGINT[], $3::TEXT[])";
/// [`SAVE_RECORD`] of any number of rows, given as two arrays.
const SAVE_RECORD_ARRAYS: &str = "INSERT INTO torite_records (table_id, body) \
     SELECT * FROM UNNEST($1::TEXT[], $2::TEXT[]) AS v (table_id, body) \
     ON CONFLICT (table_id) DO UPDATE SET body = excluded.body";

/// PostgreSQL's writer, as [`write_batches`] is SQLite's: takes the writes waiting, commits
/// the events in one statement and the records in another, then answers each.
async fn write_batches_pg(pool: PgPool, mut rx: mpsc::Receiver<Write>) {
    let mut waiting = Vec::with_capacity(BATCH);
    let (mut events, mut records) = (Vec::new(), Vec::new());
    while rx.recv_many(&mut waiting, BATCH).await > 0 {
        for w in waiting.drain(..) {
            match w {
                Write::Event(a) => events.push(a),
                Write::Record(r) => records.push(r),
            }
        }
        // Events first, as on SQLite.
        if !events.is_empty() {
            let together = sqlx::query(APPEND_ARRAYS)
                .bind(events.iter().map(|a| a.id.as_str()).collect::<Vec<_>>())
                .bind(events.iter().map(|a| a.seq).collect::<Vec<_>>())
                .bind(events.iter().map(|a| a.body.as_str()).collect::<Vec<_>>())
                .execute(&pool)
                .await;
            answer_each(&pool, &mut events, together, |a| {
                sqlx::query(APPEND).bind(&a.id).bind(a.seq).bind(&a.body)
            })
            .await;
        }
        if !records.is_empty() {
            // Two records of one table in one statement are refused as a whole ("cannot
            // affect row a second time"); then each goes alone, the later one last.
            let together = sqlx::query(SAVE_RECORD_ARRAYS)
                .bind(records.iter().map(|r| r.id.as_str()).collect::<Vec<_>>())
                .bind(records.iter().map(|r| r.body.as_str()).collect::<Vec<_>>())
                .execute(&pool)
                .await;
            answer_each(&pool, &mut records, together, |r| {
                sqlx::query(SAVE_RECORD).bind(&r.id).bind(&r.body)
            })
            .await;
        }
    }
}

/// Answers every row of `rows` (emptying it) after the one statement of them all: stored,
/// when it committed (`together`); when the database refused it, each is written alone by
/// `alone` for its own answer; when the database could not be reached, each is told so at
/// once (written alone, each would wait out the pool's timeout in turn).
async fn answer_each<T: Answered>(
    pool: &PgPool,
    rows: &mut Vec<T>,
    together: Result<PgQueryResult, sqlx::Error>,
    alone: impl for<'q> Fn(&'q T) -> sqlx::query::Query<'q, sqlx::Postgres, PgArguments>,
) {
    // The one answer every row gets, where there is one.
    let for_all = match together {
        Ok(_) => Some(Ok(())),
        Err(sqlx::Error::Database(_)) => None,
        Err(e) => Some(Err(StoreError::from(e))),
    };
    for r in rows.drain(..) {
        let answer = match &for_all {
            Some(answer) => answer.clone(),
            None => alone(&r)
                .execute(pool)
                .await
                .map(|_| ())
                .map_err(StoreError::from),
        };
        r.answer(answer);
    }
}

const SCHEMA: [&str; 5] = [
    "CREATE TABLE IF NOT EXISTS torite_tables (id TEXT PRIMARY KEY, created BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS torite_scoresheets (id TEXT PRIMARY KEY, created BIGINT NOT NULL, \
     version BIGINT NOT NULL, body TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS torite_events (table_id TEXT NOT NULL, seq BIGINT NOT NULL, \
     body TEXT NOT NULL, PRIMARY KEY (table_id, seq))",
    "CREATE TABLE IF NOT EXISTS torite_records (table_id TEXT PRIMARY KEY, body TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS torite_expired (table_id TEXT PRIMARY KEY, expired BIGINT NOT NULL)",
];

/// The analyses' table, created after [`SCHEMA`]: each finished game's analyses by seat
/// selection and budget.
const ANALYSIS_SCHEMA: &str = "CREATE TABLE IF NOT EXISTS torite_analyses (table_id TEXT NOT NULL, \
     selection TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (table_id, selection))";

macro_rules! on_pool {
    ($store:expr, $pool:ident => $body:expr) => {
        match $store {
            SqlStore::Sqlite { pool: $pool, .. } => $body,
            SqlStore::Postgres { pool: $pool, .. } => $body,
        }
    };
}

mod profiles;
pub use profiles::{ProfileRow, ProfileRows, ProfileStore, SeatRow};
mod duplicate;
pub use duplicate::DuplicateStore;
mod sheets;
pub use sheets::{SeriesRow, SheetRow, SheetRows};

impl SqlStore {
    /// Opens (and creates if needed) the database at `url`: `sqlite:FILE`, `sqlite::memory:`
    /// or `postgres://...`. A bare path is taken as an SQLite file.
    ///
    /// # Errors
    ///
    /// The database cannot be opened or the tables cannot be created.
    pub async fn open(url: &str) -> Result<SqlStore, StoreError> {
        let store = if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            let pool = PgPoolOptions::new()
                .max_connections(8)
                .acquire_timeout(Duration::from_secs(10))
                .connect(url)
                .await?;
            let (writer, rx) = mpsc::channel(4 * BATCH);
            tokio::spawn(write_batches_pg(pool.clone(), rx));
            SqlStore::Postgres { pool, writer }
        } else {
            let url = if url.starts_with("sqlite:") {
                url.to_owned()
            } else {
                format!("sqlite:{url}")
            };
            let memory = url.contains(":memory:") || url.contains("mode=memory");
            let options = SqliteConnectOptions::from_str(&url)?
                .create_if_missing(true)
                .journal_mode(if memory {
                    SqliteJournalMode::Memory
                } else {
                    SqliteJournalMode::Wal
                })
                // With WAL, NORMAL keeps every committed write across a crash of the process
                // (kill -9); only a power cut can lose the last transactions.
                .synchronous(SqliteSynchronous::Normal)
                .busy_timeout(Duration::from_secs(10));
            let pool = SqlitePoolOptions::new()
                // One connection for memory databases: each connection would get its own.
                .max_connections(if memory { 1 } else { 3 })
                // A connection to a file of this process cannot go stale as one over a network
                // can: no ping (a round trip to the connection's thread) before each use.
                .test_before_acquire(false)
                .connect_with(options)
                .await?;
            let (writer, rx) = mpsc::channel(4 * BATCH);
            tokio::spawn(write_batches(pool.clone(), rx));
            SqlStore::Sqlite { pool, writer }
        };
        let statements = SCHEMA
            .into_iter()
            .chain([ANALYSIS_SCHEMA])
            .chain(profiles::SCHEMA)
            .chain(duplicate::SCHEMA);
        match &store {
            SqlStore::Sqlite { pool, .. } => {
                for statement in statements {
                    sqlx::query(statement).execute(pool).await?;
                }
            }
            SqlStore::Postgres { pool, .. } => {
                // Servers starting at once on a new database would race to create the same
                // tables (PostgreSQL's `IF NOT EXISTS` does not hold against that): one at a
                // time, under a lock of the transaction.
                let mut tx = pool.begin().await?;
                sqlx::query("SELECT pg_advisory_xact_lock(7411852)")
                    .execute(&mut *tx)
                    .await?;
                for statement in statements {
                    sqlx::query(statement).execute(&mut *tx).await?;
                }
                tx.commit().await?;
            }
        }
        Ok(store)
    }

    /// Which database this is: `sqlite` or `postgres`.
    #[must_use]
    pub const fn kind(&self) -> &'static str {
        match self {
            SqlStore::Sqlite { .. } => "sqlite",
            SqlStore::Postgres { .. } => "postgres",
        }
    }

    /// The writer of events and records.
    fn writer(&self) -> &mpsc::Sender<Write> {
        match self {
            SqlStore::Sqlite { writer, .. } | SqlStore::Postgres { writer, .. } => writer,
        }
    }
}

/// Every row the store keeps for one table: what a backup holds ([`SqlStore::export`],
/// [`SqlStore::import`]).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TableRows {
    /// The table id.
    pub id: String,
    /// Creation time, seconds since the Unix epoch.
    pub created: i64,
    /// The events (JSON), in order from number 0.
    pub events: Vec<String>,
    /// The finished game's record (`RECORD.md` JSON), once kept.
    pub record: Option<String>,
    /// When the table was let go unstarted (seconds since the Unix epoch), if it was.
    pub expired: Option<i64>,
}

/// Why an import was refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ImportError {
    /// A table of the backup is already in the database (and replacing was not asked for).
    Exists(String),
    /// A score sheet of the backup is already in the database (and replacing was not asked for).
    SheetExists(String),
    /// A duplicate series of the backup is already in the database (and replacing was not
    /// asked for).
    SeriesExists(String),
    /// The database failed.
    Store(StoreError),
}

impl std::fmt::Display for ImportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ImportError::Exists(id) => write!(
                f,
                "table {id} is already in the database (--replace overwrites it); nothing was imported"
            ),
            ImportError::SheetExists(id) => write!(
                f,
                "score sheet {id} is already in the database (--replace overwrites it); nothing was imported"
            ),
            ImportError::SeriesExists(id) => write!(
                f,
                "duplicate series {id} is already in the database (--replace overwrites it); nothing was imported"
            ),
            ImportError::Store(e) => write!(f, "{e}; nothing was imported"),
        }
    }
}

impl std::error::Error for ImportError {}

impl From<sqlx::Error> for ImportError {
    fn from(e: sqlx::Error) -> ImportError {
        ImportError::Store(e.into())
    }
}

/// The store's tables, each with its column holding the table id.
const TABLES: [(&str, &str); 4] = [
    ("torite_tables", "id"),
    ("torite_events", "table_id"),
    ("torite_records", "table_id"),
    ("torite_expired", "table_id"),
];

impl SqlStore {
    /// Every table the store holds, finished and expired ones too, oldest first, as one
    /// snapshot (a server may write meanwhile).
    ///
    /// # Errors
    ///
    /// The database cannot be read.
    pub async fn export(&self) -> Result<Vec<TableRows>, StoreError> {
        let q1 = "SELECT t.id, t.created, r.body, x.expired FROM torite_tables t \
                  LEFT JOIN torite_records r ON r.table_id = t.id \
                  LEFT JOIN torite_expired x ON x.table_id = t.id ORDER BY t.created, t.id";
        let q2 = "SELECT table_id, body FROM torite_events ORDER BY table_id, seq";
        // One transaction, so that the tables and their events are one snapshot, also while a
        // server writes (SQLite's reads see the database as of their first query; PostgreSQL
        // needs REPEATABLE READ for that).
        let (tables, events) = on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            if matches!(self, SqlStore::Postgres { .. }) {
                sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                    .execute(&mut *tx)
                    .await?;
            }
            let tables = sqlx::query(q1)
                .fetch_all(&mut *tx)
                .await?
                .iter()
                .map(|r| {
                    Ok(TableRows {
                        id: r.try_get(0)?,
                        created: r.try_get(1)?,
                        events: Vec::new(),
                        record: r.try_get(2)?,
                        expired: r.try_get(3)?,
                    })
                })
                .collect::<Result<Vec<_>, sqlx::Error>>()?;
            let events = sqlx::query(q2)
                .fetch_all(&mut *tx)
                .await?
                .iter()
                .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
                .collect::<Result<Vec<EventRow>, sqlx::Error>>()?;
            tx.commit().await?;
            (tables, events)
        });
        let mut by_id: std::collections::HashMap<String, Vec<String>> =
            std::collections::HashMap::new();
        for (id, body) in events {
            by_id.entry(id).or_default().push(body);
        }
        Ok(tables
            .into_iter()
            .map(|mut t| {
                t.events = by_id.remove(&t.id).unwrap_or_default();
                t
            })
            .collect())
    }

    /// Writes `tables` into the store in one transaction: all of them or, on any refusal,
    /// none. A table already in the database is refused unless `replace`, which first
    /// deletes every row the store holds for it.
    ///
    /// # Errors
    ///
    /// A table exists (without `replace`), or the database fails.
    pub async fn import(&self, tables: &[TableRows], replace: bool) -> Result<(), ImportError> {
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            for t in tables {
                // A replaced game's analyses are of the game it replaces.
                sqlx::query("DELETE FROM torite_analyses WHERE table_id = $1")
                    .bind(&t.id)
                    .execute(&mut *tx)
                    .await?;
                for (table, column) in TABLES {
                    if replace {
                        let q = format!("DELETE FROM {table} WHERE {column} = $1");
                        sqlx::query(&q).bind(&t.id).execute(&mut *tx).await?;
                    } else {
                        let q = format!("SELECT {column} FROM {table} WHERE {column} = $1 LIMIT 1");
                        if sqlx::query(&q).bind(&t.id).fetch_optional(&mut *tx).await?.is_some() {
                            return Err(ImportError::Exists(t.id.clone()));
                        }
                    }
                }
                sqlx::query("INSERT INTO torite_tables (id, created) VALUES ($1, $2)")
                    .bind(&t.id)
                    .bind(t.created)
                    .execute(&mut *tx)
                    .await?;
                for (seq, body) in (0_i64..).zip(&t.events) {
                    sqlx::query(APPEND).bind(&t.id).bind(seq).bind(body).execute(&mut *tx).await?;
                }
                if let Some(record) = &t.record {
                    sqlx::query("INSERT INTO torite_records (table_id, body) VALUES ($1, $2)")
                        .bind(&t.id)
                        .bind(record)
                        .execute(&mut *tx)
                        .await?;
                }
                if let Some(at) = t.expired {
                    sqlx::query("INSERT INTO torite_expired (table_id, expired) VALUES ($1, $2)")
                        .bind(&t.id)
                        .bind(at)
                        .execute(&mut *tx)
                        .await?;
                }
            }
            tx.commit().await?;
        });
        Ok(())
    }
}

impl Store for SqlStore {
    fn profiles(&self) -> Option<&dyn ProfileStore> {
        Some(self)
    }

    fn duplicates(&self) -> Option<&dyn DuplicateStore> {
        Some(self)
    }

    fn create_table<'a>(
        &'a self,
        id: &'a str,
        created: i64,
        first: &'a str,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let q1 = "INSERT INTO torite_tables (id, created) VALUES ($1, $2)";
            let q2 = "INSERT INTO torite_events (table_id, seq, body) VALUES ($1, 0, $2)";
            on_pool!(self, pool => {
                let mut tx = pool.begin().await?;
                sqlx::query(q1).bind(id).bind(created).execute(&mut *tx).await?;
                sqlx::query(q2).bind(id).bind(first).execute(&mut *tx).await?;
                tx.commit().await?;
            });
            Ok(())
        })
    }

    fn append<'a>(
        &'a self,
        id: &'a str,
        seq: i64,
        event: &'a str,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            by_writer(self.writer(), |done| {
                Write::Event(Append {
                    id: id.to_owned(),
                    seq,
                    body: event.to_owned(),
                    done,
                })
            })
            .await
        })
    }

    fn load_all(&self) -> BoxFuture<'_, Result<Vec<StoredTable>, StoreError>> {
        Box::pin(async move {
            // Finished games are kept as records and not loaded again; nor are expired tables.
            let q1 = "SELECT id, created FROM torite_tables \
                      WHERE id NOT IN (SELECT table_id FROM torite_records) \
                      AND id NOT IN (SELECT table_id FROM torite_expired) ORDER BY created, id";
            let q2 = "SELECT table_id, body FROM torite_events \
                      WHERE table_id NOT IN (SELECT table_id FROM torite_records) \
                      AND table_id NOT IN (SELECT table_id FROM torite_expired) \
                      ORDER BY table_id, seq";
            let (tables, events): (Vec<TableRow>, Vec<EventRow>) = on_pool!(self, pool => {
                let tables = sqlx::query(q1)
                    .fetch_all(pool)
                    .await?
                    .iter()
                    .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
                    .collect::<Result<Vec<_>, sqlx::Error>>()?;
                let events = sqlx::query(q2)
                    .fetch_all(pool)
                    .await?
                    .iter()
                    .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
                    .collect::<Result<Vec<_>, sqlx::Error>>()?;
                (tables, events)
            });
            let mut by_id: std::collections::HashMap<String, Vec<String>> =
                std::collections::HashMap::new();
            for (id, body) in events {
                by_id.entry(id).or_default().push(body);
            }
            Ok(tables
                .into_iter()
                .map(|(id, created)| StoredTable {
                    events: by_id.remove(&id).unwrap_or_default(),
                    id,
                    created,
                })
                .collect())
        })
    }

    fn save_record<'a>(
        &'a self,
        id: &'a str,
        record: &'a str,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            by_writer(self.writer(), |done| {
                Write::Record(Record {
                    id: id.to_owned(),
                    body: record.to_owned(),
                    done,
                })
            })
            .await
        })
    }

    fn ready(&self) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(async move {
            for (table, column) in TABLES {
                let q = format!("SELECT {column} FROM {table} LIMIT 1");
                on_pool!(self, pool => {
                    sqlx::query(&q)
                        .fetch_optional(pool)
                        .await
                        .map_err(|e| StoreError(format!("{table}: {e}")))?;
                });
            }
            Ok(())
        })
    }

    fn close(&self) -> BoxFuture<'_, ()> {
        Box::pin(async move { on_pool!(self, pool => pool.close().await) })
    }

    fn expire<'a>(&'a self, id: &'a str, at: i64) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let q = "INSERT INTO torite_expired (table_id, expired) VALUES ($1, $2) \
                     ON CONFLICT (table_id) DO NOTHING";
            on_pool!(self, pool => {
                sqlx::query(q).bind(id).bind(at).execute(pool).await?;
            });
            Ok(())
        })
    }

    fn create_scoresheet<'a>(
        &'a self,
        id: &'a str,
        created: i64,
        body: &'a str,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let q = "INSERT INTO torite_scoresheets (id, created, version, body) \
                     VALUES ($1, $2, 0, $3)";
            on_pool!(self, pool => {
                sqlx::query(q).bind(id).bind(created).bind(body).execute(pool).await?;
            });
            Ok(())
        })
    }

    fn scoresheet<'a>(
        &'a self,
        id: &'a str,
    ) -> BoxFuture<'a, Result<Option<(String, i64)>, StoreError>> {
        Box::pin(async move {
            let q = "SELECT body, version FROM torite_scoresheets WHERE id = $1";
            let row = on_pool!(self, pool => {
                sqlx::query(q).bind(id).fetch_optional(pool).await?
                    .map(|r| Ok::<_, sqlx::Error>((r.try_get::<String, _>(0)?, r.try_get::<i64, _>(1)?)))
                    .transpose()?
            });
            Ok(row)
        })
    }

    fn update_scoresheet<'a>(
        &'a self,
        id: &'a str,
        version: i64,
        body: &'a str,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            let q = "UPDATE torite_scoresheets SET body = $1, version = version + 1 \
                     WHERE id = $2 AND version = $3";
            let done = on_pool!(self, pool => {
                sqlx::query(q).bind(body).bind(id).bind(version).execute(pool).await?
                    .rows_affected()
            });
            Ok(done == 1)
        })
    }

    fn analysis<'a>(
        &'a self,
        id: &'a str,
        selection: &'a str,
    ) -> BoxFuture<'a, Result<Option<String>, StoreError>> {
        Box::pin(async move {
            let q = "SELECT body FROM torite_analyses WHERE table_id = $1 AND selection = $2";
            let row = on_pool!(self, pool => {
                sqlx::query(q).bind(id).bind(selection).fetch_optional(pool).await?
                    .map(|r| r.try_get::<String, _>(0)).transpose()?
            });
            Ok(row)
        })
    }

    fn save_analysis<'a>(
        &'a self,
        id: &'a str,
        selection: &'a str,
        body: &'a str,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let q = "INSERT INTO torite_analyses (table_id, selection, body) VALUES ($1, $2, $3) \
                     ON CONFLICT (table_id, selection) DO UPDATE SET body = excluded.body";
            on_pool!(self, pool => {
                sqlx::query(q).bind(id).bind(selection).bind(body).execute(pool).await?;
            });
            Ok(())
        })
    }

    fn record<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<String>, StoreError>> {
        Box::pin(async move {
            let q = "SELECT body FROM torite_records WHERE table_id = $1";
            let row = on_pool!(self, pool => {
                sqlx::query(q).bind(id).fetch_optional(pool).await?
                    .map(|r| r.try_get::<String, _>(0)).transpose()?
            });
            Ok(row)
        })
    }

    fn first_event<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<String>, StoreError>> {
        Box::pin(async move {
            let q = "SELECT body FROM torite_events WHERE table_id = $1 AND seq = 0";
            let row = on_pool!(self, pool => {
                sqlx::query(q).bind(id).fetch_optional(pool).await?
                    .map(|r| r.try_get::<String, _>(0)).transpose()?
            });
            Ok(row)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(id: &str) -> TableRows {
        TableRows {
            id: id.to_owned(),
            created: 1,
            events: vec!["{\"a\":1}".into(), "{\"b\":2}".into()],
            record: Some("{\"r\":3}".into()),
            expired: None,
        }
    }

    /// The database that `TORITE_TEST_POSTGRES` names, for the tests ignored without one
    /// (`.ci/run` starts a throwaway cluster and runs them); they fail rather than pass having
    /// tested nothing.
    fn postgres() -> String {
        std::env::var("TORITE_TEST_POSTGRES")
            .ok()
            .filter(|u| !u.is_empty())
            .expect("TORITE_TEST_POSTGRES must name a PostgreSQL database (postgres://user@host:port/db)")
    }

    /// A new SQLite file's URL, and the directory that holds it.
    fn sqlite_file() -> (tempfile::TempDir, String) {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite:{}", dir.path().join("t.db").display());
        (dir, url)
    }

    /// Appends from many tables at once are written together (on SQLite in multi-row
    /// statements of every size up to [`BATCH`]); each is answered, a taken number alone is
    /// refused, and every log keeps its order.
    #[tokio::test]
    async fn appends_written_together_are_each_answered() {
        let (_dir, url) = sqlite_file();
        appends_together(&url).await;
    }

    /// The same on PostgreSQL, whose writer sends each batch as one statement of arrays.
    #[tokio::test]
    #[ignore = "needs PostgreSQL: .ci/run starts one; by hand, set TORITE_TEST_POSTGRES and pass --ignored"]
    async fn appends_written_together_are_each_answered_on_postgres() {
        appends_together(&postgres()).await;
    }

    async fn appends_together(url: &str) {
        let store = std::sync::Arc::new(SqlStore::open(url).await.unwrap());
        // Tables of this run alone, in a database other runs may share.
        let run = crate::actor::new_token()[..8].to_owned();
        // More tables than one batch takes.
        let tables = BATCH + 88;
        let events = 8;
        for t in 0..tables {
            store
                .create_table(&format!("{run}-{t}"), 1, "{\"e\":0}")
                .await
                .unwrap();
        }
        let mut tasks = Vec::new();
        for t in 0..tables {
            let store = std::sync::Arc::clone(&store);
            let id = format!("{run}-{t}");
            tasks.push(tokio::spawn(async move {
                for seq in 1..=events {
                    store
                        .append(&id, seq, &format!("{{\"e\":{seq}}}"))
                        .await
                        .unwrap();
                }
                // A number already taken is refused, whatever else is written with it.
                store.append(&id, 3, "{\"e\":\"again\"}").await.unwrap_err();
            }));
        }
        for task in tasks {
            task.await.unwrap();
        }
        let mut loaded = store.load_all().await.unwrap();
        loaded.retain(|t| t.id.starts_with(&format!("{run}-")));
        loaded.sort_by_key(|t| t.id[run.len() + 1..].parse::<usize>().unwrap());
        assert_eq!(loaded.len(), tables);
        for (t, table) in loaded.iter().enumerate() {
            assert_eq!(table.id, format!("{run}-{t}"));
            let expected: Vec<String> =
                (0..=events).map(|seq| format!("{{\"e\":{seq}}}")).collect();
            assert_eq!(table.events, expected);
        }
        // Let go, so that servers started later on a shared database do not load them.
        for t in 0..tables {
            store.expire(&format!("{run}-{t}"), 1).await.unwrap();
        }
    }

    /// Writes while PostgreSQL cannot be reached are each answered with the failure, at once:
    /// not written alone one after another, each waiting out the pool's timeout.
    #[tokio::test]
    async fn writes_fail_together_when_postgres_is_unreachable() {
        let timeout = Duration::from_millis(500);
        let pool = PgPoolOptions::new()
            .acquire_timeout(timeout)
            .connect_lazy("postgres://nobody@127.0.0.1:9/none")
            .unwrap();
        let (writer, rx) = mpsc::channel(4 * BATCH);
        tokio::spawn(write_batches_pg(pool.clone(), rx));
        let store = std::sync::Arc::new(SqlStore::Postgres { pool, writer });
        let tables = 40;
        let started = std::time::Instant::now();
        let mut tasks = Vec::new();
        for t in 0..tables {
            let store = std::sync::Arc::clone(&store);
            tasks.push(tokio::spawn(async move {
                let id = format!("t{t}");
                if t % 2 == 0 {
                    store.append(&id, 1, "{}").await.unwrap_err();
                } else {
                    store.save_record(&id, "{}").await.unwrap_err();
                }
            }));
        }
        for task in tasks {
            task.await.unwrap();
        }
        // Written alone they would take 40 timeouts; a few batches take a few.
        assert!(
            started.elapsed() < timeout * (tables / 4),
            "{:?}",
            started.elapsed()
        );
    }

    /// Records saved at once, with events between them, all go through the one writer: each
    /// is answered and kept, a record saved again replaces the first, and the events are
    /// written as before.
    #[tokio::test]
    async fn records_saved_together_are_each_answered_and_kept() {
        let (_dir, url) = sqlite_file();
        records_together(&url).await;
    }

    /// The same on PostgreSQL.
    #[tokio::test]
    #[ignore = "needs PostgreSQL: .ci/run starts one; by hand, set TORITE_TEST_POSTGRES and pass --ignored"]
    async fn records_saved_together_are_each_answered_and_kept_on_postgres() {
        records_together(&postgres()).await;
    }

    async fn records_together(url: &str) {
        let store = std::sync::Arc::new(SqlStore::open(url).await.unwrap());
        let run = crate::actor::new_token()[..8].to_owned();
        let tables = BATCH + 40;
        for t in 0..tables {
            store
                .create_table(&format!("{run}-{t}"), 1, "{\"e\":0}")
                .await
                .unwrap();
        }
        let mut tasks = Vec::new();
        for t in 0..tables {
            let store = std::sync::Arc::clone(&store);
            let id = format!("{run}-{t}");
            tasks.push(tokio::spawn(async move {
                store.append(&id, 1, "{\"e\":1}").await.unwrap();
                store.save_record(&id, "first").await.unwrap();
                store.append(&id, 2, "{\"e\":2}").await.unwrap();
                if t % 2 == 0 {
                    store
                        .save_record(&id, &format!("record of {id}"))
                        .await
                        .unwrap();
                }
            }));
        }
        for task in tasks {
            task.await.unwrap();
        }
        for t in 0..tables {
            let id = format!("{run}-{t}");
            let kept = store.record(&id).await.unwrap();
            let expected = if t % 2 == 0 {
                format!("record of {id}")
            } else {
                "first".to_owned()
            };
            assert_eq!(kept.as_deref(), Some(expected.as_str()), "{id}");
        }
        // Two records of one table sent at once (one statement refuses them both on
        // PostgreSQL, and each is then written alone): the later is kept.
        let id = format!("{run}-1");
        let (a, b) = tokio::join!(store.save_record(&id, "a"), store.save_record(&id, "b"));
        a.unwrap();
        b.unwrap();
        assert_eq!(store.record(&id).await.unwrap().as_deref(), Some("b"));
        // A table with a record is finished: not loaded again, but its log is whole.
        let loaded = store.load_all().await.unwrap();
        assert!(!loaded.iter().any(|t| t.id.starts_with(&format!("{run}-"))));
        let q = "SELECT COUNT(*) FROM torite_events WHERE table_id LIKE $1";
        let pattern = format!("{run}-%");
        let (events,): (i64,) = on_pool!(&*store, pool => {
            sqlx::query_as(q).bind(&pattern).fetch_one(pool).await.unwrap()
        });
        assert_eq!(events, 3 * tables as i64);
    }

    #[tokio::test]
    async fn ready_until_a_table_is_missing() {
        let store = SqlStore::open("sqlite::memory:").await.unwrap();
        store.ready().await.unwrap();
        on_pool!(&store, pool => {
            sqlx::query("DROP TABLE torite_records").execute(pool).await.unwrap();
        });
        let e = store.ready().await.unwrap_err();
        assert!(e.0.starts_with("torite_records: "), "{e}");
    }

    #[tokio::test]
    async fn an_import_is_all_or_nothing_and_replaces_only_when_asked() {
        let store = SqlStore::open("sqlite::memory:").await.unwrap();
        store.import(&[rows("b")], false).await.unwrap();
        let refused = store.import(&[rows("a"), rows("b")], false).await;
        assert_eq!(refused, Err(ImportError::Exists("b".into())));
        assert_eq!(store.export().await.unwrap(), [rows("b")]);
        let mut other = rows("b");
        other.events.pop();
        other.record = None;
        other.expired = Some(5);
        store
            .import(&[rows("a"), other.clone()], true)
            .await
            .unwrap();
        assert_eq!(store.export().await.unwrap(), [rows("a"), other]);
        // What an import wrote is what the server loads: expired and finished tables are not.
        assert!(store.load_all().await.unwrap().is_empty());
        store
            .import(
                &[TableRows {
                    record: None,
                    ..rows("c")
                }],
                false,
            )
            .await
            .unwrap();
        let live = store.load_all().await.unwrap();
        assert_eq!(live.len(), 1);
        assert_eq!(live[0].events, rows("c").events);
    }
}
