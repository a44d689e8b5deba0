//! Tables over the WebSocket: hidden cards, records and replays, reconnects, bad messages, replacing players, slow clients, the sweeper and the move timer.

use super::*;

/// Plays whole one-deal games of several rulesets through the socket protocol, a person in
/// seat 0 and bots elsewhere, with a spectator watching; checks every message against the
/// record for hidden cards, and the record against the rules.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn whole_deals_hide_every_hidden_card() {
    let server = memory();
    let addr = server.addr;
    for (i, base) in [
        "mini-misere-4",
        "mini-misere-5-1989",
        "mini-misere-4-1989",
        "mini-misere-6",
        "mini-misere-3",
        "mittlere-jass",
        "molotow-jass",
        "middler-joker",
        "mura-4",
    ]
    .into_iter()
    .enumerate()
    {
        let (id, token) = bot_table(addr, json!({"base": base, "deals": 1}), "heuristic").await;
        let mut spectator = Session::connect(addr, &id, None).await.unwrap();
        let mut seat = Session::connect(addr, &id, Some(&token)).await.unwrap();
        assert_eq!(seat.welcome["seat"], 0);
        assert_eq!(seat.welcome["host"], true);
        assert_eq!(spectator.welcome["seat"], Value::Null);
        let mut step = i as u64;
        let seen = play_until(&mut seat, |s| s["finished"] == true, &mut step).await;
        let mut watched = vec![spectator.state.clone()];
        while spectator.state["finished"] != true {
            watched.push(spectator.next().await.unwrap());
        }
        let (status, record) = get(addr, &format!("/api/tables/{id}/record")).await;
        assert_eq!(status, 200);
        let replay = torite_core::record::replay_value(&record).expect("the record replays");
        assert!(replay.game.is_finished());
        assert_eq!(record["players"][0], "Aki");
        let last = seen.last().unwrap();
        assert_eq!(last["results"].as_array().unwrap().len(), 1);
        assert_eq!(
            last["totals"],
            json!(replay.report.deals[0].totals.clone().unwrap())
        );
        for msg in &seen {
            check_hidden(msg, Some(0), &record);
        }
        for msg in &watched {
            check_hidden(msg, None, &record);
        }
        seat.close().await;
        spectator.close().await;
    }
}

