//! `torite loadtest`: many bot-filled tables played through real WebSocket clients on the
//! loopback interface, reporting actions per second and the latency of the clients' actions
//! (from sending an action to receiving the state that includes it).
//!
//! It only ever connects to a loopback address, and stops by itself after the games end or
//! the time limit passes.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::sync::Semaphore;

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
    /// How long a client thinks before acting.
    pub think: Duration,
}

struct Outcome {
    latencies: Vec<Duration>,
    actions: u64,
    errors: u64,
    finished: bool,
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

/// One client: plays its seat with the first legal action until the game ends.
async fn client(
    addr: SocketAddr,
    id: String,
    token: String,
    deadline: Instant,
    think: Duration,
) -> Result<Outcome, String> {
    let mut session = Session::connect(addr, &id, Some(&token)).await?;
    let mut out = Outcome {
        latencies: Vec::new(),
        actions: 0,
        errors: 0,
        finished: false,
    };
    let mut pending: Option<(u64, Instant)> = None;
    let mut state = Brief {
        kind: "state".into(),
        version: session.state["version"].as_u64().unwrap_or(0),
        finished: session.state["finished"] == true,
        legal: session.state["legal"]
            .as_array()
            .map(|l| {
                l.iter()
                    .filter_map(|a| a.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default(),
    };
    loop {
        if state.finished || Instant::now() > deadline {
            out.finished = state.finished;
            out.actions = state.version;
            break;
        }
        if pending.is_none() && !state.legal.is_empty() {
            if !think.is_zero() {
                tokio::time::sleep(think).await;
            }
            session.act_at(&state.legal[0], state.version).await?;
            pending = Some((state.version, Instant::now()));
        }
        let msg = session.next_brief().await?;
        if msg.kind == "error" {
            out.errors += 1;
            pending = None;
        } else if msg.kind == "state" {
            if let Some((v, sent)) = pending
                && msg.version > v
            {
                out.latencies.push(sent.elapsed());
                pending = None;
            }
            state = msg;
        }
    }
    session.close().await;
    Ok(out)
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
/// A non-loopback address, a server that cannot be started, or tables that cannot be set up.
pub async fn run(args: Args) -> Result<Value, String> {
    if torite_core::Preset::from_id(&args.ruleset).is_none() {
        return Err(format!("--ruleset {}: not a preset id", args.ruleset));
    }
    let mut temp_db = None;
    let addr = match args.addr {
        Some(addr) if addr.ip().is_loopback() => addr,
        Some(addr) => {
            return Err(format!(
                "--addr {addr}: the load test only connects to loopback addresses"
            ));
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
            addr
        }
    };
    // Set the tables up a few at a time, then play them all at once.
    let setup_gate = Arc::new(Semaphore::new(16));
    let mut setups = Vec::new();
    for _ in 0..args.tables {
        let gate = Arc::clone(&setup_gate);
        let args = args.clone();
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
    let start = Instant::now();
    for (id, tokens) in &tables {
        for (i, token) in tokens.iter().enumerate() {
            let task = tokio::spawn(client(
                addr,
                id.clone(),
                token.clone(),
                deadline,
                args.think,
            ));
            clients.push((i == 0, task));
        }
    }
    for (id, tokens) in &tables {
        post(
            addr,
            &format!("/api/tables/{id}/start"),
            json!({"token": tokens[0]}),
        )
        .await?;
    }
    let mut latencies = Vec::new();
    let mut errors = 0;
    let mut failures = 0;
    let mut finished = 0;
    let mut actions = 0;
    for (first, c) in clients {
        match c.await {
            Ok(Ok(out)) => {
                latencies.extend(out.latencies);
                errors += out.errors;
                // Count each table's actions once (its first client's view of the version).
                if first {
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
    Ok(json!({
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
            "p50": (percentile(&latencies, 0.50) * 100.0).round() / 100.0,
            "p90": (percentile(&latencies, 0.90) * 100.0).round() / 100.0,
            "p99": (percentile(&latencies, 0.99) * 100.0).round() / 100.0,
            "max": (percentile(&latencies, 1.0) * 100.0).round() / 100.0,
        },
        "bot_delay_ms": args.bot_delay.as_millis() as u64,
        "think_ms": args.think.as_millis() as u64,
        "errors": errors,
        "failed_clients": failures,
    }))
}
