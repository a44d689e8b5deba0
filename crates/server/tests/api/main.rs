//! Integration tests of the HTTP and WebSocket API against a real server on 127.0.0.1.

use std::net::SocketAddr;
use std::time::Duration;

use serde_json::{Value, json};
use torite_core::{Action, Card, CardSet, Suit, Trump};
use torite_server::Config;
use torite_server::client::{Session, request};

mod analysis;
mod chat;
#[path = "../common/mod.rs"]
mod common;
mod http;
mod private;
mod rematch;
mod scoresheets;
mod tables;
mod undo;
use common::{Server, get, post};

fn memory() -> Server {
    Server::start("sqlite::memory:", Config::instant())
}

/// Creates a table with the host in seat 0 and `bot` in every other seat, and starts it.
async fn bot_table(addr: SocketAddr, ruleset: Value, bot: &str) -> (String, String) {
    let (status, body) = post(
        addr,
        "/api/tables",
        json!({"ruleset": ruleset, "name": "Aki", "fill": bot, "start": true}),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    (
        body["id"].as_str().unwrap().to_owned(),
        body["token"].as_str().unwrap().to_owned(),
    )
}

/// A small deterministic choice among the legal actions.
fn pick(legal: &[Value], step: &mut u64) -> String {
    *step = step
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    legal[(*step >> 33) as usize % legal.len()]
        .as_str()
        .unwrap()
        .to_owned()
}

/// Plays `session`'s seat until `done` holds, answering with varied legal actions; returns
/// every message received.
async fn play_until(
    session: &mut Session,
    mut done: impl FnMut(&Value) -> bool,
    step: &mut u64,
) -> Vec<Value> {
    let mut seen = vec![session.state.clone()];
    let mut acted_on = None;
    loop {
        if done(&session.state) {
            return seen;
        }
        // Act once per version: a state can come again unchanged (someone connected).
        if session.my_turn() && acted_on != session.state["version"].as_u64() {
            acted_on = session.state["version"].as_u64();
            let legal = session.state["legal"].as_array().unwrap().clone();
            let action = pick(&legal, step);
            session.act(&action).await.unwrap();
        }
        let msg = session.next().await.unwrap();
        assert_ne!(msg["type"], "error", "{msg}");
        seen.push(msg);
    }
}

/// A state without the lobby summary, whose `connected` flags change with every socket.
fn without_presence(state: &Value) -> Value {
    let mut state = state.clone();
    state.as_object_mut().unwrap().remove("table");
    state
}

/// The next message that is not a state.
async fn answer(session: &mut Session) -> Value {
    loop {
        let msg = session.next().await.unwrap();
        if msg["type"] != "state" {
            return msg;
        }
    }
}

fn cards_in(value: &Value, out: &mut Vec<Card>) {
    match value {
        Value::String(s) => {
            if let Ok(card) = s.parse::<Card>() {
                out.push(card);
            }
        }
        Value::Array(a) => a.iter().for_each(|v| cards_in(v, out)),
        Value::Object(o) => o.values().for_each(|v| cards_in(v, out)),
        _ => {}
    }
}

/// Checks that `msg`, sent to `seat` (`None`: a spectator), names no card that another seat
/// still held at that moment, and that its `hand` is exactly the seat's cards. The true hands
/// come from the finished game's record.
fn check_hidden(msg: &Value, seat: Option<usize>, record: &Value) {
    if msg["type"] != "state" || msg["deal"].is_null() {
        let mut cards = Vec::new();
        cards_in(msg, &mut cards);
        assert!(cards.is_empty() || msg["type"] == "state", "{msg}");
        return;
    }
    let deal = &record["deals"][msg["deal"].as_u64().unwrap() as usize];
    let n = msg["players"].as_u64().unwrap() as usize;
    let played = msg["tricks_completed"].as_u64().unwrap() as usize * n
        + msg["trick"].as_array().unwrap().len();
    let plays: Vec<Card> = deal["actions"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|a| match a.as_str()?.parse::<Action>().ok()? {
            Action::Play(c) => Some(c),
            _ => None,
        })
        .take(played)
        .collect();
    let played: CardSet = plays.into_iter().collect();
    let held: Vec<CardSet> = deal["hands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            let initial: CardSet = h
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap().parse::<Card>().unwrap())
                .collect();
            initial - played
        })
        .collect();
    let mut named = Vec::new();
    let mut public = msg.clone();
    if let Some(s) = seat {
        let hand: CardSet = msg["hand"]
            .as_array()
            .expect("a seat's state has its hand")
            .iter()
            .map(|c| c.as_str().unwrap().parse::<Card>().unwrap())
            .collect();
        assert_eq!(hand, held[s], "seat {s}'s hand in {msg}");
        // In the order people see a hand: the trump suit in its trump order once set.
        let rules = torite_core::Ruleset::from_json(&record["ruleset"]).expect("its rules");
        let trump = match msg["trump"].as_str() {
            None => Trump::None,
            Some("JK") => Trump::JokerOnly,
            Some(letter) => letter
                .chars()
                .next()
                .and_then(Suit::from_letter)
                .map_or(Trump::None, Trump::Suit),
        };
        let order: Vec<String> = torite_i18n::present::hand_order(&rules, trump, hand)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(msg["hand"], json!(order), "seat {s}'s hand order in {msg}");
        public.as_object_mut().unwrap().remove("hand");
        public.as_object_mut().unwrap().remove("legal");
    } else {
        assert!(msg.get("hand").is_none(), "a spectator got a hand: {msg}");
        assert_eq!(msg["legal"], json!([]));
    }
    cards_in(&public, &mut named);
    for card in named {
        for (t, hidden) in held.iter().enumerate() {
            assert!(
                !hidden.contains(card),
                "{card} (held by seat {t}) reached {seat:?}: {msg}"
            );
        }
    }
}

