//! The server under hostile or careless clients: spectators filling a table, a host replacing
//! a person who is there, requests from other sites, answers' headers and error bodies, names
//! that hide or reorder text, and tables piling up.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use torite_server::Config;
use torite_server::client::{Answer, Session, raw, request};

mod common;
use common::{Server, get, post};

/// Sends a request with extra header lines (`Name: value\r\n` each) and a body as it is.
async fn send(addr: SocketAddr, method: &str, path: &str, headers: &str, body: &str) -> Answer {
    let close = if headers.contains("Connection:") {
        ""
    } else {
        "Connection: close\r\n"
    };
    let text = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\n{close}{headers}\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    raw(addr, text.as_bytes()).await.expect("an answer")
}

/// A table whose host (seat 0) is `Aki`; returns its id and the host's token.
async fn open_table(addr: SocketAddr) -> (String, String) {
    let (status, made) = post(addr, "/api/tables", json!({"name": "Aki"})).await;
    assert_eq!(status, 201, "{made}");
    (
        made["id"].as_str().unwrap().to_owned(),
        made["token"].as_str().unwrap().to_owned(),
    )
}

/// Ben takes seat 1 of table `id`; returns his token.
async fn join_as_ben(addr: SocketAddr, id: &str) -> String {
    let (status, joined) = post(
        addr,
        &format!("/api/tables/{id}/join"),
        json!({"seat": 1, "name": "Ben"}),
    )
    .await;
    assert_eq!(status, 200, "{joined}");
    joined["token"].as_str().unwrap().to_owned()
}

/// A WebSocket to `path` from the loopback address `local`, with an `Origin` if given.
async fn socket_from(
    local: Ipv4Addr,
    addr: SocketAddr,
    path: &str,
    origin: Option<&str>,
) -> Result<WebSocketStream<TcpStream>, String> {
    let socket = tokio::net::TcpSocket::new_v4().map_err(|e| e.to_string())?;
    socket
        .bind(SocketAddr::new(IpAddr::V4(local), 0))
        .map_err(|e| e.to_string())?;
    let stream = socket.connect(addr).await.map_err(|e| e.to_string())?;
    let mut request = format!("ws://{addr}{path}")
        .into_client_request()
        .map_err(|e| e.to_string())?;
    if let Some(origin) = origin {
        request
            .headers_mut()
            .insert("origin", origin.parse().map_err(|_| "a header value")?);
    }
    tokio_tungstenite::client_async(request, stream)
        .await
        .map(|(socket, _)| socket)
        .map_err(|e| e.to_string())
}

/// Spectators have their own caps, per address and per table; neither keeps out a seat's or
/// the host's token.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectators_cannot_lock_players_out() {
    let server = Server::start("sqlite::memory:", Config::instant());
    let addr = server.addr;
    let (id, host) = open_table(addr).await;
    let guest = join_as_ben(addr, &id).await;
    let path = format!("/ws/{id}");
    let mut held = Vec::new();
    // Eight from one address, then that address is refused; another still gets in.
    let one = Ipv4Addr::new(127, 0, 0, 1);
    for _ in 0..8 {
        held.push(socket_from(one, addr, &path, None).await.unwrap());
    }
    let refused = socket_from(one, addr, &path, None).await.unwrap_err();
    assert!(refused.contains("503"), "{refused}");
    // Fill the table's cap of 64 from seven more addresses.
    for a in 2..=8 {
        for _ in 0..8 {
            held.push(
                socket_from(Ipv4Addr::new(127, 0, 0, a), addr, &path, None)
                    .await
                    .unwrap(),
            );
        }
    }
    assert_eq!(held.len(), 64);
    let refused = socket_from(Ipv4Addr::new(127, 0, 0, 9), addr, &path, None)
        .await
        .unwrap_err();
    assert!(refused.contains("503"), "{refused}");
    let answer = send(
        addr,
        "GET",
        &path,
        "Upgrade: websocket\r\nConnection: close, Upgrade\r\nSec-WebSocket-Version: 13\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n",
        "",
    )
    .await;
    assert_eq!(answer.status, 503);
    assert!(
        answer.json()["error"]
            .as_str()
            .unwrap()
            .contains("spectators"),
        "{}",
        answer.body
    );
    // The seated guest and the host get in all the same, the host twice (two tabs).
    let seat = Session::connect(addr, &id, Some(&guest)).await.unwrap();
    assert_eq!(seat.welcome["seat"], 1);
    for _ in 0..2 {
        let host = Session::connect(addr, &id, Some(&host)).await.unwrap();
        assert_eq!(host.welcome["host"], true);
    }
    // A spectator's place is free again once one leaves.
    drop(held.pop());
    let mut again = None;
    for _ in 0..100 {
        match socket_from(Ipv4Addr::new(127, 0, 0, 9), addr, &path, None).await {
            Ok(s) => {
                again = Some(s);
                break;
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(20)).await,
        }
    }
    assert!(again.is_some(), "the freed place was not given back");
}

