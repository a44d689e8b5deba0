//! The table's chat over the WebSocket: lines and reactions reach every seat and spectator,
//! hostile senders (spectators, the muted, the over-long, the flood) are refused and reach
//! nobody, the host mutes, and the chat survives `kill -9`.

use super::*;

/// The next message of a type (skipping states).
async fn next_of(session: &mut Session, kind: &str) -> Value {
    loop {
        let msg = session.next().await.unwrap();
        if msg["type"] == kind {
            return msg;
        }
        assert!(msg["type"] == "state", "{msg} while waiting for {kind}");
    }
}

/// Sends a message and returns the error the socket answers with.
async fn refused(session: &mut Session, msg: Value) -> Value {
    session.send_text(&msg.to_string()).await.unwrap();
    next_of(session, "error").await
}

/// Waits a little and checks that no chat message came (only states, if anything).
async fn no_chat(session: &mut Session) {
    while let Ok(Ok(msg)) = tokio::time::timeout(Duration::from_millis(300), session.next()).await {
        assert_ne!(msg["type"], "chat", "a chat reached this socket: {msg}");
    }
}

/// A Mura table for three: Aki (host, seat 0), Ben (seat 1), a bot in seat 2.
async fn three(addr: SocketAddr) -> (String, String, String) {
    let (status, made) = post(
        addr,
        "/api/tables",
        json!({"ruleset": {"base": "mura-3", "deals": 1}, "name": "Aki"}),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().unwrap().to_owned();
    let (_, joined) = post(
        addr,
        &format!("/api/tables/{id}/join"),
        json!({"seat": 1, "name": "Ben"}),
    )
    .await;
    let (status, _) = post(
        addr,
        &format!("/api/tables/{id}/bot"),
        json!({"seat": 2, "bot": "random", "token": made["token"]}),
    )
    .await;
    assert_eq!(status, 200);
    (
        id,
        made["token"].as_str().unwrap().to_owned(),
        joined["token"].as_str().unwrap().to_owned(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_reaches_everyone_and_the_refused_reach_nobody() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite:{}", dir.path().join("torite.db").display());
    chat_over(&db).await;
}

/// The same against PostgreSQL (`TORITE_TEST_POSTGRES`; see `kill_and_restart_on_postgres`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: .ci/run starts one; by hand, set TORITE_TEST_POSTGRES and pass --ignored"]
async fn chat_on_postgres() {
    let url = std::env::var("TORITE_TEST_POSTGRES")
        .ok()
        .filter(|u| !u.is_empty())
        .expect(
            "TORITE_TEST_POSTGRES must name a PostgreSQL database (postgres://user@host:port/db)",
        );
    chat_over(&url).await;
}

async fn chat_over(db: &str) {
    let server = Server::start(db, Config::instant());
    let addr = server.addr;
    let (id, host, guest) = three(addr).await;
    let mut aki = Session::connect(addr, &id, Some(&host)).await.unwrap();
    let mut ben = Session::connect(addr, &id, Some(&guest)).await.unwrap();
    let mut watcher = Session::connect(addr, &id, None).await.unwrap();
    let version = aki.state["version"].clone();

    // A line with markup reaches the other seat and the spectator as the text it is.
    let line = "<b>よろしく</b> & hi";
    aki.send_text(&json!({"type": "chat", "text": format!("  {line} ")}).to_string())
        .await
        .unwrap();
    for session in [&mut aki, &mut ben, &mut watcher] {
        let chat = next_of(session, "chat").await;
        assert_eq!(
            chat["lines"],
            json!([{"seat": 0, "name": "Aki", "text": line, "at": chat["lines"][0]["at"]}])
        );
        assert_eq!(chat["muted"], json!([]));
    }
    // A reaction.
    ben.send_text(&json!({"type": "chat", "reaction": "thanks"}).to_string())
        .await
        .unwrap();
    let chat = next_of(&mut watcher, "chat").await;
    assert_eq!(chat["lines"][1]["reaction"], "thanks");
    assert_eq!(chat["lines"][1]["name"], "Ben");
    let chat = next_of(&mut aki, "chat").await;
    assert_eq!(chat["lines"].as_array().unwrap().len(), 2);
    next_of(&mut ben, "chat").await;

    // Refused, each with its reason, and seen by nobody.
    let long = "x".repeat(201);
    let e = refused(&mut ben, json!({"type": "chat", "text": long})).await;
    assert_eq!(e["code"], "chat-too-long");
    assert_eq!(e["args"], json!({"max": "200", "length": "201"}));
    let e = refused(&mut ben, json!({"type": "chat", "text": "a\u{202e}b"})).await;
    assert_eq!(e["code"], "chat-character");
    let e = refused(&mut ben, json!({"type": "chat", "text": "   "})).await;
    assert_eq!(e["code"], "chat-empty");
    let e = refused(&mut ben, json!({"type": "chat", "reaction": "<script>"})).await;
    assert_eq!(e["code"], "chat-reaction");
    let e = refused(&mut ben, json!({"type": "chat"})).await;
    assert_eq!(e["code"], "message-no-chat");
    let e = refused(
        &mut ben,
        json!({"type": "chat", "text": "a", "reaction": "nice"}),
    )
    .await;
    assert_eq!(e["code"], "message-no-chat");
    let e = refused(&mut watcher, json!({"type": "chat", "text": "I am Aki"})).await;
    assert_eq!(e["code"], "chat-no-seat");
    // Only the host mutes, not themselves, and only a person.
    let e = refused(&mut ben, json!({"type": "mute", "seat": 0, "muted": true})).await;
    assert_eq!(e["code"], "host-only-mute");
    let e = refused(
        &mut watcher,
        json!({"type": "mute", "seat": 1, "muted": true}),
    )
    .await;
    assert_eq!(e["code"], "host-only-mute");
    let e = refused(&mut aki, json!({"type": "mute", "seat": 0, "muted": true})).await;
    assert_eq!(e["code"], "mute-self");
    let e = refused(&mut aki, json!({"type": "mute", "seat": 2, "muted": true})).await;
    assert_eq!(e["code"], "mute-no-person");
    let e = refused(&mut aki, json!({"type": "mute", "seat": 1})).await;
    assert_eq!(e["code"], "message-no-mute");
    no_chat(&mut watcher).await;

    // The host mutes Ben: everyone is told; Ben's lines are refused and reach nobody.
    aki.send_text(&json!({"type": "mute", "seat": 1, "muted": true}).to_string())
        .await
        .unwrap();
    for session in [&mut aki, &mut ben, &mut watcher] {
        assert_eq!(next_of(session, "chat").await["muted"], json!([1]));
    }
    let e = refused(&mut ben, json!({"type": "chat", "text": "let me speak"})).await;
    assert_eq!(e["code"], "chat-muted");
    let e = refused(&mut ben, json!({"type": "chat", "reaction": "oops"})).await;
    assert_eq!(e["code"], "chat-muted");
    no_chat(&mut aki).await;
    no_chat(&mut watcher).await;

    // A flood: a burst of five lines, then one every two seconds.
    for i in 0..4 {
        aki.send_text(&json!({"type": "chat", "text": format!("line {i}")}).to_string())
            .await
            .unwrap();
        next_of(&mut aki, "chat").await;
    }
    let e = refused(&mut aki, json!({"type": "chat", "text": "one too many"})).await;
    assert_eq!(e["code"], "chat-too-fast");
    // Two seconds at most, less as the burst's first lines come back.
    assert!(
        matches!(e["args"]["seconds"].as_str(), Some("1" | "2")),
        "{e}"
    );
    // Talk leaves the table's version (and so every action's) as it was.
    assert_eq!(aki.state["version"], version);
    let (_, summary) = get(addr, &format!("/api/tables/{id}")).await;
    assert!(summary.get("chat").is_none());
    aki.close().await;
    ben.close().await;
    watcher.close().await;

    // After kill -9 the chat and the mute are back, for a newcomer too.
    server.kill();
    let server = Server::start(db, Config::instant());
    let mut again = Session::connect(server.addr, &id, None).await.unwrap();
    let chat = next_of(&mut again, "chat").await;
    let lines = chat["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 6, "{chat}");
    assert_eq!(lines[0]["text"], line);
    assert_eq!(lines[5]["text"], "line 3");
    assert_eq!(chat["muted"], json!([1]));
    let mut ben = Session::connect(server.addr, &id, Some(&guest))
        .await
        .unwrap();
    next_of(&mut ben, "chat").await;
    let e = refused(&mut ben, json!({"type": "chat", "text": "still muted?"})).await;
    assert_eq!(e["code"], "chat-muted");
    // The game goes on with the version the actions answer.
    let (status, _) = post(
        server.addr,
        &format!("/api/tables/{id}/start"),
        json!({"token": host}),
    )
    .await;
    assert_eq!(status, 200);
    let mut aki = Session::connect(server.addr, &id, Some(&host))
        .await
        .unwrap();
    let seen = aki
        .until(|s| s["to_act"] == 0 || s["to_act"] == 1)
        .await
        .unwrap();
    let version = seen["version"].as_u64().unwrap();
    // A line after the state and before its answer does not make the answer stale.
    aki.send_text(&json!({"type": "chat", "reaction": "nice"}).to_string())
        .await
        .unwrap();
    next_of(&mut aki, "chat").await;
    let session = if seen["to_act"] == 0 {
        &mut aki
    } else {
        &mut ben
    };
    let mine = session
        .until(|s| s["version"].as_u64() == Some(version))
        .await
        .unwrap();
    let action = mine["legal"][0].as_str().unwrap().to_owned();
    session.act_at(&action, version).await.unwrap();
    loop {
        let msg = session.next().await.unwrap();
        assert_ne!(msg["type"], "error", "{msg}");
        if msg["type"] == "state" && msg["version"].as_u64() > Some(version) {
            break;
        }
    }
    server.kill();
}

/// A private table's chat reaches nobody without its secret: the socket is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_private_tables_chat_reaches_members_only() {
    let server = memory();
    let addr = server.addr;
    let (status, made) = post(
        addr,
        "/api/tables",
        json!({"ruleset": "mura-3", "name": "Aki", "private": true}),
    )
    .await;
    assert_eq!(status, 201);
    let id = made["id"].as_str().unwrap();
    let key = made["key"].as_str().unwrap();
    let mut aki = Session::connect(addr, id, made["token"].as_str())
        .await
        .unwrap();
    aki.send_text(&json!({"type": "chat", "text": "secret plans"}).to_string())
        .await
        .unwrap();
    next_of(&mut aki, "chat").await;
    assert!(Session::connect(addr, id, None).await.is_err());
    let mut member = Session::connect(addr, &format!("{id}?key={key}"), None)
        .await
        .unwrap();
    assert_eq!(
        next_of(&mut member, "chat").await["lines"][0]["text"],
        "secret plans"
    );
    let (_, list) = get(addr, "/api/tables").await;
    assert!(!list.to_string().contains("secret plans"));
}
