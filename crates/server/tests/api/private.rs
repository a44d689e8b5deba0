//! Private tables: never listed, and every request about one needs its invite secret or a
//! token of the table; without them the table is answered as one that does not exist, live,
//! after a restart and once it has been let go.

use super::*;

/// The answer to a request about a table that never existed, to compare a refusal with.
async fn unknown(addr: SocketAddr, path: &str) -> (u16, Value) {
    let (status, mut body) = get(addr, path).await;
    // The id is named in the message: compare the rest.
    body["args"]["id"] = json!("");
    body["error"] = json!("");
    (status, body)
}

/// Creates a private table of Mura for three, the host in seat 0; returns its id, the host's
/// token and the invite secret.
async fn private_table(addr: SocketAddr, extra: Value) -> (String, String, String) {
    let mut body =
        json!({"ruleset": {"base": "mura-3", "deals": 1}, "name": "Aki", "private": true});
    for (k, v) in extra.as_object().unwrap() {
        body[k] = v.clone();
    }
    let (status, answer) = post(addr, "/api/tables", body).await;
    assert_eq!(status, 201, "{answer}");
    let id = answer["id"].as_str().unwrap().to_owned();
    let key = answer["key"]
        .as_str()
        .expect("the invite secret")
        .to_owned();
    assert_eq!(answer["invite"], format!("/t/{id}?key={key}"));
    assert_eq!(key.len(), 32, "128 bits, hex");
    (id, answer["token"].as_str().unwrap().to_owned(), key)
}

fn listed(list: &Value, id: &str) -> bool {
    list.as_array()
        .unwrap()
        .iter()
        .any(|t| t["id"].as_str() == Some(id))
}

