//! A finished game's record and its replay (`GET /api/tables/{id}/record`, `.../replay`): from
//! the live table, or from the store once the table has been let go.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde_json::Value;

use crate::actor::Cmd;
use crate::ask::ask_plain;
use crate::hub::Hub;
use crate::refusal::{Refusal, RefusalKind, Why};

/// The record kept in the store for a table that is no longer live.
pub(crate) async fn kept_record(hub: &Hub, id: &str) -> Result<Value, Refusal> {
    let text = hub
        .store()
        .record(id)
        .await
        .map_err(|e| {
            Refusal::new(
                RefusalKind::Storage,
                Why::Storage {
                    detail: e.to_string(),
                },
            )
        })?
        .ok_or_else(|| Refusal::no_table(id))?;
    serde_json::from_str(&text).map_err(|e| {
        Refusal::new(
            RefusalKind::Broken,
            Why::KeptRecordBroken {
                id: id.to_owned(),
                detail: e.to_string(),
            },
        )
    })
}

/// A finished game's record (`GET /api/tables/{id}/record`'s answer): from the live table, or kept in the store once the table has
/// been let go. The record of a game still being played is refused to everyone: it would
/// show hands (a deal ended early by a failed Lot leaves cards unplayed).
pub(crate) async fn finished_record(hub: &Hub, id: &str) -> Result<Value, Refusal> {
    let Some(table) = hub.table(id).await else {
        return kept_record(hub, id).await;
    };
    if table.states.borrow().summary.status != "finished" {
        return Err(Refusal::conflict(Why::RecordNotYet { id: id.to_owned() }));
    }
    ask_plain(&table.tx, |reply| Cmd::Record { reply })
        .await
        .ok_or_else(|| Refusal::new(RefusalKind::Busy, Why::TableBusy))
}

/// `GET /api/tables/{id}/record`.
pub(crate) async fn record(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
) -> Result<Response, Refusal> {
    let record = finished_record(&hub, &id).await?;
    let mut response = axum::Json(record).into_response();
    response.headers_mut().insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_str(&format!("inline; filename=\"torite-{id}.json\""))
            .unwrap_or(HeaderValue::from_static("inline")),
    );
    Ok(response)
}

/// `GET /api/tables/{id}/replay`.
pub(crate) async fn replay(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
) -> Result<Response, Refusal> {
    let record = finished_record(&hub, &id).await?;
    let replay = tokio::task::spawn_blocking(move || super::replay::replay(&id, &record))
        .await
        .map_err(|_| Refusal::new(RefusalKind::Busy, Why::ServerBusy))??;
    Ok(axum::Json(replay).into_response())
}