/// Checks a replay (`GET /api/tables/{id}/replay`) against the record it comes from and the
/// record's replay report.
fn check_replay(replay: &Value, record: &Value, report: &torite_core::Report) {
    assert_eq!(replay["players"], record["players"]);
    let deals = replay["deals"].as_array().unwrap();
    assert_eq!(deals.len(), report.deals.len());
    for (i, (deal, expected)) in deals.iter().zip(&report.deals).enumerate() {
        let kept = &record["deals"][i];
        assert_eq!(deal["dealer"], kept["dealer"]);
        // The same hands (in display order) and the same actions.
        for (shown, dealt) in deal["hands"]
            .as_array()
            .unwrap()
            .iter()
            .zip(kept["hands"].as_array().unwrap())
        {
            let mut a: Vec<&str> = shown
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap())
                .collect();
            let mut b: Vec<&str> = dealt
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap())
                .collect();
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b);
        }
        let steps = deal["steps"].as_array().unwrap();
        let actions: Vec<&Value> = steps.iter().map(|s| &s["action"]).collect();
        let kept_actions: Vec<&Value> = kept["actions"].as_array().unwrap().iter().collect();
        assert_eq!(actions, kept_actions);
        // Each completed trick's winner, on the step that completed it.
        let winners: Vec<u64> = steps.iter().filter_map(|s| s["winner"].as_u64()).collect();
        let expected_winners: Vec<u64> = expected
            .tricks
            .iter()
            .filter_map(|t| t.winner.map(|w| w as u64))
            .collect();
        assert_eq!(winners, expected_winners, "deal {i}");
        assert_eq!(deal["tricks"].as_array().unwrap().len(), winners.len());
        for (shown, t) in deal["tricks"]
            .as_array()
            .unwrap()
            .iter()
            .zip(&expected.tricks)
        {
            assert_eq!(shown["cards"], json!(t.cards));
            assert_eq!(shown["leader"], json!(t.leader));
        }
        assert_eq!(deal["scores"], json!(expected.scores));
        assert_eq!(deal["totals"], json!(expected.totals));
        assert_eq!(deal["rule"], json!(expected.rule));
        assert_eq!(deal["tricks_won"], json!(expected.tricks_won));
        assert_eq!(deal["trump"], json!(expected.trump));
        assert_eq!(
            deal["lot"].get("declarers").cloned().unwrap_or(Value::Null),
            expected
                .lot
                .as_ref()
                .map_or(Value::Null, |l| json!(l.declarers))
        );
        let last = steps.last().unwrap();
        assert_eq!(last["to_act"], Value::Null);
        assert_eq!(last["tricks_won"], json!(expected.tricks_won));
    }
    assert_eq!(replay["winners"], json!(report.winners));
    assert_eq!(
        replay["totals"],
        json!(report.deals.last().unwrap().totals.clone().unwrap())
    );
}

/// Reads a whole answer as bytes with its headers (the PDF sheets are binary).
async fn get_bytes(addr: SocketAddr, path: &str) -> (u16, Vec<(String, String)>, Vec<u8>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut bytes = Vec::new();
    tokio::time::timeout(Duration::from_secs(30), stream.read_to_end(&mut bytes))
        .await
        .unwrap()
        .unwrap();
    let split = bytes
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("an HTTP answer");
    let head = String::from_utf8_lossy(&bytes[..split]).into_owned();
    let body = bytes[split + 4..].to_vec();
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    assert!(
        !head
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked"),
        "{head}"
    );
    (status, headers, body)
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> &'a str {
    headers
        .iter()
        .find(|(k, _)| k == name)
        .map_or("", |(_, v)| v.as_str())
}

