//! Score sheets of games played with real cards (`/api/scoresheets`, `docs/PROTOCOL.md`):
//! the players' names and each deal's facts as a club's paper method gives them, scored by
//! `torite-core` when read. A sheet is changed only with the write key returned at its
//! creation; the view key reads it and follows its changes as server-sent events.

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, LazyLock, Mutex, PoisonError};

use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use tokio::sync::broadcast;
use torite_core::record::rule_name;
use torite_core::{DealFacts, FactsError, Game, LotResult, Ruleset, Scoring, SeatSet};
use torite_i18n::present::{strokes_and_circles, tally};
use torite_i18n::{Catalog, Lang};
use torite_sheets::Format;

use super::JsonBody;
use crate::hub::Hub;
use crate::refusal::{Refusal, RefusalKind, Why, shown};

/// The most deals a sheet keeps.
pub const MAX_DEALS: usize = 300;

/// The most card points one player can be given in a deal (far above any game's total).
const MAX_POINTS: u64 = 10_000;

/// A sheet as stored: the rules, the names, the keys' digests and the deals' facts.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Stored {
    ruleset: Value,
    players: Vec<String>,
    write: String,
    view: String,
    deals: Vec<StoredDeal>,
}

/// One deal's facts as entered.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
struct StoredDeal {
    tricks: Vec<u32>,
    points: Vec<u32>,
    lot: Option<StoredLot>,
    draw: Option<usize>,
    /// The ticks the tricks stand for, where they were entered as ticks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    ticks: Option<StoredTicks>,
}

