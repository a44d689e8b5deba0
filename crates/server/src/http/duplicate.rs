//! Duplicate series (`/api/series`, `docs/PROTOCOL.md`): K deals of one seed played at T
//! tables, every table dealt the same hands in the same seats, and each deal compared across
//! the tables once every table has finished it.
//!
//! A series is stored once, at creation, as one row: its rules, seed, seats, tables and the
//! digest of its host key. Its tables are private tables like any other, hosted by that key;
//! each table's invite secret is derived from the host key and the table's number, so that
//! the server keeps no secret in the clear and the host can be given the links again. What a
//! table has played is read from the table itself (live, or its kept record) when the series
//! is read, so the series survives a restart with its tables.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use torite_core::Ruleset;
use torite_i18n::{Catalog, Lang};

use super::JsonBody;
use crate::actor::Cmd;
use crate::ask::{ask, ask_plain};
use crate::hub::Hub;
use crate::refusal::{Refusal, RefusalKind, Why, shown};

/// The most deals a series has.
pub const MAX_DEALS: u32 = 24;
/// The most tables a series has.
pub const MAX_TABLES: usize = 8;

/// What a seat of every table of a series is: a person, who joins by the table's link, or a
/// bot seated at creation.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "lowercase")]
enum SeatPlan {
    Person,
    Bot(String),
}

/// A series as stored.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Stored {
    /// The tables' ruleset (record form), ending after exactly `deals` deals.
    ruleset: Value,
    deals: u32,
    seed: u64,
    seats: Vec<SeatPlan>,
    /// The tables' ids, in order: table 1 first.
    tables: Vec<String>,
    /// The SHA-256 digest (hex) of the host key.
    host: String,
    created: i64,
}