/// The record and the replay of a game still being played are refused to everyone (they show
/// every hand); once it is over, the replay steps through the record with the core's tricks and
/// scores.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn records_and_replays_only_of_finished_games() {
    let server = memory();
    let addr = server.addr;
    let (status, open) = post(addr, "/api/tables", json!({"name": "Aki"})).await;
    assert_eq!(status, 201);
    let open = open["id"].as_str().unwrap();
    for path in ["record", "replay"] {
        let (status, body) = get(addr, &format!("/api/tables/{open}/{path}")).await;
        assert_eq!(status, 409, "{path}: {body}");
        assert!(
            body["error"].as_str().unwrap().contains("not over"),
            "{body}"
        );
    }
    let (id, token) = bot_table(addr, json!({"base": "mini-misere-4", "deals": 2}), "random").await;
    let mut seat = Session::connect(addr, &id, Some(&token)).await.unwrap();
    let mut step = 3;
    play_until(
        &mut seat,
        |s| s["results"].as_array().is_some_and(|r| !r.is_empty()),
        &mut step,
    )
    .await;
    for path in ["record", "replay"] {
        let (status, body) = get(addr, &format!("/api/tables/{id}/{path}")).await;
        assert_eq!(status, 409, "{path} mid-game: {body}");
    }
    play_until(&mut seat, |s| s["finished"] == true, &mut step).await;
    let (status, record) = get(addr, &format!("/api/tables/{id}/record")).await;
    assert_eq!(status, 200);
    let report = torite_core::record::replay_value(&record).unwrap().report;
    let (status, replay) = get(addr, &format!("/api/tables/{id}/replay")).await;
    assert_eq!(status, 200, "{replay}");
    check_replay(&replay, &record, &report);
    assert_eq!(replay["id"], id);
    assert_eq!(replay["base"], "mini-misere-4");
    assert_eq!(replay["house_rules"], json!({"deals": 2}));
    let (status, _) = get(addr, "/api/tables/nope/replay").await;
    assert_eq!(status, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reconnect_mid_trick_gets_the_same_state() {
    let server = memory();
    let (id, token) = bot_table(server.addr, json!("mini-misere-4"), "heuristic").await;
    let mut seat = Session::connect(server.addr, &id, Some(&token))
        .await
        .unwrap();
    let mut step = 11;
    // Seat 0 leads the first trick; wait for a later trick where it plays second or later.
    let seen = play_until(
        &mut seat,
        |s| {
            s["legal"].as_array().is_some_and(|l| !l.is_empty())
                && !s["trick"].as_array().unwrap().is_empty()
        },
        &mut step,
    )
    .await;
    assert!(!seen.is_empty());
    let before = seat.state.clone();
    seat.close().await;
    let mut again = Session::connect(server.addr, &id, Some(&token))
        .await
        .unwrap();
    assert_eq!(without_presence(&again.state), without_presence(&before));
    // The seat shows as connected again.
    again
        .until(|s| s["table"]["seats"][0]["connected"] == true)
        .await
        .unwrap();
    let (_, list) = get(server.addr, "/api/tables").await;
    let summary = list
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == id.as_str())
        .unwrap()
        .clone();
    assert_eq!(summary["seats"][0]["connected"], true);
    let legal = again.state["legal"][0].as_str().unwrap().to_owned();
    again.act(&legal).await.unwrap();
    let after = again
        .until(|s| s["version"].as_u64() > before["version"].as_u64())
        .await
        .unwrap();
    assert!(
        after["trick"].as_array().unwrap().len() > before["trick"].as_array().unwrap().len()
            || after["tricks_completed"].as_u64() > before["tricks_completed"].as_u64()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_socket_messages_change_nothing() {
    let server = memory();
    let addr = server.addr;
    let (status, created) = post(addr, "/api/tables", json!({"name": "Aki", "seat": 1})).await;
    assert_eq!(status, 201);
    let id = created["id"].as_str().unwrap().to_owned();
    let host = created["token"].as_str().unwrap().to_owned();
    let (_, joined) = post(
        addr,
        &format!("/api/tables/{id}/join"),
        json!({"seat": 0, "name": "Ben"}),
    )
    .await;
    let ben = joined["token"].as_str().unwrap().to_owned();
    for s in [2, 3] {
        let (status, _) = post(
            addr,
            &format!("/api/tables/{id}/bot"),
            json!({"seat": s, "bot": "random", "token": host}),
        )
        .await;
        assert_eq!(status, 200);
    }
    let (status, _) = post(
        addr,
        &format!("/api/tables/{id}/start"),
        json!({"token": host}),
    )
    .await;
    assert_eq!(status, 200);
    let mut aki = Session::connect(addr, &id, Some(&host)).await.unwrap();
    let mut ben = Session::connect(addr, &id, Some(&ben)).await.unwrap();
    let mut watcher = Session::connect(addr, &id, None).await.unwrap();
    let state = ben.until(|s| s["to_act"] == 0).await.unwrap();
    let version = state["version"].as_u64().unwrap();
    let aki_state = aki
        .until(|s| s["version"].as_u64() == Some(version))
        .await
        .unwrap();
    let ben_card = state["hand"][0].as_str().unwrap().to_owned();
    let aki_card = aki_state["hand"][0].as_str().unwrap().to_owned();
    let ben_cards: CardSet = state["hand"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().parse::<Card>().unwrap())
        .collect();
    let foreign = aki_state["hand"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_owned())
        .find(|c| !ben_cards.contains(c.parse().unwrap()))
        .unwrap();

    // Each refusal is its English text, a code (`err-{code}` in the catalogs) and its
    // arguments.
    let bad: Vec<(String, &str)> = vec![
        ("not json".into(), "message-not-json"),
        ("[1,2]".into(), "message-no-type"),
        (json!({"type": "dance"}).to_string(), "message-unknown-type"),
        (json!({"action": ben_card}).to_string(), "message-no-type"),
        (
            json!({"type": "act", "action": ben_card}).to_string(),
            "message-no-version",
        ),
        (
            json!({"type": "act", "action": ben_card, "version": version + 5}).to_string(),
            "stale",
        ),
        (
            json!({"type": "act", "action": "ZZ", "version": version}).to_string(),
            "unknown-action",
        ),
        (
            json!({"type": "act", "action": "x".repeat(100), "version": version}).to_string(),
            "message-action-too-long",
        ),
        (
            json!({"type": "act", "action": foreign, "version": version}).to_string(),
            "not-in-hand",
        ),
        (
            json!({"type": "act", "action": "call:S", "version": version}).to_string(),
            "no-call",
        ),
        (
            json!({"type": "act", "action": 7, "version": version}).to_string(),
            "message-no-action",
        ),
    ];
    for (text, code) in &bad {
        ben.send_text(text).await.unwrap();
        let answer = answer(&mut ben).await;
        assert_eq!(answer["type"], "error", "{text} → {answer}");
        assert_eq!(answer["code"], *code, "{text} → {answer}");
        assert!(answer["args"].is_object(), "{text} → {answer}");
        assert!(answer["message"].as_str().is_some_and(|m| !m.is_empty()));
    }
    // A card from another hand: the terminal's message, with the card as its argument.
    ben.send_text(&json!({"type": "act", "action": foreign, "version": version}).to_string())
        .await
        .unwrap();
    assert_eq!(
        answer(&mut ben).await,
        json!({
            "type": "error",
            "message": format!("{foreign} is not in your hand"),
            "code": "not-in-hand",
            "args": {"card": foreign, "action": foreign},
        })
    );
    ben.send_text(&json!({"type": "act", "action": "ZZ", "version": version}).to_string())
        .await
        .unwrap();
    assert_eq!(answer(&mut ben).await["args"], json!({"action": "ZZ"}));
    // Out of turn: Aki is seat 1 and seat 0 is to act.
    aki.act(&aki_card).await.unwrap();
    let out_of_turn = answer(&mut aki).await;
    assert_eq!(out_of_turn["code"], "not-your-turn", "{out_of_turn}");
    assert_eq!(out_of_turn["args"], json!({"seat": "0"}));
    // A spectator cannot act.
    watcher
        .send_text(&json!({"type": "act", "action": ben_card, "version": version}).to_string())
        .await
        .unwrap();
    assert_eq!(answer(&mut watcher).await["code"], "spectator-cannot-act");
    // Ping is answered.
    ben.send_text(r#"{"type":"ping"}"#).await.unwrap();
    assert_eq!(answer(&mut ben).await["type"], "pong");
    // Nothing changed.
    let check = Session::connect(addr, &id, None).await.unwrap();
    assert_eq!(check.state["version"].as_u64(), Some(version));
    // An oversized message closes the socket, and changes nothing either.
    let huge =
        json!({"type": "act", "action": ben_card, "version": version, "pad": "x".repeat(5000)})
            .to_string();
    let _ = ben.send_text(&huge).await;
    let mut closed = false;
    for _ in 0..5 {
        match ben.next().await {
            Err(_) => {
                closed = true;
                break;
            }
            Ok(m) => assert!(
                m["type"] != "state" || m["version"].as_u64() == Some(version),
                "{m}"
            ),
        }
    }
    assert!(closed);
    let check = Session::connect(addr, &id, None).await.unwrap();
    assert_eq!(check.state["version"].as_u64(), Some(version));
    // The legal action still works from a new socket.
    let mut ben2 = Session::connect(addr, &id, Some(joined["token"].as_str().unwrap()))
        .await
        .unwrap();
    let legal = ben2.state["legal"][0].as_str().unwrap().to_owned();
    ben2.act(&legal).await.unwrap();
    ben2.until(|s| s["version"].as_u64() > Some(version))
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn host_replaces_an_absent_player_and_the_timer_plays_for_the_slow() {
    let config = Config {
        timer_unit: Duration::from_millis(10),
        replace_after: Duration::ZERO,
        ..Config::instant()
    };
    let server = Server::start("sqlite::memory:", config);
    let addr = server.addr;
    // Host in seat 0, a guest in seat 1 who never connects, bots elsewhere.
    let (_, created) = post(
        addr,
        "/api/tables",
        json!({"name": "Aki", "ruleset": {"base": "mini-misere-4", "deals": 1}}),
    )
    .await;
    let id = created["id"].as_str().unwrap().to_owned();
    let host = created["token"].as_str().unwrap().to_owned();
    let (_, guest) = post(
        addr,
        &format!("/api/tables/{id}/join"),
        json!({"seat": 1, "name": "Ben"}),
    )
    .await;
    let guest = guest["token"].as_str().unwrap().to_owned();
    for s in [2, 3] {
        post(
            addr,
            &format!("/api/tables/{id}/bot"),
            json!({"seat": s, "bot": "random", "token": host}),
        )
        .await;
    }
    post(
        addr,
        &format!("/api/tables/{id}/start"),
        json!({"token": host}),
    )
    .await;
    let mut aki = Session::connect(addr, &id, Some(&host)).await.unwrap();
    let mut step = 5;
    // Play until seat 1 (absent) is to act, then replace it.
    play_until(&mut aki, |s| s["to_act"] == 1, &mut step).await;
    let (status, _) = post(
        addr,
        &format!("/api/tables/{id}/bot"),
        json!({"seat": 1, "bot": "heuristic", "token": host}),
    )
    .await;
    assert_eq!(status, 200);
    let after = aki.until(|s| s["to_act"] != 1).await.unwrap();
    assert_eq!(after["table"]["seats"][1]["kind"], "bot");
    // The replaced player's token no longer acts for the seat.
    assert!(Session::connect(addr, &id, Some(&guest)).await.is_err());
    play_until(&mut aki, |s| s["finished"] == true, &mut step).await;

    // A table with a timer: the host never acts, a bot plays for it when time runs out.
    let (_, created) = post(
        addr,
        "/api/tables",
        json!({"name": "Aki", "ruleset": {"base": "mini-misere-4", "deals": 1}, "fill": "random", "start": true, "timer": 5}),
    )
    .await;
    let id = created["id"].as_str().unwrap().to_owned();
    let mut watcher = Session::connect(addr, &id, None).await.unwrap();
    watcher.until(|s| s["finished"] == true).await.unwrap();
    let (_, record) = get(addr, &format!("/api/tables/{id}/record")).await;
    torite_core::record::replay_value(&record).expect("replays");
}

/// A spectator that never reads and one that floods the table with messages: neither holds
/// the game up, and the flooder is cut off.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_and_flooding_clients_do_not_stall_a_table() {
    let server = memory();
    let addr = server.addr;
    let (id, token) = bot_table(addr, json!({"base": "mura-4", "deals": 2}), "random").await;
    // Sockets that never read a message.
    let mut idle = Vec::new();
    for _ in 0..5 {
        let (socket, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws/{id}"))
            .await
            .unwrap();
        idle.push(socket);
    }
    // A flooder: far more messages than allowed, as fast as it can. The first burst is
    // answered, the rest refused; going on gets it disconnected.
    let mut flooder = Session::connect(addr, &id, None).await.unwrap();
    for _ in 0..60 {
        flooder.send_text(r#"{"type":"ping"}"#).await.unwrap();
    }
    let mut refusals = 0;
    for _ in 0..60 {
        let m = answer(&mut flooder).await;
        if m["type"] == "error" {
            refusals += 1;
        }
    }
    let mut cut_off = false;
    for _ in 0..2000 {
        if flooder.send_text(r#"{"type":"ping"}"#).await.is_err() {
            cut_off = true;
            break;
        }
    }
    if !cut_off {
        // Read what the server sent until it closes the socket (it must within seconds).
        let closed = tokio::time::timeout(Duration::from_secs(10), async {
            loop {
                if let Err(e) = flooder.next().await {
                    return !e.contains("no message within");
                }
            }
        })
        .await;
        cut_off = closed == Ok(true);
    }
    assert!(refusals > 0, "the flooder was never told to slow down");
    assert!(cut_off, "the flooder was not disconnected");
    // The player finishes the game in good time all the same.
    let mut seat = Session::connect(addr, &id, Some(&token)).await.unwrap();
    let mut step = 23;
    let started = std::time::Instant::now();
    play_until(&mut seat, |s| s["finished"] == true, &mut step).await;
    assert!(started.elapsed() < Duration::from_secs(20));
    drop(idle);
}

/// A finished game's table leaves the lobby once nobody has it open, and after a restart only
/// its record is kept: the same record, served from the store.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finished_tables_are_let_go_and_their_records_kept() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite:{}", dir.path().join("torite.db").display());
    let config = Config {
        keep_finished: Duration::ZERO,
        ..Config::instant()
    };
    let server = Server::start(&db, config.clone());
    let (id, token) = bot_table(server.addr, json!({"base": "mura-3", "deals": 1}), "random").await;
    let (open_id, _) = bot_table(server.addr, json!("mura-3"), "random").await;
    let mut seat = Session::connect(server.addr, &id, Some(&token))
        .await
        .unwrap();
    let mut step = 29;
    play_until(&mut seat, |s| s["finished"] == true, &mut step).await;
    let (_, live_record) = get(server.addr, &format!("/api/tables/{id}/record")).await;
    seat.close().await;
    let mut gone = false;
    for _ in 0..100 {
        let (status, _) = get(server.addr, &format!("/api/tables/{id}")).await;
        if status == 404 {
            gone = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(gone, "the finished table stayed live");
    let (status, body) = get(server.addr, &format!("/api/tables/{id}")).await;
    assert_eq!(status, 404);
    assert_eq!(body["record"], format!("/api/tables/{id}/record"));
    let (status, kept) = get(server.addr, &format!("/api/tables/{id}/record")).await;
    assert_eq!(status, 200);
    assert_eq!(kept, live_record);
    server.kill();
    let server = Server::start(&db, config);
    let (_, list) = get(server.addr, "/api/tables").await;
    let ids: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["id"].as_str())
        .collect();
    assert!(
        ids.contains(&open_id.as_str()),
        "the unfinished table is back"
    );
    assert!(
        !ids.contains(&id.as_str()),
        "the finished table is not loaded again"
    );
    let (status, kept) = get(server.addr, &format!("/api/tables/{id}/record")).await;
    assert_eq!(status, 200);
    assert_eq!(kept, live_record);
    let report = torite_core::record::replay_value(&kept).unwrap().report;
    // The replay and the sheets are made from the kept record too.
    let (status, replay) = get(server.addr, &format!("/api/tables/{id}/replay")).await;
    assert_eq!(status, 200, "{replay}");
    check_replay(&replay, &kept, &report);
    let (status, _, pdf) =
        get_bytes(server.addr, &format!("/api/tables/{id}/sheet?format=pdf")).await;
    assert_eq!(status, 200);
    assert!(pdf.starts_with(b"%PDF"));
}

/// A table with a move timer tells everyone when the time of the person to act runs out; the
/// server's clock is at `/api/time`, for counting down.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_move_timer_deadline_is_in_every_state() {
    let server = memory();
    let addr = server.addr;
    let (status, body) = get(addr, "/api/time").await;
    assert_eq!(status, 200);
    assert!(
        body["now"].as_u64().unwrap().abs_diff(now_ms()) < 5_000,
        "{body}"
    );
    let (status, made) = post(
        addr,
        "/api/tables",
        json!({"name": "Aki", "fill": "random", "start": true, "timer": 60}),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().unwrap();
    let mut seat = Session::connect(addr, id, Some(made["token"].as_str().unwrap()))
        .await
        .unwrap();
    let mut spectator = Session::connect(addr, id, None).await.unwrap();
    let mine = seat
        .until(|s| s["legal"].as_array().is_some_and(|l| !l.is_empty()))
        .await
        .unwrap();
    let deadline = mine["deadline"]
        .as_u64()
        .expect("a deadline on a person's turn");
    let left = deadline.saturating_sub(now_ms());
    assert!((55_000..=60_500).contains(&left), "{left} ms left");
    let watched = spectator
        .until(|s| s["version"] == mine["version"])
        .await
        .unwrap();
    assert_eq!(watched["deadline"], mine["deadline"]);
    // Once the person has acted and a bot is to act, no timer runs.
    let version = mine["version"].as_u64().unwrap();
    let action = mine["legal"][0].as_str().unwrap().to_owned();
    seat.act(&action).await.unwrap();
    let next = seat
        .until(|s| s["version"].as_u64() > Some(version))
        .await
        .unwrap();
    if next["to_act"] != json!(0) {
        assert_eq!(next.get("deadline"), None, "{next}");
    }
    // Without a timer, no deadline.
    let (id, token) = bot_table(addr, json!("mini-misere-4"), "random").await;
    let mut seat = Session::connect(addr, &id, Some(&token)).await.unwrap();
    let mine = seat
        .until(|s| s["legal"].as_array().is_some_and(|l| !l.is_empty()))
        .await
        .unwrap();
    assert_eq!(mine.get("deadline"), None);
}

/// A seat playing as fast as it can against instant bots, far beyond the allowance for other
/// messages, is never told to slow down: an accepted action costs nothing. Actions the table
/// refuses still count, so a seat cannot flood with them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_playing_as_fast_as_it_can_is_never_told_to_slow_down() {
    let server = memory();
    let addr = server.addr;
    let (id, token) = bot_table(addr, json!({"base": "mura-4", "deals": 8}), "random").await;
    let mut seat = Session::connect(addr, &id, Some(&token)).await.unwrap();
    let mut played = 0;
    let mut answered = None;
    // The state that came with the welcome may already be this seat's turn.
    let mut msg = seat.state.clone();
    while msg["finished"] != true {
        assert_ne!(
            msg["type"], "error",
            "refused after {played} actions: {msg}"
        );
        let version = msg["version"].as_u64();
        if msg["type"] == "state"
            && answered != version
            && let Some(action) = msg["legal"].as_array().and_then(|l| l.first())
        {
            seat.act(action.as_str().unwrap()).await.unwrap();
            answered = version;
            played += 1;
        }
        msg = seat.next().await.unwrap();
    }
    // Far more than the burst, so the allowance was refunded for every one.
    assert!(played >= 40, "only {played} actions in eight deals");
    for _ in 0..40 {
        seat.act_at("AS", 0).await.unwrap();
    }
    let mut codes = Vec::new();
    for _ in 0..40 {
        codes.push(answer(&mut seat).await["code"].as_str().unwrap().to_owned());
    }
    assert!(codes.iter().any(|c| c == "stale"), "{codes:?}");
    assert!(codes.iter().any(|c| c == "too-many-messages"), "{codes:?}");
}

/// A client that expects no refusal hears of one at once, rather than waiting for a state that
/// never comes.
#[tokio::test]
async fn a_refusal_ends_a_wait_that_expects_none() {
    let server = memory();
    let (id, token) = bot_table(server.addr, json!("mura-4"), "random").await;
    let mut seat = Session::connect(server.addr, &id, Some(&token))
        .await
        .unwrap();
    seat.act_at("AS", 0).await.unwrap();
    let error = seat
        .until_unrefused(|s| s["finished"] == true)
        .await
        .unwrap_err();
    assert!(
        error.starts_with("the server refused: ") && error.contains("\"stale\""),
        "{error}"
    );
}