/// The host may give a person's seat to a bot only once that person has had no socket open
/// for `replace_after`; the summary says since when each person is absent; the replaced
/// token is then refused with a code the client can translate.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_a_player_absent_long_enough_is_replaced() {
    let config = Config {
        replace_after: Duration::from_millis(1500),
        ..Config::instant()
    };
    let server = Server::start("sqlite::memory:", config);
    let addr = server.addr;
    let (id, host) = open_table(addr).await;
    let guest = join_as_ben(addr, &id).await;
    let replace = json!({"seat": 1, "bot": "random", "token": host});
    let (_, table) = get(addr, &format!("/api/tables/{id}")).await;
    assert_eq!(table["replace_after_ms"], 1500);
    assert!(table["seats"][1]["absent_since"].is_u64(), "{table}");
    assert_eq!(table["seats"][2]["absent_since"], Value::Null);
    // Connected: refused.
    let ben = Session::connect(addr, &id, Some(&guest)).await.unwrap();
    let mut watcher = Session::connect(addr, &id, Some(&host)).await.unwrap();
    let state = watcher
        .until(|s| s["table"]["seats"][1]["connected"] == true)
        .await
        .unwrap();
    assert_eq!(state["table"]["seats"][1]["absent_since"], Value::Null);
    assert_eq!(state["table"]["replace_after_ms"], 1500);
    let (status, body) = post(addr, &format!("/api/tables/{id}/bot"), replace.clone()).await;
    assert_eq!(status, 409, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("connected"),
        "{body}"
    );
    // Just gone: refused, and the summary says since when.
    ben.close().await;
    let state = watcher
        .until(|s| s["table"]["seats"][1]["connected"] == false)
        .await
        .unwrap();
    let since = state["table"]["seats"][1]["absent_since"]
        .as_u64()
        .expect("absent since");
    let (status, body) = post(addr, &format!("/api/tables/{id}/bot"), replace.clone()).await;
    assert_eq!(status, 409, "{body}");
    assert!(body["error"].as_str().unwrap().contains("away"), "{body}");
    // Away long enough: replaced.
    let (_, now) = get(addr, "/api/time").await;
    let wait = (since + 1600).saturating_sub(now["now"].as_u64().unwrap());
    tokio::time::sleep(Duration::from_millis(wait)).await;
    let (status, body) = post(addr, &format!("/api/tables/{id}/bot"), replace).await;
    assert_eq!(status, 200, "{body}");
    let (_, table) = get(addr, &format!("/api/tables/{id}")).await;
    assert_eq!(table["seats"][1]["kind"], "bot");
    assert_eq!(table["seats"][1]["absent_since"], Value::Null);
    // The old token: 403 with the code.
    let answer = send(
        addr,
        "GET",
        &format!("/ws/{id}?token={guest}"),
        "Upgrade: websocket\r\nConnection: close, Upgrade\r\nSec-WebSocket-Version: 13\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n",
        "",
    )
    .await;
    assert_eq!(answer.status, 403, "{}", answer.body);
    let body = answer.json();
    assert_eq!(body["code"], "replaced", "{body}");
    assert_eq!(body["seat"], 1);
    assert!(body["error"].is_string());
    // The host, connected, cannot give away their own seat either.
    let (status, _) = post(
        addr,
        &format!("/api/tables/{id}/bot"),
        json!({"seat": 0, "bot": "random", "token": host}),
    )
    .await;
    assert_eq!(status, 409);
}