fn digest(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The invite secret of table `index` (0-based) of the series hosted by `key`.
fn invite_of(key: &str, index: usize) -> String {
    digest(&format!("torite duplicate invite {index} {key}"))[..32].to_owned()
}

fn no_series(id: &str) -> Refusal {
    Refusal::new(RefusalKind::NotFound, Why::NoDuplicate { id: shown(id) })
}

fn answer(status: StatusCode, body: Value) -> Response {
    (
        status,
        [(header::CACHE_CONTROL, "no-store")],
        axum::Json(body),
    )
        .into_response()
}

fn count(body: &Value, field: &str, max: u64, why: impl Fn() -> Why) -> Result<u64, Refusal> {
    body.get(field)
        .and_then(Value::as_u64)
        .filter(|n| (1..=max).contains(n))
        .ok_or_else(|| Refusal::bad(why()))
}

/// The seats of the request: one per seat, each `"person"` or a bot (a level or algorithm).
fn seats_of(body: &Value, n: usize) -> Result<Vec<SeatPlan>, Refusal> {
    let bad = || {
        Refusal::bad(Why::DuplicateSeats {
            count: n.to_string(),
        })
    };
    let list = body
        .get("seats")
        .and_then(Value::as_array)
        .filter(|l| l.len() == n)
        .ok_or_else(bad)?;
    list.iter()
        .map(|seat| match seat.as_str() {
            Some("person") => Ok(SeatPlan::Person),
            Some(bot) => crate::table::parse_bot(bot).map(|b| SeatPlan::Bot(b.to_string())),
            None => Err(bad()),
        })
        .collect()
}

/// `POST /api/series`: a new series and its tables.
pub(super) async fn create(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    JsonBody(body): JsonBody,
) -> Result<Response, Refusal> {
    let store = hub
        .store()
        .duplicates()
        .ok_or_else(|| Refusal::storage("this store cannot keep duplicate series"))?;
    let ruleset = super::creation_ruleset(&hub, peer, &body)?;
    let mut rules = Ruleset::from_json(&ruleset)
        .map_err(|e| Refusal::bad(crate::refusal::ruleset_refused(&e)))?;
    let deals = count(&body, "deals", u64::from(MAX_DEALS), || {
        Why::DuplicateDeals {
            max: MAX_DEALS.to_string(),
        }
    })?;
    let tables = count(&body, "tables", MAX_TABLES as u64, || {
        Why::DuplicateTables {
            max: MAX_TABLES.to_string(),
        }
    })?;
    rules
        .set_option("deals", &json!(deals))
        .map_err(|e| Refusal::internal(format!("{e:?}")))?;
    let seats = seats_of(&body, rules.players as usize)?;
    let seed = match super::field_seed(&body)? {
        Some(seed) => seed,
        None => {
            let mut bytes = [0u8; 8];
            getrandom::fill(&mut bytes).map_err(Refusal::internal)?;
            u64::from_le_bytes(bytes) & super::MAX_SEED
        }
    };
    let key = crate::actor::new_token();
    let id = crate::actor::new_token()[..12].to_owned();
    let ruleset = rules.to_json();
    let creator = Some(crate::hub::client_address(peer.ip()));
    let mut ids = Vec::new();
    for index in 0..tables as usize {
        let invite = crate::table::token_hash(&invite_of(&key, index));
        let table = hub
            .create_hosted(
                &ruleset,
                None,
                &key,
                None,
                Some(seed),
                creator,
                Some(invite),
            )
            .await?;
        let handle = hub
            .table(&table)
            .await
            .ok_or_else(|| Refusal::bad(Why::TableVanished))?;
        for (seat, plan) in seats.iter().enumerate() {
            if let SeatPlan::Bot(spec) = plan {
                let bot = crate::table::parse_bot(spec)?;
                ask(&handle.tx, |reply| Cmd::Bot {
                    token: key.clone(),
                    seat,
                    bot,
                    reply,
                })
                .await?;
            }
        }
        if !seats.contains(&SeatPlan::Person) {
            ask(&handle.tx, |reply| Cmd::Start {
                token: key.clone(),
                reply,
            })
            .await?;
        }
        ids.push(table);
    }
    let stored = Stored {
        ruleset,
        deals: u32::try_from(deals).unwrap_or(MAX_DEALS),
        seed,
        seats,
        tables: ids,
        host: digest(&key),
        created: i64::try_from(crate::now_secs()).unwrap_or(0),
    };
    let text = serde_json::to_string(&stored).map_err(Refusal::internal)?;
    store
        .create_duplicate(&id, stored.created, &text)
        .await
        .map_err(Refusal::storage)?;
    let view = read_view(&hub, &id, &stored, Some(&key)).await?;
    Ok(answer(
        StatusCode::CREATED,
        json!({
            "id": id,
            "key": key,
            "page": format!("/duplicate/{id}"),
            "host_page": format!("/duplicate/{id}#key={key}"),
            "series": view,
        }),
    ))
}

/// The query of a read: the host key, for the tables' links.
#[derive(Deserialize)]
pub(super) struct KeyQuery {
    key: Option<String>,
}

async fn load(hub: &Hub, id: &str, key: Option<&str>) -> Result<(Stored, bool), Refusal> {
    if id.len() > 64 {
        return Err(no_series(id));
    }
    let store = hub.store().duplicates().ok_or_else(|| no_series(id))?;
    let text = store
        .duplicate_series(id)
        .await
        .map_err(Refusal::storage)?
        .ok_or_else(|| no_series(id))?;
    let stored: Stored = serde_json::from_str(&text).map_err(Refusal::internal)?;
    let host = match key.filter(|k| !k.is_empty()) {
        None => false,
        Some(key) if digest(key) == stored.host => true,
        Some(_) => return Err(Refusal::forbidden(Why::DuplicateKey)),
    };
    Ok((stored, host))
}

/// What one table has played: its summary (if live), its record so far, and its deals'
/// scores, `None` for a deal not yet complete.
struct Played {
    summary: Option<Value>,
    record: Option<Value>,
    scores: Vec<Option<Vec<i32>>>,
    finished: bool,
}

async fn played(hub: &Hub, id: &str) -> Result<Played, Refusal> {
    let (summary, record) = match hub.table(id).await {
        Some(table) => {
            let summary =
                serde_json::to_value(&table.states.borrow().summary).map_err(Refusal::internal)?;
            let record = ask_plain(&table.tx, |reply| Cmd::Record { reply })
                .await
                .ok_or_else(|| Refusal::new(RefusalKind::Busy, Why::TableBusy))?;
            (Some(summary), Some(record))
        }
        None => match hub.stored_state(id).await {
            // A table another node of the cluster drives.
            Some(state) if state.summary(&[]).status != "finished" => {
                let summary =
                    serde_json::to_value(state.summary(&[])).map_err(Refusal::internal)?;
                (Some(summary), Some(state.record()))
            }
            _ => match super::records::kept_record(hub, id).await {
                Ok(record) => (None, Some(record)),
                // An open table that nobody started and the server let go.
                Err(r) if r.kind == RefusalKind::NotFound => (None, None),
                Err(r) => return Err(r),
            },
        },
    };
    let (scores, finished) = match &record {
        Some(record) => {
            let (_, replay) = torite_core::record::read(record).map_err(Refusal::internal)?;
            let scores = replay
                .report
                .deals
                .iter()
                .map(|d| d.complete.then(|| d.scores.clone()).flatten())
                .collect();
            (scores, replay.report.finished)
        }
        None => (Vec::new(), false),
    };
    Ok(Played {
        summary,
        record,
        scores,
        finished,
    })
}

/// The deals every table has finished: how many of the first deals are complete at all of
/// them.
fn compared(played: &[Played]) -> usize {
    played
        .iter()
        .map(|p| p.scores.iter().take_while(|s| s.is_some()).count())
        .min()
        .unwrap_or(0)
}

/// Hundredths, rounded: the comparison's figures as shown.
fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// The comparison of the first `deals` deals: per deal and seat the mean of the tables'
/// scores and each table's score and difference from it; per table and seat the running sum
/// of those differences. `scores[t][d][s]` is table `t`'s score of seat `s` in deal `d`.
fn comparison(scores: &[Vec<Vec<i32>>], deals: usize, seats: usize) -> Value {
    let tables = scores.len();
    let mut running = vec![vec![0.0f64; seats]; tables];
    let rows: Vec<Value> = (0..deals)
        .map(|d| {
            let mean: Vec<f64> = (0..seats)
                .map(|s| {
                    let sum: i64 = scores.iter().map(|t| i64::from(t[d][s])).sum();
                    sum as f64 / tables as f64
                })
                .collect();
            let at: Vec<Value> = (0..tables)
                .map(|t| {
                    let diff: Vec<f64> = (0..seats)
                        .map(|s| f64::from(scores[t][d][s]) - mean[s])
                        .collect();
                    for (s, x) in diff.iter().enumerate() {
                        running[t][s] += x;
                    }
                    json!({
                        "scores": scores[t][d],
                        "diff": diff.iter().map(|x| round2(*x)).collect::<Vec<_>>(),
                        "running": running[t].iter().map(|x| round2(*x)).collect::<Vec<_>>(),
                    })
                })
                .collect();
            json!({
                "number": d + 1,
                "mean": mean.iter().map(|x| round2(*x)).collect::<Vec<_>>(),
                "tables": at,
            })
        })
        .collect();
    json!(rows)
}

/// The series as it is read: its rules, its tables and their progress, and the comparison of
/// the deals every table has finished; with the host key, the tables' links too.
async fn read_view(
    hub: &Hub,
    id: &str,
    stored: &Stored,
    key: Option<&str>,
) -> Result<Value, Refusal> {
    let rules = Ruleset::from_json(&stored.ruleset).map_err(Refusal::internal)?;
    let n = rules.players as usize;
    let mut all = Vec::with_capacity(stored.tables.len());
    for table in &stored.tables {
        all.push(played(hub, table).await?);
    }
    let shown = compared(&all);
    let finished = all.iter().all(|p| p.finished);
    let scores: Vec<Vec<Vec<i32>>> = all
        .iter()
        .map(|p| {
            p.scores[..shown]
                .iter()
                .map(|s| s.clone().unwrap_or_default())
                .collect()
        })
        .collect();
    let tables: Vec<Value> = stored
        .tables
        .iter()
        .zip(&all)
        .enumerate()
        .map(|(index, (table, p))| {
            let done = p.scores.iter().take_while(|s| s.is_some()).count();
            let status = match (&p.summary, &p.record) {
                (Some(summary), _) => summary["status"].clone(),
                (None, Some(_)) => json!("finished"),
                (None, None) => json!("gone"),
            };
            let players = p
                .record
                .as_ref()
                .and_then(|r| r.get("players").cloned())
                .filter(|_| p.summary.is_none());
            let seats = p
                .summary
                .as_ref()
                .map(|s| s["seats"].clone())
                .or(players.map(|names| {
                    json!(
                        names
                            .as_array()
                            .map(|l| l
                                .iter()
                                .zip(&stored.seats)
                                .map(|(name, plan)| match plan {
                                    SeatPlan::Person =>
                                        json!({"kind": "human", "name": name, "bot": null}),
                                    SeatPlan::Bot(b) => json!({"kind": "bot", "name": b, "bot": b}),
                                })
                                .collect::<Vec<_>>())
                            .unwrap_or_default()
                    )
                }))
                .unwrap_or_else(|| json!([]));
            let mut entry = json!({
                "number": index + 1,
                "id": table,
                "status": status,
                "deals_done": done,
                "finished": p.finished,
                "seats": seats,
            });
            if let Some(key) = key {
                let invite = invite_of(key, index);
                entry["link"] = json!(format!("/t/{table}?key={invite}"));
                entry["key"] = json!(invite);
            }
            entry
        })
        .collect();
    let [en, ja] = Lang::ALL.map(Catalog::new);
    Ok(json!({
        "id": id,
        "host": key.is_some(),
        "ruleset": stored.ruleset,
        "name_en": en.preset_name(rules.base),
        "name_ja": ja.preset_name(rules.base),
        "players": n,
        "deals": stored.deals,
        // The seed deals every deal: shown only once every table has finished.
        "seed": finished.then_some(stored.seed),
        "seats": stored.seats.iter().map(|p| match p {
            SeatPlan::Person => json!({"kind": "person"}),
            SeatPlan::Bot(b) => json!({"kind": "bot", "bot": b}),
        }).collect::<Vec<_>>(),
        "lower_is_better": rules.scoring.is_penalty(),
        "compared": shown,
        "finished": finished,
        "tables": tables,
        "comparison": comparison(&scores, shown, n),
        "records": format!("/api/series/{id}/records"),
    }))
}

/// `GET /api/series/{id}` (`?key=` the host key, for the tables' links).
pub(super) async fn read(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Query(query): Query<KeyQuery>,
) -> Result<Response, Refusal> {
    let (stored, host) = load(&hub, &id, query.key.as_deref()).await?;
    let key = query.key.as_deref().filter(|_| host);
    Ok(answer(
        StatusCode::OK,
        read_view(&hub, &id, &stored, key).await?,
    ))
}

/// `GET /api/series/{id}/records`: every table's record (`RECORD.md`) as one JSON array in
/// the tables' order, each cut to the deals every table has finished.
pub(super) async fn records(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
) -> Result<Response, Refusal> {
    let (stored, _) = load(&hub, &id, None).await?;
    let mut all = Vec::with_capacity(stored.tables.len());
    for table in &stored.tables {
        all.push(played(&hub, table).await?);
    }
    let shown = compared(&all);
    let records: Vec<Value> = all
        .into_iter()
        .filter_map(|p| p.record)
        .map(|mut record| {
            if let Some(deals) = record.get_mut("deals").and_then(Value::as_array_mut) {
                deals.truncate(shown);
            }
            record
        })
        .collect();
    let mut response = answer(StatusCode::OK, json!(records));
    response.headers_mut().insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_str(&format!("attachment; filename=\"torite-series-{id}.json\""))
            .unwrap_or(HeaderValue::from_static("attachment")),
    );
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_comparison_is_each_score_against_the_mean() {
        // Two tables, two deals, two seats.
        let scores = vec![vec![vec![3, 0], vec![1, 2]], vec![vec![0, 1], vec![1, 4]]];
        let c = comparison(&scores, 2, 2);
        assert_eq!(c[0]["mean"], json!([1.5, 0.5]));
        assert_eq!(c[0]["tables"][0]["diff"], json!([1.5, -0.5]));
        assert_eq!(c[0]["tables"][1]["diff"], json!([-1.5, 0.5]));
        assert_eq!(c[1]["mean"], json!([1.0, 3.0]));
        assert_eq!(c[1]["tables"][0]["running"], json!([1.5, -1.5]));
        assert_eq!(c[1]["tables"][1]["running"], json!([-1.5, 1.5]));
    }

    #[test]
    fn only_deals_every_table_finished_are_compared() {
        let p = |s: Vec<Option<Vec<i32>>>| Played {
            summary: None,
            record: None,
            scores: s,
            finished: false,
        };
        let all = [
            p(vec![Some(vec![1]), Some(vec![2]), None]),
            p(vec![Some(vec![1]), None]),
        ];
        assert_eq!(compared(&all), 1);
        assert_eq!(compared(&[p(vec![None]), p(vec![Some(vec![0])])]), 0);
    }

    #[test]
    fn invites_differ_by_table_and_key() {
        assert_ne!(invite_of("k", 0), invite_of("k", 1));
        assert_ne!(invite_of("k", 0), invite_of("j", 0));
        assert_eq!(invite_of("k", 0).len(), 32);
    }

    #[test]
    fn a_stored_seat_reads_back() {
        let seats = vec![SeatPlan::Person, SeatPlan::Bot("heuristic".into())];
        let text = serde_json::to_string(&seats).unwrap();
        assert_eq!(text, r#"["person",{"bot":"heuristic"}]"#);
        let back: Vec<SeatPlan> = serde_json::from_str(&text).unwrap();
        assert_eq!(back, seats);
    }
}
