//! Player profiles against a real server: keys, kept seats reclaimed with the profile, the
//! statistics and the Glicko-2 ranking of finished games, and what survives `kill -9`.

use std::net::SocketAddr;

use serde_json::{Value, json};
use torite_server::Config;
use torite_server::client::{Session, raw};

#[path = "common/mod.rs"]
mod common;
use common::{Server, get, post};

/// A request with a profile key (`Authorization: Bearer`): the status and the JSON answer.
async fn with_key(
    addr: SocketAddr,
    method: &str,
    path: &str,
    key: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Authorization: Bearer {key}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let a = raw(addr, request.as_bytes()).await.expect("an answer");
    (a.status, a.json())
}

/// A new profile: its id and key.
async fn profile(addr: SocketAddr, name: &str) -> (String, String) {
    let (status, body) = post(addr, "/api/profiles", json!({"name": name})).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["name"], name);
    (
        body["id"].as_str().unwrap().to_owned(),
        body["key"].as_str().unwrap().to_owned(),
    )
}

async fn keep(addr: SocketAddr, key: &str, table: &str, token: &str) -> (u16, Value) {
    with_key(
        addr,
        "POST",
        &format!("/api/tables/{table}/profile"),
        key,
        Some(json!({"token": token})),
    )
    .await
}

async fn me(addr: SocketAddr, key: &str) -> Value {
    let (status, body) = with_key(addr, "GET", "/api/profiles/me", key, None).await;
    assert_eq!(status, 200, "{body}");
    body
}

