//! `POST /api/tables/{id}/rematch`: a person who played the finished game asks for its
//! rematch, or accepts the one another has asked for ([`Hub::rematch`]).

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use super::{JsonBody, field_str};
use crate::hub::Hub;
use crate::refusal::Refusal;

/// Answers the rematch's id and the asking person's seat there (their token stays the same).
pub(crate) async fn rematch(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    JsonBody(body): JsonBody,
) -> Result<Response, Refusal> {
    let token = field_str(&body, "token")?;
    let (next, seat) = hub.rematch(&id, token).await?;
    Ok(axum::Json(json!({"id": next, "seat": seat})).into_response())
}