/// Pages of other sites can neither open sockets nor create tables; the server's own pages,
/// origins named in the configuration and clients without `Origin` can. Bodies must be JSON.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn other_sites_are_refused() {
    let mut config = Config::instant();
    config.allow_origin("https://Torite.Example/").unwrap();
    assert!(config.allow_origin("ftp://x").is_err());
    let server = Server::start("sqlite::memory:", config);
    let addr = server.addr;
    let (id, _) = open_table(addr).await;
    let body = r#"{"name": "Eve"}"#;
    let json_type = "Content-Type: application/json\r\n";
    for origin in [
        "http://evil.example",
        "null",
        "http://127.0.0.1:1",
        "https://torite.example:8443",
    ] {
        let a = send(
            addr,
            "POST",
            "/api/tables",
            &format!("Origin: {origin}\r\n{json_type}"),
            body,
        )
        .await;
        assert_eq!(a.status, 403, "{origin}: {}", a.body);
        assert!(
            a.json()["error"].as_str().unwrap().contains(origin),
            "{origin}: {}",
            a.body
        );
        let refused = socket_from(
            Ipv4Addr::LOCALHOST,
            addr,
            &format!("/ws/{id}"),
            Some(origin),
        )
        .await
        .unwrap_err();
        assert!(refused.contains("403"), "{origin}: {refused}");
    }
    for origin in [
        format!("http://{addr}"),
        "https://torite.example".to_owned(),
    ] {
        let a = send(
            addr,
            "POST",
            "/api/tables",
            &format!("Origin: {origin}\r\n{json_type}"),
            body,
        )
        .await;
        assert_eq!(a.status, 201, "{origin}: {}", a.body);
        socket_from(
            Ipv4Addr::LOCALHOST,
            addr,
            &format!("/ws/{id}"),
            Some(&origin),
        )
        .await
        .unwrap();
    }
    // A cross-site form or text/plain request: refused whatever its origin.
    for headers in [
        "Content-Type: text/plain\r\n",
        "Content-Type: application/x-www-form-urlencoded\r\n",
        "",
    ] {
        let a = send(addr, "POST", "/api/tables", headers, body).await;
        assert_eq!(a.status, 415, "{headers}: {}", a.body);
        assert!(
            a.json()["error"]
                .as_str()
                .unwrap()
                .contains("application/json")
        );
    }
    let a = send(
        addr,
        "POST",
        "/api/tables",
        "Content-Type: Application/JSON; charset=utf-8\r\n",
        body,
    )
    .await;
    assert_eq!(a.status, 201, "{}", a.body);
}

const APP_CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; font-src 'self' data:; connect-src 'self'; object-src 'none'; \
     base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Every answer, pages, API, errors and sheets alike, carries the security headers; the HTML
/// sheets have their own policy for their inline styles.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_has_the_security_headers() {
    let server = Server::start("sqlite::memory:", Config::instant());
    let addr = server.addr;
    let (id, _) = open_table(addr).await;
    for (method, path, csp) in [
        ("GET", "/".to_owned(), APP_CSP),
        ("GET", format!("/t/{id}"), APP_CSP),
        ("GET", "/api/tables".to_owned(), APP_CSP),
        ("GET", "/api/nope".to_owned(), APP_CSP),
        ("POST", "/api/tables".to_owned(), APP_CSP),
        (
            "GET",
            "/api/presets/mura-3/sheet?format=pdf".to_owned(),
            APP_CSP,
        ),
        (
            "GET",
            "/api/presets/mura-3/sheet?format=html".to_owned(),
            "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; \
             object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        ),
    ] {
        let a = request(
            addr,
            method,
            &path,
            (method == "POST").then_some(&json!({})),
        )
        .await
        .unwrap();
        assert_eq!(a.header("content-security-policy"), Some(csp), "{path}");
        assert_eq!(
            a.header("x-content-type-options"),
            Some("nosniff"),
            "{path}"
        );
        assert_eq!(a.header("x-frame-options"), Some("DENY"), "{path}");
        assert_eq!(a.header("referrer-policy"), Some("no-referrer"), "{path}");
    }
}

