//! The server's shared state ([`Hub`]): the live tables, the store and the configuration
//! ([`Config`]); loading the stored tables, creating tables and letting them go.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::RwLock;

use crate::actor::{self, TableHandle};
use crate::ask;
use crate::cluster::Cluster;
use crate::refusal::{Refusal, RefusalKind, Why};
use crate::store::{self, Store};
use crate::table::{self, Event, TableState};

mod rematch;

/// The most tables the lobby lists.
pub const LOBBY_SIZE: usize = 200;

/// How the server paces and limits tables.
#[derive(Clone, Debug)]
pub struct Config {
    /// How long a bot waits before it acts, so that people can follow the play.
    pub bot_delay: Duration,
    /// How long a bot waits before leading the next trick (the finished trick stays in view).
    pub trick_pause: Duration,
    /// How long the table waits after a deal before dealing the next.
    pub deal_pause: Duration,
    /// The most unfinished tables the server keeps.
    pub max_tables: usize,
    /// The most spectators' sockets (without a token) open at one table.
    pub max_spectators: usize,
    /// The most spectators' sockets one client address may have open at one table.
    pub max_spectators_per_address: usize,
    /// The most sockets one seat's or the host's token may have open at one table.
    pub max_token_sockets: usize,
    /// What one unit of a table's move timer lasts: a second, except in tests.
    pub timer_unit: Duration,
    /// Tables one address may create per minute (bursts of as many); `None`: no limit.
    pub creates_per_minute: Option<u32>,
    /// How long a finished table stays live (in the lobby, its sockets answered) after the
    /// last socket at it closed; then only its record is kept.
    pub keep_finished: Duration,
    /// How long a person must have had no socket open before the host may give the seat to a
    /// bot.
    pub replace_after: Duration,
    /// How long a table that was never started is kept with no event and no socket open;
    /// then it is let go (marked expired in the store, not loaded again).
    pub expire_open: Duration,
    /// The most open tables (not started, or being played) created by one address; `None`:
    /// no limit.
    pub max_open_per_address: Option<usize>,
    /// Origins other than the server's own whose pages may call it (`scheme://host:port`, as
    /// [`normal_origin`] writes them).
    pub allowed_origins: Vec<String>,
    /// The address people reach the server at (`https://torite.example`, no path), when it is
    /// not where a page may have been opened: the page is told it ([`Config::set_public_url`]),
    /// so that invite links name it.
    pub public_url: Option<String>,
    /// How long a node of a cluster (on PostgreSQL) holds a table's lease without renewing it
    /// (it renews every quarter of that): a node that dies loses its tables after this long.
    pub lease: Duration,
    /// The address (`host:port`) the other nodes of a cluster reach this one at; `None`: the
    /// address it listens on (`127.0.0.1` for an unspecified one).
    pub node_addr: Option<String>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            bot_delay: Duration::from_millis(700),
            trick_pause: Duration::from_millis(1500),
            deal_pause: Duration::from_millis(3000),
            max_tables: 10_000,
            max_spectators: 64,
            max_spectators_per_address: 8,
            max_token_sockets: 8,
            timer_unit: Duration::from_secs(1),
            creates_per_minute: Some(20),
            keep_finished: Duration::from_secs(600),
            replace_after: Duration::from_secs(60),
            expire_open: Duration::from_secs(30 * 60),
            max_open_per_address: Some(10),
            allowed_origins: Vec::new(),
            public_url: None,
            lease: Duration::from_secs(5),
            node_addr: None,
        }
    }
}

impl Config {
    /// No pauses: bots act at once, and no limit on creating tables (tests and load tests).
    #[must_use]
    pub fn instant() -> Config {
        Config {
            bot_delay: Duration::ZERO,
            trick_pause: Duration::ZERO,
            deal_pause: Duration::ZERO,
            creates_per_minute: None,
            max_open_per_address: None,
            ..Config::default()
        }
    }

    /// Sets the address people reach the server at (an `http://` or `https://` origin, a
    /// trailing `/` allowed), and admits its pages.
    ///
    /// # Errors
    ///
    /// `url` is not an origin (`scheme://host[:port]`, nothing more).
    pub fn set_public_url(&mut self, url: &str) -> Result<(), String> {
        let url = url.trim();
        let url = url.strip_suffix('/').unwrap_or(url);
        self.allow_origin(url)?;
        self.public_url = Some(url.to_owned());
        Ok(())
    }

