//! Health checks for a supervisor or a load balancer: `GET /healthz` (the process answers)
//! and `GET /readyz` (it can serve: the database answers and holds every table of the schema,
//! and the server is not shutting down).

use std::sync::Arc;

use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::hub::Hub;

/// An answer that no cache keeps.
fn answer(status: StatusCode, body: serde_json::Value) -> Response {
    (
        status,
        [(header::CACHE_CONTROL, "no-store")],
        axum::Json(body),
    )
        .into_response()
}

/// `GET /healthz`: 200 while the process answers at all.
pub(crate) async fn healthz() -> Response {
    answer(StatusCode::OK, json!({"status": "ok"}))
}

/// `GET /readyz`: 200 when the database answers and its tables are there; 503 with the reason
/// when it does not, or once the server has begun to shut down.
pub(crate) async fn readyz(State(hub): State<Arc<Hub>>) -> Response {
    if hub.is_closing() {
        return answer(
            StatusCode::SERVICE_UNAVAILABLE,
            json!({"status": "shutting down"}),
        );
    }
    match hub.store().ready().await {
        Ok(()) => answer(StatusCode::OK, json!({"status": "ready"})),
        Err(e) => answer(
            StatusCode::SERVICE_UNAVAILABLE,
            json!({"status": "not ready", "reason": e.to_string()}),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{BoxFuture, Store, StoreError, StoredTable};

    /// A store that holds no table and answers readiness as it is told.
    struct Reachable(bool);

    impl Store for Reachable {
        fn create_table<'a>(
            &'a self,
            _: &'a str,
            _: i64,
            _: &'a str,
        ) -> BoxFuture<'a, Result<(), StoreError>> {
            Box::pin(async { Err(StoreError("read only".into())) })
        }
        fn append<'a>(
            &'a self,
            _: &'a str,
            _: i64,
            _: &'a str,
        ) -> BoxFuture<'a, Result<(), StoreError>> {
            Box::pin(async { Err(StoreError("read only".into())) })
        }
        fn load_all(&self) -> BoxFuture<'_, Result<Vec<StoredTable>, StoreError>> {
            Box::pin(async { Ok(Vec::new()) })
        }
        fn save_record<'a>(
            &'a self,
            _: &'a str,
            _: &'a str,
        ) -> BoxFuture<'a, Result<(), StoreError>> {
            Box::pin(async { Err(StoreError("read only".into())) })
        }
        fn record<'a>(&'a self, _: &'a str) -> BoxFuture<'a, Result<Option<String>, StoreError>> {
            Box::pin(async { Ok(None) })
        }
        fn ready(&self) -> BoxFuture<'_, Result<(), StoreError>> {
            let up = self.0;
            Box::pin(async move {
                if up {
                    Ok(())
                } else {
                    Err(StoreError("torite_events: no such table".into()))
                }
            })
        }
    }

    async fn body(response: Response) -> (StatusCode, serde_json::Value) {
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), 4096)
            .await
            .unwrap();
        (status, serde_json::from_slice(&bytes).unwrap())
    }

    #[tokio::test]
    async fn ready_while_the_store_is_and_not_once_closing() {
        let hub = Hub::load(Arc::new(Reachable(true)), crate::Config::default())
            .await
            .unwrap();
        assert_eq!(body(healthz().await).await.0, StatusCode::OK);
        let (status, json) = body(readyz(State(Arc::clone(&hub))).await).await;
        assert_eq!((status, json), (StatusCode::OK, json!({"status": "ready"})));
        hub.begin_close();
        let (status, json) = body(readyz(State(Arc::clone(&hub))).await).await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(json["status"], "shutting down");
        assert_eq!(body(healthz().await).await.0, StatusCode::OK);
    }

    #[tokio::test]
    async fn not_ready_when_the_store_fails_with_the_reason() {
        let hub = Hub::load(Arc::new(Reachable(false)), crate::Config::default())
            .await
            .unwrap();
        let (status, json) = body(readyz(State(hub)).await).await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(
            json,
            json!({"status": "not ready", "reason": "storage failed: torite_events: no such table"})
        );
    }
}