/// Whatever refuses a request, router, extractor or handler, the body is one line of JSON.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_error_is_one_line_of_json() {
    let config = Config {
        creates_per_minute: Some(1),
        ..Config::instant()
    };
    let server = Server::start("sqlite::memory:", config);
    let addr = server.addr;
    let (id, _) = open_table(addr).await;
    let json_type = "Content-Type: application/json\r\n";
    let big = format!(r#"{{"name": "A", "pad": "{}"}}"#, "x".repeat(20_000));
    let upgrade = "Upgrade: websocket\r\nConnection: close, Upgrade\r\n\
                   Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n";
    for (method, path, headers, body, status, word) in [
        (
            "POST",
            "/api/tables".to_owned(),
            json_type,
            big.as_str(),
            413,
            "16 KiB",
        ),
        ("GET", "/nope".to_owned(), "", "", 404, "no such page"),
        ("GET", "/api/nope".to_owned(), "", "", 404, "no such page"),
        ("DELETE", "/api/tables".to_owned(), "", "", 405, "DELETE"),
        ("GET", format!("/api/tables/{id}/join"), "", "", 405, "GET"),
        ("GET", "/api/tables/%FF".to_owned(), "", "", 400, "UTF-8"),
        (
            "GET",
            "/api/presets/mura-3/sheet?%FF=1".to_owned(),
            "",
            "",
            400,
            "parameter",
        ),
        ("GET", format!("/ws/{id}"), "", "", 400, "upgrade"),
        ("GET", "/ws/nope".to_owned(), upgrade, "", 404, "nope"),
        (
            "POST",
            "/api/tables".to_owned(),
            "Content-Type: text/plain\r\n",
            "{}",
            415,
            "application/json",
        ),
        (
            "POST",
            format!("/api/tables/{id}/join"),
            json_type,
            "[1]",
            400,
            "object",
        ),
        (
            "POST",
            "/api/tables".to_owned(),
            json_type,
            r#"{"name": "B"}"#,
            429,
            "wait",
        ),
    ] {
        let a = send(addr, method, &path, headers, body).await;
        assert_eq!(a.status, status, "{method} {path}: {}", a.body);
        assert!(
            a.header("content-type")
                .is_some_and(|t| t.starts_with("application/json")),
            "{method} {path}: {:?}",
            a.headers
        );
        let error = a.json()["error"].as_str().map(str::to_owned);
        let error = error.unwrap_or_else(|| panic!("{method} {path}: {}", a.body));
        // Whatever produced it, a refusal has a code and arguments a client can translate.
        assert!(a.json()["code"].is_string(), "{method} {path}: {}", a.body);
        assert!(a.json()["args"].is_object(), "{method} {path}: {}", a.body);
        assert!(!error.contains('\n'), "{method} {path}: {error}");
        assert!(
            error.to_lowercase().contains(&word.to_lowercase()),
            "{method} {path}: {error}"
        );
    }
}

/// Names that would hide, reorder or fake text are refused with the character named.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_with_invisible_or_reordering_characters_are_refused() {
    let server = Server::start("sqlite::memory:", Config::instant());
    let addr = server.addr;
    let (id, _) = open_table(addr).await;
    for (name, code) in [
        ("Aki\u{202E}gnp.exe", "U+202E"),
        ("A\u{200B}ki", "U+200B"),
        ("\u{2066}Aki", "U+2066"),
        ("A\u{FEFF}", "U+FEFF"),
        ("A\u{0007}", "U+0007"),
        ("A\u{E000}", "U+E000"),
        ("A\u{0378}", "U+0378"),
    ] {
        for (path, body) in [
            ("/api/tables".to_owned(), json!({"name": name})),
            (
                format!("/api/tables/{id}/join"),
                json!({"seat": 1, "name": name}),
            ),
        ] {
            let (status, body) = post(addr, &path, body).await;
            assert_eq!(status, 400, "{name:?} at {path}: {body}");
            assert!(
                body["error"].as_str().unwrap().contains(code),
                "{name:?}: {body}"
            );
        }
    }
    let (status, body) = post(addr, "/api/tables", json!({"name": "あ".repeat(25)})).await;
    assert_eq!(status, 400);
    assert!(body["error"].as_str().unwrap().contains("24"), "{body}");
    // Long names in any script, emoji and right-to-left letters are fine.
    for (seat, name) in ["あ".repeat(24), "Zoë 🂡".to_owned(), "محمد".to_owned()]
        .into_iter()
        .enumerate()
    {
        let (status, body) = post(
            addr,
            &format!("/api/tables/{id}/join"),
            json!({"seat": seat + 1, "name": name}),
        )
        .await;
        assert_eq!(status, 200, "{name}: {body}");
    }
}

