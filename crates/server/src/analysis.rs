//! The post-game analysis of a finished game (`docs/ANALYSIS.md`): its JSON form, shared with
//! `torite analyse`, and the server's `POST`/`GET /api/tables/{id}/analysis`.
//!
//! An analysis runs on the blocking pool, one at a time (the analysis itself spreads its
//! decisions over every core but one, which is left to the tables' bots), with at most
//! [`QUEUE`] more waiting; a request beyond that is
//! refused with `analysis-busy`, and one address may have at most [`PER_CLIENT`] of them
//! under way (`analysis-busy-client`), so that nobody can fill the queue for everyone. Its seed is fixed by the table id ([`seed_of`]), so the same
//! table and selection always give the same analysis; the result is kept in the store, keyed
//! by table, seat selection and budget, and so survives a restart. Only a finished game is
//! analysed: the analysis reads every hand.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use torite_bots::analysis::{
    self, Analysis, BLUNDER, Decision, INACCURACY, MISTAKE, SeatDeal, Settings, Verdict,
};
use torite_core::{Record, SeatSet};

use crate::http::JsonBody;
use crate::hub::Hub;
use crate::refusal::{Refusal, RefusalKind, Why, shown};

/// A value rounded to four decimals, for the JSON.
fn round(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// The analysis as the JSON of `docs/ANALYSIS.md` (what `torite analyse --json` prints).
#[must_use]
pub fn to_json(result: &Analysis, record: &Record, settings: Settings) -> Value {
    let range = analysis::score_range(&record.ruleset);
    let decisions: Vec<Value> = result.decisions.iter().map(decision_json).collect();
    let seats: Vec<Value> = result.seats.iter().map(seat_json).collect();
    json!({
        "ruleset": record.ruleset.id(),
        "worlds": settings.worlds,
        "seed": settings.seed,
        "thresholds": {
            "inaccuracy": round(INACCURACY * range),
            "mistake": round(MISTAKE * range),
            "blunder": round(BLUNDER * range),
        },
        "decisions": decisions,
        "seats": seats,
    })
}

fn decision_json(d: &Decision) -> Value {
    let actions: Vec<Value> = d
        .actions
        .iter()
        .map(|a| {
            json!({
                "action": a.action.to_string(),
                "value": round(a.value),
                "stderr": round(a.stderr),
            })
        })
        .collect();
    let exact = d.exact.as_ref().map(|values| {
        let list: Vec<Value> = values
            .iter()
            .map(|(a, v)| json!({"action": a.to_string(), "value": round(*v)}))
            .collect();
        let best = values.iter().map(|(_, v)| *v).fold(f64::MIN, f64::max);
        json!({
            "actions": list,
            "chosen": d.exact_of(d.chosen).map(round),
            "best": round(best),
        })
    });
    json!({
        "deal": d.deal,
        "index": d.index,
        "trick": d.trick,
        "seat": d.seat,
        "chosen": d.chosen.to_string(),
        "best": d.best.to_string(),
        "loss": round(d.loss),
        "loss_stderr": round(d.loss_stderr),
        "verdict": d.verdict.name(),
        "method": d.method.name(),
        "worlds": d.worlds,
        "actions": actions,
        "exact": exact,
    })
}

fn seat_json(s: &SeatDeal) -> Value {
    json!({
        "deal": s.deal,
        "seat": s.seat,
        "decisions": s.decisions,
        "loss": round(s.loss),
        "inaccuracies": s.verdicts[Verdict::Inaccuracy as usize],
        "mistakes": s.verdicts[Verdict::Mistake as usize],
        "blunders": s.verdicts[Verdict::Blunder as usize],
        "score": s.score.map(round),
        "double_dummy": s.double_dummy.map(round),
    })
}

/// The seed of a table's analyses: the first 53 bits of the SHA-256 of its id (a number a
/// browser holds exactly), so that the same table is always analysed alike.
#[must_use]
pub fn seed_of(id: &str) -> u64 {
    let digest = Sha256::digest(id.as_bytes());
    let mut bytes = [0; 8];
    bytes.copy_from_slice(&digest[..8]);
    u64::from_be_bytes(bytes) & ((1 << 53) - 1)
}

/// The most analyses waiting while one runs; more are refused with `analysis-busy`.
pub const QUEUE: usize = 4;

/// The most worlds per decision a request may ask for (the analysis's default).
pub const MAX_WORLDS: u32 = analysis::DEFAULT_WORLDS;

/// The most analyses one client address (as the per-address caps count it) may have queued
/// or running; more are refused with `analysis-busy-client`.
pub const PER_CLIENT: usize = 2;

/// The analyses kept in memory when the store cannot keep them.
const KEPT: usize = 32;

/// Which seats an analysis covers: one, or every seat.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Selection {
    All,
    Seat(usize),
}