/// A Jass deal's ticks: who took no trick, who took every trick.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
struct StoredTicks {
    no_trick: Vec<usize>,
    every_trick: Option<usize>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
struct StoredLot {
    declarers: Vec<usize>,
    winner: Option<usize>,
}

impl StoredDeal {
    fn facts(&self, n: usize) -> DealFacts {
        let mut facts = DealFacts {
            players: n,
            ..DealFacts::default()
        };
        for (s, t) in self.tricks.iter().take(n).enumerate() {
            facts.tricks[s] = u8::try_from(*t).unwrap_or(u8::MAX);
        }
        for (s, p) in self.points.iter().take(n).enumerate() {
            facts.points[s] = *p;
        }
        facts.lot = self.lot.as_ref().map(|l| LotResult {
            declarers: l.declarers.iter().copied().collect::<SeatSet>().bits(),
            winner: l.winner,
        });
        facts
    }
}

/// The live views: a channel per sheet that someone follows.
static LIVE: LazyLock<Mutex<HashMap<String, broadcast::Sender<()>>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

/// The most live views open at once on the server.
pub const MAX_FOLLOWERS: usize = 512;
/// The most live views open at once on one sheet.
pub const MAX_FOLLOWERS_PER_SHEET: usize = 32;

/// Live views open now.
static FOLLOWING: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// One open live view, counted while it lasts.
struct Following;

impl Drop for Following {
    fn drop(&mut self) {
        FOLLOWING.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
    }
}

/// One change at a time: the read, check and conditional write of a sheet.
static WRITING: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

fn digest(key: &str) -> String {
    Sha256::digest(key.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn no_sheet(id: &str) -> Refusal {
    Refusal::new(RefusalKind::NotFound, Why::NoScoresheet { id: shown(id) })
}

/// What a key may do with a sheet.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Access {
    Write,
    View,
}

struct Loaded {
    stored: Stored,
    rules: Ruleset,
    version: i64,
}

async fn load(hub: &Hub, id: &str, key: Option<&str>) -> Result<(Loaded, Access), Refusal> {
    let key = key.ok_or_else(|| {
        Refusal::bad(Why::FieldNeeded {
            field: "key".to_owned(),
        })
    })?;
    if id.len() > 64 {
        return Err(no_sheet(id));
    }
    let (body, version) = hub
        .store()
        .scoresheet(id)
        .await
        .map_err(Refusal::storage)?
        .ok_or_else(|| no_sheet(id))?;
    let stored: Stored = serde_json::from_str(&body).map_err(Refusal::internal)?;
    let rules = Ruleset::from_json(&stored.ruleset).map_err(Refusal::internal)?;
    let given = digest(key);
    let access = if given == stored.write {
        Access::Write
    } else if given == stored.view {
        Access::View
    } else {
        return Err(Refusal::forbidden(Why::ScoresheetKey));
    };
    Ok((
        Loaded {
            stored,
            rules,
            version,
        },
        access,
    ))
}

fn game(rules: Ruleset, deals: &[StoredDeal]) -> Result<Game, String> {
    let n = rules.players as usize;
    let mut game = Game::new(rules, 0).map_err(|e| e.to_string())?;
    for deal in deals {
        game.record_facts(deal.facts(n), deal.draw)
            .map_err(|e| e.to_string())?;
    }
    Ok(game)
}

/// The seats whose card points exempt them from the deal's penalty (Mura's threshold, the
/// rules' own figure); none in a game without one.
fn exempt(rules: &Ruleset, points: &[u32]) -> Vec<usize> {
    match rules.scoring {
        Scoring::Mura { threshold, .. } => (0..points.len())
            .filter(|&s| points[s] >= u32::from(threshold))
            .collect(),
        _ => Vec::new(),
    }
}

/// The sheet as it is read: every deal scored by the rules, the totals, the end and the
/// winners, and the marks where the game is kept in strokes and circles.
fn view(id: &str, loaded: &Loaded, access: Access) -> Result<Value, Refusal> {
    let rules = loaded.rules;
    let n = rules.players as usize;
    let game = game(rules, &loaded.stored.deals).map_err(Refusal::internal)?;
    let [en, ja] = Lang::ALL.map(Catalog::new);
    let mut so_far: Vec<Vec<i32>> = vec![Vec::new(); n];
    let deals: Vec<Value> = loaded
        .stored
        .deals
        .iter()
        .zip(game.results())
        .enumerate()
        .map(|(i, (deal, r))| {
            let scores = &r.score.scores[..n];
            for (s, score) in scores.iter().enumerate() {
                so_far[s].push(*score);
            }
            let marks: Option<Vec<Option<String>>> = strokes_and_circles(&rules).then(|| {
                so_far
                    .iter()
                    .map(|seat| tally(&rules, seat.iter().copied()))
                    .collect()
            });
            json!({
                "number": i + 1,
                "dealer": r.dealer,
                "tricks": (rules.tricks_needed(r.facts.lot) && deal.ticks.is_none())
                    .then_some(&deal.tricks),
                "ticks": deal.ticks.as_ref().map(|t| json!({
                    "no_trick": t.no_trick,
                    "every_trick": t.every_trick,
                })),
                "points": (rules.card_point_total() != (0, 0)).then_some(&deal.points),
                "lot": deal.lot.as_ref().map(|l| json!({
                    "declarers": l.declarers,
                    "winner": l.winner,
                })),
                "draw": deal.draw,
                "exempt": exempt(&rules, &deal.points),
                "scores": scores,
                "totals": &r.totals[..n],
                "rule": rule_name(r.score.rule),
                "rule_en": en.score_rule(r.score.rule),
                "rule_ja": ja.score_rule(r.score.rule),
                "marks": marks,
            })
        })
        .collect();
    let totals: Vec<i32> = game
        .results()
        .last()
        .map_or_else(|| vec![0; n], |r| r.totals[..n].to_vec());
    let (low, high) = rules.card_point_total();
    Ok(json!({
        "id": id,
        "version": loaded.version,
        "write": access == Access::Write,
        "ruleset": rules.to_json(),
        "name_en": en.preset_name(rules.base),
        "name_ja": ja.preset_name(rules.base),
        "players": loaded.stored.players,
        "facts": {
            "tricks": rules.tricks(),
            "card_points": (high > 0).then_some([low, high]),
            "lot": rules.lot.is_some(),
            "tricks_with_lot": rules.tricks_needed(Some(LotResult { declarers: 1, winner: None })),
            "marks": strokes_and_circles(&rules),
            "ticks": rules.tricks_as_ticks(),
            // Penalty points, which the club keeps as chips taken from a pile (Mura).
            "chips": rules.scoring.is_penalty(),
        },
        "deals": deals,
        "totals": totals,
        "held": game.held().len(),
        "next_dealer": game.next_dealer(),
        "finished": game.is_finished(),
        "winners": game.winners(),
        "max_deals": MAX_DEALS,
    }))
}

fn answer(status: StatusCode, body: Value) -> Response {
    (
        status,
        [(header::CACHE_CONTROL, "no-store")],
        axum::Json(body),
    )
        .into_response()
}

/// `POST /api/scoresheets`: a new sheet of a preset or house rules and the players' names.
pub(super) async fn create(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    JsonBody(body): JsonBody,
) -> Result<Response, Refusal> {
    let ruleset = super::creation_ruleset(&hub, peer, &body)?;
    let rules = Ruleset::from_json(&ruleset)
        .map_err(|e| Refusal::bad(crate::refusal::ruleset_refused(&e)))?;
    let n = rules.players as usize;
    let given = body.get("players").and_then(Value::as_array);
    let names = given
        .filter(|p| p.len() == n)
        .ok_or_else(|| {
            Refusal::bad(Why::ScoresheetPlayers {
                count: n.to_string(),
                given: given.map_or(0, Vec::len).to_string(),
            })
        })?
        .iter()
        .map(|p| {
            p.as_str()
                .ok_or_else(|| Refusal::bad(Why::NameNeeded))
                .and_then(crate::table::check_name)
        })
        .collect::<Result<Vec<String>, Refusal>>()?;
    for (i, name) in names.iter().enumerate() {
        if names[..i]
            .iter()
            .any(|o| o.to_lowercase() == name.to_lowercase())
        {
            return Err(Refusal::bad(Why::ScoresheetNameTwice {
                name: name.clone(),
            }));
        }
    }
    let id = crate::actor::new_token()[..12].to_owned();
    let key = crate::actor::new_token();
    let view_key = crate::actor::new_token();
    let stored = Stored {
        ruleset: rules.to_json(),
        players: names,
        write: digest(&key),
        view: digest(&view_key),
        deals: Vec::new(),
    };
    let text = serde_json::to_string(&stored).map_err(Refusal::internal)?;
    let created = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(0));
    hub.store()
        .create_scoresheet(&id, created, &text)
        .await
        .map_err(Refusal::storage)?;
    let loaded = Loaded {
        stored,
        rules,
        version: 0,
    };
    let sheet = view(&id, &loaded, Access::Write)?;
    Ok(answer(
        StatusCode::CREATED,
        json!({
            "id": id,
            "key": key,
            "view_key": view_key,
            "page": format!("/score/{id}"),
            "view": format!("/score/{id}/view?key={view_key}"),
            "sheet": sheet,
        }),
    ))
}

/// The query of a read: the key.
#[derive(Deserialize)]
pub(super) struct KeyQuery {
    key: Option<String>,
}

/// `GET /api/scoresheets/{id}?key=…`: the sheet, scored.
pub(super) async fn read(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Query(query): Query<KeyQuery>,
) -> Result<Response, Refusal> {
    let (loaded, access) = load(&hub, &id, query.key.as_deref()).await?;
    Ok(answer(StatusCode::OK, view(&id, &loaded, access)?))
}

fn numbers(
    body: &Value,
    field: &'static str,
    n: usize,
    max: u64,
) -> Result<Option<Vec<u32>>, Refusal> {
    let bad = || {
        Refusal::bad(Why::ScoresheetNumbers {
            field: field.to_owned(),
            count: n.to_string(),
        })
    };
    match body.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Array(list)) if list.len() == n => list
            .iter()
            .map(|v| {
                v.as_u64()
                    .filter(|v| *v <= max)
                    .and_then(|v| u32::try_from(v).ok())
                    .ok_or_else(bad)
            })
            .collect::<Result<Vec<u32>, Refusal>>()
            .map(Some),
        Some(_) => Err(bad()),
    }
}

