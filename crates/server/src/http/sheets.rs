//! Printable sheets (`torite-sheets`) of a preset's or a table's ruleset: the one-page rules,
//! the score cards and the blank score sheet, as HTML with print CSS or as PDF.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use axum::body::Bytes;

use axum::extract::{Path, Query, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use tokio::sync::Semaphore;
use torite_core::{Preset, Ruleset};
use torite_i18n::Lang;
use torite_sheets::{Format, Kind, Sheet};

use crate::hub::Hub;
use crate::refusal::{Refusal, RefusalKind, Why, shown};

/// Sheets rendered at once (PDFs are CPU work on the blocking pool); more requests wait.
pub(super) static RENDERING: Semaphore = Semaphore::const_new(2);

/// The most sheets kept once rendered (a sheet is 10–45 KB).
const CACHE_SIZE: usize = 256;

type Key = (String, Kind, Lang, Format);

/// Sheets already rendered, by canonical ruleset, kind, language and format.
static CACHE: Mutex<Option<HashMap<Key, Bytes>>> = Mutex::new(None);

/// What a sheet request asks for.
#[derive(Clone, Copy, Debug)]
struct Ask {
    kind: Kind,
    lang: Lang,
    format: Format,
}

/// Reads `kind` (default `rules`), `lang` (default `en`) and `format` (default `html`);
/// anything else is refused.
fn ask_of(query: &HashMap<String, String>) -> Result<Ask, Refusal> {
    if let Some(other) = query
        .keys()
        .find(|k| !matches!(k.as_str(), "kind" | "lang" | "format"))
    {
        return Err(Refusal::bad(Why::UnknownParameter { name: shown(other) }));
    }
    let kind = match query.get("kind") {
        None => Kind::Rules,
        Some(k) => k
            .parse::<Kind>()
            .map_err(|_| Refusal::bad(Why::BadSheetKind { value: shown(k) }))?,
    };
    let lang = match query.get("lang").map(String::as_str) {
        None => Lang::En,
        Some("en") => Lang::En,
        Some("ja") => Lang::Ja,
        Some(other) => {
            return Err(Refusal::bad(Why::UnknownLang {
                value: shown(other),
            }));
        }
    };
    let format = match query.get("format") {
        None => Format::Html,
        Some(f) => f
            .parse::<Format>()
            .map_err(|_| Refusal::bad(Why::BadSheetFormat { value: shown(f) }))?,
    };
    Ok(Ask { kind, lang, format })
}

/// `GET /api/presets/{id}/sheet`; with `kind=compare` the id may also name a game's family
/// (`mini-misere`).
pub(crate) async fn preset(
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Response, Refusal> {
    let ask = ask_of(&query)?;
    // A compare sheet may name a game's family (`mini-misere`) instead of one preset.
    let found = match ask.kind {
        Kind::Compare => torite_sheets::family_preset(&id),
        _ => Preset::from_id(&id),
    };
    let preset = found
        .ok_or_else(|| Refusal::new(RefusalKind::NotFound, Why::NoPreset { id: shown(&id) }))?;
    respond(preset.ruleset(), ask, preset.id()).await
}

/// `GET /api/tables/{id}/sheet`: the table's own ruleset, house rules included; a finished
/// table no longer live is answered from its kept record.
pub(crate) async fn table(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Response, Refusal> {
    let ask = ask_of(&query)?;
    let ruleset = match hub.table(&id).await {
        Some(t) => t.states.borrow().summary.ruleset.clone(),
        None => super::records::kept_record(&hub, &id)
            .await?
            .get("ruleset")
            .cloned()
            .ok_or_else(|| {
                Refusal::new(
                    RefusalKind::Broken,
                    Why::KeptRecordNoRuleset { id: id.clone() },
                )
            })?,
    };
    let rules = Ruleset::from_json(&ruleset).map_err(|e| {
        Refusal::new(
            RefusalKind::Broken,
            Why::TableRulesetBroken {
                id: id.clone(),
                detail: e.to_string(),
            },
        )
    })?;
    respond(rules, ask, &format!("{}-{id}", rules.id())).await
}

/// Renders (or finds already rendered) the sheet and answers with it.
async fn respond(rules: Ruleset, ask: Ask, name: &str) -> Result<Response, Refusal> {
    let key: Key = (rules.to_json().to_string(), ask.kind, ask.lang, ask.format);
    let cached = CACHE
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .as_ref()
        .and_then(|c| c.get(&key).cloned());
    let bytes = match cached {
        Some(bytes) => bytes,
        None => {
            let busy = || Refusal::new(RefusalKind::Busy, Why::ServerBusy);
            let _permit = RENDERING.acquire().await.map_err(|_| busy())?;
            let rendered = tokio::task::spawn_blocking(move || {
                Sheet::new(&rules, ask.kind, ask.lang).render(ask.format)
            })
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
            let bytes = Bytes::from(rendered);
            let mut cache = CACHE.lock().unwrap_or_else(PoisonError::into_inner);
            let cache = cache.get_or_insert_with(HashMap::new);
            if cache.len() >= CACHE_SIZE {
                cache.clear();
            }
            cache.insert(key, bytes.clone());
            bytes
        }
    };
    let file = format!(
        "torite-{name}-{}-{}.{}",
        ask.kind,
        ask.lang.code(),
        ask.format.as_str()
    );
    let disposition = match ask.format {
        Format::Pdf => format!("attachment; filename=\"{file}\""),
        Format::Html => format!("inline; filename=\"{file}\""),
    };
    let mut response = (
        [
            (header::CONTENT_TYPE, ask.format.mime()),
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        bytes,
    )
        .into_response();
    response.headers_mut().insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_str(&disposition).unwrap_or(HeaderValue::from_static("inline")),
    );
    if ask.format == Format::Html {
        // Self-contained pages with an inline `<style>`: their own, stricter policy.
        response.headers_mut().insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(super::guard::SHEET_CSP),
        );
    }
    Ok(response)
}
