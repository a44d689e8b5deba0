//! The lobby and table HTTP API (`docs/PROTOCOL.md`).

use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use std::net::SocketAddr;

use axum::extract::{ConnectInfo, DefaultBodyLimit, FromRequest, Path, Request, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Value, json};
use torite_core::Preset;

use crate::actor::Cmd;
use crate::ask::ask;
use crate::hub::Hub;
use crate::refusal::{Refusal, RefusalKind, Why, shown};

mod bots;
mod duplicate;
pub(crate) mod guard;
mod health;
mod private;
mod profiles;
pub(crate) mod records;
mod rematch;
mod replay;
pub(crate) mod scoresheets;
mod sheets;

/// The largest request body accepted.
const MAX_BODY: usize = 16 * 1024;

pub(crate) fn router(hub: Arc<Hub>) -> Router {
    Router::new()
        .route("/", get(crate::assets::index))
        .route("/t/{id}", get(crate::assets::index))
        .route("/t/{id}/rules", get(crate::assets::index))
        .route("/t/{id}/history", get(crate::assets::index))
        .route("/t/{id}/replay", get(crate::assets::index))
        .route("/rules/{id}", get(crate::assets::index))
        .route("/score/new", get(crate::assets::index))
        .route("/duplicate/new", get(crate::assets::index))
        .route("/duplicate/{id}", get(crate::assets::index))
        .route("/score/{id}", get(crate::assets::index))
        .route("/score/{id}/view", get(crate::assets::index))
        .route("/assets/{*path}", get(crate::assets::asset))
        .route("/api/presets", get(presets))
        .route("/api/presets/{id}/sheet", get(sheets::preset))
        .route("/api/bots", get(bots::list))
        .route("/api/tables", get(list).post(create))
        .route("/api/tables/{id}", get(one))
        .route("/api/tables/{id}/join", post(join))
        .route("/api/tables/{id}/bot", post(bot))
        .route("/api/tables/{id}/start", post(start))
        .route("/api/tables/{id}/rematch", post(rematch::rematch))
        .route("/api/tables/{id}/record", get(records::record))
        .route("/api/tables/{id}/replay", get(records::replay))
        .route("/api/tables/{id}/sheet", get(sheets::table))
        .route("/api/tables/{id}/profile", post(profiles::keep_seat))
        .route("/profile", get(crate::assets::index))
        .route("/profile/move", get(crate::assets::index))
        .route("/ranking", get(crate::assets::index))
        .route("/api/profiles", post(profiles::create))
        .route("/api/profiles/me", get(profiles::me).post(profiles::rename))
        .route("/api/profiles/{id}/stats", get(profiles::stats))
        .route("/api/ranking", get(profiles::ranking))
        .route("/api/qr", post(profiles::qr))
        .route("/api/series", post(duplicate::create))
        .route("/api/series/{id}", get(duplicate::read))
        .route("/api/series/{id}/records", get(duplicate::records))
        .route("/api/scoresheets", post(scoresheets::create))
        .route("/api/scoresheets/{id}", get(scoresheets::read))
        .route("/api/scoresheets/{id}/deals", post(scoresheets::add_deal))
        .route(
            "/api/tables/{id}/analysis",
            get(crate::analysis::get).post(crate::analysis::post),
        )
        .route("/api/scoresheets/{id}/undo", post(scoresheets::undo))
        .route("/api/scoresheets/{id}/events", get(scoresheets::events))
        .route("/api/scoresheets/{id}/sheet", get(scoresheets::sheet))
        .route("/api/i18n/{lang}", get(i18n))
        .route("/api/time", get(time))
        .route("/healthz", get(health::healthz))
        .route("/readyz", get(health::readyz))
        .route("/ws/{id}", get(crate::ws::upgrade))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&hub),
            private::admit,
        ))
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&hub),
            guard::guard,
        ))
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&hub),
            crate::cluster::route,
        ))
        .with_state(hub)
}

async fn not_found(uri: axum::http::Uri) -> Refusal {
    Refusal::new(
        RefusalKind::NotFound,
        Why::NoPage {
            path: shown(uri.path()),
        },
    )
}

/// A request body: a JSON object sent as `Content-Type: application/json` (else 415), at most
/// [`MAX_BODY`] bytes (else 413).
pub(crate) struct JsonBody(pub(crate) Value);

impl<S: Send + Sync> FromRequest<S> for JsonBody {
    type Rejection = Refusal;

