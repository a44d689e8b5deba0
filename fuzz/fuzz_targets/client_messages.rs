//! The server's handling of WebSocket client messages, against a table mid-game run by its
//! real task (`torite_server::fuzzing::Harness`: no sockets, an in-memory store).
//!
//! Input: four bytes, then lines of text.
//!
//! - byte 0: the preset (`Preset::ALL`, modulo 12); byte 1: the seed; byte 2: how many random
//!   legal actions are taken before the messages; byte 3: the seats with a bot (bit `s`), a
//!   `heuristic` one when bit 7 is set, `random` otherwise (seat 0 stays a person's when
//!   every seat would be a bot's).
//! - each line (at most 48): the sender, then the message text. The sender is a digit (that
//!   seat's token, modulo the number of seats), `t` (the token of the seat to act), `h` (the
//!   host's token), `s` (a spectator, no token) or anything else (a token with no seat). In
//!   the text, `@V` becomes the current version and `@A` a legal action of the seat to act,
//!   so that mutations reach deep into games.
//!
//! After every message: never a panic, an answer is an `error` or a `pong` with a one-line
//! message, and `Harness::check` holds (the table's task runs, the stored log replays to what
//! was published, no state shows a card another seat holds).

#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use torite_core::Preset;
use torite_server::fuzzing::{HOST_TOKEN, Harness, seat_token};

const MAX_LINES: usize = 48;

fuzz_target!(|data: &[u8]| {
    if data.len() < 4 {
        return;
    }
    let preset = Preset::ALL[data[0] as usize % Preset::ALL.len()];
    let n = preset.ruleset().players as usize;
    let mut mask = data[3] as usize & ((1 << n) - 1);
    if mask == (1 << n) - 1 {
        mask &= !1;
    }
    let bot = if data[3] & 0x80 != 0 {
        "heuristic"
    } else {
        "random"
    };
    let bots: Vec<(usize, &str)> = (0..n)
        .filter(|s| mask & (1 << s) != 0)
        .map(|s| (s, bot))
        .collect();
    let harness = Harness::new(
        &Value::from(preset.id()),
        u64::from(data[1]),
        &bots,
        data[2] as usize,
    )
    .expect("a harness table");
    if let Err(e) = harness.check() {
        panic!("{} before any message: {e}", preset.id());
    }
    let text = String::from_utf8_lossy(&data[4..]);
    for line in text.lines().take(MAX_LINES) {
        let mut chars = line.chars();
        let Some(sender) = chars.next() else {
            continue;
        };
        let to_act = harness.to_act();
        let token = match sender {
            '0'..='9' => Some(seat_token(sender as usize - '0' as usize)),
            't' => to_act.as_ref().map(|(seat, _)| seat_token(*seat)),
            'h' => Some(HOST_TOKEN.to_owned()),
            's' => None,
            _ => Some("no-such-token".to_owned()),
        };
        let token = token.map(|t| {
            match t
                .strip_prefix("seat-")
                .and_then(|s| s.parse::<usize>().ok())
            {
                Some(seat) => seat_token(seat % n),
                None => t,
            }
        });
        let legal = to_act
            .and_then(|(_, legal)| legal.into_iter().next())
            .unwrap_or_default();
        let message = chars
            .as_str()
            .replace("@V", &harness.version().to_string())
            .replace("@A", &legal);
        let answer = match harness.send(token.as_deref(), &message) {
            Ok(answer) => answer,
            Err(e) => panic!("{}: {message:?}: {e}", preset.id()),
        };
        if let Some(answer) = answer {
            let parsed: Value = serde_json::from_str(&answer).expect("an answer is JSON");
            match parsed["type"].as_str() {
                Some("pong") => {}
                Some("error") => {
                    let why = parsed["message"].as_str().expect("an error has a message");
                    assert!(
                        !why.is_empty() && !why.contains('\n'),
                        "error message {why:?}"
                    );
                }
                _ => panic!("an answer that is neither an error nor a pong: {answer}"),
            }
        }
        if let Err(e) = harness.check() {
            panic!("{}: after {message:?}: {e}", preset.id());
        }
    }
});
