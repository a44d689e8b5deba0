//! Player profiles over HTTP (`/api/profiles`, `/api/ranking`, `/api/qr`; `docs/PROTOCOL.md`,
//! "Profiles"): create one, read one's own games with their seat tokens (with the key in an
//! `Authorization: Bearer` header), keep a seat with one (`/api/tables/{id}/profile`), read a
//! profile's statistics and a
//! preset's ranking, and draw a link as a QR code.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};
use torite_core::Preset;
use torite_i18n::{Catalog, Lang};

use super::JsonBody;
use crate::actor::Cmd;
use crate::ask::ask_plain;
use crate::hub::Hub;
use crate::profiles::{self, SeatResult};
use crate::refusal::{Refusal, RefusalKind, Why, shown};
use crate::store::{ProfileRow, SeatRow};

/// The most games "my games" lists.
pub const MY_GAMES: i64 = 100;

/// The longest text drawn as a QR code.
pub const MAX_QR_TEXT: usize = 512;

fn answer(status: StatusCode, body: Value) -> Response {
    (
        status,
        [(header::CACHE_CONTROL, "no-store")],
        axum::Json(body),
    )
        .into_response()
}

/// The profile whose key the request carries (`Authorization: Bearer {key}`), and the key.
async fn holder(hub: &Hub, headers: &HeaderMap) -> Result<(ProfileRow, String), Refusal> {
    let key = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
        .ok_or_else(|| Refusal::new(RefusalKind::Forbidden, Why::ProfileKeyNeeded))?;
    let forged = || Refusal::forbidden(Why::ProfileKey);
    let (id, secret) = profiles::split_key(key).ok_or_else(forged)?;
    let store = profiles::store_of(hub).map_err(|e| Refusal::storage(&e))?;
    let row = store
        .profile(id)
        .await
        .map_err(|e| Refusal::storage(&e))?
        .ok_or_else(forged)?;
    if !profiles::secret_matches(secret, &row.key_digest) {
        return Err(forged());
    }
    Ok((row, key.to_owned()))
}

/// `POST /api/profiles`: a new profile with a display name; the answer carries its key, which
/// the server does not keep (only its digest).
pub(super) async fn create(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    JsonBody(body): JsonBody,
) -> Result<Response, Refusal> {
    if !hub.may_create(crate::hub::client_address(peer.ip())) {
        return Err(Refusal::new(RefusalKind::TooMany, Why::TooManyCreates));
    }
    let name = body
        .get("name")
        .and_then(Value::as_str)
        .ok_or_else(|| Refusal::bad(Why::NameNeeded))
        .and_then(crate::table::check_name)?;
    let (id, key) = profiles::new_key();
    let (_, secret) = profiles::split_key(&key).ok_or_else(|| Refusal::bad(Why::ProfileKey))?;
    let row = ProfileRow {
        id: id.clone(),
        created: i64::try_from(crate::now_secs()).unwrap_or(i64::MAX),
        name: name.clone(),
        key_digest: profiles::digest(secret),
    };
    let store = profiles::store_of(&hub).map_err(|e| Refusal::storage(&e))?;
    store
        .create_profile(&row)
        .await
        .map_err(|e| Refusal::storage(&e))?;
    Ok(answer(
        StatusCode::CREATED,
        json!({"id": id, "name": name, "key": key}),
    ))
}

fn preset_names(base: &str) -> (String, String) {
    let [en, ja] = Lang::ALL.map(Catalog::new);
    Preset::from_id(base).map_or_else(
        || (base.to_owned(), base.to_owned()),
        |p| (en.preset_name(p), ja.preset_name(p)),
    )
}

