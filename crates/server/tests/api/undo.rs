//! Undo: a seat takes back its last action, at once against bots, by request with people;
//! the log stays append-only, a restart replays the undo, and the record keeps only the
//! final sequence.

use super::*;

/// Sends an undo answering the latest state.
async fn undo(session: &mut Session) {
    let version = session.state["version"].as_u64().unwrap();
    let msg = json!({"type": "undo", "version": version});
    session.send_text(&msg.to_string()).await.unwrap();
}

/// Sends an answer to the waiting undo request.
async fn answer(session: &mut Session, accept: bool) {
    let msg = json!({"type": "undo_answer", "accept": accept});
    session.send_text(&msg.to_string()).await.unwrap();
}

/// The next error message's code.
async fn refused(session: &mut Session) -> String {
    loop {
        let msg = session.next().await.unwrap();
        if msg["type"] == "error" {
            return msg["code"].as_str().unwrap().to_owned();
        }
    }
}

/// The deal as the seat sees it: what an undo must give back exactly.
fn deal_view(state: &Value) -> Value {
    json!({
        "hand": state["hand"], "legal": state["legal"], "trick": state["trick"],
        "to_act": state["to_act"], "tricks_won": state["tricks_won"],
        "tricks_completed": state["tricks_completed"], "trump": state["trump"],
        "lot": state["lot"], "totals": state["totals"],
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undo_against_bots_survives_a_restart_and_the_record_keeps_the_final_sequence() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite:{}", dir.path().join("torite.db").display());
    let server = Server::start(&db, Config::instant());
    let (id, token) = bot_table(server.addr, json!({"base": "mura-3", "deals": 1}), "random").await;
    let mut seat = Session::connect(server.addr, &id, Some(&token))
        .await
        .unwrap();
    // Nothing of the seat's to undo before it has played.
    let first = seat
        .until(|s| s["legal"].as_array().is_some_and(|l| !l.is_empty()))
        .await
        .unwrap();
    assert!(first.get("may_undo").is_none(), "{first}");
    undo(&mut seat).await;
    assert_eq!(refused(&mut seat).await, "undo-nothing");
    // Two cards, the bots answering each, then both taken back one after the other.
    let mut before = Vec::new();
    for _ in 0..2 {
        let state = seat
            .until(|s| s["legal"].as_array().is_some_and(|l| !l.is_empty()))
            .await
            .unwrap();
        before.push(deal_view(&state));
        let card = state["legal"][0].as_str().unwrap().to_owned();
        seat.act(&card).await.unwrap();
        let v = state["version"].as_u64().unwrap();
        seat.until(|s| {
            s["version"].as_u64() > Some(v) && s["legal"].as_array().is_some_and(|l| !l.is_empty())
        })
        .await
        .unwrap();
        assert_eq!(seat.state["may_undo"], "now", "{}", seat.state);
    }
    for want in before.iter().rev() {
        let v = seat.state["version"].as_u64().unwrap();
        undo(&mut seat).await;
        let after = seat
            .until(|s| s["version"].as_u64() > Some(v))
            .await
            .unwrap();
        assert_eq!(&deal_view(&after), want);
    }
    // A stale undo is refused.
    let stale = json!({"type": "undo", "version": 1});
    seat.send_text(&stale.to_string()).await.unwrap();
    assert_eq!(refused(&mut seat).await, "stale");
    // Acknowledged undos survive kill -9: the log replays to the same position.
    let kept = deal_view(&seat.state);
    seat.close().await;
    server.kill();
    let server = Server::start(&db, Config::instant());
    let mut seat = Session::connect(server.addr, &id, Some(&token))
        .await
        .unwrap();
    assert_eq!(deal_view(&seat.state), kept);
    // Played to the end: the record holds each card once, the undone ones gone.
    let mut step = 5;
    play_until(&mut seat, |s| s["finished"] == true, &mut step).await;
    // Once the deal is scored nothing is undone.
    undo(&mut seat).await;
    assert_eq!(refused(&mut seat).await, "undo-not-now");
    let (status, record) = get(server.addr, &format!("/api/tables/{id}/record")).await;
    assert_eq!(status, 200);
    let deal = &record["deals"][0];
    let cards: usize = deal["hands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| match h {
            Value::String(h) => h.parse::<CardSet>().unwrap().len(),
            h => h.as_array().unwrap().len(),
        })
        .sum();
    assert_eq!(deal["actions"].as_array().unwrap().len(), cards, "{deal}");
    torite_core::record::replay_value(&record).unwrap();
}

/// Plays whoever of the two people is to act until `done` holds for `a`'s state; both
/// sessions then show the same version.
async fn play_two_until(
    a: &mut Session,
    b: &mut Session,
    mut done: impl FnMut(&Value, &Value) -> bool,
) {
    for _ in 0..200 {
        let v = a.state["version"].as_u64().max(b.state["version"].as_u64());
        a.until(|s| s["version"].as_u64() >= v).await.unwrap();
        b.until(|s| s["version"].as_u64() >= v).await.unwrap();
        if a.state["version"] != b.state["version"] {
            continue;
        }
        if done(&a.state, &b.state) {
            return;
        }
        if !a.my_turn() && !b.my_turn() {
            // The bots or the table's own steps are under way.
            let v = a.state["version"].as_u64();
            a.until(|s| s["version"].as_u64() > v).await.unwrap();
            continue;
        }
        let (mover, other) = if a.my_turn() {
            (&mut *a, &mut *b)
        } else {
            (&mut *b, &mut *a)
        };
        let v = mover.state["version"].as_u64();
        let card = mover.state["legal"][0].as_str().unwrap().to_owned();
        mover.act(&card).await.unwrap();
        mover.until(|s| s["version"].as_u64() > v).await.unwrap();
        other.until(|s| s["version"].as_u64() > v).await.unwrap();
    }
    panic!("the position was not reached");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_people_an_undo_is_a_request_each_other_person_answers() {
    let server = memory();
    let addr = server.addr;
    let (status, made) = post(
        addr,
        "/api/tables",
        json!({"ruleset": "mini-misere-4", "name": "Aki"}),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().unwrap().to_owned();
    let host = made["token"].as_str().unwrap().to_owned();
    let (_, ben) = post(
        addr,
        &format!("/api/tables/{id}/join"),
        json!({"seat": 1, "name": "Ben"}),
    )
    .await;
    let ben = ben["token"].as_str().unwrap().to_owned();
    for seat in [2, 3] {
        let (status, body) = post(
            addr,
            &format!("/api/tables/{id}/bot"),
            json!({"seat": seat, "bot": "random", "token": host}),
        )
        .await;
        assert_eq!(status, 200, "{body}");
    }
    let (status, body) = post(
        addr,
        &format!("/api/tables/{id}/start"),
        json!({"token": host}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let mut aki = Session::connect(addr, &id, Some(&host)).await.unwrap();
    let mut bob = Session::connect(addr, &id, Some(&ben)).await.unwrap();
    // A spectator may not undo.
    let mut watcher = Session::connect(addr, &id, None).await.unwrap();
    undo(&mut watcher).await;
    assert_eq!(refused(&mut watcher).await, "spectator-cannot-act");
    // Aki has just played and Ben is to act: Aki may ask.
    play_two_until(&mut aki, &mut bob, |a, b| {
        a["may_undo"] == "ask" && b["legal"].as_array().is_some_and(|l| !l.is_empty())
    })
    .await;
    let position = deal_view(&bob.state);
    // Ben may not take back Aki's card: his own undo has nothing of his since.
    if bob.state.get("may_undo").is_none() {
        undo(&mut bob).await;
        let code = refused(&mut bob).await;
        assert!(code == "undo-nothing" || code == "undo-too-late", "{code}");
    }
    // Aki asks; Ben declines; nothing changes.
    undo(&mut aki).await;
    let asked = bob.until(|s| s.get("undo").is_some()).await.unwrap();
    assert_eq!(asked["undo"], json!({"by": 0, "waiting": [1]}));
    undo(&mut aki).await;
    assert_eq!(refused(&mut aki).await, "undo-pending");
    // Only the people asked answer.
    answer(&mut watcher, true).await;
    assert_eq!(refused(&mut watcher).await, "spectator-cannot-act");
    answer(&mut bob, false).await;
    let declined = bob.until(|s| s.get("undo").is_none()).await.unwrap();
    assert_eq!(deal_view(&declined), position);
    answer(&mut bob, true).await;
    assert_eq!(refused(&mut bob).await, "undo-not-asked");
    // Asked again and accepted: Aki's card (and the bots' after it) are taken back.
    let v = aki.state["version"].as_u64();
    undo(&mut aki).await;
    bob.until(|s| s.get("undo").is_some()).await.unwrap();
    answer(&mut bob, true).await;
    let back = aki.until(|s| s["version"].as_u64() > v).await.unwrap();
    assert!(
        back["legal"].as_array().is_some_and(|l| !l.is_empty()),
        "Aki is to act again: {back}"
    );
    assert!(back.get("undo").is_none());
    // Once Ben has played after Aki's card, Aki may no longer ask.
    play_two_until(&mut aki, &mut bob, |a, _| {
        a.get("may_undo").is_none()
            && !a["legal"].as_array().unwrap().is_empty()
            && a["trick"].as_array().unwrap().len() >= 2
    })
    .await;
    undo(&mut aki).await;
    let code = refused(&mut aki).await;
    assert!(code == "undo-too-late" || code == "undo-nothing", "{code}");
}
