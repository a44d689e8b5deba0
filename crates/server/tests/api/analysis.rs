//! The post-game analysis (`POST`/`GET /api/tables/{id}/analysis`): only of a finished game,
//! the same as `torite analyse` with the table's seed, kept across a restart, and bounded.

use super::*;

/// Plays a one-deal game with heuristic bots to its end; returns the table id.
async fn finished_game(addr: SocketAddr) -> String {
    let (id, token) = bot_table(
        addr,
        json!({"base": "mini-misere-4", "deals": 1}),
        "heuristic",
    )
    .await;
    let mut seat = Session::connect(addr, &id, Some(&token)).await.unwrap();
    let mut step = 5;
    play_until(&mut seat, |s| s["finished"] == true, &mut step).await;
    seat.close().await;
    id
}

/// Polls `GET` until the analysis is done; every answer before is a 202 with its progress.
async fn wait_for(addr: SocketAddr, path: &str) -> Value {
    for _ in 0..1200 {
        let (status, body) = get(addr, path).await;
        if status == 200 {
            return body;
        }
        assert_eq!(status, 202, "{body}");
        assert!(
            matches!(body["status"].as_str(), Some("queued" | "running")),
            "{body}"
        );
        assert!(body["done"].as_u64().unwrap() <= body["total"].as_u64().unwrap());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the analysis at {path} did not finish");
}

/// What `torite analyse --seat S --budget W --seed SEED --json` prints for the record.
fn expected(record: &Value, seats: &[usize], worlds: u32, seed: u64) -> Value {
    let (record, _) = torite_core::record::read(record).unwrap();
    let settings = torite_bots::analysis::Settings { worlds, seed };
    let seats: torite_core::SeatSet = seats.iter().copied().collect();
    let result = torite_bots::analysis::analyse(&record, seats, None, settings, &|| {});
    torite_server::analysis::to_json(&result, &record, settings)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_is_analysed_as_torite_analyse_does_and_kept_across_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite:{}", dir.path().join("torite.db").display());
    analysed_and_kept(&db).await;
}

/// The same against PostgreSQL, in the database that `TORITE_TEST_POSTGRES` names (ignored by
/// a plain `cargo test`; `.ci/run` runs it against a throwaway cluster).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: .ci/run starts one; by hand, set TORITE_TEST_POSTGRES and pass --ignored"]
async fn analyses_kept_on_postgres() {
    let url = std::env::var("TORITE_TEST_POSTGRES")
        .ok()
        .filter(|u| !u.is_empty())
        .expect(
            "TORITE_TEST_POSTGRES must name a PostgreSQL database (postgres://user@host:port/db)",
        );
    analysed_and_kept(&url).await;
}

async fn analysed_and_kept(db: &str) {
    let server = Server::start(db, Config::instant());
    let addr = server.addr;

    // A game not yet over is refused, and so is its analysis's status.
    let (status, open) = post(addr, "/api/tables", json!({"name": "Aki"})).await;
    assert_eq!(status, 201);
    let open = open["id"].as_str().unwrap();
    let (status, body) = post(addr, &format!("/api/tables/{open}/analysis"), json!({})).await;
    assert_eq!(status, 409, "{body}");
    assert_eq!(body["code"], "analysis-not-yet");
    let (status, body) = get(addr, &format!("/api/tables/{open}/analysis")).await;
    assert_eq!(status, 409, "{body}");
    assert_eq!(body["code"], "analysis-not-yet");
    let (status, body) = post(addr, "/api/tables/nope/analysis", json!({})).await;
    assert_eq!(status, 404, "{body}");

    let id = finished_game(addr).await;
    let path = format!("/api/tables/{id}/analysis");
    // Bad selections.
    for (bad, code) in [
        (json!({"seat": 4}), "analysis-seat"),
        (json!({"seat": "north"}), "analysis-seat"),
        (json!({"worlds": 0}), "analysis-worlds"),
        (json!({"worlds": 100}), "analysis-worlds"),
        (json!({"worlds": 100_000}), "analysis-worlds"),
    ] {
        let (status, body) = post(addr, &path, bad.clone()).await;
        assert_eq!(status, 400, "{bad}: {body}");
        assert_eq!(body["code"], code, "{bad}: {body}");
    }
    let (status, body) = get(addr, &format!("{path}?seat=1&worlds=8")).await;
    assert_eq!(status, 404, "{body}");
    assert_eq!(body["code"], "analysis-not-asked");
    let (status, body) = get(addr, &format!("{path}?colour=red")).await;
    assert_eq!(status, 400, "{body}");

    let (status, started) = post(addr, &path, json!({"seat": 1, "worlds": 8})).await;
    assert_eq!(status, 202, "{started}");
    assert_eq!(started["seat"], 1);
    assert_eq!(started["worlds"], 8);
    assert!(started["total"].as_u64().unwrap() > 0, "{started}");
    let analysis = wait_for(addr, &format!("{path}?seat=1&worlds=8")).await;
    let (_, record) = get(addr, &format!("/api/tables/{id}/record")).await;
    let seed = torite_server::analysis::seed_of(&id);
    assert_eq!(analysis["seed"], seed);
    assert_eq!(analysis, expected(&record, &[1], 8, seed));
    assert!(
        analysis["decisions"]
            .as_array()
            .unwrap()
            .iter()
            .all(|d| d["seat"] == 1)
    );
    // Asked again, it is answered at once.
    let (status, again) = post(addr, &path, json!({"seat": 1, "worlds": 8})).await;
    assert_eq!(status, 200);
    assert_eq!(again, analysis);

    // Every seat, at the default budget's selection key "all".
    let (status, _) = post(addr, &path, json!({"seat": "all", "worlds": 4})).await;
    assert_eq!(status, 202);
    let all = wait_for(addr, &format!("{path}?seat=all&worlds=4")).await;
    assert_eq!(all, expected(&record, &[0, 1, 2, 3], 4, seed));

    // After a restart the analyses are read from the store: a GET (which never starts one)
    // finds them.
    server.kill();
    let server = Server::start(db, Config::instant());
    let (status, kept) = get(server.addr, &format!("{path}?seat=1&worlds=8")).await;
    assert_eq!(status, 200, "{kept}");
    assert_eq!(kept, analysis);
    let (status, kept) = get(server.addr, &format!("{path}?worlds=4")).await;
    assert_eq!(status, 200, "{kept}");
    assert_eq!(kept, all);
    server.kill();
}

/// `POST path body` from the loopback address `127.0.0.{host}`, as another client would: the
/// status and the JSON answer.
async fn post_from(host: u8, addr: SocketAddr, path: &str, body: Value) -> (u16, Value) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket
        .bind(SocketAddr::from(([127, 0, 0, host], 0)))
        .unwrap();
    let mut stream = socket.connect(addr).await.unwrap();
    let body = body.to_string();
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.unwrap();
    let (head, json) = answer.split_once("\r\n\r\n").expect("an HTTP answer");
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, serde_json::from_str(json).unwrap_or(Value::Null))
}

