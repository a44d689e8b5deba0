//! Private tables: a table created with `"private": true` is never listed, and every request
//! about it (`/api/tables/{id}` and everything under it, `/ws/{id}`) must show its invite
//! secret as `?key=`, or a token of the table (a seat's, the host's, or a seat given to a
//! bot) as `?token=`. Any other request is answered as for a table that does not exist, so
//! that nobody without the secret learns that the table is there. The secret's hash is in the
//! table's `created` event, so this holds after a restart and once the table has been let go
//! (its record kept).

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{Query, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::actor::Cmd;
use crate::ask::ask_plain;
use crate::hub::Hub;
use crate::refusal::{Refusal, RefusalKind, Why};
use crate::table::{Event, token_hash};

/// The table a path is about, if it is one of a table's: `/api/tables/{id}`,
/// `/api/tables/{id}/...` or `/ws/{id}`.
fn table_of(path: &str) -> Option<&str> {
    let rest = path
        .strip_prefix("/api/tables/")
        .or_else(|| path.strip_prefix("/ws/"))?;
    let id = rest.split('/').next().unwrap_or_default();
    (!id.is_empty()).then_some(id)
}

/// The hash of the table's invite secret: from the live table, else from its stored log;
/// `None` for a public table or one that does not exist.
async fn invite_of(hub: &Hub, id: &str) -> Result<Option<Arc<str>>, Refusal> {
    if let Some(table) = hub.table(id).await {
        return Ok(table.invite.clone());
    }
    let storage = |detail: String| Refusal::new(RefusalKind::Storage, Why::Storage { detail });
    let Some(first) = hub
        .store()
        .first_event(id)
        .await
        .map_err(|e| storage(e.to_string()))?
    else {
        return Ok(None);
    };
    match serde_json::from_str::<Event>(&first) {
        Ok(Event::Created { invite, .. }) => Ok(invite.map(Arc::from)),
        // A log that does not read is not shown to anyone.
        Ok(_) | Err(_) => Err(Refusal::no_table(id)),
    }
}

/// Whether `token` is one of the live table's: a seat's, the host's, or a seat's given to a
/// bot (whose holder is then told so).
async fn holds_token(hub: &Hub, id: &str, token: &str) -> bool {
    let Some(table) = hub.table(id).await else {
        return false;
    };
    let token = token.to_owned();
    ask_plain(&table.tx, |reply| Cmd::Auth { token, reply })
        .await
        .is_some_and(|auth| auth.seat.is_some() || auth.host || auth.replaced.is_some())
}

/// The middleware: lets a request about a private table through only with its secret or one
/// of its tokens; any other is refused as about an unknown table.
pub(crate) async fn admit(State(hub): State<Arc<Hub>>, request: Request, next: Next) -> Response {
    let Some(id) = table_of(request.uri().path()).map(str::to_owned) else {
        return next.run(request).await;
    };
    let invite = match invite_of(&hub, &id).await {
        Ok(Some(invite)) => invite,
        Ok(None) => return next.run(request).await,
        Err(refusal) => return refusal.into_response(),
    };
    let query = Query::<HashMap<String, String>>::try_from_uri(request.uri())
        .map(|q| q.0)
        .unwrap_or_default();
    let by_key = query
        .get("key")
        .is_some_and(|key| token_hash(key) == *invite);
    let by_token = match query.get("token").filter(|t| !t.is_empty()) {
        Some(token) if !by_key => holds_token(&hub, &id, token).await,
        _ => false,
    };
    if by_key || by_token {
        next.run(request).await
    } else {
        Refusal::no_table(&id).into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::table_of;

    #[test]
    fn the_paths_of_a_table_name_it() {
        assert_eq!(table_of("/api/tables/abc"), Some("abc"));
        assert_eq!(table_of("/api/tables/abc/record"), Some("abc"));
        assert_eq!(table_of("/api/tables/abc/analysis"), Some("abc"));
        assert_eq!(table_of("/ws/abc"), Some("abc"));
        assert_eq!(table_of("/api/tables"), None);
        assert_eq!(table_of("/api/tables/"), None);
        assert_eq!(table_of("/api/scoresheets/abc"), None);
        assert_eq!(table_of("/t/abc"), None);
    }
}