/// A private table is absent from the lobby; its state, join, socket and record answer a
/// request without its secret (or with a wrong one) exactly as for an unknown table, and
/// answer the secret or a seat's token.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_private_table_is_seen_only_with_its_secret() {
    let server = memory();
    let addr = server.addr;
    let (public, _) = bot_table(addr, json!("mura-3"), "random").await;
    let (id, token, key) = private_table(addr, json!({})).await;
    let (_, list) = get(addr, "/api/tables").await;
    assert!(listed(&list, &public));
    assert!(!listed(&list, &id), "a private table is listed: {list}");

    let never = unknown(addr, "/api/tables/0123456789ab").await;
    assert_eq!(never.0, 404);
    for probe in [
        format!("/api/tables/{id}"),
        format!("/api/tables/{id}?key="),
        format!("/api/tables/{id}?key={}", "0".repeat(32)),
        format!("/api/tables/{id}?token={}", "0".repeat(32)),
        format!("/api/tables/{id}/record"),
        format!("/api/tables/{id}/replay"),
        format!("/api/tables/{id}/sheet"),
        format!("/api/tables/{id}/analysis"),
        format!("/api/tables/{id}/record?key={}", &key[..31]),
    ] {
        assert_eq!(unknown(addr, &probe).await, never, "{probe}");
    }
    let (status, refused) = post(
        addr,
        &format!("/api/tables/{id}/join"),
        json!({"seat": 1, "name": "Mallory"}),
    )
    .await;
    assert_eq!(status, 404, "{refused}");
    assert_eq!(refused["code"], "no-table");
    assert!(Session::connect(addr, &id, None).await.is_err());
    assert!(
        Session::connect(addr, &id, Some(&"0".repeat(32)))
            .await
            .is_err()
    );

    // With the secret: the state, a join, a spectator's socket.
    let (status, summary) = get(addr, &format!("/api/tables/{id}?key={key}")).await;
    assert_eq!(status, 200, "{summary}");
    assert_eq!(summary["id"], id.as_str());
    assert!(summary.get("key").is_none() && summary.get("invite").is_none());
    let (status, joined) = post(
        addr,
        &format!("/api/tables/{id}/join?key={key}"),
        json!({"seat": 1, "name": "Ben"}),
    )
    .await;
    assert_eq!(status, 200, "{joined}");
    let guest = joined["token"].as_str().unwrap().to_owned();
    let watcher = Session::connect(addr, &format!("{id}?key={key}"), None)
        .await
        .expect("a spectator with the secret");
    assert_eq!(watcher.welcome["seat"], Value::Null);
    // A seat's token alone opens its socket and the table's state.
    let seat = Session::connect(addr, &id, Some(&guest)).await.unwrap();
    assert_eq!(seat.welcome["seat"], 1);
    let (status, _) = get(addr, &format!("/api/tables/{id}?token={token}")).await;
    assert_eq!(status, 200);
    // The host seats a bot and starts, with the secret.
    let (status, _) = post(
        addr,
        &format!("/api/tables/{id}/bot"),
        json!({"token": token, "seat": 2, "bot": "random"}),
    )
    .await;
    assert_eq!(
        status, 404,
        "without the secret the host's token in a body is not enough"
    );
    let (status, body) = post(
        addr,
        &format!("/api/tables/{id}/bot?key={key}"),
        json!({"token": token, "seat": 2, "bot": "random"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let (_, list) = get(addr, "/api/tables").await;
    assert!(!listed(&list, &id));
    seat.close().await;
    watcher.close().await;
}

/// `private` must be true or false, said in the reader's words.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn private_must_be_a_boolean() {
    let server = memory();
    let (status, body) = post(
        server.addr,
        "/api/tables",
        json!({"name": "Aki", "private": "yes"}),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(body["code"], "private-not-bool");
    assert_eq!(body["error"], "\"private\" must be true or false");
    // A public table's answer carries no secret.
    let (status, body) = post(
        server.addr,
        "/api/tables",
        json!({"name": "Aki", "private": false}),
    )
    .await;
    assert_eq!(status, 201);
    assert!(body.get("key").is_none() && body.get("invite").is_none());
}

/// After `kill -9` the table is still private; once its game is over and it has been let go,
/// its kept record is still served only with the secret.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_private_table_stays_private_across_a_restart_and_once_let_go() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite:{}", dir.path().join("torite.db").display());
    private_across_restarts(&db).await;
}

/// The same against PostgreSQL (`TORITE_TEST_POSTGRES`; see `kill_and_restart_on_postgres`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: .ci/run starts one; by hand, set TORITE_TEST_POSTGRES and pass --ignored"]
async fn a_private_table_stays_private_on_postgres() {
    let url = std::env::var("TORITE_TEST_POSTGRES")
        .ok()
        .filter(|u| !u.is_empty())
        .expect(
            "TORITE_TEST_POSTGRES must name a PostgreSQL database (postgres://user@host:port/db)",
        );
    private_across_restarts(&url).await;
}

async fn private_across_restarts(db: &str) {
    let config = Config {
        keep_finished: Duration::ZERO,
        ..Config::instant()
    };
    let server = Server::start(db, config.clone());
    let (id, token, key) =
        private_table(server.addr, json!({"fill": "random", "start": true})).await;
    server.kill();
    let server = Server::start(db, config.clone());
    let (_, list) = get(server.addr, "/api/tables").await;
    assert!(!listed(&list, &id), "listed after a restart");
    let (status, _) = get(server.addr, &format!("/api/tables/{id}")).await;
    assert_eq!(status, 404);
    let (status, _) = get(server.addr, &format!("/api/tables/{id}?key={key}")).await;
    assert_eq!(status, 200);
    let mut seat = Session::connect(server.addr, &id, Some(&token))
        .await
        .unwrap();
    let mut step = 5;
    play_until(&mut seat, |s| s["finished"] == true, &mut step).await;
    seat.close().await;
    // Let go once nobody has it open: then only the kept record answers, still only with the
    // secret.
    let mut gone = false;
    for _ in 0..100 {
        let (status, body) = get(server.addr, &format!("/api/tables/{id}?key={key}")).await;
        if status == 404 {
            assert_eq!(body["record"], format!("/api/tables/{id}/record"));
            gone = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(gone, "the finished table stayed live");
    server.kill();
    let server = Server::start(db, config);
    let never = unknown(server.addr, "/api/tables/0123456789ab/record").await;
    assert_eq!(
        unknown(server.addr, &format!("/api/tables/{id}/record")).await,
        never
    );
    assert_eq!(
        unknown(server.addr, &format!("/api/tables/{id}")).await,
        unknown(server.addr, "/api/tables/0123456789ab").await
    );
    let (status, record) = get(server.addr, &format!("/api/tables/{id}/record?key={key}")).await;
    assert_eq!(status, 200, "{record}");
    assert_eq!(record["players"][0], "Aki");
    server.kill();
}
