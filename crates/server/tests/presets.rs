//! The three- and six-player Mini Misère presets (RULES.md 1.7) over the real server: six
//! seats created, filled and played through the WebSocket protocol, and the three-player
//! joker's saying (`joker:win`) offered to a person and said by them.

use std::net::SocketAddr;

use serde_json::{Value, json};
use torite_core::table::first_dealer;
use torite_core::{Action, Deal, Phase, Preset, Table};
use torite_server::Config;
use torite_server::client::Session;

mod common;
use common::{Server, get, post};

fn memory() -> Server {
    Server::start("sqlite::memory:", Config::instant())
}

/// The first legal action other than the Lot, as a person who never declares would play.
fn first_card(state: &Value) -> String {
    let legal = state["legal"].as_array().unwrap();
    legal
        .iter()
        .filter_map(Value::as_str)
        .find(|a| *a != "lot")
        .or_else(|| legal[0].as_str())
        .unwrap()
        .to_owned()
}

/// The next error message on `session` (states before it are taken in passing).
async fn next_error(session: &mut Session) -> Value {
    loop {
        let msg = session.next().await.unwrap();
        if msg["type"] == "error" {
            return msg;
        }
    }
}

/// A `mini-misere-6` table: the person takes the last seat (5) and five bots the others; one
/// whole deal is played over the socket, and the summary, the messages and the record all
/// have six seats of six cards.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn six_seats_five_bots_and_a_person_play_a_whole_deal() {
    let server = memory();
    let addr = server.addr;
    let (status, made) = post(
        addr,
        "/api/tables",
        json!({"ruleset": {"base": "mini-misere-6", "deals": 1}, "name": "Aki", "seat": 5,
               "fill": "heuristic", "start": true}),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    assert_eq!(made["seat"], 5);
    let id = made["id"].as_str().unwrap();
    let (_, summary) = get(addr, &format!("/api/tables/{id}")).await;
    assert_eq!(summary["players"], 6, "{summary}");
    let kinds: Vec<&str> = summary["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["bot", "bot", "bot", "bot", "bot", "human"]);
    // A seventh seat does not exist.
    let (status, refused) = post(
        addr,
        &format!("/api/tables/{id}/join"),
        json!({"seat": 6, "name": "Ben"}),
    )
    .await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(refused["code"], "no-such-seat");
    assert_eq!(refused["args"]["last"], "5");

    let mut me = Session::connect(addr, id, Some(made["token"].as_str().unwrap()))
        .await
        .unwrap();
    let mut watcher = Session::connect(addr, id, None).await.unwrap();
    assert_eq!(me.welcome["seat"], 5);
    let first = me.until(|s| s["deal"] == 0).await.unwrap();
    assert_eq!(first["players"], 6);
    // The bots before the person may have played already: 36 cards between the hands and
    // the trick, the person's six still in hand.
    let held: u64 = first["hand_sizes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .sum();
    assert_eq!(first["tricks_completed"], 0);
    assert_eq!(held as usize + first["trick"].as_array().unwrap().len(), 36);
    assert_eq!(first["hand_sizes"][5], 6);
    assert_eq!(first["hand"].as_array().unwrap().len(), 6);
    // Before the person's first card: the three-player joker's saying is refused in words, and
    // a message without an action names every kind of action.
    let mine = me
        .until(|s| s["legal"].as_array().is_some_and(|l| !l.is_empty()))
        .await
        .unwrap();
    let version = mine["version"].as_u64().unwrap();
    me.act_at("joker:win", version).await.unwrap();
    let refused = next_error(&mut me).await;
    assert_eq!(refused["code"], "no-joker-say", "{refused}");
    assert_eq!(
        refused["message"],
        "whether the joker wins or loses is said only right after it is played as the last card of a trick"
    );
    me.send_text(&json!({"type": "act", "version": version}).to_string())
        .await
        .unwrap();
    let refused = next_error(&mut me).await;
    assert_eq!(refused["code"], "message-no-action", "{refused}");
    assert_eq!(
        refused["message"],
        "\"action\" is needed: a card code, lot, pass, call:S|H|D|C or joker:win|lose"
    );
    let mut played = 0;
    let mut acted_on = None;
    while me.state["finished"] != true {
        if me.my_turn() && acted_on != me.state["version"].as_u64() {
            acted_on = me.state["version"].as_u64();
            let action = first_card(&me.state);
            if action
                .parse::<Action>()
                .is_ok_and(|a| matches!(a, Action::Play(_)))
            {
                played += 1;
            }
            me.act(&action).await.unwrap();
        }
        let msg = me.next().await.unwrap();
        assert_ne!(msg["type"], "error", "{msg}");
    }
    assert_eq!(played, 6, "the person played each of their six cards");
    let last = &me.state;
    assert_eq!(last["results"].as_array().unwrap().len(), 1);
    assert_eq!(last["totals"].as_array().unwrap().len(), 6);
    let tricks: u64 = last["results"][0]["tricks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_u64().unwrap())
        .sum();
    assert_eq!(tricks, 6, "six tricks of six cards");
    let watched = watcher.until(|s| s["finished"] == true).await.unwrap();
    assert!(watched.get("hand").is_none());
    assert_eq!(watched["players"], 6);

    let (status, record) = get(addr, &format!("/api/tables/{id}/record")).await;
    assert_eq!(status, 200);
    let replay = torite_core::record::replay_value(&record).expect("the record replays");
    assert!(replay.game.is_finished());
    assert_eq!(record["players"].as_array().unwrap().len(), 6);
    assert_eq!(record["players"][5], "Aki");
    me.close().await;
    watcher.close().await;
}

/// The actions of one `mini-misere-3` deal that lead to seat 0 playing the joker as the last
/// card of a trick, by a depth-first search of the deal (at most `budget` positions).
fn to_the_saying(deal: &Deal, path: &mut Vec<Action>, budget: &mut u32) -> bool {
    if deal.phase() == Phase::SayJoker && deal.to_act() == 0 {
        return true;
    }
    if deal.is_over() || *budget == 0 {
        return false;
    }
    *budget -= 1;
    for action in deal.legal_actions().iter() {
        let mut next = deal.clone();
        next.apply(action).unwrap();
        path.push(action);
        if to_the_saying(&next, path, budget) {
            return true;
        }
        path.pop();
    }
    false
}

/// A seed of `mini-misere-3` and the actions of its first deal that bring seat 0 to the
/// joker's saying.
fn joker_game() -> (u64, Vec<Action>) {
    let rules = Preset::MiniMisere3.ruleset();
    for seed in 0..200 {
        let table = Table::new(rules, first_dealer(&rules), seed).unwrap();
        let mut path = Vec::new();
        let mut budget = 20_000;
        if to_the_saying(table.deal().unwrap(), &mut path, &mut budget) {
            return (seed, path);
        }
    }
    panic!("no seed below 200 brings seat 0 to the joker's saying");
}

/// Sends `action` for `seat` in answer to its first state from `version` on that asks it to
/// act; returns the version its action makes.
async fn act(seats: &mut [Session], seat: usize, version: u64, action: &str) -> u64 {
    let state = seats[seat]
        .until(|s| {
            s["version"].as_u64() >= Some(version)
                && s["to_act"] == seat
                && s["legal"].as_array().is_some_and(|l| !l.is_empty())
        })
        .await
        .unwrap();
    assert_eq!(state["phase"], "play", "{state}");
    let at = state["version"].as_u64().unwrap();
    seats[seat].act_at(action, at).await.unwrap();
    at + 1
}

/// Three people at a `mini-misere-3` table, the cards of a deal in which seat 0 plays the
/// joker as the third card of a trick: seat 0 is then asked (phase `"joker"`, legal
/// `joker:win` and `joker:lose` only, nobody else offered anything, a card refused), says
/// `joker:win`, and wins the trick; the saying is in the record and the replay.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_says_the_joker_wins() {
    let server = memory();
    let addr: SocketAddr = server.addr;
    let (seed, path) = joker_game();
    let (status, made) = post(
        addr,
        "/api/tables",
        json!({"ruleset": {"base": "mini-misere-3", "deals": 1}, "name": "Aki", "seed": seed}),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().unwrap().to_owned();
    let mut tokens = vec![made["token"].as_str().unwrap().to_owned()];
    for (seat, name) in [(1, "Ben"), (2, "Chika")] {
        let (status, joined) = post(
            addr,
            &format!("/api/tables/{id}/join"),
            json!({"seat": seat, "name": name}),
        )
        .await;
        assert_eq!(status, 200, "{joined}");
        tokens.push(joined["token"].as_str().unwrap().to_owned());
    }
    let (status, started) = post(
        addr,
        &format!("/api/tables/{id}/start"),
        json!({"token": tokens[0]}),
    )
    .await;
    assert_eq!(status, 200, "{started}");
    let mut seats = Vec::new();
    for token in &tokens {
        seats.push(Session::connect(addr, &id, Some(token)).await.unwrap());
    }
    let mut watcher = Session::connect(addr, &id, None).await.unwrap();
    let rules = Preset::MiniMisere3.ruleset();
    let mut deal = Table::new(rules, first_dealer(&rules), seed)
        .unwrap()
        .deal()
        .unwrap()
        .clone();
    // Each action is sent by the seat to act, answering the first state that asks it.
    let mut version = 0;
    for action in &path {
        version = act(&mut seats, deal.to_act(), version, &action.to_string()).await;
        deal.apply(*action).unwrap();
    }
    let asked = seats[0]
        .until(|s| s["version"].as_u64() >= Some(version))
        .await
        .unwrap();
    assert_eq!(asked["phase"], "joker", "{asked}");
    assert_eq!(asked["to_act"], 0);
    assert_eq!(asked["legal"], json!(["joker:win", "joker:lose"]));
    let trick = asked["trick"].as_array().unwrap();
    assert_eq!(trick.len(), 3);
    assert_eq!(trick[2], json!({"seat": 0, "card": "JK"}));
    for other in &mut seats[1..] {
        let theirs = other
            .until(|s| s["version"].as_u64() >= Some(version))
            .await
            .unwrap();
        assert_eq!(theirs["phase"], "joker");
        assert_eq!(theirs["legal"], json!([]));
    }
    let watched = watcher
        .until(|s| s["version"].as_u64() >= Some(version))
        .await
        .unwrap();
    assert_eq!(watched["phase"], "joker");
    // A card is not an answer.
    let card = asked["hand"][0].as_str().unwrap().to_owned();
    seats[0].act(&card).await.unwrap();
    let refused = next_error(&mut seats[0]).await;
    assert_eq!(refused["code"], "must-say-joker", "{refused}");
    assert_eq!(refused["args"]["action"], card, "{refused}");
    assert_eq!(
        refused["message"],
        "the joker was played last: first say whether it wins or loses the trick"
    );
    let tricks_before = asked["tricks_won"][0].as_u64().unwrap();
    seats[0].act("joker:win").await.unwrap();
    let after = seats[0]
        .until(|s| s["version"].as_u64() > Some(version))
        .await
        .unwrap();
    assert_ne!(after["phase"], "joker", "{after}");
    assert_eq!(after["last_trick"]["winner"], 0, "{after}");
    assert_eq!(after["last_trick"]["cards"][2], "JK");
    assert_eq!(after["tricks_won"][0].as_u64().unwrap(), tricks_before + 1);

    // The rest of the deal, each person playing their first legal action.
    deal.apply(Action::JokerWins).unwrap();
    version += 1;
    while !deal.is_over() {
        let seat = deal.to_act();
        let state = seats[seat]
            .until(|s| s["version"].as_u64() >= Some(version) && s["to_act"] == seat)
            .await
            .unwrap();
        let action = first_card(&state);
        version = act(&mut seats, seat, version, &action).await;
        deal.apply(action.parse().unwrap()).unwrap();
    }
    seats[0].until(|s| s["finished"] == true).await.unwrap();
    let (status, record) = get(addr, &format!("/api/tables/{id}/record")).await;
    assert_eq!(status, 200);
    let actions = record["deals"][0]["actions"].as_array().unwrap();
    let jk = actions.iter().position(|a| a == "JK").unwrap();
    assert_eq!(actions[jk + 1], "joker:win");
    let (status, replay) = get(addr, &format!("/api/tables/{id}/replay")).await;
    assert_eq!(status, 200);
    let steps = replay["deals"][0]["steps"].as_array().unwrap();
    let said = steps.iter().find(|s| s["action"] == "joker:win").unwrap();
    assert_eq!(said["seat"], 0);
    assert_eq!(said["winner"], 0);
    for s in seats {
        s.close().await;
    }
    watcher.close().await;
}
