//! `torite loadtest`: many bot-filled tables played through real WebSocket clients on the
//! loopback interface, reporting actions per second and the latency of the clients' actions
//! (from sending an action to receiving the state that includes it).
//!
//! With `nodes` above 1 it starts that many `torite serve` processes on one PostgreSQL
//! database (a cluster), creates the tables through all of them, connects each table's clients
//! to the other nodes (so that their sockets are forwarded to the table's node) and may kill
//! one node with SIGKILL in the middle of play, or, as if its machine died, stop it with
//! SIGSTOP (its sockets stay open and silent, its leases run out) and wake it with SIGCONT once
//! play is over, so that what it does on waking shows in the logs too; clients whose socket
//! breaks reconnect to the next node. Afterwards it reads every table's log from the database
//! and reports the acknowledged actions missing from it (`lost_actions`), the tables whose log
//! is not one unbroken sequence that replays (`double_owned`: two writers would show there)
//! and the longest wait of a client between last hearing of its table on a socket that broke
//! and seeing it again (`takeover_seconds`).
//!
//! It only ever connects to a loopback address, and stops by itself after the games end or
//! the time limit passes.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::sync::{Semaphore, mpsc, watch};

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

use crate::client::{Brief, Session, request};

/// What to run.
#[derive(Clone, Debug)]
pub struct Args {
    /// Tables played at once.
    pub tables: usize,
    /// The ruleset of every table (a preset id).
    pub ruleset: String,
    /// Deals per game.
    pub deals: u32,
    /// Seats per table played by WebSocket clients (the others by the server's bots).
    pub clients: usize,
    /// The server's bots.
    pub bot: String,
    /// A server already running (a loopback address); `None` starts one in this process.
    pub addr: Option<SocketAddr>,
    /// The database of the server started here.
    pub db: Option<String>,
    /// Stop after this long, finished or not.
    pub limit: Duration,
    /// How long the server's bots wait before acting (the server started here; `serve`
    /// waits 700 ms so that people can follow).
    pub bot_delay: Duration,
    /// How long a client thinks before acting, on average.
    pub think: Duration,
    /// How far each think may fall either side of [`Args::think`] (uniformly, seeded by the
    /// table and seat): zero keeps every table in step, acting at the same moments.
    pub think_jitter: Duration,
    /// How many `torite serve` processes to start on [`Args::db`] (PostgreSQL) for more
    /// than 1; 1 plays against one server (in this process, or at [`Args::addr`]).
    pub nodes: usize,
    /// Kill the first node with SIGKILL this long after play begins (with more than one
    /// node).
    pub kill_after: Option<Duration>,
    /// With [`Args::kill_after`]: stop the node with SIGSTOP instead of killing it, and wake
    /// it with SIGCONT once play is over, before the logs are read.
    pub freeze: bool,
    /// The `torite` program the nodes run (`torite serve`).
    pub program: Option<PathBuf>,
    /// Keep each node's log (level info) in this directory as `node-N.log`, N from 0 in the
    /// order the nodes start (node 0 is the one killed or frozen); `None` drops the logs.
    pub node_logs: Option<PathBuf>,
}

struct Outcome {
    latencies: Vec<Duration>,
    actions: u64,
    errors: u64,
    finished: bool,
    /// The versions at which this seat's actions were acknowledged (each its event's number).
    acked: Vec<(u64, String)>,
    /// How long each lost socket took to be replaced by one showing the table.
    outages: Vec<Outage>,
}

/// One lost socket and its replacement.
#[derive(Debug)]
struct Outage {
    /// From last hearing of the table to seeing it again.
    took: Duration,
    /// How the socket was found broken.
    broken_by: String,
    /// The node the broken socket was connected to (its index among the addresses).
    node: usize,
    /// Whether an action of the seat was waiting for its answer when the socket broke, and
    /// whether the last state had it to act: what the seat was waiting for.
    waiting: &'static str,
    /// Connections tried before one showed the table.
    attempts: u32,
    /// From the socket found broken to seeing the table again.
    reconnecting: Duration,
}