fn seat_of(value: &Value, n: usize) -> Option<usize> {
    value
        .as_u64()
        .and_then(|s| usize::try_from(s).ok())
        .filter(|s| *s < n)
}

fn lot_of(body: &Value, rules: &Ruleset) -> Result<Option<StoredLot>, Refusal> {
    let n = rules.players as usize;
    let lot = match body.get("lot") {
        None | Some(Value::Null) => return Ok(None),
        Some(lot) => lot,
    };
    if rules.lot.is_none() {
        return Err(Refusal::bad(Why::ScoresheetNoLot));
    }
    let bad = || {
        Refusal::bad(Why::ScoresheetLot {
            last: (n - 1).to_string(),
        })
    };
    let declarers = lot
        .get("declarers")
        .and_then(Value::as_array)
        .filter(|d| !d.is_empty() && d.len() <= n)
        .ok_or_else(bad)?
        .iter()
        .map(|d| seat_of(d, n).ok_or_else(bad))
        .collect::<Result<Vec<usize>, Refusal>>()?;
    if (1..declarers.len()).any(|i| declarers[..i].contains(&declarers[i])) {
        return Err(bad());
    }
    let winner = match lot.get("winner") {
        None | Some(Value::Null) => None,
        Some(w) => Some(seat_of(w, n).ok_or_else(bad)?),
    };
    Ok(Some(StoredLot { declarers, winner }))
}

