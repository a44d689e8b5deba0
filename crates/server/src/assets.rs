//! The browser client, embedded at build time from `web/dist` (see `build.rs`).

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::hub::Hub;
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

/// The client's page with the server's public address in a
/// `<meta name="torite-public-url">` at the start of its `<head>`, when it has one.
fn with_public_url(page: &'static [u8], url: Option<&str>) -> std::borrow::Cow<'static, [u8]> {
    let page_text = String::from_utf8_lossy(page);
    match (url, page_text.find("<head>")) {
        (Some(url), Some(at)) => {
            let escaped = url
                .replace('&', "&amp;")
                .replace('"', "&quot;")
                .replace('<', "&lt;")
                .replace('>', "&gt;");
            let at = at + "<head>".len();
            let page = format!(
                "{}\n    <meta name=\"torite-public-url\" content=\"{escaped}\" />{}",
                &page_text[..at],
                &page_text[at..]
            );
            std::borrow::Cow::Owned(page.into_bytes())
        }
        _ => std::borrow::Cow::Borrowed(page),
    }
}

/// The client's page (the lobby and `/t/{id}` alike).
pub(crate) async fn index(State(hub): State<Arc<Hub>>) -> Response {
    match file("index.html") {
        Some(bytes) => (
            [
                (header::CONTENT_TYPE, "text/html; charset=utf-8"),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            with_public_url(bytes, hub.config().public_url.as_deref()),
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

#[cfg(test)]
mod tests {
    use super::with_public_url;

    #[test]
    fn the_page_names_the_public_address_only_when_there_is_one() {
        let page = b"<html>\n  <head>\n    <title>t</title>\n  </head>\n</html>\n";
        assert_eq!(&*with_public_url(page, None), page);
        let told = String::from_utf8(with_public_url(page, Some("https://t.example")).into_owned())
            .unwrap();
        assert_eq!(
            told,
            "<html>\n  <head>\n    <meta name=\"torite-public-url\" content=\"https://t.example\" />\n    \
             <title>t</title>\n  </head>\n</html>\n"
        );
    }
}