    /// Admits the pages of `origin` (an `http://` or `https://` origin) besides the server's
    /// own.
    ///
    /// # Errors
    ///
    /// `origin` is not an origin (`scheme://host[:port]`, nothing more).
    pub fn allow_origin(&mut self, origin: &str) -> Result<(), String> {
        let normal = normal_origin(origin)?;
        if !self.allowed_origins.contains(&normal) {
            self.allowed_origins.push(normal);
        }
        Ok(())
    }
}

/// An origin in the normal form `scheme://host:port` (lower case, the port always written),
/// or why it is not one. Only `http` and `https` origins are accepted.
///
/// # Errors
///
/// A one-line reason: not a URL, another scheme, no host, or a path, query or user part.
pub fn normal_origin(text: &str) -> Result<String, String> {
    let text = text.trim();
    let uri: axum::http::Uri = text
        .parse()
        .map_err(|e| format!("{text:?} is not an origin (scheme://host[:port]): {e}"))?;
    let scheme = uri.scheme_str().unwrap_or_default().to_ascii_lowercase();
    let default_port = match scheme.as_str() {
        "http" => 80,
        "https" => 443,
        _ => return Err(format!("{text:?} is not an http:// or https:// origin")),
    };
    let authority = uri
        .authority()
        .ok_or_else(|| format!("{text:?} has no host"))?;
    if authority.as_str().contains('@') {
        return Err(format!(
            "{text:?} has a user part: an origin is scheme://host[:port]"
        ));
    }
    if !matches!(uri.path(), "" | "/") || uri.query().is_some() {
        return Err(format!(
            "{text:?} has a path: an origin is scheme://host[:port]"
        ));
    }
    let host = authority.host().to_ascii_lowercase();
    let port = authority.port_u16().unwrap_or(default_port);
    Ok(format!("{scheme}://{host}:{port}"))
}

/// The server's shared state: the live tables and the store.
#[derive(Debug)]
pub struct Hub {
    tables: RwLock<HashMap<String, TableHandle>>,
    /// Table creations per address: the allowance left and when it was last counted.
    creations: std::sync::Mutex<HashMap<std::net::IpAddr, (f64, std::time::Instant)>>,
    /// Held from counting an address's open tables to adding the new one, so that requests
    /// at once cannot all pass [`Config::max_open_per_address`].
    create_gate: tokio::sync::Mutex<()>,
    store: Arc<dyn Store>,
    config: Config,
    /// Turns true when the server begins to shut down ([`Hub::begin_close`]); every socket
    /// holds a receiver, and [`Hub::close`] waits until all are dropped.
    closing: tokio::sync::watch::Sender<bool>,
    /// The post-game analyses under way.
    analyses: crate::analysis::Jobs,
    /// This node's part in a cluster on PostgreSQL: it drives only the tables whose lease it
    /// holds. `None`: the only node (SQLite), which drives every table.
    cluster: Option<Arc<Cluster>>,
}

impl std::fmt::Debug for dyn Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Store")
    }
}

/// The address a client is counted as for the per-address caps (open tables, table creations,
/// spectator sockets): an IPv4 address as it is (also when mapped into IPv6), an IPv6 address
/// by its /64 network, since one host or home is usually given a whole /64 and could otherwise
/// take a fresh address for every request.
pub(crate) fn client_address(ip: std::net::IpAddr) -> std::net::IpAddr {
    use std::net::{IpAddr, Ipv6Addr};
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(Ipv6Addr::from_bits(v6.to_bits() & !u128::from(u64::MAX))),
        },
    }
}

/// A refusal for a failure inside the server that the request did not cause.
fn internal(e: impl std::fmt::Display) -> Refusal {
    Refusal::bad(Why::Internal {
        detail: e.to_string(),
    })
}

/// A stored table's state, replayed from its log: `None` if its first event does not build a
/// table; a later event that does not apply is reported and the table stops there.
fn replay(id: &str, events: &[String]) -> Option<TableState> {
    let mut events = events.iter();
    let first = events.next()?;
    let built = serde_json::from_str::<Event>(first)
        .map_err(|e| e.to_string())
        .and_then(|e| TableState::new(id, &e).map_err(|e| e.to_string()));
    let mut state = match built {
        Ok(state) => state,
        Err(e) => {
            tracing::error!(table = %id, "cannot be loaded: {e}");
            return None;
        }
    };
    for (i, body) in events.enumerate() {
        let applied = serde_json::from_str::<Event>(body)
            .map_err(|e| e.to_string())
            .and_then(|e| state.apply(&e).map_err(|e| e.to_string()));
        if let Err(e) = applied {
            tracing::error!(
                table = %id,
                "event {} does not replay ({e}); the table stops there",
                i + 1
            );
            break;
        }
    }
    Some(state)
}