/// A refusal of facts that cannot happen, naming players by their names.
fn facts_refused(error: &FactsError, players: &[String]) -> Refusal {
    let name = |s: usize| players.get(s).cloned().unwrap_or_else(|| s.to_string());
    let why = match *error {
        FactsError::TricksTotal { given, expected } => Why::ScoresheetTricksTotal {
            given: given.to_string(),
            expected: expected.to_string(),
        },
        FactsError::PointsTotal { given, low, high } => Why::ScoresheetPointsTotal {
            given: given.to_string(),
            expected: if low == high {
                low.to_string()
            } else {
                format!("{low}–{high}")
            },
        },
        FactsError::PointsWithoutTrick { seat, points } => Why::ScoresheetPointsWithoutTrick {
            player: name(seat),
            points: points.to_string(),
        },
        FactsError::WinnerDidNotDeclare { seat } => Why::ScoresheetWinner { player: name(seat) },
        FactsError::NoLot => Why::ScoresheetNoLot,
        other => Why::Internal {
            detail: other.to_string(),
        },
    };
    Refusal::bad(why)
}

/// The tricks a Jass deal's ticks stand for (`no_trick`: the players who took none,
/// `every_trick`: the one who took them all, or `null`), and the ticks as entered.
fn ticks_of(body: &Value, rules: &Ruleset) -> Result<(Vec<u32>, StoredTicks), Refusal> {
    let n = rules.players as usize;
    let bad = || {
        Refusal::bad(Why::ScoresheetTicks {
            last: (n - 1).to_string(),
        })
    };
    let no_trick = match body.get("no_trick") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(list)) if list.len() <= n => list
            .iter()
            .map(|s| seat_of(s, n).ok_or_else(bad))
            .collect::<Result<Vec<usize>, Refusal>>()?,
        Some(_) => return Err(bad()),
    };
    if (1..no_trick.len()).any(|i| no_trick[..i].contains(&no_trick[i])) {
        return Err(bad());
    }
    let every_trick = match body.get("every_trick") {
        None | Some(Value::Null) => None,
        Some(s) => Some(seat_of(s, n).ok_or_else(bad)?),
    };
    let tricks = rules
        .tricks_from_ticks(&no_trick, every_trick)
        .ok_or_else(bad)?;
    Ok((
        tricks,
        StoredTicks {
            no_trick,
            every_trick,
        },
    ))
}