    async fn from_request(request: Request, state: &S) -> Result<JsonBody, Refusal> {
        let kind = request
            .headers()
            .get(header::CONTENT_TYPE)
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
        let json = kind.as_deref().is_some_and(|k| {
            k.split(';')
                .next()
                .is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"))
        });
        if !json {
            let sent = kind.map_or_else(
                || "none".to_owned(),
                |k| format!("{:?}", k.chars().take(60).collect::<String>()),
            );
            return Err(Refusal::new(
                RefusalKind::NotJson,
                Why::NotJsonBody { sent },
            ));
        }
        let bytes = Bytes::from_request(request, state)
            .await
            .map_err(|rejection| {
                if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                    Refusal::new(
                        RefusalKind::TooLarge,
                        Why::BodyTooLarge {
                            kib: (MAX_BODY / 1024).to_string(),
                        },
                    )
                } else {
                    Refusal::bad(Why::BodyUnreadable {
                        detail: rejection.body_text(),
                    })
                }
            })?;
        let value: Value = serde_json::from_slice(&bytes).map_err(|e| {
            Refusal::bad(Why::BodyNotJson {
                detail: e.to_string(),
            })
        })?;
        if !value.is_object() {
            return Err(Refusal::bad(Why::BodyNotObject));
        }
        Ok(JsonBody(value))
    }
}

/// What creating a table or a score sheet starts with: the peer's creation allowance, then the
/// body's `ruleset` (a preset id, house rules, or by default `mini-misere-4`) as given.
pub(super) fn creation_ruleset(
    hub: &Hub,
    peer: SocketAddr,
    body: &Value,
) -> Result<Value, Refusal> {
    if !hub.may_create(crate::hub::client_address(peer.ip())) {
        return Err(Refusal::new(RefusalKind::TooMany, Why::TooManyCreates));
    }
    Ok(body
        .get("ruleset")
        .cloned()
        .unwrap_or_else(|| json!("mini-misere-4")))
}

fn field_str<'a>(body: &'a Value, name: &str) -> Result<&'a str, Refusal> {
    body.get(name).and_then(Value::as_str).ok_or_else(|| {
        Refusal::bad(Why::FieldNeeded {
            field: name.to_owned(),
        })
    })
}

fn field_seat(body: &Value) -> Result<usize, Refusal> {
    body.get("seat")
        .and_then(Value::as_u64)
        .and_then(|s| usize::try_from(s).ok())
        .ok_or_else(|| Refusal::bad(Why::SeatNeeded))
}

/// The largest table seed a request may name: 2^53 - 1, the largest integer a JavaScript
/// number holds exactly.
const MAX_SEED: u64 = (1 << 53) - 1;

/// The optional `"seed"` of a new table: absent or `null` for a random one.
fn field_seed(body: &Value) -> Result<Option<u64>, Refusal> {
    match body.get("seed") {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .filter(|s| *s <= MAX_SEED)
            .map(Some)
            .ok_or_else(|| {
                Refusal::bad(Why::SeedRange {
                    max: MAX_SEED.to_string(),
                    value: shown(&v.to_string()),
                })
            }),
    }
}

async fn presets() -> Response {
    let [en, ja] = torite_i18n::Lang::ALL.map(torite_i18n::Catalog::new);
    let list: Vec<Value> = Preset::ALL
        .iter()
        .map(|p| {
            let rules = p.ruleset();
            let options: serde_json::Map<String, Value> = rules
                .options()
                .into_iter()
                .map(|(k, v)| (k.to_owned(), v))
                .collect();
            let labels: serde_json::Map<String, Value> = options
                .keys()
                .map(|k| {
                    let label = json!({"en": en.option_label(k), "ja": ja.option_label(k)});
                    (k.clone(), label)
                })
                .collect();
            json!({
                "id": p.id(),
                "players": rules.players,
                "name_en": en.preset_name(*p),
                "name_ja": ja.preset_name(*p),
                "options": options,
                "labels": labels,
            })
        })
        .collect();
    axum::Json(list).into_response()
}

async fn list(State(hub): State<Arc<Hub>>) -> Response {
    axum::Json(hub.lobby().await).into_response()
}