/// One analysis runs at a time and four more may wait; the next is refused with a 503. One
/// client address may have two under way, so that no one can fill the queue for everyone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analyses_beyond_the_queue_are_refused() {
    let server = memory();
    let addr = server.addr;
    let id = finished_game(addr).await;
    let path = format!("/api/tables/{id}/analysis");
    let mut answers = Vec::new();
    // The first (every seat at the full budget) runs long enough for the others to wait; two
    // a client, from three clients.
    for (host, worlds) in [(1, 256), (1, 1), (2, 2), (2, 4), (3, 8), (3, 16)] {
        answers.push(post_from(host, addr, &path, json!({"worlds": worlds})).await);
    }
    for (status, body) in &answers[..5] {
        assert_eq!(*status, 202, "{body}");
    }
    assert_eq!(answers[1].1["status"], "queued", "{}", answers[1].1);
    let (status, body) = &answers[5];
    assert_eq!(*status, 503, "{body}");
    assert_eq!(body["code"], "analysis-busy");
    // Asking for one already waiting is not a new one, whoever asks.
    let (status, body) = post_from(4, addr, &path, json!({"worlds": 1})).await;
    assert_eq!(status, 202, "{body}");
    server.kill();

    // A third from one client is refused while its two are under way; another client's is
    // taken.
    let server = memory();
    let addr = server.addr;
    let id = finished_game(addr).await;
    let path = format!("/api/tables/{id}/analysis");
    for worlds in [256, 1] {
        let (status, body) = post_from(5, addr, &path, json!({"worlds": worlds})).await;
        assert_eq!(status, 202, "{body}");
    }
    let (status, body) = post_from(5, addr, &path, json!({"worlds": 2})).await;
    assert_eq!(status, 503, "{body}");
    assert_eq!(body["code"], "analysis-busy-client");
    assert_eq!(body["args"]["max"], "2", "{body}");
    let (status, body) = post_from(6, addr, &path, json!({"worlds": 2})).await;
    assert_eq!(status, 202, "{body}");
    server.kill();
}
