//! What every request and answer goes through: the `Origin` check, the security headers,
//! JSON error bodies whatever produced the error, and the access log.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;

use axum::body::Body;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::hub::{Hub, normal_origin};
use crate::refusal::{Refusal, RefusalKind, Why, shown};

/// The browser client's Content-Security-Policy, for every answer that sets none of its own.
pub const APP_CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; font-src 'self' data:; connect-src 'self'; object-src 'none'; \
     base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The policy of the printable HTML sheets: self-contained pages with an inline `<style>`
/// and `style` attributes, and nothing else.
pub const SHEET_CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; \
     font-src data:; object-src 'none'; base-uri 'none'; form-action 'none'; \
     frame-ancestors 'none'";

/// The most of an error body read to turn it into one JSON line.
const ERROR_BODY: usize = 4096;

/// Whether a request's `Origin` (in normal form) is the server's own: its `host:port` is the
/// request's `Host`, the port defaulting to the origin scheme's.
fn same_origin(origin: &str, host: Option<&str>) -> bool {
    let Some(host) = host else {
        return false;
    };
    let Some((scheme, authority)) = origin.split_once("://") else {
        return false;
    };
    let Ok(host) = host.parse::<axum::http::uri::Authority>() else {
        return false;
    };
    let default_port = if scheme == "https" { 443 } else { 80 };
    let port = host.port_u16().unwrap_or(default_port);
    authority == format!("{}:{port}", host.host().to_ascii_lowercase())
}

/// Checks the request's `Origin` header: none, the server's own or an allowed one passes.
fn check_origin(headers: &HeaderMap, allowed: &[String]) -> Result<(), Refusal> {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return Ok(());
    };
    let text = String::from_utf8_lossy(origin.as_bytes());
    let refused = || {
        Refusal::forbidden(Why::OriginRefused {
            origin: shown(&text),
        })
    };
    let normal = normal_origin(&text).map_err(|_| refused())?;
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    if same_origin(&normal, host) || allowed.contains(&normal) {
        Ok(())
    } else {
        Err(refused())
    }
}

fn set_default(headers: &mut HeaderMap, name: header::HeaderName, value: &'static str) {
    if !headers.contains_key(&name) {
        headers.insert(name, HeaderValue::from_static(value));
    }
}

/// An error answer whose body is not JSON becomes a refusal's body (`{"error", "code",
/// "args"}`) with its first line (or, for an empty body, what the status means for this
/// request), keeping its other headers and its status.
async fn json_error(response: Response, method: &Method, path: &str) -> Response {
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    let status = response.status();
    if is_json || !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, ERROR_BODY)
        .await
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default();
    let line = text.lines().map(str::trim).find(|l| !l.is_empty());
    let path = shown(path);
    let why = match (line, status) {
        (Some(line), s) => Why::Request {
            status: s.as_u16().to_string(),
            detail: shown(line),
        },
        (None, StatusCode::METHOD_NOT_ALLOWED) => Why::MethodNotAllowed {
            path,
            method: method.to_string(),
        },
        (None, StatusCode::NOT_FOUND) => Why::NoPage { path },
        (None, s) => Why::Request {
            status: s.as_u16().to_string(),
            detail: s.canonical_reason().unwrap_or("error").to_owned(),
        },
    };
    let refusal = Refusal::new(RefusalKind::of_status(status.as_u16()), why);
    let body = refusal.body().to_string();
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    Response::from_parts(parts, Body::from(body))
}

/// The middleware of every route: refuses a foreign `Origin`, makes error bodies JSON, adds
/// the security headers and logs the request (its path without the query string, where
/// tokens travel).
pub(crate) async fn guard(State(hub): State<Arc<Hub>>, request: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = request.method().clone();
    let path = request.uri().path().to_owned();
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip());
    let response = match check_origin(request.headers(), &hub.config().allowed_origins) {
        Ok(()) => next.run(request).await,
        Err(refusal) => refusal.into_response(),
    };
    let mut response = json_error(response, &method, &path).await;
    let headers = response.headers_mut();
    set_default(headers, header::CONTENT_SECURITY_POLICY, APP_CSP);
    set_default(headers, header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    set_default(headers, header::X_FRAME_OPTIONS, "DENY");
    set_default(headers, header::REFERRER_POLICY, "no-referrer");
    let status = response.status().as_u16();
    let ms = (started.elapsed().as_secs_f64() * 100_000.0).round() / 100.0;
    let peer = peer.map_or_else(|| "-".to_owned(), |p| p.to_string());
    if status >= 500 {
        tracing::warn!(target: "torite_server::access", %method, %path, status, ms, %peer, "request");
    } else {
        tracing::info!(target: "torite_server::access", %method, %path, status, ms, %peer, "request");
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_origin_compares_host_and_port() {
        assert!(same_origin("http://127.0.0.1:8080", Some("127.0.0.1:8080")));
        assert!(same_origin(
            "https://torite.example:443",
            Some("torite.example")
        ));
        assert!(same_origin(
            "http://torite.example:80",
            Some("Torite.Example")
        ));
        assert!(!same_origin(
            "http://evil.example:80",
            Some("torite.example")
        ));
        assert!(!same_origin(
            "http://127.0.0.1:8081",
            Some("127.0.0.1:8080")
        ));
        assert!(!same_origin("http://127.0.0.1:8080", None));
    }
}