async fn one(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> Response {
    if let Some(t) = hub.table(&id).await {
        return axum::Json(t.states.borrow().summary.clone()).into_response();
    }
    match hub.store().record(&id).await {
        Ok(Some(_)) => {
            let over = Refusal::new(RefusalKind::NotFound, Why::TableOver { id: id.clone() });
            let mut body = over.body();
            body["record"] = json!(format!("/api/tables/{id}/record"));
            (StatusCode::NOT_FOUND, axum::Json(body)).into_response()
        }
        _ => Refusal::no_table(&id).into_response(),
    }
}

async fn create(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    JsonBody(body): JsonBody,
) -> Result<Response, Refusal> {
    let ruleset = creation_ruleset(&hub, peer, &body)?;
    let name = field_str(&body, "name")?;
    let seat = match body.get("seat") {
        None => 0,
        Some(_) => field_seat(&body)?,
    };
    let timer = match body.get("timer") {
        None | Some(Value::Null) => None,
        Some(v) => Some(
            v.as_u64()
                .and_then(|t| u32::try_from(t).ok())
                .ok_or_else(|| Refusal::bad(Why::TimerNotNumber))?,
        ),
    };
    let seed = field_seed(&body)?;
    let private = match body.get("private") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(private)) => *private,
        Some(_) => return Err(Refusal::bad(Why::PrivateNotBool)),
    };
    let key = private.then(crate::actor::new_token);
    let fill = match body.get("fill") {
        None | Some(Value::Null) => None,
        Some(v) => Some(
            v.as_str()
                .ok_or_else(|| Refusal::bad(Why::FillNotBot))
                .and_then(crate::table::parse_bot)?,
        ),
    };
    let (id, token) = hub
        .create(
            &ruleset,
            name,
            seat,
            timer,
            seed,
            Some(crate::hub::client_address(peer.ip())),
            key.as_deref().map(crate::table::token_hash),
        )
        .await?;
    let table = hub
        .table(&id)
        .await
        .ok_or_else(|| Refusal::bad(Why::TableVanished))?;
    if let Some(bot) = fill {
        let n = table.states.borrow().seats.len();
        for s in (0..n).filter(|s| *s != seat) {
            ask(&table.tx, |reply| Cmd::Bot {
                token: token.clone(),
                seat: s,
                bot,
                reply,
            })
            .await?;
        }
        if body.get("start").and_then(Value::as_bool) == Some(true) {
            ask(&table.tx, |reply| Cmd::Start {
                token: token.clone(),
                reply,
            })
            .await?;
        }
    }
    let mut answer = json!({"id": id, "seat": seat, "token": token});
    if let Some(key) = key {
        answer["key"] = json!(key);
        answer["invite"] = json!(format!("/t/{id}?key={key}"));
    }
    Ok((StatusCode::CREATED, axum::Json(answer)).into_response())
}

async fn table_of(hub: &Hub, id: &str) -> Result<crate::actor::TableHandle, Refusal> {
    hub.table(id).await.ok_or_else(|| Refusal::no_table(id))
}

async fn join(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    JsonBody(body): JsonBody,
) -> Result<Response, Refusal> {
    let table = table_of(&hub, &id).await?;
    let seat = field_seat(&body)?;
    let name = crate::table::check_name(field_str(&body, "name")?)?;
    let token = ask(&table.tx, |reply| Cmd::Join { seat, name, reply }).await?;
    Ok(axum::Json(json!({"token": token, "seat": seat})).into_response())
}

async fn bot(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    JsonBody(body): JsonBody,
) -> Result<Response, Refusal> {
    let table = table_of(&hub, &id).await?;
    let seat = field_seat(&body)?;
    let bot = body
        .get("bot")
        .and_then(Value::as_str)
        .map_or(Ok(torite_bots::BotSpec::STRONGEST), crate::table::parse_bot)?;
    let token = field_str(&body, "token")?.to_owned();
    ask(&table.tx, |reply| Cmd::Bot {
        token,
        seat,
        bot,
        reply,
    })
    .await?;
    Ok(axum::Json(json!({})).into_response())
}

async fn start(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    JsonBody(body): JsonBody,
) -> Result<Response, Refusal> {
    let table = table_of(&hub, &id).await?;
    let token = field_str(&body, "token")?.to_owned();
    ask(&table.tx, |reply| Cmd::Start { token, reply }).await?;
    Ok(axum::Json(json!({})).into_response())
}

/// The server's clock, so that a browser can count down a move timer's `deadline`.
async fn time() -> Response {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    (
        [(header::CACHE_CONTROL, "no-store")],
        axum::Json(json!({ "now": now })),
    )
        .into_response()
}

async fn i18n(Path(lang): Path<String>) -> Response {
    let lang = lang.trim_end_matches(".ftl");
    let text = match lang {
        "en" => torite_i18n::EN_FTL,
        "ja" => torite_i18n::JA_FTL,
        _ => {
            return Refusal::new(
                RefusalKind::NotFound,
                Why::UnknownLang { value: shown(lang) },
            )
            .into_response();
        }
    };
    ([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response()
}