/// Keeps the record of a replayed table whose game has ended: the server stopped between the
/// last event and keeping the record.
async fn keep_record(store: &dyn Store, state: &TableState) {
    if state.game().is_finished() {
        let record = state.record().to_string();
        if let Err(e) = store.save_record(state.id(), &record).await {
            tracing::error!(table = %state.id(), "record not kept: {e}");
        }
    }
}

pub(crate) fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

impl Hub {
    /// Loads every stored table, replays its events and starts its task.
    ///
    /// # Errors
    ///
    /// The store cannot be read. A table whose log does not replay is reported on standard
    /// error and served as far as it replays.
    pub async fn load(store: Arc<dyn Store>, config: Config) -> Result<Arc<Hub>, String> {
        Hub::load_in(store, config, None).await
    }

    /// [`Hub::load`] for a node of a cluster when `cluster` is given: then no table is loaded
    /// here, and the node takes over the tables nobody drives as it runs
    /// ([`crate::cluster`]).
    ///
    /// # Errors
    ///
    /// As [`Hub::load`].
    pub async fn load_in(
        store: Arc<dyn Store>,
        config: Config,
        cluster: Option<Arc<Cluster>>,
    ) -> Result<Arc<Hub>, String> {
        let stored = if cluster.is_some() {
            Vec::new()
        } else {
            store.load_all().await.map_err(|e| e.to_string())?
        };
        let mut tables = HashMap::new();
        for table in stored {
            let Some(state) = replay(&table.id, &table.events) else {
                continue;
            };
            keep_record(&*store, &state).await;
            tracing::info!(
                table = %table.id,
                status = state.status().as_str(),
                version = state.version(),
                "table loaded"
            );
            let handle = actor::spawn(state, Arc::clone(&store), config.clone());
            tables.insert(table.id.clone(), handle);
        }
        tracing::info!(tables = tables.len(), "tables loaded from the store");
        Ok(Arc::new(Hub {
            tables: RwLock::new(tables),
            creations: std::sync::Mutex::new(HashMap::new()),
            create_gate: tokio::sync::Mutex::new(()),
            store,
            config,
            closing: tokio::sync::watch::Sender::new(false),
            analyses: crate::analysis::Jobs::default(),
            cluster,
        }))
    }

    /// This node's part in a cluster, if it is one.
    pub(crate) fn cluster(&self) -> Option<&Arc<Cluster>> {
        self.cluster.as_ref()
    }

    /// Every table live here.
    pub(crate) async fn local_tables(&self) -> Vec<TableHandle> {
        self.tables.read().await.values().cloned().collect()
    }

    /// Stops driving a table (its lease was lost): its task ends and its sockets close, to
    /// reconnect to the node that drives it now. Does not wait for the task to take the
    /// word: the leases' renewal calls this and must not wait behind a busy table.
    pub(crate) async fn let_go(&self, id: &str) {
        let removed = self.tables.write().await.remove(id);
        if let Some(table) = removed {
            tokio::spawn(async move {
                let _ = table.tx.send(actor::Cmd::Release).await;
            });
        }
    }

    /// Takes over a table of the store that this node does not drive, if its lease is free
    /// (none, expired or this node's) or, with `dead`, still held by that node whose address
    /// refuses connections: takes the lease, replays the log and starts the table's task.
    /// `None` when another node holds it, or it is not live (finished, expired, unknown).
    pub(crate) async fn adopt(&self, id: &str, dead: Option<&str>) -> Option<TableHandle> {
        let cluster = self.cluster.as_ref()?;
        let _one = cluster.adopting(id).await;
        if let Some(table) = self.table(id).await {
            return Some(table);
        }
        if self.is_closing() {
            return None;
        }
        let taken = match dead {
            Some(node) => cluster.take_from(id, node).await,
            None => cluster.take(id).await,
        };
        match taken {
            Ok(true) => {}
            Ok(false) => return None,
            Err(e) => {
                tracing::error!(table = %id, "lease not taken: {e}");
                return None;
            }
        }
        let state = match cluster.events(id).await {
            Ok(events) => replay(id, &events),
            Err(e) => {
                tracing::error!(table = %id, "log not read: {e}");
                None
            }
        };
        let Some(state) = state else {
            cluster.release(id).await;
            return None;
        };
        keep_record(&*self.store, &state).await;
        tracing::info!(
            table = %id,
            status = state.status().as_str(),
            version = state.version(),
            "table taken over"
        );
        let handle = actor::spawn_in(
            state,
            Arc::clone(&self.store),
            self.config.clone(),
            Some(Arc::clone(cluster)),
        );
        self.tables
            .write()
            .await
            .insert(id.to_owned(), handle.clone());
        Some(handle)
    }