/// A deal's facts from a request, each checked as the rules need them.
fn deal_of(body: &Value, rules: &Ruleset, players: &[String]) -> Result<StoredDeal, Refusal> {
    let n = rules.players as usize;
    let lot = lot_of(body, rules)?;
    let facts_lot = lot.as_ref().map(|l| LotResult {
        declarers: l.declarers.iter().copied().collect::<SeatSet>().bits(),
        winner: l.winner,
    });
    let mut ticks = None;
    let tricks = if rules.tricks_needed(facts_lot) {
        let given = numbers(body, "tricks", n, rules.tricks() as u64)?;
        let ticked = body.get("no_trick").is_some() || body.get("every_trick").is_some();
        let tricks = match given {
            Some(tricks) => tricks,
            None if ticked && rules.tricks_as_ticks() => {
                let (tricks, entered) = ticks_of(body, rules)?;
                ticks = Some(entered);
                tricks
            }
            None => {
                return Err(Refusal::bad(Why::ScoresheetNumbers {
                    field: "tricks".to_owned(),
                    count: n.to_string(),
                }));
            }
        };
        rules
            .check_tricks(&tricks)
            .map_err(|e| facts_refused(&e, players))?;
        tricks
    } else {
        vec![0; n]
    };
    let points = if rules.card_point_total() == (0, 0) {
        vec![0; n]
    } else {
        let points = numbers(body, "points", n, MAX_POINTS)?.ok_or_else(|| {
            Refusal::bad(Why::ScoresheetNumbers {
                field: "points".to_owned(),
                count: n.to_string(),
            })
        })?;
        rules
            .check_points(&tricks, &points)
            .map_err(|e| facts_refused(&e, players))?;
        points
    };
    let mut deal = StoredDeal {
        tricks,
        points,
        lot,
        draw: None,
        ticks,
    };
    let facts = deal.facts(n);
    rules
        .check_facts(&facts)
        .map_err(|e| facts_refused(&e, players))?;
    if let Some(tied) = rules.draw_needed(&facts) {
        let tied: Vec<usize> = (SeatSet::from_bits(tied) & SeatSet::all(n))
            .iter()
            .collect();
        let draw = body
            .get("draw")
            .and_then(|d| seat_of(d, n))
            .filter(|d| tied.contains(d));
        let names: Vec<String> = tied.iter().map(|s| players[*s].clone()).collect();
        deal.draw = Some(draw.ok_or_else(|| {
            Refusal::bad(Why::ScoresheetDraw {
                players: names.join(", "),
            })
        })?);
    }
    Ok(deal)
}

fn write_key(body: &Value) -> Option<&str> {
    body.get("key").and_then(Value::as_str)
}

/// Writes the changed sheet if nobody changed it meanwhile, tells its followers, and answers
/// the sheet as it now is.
async fn save(hub: &Hub, id: &str, mut loaded: Loaded) -> Result<Response, Refusal> {
    let text = serde_json::to_string(&loaded.stored).map_err(Refusal::internal)?;
    let written = hub
        .store()
        .update_scoresheet(id, loaded.version, &text)
        .await
        .map_err(Refusal::storage)?;
    if !written {
        return Err(Refusal::conflict(Why::ScoresheetChanged));
    }
    loaded.version += 1;
    let sheet = view(id, &loaded, Access::Write)?;
    changed(id);
    if let Some(cluster) = hub.cluster() {
        // The other nodes' followers of the sheet too.
        cluster.sheet_changed(id).await;
    }
    Ok(answer(StatusCode::OK, sheet))
}

/// Tells the sheet's followers on this node that it changed: each reads it anew.
pub(crate) fn changed(id: &str) {
    let mut live = LIVE.lock().unwrap_or_else(PoisonError::into_inner);
    // Nobody follows the sheet any more: its channel goes.
    if live.get(id).is_some_and(|tx| tx.send(()).is_err()) {
        live.remove(id);
    }
}