/// A table never started and left alone is let go after `expire_open`: out of the lobby,
/// marked in the store (its log kept) and not loaded again; a table with a socket open or a
/// game on stays. One address may have only so many open tables.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_unstarted_tables_expire_and_open_tables_are_limited() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite:{}", dir.path().join("torite.db").display());
    let config = Config {
        expire_open: Duration::from_millis(400),
        max_open_per_address: Some(3),
        ..Config::instant()
    };
    let server = Server::start(&db, config.clone());
    let addr = server.addr;
    let (idle, _) = open_table(addr).await;
    let (watched, _) = open_table(addr).await;
    let (status, made) = post(
        addr,
        "/api/tables",
        json!({"name": "Cho", "fill": "random", "start": true}),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let playing = made["id"].as_str().unwrap().to_owned();
    // A fourth open table from this address is one too many.
    let (status, body) = post(addr, "/api/tables", json!({"name": "Dan"})).await;
    assert_eq!(status, 429, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("open tables"),
        "{body}"
    );
    let spectator = Session::connect(addr, &watched, None).await.unwrap();
    let mut gone = false;
    for _ in 0..100 {
        tokio::time::sleep(Duration::from_millis(50)).await;
        if get(addr, &format!("/api/tables/{idle}")).await.0 == 404 {
            gone = true;
            break;
        }
    }
    assert!(gone, "the idle table was not let go");
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(get(addr, &format!("/api/tables/{watched}")).await.0, 200);
    assert_eq!(get(addr, &format!("/api/tables/{playing}")).await.0, 200);
    let (_, lobby) = get(addr, "/api/tables").await;
    assert!(!lobby.to_string().contains(&idle));
    // The expired table no longer counts: this address may open another.
    let (status, body) = post(addr, "/api/tables", json!({"name": "Dan"})).await;
    assert_eq!(status, 201, "{body}");
    drop(spectator);
    server.kill();
    // Its log is kept, marked expired, and it is not loaded again.
    let pool = sqlx::SqlitePool::connect(&db).await.unwrap();
    let (events,): (i64,) =
        sqlx::query_as("SELECT count(*) FROM torite_events WHERE table_id = $1")
            .bind(&idle)
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!(events, 2, "created and join");
    let (marked,): (i64,) =
        sqlx::query_as("SELECT count(*) FROM torite_expired WHERE table_id = $1")
            .bind(&idle)
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!(marked, 1);
    pool.close().await;
    let config = Config {
        expire_open: Duration::from_secs(3600),
        ..config
    };
    let server = Server::start(&db, config);
    let (_, lobby) = get(server.addr, "/api/tables").await;
    let ids: Vec<&str> = lobby
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["id"].as_str())
        .collect();
    assert!(!ids.contains(&idle.as_str()), "{ids:?}");
    assert!(ids.contains(&playing.as_str()), "{ids:?}");
}

/// Requests at once from one address cannot all slip under its cap on open tables.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_open_table_cap_holds_for_requests_at_once() {
    let config = Config {
        max_open_per_address: Some(3),
        ..Config::instant()
    };
    let server = Server::start("sqlite::memory:", config);
    let addr = server.addr;
    let tries: Vec<_> = (0..12)
        .map(|_| tokio::spawn(post(addr, "/api/tables", json!({"name": "Dan"}))))
        .collect();
    let mut made = 0;
    for task in tries {
        let (status, body) = task.await.unwrap();
        match status {
            201 => made += 1,
            429 => assert!(body["error"].as_str().unwrap().contains("open tables")),
            other => panic!("{other}: {body}"),
        }
    }
    assert_eq!(made, 3);
}