    /// The table with this id, while it is live.
    pub async fn table(&self, id: &str) -> Option<TableHandle> {
        self.tables.read().await.get(id).cloned()
    }

    /// A table of the cluster that another node drives (or none does now), as its stored log
    /// replays: `None` without a cluster, or for a table not in the store.
    pub(crate) async fn stored_state(&self, id: &str) -> Option<TableState> {
        let events = self.cluster.as_ref()?.events(id).await.ok()?;
        replay(id, &events)
    }

    /// Lets go of finished tables nobody has had open for [`Config::keep_finished`] (their
    /// tasks end once their last socket closes, and their records stay in the store), and of
    /// tables never started that have been idle for [`Config::expire_open`] (marked expired
    /// in the store).
    pub async fn sweep(&self) {
        use std::sync::atomic::Ordering;
        let now = now_secs();
        let keep = self.config.keep_finished.as_secs();
        let expire = u64::try_from(self.config.expire_open.as_millis()).unwrap_or(u64::MAX);
        let now_ms = actor::now_ms();
        let mut idle = Vec::new();
        let mut let_go = Vec::new();
        self.tables.write().await.retain(|id, h| {
            let state = h.states.borrow();
            let quiet = h.connections.load(Ordering::SeqCst) == 0;
            if state.summary.status == "open"
                && quiet
                && now_ms.saturating_sub(h.last_active.load(Ordering::SeqCst)) >= expire
            {
                idle.push(h.clone());
            }
            let gone =
                state.summary.status == "finished" && quiet && now >= state.finished_at + keep;
            if gone {
                tracing::info!(table = %id, "finished table let go (its record is kept)");
                let_go.push(id.clone());
            }
            !gone
        });
        if let Some(cluster) = &self.cluster {
            for id in &let_go {
                cluster.release(id).await;
            }
        }
        for table in idle {
            // The table's task decides (a request may have come meanwhile) and marks it.
            let expired = ask::ask_plain(&table.tx, |reply| actor::Cmd::Expire { reply })
                .await
                .unwrap_or(false);
            if expired {
                self.tables.write().await.remove(&table.id);
                if let Some(cluster) = &self.cluster {
                    cluster.release(&table.id).await;
                }
            }
        }
    }

    /// The lobby of a node of a cluster: the summaries of the newest [`LOBBY_SIZE`] public
    /// tables of every node, newest first (the others' as they last sent them); the same as
    /// [`Hub::summaries`] on a single node.
    pub async fn lobby(&self) -> Vec<serde_json::Value> {
        let local = self.summaries().await;
        let Some(cluster) = &self.cluster else {
            return local
                .iter()
                .map(|s| serde_json::to_value(s).unwrap_or_default())
                .collect();
        };
        let ids = self.tables.read().await.keys().cloned().collect();
        let mut list = cluster.remote_summaries(&ids);
        list.extend(local.into_iter().map(|s| {
            let value = serde_json::to_value(&s).unwrap_or_default();
            (s.created, s.id, value)
        }));
        list.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        list.truncate(LOBBY_SIZE);
        list.into_iter().map(|(_, _, v)| v).collect()
    }

    /// The lobby: the summaries of the newest [`LOBBY_SIZE`] public tables, newest first
    /// (a private table is never listed).
    pub async fn summaries(&self) -> Vec<table::Summary> {
        let tables = self.tables.read().await;
        let mut list: Vec<table::Summary> = tables
            .values()
            .filter(|h| h.invite.is_none())
            .map(|h| h.states.borrow().summary.clone())
            .collect();
        list.sort_by(|a, b| b.created.cmp(&a.created).then_with(|| a.id.cmp(&b.id)));
        list.truncate(LOBBY_SIZE);
        list
    }