async fn writable(hub: &Hub, id: &str, body: &Value) -> Result<Loaded, Refusal> {
    let (loaded, access) = load(hub, id, write_key(body)).await?;
    if access != Access::Write {
        return Err(Refusal::forbidden(Why::ScoresheetViewOnly));
    }
    Ok(loaded)
}

/// `POST /api/scoresheets/{id}/deals`: adds the next deal.
pub(super) async fn add_deal(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    JsonBody(body): JsonBody,
) -> Result<Response, Refusal> {
    let _one = WRITING.lock().await;
    let mut loaded = writable(&hub, &id, &body).await?;
    let game = game(loaded.rules, &loaded.stored.deals).map_err(Refusal::internal)?;
    if game.is_finished() {
        return Err(Refusal::conflict(Why::ScoresheetOver));
    }
    if loaded.stored.deals.len() >= MAX_DEALS {
        return Err(Refusal::conflict(Why::ScoresheetFull {
            max: MAX_DEALS.to_string(),
        }));
    }
    let deal = deal_of(&body, &loaded.rules, &loaded.stored.players)?;
    loaded.stored.deals.push(deal);
    save(&hub, &id, loaded).await
}

/// `POST /api/scoresheets/{id}/undo`: takes back a deal (`deal`, numbered from 1; the last
/// by default), also after the game has ended; the deals after it are scored again.
pub(super) async fn undo(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    JsonBody(body): JsonBody,
) -> Result<Response, Refusal> {
    let _one = WRITING.lock().await;
    let mut loaded = writable(&hub, &id, &body).await?;
    let count = loaded.stored.deals.len();
    if count == 0 {
        return Err(Refusal::conflict(Why::ScoresheetNothingToUndo));
    }
    let number = match body.get("deal") {
        None | Some(Value::Null) => count,
        Some(v) => v
            .as_u64()
            .and_then(|d| usize::try_from(d).ok())
            .filter(|d| (1..=count).contains(d))
            .ok_or_else(|| {
                Refusal::bad(Why::ScoresheetNoDeal {
                    number: shown(&v.to_string()),
                    count: count.to_string(),
                })
            })?,
    };
    loaded.stored.deals.remove(number - 1);
    // Without the deal the game may end sooner: the deals after that end must go first.
    let mut replay = Game::new(loaded.rules, 0).map_err(Refusal::internal)?;
    let n = loaded.rules.players as usize;
    for (i, deal) in loaded.stored.deals.iter().enumerate() {
        if replay.is_finished() {
            return Err(Refusal::conflict(Why::ScoresheetUndoEnds {
                number: number.to_string(),
                ends: i.to_string(),
                count: (count).to_string(),
            }));
        }
        replay
            .record_facts(deal.facts(n), deal.draw)
            .map_err(Refusal::internal)?;
    }
    save(&hub, &id, loaded).await
}

/// The query of a printed sheet: the key, the language and the format.
#[derive(Deserialize)]
pub(super) struct SheetQuery {
    key: Option<String>,
    lang: Option<String>,
    format: Option<String>,
}