impl Selection {
    /// The selection as the store's key and the answers name it: `all` or the seat number.
    fn key(self, worlds: u32) -> String {
        match self {
            Selection::All => format!("all/{worlds}"),
            Selection::Seat(s) => format!("{s}/{worlds}"),
        }
    }

    fn json(self) -> Value {
        match self {
            Selection::All => json!("all"),
            Selection::Seat(s) => json!(s),
        }
    }
}

/// An analysis's table id and selection key.
type JobKey = (String, String);

/// An analysis under way: the decisions done of how many.
#[derive(Debug)]
struct Job {
    /// Who asked for it: the client's address as the per-address caps count it.
    owner: std::net::IpAddr,
    started: bool,
    done: Arc<AtomicUsize>,
    total: usize,
}

/// The analyses under way and the order they run in.
#[derive(Debug)]
pub(crate) struct Jobs {
    /// By table id and selection key.
    running: Mutex<HashMap<JobKey, Job>>,
    /// Finished analyses the store could not keep, oldest first (at most [`KEPT`]).
    kept: Mutex<Vec<(JobKey, Arc<String>)>>,
    /// One permit: the analysis that runs.
    permit: Arc<tokio::sync::Semaphore>,
}

impl Default for Jobs {
    fn default() -> Jobs {
        Jobs {
            running: Mutex::new(HashMap::new()),
            kept: Mutex::new(Vec::new()),
            permit: Arc::new(tokio::sync::Semaphore::new(1)),
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The seat selection and budget of a request (body or query): `seat` a seat number, `"all"`
/// or absent (every seat); `worlds` a power of two from 1 to [`MAX_WORLDS`] or absent (the
/// default). Powers of two only, so that a table's kept analyses are few: at most nine
/// budgets for each seat and for every seat.
fn selection(fields: &Value, players: usize) -> Result<(Selection, u32), Refusal> {
    let seat = match fields.get("seat") {
        None | Some(Value::Null) => Selection::All,
        Some(Value::String(s)) if s == "all" => Selection::All,
        Some(v) => {
            let n = v
                .as_u64()
                .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
                .and_then(|n| usize::try_from(n).ok())
                .filter(|n| *n < players);
            match n {
                Some(n) => Selection::Seat(n),
                None => {
                    let text = v.as_str().map_or_else(|| v.to_string(), str::to_owned);
                    return Err(Refusal::bad(Why::AnalysisSeat {
                        value: shown(&text),
                        max: (players - 1).to_string(),
                    }));
                }
            }
        }
    };
    let worlds = match fields.get("worlds") {
        None | Some(Value::Null) => analysis::DEFAULT_WORLDS,
        Some(v) => v
            .as_u64()
            .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
            .and_then(|n| u32::try_from(n).ok())
            .filter(|n| n.is_power_of_two() && *n <= MAX_WORLDS)
            .ok_or_else(|| {
                let text = v.as_str().map_or_else(|| v.to_string(), str::to_owned);
                Refusal::bad(Why::AnalysisWorlds {
                    value: shown(&text),
                    max: MAX_WORLDS.to_string(),
                })
            })?,
    };
    Ok((seat, worlds))
}

/// A finished game's record, read and checked; a game not over is refused.
async fn finished(hub: &Hub, id: &str) -> Result<Record, Refusal> {
    if let Some(table) = hub.table(id).await
        && table.states.borrow().summary.status != "finished"
    {
        return Err(Refusal::conflict(Why::AnalysisNotYet { id: id.to_owned() }));
    }
    let value = crate::http::records::finished_record(hub, id).await?;
    let (record, checked) = torite_core::record::read(&value).map_err(|e| {
        Refusal::new(
            RefusalKind::Broken,
            Why::RecordDoesNotReplay {
                detail: e.to_string(),
            },
        )
    })?;
    if !checked.game.is_finished() {
        return Err(Refusal::conflict(Why::AnalysisNotYet { id: id.to_owned() }));
    }
    Ok(record)
}

/// The answer for an analysis done: its JSON as kept.
fn done(body: &str) -> Response {
    (
        StatusCode::OK,
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        body.to_owned(),
    )
        .into_response()
}

/// What is known of an analysis: done (its JSON), under way (202 and its progress), or
/// `None` if it was never asked for (or failed).
async fn status(
    hub: &Hub,
    id: &str,
    seat: Selection,
    worlds: u32,
) -> Result<Option<Response>, Refusal> {
    let key = (id.to_owned(), seat.key(worlds));
    if let Some(job) = lock(&hub.analyses().running).get(&key) {
        let body = json!({
            "status": if job.started { "running" } else { "queued" },
            "seat": seat.json(),
            "worlds": worlds,
            "done": job.done.load(Ordering::Relaxed),
            "total": job.total,
        });
        return Ok(Some(
            (StatusCode::ACCEPTED, axum::Json(body)).into_response(),
        ));
    }
    if let Some((_, body)) = lock(&hub.analyses().kept).iter().find(|(k, _)| *k == key) {
        return Ok(Some(done(body)));
    }
    let kept = hub
        .store()
        .analysis(id, &key.1)
        .await
        .map_err(Refusal::storage)?;
    Ok(kept.map(|body| done(&body)))
}

/// `GET /api/tables/{id}/analysis?seat=N|all&worlds=W`: the analysis (200), its progress
/// (202) or `analysis-not-asked` (404).
pub(crate) async fn get(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Response, Refusal> {
    if let Some(name) = query.keys().find(|k| *k != "seat" && *k != "worlds") {
        return Err(Refusal::bad(Why::UnknownParameter { name: shown(name) }));
    }
    let record = finished(&hub, &id).await?;
    let fields: serde_json::Map<String, Value> = query
        .into_iter()
        .map(|(k, v)| (k, Value::String(v)))
        .collect();
    let (seat, worlds) = selection(&Value::Object(fields), usize::from(record.ruleset.players))?;
    status(&hub, &id, seat, worlds).await?.ok_or_else(|| {
        Refusal::new(
            RefusalKind::NotFound,
            Why::AnalysisNotAsked { id: id.clone() },
        )
    })
}

/// `POST /api/tables/{id}/analysis` with `{"seat": N | "all", "worlds": W}`: the analysis if
/// it is done (200), else it is started or left running (202 and its progress).
pub(crate) async fn post(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(peer): ConnectInfo<std::net::SocketAddr>,
    Path(id): Path<String>,
    JsonBody(body): JsonBody,
) -> Result<Response, Refusal> {
    let owner = crate::hub::client_address(peer.ip());
    let record = finished(&hub, &id).await?;
    let (seat, worlds) = selection(&body, usize::from(record.ruleset.players))?;
    if let Some(answer) = status(&hub, &id, seat, worlds).await? {
        return Ok(answer);
    }
    let seats: SeatSet = match seat {
        Selection::All => (0..usize::from(record.ruleset.players)).collect(),
        Selection::Seat(s) => [s].into_iter().collect(),
    };
    let total = analysis::count_decisions(&record, seats, None);
    if total == 0 {
        return Err(Refusal::conflict(Why::AnalysisNoDecision));
    }
    let key = (id.clone(), seat.key(worlds));
    let done_count = Arc::new(AtomicUsize::new(0));
    {
        let mut running = lock(&hub.analyses().running);
        if !running.contains_key(&key) {
            if running.len() > QUEUE {
                return Err(Refusal::new(
                    RefusalKind::Busy,
                    Why::AnalysisBusy {
                        max: (QUEUE + 1).to_string(),
                    },
                ));
            }
            if running.values().filter(|j| j.owner == owner).count() >= PER_CLIENT {
                return Err(Refusal::new(
                    RefusalKind::Busy,
                    Why::AnalysisBusyClient {
                        max: PER_CLIENT.to_string(),
                    },
                ));
            }
            running.insert(
                key.clone(),
                Job {
                    owner,
                    started: false,
                    done: Arc::clone(&done_count),
                    total,
                },
            );
            tokio::spawn(run(
                Arc::clone(&hub),
                key,
                record,
                seats,
                worlds,
                done_count,
            ));
        }
    }
    Ok(status(&hub, &id, seat, worlds)
        .await?
        .unwrap_or_else(|| StatusCode::ACCEPTED.into_response()))
}

/// The analyses' threads: one fewer than the machine's cores (at least one), so that the
/// tables' bots always have a core; `None` if no pool could be made (the analysis then runs on
/// rayon's global pool). The result does not depend on the number of threads.
fn pool() -> Option<&'static rayon::ThreadPool> {
    static POOL: std::sync::OnceLock<Option<rayon::ThreadPool>> = std::sync::OnceLock::new();
    POOL.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
        rayon::ThreadPoolBuilder::new()
            .num_threads(cores.saturating_sub(1).max(1))
            .thread_name(|i| format!("torite-analysis-{i}"))
            .build()
            .ok()
    })
    .as_ref()
}

/// Waits for the permit, analyses on the blocking pool, keeps the result and lets the job go.
async fn run(
    hub: Arc<Hub>,
    key: JobKey,
    record: Record,
    seats: SeatSet,
    worlds: u32,
    done_count: Arc<AtomicUsize>,
) {
    let jobs = hub.analyses();
    let Ok(_permit) = Arc::clone(&jobs.permit).acquire_owned().await else {
        lock(&jobs.running).remove(&key);
        return;
    };
    if let Some(job) = lock(&jobs.running).get_mut(&key) {
        job.started = true;
    }
    let settings = Settings {
        worlds,
        seed: seed_of(&key.0),
    };
    let counter = Arc::clone(&done_count);
    let made = tokio::task::spawn_blocking(move || {
        let work = || {
            analysis::analyse(&record, seats, None, settings, &|| {
                counter.fetch_add(1, Ordering::Relaxed);
            })
        };
        let result = match pool() {
            Some(pool) => pool.install(work),
            None => work(),
        };
        torite_core::to_pretty_json(&to_json(&result, &record, settings))
    })
    .await;
    match made {
        Ok(body) => {
            if let Err(e) = hub.store().save_analysis(&key.0, &key.1, &body).await {
                tracing::warn!(table = %key.0, error = %e, "analysis not stored; kept in memory");
                let mut kept = lock(&jobs.kept);
                if kept.len() >= KEPT {
                    kept.remove(0);
                }
                kept.push((key.clone(), Arc::new(body)));
            }
        }
        Err(e) => tracing::error!(table = %key.0, error = %e, "analysis failed"),
    }
    lock(&jobs.running).remove(&key);
}

#[cfg(test)]
mod tests {
    use super::{Selection, seed_of, selection};
    use serde_json::json;

    #[test]
    fn a_tables_seed_is_fixed_and_fits_a_javascript_number() {
        assert_eq!(seed_of("abc"), seed_of("abc"));
        assert_ne!(seed_of("abc"), seed_of("abd"));
        assert!(seed_of("abc") < 1 << 53);
    }

    #[test]
    fn a_selection_is_a_seat_of_the_game_or_all() {
        assert_eq!(selection(&json!({}), 4).ok(), Some((Selection::All, 256)));
        assert_eq!(
            selection(&json!({"seat": 2, "worlds": 8}), 4).ok(),
            Some((Selection::Seat(2), 8))
        );
        assert_eq!(
            selection(&json!({"seat": "3"}), 4).ok(),
            Some((Selection::Seat(3), 256))
        );
        assert!(selection(&json!({"seat": 4}), 4).is_err());
        assert!(selection(&json!({"seat": -1}), 4).is_err());
        assert!(selection(&json!({"worlds": 0}), 4).is_err());
        assert!(selection(&json!({"worlds": 257}), 4).is_err());
        assert!(selection(&json!({"worlds": 3}), 4).is_err());
        assert!(selection(&json!({"worlds": 512}), 4).is_err());
    }
}
