//! Integration tests of the HTTP and WebSocket API against a real server on 127.0.0.1.

use std::net::SocketAddr;
use std::time::Duration;

use serde_json::{Value, json};
use torite_core::{Action, Card, CardSet, Suit, Trump};
use torite_server::Config;
use torite_server::client::{Session, request};

mod common;
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lobby_endpoints() {
    let server = memory();
    let (status, presets) = get(server.addr, "/api/presets").await;
    assert_eq!(status, 200);
    assert_eq!(
        presets.as_array().unwrap().len(),
        torite_core::Preset::ALL.len()
    );
    assert_eq!(presets[0]["id"], "mini-misere-4");
    assert_eq!(presets[0]["options"]["target"], 25);
    // Names and option labels come from the catalogs, in both languages.
    assert_eq!(presets[0]["name_ja"], "ミニミゼール（現行ルール・4人）");
    assert_eq!(presets[0]["labels"]["lot_timing"]["en"], "Lot timing");
    assert_eq!(presets[0]["labels"]["lot_timing"]["ja"], "ロットの宣言");
    for preset in presets.as_array().unwrap() {
        let options = preset["options"].as_object().unwrap();
        let labels = preset["labels"].as_object().unwrap();
        assert_eq!(options.len(), labels.len(), "{preset}");
    }
    let (_, bots) = get(server.addr, "/api/bots").await;
    assert!(bots.as_array().unwrap().contains(&json!("heuristic")));
    let ja = request(server.addr, "GET", "/api/i18n/ja", None)
        .await
        .unwrap();
    assert_eq!(ja.status, 200);
    assert!(ja.body.contains("番席"));
    let (status, _) = get(server.addr, "/api/i18n/xx").await;
    assert_eq!(status, 404);
    let page = request(server.addr, "GET", "/", None).await.unwrap();
    assert_eq!(page.status, 200);

    let (status, created) = post(
        server.addr,
        "/api/tables",
        json!({"ruleset": {"base": "mura-4", "threshold": 6}, "name": "Aki"}),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap();
    let (_, list) = get(server.addr, "/api/tables").await;
    let table = list
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == id)
        .unwrap();
    assert_eq!(table["status"], "open");
    assert_eq!(table["ruleset"], json!({"base": "mura-4", "threshold": 6}));
    assert_eq!(table["seats"][0]["name"], "Aki");
    assert_eq!(table["seats"][0]["kind"], "human");
    assert_eq!(table["seats"][1]["kind"], "empty");
    // Nobody's token appears in the lobby.
    assert!(
        !list
            .to_string()
            .contains(created["token"].as_str().unwrap())
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_http_requests() {
    let server = memory();
    let addr = server.addr;
    let (status, body) = post(
        addr,
        "/api/tables",
        json!({"ruleset": "whist", "name": "A"}),
    )
    .await;
    assert_eq!(status, 400);
    assert!(body["error"].as_str().unwrap().contains("whist"), "{body}");
    let (status, body) = post(
        addr,
        "/api/tables",
        json!({"ruleset": {"base": "mura-4", "lot_timing": "before-lead"}, "name": "A"}),
    )
    .await;
    assert_eq!(status, 400);
    assert!(
        body["error"].as_str().unwrap().contains("lot_timing"),
        "{body}"
    );
    let (status, _) = post(addr, "/api/tables", json!({"name": ""})).await;
    assert_eq!(status, 400);
    let (status, _) = post(addr, "/api/tables", json!({"name": "x".repeat(100)})).await;
    assert_eq!(status, 400);
    let (status, _) = post(addr, "/api/tables", json!({"name": "A", "seat": 9})).await;
    assert_eq!(status, 400);
    // A seed is a whole number a JavaScript client can send exactly: 0 to 2^53 - 1.
    for seed in [
        json!(-1),
        json!(1.5),
        json!("7"),
        json!(1_u64 << 53),
        json!(u64::MAX),
    ] {
        let (status, body) = post(addr, "/api/tables", json!({"name": "A", "seed": seed})).await;
        assert_eq!(status, 400, "{seed}: {body}");
        assert_eq!(
            body["error"],
            format!("\"seed\" must be a whole number from 0 to 9007199254740991, not {seed}"),
        );
        assert_eq!(body["code"], "seed-range");
        assert_eq!(
            body["args"],
            json!({"max": "9007199254740991", "value": seed.to_string()})
        );
    }
    for seed in [json!(0), json!((1_u64 << 53) - 1), Value::Null] {
        let (status, body) = post(addr, "/api/tables", json!({"name": "A", "seed": seed})).await;
        assert_eq!(status, 201, "{seed}: {body}");
    }
    let bad = torite_server::client::raw(
        addr,
        b"POST /api/tables HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\
          Content-Type: application/json\r\nContent-Length: 5\r\n\r\n{oops",
    )
    .await
    .unwrap();
    assert_eq!(bad.status, 400);
    assert!(bad.json()["error"].is_string(), "{}", bad.body);
    let big = json!({"name": "A", "pad": "x".repeat(20_000)});
    let (status, _) = post(addr, "/api/tables", big).await;
    assert_eq!(status, 413);

    let (_, created) = post(addr, "/api/tables", json!({"name": "Aki"})).await;
    let id = created["id"].as_str().unwrap();
    let host = created["token"].as_str().unwrap();
    let (status, _) = post(
        addr,
        &format!("/api/tables/{id}/join"),
        json!({"seat": 0, "name": "B"}),
    )
    .await;
    assert_eq!(status, 409);
    let (status, joined) = post(
        addr,
        &format!("/api/tables/{id}/join"),
        json!({"seat": 1, "name": "Ben"}),
    )
    .await;
    assert_eq!(status, 200);
    let guest = joined["token"].as_str().unwrap();
    let (status, _) = post(
        addr,
        &format!("/api/tables/{id}/bot"),
        json!({"seat": 2, "bot": "random", "token": guest}),
    )
    .await;
    assert_eq!(status, 403);
    let (status, _) = post(
        addr,
        &format!("/api/tables/{id}/bot"),
        json!({"seat": 2, "bot": "nobody", "token": host}),
    )
    .await;
    assert_eq!(status, 400);
    let (status, _) = post(
        addr,
        &format!("/api/tables/{id}/start"),
        json!({"token": host}),
    )
    .await;
    assert_eq!(status, 409);
    let (status, _) = post(
        addr,
        &format!("/api/tables/{id}/start"),
        json!({"token": guest}),
    )
    .await;
    assert_eq!(status, 403);
    let (status, _) = post(addr, "/api/tables/nope/start", json!({"token": host})).await;
    assert_eq!(status, 404);
    let (status, _) = get(addr, "/api/tables/nope/record").await;
    assert_eq!(status, 404);
    // A socket with a token of another table is refused.
    assert!(Session::connect(addr, id, Some("00")).await.is_err());
}

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

/// Every sheet of a preset in both languages and forms, a table's sheet with its house rules,
/// and bad requests refused with a JSON error.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn printable_sheets_of_presets_and_tables() {
    let server = memory();
    let addr = server.addr;
    for kind in ["rules", "scores", "scorepad"] {
        for (lang, name) in [
            ("en", "Mini Misère (current rules, 4 players)"),
            ("ja", "ミニミゼール（現行ルール・4人）"),
        ] {
            let path = format!("/api/presets/mini-misere-4/sheet?kind={kind}&lang={lang}");
            let (status, headers, body) = get_bytes(addr, &format!("{path}&format=pdf")).await;
            assert_eq!(status, 200, "{path}");
            assert_eq!(header(&headers, "content-type"), "application/pdf");
            assert_eq!(
                header(&headers, "content-disposition"),
                format!("attachment; filename=\"torite-mini-misere-4-{kind}-{lang}.pdf\"")
            );
            assert!(body.starts_with(b"%PDF"), "{path}");
            let (status, headers, body) = get_bytes(addr, &format!("{path}&format=html")).await;
            assert_eq!(status, 200, "{path}");
            assert_eq!(header(&headers, "content-type"), "text/html; charset=utf-8");
            let html = String::from_utf8(body).unwrap();
            assert!(html.starts_with("<!DOCTYPE html>"), "{path}");
            assert!(html.contains(&format!("<html lang=\"{lang}\">")), "{path}");
            assert!(html.contains(name), "{path}: {name} not in the sheet");
        }
    }
    // Defaults: the rules in English, as HTML.
    let (status, _, body) = get_bytes(addr, "/api/presets/mura-3/sheet").await;
    assert_eq!(status, 200);
    assert!(
        String::from_utf8(body)
            .unwrap()
            .contains("Mura (3 players)")
    );
    // The compare sheet, by a game's family or by one of its presets.
    for path in [
        "/api/presets/mini-misere/sheet?kind=compare&lang=ja",
        "/api/presets/mini-misere-4/sheet?kind=compare&lang=ja",
    ] {
        let (status, _, body) = get_bytes(addr, path).await;
        assert_eq!(status, 200, "{path}");
        let html = String::from_utf8(body).unwrap();
        assert!(
            html.contains("ルール比較表") && html.contains("4人（1989年）"),
            "{path}"
        );
    }
    let (status, headers, _) = get_bytes(
        addr,
        "/api/presets/mini-misere/sheet?kind=compare&format=pdf",
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(
        header(&headers, "content-disposition"),
        "attachment; filename=\"torite-mini-misere-4-compare-en.pdf\""
    );
    for (path, status, word) in [
        ("/api/presets/mini-misere/sheet", 404, "no preset"),
        ("/api/presets/nope/sheet", 404, "no preset"),
        ("/api/presets/mura-3/sheet?kind=menu", 400, "kind"),
        ("/api/presets/mura-3/sheet?lang=fr", 400, "lang"),
        ("/api/presets/mura-3/sheet?format=docx", 400, "format"),
        ("/api/presets/mura-3/sheet?size=a5", 400, "size"),
        ("/api/tables/nope/sheet", 404, "no table"),
        ("/api/tables/nope/sheet?kind=menu", 400, "kind"),
    ] {
        let (got, body) = get(addr, path).await;
        assert_eq!(got, status, "{path}: {body}");
        assert!(
            body["error"].as_str().unwrap().contains(word),
            "{path}: {body}"
        );
    }
    // A table's sheet shows its house rules.
    let (status, made) = post(
        addr,
        "/api/tables",
        json!({"name": "Aki", "ruleset": {"base": "mini-misere-4", "lot_timing": "before-lead"}}),
    )
    .await;
    assert_eq!(status, 201);
    let id = made["id"].as_str().unwrap();
    let (status, headers, body) =
        get_bytes(addr, &format!("/api/tables/{id}/sheet?lang=ja&format=pdf")).await;
    assert_eq!(status, 200);
    assert!(body.starts_with(b"%PDF"));
    assert!(header(&headers, "content-disposition").contains(&format!("{id}-rules-ja.pdf")));
    let (status, _, body) = get_bytes(addr, &format!("/api/tables/{id}/sheet?lang=en")).await;
    assert_eq!(status, 200);
    let html = String::from_utf8(body).unwrap();
    assert!(html.contains("House rules"), "no house rules on the sheet");
    assert!(
        html.contains("before the first card is led"),
        "the 1989 Lot timing"
    );
    let (_, _, preset) = get_bytes(addr, "/api/presets/mini-misere-4/sheet?lang=en").await;
    assert!(!String::from_utf8(preset).unwrap().contains("House rules"));
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn table_creation_is_limited_per_address() {
    let config = Config {
        creates_per_minute: Some(2),
        ..Config::instant()
    };
    let server = Server::start("sqlite::memory:", config);
    for _ in 0..2 {
        let (status, _) = post(server.addr, "/api/tables", json!({"name": "Aki"})).await;
        assert_eq!(status, 201);
    }
    let (status, body) = post(server.addr, "/api/tables", json!({"name": "Aki"})).await;
    assert_eq!(status, 429, "{body}");
    assert!(body["error"].is_string());
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

fn now_ms() -> u64 {
    u64::try_from(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis(),
    )
    .unwrap()
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