/// One of "my games": the table, the seat and its token, and how far the game is.
async fn game_of(hub: &Hub, key: &str, row: &SeatRow) -> Value {
    let token = profiles::open(key, &row.table, row.seat, &row.sealed);
    let invite = row
        .invite
        .as_deref()
        .and_then(|k| profiles::open(key, &row.table, -1, k));
    let result: Option<SeatResult> = row
        .result
        .as_deref()
        .and_then(|r| serde_json::from_str(r).ok());
    let live = hub
        .table(&row.table)
        .await
        .map(|t| t.states.borrow().summary.clone());
    let (status, base, names, totals, winners) = match (&live, &result) {
        (Some(s), _) => (
            s.status.to_owned(),
            s.base.to_owned(),
            s.seats.iter().map(|x| x.name.clone()).collect(),
            None,
            None,
        ),
        (None, Some(r)) => (
            if r.finished { "finished" } else { "gone" }.to_owned(),
            r.base.clone(),
            r.names.clone(),
            r.finished.then(|| r.totals.clone()),
            r.finished.then(|| r.winners.clone()),
        ),
        // Not live here (not loaded yet, or on another server of a cluster): as its events say.
        (None, None) => {
            let store = profiles::store_of(hub).ok();
            let events = match store {
                Some(store) => store.table_events(&row.table).await.unwrap_or_default(),
                None => Vec::new(),
            };
            match profiles::replayed(&row.table, &events) {
                Some(state) => (
                    state.status().as_str().to_owned(),
                    state.rules().base.id().to_owned(),
                    (0..state.seats().len()).map(|s| state.name(s)).collect(),
                    None,
                    None,
                ),
                None => ("gone".to_owned(), String::new(), Vec::new(), None, None),
            }
        }
    };
    let totals = totals.or_else(|| {
        result
            .as_ref()
            .filter(|r| r.finished)
            .map(|r| r.totals.clone())
    });
    let winners = winners.or_else(|| {
        result
            .as_ref()
            .filter(|r| r.finished)
            .map(|r| r.winners.clone())
    });
    let (name_en, name_ja) = preset_names(&base);
    json!({
        "table": row.table,
        "seat": row.seat,
        "token": token,
        "invite": invite,
        "status": status,
        "preset": base,
        "name_en": name_en,
        "name_ja": name_ja,
        "players": names,
        "created": row.created,
        "totals": totals,
        "winners": winners,
        "kept": result.as_ref().is_none_or(|r| r.kept),
        "page": format!("/t/{}", row.table),
    })
}

/// `GET /api/profiles/me`: the key's profile and its games (newest first), each with its
/// seat's token.
pub(super) async fn me(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
) -> Result<Response, Refusal> {
    let (row, key) = holder(&hub, &headers).await?;
    profiles::settle(&hub)
        .await
        .map_err(|e| Refusal::storage(&e))?;
    let store = profiles::store_of(&hub).map_err(|e| Refusal::storage(&e))?;
    let seats = store
        .seats_of(&row.id, MY_GAMES)
        .await
        .map_err(|e| Refusal::storage(&e))?;
    let mut games = Vec::with_capacity(seats.len());
    for seat in &seats {
        games.push(game_of(&hub, &key, seat).await);
    }
    Ok(answer(
        StatusCode::OK,
        json!({"id": row.id, "name": row.name, "created": row.created, "games": games}),
    ))
}

/// `POST /api/profiles/me` `{"name"}`: changes the key's profile's display name (checked as a
/// table's names are); the ranking and the statistics show the new one.
pub(super) async fn rename(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    JsonBody(body): JsonBody,
) -> Result<Response, Refusal> {
    let (row, _) = holder(&hub, &headers).await?;
    let name = body
        .get("name")
        .and_then(Value::as_str)
        .ok_or_else(|| Refusal::bad(Why::NameNeeded))
        .and_then(crate::table::check_name)?;
    let store = profiles::store_of(&hub).map_err(|e| Refusal::storage(&e))?;
    if !store
        .rename_profile(&row.id, &name)
        .await
        .map_err(|e| Refusal::storage(&e))?
    {
        return Err(Refusal::forbidden(Why::ProfileKey));
    }
    Ok(answer(StatusCode::OK, json!({"id": row.id, "name": name})))
}