/// One `torite serve` child process.
struct Node {
    child: Child,
    addr: SocketAddr,
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Sends `signal` (`STOP`, `CONT`) to a node's process.
fn signal(child: &Child, signal: &str) -> Result<(), String> {
    let sent = Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(child.id().to_string())
        .status()
        .map_err(|e| format!("SIG{signal} not sent: {e}"))?;
    if sent.success() {
        Ok(())
    } else {
        Err(format!("SIG{signal} not sent to the node"))
    }
}

/// Starts `torite serve` on a free port of 127.0.0.1 on `db` and reads the address it prints;
/// its standard error is then read as it comes, and written to `log` if given (else dropped).
fn start_node(
    program: &PathBuf,
    db: &str,
    pace: Duration,
    log: Option<&std::path::Path>,
) -> Result<Node, String> {
    let mut kept = match log {
        Some(path) => Some(
            std::fs::File::create(path)
                .map_err(|e| format!("node log {}: cannot be written: {e}", path.display()))?,
        ),
        None => None,
    };
    let level = if kept.is_some() { "info" } else { "warn" };
    let mut child = Command::new(program)
        .args(["serve", "--addr", "127.0.0.1:0", "--db", db, "--log", level])
        .arg("--loadtest-pace-ms")
        .arg(pace.as_millis().to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {} serve: {e}", program.display()))?;
    let stderr = child.stderr.take().ok_or("no standard error")?;
    let mut reader = BufReader::new(stderr);
    let mut line = String::new();
    reader.read_line(&mut line).map_err(|e| e.to_string())?;
    if let Some(file) = &mut kept {
        let _ = file.write_all(line.as_bytes());
    }
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .and_then(|a| a.parse().ok());
    let Some(addr) = addr else {
        let _ = child.kill();
        let _ = child.wait();
        return Err(format!("the node did not start: {}", line.trim()));
    };
    std::thread::spawn(move || {
        let mut buf = [0u8; 8192];
        while let Ok(n @ 1..) = reader.read(&mut buf) {
            if let Some(file) = &mut kept {
                let _ = file.write_all(&buf[..n]);
            }
        }
    });
    Ok(Node { child, addr })
}

async fn post(addr: SocketAddr, path: &str, body: Value) -> Result<Value, String> {
    let answer = request(addr, "POST", path, Some(&body)).await?;
    if answer.status >= 300 {
        return Err(format!("POST {path}: {} {}", answer.status, answer.body));
    }
    Ok(answer.json())
}

/// Sets up one table: returns its id and one token per client seat.
async fn setup(addr: SocketAddr, args: &Args) -> Result<(String, Vec<String>), String> {
    let created = post(
        addr,
        "/api/tables",
        json!({"ruleset": {"base": args.ruleset, "deals": args.deals}, "name": "load-0"}),
    )
    .await?;
    let id = created["id"].as_str().unwrap_or_default().to_owned();
    let host = created["token"].as_str().unwrap_or_default().to_owned();
    let players =
        torite_core::Preset::from_id(&args.ruleset).map_or(4, |p| p.ruleset().players as usize);
    let mut tokens = vec![host.clone()];
    for seat in 1..players {
        if seat < args.clients {
            let joined = post(
                addr,
                &format!("/api/tables/{id}/join"),
                json!({"seat": seat, "name": format!("load-{seat}")}),
            )
            .await?;
            tokens.push(joined["token"].as_str().unwrap_or_default().to_owned());
        } else {
            post(
                addr,
                &format!("/api/tables/{id}/bot"),
                json!({"seat": seat, "bot": args.bot, "token": host}),
            )
            .await?;
        }
    }
    Ok((id, tokens))
}

/// Waits until the node at `addr` answers `/readyz` (its database open, its tables made).
async fn ready(addr: SocketAddr) -> Result<(), String> {
    let until = Instant::now() + Duration::from_secs(30);
    loop {
        match request(addr, "GET", "/readyz", None).await {
            Ok(answer) if answer.status == 200 => return Ok(()),
            Ok(_) | Err(_) if Instant::now() < until => {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Ok(answer) => return Err(format!("node {addr} not ready: {}", answer.body)),
            Err(e) => return Err(format!("node {addr} not ready: {e}")),
        }
    }
}

/// How long a client thinks before each action: [`Args::think`], give or take up to
/// [`Args::think_jitter`].
struct Think {
    mean: Duration,
    jitter: Duration,
    rng: ChaCha8Rng,
}

impl Think {
    fn new(mean: Duration, jitter: Duration, seed: u64) -> Think {
        Think {
            mean,
            jitter,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// The next think: uniform over `mean ± jitter`, to the microsecond.
    fn next(&mut self) -> Duration {
        let jitter = u64::try_from(self.jitter.as_micros()).unwrap_or(u64::MAX);
        if jitter == 0 {
            return self.mean;
        }
        let offset = self.rng.next_u64() % (2 * jitter + 1);
        (self.mean + Duration::from_micros(offset)).saturating_sub(self.jitter)
    }
}

/// How many nodes a client of a cluster tries for its first connection.
const FIRST_TRIES: usize = 10;

/// The clients still playing. Every socket stays open until the last client has stopped
/// playing, as every socket is open before the first table starts: the latencies measure the
/// play of all the tables with all their sockets open, and the tables that finish last do
/// not play their last cards while ten thousand sockets close around them.
struct Playing {
    left: AtomicUsize,
    done: watch::Sender<bool>,
}

/// One client's place among the [`Playing`]: dropped when it stops playing, however it
/// stops (finished, out of time, failed).
struct StillPlaying(Arc<Playing>);

impl Playing {
    /// `clients` places, one for each client.
    fn new(clients: usize) -> Arc<Playing> {
        Arc::new(Playing {
            left: AtomicUsize::new(clients),
            done: watch::Sender::new(clients == 0),
        })
    }

    fn place(self: &Arc<Playing>) -> StillPlaying {
        StillPlaying(Arc::clone(self))
    }
}

impl Drop for StillPlaying {
    fn drop(&mut self) {
        if self.0.left.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.0.done.send_replace(true);
        }
    }
}

/// Keeps the socket open, reading (and so answering pings), until every client has stopped
/// playing or the socket breaks; then closes it.
async fn linger(mut session: Session, playing: StillPlaying) {
    let mut done = playing.0.done.subscribe();
    drop(playing);
    loop {
        tokio::select! {
            _ = done.wait_for(|d| *d) => break,
            heard = session.next_brief() => if heard.is_err() {
                break;
            },
        }
    }
    session.close().await;
}

/// One client: plays its seat with the first legal action until the game ends. When its
/// socket breaks it connects again, to the next of `addrs` each time, until the deadline.
/// It tells `connected` once its first connection is made or has failed, and keeps its
/// socket open after play until every client has stopped playing (see [`Playing`]).
#[allow(clippy::too_many_arguments)]
async fn client(
    addrs: Arc<Vec<SocketAddr>>,
    first: usize,
    id: String,
    token: String,
    deadline: Instant,
    mut think: Think,
    connected: mpsc::UnboundedSender<()>,
    playing: StillPlaying,
) -> Result<Outcome, String> {
    let mut at = first;
    let mut opened = Session::connect(addrs[at], &id, Some(&token)).await;
    // In a cluster a handshake can fail while the nodes are busy (the owner slow to answer a
    // forwarded one): the client tries the next node, as the browser would.
    for _ in 1..FIRST_TRIES {
        if opened.is_ok() || addrs.len() < 2 || Instant::now() > deadline {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        at = (at + 1) % addrs.len();
        opened = Session::connect(addrs[at], &id, Some(&token)).await;
    }
    let _ = connected.send(());
    drop(connected);
    let mut session = opened?;
    let mut out = Outcome {
        latencies: Vec::new(),
        actions: 0,
        errors: 0,
        finished: false,
        acked: Vec::new(),
        outages: Vec::new(),
    };
    let mut pending: Option<(u64, Instant, String)> = None;
    let brief = |state: &Value| Brief {
        kind: "state".into(),
        code: String::new(),
        args: Value::Null,
        version: state["version"].as_u64().unwrap_or(0),
        finished: state["finished"] == true,
        legal: state["legal"]
            .as_array()
            .map(|l| {
                l.iter()
                    .filter_map(|a| a.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default(),
    };
    let mut state = brief(&session.state);
    // When the table was last heard of: a socket to a node whose machine died is silent for a
    // while before it is known to be broken, and the outage counts from here.
    let mut heard = Instant::now();
    loop {
        if state.finished || Instant::now() > deadline {
            out.finished = state.finished;
            out.actions = state.version;
            break;
        }
        if pending.is_none() && !state.legal.is_empty() {
            let wait = think.next();
            if !wait.is_zero() {
                tokio::time::sleep(wait).await;
            }
            let action = state.legal[0].clone();
            if session.act_at(&action, state.version).await.is_ok() {
                pending = Some((state.version, Instant::now(), action));
            }
        }
        let msg = match session.next_brief().await {
            Ok(msg) => {
                heard = Instant::now();
                msg
            }
            Err(e) if addrs.len() > 1 => {
                // The socket broke (its node, or the table's, is gone): connect again.
                let lost = heard;
                let broken = Instant::now();
                let node = at;
                let waiting = match (&pending, state.legal.is_empty()) {
                    (Some(_), _) => "its action's answer",
                    (None, true) => "another seat",
                    (None, false) => "its own turn",
                };
                let mut attempts = 0;
                pending = None;
                let again = loop {
                    attempts += 1;
                    if Instant::now() > deadline {
                        return Err(format!(
                            "table {id}: not reconnected before the deadline ({e})"
                        ));
                    }
                    at = (at + 1) % addrs.len();
                    match Session::connect(addrs[at], &id, Some(&token)).await {
                        Ok(s) => break s,
                        // A table that finished meanwhile may be held by no node any more
                        // (its node gone, its record stored): the game is over here too.
                        Err(_) if finished_meanwhile(addrs[at], &id).await => {
                            out.finished = true;
                            out.actions = state.version;
                            return Ok(out);
                        }
                        Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
                    }
                };
                out.outages.push(Outage {
                    took: lost.elapsed(),
                    broken_by: e,
                    node,
                    waiting,
                    attempts,
                    reconnecting: broken.elapsed(),
                });
                heard = Instant::now();
                session = again;
                state = brief(&session.state);
                continue;
            }
            Err(e) => return Err(e),
        };
        if msg.kind == "error" {
            out.errors += 1;
            pending = None;
            // A state published before the action came in showed it as acknowledged: the
            // refusal names the version it answered.
            if msg.code == "stale" {
                let answered = msg.args["sent"]
                    .as_str()
                    .and_then(|v| v.parse::<u64>().ok());
                out.acked.retain(|(v, _)| Some(*v) != answered);
            }
        } else if msg.kind == "state" {
            if let Some((v, sent, action)) = pending.take() {
                if msg.version > v {
                    out.latencies.push(sent.elapsed());
                    out.acked.push((v, action));
                } else {
                    pending = Some((v, sent, action));
                }
            }
            state = msg;
        }
    }
    linger(session, playing).await;
    Ok(out)
}

/// Whether the table at `addr` is finished: its summary says so, or it is over and only its
/// record is kept (a table that finished as its node died is driven by no node again).
async fn finished_meanwhile(addr: SocketAddr, id: &str) -> bool {
    request(addr, "GET", &format!("/api/tables/{id}"), None)
        .await
        .is_ok_and(|a| {
            let body = a.json();
            (a.status == 200 && body["status"] == "finished")
                || (a.status == 404 && body["code"] == "table-over")
        })
}

/// What the logs of the played tables show: acknowledged actions missing from them, and
/// tables whose log is not one unbroken sequence that replays.
async fn check_logs(
    db: &str,
    acked: &[(String, usize, u64, String)],
    ids: &[String],
) -> Result<(u64, u64, u64), String> {
    use sqlx::Row;
    let pool = sqlx::postgres::PgPoolOptions::new()
        .max_connections(2)
        .connect(db)
        .await
        .map_err(|e| e.to_string())?;
    let mut logs = std::collections::HashMap::new();
    let mut broken = 0;
    let mut finished = 0;
    for id in ids {
        let rows =
            sqlx::query("SELECT seq, body FROM torite_events WHERE table_id = $1 ORDER BY seq")
                .bind(id)
                .fetch_all(&pool)
                .await
                .map_err(|e| e.to_string())?;
        let mut events: Vec<String> = Vec::new();
        let mut unbroken = true;
        for (i, r) in rows.iter().enumerate() {
            let seq: i64 = r.try_get(0).map_err(|e| e.to_string())?;
            unbroken &= seq == i as i64;
            events.push(r.try_get(1).map_err(|e| e.to_string())?);
        }
        let replays = replays(id, &events);
        if !unbroken || !replays {
            broken += 1;
        }
        let record = sqlx::query("SELECT 1 FROM torite_records WHERE table_id = $1")
            .bind(id)
            .fetch_optional(&pool)
            .await
            .map_err(|e| e.to_string())?;
        finished += u64::from(record.is_some());
        logs.insert(id.clone(), events);
    }
    let mut lost = 0;
    for (id, seat, seq, action) in acked {
        let event = logs
            .get(id)
            .and_then(|l| l.get(*seq as usize))
            .and_then(|e| serde_json::from_str::<Value>(e).ok());
        let kept = event.is_some_and(|e| {
            e["type"] == "act"
                && e["seat"].as_u64() == Some(*seat as u64)
                && e["action"] == action.as_str()
        });
        lost += u64::from(!kept);
    }
    pool.close().await;
    Ok((lost, broken, finished))
}

/// Whether a log replays from its first event to its last.
fn replays(id: &str, events: &[String]) -> bool {
    use crate::table::{Event, TableState};
    let Some((first, rest)) = events.split_first() else {
        return false;
    };
    let Ok(Ok(mut state)) = serde_json::from_str::<Event>(first).map(|e| TableState::new(id, &e))
    else {
        return false;
    };
    rest.iter().all(|body| {
        serde_json::from_str::<Event>(body)
            .ok()
            .is_some_and(|e| state.apply(&e).is_ok())
    })
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)].as_secs_f64() * 1000.0
}

/// Runs the load test; returns the report.
///
/// # Errors
///
/// A non-loopback address, a server that cannot be started (a cluster without a PostgreSQL
/// database), or tables that cannot be set up.
pub async fn run(args: Args) -> Result<Value, String> {
    if torite_core::Preset::from_id(&args.ruleset).is_none() {
        return Err(format!("--ruleset {}: not a preset id", args.ruleset));
    }
    if args.think_jitter > args.think {
        return Err(format!(
            "--think-jitter-ms {}: more than --think-ms {}, and a think cannot be shorter than nothing",
            args.think_jitter.as_millis(),
            args.think.as_millis()
        ));
    }
    if let Some(dir) = &args.node_logs {
        if args.nodes < 2 {
            return Err(format!(
                "--node-logs {}: only a cluster's nodes have logs kept; give --nodes 2 or more",
                dir.display()
            ));
        }
        if !dir.is_dir() {
            return Err(format!(
                "--node-logs {}: not a directory (create it first)",
                dir.display()
            ));
        }
    }
    let mut temp_db = None;
    let mut nodes = Vec::new();
    let addrs: Vec<SocketAddr> = match args.addr {
        Some(_) if args.nodes > 1 => {
            return Err(format!(
                "--nodes {}: the load test starts the nodes itself; leave out --addr",
                args.nodes
            ));
        }
        Some(addr) if addr.ip().is_loopback() => vec![addr],
        Some(addr) => {
            return Err(format!(
                "--addr {addr}: the load test only connects to loopback addresses"
            ));
        }
        None if args.nodes > 1 => {
            let db = args
                .db
                .as_deref()
                .filter(|db| db.starts_with("postgres://") || db.starts_with("postgresql://"))
                .ok_or_else(|| {
                    format!(
                        "--nodes {}: a cluster shares a PostgreSQL database: give --db postgres://...",
                        args.nodes
                    )
                })?;
            let program = match &args.program {
                Some(p) => p.clone(),
                None => std::env::current_exe().map_err(|e| e.to_string())?,
            };
            // The first node creates the cluster's tables; then the others join.
            for n in 0..args.nodes {
                let (program, db, pace) = (program.clone(), db.to_owned(), args.bot_delay);
                let log = args
                    .node_logs
                    .as_ref()
                    .map(|d| d.join(format!("node-{n}.log")));
                let node = tokio::task::spawn_blocking(move || {
                    start_node(&program, &db, pace, log.as_deref())
                })
                .await
                .map_err(|e| e.to_string())??;
                ready(node.addr).await?;
                nodes.push(node);
            }
            nodes.iter().map(|n| n.addr).collect()
        }
        None => {
            let db = match &args.db {
                Some(db) => db.clone(),
                None => {
                    let path = std::env::temp_dir()
                        .join(format!("torite-loadtest-{}.db", std::process::id()));
                    temp_db = Some(path.clone());
                    format!("sqlite:{}", path.display())
                }
            };
            let bot_delay = args.bot_delay;
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                .await
                .map_err(|e| e.to_string())?;
            let addr = listener.local_addr().map_err(|e| e.to_string())?;
            tokio::spawn(async move {
                let config = crate::Config {
                    bot_delay,
                    trick_pause: bot_delay,
                    ..crate::Config::instant()
                };
                if let Err(e) = crate::serve_on(listener, &db, config).await {
                    eprintln!("loadtest server: {e}");
                }
            });
            vec![addr]
        }
    };
    let addrs = Arc::new(addrs);
    let n = addrs.len();
    // Set the tables up a few at a time (table t through node t), then play them all at once.
    let setup_gate = Arc::new(Semaphore::new(16));
    let mut setups = Vec::new();
    for t in 0..args.tables {
        let gate = Arc::clone(&setup_gate);
        let args = args.clone();
        let addr = addrs[t % n];
        setups.push(tokio::spawn(async move {
            let _permit = gate.acquire().await;
            setup(addr, &args).await
        }));
    }
    let mut tables = Vec::new();
    for s in setups {
        tables.push(s.await.map_err(|e| e.to_string())??);
    }
    let deadline = Instant::now() + args.limit;
    let mut clients = Vec::new();
    let (connected, mut opened) = mpsc::unbounded_channel();
    let playing = Playing::new(tables.iter().map(|(_, tokens)| tokens.len()).sum());
    let start = Instant::now();
    for (t, (id, tokens)) in tables.iter().enumerate() {
        for (i, token) in tokens.iter().enumerate() {
            // With several nodes, a client connects to another node than its table's.
            let first = if n > 1 { (t + i + 1) % n } else { 0 };
            let task = tokio::spawn(client(
                Arc::clone(&addrs),
                first,
                id.clone(),
                token.clone(),
                deadline,
                Think::new(args.think, args.think_jitter, (t * 8 + i) as u64),
                connected.clone(),
                playing.place(),
            ));
            clients.push((id.clone(), i, task));
        }
    }
    // Every socket is open before the first table starts, so that the latencies measure the
    // play of all the tables at once, not the handshakes of the sockets still connecting.
    drop(connected);
    for _ in 0..clients.len() {
        if opened.recv().await.is_none() {
            break;
        }
    }
    // Start them a few at a time, so that they all play at once.
    let mut starts = Vec::new();
    for (t, (id, tokens)) in tables.iter().enumerate() {
        let gate = Arc::clone(&setup_gate);
        let (addr, id, host) = (addrs[(t + 1) % n], id.clone(), tokens[0].clone());
        starts.push(tokio::spawn(async move {
            let _permit = gate.acquire().await;
            post(
                addr,
                &format!("/api/tables/{id}/start"),
                json!({"token": host}),
            )
            .await
        }));
    }
    for s in starts {
        s.await.map_err(|e| e.to_string())??;
    }
    let killed = match (args.kill_after, nodes.first_mut()) {
        (Some(after), Some(node)) if n > 1 => {
            tokio::time::sleep(after).await;
            if args.freeze {
                signal(&node.child, "STOP")?;
            } else {
                node.child
                    .kill()
                    .map_err(|e| format!("the node was not killed: {e}"))?;
                let _ = node.child.wait();
            }
            Some(after)
        }
        _ => None,
    };
    let mut latencies = Vec::new();
    let mut errors = 0;
    let mut failures = 0;
    let mut finished = 0;
    let mut actions = 0;
    let mut acked = Vec::new();
    let mut outages = Vec::new();
    for (id, seat, c) in clients {
        match c.await {
            Ok(Ok(out)) => {
                latencies.extend(out.latencies);
                errors += out.errors;
                outages.extend(out.outages.into_iter().map(|o| (id.clone(), seat, o)));
                acked.extend(out.acked.into_iter().map(|(v, a)| (id.clone(), seat, v, a)));
                // Count each table's actions once (its first client's view of the version).
                if seat == 0 {
                    actions += out.actions;
                    finished += u64::from(out.finished);
                }
            }
            Ok(Err(e)) => {
                failures += 1;
                eprintln!("client: {e}");
            }
            Err(e) => {
                failures += 1;
                eprintln!("client: {e}");
            }
        }
    }
    let elapsed = start.elapsed().as_secs_f64();
    latencies.sort();
    if let Some(path) = temp_db {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
    }
    let round = |ms: f64| (ms * 100.0).round() / 100.0;
    let mut report = json!({
        "tables": args.tables,
        "clients": args.tables * args.clients,
        "ruleset": args.ruleset,
        "deals": args.deals,
        "finished_tables": finished,
        "seconds": (elapsed * 1000.0).round() / 1000.0,
        "events": actions,
        "events_per_second": (actions as f64 / elapsed).round(),
        "client_actions": latencies.len(),
        "latency_ms": {
            "p50": round(percentile(&latencies, 0.50)),
            "p90": round(percentile(&latencies, 0.90)),
            "p99": round(percentile(&latencies, 0.99)),
            "max": round(percentile(&latencies, 1.0)),
        },
        "bot_delay_ms": args.bot_delay.as_millis() as u64,
        "think_ms": args.think.as_millis() as u64,
        "think_jitter_ms": args.think_jitter.as_millis() as u64,
        "errors": errors,
        "failed_clients": failures,
    });
    if n > 1 {
        if let (Some(_), true, Some(node)) = (killed, args.freeze, nodes.first()) {
            // Woken: it must find its leases gone and write nothing.
            signal(&node.child, "CONT")?;
            tokio::time::sleep(Duration::from_secs(3)).await;
        }
        drop(nodes);
        let db = args.db.as_deref().unwrap_or_default();
        let ids: Vec<String> = tables.iter().map(|(id, _)| id.clone()).collect();
        let (lost, broken, stored) = check_logs(db, &acked, &ids).await?;
        outages.sort_by_key(|(_, _, o)| o.took);
        let took: Vec<Duration> = outages.iter().map(|(_, _, o)| o.took).collect();
        let ms = |d: Duration| d.as_millis() as u64;
        report["longest_outages"] = outages
            .iter()
            .rev()
            .take(5)
            .map(|(id, seat, o)| {
                json!({"table": id, "seat": seat, "seconds": ms(o.took) as f64 / 1000.0,
                    "broken_by": o.broken_by, "node": o.node, "waiting": o.waiting, "attempts": o.attempts,
                    "reconnecting_seconds": ms(o.reconnecting) as f64 / 1000.0})
            })
            .collect();
        report["nodes"] = json!(n);
        report["killed_node_after_seconds"] = json!(killed.map(|d| d.as_secs_f64()));
        report["node_failure"] =
            json!(killed.map(|_| if args.freeze { "SIGSTOP" } else { "SIGKILL" }));
        report["finished_tables"] = json!(stored);
        report["acknowledged_actions"] = json!(acked.len());
        report["lost_actions"] = json!(lost);
        report["double_owned"] = json!(broken);
        report["reconnected_sockets"] = json!(outages.len());
        report["takeover_seconds"] = json!((percentile(&took, 1.0) / 10.0).round() / 100.0);
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sockets stay open until the last client stops playing: only the last place given
    /// up lets them all close.
    #[test]
    fn sockets_close_once_every_client_has_stopped_playing() {
        let playing = Playing::new(3);
        let done = playing.done.subscribe();
        let (a, b, c) = (playing.place(), playing.place(), playing.place());
        drop(a);
        drop(c);
        assert!(!*done.borrow());
        drop(b);
        assert!(*done.borrow());
        assert!(*Playing::new(0).done.subscribe().borrow());
    }

    /// Without jitter every think is the mean; with it, each falls within the mean ± the
    /// jitter, they spread over that range, and the same seed gives the same thinks.
    #[test]
    fn thinks_fall_within_their_jitter() {
        let ms = Duration::from_millis;
        let mut steady = Think::new(ms(300), Duration::ZERO, 7);
        assert!((0..10).all(|_| steady.next() == ms(300)));
        let thinks: Vec<Duration> = {
            let mut think = Think::new(ms(300), ms(150), 7);
            (0..2000).map(|_| think.next()).collect()
        };
        assert!(thinks.iter().all(|t| (ms(150)..=ms(450)).contains(t)));
        assert!(thinks.iter().any(|t| *t < ms(170)));
        assert!(thinks.iter().any(|t| *t > ms(430)));
        let mean = thinks.iter().sum::<Duration>() / 2000;
        assert!((ms(290)..=ms(310)).contains(&mean), "mean {mean:?}");
        let mut again = Think::new(ms(300), ms(150), 7);
        assert!(thinks.iter().all(|t| *t == again.next()));
        let mut other = Think::new(ms(300), ms(150), 8);
        assert!(thinks.iter().take(20).any(|t| *t != other.next()));
    }

    /// A table over, whose record alone is kept (404 `table-over`), counts as finished, as
    /// does a finished summary; an unknown table does not.
    #[tokio::test]
    async fn a_table_over_counts_as_finished() {
        async fn answering(status: &str, body: &str) -> bool {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let addr = listener.local_addr().unwrap();
            let reply = format!(
                "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
            let served = tokio::spawn(async move {
                use tokio::io::{AsyncReadExt, AsyncWriteExt};
                let (mut socket, _) = listener.accept().await.unwrap();
                let mut request = vec![0; 4096];
                let _ = socket.read(&mut request).await.unwrap();
                socket.write_all(reply.as_bytes()).await.unwrap();
            });
            let finished = finished_meanwhile(addr, "t1").await;
            served.await.unwrap();
            finished
        }
        assert!(
            answering(
                "404 Not Found",
                r#"{"code":"table-over","args":{"id":"t1"}}"#
            )
            .await
        );
        assert!(answering("200 OK", r#"{"id":"t1","status":"finished"}"#).await);
        assert!(!answering("200 OK", r#"{"id":"t1","status":"playing"}"#).await);
        assert!(!answering("404 Not Found", r#"{"code":"no-table","args":{"id":"t1"}}"#).await);
    }

    /// One table of one client against one node started here, no thinking.
    fn one_table() -> Args {
        Args {
            tables: 1,
            ruleset: "mini-misere-4".into(),
            deals: 1,
            clients: 1,
            bot: "random".into(),
            addr: None,
            db: None,
            limit: Duration::from_secs(5),
            bot_delay: Duration::ZERO,
            think: Duration::ZERO,
            think_jitter: Duration::ZERO,
            nodes: 1,
            kill_after: None,
            freeze: false,
            program: None,
            node_logs: None,
        }
    }

    /// A jitter larger than the think itself is refused before anything starts.
    #[tokio::test]
    async fn a_jitter_beyond_the_think_is_refused() {
        let args = Args {
            think: Duration::from_millis(300),
            think_jitter: Duration::from_millis(301),
            ..one_table()
        };
        assert_eq!(
            run(args).await.unwrap_err(),
            "--think-jitter-ms 301: more than --think-ms 300, and a think cannot be shorter than nothing"
        );
    }

    /// Node logs are kept only for a cluster, and only in a directory that exists.
    #[tokio::test]
    async fn node_logs_need_a_cluster_and_a_directory() {
        let args = Args {
            db: Some("postgres://nobody@127.0.0.1:9/none".into()),
            node_logs: Some(std::env::temp_dir()),
            ..one_table()
        };
        let dir = std::env::temp_dir().display().to_string();
        assert_eq!(
            run(args.clone()).await.unwrap_err(),
            format!(
                "--node-logs {dir}: only a cluster's nodes have logs kept; give --nodes 2 or more"
            )
        );
        let missing = std::env::temp_dir().join("torite-no-such-directory");
        let args = Args {
            nodes: 3,
            node_logs: Some(missing.clone()),
            ..args
        };
        assert_eq!(
            run(args).await.unwrap_err(),
            format!(
                "--node-logs {}: not a directory (create it first)",
                missing.display()
            )
        );
    }
}