/// The server is stopped dead (every task dropped at once) in the middle of a game, over and
/// over; each restart from the same SQLite file resumes exactly the state last shown.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_and_restart_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite:{}", dir.path().join("torite.db").display());
    kill_and_restart(&db).await;
}

/// The same against PostgreSQL, in the database that `TORITE_TEST_POSTGRES` names. Ignored by
/// a plain `cargo test` (it needs a server); `.ci/run` starts a throwaway cluster and runs it
/// with `--ignored`, and without the variable it fails rather than pass having tested nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: .ci/run starts one; by hand, set TORITE_TEST_POSTGRES and pass --ignored"]
async fn kill_and_restart_on_postgres() {
    let url = std::env::var("TORITE_TEST_POSTGRES")
        .ok()
        .filter(|u| !u.is_empty())
        .expect(
            "TORITE_TEST_POSTGRES must name a PostgreSQL database (postgres://user@host:port/db)",
        );
    kill_and_restart(&url).await;
}

async fn kill_and_restart(db: &str) {
    let config = Config {
        timer_unit: Duration::from_millis(2),
        ..Config::instant()
    };
    let mut server = Server::start(db, config.clone());
    let (id, token) = bot_table(
        server.addr,
        json!({"base": "mini-misere-4", "deals": 2}),
        "heuristic",
    )
    .await;
    // A second table whose host never acts: the move timer plays for it.
    let (_, other) = post(
        server.addr,
        "/api/tables",
        json!({"name": "Cho", "ruleset": {"base": "mura-4", "deals": 1}, "fill": "random", "start": true, "timer": 5}),
    )
    .await;
    let other = other["id"].as_str().unwrap().to_owned();
    let mut step = 17;
    let mut last_version = 0;
    let mut rounds = 0;
    loop {
        let mut seat = Session::connect(server.addr, &id, Some(&token))
            .await
            .unwrap();
        if last_version > 0 {
            assert_eq!(
                seat.state["version"].as_u64(),
                Some(last_version),
                "resumed where it was"
            );
        }
        if seat.state["finished"] == true {
            break;
        }
        // Play a few of our own actions, then stop the server right after the last one was
        // shown to us.
        let mut acted = 0;
        let mut acted_on = None;
        while acted < 3 && seat.state["finished"] != true {
            if seat.my_turn() && acted_on != seat.state["version"].as_u64() {
                acted_on = seat.state["version"].as_u64();
                let legal = seat.state["legal"].as_array().unwrap().clone();
                seat.act(&pick(&legal, &mut step)).await.unwrap();
                acted += 1;
            }
            seat.next().await.unwrap();
        }
        // Wait until the table is still (our turn or finished), then kill.
        let still = seat
            .until(|s| {
                s["finished"] == true || s["legal"].as_array().is_some_and(|l| !l.is_empty())
            })
            .await
            .unwrap();
        last_version = still["version"].as_u64().unwrap();
        let before = still.clone();
        server.kill();
        server = Server::start(db, config.clone());
        rounds += 1;
        if before["finished"] == true {
            // A finished game is not loaded again: only its record is kept.
            break;
        }
        let again = Session::connect(server.addr, &id, Some(&token))
            .await
            .unwrap();
        assert_eq!(
            without_presence(&again.state),
            without_presence(&before),
            "the state after a restart is the state before"
        );
        assert!(rounds < 200);
    }
    assert!(rounds >= 2, "the game was interrupted more than once");
    let (status, record) = get(server.addr, &format!("/api/tables/{id}/record")).await;
    assert_eq!(status, 200);
    let replay = torite_core::record::replay_value(&record).unwrap();
    assert!(replay.game.is_finished());
    assert_eq!(replay.game.results().len(), 2);
    // The other table went on to its end with bots alone, across the restarts.
    let mut complete = false;
    for _ in 0..200 {
        let (_, record) = get(server.addr, &format!("/api/tables/{other}/record")).await;
        if record["table"]["complete"] == true {
            torite_core::record::replay_value(&record).unwrap();
            complete = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(complete, "the timer-driven table did not finish");
    server.kill();
}

fn now_ms() -> u64 {
    u64::try_from(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis(),
    )
    .unwrap()
}