/// `POST /api/tables/{id}/profile`: keeps the seat a token holds (`token`) with the key's
/// profile, so that the profile reclaims it on any device. (A table's own path, so that a
/// cluster forwards it to the server that drives the table.)
pub(super) async fn keep_seat(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    JsonBody(body): JsonBody,
) -> Result<Response, Refusal> {
    let (row, key) = holder(&hub, &headers).await?;
    let field = |name: &str| {
        body.get(name).and_then(Value::as_str).ok_or_else(|| {
            Refusal::bad(Why::FieldNeeded {
                field: name.to_owned(),
            })
        })
    };
    let id = id.as_str();
    let token = field("token")?;
    // A private table's invite secret, kept so that the profile opens the table anywhere.
    let invite = match body.get("invite") {
        None | Some(Value::Null) => None,
        Some(v) => Some(v.as_str().filter(|k| k.len() <= 64).ok_or_else(|| {
            Refusal::bad(Why::FieldNeeded {
                field: "invite".to_owned(),
            })
        })?),
    };
    let table = hub.table(id).await.ok_or_else(|| Refusal::no_table(id))?;
    let auth = ask_plain(&table.tx, |reply| Cmd::Auth {
        token: token.to_owned(),
        reply,
    })
    .await
    .ok_or_else(|| Refusal::new(RefusalKind::Busy, Why::TableBusy))?;
    let seat = auth
        .seat
        .ok_or_else(|| Refusal::forbidden(Why::ProfileNoSeat { id: shown(id) }))?;
    let seat_no = i64::try_from(seat).unwrap_or(i64::MAX);
    let kept = SeatRow {
        profile: row.id.clone(),
        name: row.name.clone(),
        table: id.to_owned(),
        seat: seat_no,
        token_hash: crate::table::token_hash(token),
        sealed: profiles::seal(&key, id, seat_no, token),
        invite: invite.map(|k| profiles::seal(&key, id, -1, k)),
        created: i64::try_from(crate::now_secs()).unwrap_or(i64::MAX),
        result: None,
    };
    let store = profiles::store_of(&hub).map_err(|e| Refusal::storage(&e))?;
    if !store
        .keep_seat(&kept)
        .await
        .map_err(|e| Refusal::storage(&e))?
    {
        return Err(Refusal::conflict(Why::ProfileSeatTaken {
            id: shown(id),
            seat: (seat + 1).to_string(),
        }));
    }
    Ok(answer(StatusCode::OK, json!({"table": id, "seat": seat})))
}

fn line(l: &profiles::Line) -> Value {
    json!({
        "games": l.games,
        "wins": l.wins,
        "deals": l.deals,
        "average": l.average(),
    })
}

/// `GET /api/profiles/{id}/stats`: a profile's games, wins and average deal score by preset,
/// against bots and against people, with its rating where it is ranked.
pub(super) async fn stats(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
) -> Result<Response, Refusal> {
    let store = profiles::store_of(&hub).map_err(|e| Refusal::storage(&e))?;
    let no = || Refusal::new(RefusalKind::NotFound, Why::NoProfile { id: shown(&id) });
    if id.len() > 64 {
        return Err(no());
    }
    let row = store
        .profile(&id)
        .await
        .map_err(|e| Refusal::storage(&e))?
        .ok_or_else(no)?;
    profiles::settle(&hub)
        .await
        .map_err(|e| Refusal::storage(&e))?;
    let seats = store
        .seats_of(&id, profiles::MAX_SEATS_READ)
        .await
        .map_err(|e| Refusal::storage(&e))?;
    let results: Vec<SeatResult> = seats
        .iter()
        .filter_map(|s| s.result.as_deref())
        .filter_map(|r| serde_json::from_str(r).ok())
        .collect();
    let everyone = profiles::kept_results(
        store
            .settled(profiles::MAX_RESULTS_READ)
            .await
            .map_err(|e| Refusal::storage(&e))?,
    );
    let presets: Vec<Value> = profiles::stats(&results)
        .iter()
        .map(|(base, s)| {
            let (name_en, name_ja) = preset_names(base);
            let ranking = profiles::ranking(&profiles::ranked_games(&everyone, base));
            let rated = ranking
                .iter()
                .position(|r| r.profile == id)
                .map(|i| json!({"rank": i + 1, "of": ranking.len(), "rating": ranking[i].rating.round(), "deviation": ranking[i].deviation.round()}));
            json!({
                "preset": base,
                "name_en": name_en,
                "name_ja": name_ja,
                "all": line(&s.all),
                "bots": line(&s.bots),
                "people": line(&s.people),
                "rating": rated,
            })
        })
        .collect();
    Ok(answer(
        StatusCode::OK,
        json!({"id": row.id, "name": row.name, "presets": presets}),
    ))
}