/// `GET /api/scoresheets/{id}/sheet?key=…&lang=en|ja&format=html|pdf`: the game so far
/// written into the printable score sheet (`torite-sheets`' HTML page, or its A4 PDF), to
/// print or keep.
pub(super) async fn sheet(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Query(query): Query<SheetQuery>,
) -> Result<Response, Refusal> {
    let lang = match query.lang.as_deref() {
        None | Some("en") => Lang::En,
        Some("ja") => Lang::Ja,
        Some(other) => {
            return Err(Refusal::bad(Why::UnknownLang {
                value: shown(other),
            }));
        }
    };
    let format = match query.format.as_deref() {
        None => Format::Html,
        Some(f) => f
            .parse::<Format>()
            .map_err(|_| Refusal::bad(Why::BadSheetFormat { value: shown(f) }))?,
    };
    let (loaded, _) = load(&hub, &id, query.key.as_deref()).await?;
    let game = game(loaded.rules, &loaded.stored.deals).map_err(Refusal::internal)?;
    let kept =
        torite_sheets::Sheet::kept(&loaded.rules, lang, &loaded.stored.players, game.results());
    if format == Format::Pdf {
        // A PDF is CPU work: on the blocking pool, as many at once as the rules sheets.
        let busy = || Refusal::new(RefusalKind::Busy, Why::ServerBusy);
        let _permit = super::sheets::RENDERING
            .acquire()
            .await
            .map_err(|_| busy())?;
        let bytes = tokio::task::spawn_blocking(move || kept.pdf())
            .await
            .map_err(|_| busy())?
            .map_err(|e| {
                Refusal::new(
                    RefusalKind::Broken,
                    Why::SheetFailed {
                        detail: e.to_string(),
                    },
                )
            })?;
        let file = format!("attachment; filename=\"torite-score-{id}.pdf\"");
        let mut response = (
            [
                (header::CONTENT_TYPE, "application/pdf"),
                (header::CACHE_CONTROL, "no-store"),
            ],
            bytes,
        )
            .into_response();
        if let Ok(value) = axum::http::HeaderValue::from_str(&file) {
            response
                .headers_mut()
                .insert(header::CONTENT_DISPOSITION, value);
        }
        return Ok(response);
    }
    let html = kept.html();
    let mut response = (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        html,
    )
        .into_response();
    response.headers_mut().insert(
        header::CONTENT_SECURITY_POLICY,
        axum::http::HeaderValue::from_static(super::guard::SHEET_CSP),
    );
    Ok(response)
}

/// `GET /api/scoresheets/{id}/events?key=…`: the sheet as server-sent events, now and after
/// each change (`event: sheet`).
pub(super) async fn events(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Query(query): Query<KeyQuery>,
) -> Result<Response, Refusal> {
    let key = query.key.clone();
    let (loaded, access) = load(&hub, &id, key.as_deref()).await?;
    let first = view(&id, &loaded, access)?;
    let rx = {
        let mut live = LIVE.lock().unwrap_or_else(PoisonError::into_inner);
        let tx = live
            .entry(id.clone())
            .or_insert_with(|| broadcast::channel(16).0);
        let open = FOLLOWING.load(std::sync::atomic::Ordering::Relaxed);
        if open >= MAX_FOLLOWERS || tx.receiver_count() >= MAX_FOLLOWERS_PER_SHEET {
            return Err(Refusal::new(
                RefusalKind::TooMany,
                Why::ScoresheetFollowers {
                    max: MAX_FOLLOWERS_PER_SHEET.to_string(),
                },
            ));
        }
        FOLLOWING.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        tx.subscribe()
    };
    let counted = Following;
    let frame = |sheet: &Value| format!("event: sheet\ndata: {sheet}\n\n");
    let state = (Some(frame(&first)), rx, hub, id, key, counted);
    let stream =
        futures_util::stream::unfold(state, |(first, mut rx, hub, id, key, counted)| async move {
            if let Some(first) = first {
                return Some((
                    Ok::<_, Infallible>(first),
                    (None, rx, hub, id, key, counted),
                ));
            }
            // A lagging follower only missed changes it reads anew; a closed channel ends it.
            if let Err(broadcast::error::RecvError::Closed) = rx.recv().await {
                return None;
            }
            let (loaded, access) = load(&hub, &id, key.as_deref()).await.ok()?;
            let sheet = view(&id, &loaded, access).ok()?;
            let text = format!("event: sheet\ndata: {sheet}\n\n");
            Some((Ok(text), (None, rx, hub, id, key, counted)))
        });
    Ok((
        [
            (header::CONTENT_TYPE, "text/event-stream"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        axum::body::Body::from_stream(stream),
    )
        .into_response())
}