    /// Creates a table whose host sits in `seat`; returns the table id and the host's token.
    /// Its deals and draws come from table seed `seed` ([`torite_core::Seeds`]), a random one
    /// when `None`. `creator` is the address asking, counted against [`Config::max_open_per_address`].
    /// `invite` is the hash of a private table's invite secret ([`table::token_hash`]), `None`
    /// for a public table.
    ///
    /// # Errors
    ///
    /// A refusal for a bad ruleset, name, seat or timer, too many tables (on the server, or
    /// open ones from `creator`), or a storage failure.
    #[allow(clippy::too_many_arguments)]
    pub async fn create(
        &self,
        ruleset: &serde_json::Value,
        name: &str,
        seat: usize,
        timer: Option<u32>,
        seed: Option<u64>,
        creator: Option<std::net::IpAddr>,
        invite: Option<String>,
    ) -> Result<(String, String), Refusal> {
        let token = actor::new_token();
        let id = self
            .create_hosted(
                ruleset,
                Some((seat, name)),
                &token,
                timer,
                seed,
                creator,
                invite,
            )
            .await?;
        Ok((id, token))
    }

    /// Creates a table as [`Hub::create`] does, whose host holds `token` and sits in the
    /// `join` seat under its name, or in no seat (`None`: a duplicate series' tables, hosted
    /// by the series' key); returns the table id.
    ///
    /// # Errors
    ///
    /// As [`Hub::create`].
    #[allow(clippy::too_many_arguments)]
    pub(crate) async fn create_hosted(
        &self,
        ruleset: &serde_json::Value,
        join: Option<(usize, &str)>,
        token: &str,
        timer: Option<u32>,
        seed: Option<u64>,
        creator: Option<std::net::IpAddr>,
        invite: Option<String>,
    ) -> Result<String, Refusal> {
        let _gate = match (self.config.max_open_per_address, creator) {
            (Some(_), Some(_)) => Some(self.create_gate.lock().await),
            _ => None,
        };
        let (live, mine) = self
            .tables
            .read()
            .await
            .values()
            .filter(|h| h.states.borrow().summary.status != "finished")
            .fold((0, 0), |(live, mine), h| {
                let theirs = creator.is_some() && h.creator == creator;
                (live + 1, mine + usize::from(theirs))
            });
        if live >= self.config.max_tables {
            return Err(Refusal::new(RefusalKind::Full, Why::ServerFull));
        }
        if let Some(max) = self.config.max_open_per_address
            && mine >= max
        {
            return Err(Refusal::new(
                RefusalKind::TooMany,
                Why::TooManyOpen {
                    open: mine.to_string(),
                    max: max.to_string(),
                },
            ));
        }
        if let Some(t) = timer
            && !(5..=3600).contains(&t)
        {
            return Err(Refusal::bad(Why::TimerRange {
                min: "5".into(),
                max: "3600".into(),
            }));
        }
        let join = match join {
            Some((seat, name)) => Some((seat, table::check_name(name)?)),
            None => None,
        };
        let id = actor::new_token()[..12].to_owned();
        let seed = match seed {
            Some(seed) => seed,
            None => {
                let mut seed_bytes = [0u8; 8];
                getrandom::fill(&mut seed_bytes).map_err(internal)?;
                u64::from_le_bytes(seed_bytes)
            }
        };
        let event = |ruleset: serde_json::Value| Event::Created {
            ruleset,
            seed,
            host: table::token_hash(token),
            timer,
            created: now_secs(),
            invite: invite.clone(),
        };
        let mut state = TableState::new(&id, &event(ruleset.clone()))?;
        let rules_id = state.rules().id();
        // Store the canonical form of the ruleset.
        let created = event(state.rules().to_json());
        let join = join.map(|(seat, name)| Event::Join {
            seat,
            name,
            token: table::token_hash(token),
        });
        if let Some(join) = &join {
            state.apply(join)?;
        }
        let store_err = |e: store::StoreError| {
            tracing::error!(table = %id, "table not created: {e}");
            Refusal::new(
                RefusalKind::Storage,
                Why::Storage {
                    detail: e.to_string(),
                },
            )
        };
        let first = serde_json::to_string(&created).map_err(internal)?;
        if let Some(cluster) = &self.cluster {
            // The lease first: no other node may take the table over as it is being stored.
            cluster.take_new(&id).await.map_err(store_err)?;
        }
        self.store
            .create_table(&id, now_secs() as i64, &first)
            .await
            .map_err(store_err)?;
        if let Some(join) = &join {
            let second = serde_json::to_string(join).map_err(internal)?;
            self.store
                .append(&id, 1, &second)
                .await
                .map_err(store_err)?;
        }
        let mut handle = actor::spawn_in(
            state,
            Arc::clone(&self.store),
            self.config.clone(),
            self.cluster.clone(),
        );
        handle.creator = creator;
        self.tables.write().await.insert(id.clone(), handle);
        tracing::info!(table = %id, base = rules_id, "table created");
        Ok(id)
    }