/// The query of a ranking: the preset, or every preset with ranked games.
#[derive(Deserialize)]
pub(super) struct RankingQuery {
    preset: Option<String>,
}

/// `GET /api/ranking?preset=…`: the Glicko-2 ranking of each preset (or of one), from games
/// between people with profiles only.
pub(super) async fn ranking(
    State(hub): State<Arc<Hub>>,
    Query(query): Query<RankingQuery>,
) -> Result<Response, Refusal> {
    let bases: Vec<&'static str> = match query.preset.as_deref() {
        None | Some("") => Preset::ALL.iter().map(|p| p.id()).collect(),
        Some(id) => vec![
            Preset::from_id(id)
                .ok_or_else(|| {
                    Refusal::new(RefusalKind::NotFound, Why::NoPreset { id: shown(id) })
                })?
                .id(),
        ],
    };
    profiles::settle(&hub)
        .await
        .map_err(|e| Refusal::storage(&e))?;
    let store = profiles::store_of(&hub).map_err(|e| Refusal::storage(&e))?;
    let everyone = profiles::kept_results(
        store
            .settled(profiles::MAX_RESULTS_READ)
            .await
            .map_err(|e| Refusal::storage(&e))?,
    );
    let one = query.preset.as_deref().is_some_and(|p| !p.is_empty());
    let presets: Vec<Value> = bases
        .into_iter()
        .filter_map(|base| {
            let games = profiles::ranked_games(&everyone, base);
            if games.is_empty() && !one {
                return None;
            }
            let (name_en, name_ja) = preset_names(base);
            let players: Vec<Value> = profiles::ranking(&games)
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    json!({
                        "rank": i + 1,
                        "profile": r.profile,
                        "name": r.name,
                        "rating": r.rating.round(),
                        "deviation": r.deviation.round(),
                        "games": r.games,
                        "wins": r.wins,
                    })
                })
                .collect();
            Some(json!({
                "preset": base,
                "name_en": name_en,
                "name_ja": name_ja,
                "games": games.len(),
                "players": players,
            }))
        })
        .collect();
    Ok(answer(StatusCode::OK, json!({"presets": presets})))
}

/// `POST /api/qr`: a link (`text`, `http://` or `https://`, at most [`MAX_QR_TEXT`]
/// characters) drawn as a QR code, SVG.
pub(super) async fn qr(JsonBody(body): JsonBody) -> Result<Response, Refusal> {
    let bad = || {
        Refusal::bad(Why::QrText {
            max: MAX_QR_TEXT.to_string(),
        })
    };
    let text = body
        .get("text")
        .and_then(Value::as_str)
        .filter(|t| t.chars().count() <= MAX_QR_TEXT)
        .filter(|t| t.starts_with("http://") || t.starts_with("https://"))
        .ok_or_else(bad)?;
    let code = qrcode::QrCode::new(text.as_bytes()).map_err(|_| bad())?;
    let svg = code
        .render::<qrcode::render::svg::Color<'_>>()
        .min_dimensions(240, 240)
        .quiet_zone(true)
        .build();
    Ok((
        [
            (header::CONTENT_TYPE, "image/svg+xml"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        svg,
    )
        .into_response())
}
