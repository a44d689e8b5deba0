//! The browser client, embedded at build time from `web/dist` (see `build.rs`).

use axum::extract::Path;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::refusal::{Refusal, RefusalKind, Why, shown};

include!(concat!(env!("OUT_DIR"), "/assets.rs"));

/// The embedded file at `path` (relative to `web/dist`).
#[must_use]
pub fn file(path: &str) -> Option<&'static [u8]> {
    FILES.iter().find(|(p, _)| *p == path).map(|(_, b)| *b)
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("ico") => "image/x-icon",
        Some("json" | "webmanifest") => "application/json",
        Some("woff2") => "font/woff2",
        _ => "application/octet-stream",
    }
}

/// The client's page (the lobby and `/t/{id}` alike).
pub(crate) async fn index() -> Response {
    match file("index.html") {
        Some(bytes) => (
            [
                (header::CONTENT_TYPE, "text/html; charset=utf-8"),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            bytes,
        )
            .into_response(),
        None => (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            "torite server: the browser client was not built into this binary (web/dist is \
             missing). The API is at /api/.\n",
        )
            .into_response(),
    }
}

/// A built asset (`/assets/...`); hashed file names, so they may be cached for long.
pub(crate) async fn asset(Path(path): Path<String>) -> Response {
    let path = format!("assets/{path}");
    match file(&path) {
        Some(bytes) => (
            [
                (header::CONTENT_TYPE, content_type(&path)),
                (header::CACHE_CONTROL, "public, max-age=31536000, immutable"),
            ],
            bytes,
        )
            .into_response(),
        None => {
            Refusal::new(RefusalKind::NotFound, Why::NoAsset { path: shown(&path) }).into_response()
        }
    }
}