/// A table of `ruleset` with a person in each seat, each seat kept with its profile; returns
/// the table id and each seat's token.
async fn people_table(addr: SocketAddr, ruleset: Value, keys: &[&str]) -> (String, Vec<String>) {
    let (status, made) = post(
        addr,
        "/api/tables",
        json!({"ruleset": ruleset, "name": "P0", "seed": 7}),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().unwrap().to_owned();
    let mut tokens = vec![made["token"].as_str().unwrap().to_owned()];
    for seat in 1..keys.len() {
        let (status, joined) = post(
            addr,
            &format!("/api/tables/{id}/join"),
            json!({"seat": seat, "name": format!("P{seat}")}),
        )
        .await;
        assert_eq!(status, 200, "{joined}");
        tokens.push(joined["token"].as_str().unwrap().to_owned());
    }
    for (key, token) in keys.iter().zip(&tokens) {
        let (status, body) = keep(addr, key, &id, token).await;
        assert_eq!(status, 200, "{body}");
    }
    (id, tokens)
}

/// Plays every person's seat of a started table to the end (the first legal action each
/// time, so the same table seed plays the same game).
async fn play_out(addr: SocketAddr, id: &str, tokens: &[String]) {
    let mut tasks = Vec::new();
    for token in tokens {
        let (id, token) = (id.to_owned(), token.clone());
        tasks.push(tokio::spawn(async move {
            let mut seat = Session::connect(addr, &id, Some(&token)).await.unwrap();
            let mut acted_on = None;
            while seat.state["finished"] != true {
                if seat.my_turn() && acted_on != seat.state["version"].as_u64() {
                    acted_on = seat.state["version"].as_u64();
                    let first = seat.state["legal"][0].as_str().unwrap().to_owned();
                    seat.act(&first).await.unwrap();
                }
                let msg = seat.next().await.unwrap();
                assert_ne!(msg["type"], "error", "{msg}");
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
}

async fn start(addr: SocketAddr, id: &str, host: &str) {
    let (status, body) = post(
        addr,
        &format!("/api/tables/{id}/start"),
        json!({"token": host}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
}

/// The totals and winners of a finished table, by its replay.
async fn outcome(addr: SocketAddr, id: &str) -> (Vec<i64>, Vec<u64>, Vec<i64>) {
    let (status, replay) = get(addr, &format!("/api/tables/{id}/replay")).await;
    assert_eq!(status, 200, "{replay}");
    let deals = replay["deals"].as_array().unwrap();
    let totals = deals.last().unwrap()["totals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_i64().unwrap())
        .collect();
    let winners = replay["winners"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_u64().unwrap())
        .collect();
    let first_scores = deals[0]["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_i64().unwrap())
        .collect();
    (totals, winners, first_scores)
}

#[tokio::test]
async fn a_forged_or_missing_key_is_refused() {
    let server = Server::start("sqlite::memory:", Config::instant());
    let addr = server.addr;
    let (id, key) = profile(addr, "Aki").await;
    let (status, body) = get(addr, "/api/profiles/me").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (403, Some("profile-key-needed")),
        "{body}"
    );
    let (kid, secret) = key.split_once('.').unwrap();
    let flipped: String = secret
        .chars()
        .map(|c| if c == '0' { '1' } else { '0' })
        .collect();
    let (other_id, other_key) = profile(addr, "Ben").await;
    let other_secret = other_key.split_once('.').unwrap().1;
    for forged in [
        format!("{kid}.{flipped}"),
        format!("{kid}.{other_secret}"),
        format!("{other_id}.{secret}"),
        "0123456789abcdef.0123456789abcdef0123456789abcdef".to_owned(),
        "not-a-key".to_owned(),
        String::new(),
    ] {
        let (status, body) = with_key(addr, "GET", "/api/profiles/me", &forged, None).await;
        assert_eq!(status, 403, "{forged}: {body}");
        assert!(
            matches!(
                body["code"].as_str(),
                Some("profile-key" | "profile-key-needed")
            ),
            "{body}"
        );
        assert!(
            body["error"].as_str().unwrap().contains("profile"),
            "{body}"
        );
    }
    let mine = me(addr, &key).await;
    assert_eq!(
        (mine["id"].as_str(), mine["name"].as_str()),
        (Some(id.as_str()), Some("Aki"))
    );
    assert_eq!(mine["games"], json!([]));
    // The name changes with the key only, and is checked as a table's.
    let (status, body) = post(addr, "/api/profiles/me", json!({"name": "Akiko"})).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (403, Some("profile-key-needed")),
        "{body}"
    );
    let rename = |name: &str| json!({ "name": name });
    let (status, body) = with_key(addr, "POST", "/api/profiles/me", &key, Some(rename(""))).await;
    assert_eq!(status, 400, "{body}");
    let (status, body) = with_key(
        addr,
        "POST",
        "/api/profiles/me",
        &key,
        Some(rename("Akiko")),
    )
    .await;
    assert_eq!(
        (status, body["name"].as_str()),
        (200, Some("Akiko")),
        "{body}"
    );
    assert_eq!(me(addr, &key).await["name"], "Akiko");
    // A bad name is refused as a table's is.
    let (status, body) = post(addr, "/api/profiles", json!({"name": ""})).await;
    assert_eq!(status, 400, "{body}");
    let (status, body) = post(addr, "/api/profiles", json!({})).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("name-needed")),
        "{body}"
    );
    // A token that holds no seat is not kept; a seat is kept by one profile only.
    let (status, made) = post(
        addr,
        "/api/tables",
        json!({"name": "Aki", "ruleset": "mura-3"}),
    )
    .await;
    assert_eq!(status, 201);
    let table = made["id"].as_str().unwrap();
    let token = made["token"].as_str().unwrap();
    let (status, body) = keep(addr, &key, table, &"0".repeat(32)).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (403, Some("profile-no-seat")),
        "{body}"
    );
    let (status, body) = keep(addr, &key, table, token).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = keep(addr, &other_key, table, token).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("profile-seat-taken")),
        "{body}"
    );
    let (status, body) = keep(addr, &key, "nosuchtable", token).await;
    assert_eq!(status, 404, "{body}");
    // Unknown profiles and presets.
    let (status, body) = get(addr, "/api/profiles/0123456789abcdef/stats").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (404, Some("no-profile")),
        "{body}"
    );
    let (status, body) = get(addr, "/api/ranking?preset=poker").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (404, Some("no-preset")),
        "{body}"
    );
}

/// Two games between three profiles and one with a bot: the statistics are those of the
/// games' replays; the ranking takes the games between people only.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn statistics_and_ranking_of_finished_games() {
    let server = Server::start("sqlite::memory:", Config::instant());
    let addr = server.addr;
    let mut people = Vec::new();
    for name in ["Aki", "Ben", "Chie"] {
        people.push(profile(addr, name).await);
    }
    let keys: Vec<&str> = people.iter().map(|(_, k)| k.as_str()).collect();
    let rules = json!({"base": "mura-3", "deals": 1});
    let mut games = Vec::new();
    for order in [[0, 1, 2], [2, 0, 1]] {
        let seated: Vec<&str> = order.iter().map(|i| keys[*i]).collect();
        let (id, tokens) = people_table(addr, rules.clone(), &seated).await;
        start(addr, &id, &tokens[0]).await;
        play_out(addr, &id, &tokens).await;
        let result = outcome(addr, &id).await;
        games.push((id, order, result));
    }
    // Aki against two bots.
    let (status, made) = post(
        addr,
        "/api/tables",
        json!({"ruleset": rules, "name": "Aki", "fill": "random", "seed": 3}),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let bot_table = made["id"].as_str().unwrap().to_owned();
    let host = made["token"].as_str().unwrap().to_owned();
    assert_eq!(keep(addr, keys[0], &bot_table, &host).await.0, 200);
    start(addr, &bot_table, &host).await;
    play_out(addr, &bot_table, std::slice::from_ref(&host)).await;
    let bot_game = outcome(addr, &bot_table).await;

    // My games: each finished, with the seat's own token.
    let aki = me(addr, keys[0]).await;
    let listed = aki["games"].as_array().unwrap();
    assert_eq!(listed.len(), 3, "{aki}");
    assert!(listed.iter().all(|g| g["status"] == "finished"), "{aki}");
    assert!(
        listed
            .iter()
            .any(|g| g["table"] == bot_table.as_str() && g["token"] == host.as_str())
    );

    // The statistics, from the replays.
    for (p, (pid, _)) in people.iter().enumerate() {
        let (status, stats) = get(addr, &format!("/api/profiles/{pid}/stats")).await;
        assert_eq!(status, 200, "{stats}");
        let s = &stats["presets"][0];
        assert_eq!(s["preset"], "mura-3");
        let mut wins = 0;
        let mut sum = 0;
        for (_, order, (_, winners, scores)) in &games {
            let seat = order.iter().position(|o| *o == p).unwrap();
            wins += u64::from(winners.contains(&(seat as u64)));
            sum += scores[seat];
        }
        assert_eq!(s["people"]["games"], 2, "{stats}");
        assert_eq!(s["people"]["wins"], wins, "{stats}");
        assert_eq!(s["people"]["deals"], 2);
        assert_eq!(
            s["people"]["average"].as_f64(),
            Some(sum as f64 / 2.0),
            "{stats}"
        );
        if p == 0 {
            let (_, winners, scores) = &bot_game;
            assert_eq!(s["bots"]["games"], 1, "{stats}");
            assert_eq!(s["bots"]["wins"], u64::from(winners.contains(&0)));
            assert_eq!(s["bots"]["average"].as_f64(), Some(scores[0] as f64));
            assert_eq!(s["all"]["games"], 3);
        } else {
            assert_eq!(s["bots"]["games"], 0);
            assert_eq!(s["bots"]["average"], Value::Null);
        }
        assert_eq!(s["rating"]["of"], 3, "{stats}");
    }

    // The ranking: two games, three players, best first, each with two games.
    let (status, ranking) = get(addr, "/api/ranking").await;
    assert_eq!(status, 200, "{ranking}");
    let presets = ranking["presets"].as_array().unwrap();
    assert_eq!(presets.len(), 1, "{ranking}");
    assert_eq!(presets[0]["games"], 2);
    let players = presets[0]["players"].as_array().unwrap();
    assert_eq!(players.len(), 3);
    assert!(players.iter().all(|p| p["games"] == 2), "{ranking}");
    let ratings: Vec<f64> = players
        .iter()
        .map(|p| p["rating"].as_f64().unwrap())
        .collect();
    assert!(ratings.windows(2).all(|w| w[0] >= w[1]), "{ratings:?}");
    let total_wins: u64 = players.iter().map(|p| p["wins"].as_u64().unwrap()).sum();
    let game_wins: usize = games.iter().map(|(_, _, (_, w, _))| w.len()).sum();
    assert_eq!(total_wins, game_wins as u64);
    // The best has won at least as often as the last.
    assert!(
        players[0]["wins"].as_u64() >= players[2]["wins"].as_u64(),
        "{ranking}"
    );
    let (status, one) = get(addr, "/api/ranking?preset=mura-3").await;
    assert_eq!(status, 200);
    assert_eq!(one["presets"][0], presets[0]);
    let (status, none) = get(addr, "/api/ranking?preset=mura-4").await;
    assert_eq!(status, 200);
    assert_eq!(none["presets"][0]["players"], json!([]));
}

#[tokio::test]
async fn a_link_is_drawn_as_a_qr_code() {
    let server = Server::start("sqlite::memory:", Config::instant());
    let a = torite_server::client::request(
        server.addr,
        "POST",
        "/api/qr",
        Some(&json!({"text": "http://club.example/profile/move#key=abc"})),
    )
    .await
    .unwrap();
    assert_eq!(a.status, 200);
    assert_eq!(a.header("content-type"), Some("image/svg+xml"));
    assert!(
        a.body.contains("<svg") && a.body.contains("<path"),
        "{}",
        a.body
    );
    for text in [
        json!("not a link"),
        json!("http://".to_owned() + &"x".repeat(600)),
        json!(3),
    ] {
        let (status, body) = post(server.addr, "/api/qr", json!({"text": text})).await;
        assert_eq!(
            (status, body["code"].as_str()),
            (400, Some("qr-text")),
            "{body}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn profiles_survive_kill() {
    let dir = std::env::temp_dir().join(format!("torite-profiles-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = format!("sqlite:{}", dir.join("t.db").display());
    survive_kill(&db).await;
    std::fs::remove_dir_all(&dir).ok();
}

/// As [`profiles_survive_kill`], on the PostgreSQL database named by `TORITE_TEST_POSTGRES`
/// (ignored by a plain `cargo test`; `.ci/run`'s PostgreSQL stage runs it with `--ignored`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: .ci/run starts one; by hand, set TORITE_TEST_POSTGRES and pass --ignored"]
async fn profiles_survive_kill_on_postgres() {
    let url = std::env::var("TORITE_TEST_POSTGRES")
        .ok()
        .filter(|u| !u.is_empty())
        .expect(
            "TORITE_TEST_POSTGRES must name a PostgreSQL database (postgres://user@host:port/db)",
        );
    survive_kill(&url).await;
}

/// A profile and its kept seat, acknowledged, survive a kill; after it the profile reclaims
/// the seat with the token it opens, and its finished game is counted.
async fn survive_kill(db: &str) {
    let server = Server::start(db, Config::instant());
    let (id, key) = profile(server.addr, "Aki").await;
    let (status, made) = post(
        server.addr,
        "/api/tables",
        json!({"ruleset": {"base": "mura-3", "deals": 1}, "name": "Aki", "fill": "random"}),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let table = made["id"].as_str().unwrap().to_owned();
    let token = made["token"].as_str().unwrap().to_owned();
    assert_eq!(keep(server.addr, &key, &table, &token).await.0, 200);
    // Kept again (the same seat) it stays; another profile cannot take it.
    assert_eq!(keep(server.addr, &key, &table, &token).await.0, 200);
    let (_, other) = profile(server.addr, "Ben").await;
    let (status, body) = keep(server.addr, &other, &table, &token).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("profile-seat-taken")),
        "{body}"
    );
    server.kill();
    let server = Server::start(db, Config::instant());
    let mine = me(server.addr, &key).await;
    assert_eq!(mine["id"], id.as_str());
    let game = &mine["games"][0];
    assert_eq!(game["table"], table.as_str());
    assert_eq!(game["token"], token.as_str());
    assert_eq!(game["status"], "open");
    // The token opened from the profile is the seat's: it starts and plays the game.
    let reclaimed = game["token"].as_str().unwrap().to_owned();
    let seat = Session::connect(server.addr, &table, Some(&reclaimed))
        .await
        .unwrap();
    assert_eq!(seat.state["seat"], 0, "{}", seat.state);
    start(server.addr, &table, &reclaimed).await;
    play_out(server.addr, &table, &[reclaimed]).await;
    let (_, stats) = get(server.addr, &format!("/api/profiles/{id}/stats")).await;
    assert_eq!(stats["presets"][0]["bots"]["games"], 1, "{stats}");
    server.kill();
    let server = Server::start(db, Config::instant());
    let (_, stats) = get(server.addr, &format!("/api/profiles/{id}/stats")).await;
    assert_eq!(stats["presets"][0]["all"]["games"], 1, "{stats}");
    assert_eq!(
        me(server.addr, &key).await["games"][0]["status"],
        "finished"
    );
}

/// A table let go unstarted is "gone" in my games and counts for nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_let_go_unstarted_is_gone() {
    let config = Config {
        expire_open: std::time::Duration::from_millis(200),
        ..Config::instant()
    };
    let server = Server::start("sqlite::memory:", config);
    let (id, key) = profile(server.addr, "Aki").await;
    let (status, made) = post(
        server.addr,
        "/api/tables",
        json!({"ruleset": "mura-3", "name": "Aki"}),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let table = made["id"].as_str().unwrap();
    let token = made["token"].as_str().unwrap();
    assert_eq!(keep(server.addr, &key, table, token).await.0, 200);
    assert_eq!(me(server.addr, &key).await["games"][0]["status"], "open");
    let mut status = Value::Null;
    for _ in 0..100 {
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        status = me(server.addr, &key).await["games"][0]["status"].clone();
        if status == "gone" {
            break;
        }
    }
    assert_eq!(status, "gone");
    let (_, stats) = get(server.addr, &format!("/api/profiles/{id}/stats")).await;
    assert_eq!(stats["presets"], json!([]), "{stats}");
}
