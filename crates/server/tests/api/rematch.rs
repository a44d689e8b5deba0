//! Rematches: at game over one person asks, the next table has the same rules, bots and host,
//! each person's seat kept for them until they accept with the token they played with; it
//! starts once all are back; a series keeps its games' results, across `kill -9` too.

use super::*;

/// A one-deal Mura table for three with a move timer: Aki (host, seat 0), Ben (seat 1), a bot
/// in seat 2. Returns its id and both tokens.
async fn table(addr: SocketAddr, private: bool) -> (String, String, String, Option<String>) {
    let (status, made) = post(
        addr,
        "/api/tables",
        json!({"ruleset": {"base": "mura-3", "deals": 1}, "name": "Aki", "timer": 60, "private": private}),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().unwrap().to_owned();
    let key = made["key"].as_str().map(str::to_owned);
    let q = key.as_ref().map_or(String::new(), |k| format!("?key={k}"));
    let (_, ben) = post(
        addr,
        &format!("/api/tables/{id}/join{q}"),
        json!({"seat": 1, "name": "Ben"}),
    )
    .await;
    for (path, body) in [
        (
            "bot",
            json!({"seat": 2, "bot": "random", "token": made["token"]}),
        ),
        ("start", json!({"token": made["token"]})),
    ] {
        let (status, answer) = post(addr, &format!("/api/tables/{id}/{path}{q}"), body).await;
        assert_eq!(status, 200, "{answer}");
    }
    (
        id,
        made["token"].as_str().unwrap().to_owned(),
        ben["token"].as_str().unwrap().to_owned(),
        key,
    )
}

/// Plays both people's seats of `id` to the end; returns Aki's last state.
async fn finish(addr: SocketAddr, id: &str, aki: &str, ben: &str) -> Value {
    let mut seats = [
        Session::connect(addr, id, Some(aki)).await.unwrap(),
        Session::connect(addr, id, Some(ben)).await.unwrap(),
    ];
    let mut step = 11;
    for _ in 0..5000 {
        for seat in &mut seats {
            // Take in every message so far: each seat acts on the latest state.
            while let Ok(Ok(_)) = tokio::time::timeout(Duration::from_millis(5), seat.next()).await
            {
            }
        }
        if seats[0].state["finished"] == true {
            let last = seats[0].state.clone();
            for seat in seats {
                seat.close().await;
            }
            return last;
        }
        for seat in &mut seats {
            if seat.my_turn() {
                let legal = seat.state["legal"].as_array().unwrap().clone();
                seat.act(&pick(&legal, &mut step)).await.unwrap();
            }
        }
    }
    panic!("the game did not end");
}

fn config() -> Config {
    Config::instant()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_keeps_the_seats_and_the_series() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite:{}", dir.path().join("torite.db").display());
    rematch_over(&db).await;
}

/// The same against PostgreSQL (`TORITE_TEST_POSTGRES`; see `kill_and_restart_on_postgres`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: .ci/run starts one; by hand, set TORITE_TEST_POSTGRES and pass --ignored"]
async fn rematch_on_postgres() {
    let url = std::env::var("TORITE_TEST_POSTGRES")
        .ok()
        .filter(|u| !u.is_empty())
        .expect(
            "TORITE_TEST_POSTGRES must name a PostgreSQL database (postgres://user@host:port/db)",
        );
    rematch_over(&url).await;
}

async fn rematch_over(db: &str) {
    let server = Server::start(db, config());
    let addr = server.addr;
    let (id, aki, ben, _) = table(addr, false).await;
    let (status, early) = post(
        addr,
        &format!("/api/tables/{id}/rematch"),
        json!({"token": ben}),
    )
    .await;
    assert_eq!(status, 409, "{early}");
    assert_eq!(early["code"], "rematch-not-yet");
    let first = finish(addr, &id, &aki, &ben).await;

    // Ben asks: the rematch is created with Ben back in seat 1 and the bot in seat 2.
    let (status, answer) = post(
        addr,
        &format!("/api/tables/{id}/rematch"),
        json!({"token": ben}),
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    let next = answer["id"].as_str().unwrap().to_owned();
    assert_eq!(answer["seat"], 1);
    assert_ne!(next, id);
    let (_, summary) = get(addr, &format!("/api/tables/{next}")).await;
    assert_eq!(summary["status"], "open");
    assert_eq!(summary["ruleset"], first["table"]["ruleset"]);
    assert_eq!(summary["timer"], 60);
    let kinds: Vec<&str> = summary["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["empty", "human", "bot"]);
    // The finished table tells everyone where its rematch is.
    let watcher = Session::connect(addr, &id, None).await.unwrap();
    assert_eq!(watcher.state["next"], next.as_str());
    // Aki's seat is kept for Aki; someone else may not ask or take it.
    let (status, refused) = post(
        addr,
        &format!("/api/tables/{next}/join"),
        json!({"seat": 0, "name": "Mallory"}),
    )
    .await;
    assert_eq!(status, 409, "{refused}");
    assert_eq!(refused["code"], "seat-reserved");
    let (status, refused) = post(
        addr,
        &format!("/api/tables/{id}/rematch"),
        json!({"token": "0".repeat(32)}),
    )
    .await;
    assert_eq!(status, 403);
    assert_eq!(refused["code"], "rematch-no-seat");
    // Ben asking again changes nothing.
    let (_, again) = post(
        addr,
        &format!("/api/tables/{id}/rematch"),
        json!({"token": ben}),
    )
    .await;
    assert_eq!(again["id"], next.as_str());

    // Aki accepts: the game starts with the same tokens, and shows the series so far.
    let (status, answer) = post(
        addr,
        &format!("/api/tables/{id}/rematch"),
        json!({"token": aki}),
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer, json!({"id": next, "seat": 0}));
    let seat = Session::connect(addr, &next, Some(&aki)).await.unwrap();
    assert_eq!(seat.welcome["host"], true, "the host is the host again");
    assert_eq!(seat.state["started"], true);
    assert_eq!(
        seat.state["series"],
        json!([{"table": id, "totals": first["totals"], "winners": first["winners"]}])
    );
    seat.close().await;

    // kill -9: the rematch comes back as it was, series and all, and plays to its end.
    server.kill();
    let server = Server::start(db, config());
    let addr = server.addr;
    let second = finish(addr, &next, &aki, &ben).await;
    assert_eq!(second["series"].as_array().unwrap().len(), 1);
    let (status, answer) = post(
        addr,
        &format!("/api/tables/{next}/rematch"),
        json!({"token": aki}),
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    let third = answer["id"].as_str().unwrap().to_owned();
    let (_, answer) = post(
        addr,
        &format!("/api/tables/{next}/rematch"),
        json!({"token": ben}),
    )
    .await;
    assert_eq!(answer["id"], third.as_str());
    let seat = Session::connect(addr, &third, Some(&ben)).await.unwrap();
    let series = seat.state["series"].as_array().unwrap().clone();
    assert_eq!(series.len(), 2);
    assert_eq!(series[1]["table"], next.as_str());
    assert_eq!(series[1]["totals"], second["totals"]);
    seat.close().await;
    server.kill();
}

/// A private table's rematch is as private, with the same secret.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_private_tables_rematch_is_private() {
    let server = Server::start("sqlite::memory:", config());
    let addr = server.addr;
    let (id, aki, ben, key) = table(addr, true).await;
    let key = key.unwrap();
    finish(addr, &id, &aki, &ben).await;
    let (status, answer) = post(
        addr,
        &format!("/api/tables/{id}/rematch?key={key}"),
        json!({"token": aki}),
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    let next = answer["id"].as_str().unwrap();
    let (_, list) = get(addr, "/api/tables").await;
    assert!(!list.to_string().contains(next));
    let (status, _) = get(addr, &format!("/api/tables/{next}")).await;
    assert_eq!(status, 404);
    let (status, _) = get(addr, &format!("/api/tables/{next}?key={key}")).await;
    assert_eq!(status, 200);
}