    /// Counts a table creation by `ip` against [`Config::creates_per_minute`]; false when
    /// that address has created too many tables lately.
    pub fn may_create(&self, ip: std::net::IpAddr) -> bool {
        let Some(per_minute) = self.config.creates_per_minute else {
            return true;
        };
        let burst = f64::from(per_minute);
        let now = std::time::Instant::now();
        let mut map = self
            .creations
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if map.len() > 100_000 {
            // Forget addresses whose allowance has refilled.
            map.retain(|_, (_, at)| now.duration_since(*at).as_secs_f64() < 60.0);
        }
        let (allowance, at) = map.entry(ip).or_insert((burst, now));
        *allowance = (*allowance + now.duration_since(*at).as_secs_f64() * burst / 60.0).min(burst);
        *at = now;
        if *allowance < 1.0 {
            return false;
        }
        *allowance -= 1.0;
        true
    }

    /// A receiver that turns true once the server begins to shut down. A socket holds one
    /// while it is open: [`Hub::close`] waits for them.
    #[must_use]
    pub fn closing(&self) -> tokio::sync::watch::Receiver<bool> {
        self.closing.subscribe()
    }

    /// Whether the server has begun to shut down.
    #[must_use]
    pub fn is_closing(&self) -> bool {
        *self.closing.borrow()
    }

    /// Begins the shutdown: every socket is told to close (with code 1001), and no new
    /// socket is taken.
    pub fn begin_close(&self) {
        self.closing.send_replace(true);
    }

    /// Shuts down (after [`Hub::begin_close`], which it calls too): waits up to `grace` for
    /// every socket to close (a socket finishes the action it is sending first), lets every
    /// table go and closes the store once the writes under way are done. Returns how many
    /// sockets were still open when `grace` ran out.
    pub async fn close(&self, grace: Duration) -> usize {
        self.begin_close();
        let left = match tokio::time::timeout(grace, self.closing.closed()).await {
            Ok(()) => 0,
            Err(_) => self.closing.receiver_count(),
        };
        self.tables.write().await.clear();
        if let Some(cluster) = &self.cluster {
            cluster.leave().await;
        }
        self.store.close().await;
        left
    }

    /// The configuration.
    #[must_use]
    pub const fn config(&self) -> &Config {
        &self.config
    }

    /// The store.
    #[must_use]
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    /// The post-game analyses under way.
    pub(crate) fn analyses(&self) -> &crate::analysis::Jobs {
        &self.analyses
    }
}

#[cfg(test)]
mod tests {
    use std::net::IpAddr;

    use super::{client_address, normal_origin};

    #[test]
    fn origins_are_normalised() {
        assert_eq!(
            normal_origin("https://Torite.Example").unwrap(),
            "https://torite.example:443"
        );
        assert_eq!(
            normal_origin("http://127.0.0.1:8080/").unwrap(),
            "http://127.0.0.1:8080"
        );
        assert!(normal_origin("ftp://x").is_err());
        assert!(normal_origin("null").is_err());
        assert!(normal_origin("https://x/path").is_err());
        assert!(normal_origin("https://u@x").is_err());
    }

    #[test]
    fn clients_are_counted_by_ipv4_address_or_ipv6_network() {
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        assert_eq!(client_address(ip("192.0.2.7")), ip("192.0.2.7"));
        assert_eq!(client_address(ip("::ffff:192.0.2.7")), ip("192.0.2.7"));
        assert_eq!(
            client_address(ip("2001:db8:1:2:aaaa::1")),
            ip("2001:db8:1:2::")
        );
        assert_eq!(
            client_address(ip("2001:db8:1:2:ffff:ffff:ffff:ffff")),
            client_address(ip("2001:db8:1:2::1"))
        );
        assert_ne!(
            client_address(ip("2001:db8:1:3::1")),
            client_address(ip("2001:db8:1:2::1"))
        );
        assert_eq!(client_address(ip("::1")), ip("::"));
    }
}
