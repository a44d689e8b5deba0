//! Stored event logs written by an earlier server still load.
//!
//! `data/events-v1.txt` holds the logs of five tables exactly as the server stored them
//! before its events were typed (each event's JSON text, as `torite_server::table::Event`
//! serialized it; the hands of each deal and the result of each draw are in the log, so a
//! later seed scheme does not change how it replays):
//!
//! - `finished-lot`: a finished Mini Misère (five players, 1989 rules) with Lots and a
//!   joker's suit call;
//! - `mid-game`: Mittlere Jass under way, a person and two bots, one action the move timer
//!   chose (`"by":"timer"`) and one the server's fallback chose (`"by":"fallback"`);
//! - `molotow-draw`: Molotow Jass whose first deal was settled by a draw, the second under way;
//! - `replaced`: Mura whose second person's seat was given to a bot mid-deal;
//! - `unstarted`: Mini Misère with seats taken but not started.
//!
//! The file is a line `table ID CREATED` before each table's events, one event per line.
//! The test puts the rows into a fresh SQLite store, loads it with the server, and compares
//! what each table publishes (version, status, seats, every seat's hand, legal actions and
//! totals) with `data/events-v1.expected` (`TORITE_BLESS=1` rewrites it after a deliberate
//! change; a change to how old logs read is a bug, not a reason to bless).

use std::fmt::Write as _;
use std::sync::Arc;

use serde_json::Value;
use torite_server::store::{SqlStore, Store};
use torite_server::{Config, Hub};

const LOGS: &str = include_str!("data/events-v1.txt");
const EXPECTED: &str = "tests/data/events-v1.expected";

/// The tables of the log file: id, creation time, events.
fn tables() -> Vec<(String, i64, Vec<String>)> {
    let mut out: Vec<(String, i64, Vec<String>)> = Vec::new();
    for (n, line) in LOGS.lines().enumerate() {
        if let Some(head) = line.strip_prefix("table ") {
            let (id, created) = head.split_once(' ').expect("table ID CREATED");
            out.push((id.to_owned(), created.parse().expect("a time"), Vec::new()));
        } else {
            out.last_mut()
                .unwrap_or_else(|| panic!("line {}: an event before any table", n + 1))
                .2
                .push(line.to_owned());
        }
    }
    out
}

/// One line per fact a table publishes.
fn describe(out: &mut String, id: &str, published: &torite_server::actor::Published) {
    let s = &published.summary;
    writeln!(
        out,
        "{id}: version {} status {} deals {}",
        published.version, s.status, s.deals
    )
    .unwrap();
    for (seat, (o, msg)) in s.seats.iter().zip(&published.seats).enumerate() {
        let who = format!("{} {} {}", o.kind, o.name, o.bot.as_deref().unwrap_or("-"));
        if msg.is_empty() {
            // Only a person's seat has a message of its own.
            writeln!(out, "  seat {seat}: {who}").unwrap();
            continue;
        }
        let msg: Value = serde_json::from_str(msg).expect("a state message");
        writeln!(
            out,
            "  seat {seat}: {who} | hand {} | legal {} | totals {} | to act {} | finished {} winners {}",
            msg["hand"],
            msg["legal"],
            msg["totals"],
            msg["to_act"],
            msg["finished"],
            msg["winners"],
        )
        .unwrap();
    }
    let spectator: Value = serde_json::from_str(&published.spectator).expect("a state message");
    writeln!(
        out,
        "  spectator: deal {} results {}",
        spectator["deal"], spectator["results"]
    )
    .unwrap();
}

#[test]
fn logs_of_the_untyped_server_load_unchanged() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let text = runtime.block_on(async {
        let store: Arc<dyn Store> = Arc::new(SqlStore::open("sqlite::memory:").await.unwrap());
        let tables = tables();
        assert_eq!(tables.len(), 5);
        for (id, created, events) in &tables {
            store.create_table(id, *created, &events[0]).await.unwrap();
            for (seq, body) in events.iter().enumerate().skip(1) {
                store.append(id, seq as i64, body).await.unwrap();
            }
        }
        let hub = Hub::load(Arc::clone(&store), Config::instant())
            .await
            .unwrap();
        let mut text = String::new();
        for (id, _, events) in &tables {
            let table = hub.table(id).await.unwrap_or_else(|| panic!("{id} loaded"));
            let published = Arc::clone(&table.states.borrow());
            // Every stored event replayed: the version counts them all.
            assert_eq!(published.version, events.len() as u64, "{id}");
            describe(&mut text, id, &published);
        }
        let record = store.record("finished-lot").await.unwrap().expect("kept");
        let record: Value = serde_json::from_str(&record).unwrap();
        writeln!(
            text,
            "finished-lot record kept: {} deals, players {}",
            record["deals"].as_array().map_or(0, Vec::len),
            record["players"]
        )
        .unwrap();
        text
    });
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(EXPECTED);
    if std::env::var_os("TORITE_BLESS").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        text == expected,
        "the old logs load differently (expected {EXPECTED}):\n{text}"
    );
}

#[test]
fn acts_are_written_as_the_untyped_server_wrote_them() {
    use torite_core::{Action, Suit};
    use torite_server::table::{Actor, Event};
    let cases = [
        (
            Event::Act {
                seat: 1,
                action: Action::Call(Suit::Spades),
                by: Actor::Occupant,
            },
            r#"{"type":"act","seat":1,"action":"call:S"}"#,
        ),
        (
            Event::Act {
                seat: 0,
                action: Action::Play("TH".parse().unwrap()),
                by: Actor::Timer,
            },
            r#"{"type":"act","seat":0,"action":"TH","by":"timer"}"#,
        ),
        (
            Event::Act {
                seat: 2,
                action: Action::Lot,
                by: Actor::Fallback,
            },
            r#"{"type":"act","seat":2,"action":"lot","by":"fallback"}"#,
        ),
    ];
    for (event, text) in cases {
        assert_eq!(serde_json::to_string(&event).unwrap(), text);
        assert_eq!(serde_json::from_str::<Event>(text).unwrap(), event);
    }
    // What no server wrote is refused when read, naming what is wrong.
    let bad = serde_json::from_str::<Event>(r#"{"type":"act","seat":0,"action":"lots"}"#);
    assert!(bad.unwrap_err().to_string().contains("unknown action"));
    let bad = serde_json::from_str::<Event>(r#"{"type":"act","seat":0,"action":"AS","by":"x"}"#);
    assert!(bad.unwrap_err().to_string().contains("unknown variant `x`"));
}

#[test]
fn bot_seats_are_written_as_the_untyped_server_wrote_them() {
    use torite_server::table::Event;
    for text in [
        r#"{"type":"bot","seat":2,"bot":"ismcts:200ms"}"#,
        r#"{"type":"bot","seat":1,"bot":"heuristic"}"#,
        r#"{"type":"bot","seat":0,"bot":"pimc:40"}"#,
    ] {
        let event: Event = serde_json::from_str(text).unwrap();
        assert_eq!(serde_json::to_string(&event).unwrap(), text);
    }
    let bad = serde_json::from_str::<Event>(r#"{"type":"bot","seat":0,"bot":"ismcts:0"}"#);
    assert!(bad.unwrap_err().to_string().contains("out of range"));
    let bad = serde_json::from_str::<Event>(r#"{"type":"bot","seat":0,"bot":"genius"}"#);
    assert!(
        bad.unwrap_err()
            .to_string()
            .contains("unknown bot \"genius\"")
    );
}
