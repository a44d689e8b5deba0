use std::sync::Arc;

use torite_core::{SeatSet, Seeds};

use super::*;
use crate::protocol::ResultMsg;

/// The `created` event of a table of `ruleset` seeded `seed`, whose host's token is "h".
fn created(ruleset: &str, seed: u64) -> Event {
    Event::Created {
        ruleset: serde_json::json!(ruleset),
        seed,
        host: token_hash("h"),
        timer: None,
        created: 0,
        invite: None,
    }
}

/// The statuses the HTTP API documented before refusals had kinds.
#[test]
fn refusal_kinds_answer_with_their_http_status() {
    use RefusalKind::*;
    let statuses = [
        (Invalid, 400),
        (Forbidden, 403),
        (NotFound, 404),
        (Conflict, 409),
        (TooLarge, 413),
        (NotJson, 415),
        (TooMany, 429),
        (Full, 503),
        (Busy, 503),
        (Storage, 503),
        (Broken, 500),
    ];
    for (kind, status) in statuses {
        assert_eq!(kind.http_status(), status, "{kind:?}");
    }
    assert_eq!(Refusal::bad(Why::NameNeeded).kind, Invalid);
    assert_eq!(Refusal::forbidden(Why::NameNeeded).kind, Forbidden);
    assert_eq!(Refusal::conflict(Why::NameNeeded).kind, Conflict);
}

#[test]
fn names_refuse_what_hides_or_reorders_text() {
    for (c, code) in [
        ('\u{202E}', "U+202E"),
        ('\u{061C}', "U+061C"),
        ('\u{200E}', "U+200E"),
        ('\u{2069}', "U+2069"),
        ('\u{200D}', "U+200D"),
        ('\u{2060}', "U+2060"),
        ('\u{FEFF}', "U+FEFF"),
        ('\u{00AD}', "U+00AD"),
        ('\u{0085}', "U+0085"),
        ('\u{2028}', "U+2028"),
        ('\u{10FFFD}', "U+10FFFD"),
        ('\u{0378}', "U+0378"),
    ] {
        let refusal = check_name(&format!("Ak{c}i")).unwrap_err();
        assert_eq!(refusal.kind, RefusalKind::Invalid);
        assert!(refusal.message().contains(code), "{refusal}");
    }
    assert_eq!(check_name("  Aki  ").unwrap(), "Aki");
    assert!(check_name(&"é".repeat(MAX_NAME)).is_ok());
    assert!(check_name(&"é".repeat(MAX_NAME + 1)).is_err());
    assert!(check_name("محمد").is_ok());
}

/// A name stored before the stricter rule still replays.
#[test]
fn stored_names_of_the_older_rule_still_load() {
    let created = created("mini-misere-4", 1);
    let mut state = TableState::new("t", &created).unwrap();
    let join = Event::Join {
        seat: 1,
        name: "Aki\u{202E}".into(),
        token: token_hash("a"),
    };
    state.apply(&join).unwrap();
    assert_eq!(state.name(1), "Aki\u{202E}");
}

/// A new table deals and draws from its seed's [`Seeds`]: the three-way tie of
/// `crates/cli/tests/data/molotow-three-way-tie.json` (turned a seat so that the table's
/// first dealer, the last seat, deals it) is settled by the seed's first draw, and the next
/// deal is the seed's second.
#[test]
fn a_table_deals_and_draws_from_its_seed() {
    let tie: Value = serde_json::from_str(include_str!(
        "../../../cli/tests/data/molotow-three-way-tie.json"
    ))
    .unwrap();
    let deal = &tie["deals"][0];
    let created = created("molotow-jass", 9);
    let mut state = TableState::new("t", &created).unwrap();
    let rules = *state.rules();
    let mut seeds = Seeds::new(9);
    let first = Seeds::hands(9, &rules, 0)[..4]
        .iter()
        .map(CardSet::to_string)
        .collect::<Vec<_>>();
    let events = [
        Event::Join {
            seat: 0,
            name: "Aki".into(),
            token: token_hash("a"),
        },
        Event::Bot {
            seat: 1,
            bot: "random".parse().unwrap(),
        },
        Event::Bot {
            seat: 2,
            bot: "random".parse().unwrap(),
        },
        Event::Bot {
            seat: 3,
            bot: "random".parse().unwrap(),
        },
        Event::Start,
    ];
    for event in &events {
        state.apply(event).unwrap();
    }
    assert_eq!(state.next_step(), Some(Event::Deal { hands: first }));
    let _ = seeds.next_hands(&rules);
    // The recorded deal, dealt by seat 2 there: seat s's hand goes to seat s + 1.
    let hands: Vec<String> = (0..4)
        .map(|s| {
            let hand = &deal["hands"][(s + 3) % 4];
            let cards: Vec<&str> = hand
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap())
                .collect();
            cards.join(" ")
        })
        .collect();
    state.apply(&Event::Deal { hands }).unwrap();
    for action in deal["actions"].as_array().unwrap() {
        let seat = state.to_act().unwrap();
        let act = Event::Act {
            seat,
            action: action.as_str().unwrap().parse().unwrap(),
            by: Default::default(),
        };
        state.apply(&act).unwrap();
    }
    let tied = state.game().draw_needed().expect("the three-way tie");
    let draw = seeds.next_draw(SeatSet::from_bits(tied));
    assert!(draw.is_some());
    assert_eq!(state.next_step(), Some(Event::Score { draw }));
    // A score event must hold a draw among the tied seats.
    let untied = (0..4).find(|s| tied & 1 << s == 0).unwrap();
    for wrong in [None, Some(untied)] {
        let refusal = state.apply(&Event::Score { draw: wrong }).unwrap_err();
        assert_eq!(refusal.code(), "bad-event", "{wrong:?}");
    }
    state.apply(&Event::Score { draw }).unwrap();
    let second = seeds.next_hands(&rules)[..4]
        .iter()
        .map(CardSet::to_string)
        .collect::<Vec<_>>();
    assert_eq!(state.next_step(), Some(Event::Deal { hands: second }));
}

/// The log follows core's table a step behind: the table deals at once, the log's `deal`
/// event shows the deal; the table scores a deal with its last action, the log's `score`
/// event follows; an event out of its place is refused and changes nothing.
#[test]
fn the_log_deals_and_scores_after_the_table() {
    let mut state = TableState::new("t", &created("mini-misere-4", 1)).unwrap();
    for seat in 0..4 {
        let bot = "random".parse().unwrap();
        state.apply(&Event::Bot { seat, bot }).unwrap();
    }
    let rules = *state.rules();
    let first: Vec<String> = Seeds::hands(1, &rules, 0)[..4]
        .iter()
        .map(CardSet::to_string)
        .collect();
    let refused = |state: &mut TableState, event: &Event, code: &str| {
        let version = state.version();
        let refusal = state.apply(event).unwrap_err();
        assert_eq!(refusal.code(), code, "{event:?}");
        assert_eq!(state.version(), version, "{event:?} changed nothing");
    };
    let deal = Event::Deal {
        hands: first.clone(),
    };
    refused(&mut state, &deal, "not-started");
    state.apply(&Event::Start).unwrap();
    // Dealt by the table, not yet by the log: nothing to show, nobody to act.
    assert_eq!(state.table().record().deals.len(), 1);
    assert_eq!(state.shown().map(|(i, _)| i), None);
    assert_eq!(state.to_act(), None);
    refused(&mut state, &Event::Score { draw: None }, "no-deal-to-score");
    assert_eq!(state.next_step(), Some(deal.clone()));
    state.apply(&deal).unwrap();
    assert_eq!(state.to_act(), Some(0));
    refused(&mut state, &deal, "bad-event");
    refused(&mut state, &Event::Score { draw: None }, "no-deal-to-score");
    while let Some(seat) = state.to_act() {
        let action = state.game().deal().unwrap().legal_actions().nth(0).unwrap();
        let by = Actor::Occupant;
        state.apply(&Event::Act { seat, action, by }).unwrap();
    }
    // Scored by the table with its last action, which the state shows at once; the next
    // deal is dealt but not shown.
    assert_eq!(state.game().results().len(), 1);
    let summary = Arc::new(state.summary(&[0; 4]));
    let results: Arc<[ResultMsg]> = state.results().into();
    let message = state
        .state_message(None, &summary, &results, None)
        .to_text();
    let message: Value = serde_json::from_str(&message).unwrap();
    assert_eq!(
        (&message["deal"], &message["phase"]),
        (&json!(0), &json!("over"))
    );
    assert_eq!(message["results"].as_array().map(Vec::len), Some(1));
    assert_eq!(
        state.shown().map(|(i, d)| (i, d.is_over())),
        Some((0, true))
    );
    assert!(!state.between_deals());
    refused(&mut state, &Event::Score { draw: Some(1) }, "bad-event");
    refused(&mut state, &deal, "bad-event");
    assert_eq!(state.next_step(), Some(Event::Score { draw: None }));
    state.apply(&Event::Score { draw: None }).unwrap();
    assert!(state.between_deals());
    let second: Vec<String> = Seeds::hands(1, &rules, 1)[..4]
        .iter()
        .map(CardSet::to_string)
        .collect();
    assert_eq!(state.next_step(), Some(Event::Deal { hands: second }));
    // A log's own hands (an older seed scheme) are dealt as they are; a bad hand is refused.
    let mut own = first.clone();
    own.swap(0, 1);
    let mut bad = own.clone();
    bad[0] = bad[1].clone();
    refused(&mut state, &Event::Deal { hands: bad }, "bad-event");
    state.apply(&Event::Deal { hands: own.clone() }).unwrap();
    assert_eq!(state.shown().map(|(i, _)| i), Some(1));
    let dealt = &state.table().record().deals[1].hands;
    assert_eq!(
        dealt.iter().map(CardSet::to_string).collect::<Vec<_>>(),
        own
    );
    assert_eq!(state.to_act(), Some(1));
}

/// The game ends when the log scores its last deal: after the last action the table's game
/// is over, but the table is still playing (a sweeper does not let it go, its record is not
/// yet kept) and its messages say so, until the score event.
#[test]
fn the_game_ends_with_the_logs_last_score() {
    let mut state = TableState::new("t", &created("mura-3", 4)).unwrap();
    for seat in 0..3 {
        let bot = "random".parse().unwrap();
        state.apply(&Event::Bot { seat, bot }).unwrap();
    }
    state.apply(&Event::Start).unwrap();
    let finished = |state: &TableState| {
        let summary = Arc::new(state.summary(&[0; 3]));
        let results: Arc<[ResultMsg]> = state.results().into();
        let message = state
            .state_message(None, &summary, &results, None)
            .to_text();
        let message: Value = serde_json::from_str(&message).unwrap();
        (
            state.status(),
            message["finished"].clone(),
            message["winners"].clone(),
        )
    };
    while !state.game().is_finished() {
        assert_eq!(finished(&state), (Status::Playing, json!(false), json!([])));
        let event = match state.next_step() {
            Some(event) => event,
            None => Event::Act {
                seat: state.to_act().unwrap(),
                action: state.game().deal().unwrap().legal_actions().nth(0).unwrap(),
                by: Actor::Occupant,
            },
        };
        state.apply(&event).unwrap();
    }
    assert_eq!(finished(&state), (Status::Playing, json!(false), json!([])));
    assert_eq!(state.next_step(), Some(Event::Score { draw: None }));
    state.apply(&Event::Score { draw: None }).unwrap();
    let (status, over, winners) = finished(&state);
    assert_eq!((status, over), (Status::Finished, json!(true)));
    assert_eq!(winners, json!(state.game().winners()));
    assert!(!state.game().winners().is_empty());
    assert_eq!(state.next_step(), None);
}

/// One Molotow table (two people, two bots, seed 9) played with each seat's first legal
/// action, and the exact state messages of some of its moments: before the start, the
/// first lead, mid-trick with a move deadline, between deals, the next deal and the end of
/// the game. `TORITE_BLESS=1` rewrites the golden file after a deliberate change to the
/// protocol (`docs/PROTOCOL.md` first).
#[test]
fn state_messages_are_written_as_before() {
    const GOLDEN: &str = "tests/data/state-messages.txt";
    let mut state = TableState::new("golden", &created("molotow-jass", 9)).unwrap();
    let mut out = String::new();
    let snapshot = |out: &mut String, state: &TableState, label: &str, seat, deadline| {
        let summary = state
            .summary(&[1, 0, 0, 0])
            .with_presence(&[None, Some(1_795_987_000_000), None, None], 60_000);
        let results: Arc<[ResultMsg]> = state.results().into();
        let message = state.state_message(seat, &Arc::new(summary), &results, deadline);
        let message = message.to_text();
        out.push_str(&format!("# {label}\n{message}\n"));
    };
    let join = |seat, name: &str| Event::Join {
        seat,
        name: name.into(),
        token: token_hash(name),
    };
    for event in [
        join(0, "Aki"),
        join(1, "Ben"),
        Event::Bot {
            seat: 2,
            bot: "random".parse().unwrap(),
        },
    ] {
        state.apply(&event).unwrap();
    }
    snapshot(&mut out, &state, "open, seat 0", Some(0), None);
    state
        .apply(&Event::Bot {
            seat: 3,
            bot: "heuristic".parse().unwrap(),
        })
        .unwrap();
    state.apply(&Event::Start).unwrap();
    snapshot(&mut out, &state, "started, seat 1", Some(1), None);
    let mut actions = 0;
    loop {
        if let Some(event) = state.next_step() {
            let scored = matches!(event, Event::Score { .. });
            state.apply(&event).unwrap();
            if scored && state.results().len() == 1 {
                snapshot(&mut out, &state, "between deals, seat 0", Some(0), None);
                snapshot(&mut out, &state, "between deals, spectator", None, None);
            }
            if !scored && state.results().is_empty() {
                snapshot(&mut out, &state, "first lead, seat 0", Some(0), None);
                snapshot(&mut out, &state, "first lead, spectator", None, None);
            }
            continue;
        }
        let Some(seat) = state.to_act() else {
            break;
        };
        let summary = Arc::new(state.summary(&[0; 4]));
        let message = state.state_message(Some(seat), &summary, &Arc::from([]), None);
        let message: Value = serde_json::from_str(&message.to_text()).unwrap();
        let action = message["legal"][0].as_str().unwrap().parse().unwrap();
        state
            .apply(&Event::Act {
                seat,
                action,
                by: Actor::Occupant,
            })
            .unwrap();
        actions += 1;
        if actions == 6 {
            let deadline = Some(1_795_987_342_000);
            snapshot(&mut out, &state, "mid-trick, seat 1", Some(1), deadline);
        }
        if state.results().len() == 1 && state.to_act() == Some(0) && actions % 7 == 0 {
            snapshot(&mut out, &state, "second deal, seat 0", Some(0), None);
        }
    }
    snapshot(&mut out, &state, "game over, seat 1", Some(1), None);
    snapshot(&mut out, &state, "game over, spectator", None, None);
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(GOLDEN);
    if std::env::var_os("TORITE_BLESS").is_some() {
        std::fs::write(&path, &out).unwrap();
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        out == expected,
        "the state messages changed (expected {GOLDEN}):\n{out}"
    );
}

#[test]
fn a_replaced_token_is_remembered_with_its_seat() {
    let created = created("mini-misere-4", 1);
    let mut state = TableState::new("t", &created).unwrap();
    let hash = token_hash("a");
    state
        .apply(&Event::Join {
            seat: 2,
            name: "Aki".into(),
            token: hash.clone(),
        })
        .unwrap();
    assert_eq!(state.replaced_seat(&hash), None);
    state
        .apply(&Event::Bot {
            seat: 2,
            bot: "random".parse().unwrap(),
        })
        .unwrap();
    assert_eq!(state.replaced_seat(&hash), Some(2));
    assert_eq!(state.seat_of(&hash), None);
}

/// An undo is an event like any other: a table rebuilt from a log that holds undos shows what
/// the live table showed, and its record holds only the actions that stand. A seat with
/// nothing of its own in the deal has nothing to undo; with a person at another seat the
/// undo is a request, refused once that person has acted.
#[test]
fn undo_events_replay_to_the_same_table_and_leave_the_record_final() {
    let mut log = vec![created("mura-3", 4)];
    let mut state = TableState::new("u", &log[0]).unwrap();
    let push = |state: &mut TableState, log: &mut Vec<Event>, event: Event| {
        state.apply(&event).unwrap();
        log.push(event);
    };
    push(
        &mut state,
        &mut log,
        Event::Join {
            seat: 0,
            name: "Aki".into(),
            token: token_hash("a"),
        },
    );
    for seat in 1..3 {
        let bot = "random".parse().unwrap();
        push(&mut state, &mut log, Event::Bot { seat, bot });
    }
    push(&mut state, &mut log, Event::Start);
    let deal = state.next_step().unwrap();
    push(&mut state, &mut log, deal);
    let play = |state: &mut TableState, log: &mut Vec<Event>, n: usize| {
        for _ in 0..n {
            let seat = state.to_act().unwrap();
            let action = state.game().deal().unwrap().legal_actions().nth(0).unwrap();
            let by = Actor::Occupant;
            state.apply(&Event::Act { seat, action, by }).unwrap();
            log.push(Event::Act { seat, action, by });
        }
    };
    // Seat 0 (Aki) has not played yet, or the seat to act is a bot's: play up to Aki's turn.
    while state.to_act() != Some(0) {
        play(&mut state, &mut log, 1);
    }
    assert_eq!(state.undo_way(0).map_err(|r| r.code()), Err("undo-nothing"));
    let before = state.game().deal().unwrap().clone();
    play(&mut state, &mut log, 1);
    while state.to_act() != Some(0) {
        play(&mut state, &mut log, 1);
    }
    assert_eq!(state.undo_way(0).map_err(|r| r.code()), Ok(UndoWay::Now));
    push(&mut state, &mut log, Event::Undo { seat: 0 });
    assert_eq!(state.game().deal().unwrap(), &before);
    // Played on differently, then the log read again from the start.
    play(&mut state, &mut log, 4);
    let mut again = TableState::new("u", &log[0]).unwrap();
    for event in &log[1..] {
        again.apply(event).unwrap();
    }
    let summary = Arc::new(state.summary(&[0; 3]));
    let results: Arc<[ResultMsg]> = state.results().into();
    for seat in [Some(0), None] {
        assert_eq!(
            again.state_message(seat, &summary, &results, None),
            state.state_message(seat, &summary, &results, None)
        );
    }
    let acts = log
        .iter()
        .filter(|e| matches!(e, Event::Act { .. }))
        .count();
    let undone = acts - state.table().record().deals[0].actions.len();
    assert!(undone > 0, "the undone actions are not in the record");
    // Another person at the table: an undo is asked, and too late once they have acted.
    let mut people = TableState::new("p", &created("mura-3", 4)).unwrap();
    for (seat, name) in [(0, "a"), (1, "b")] {
        people
            .apply(&Event::Join {
                seat,
                name: name.into(),
                token: token_hash(name),
            })
            .unwrap();
    }
    let bot = "random".parse().unwrap();
    people.apply(&Event::Bot { seat: 2, bot }).unwrap();
    people.apply(&Event::Start).unwrap();
    let deal = people.next_step().unwrap();
    people.apply(&deal).unwrap();
    let mut last = None;
    for _ in 0..9 {
        let seat = people.to_act().unwrap();
        if last == Some(0) && seat != 0 && people.undo_way(0).is_ok() {
            assert_eq!(people.undo_way(0).unwrap(), UndoWay::Ask(vec![1]));
        }
        let action = people
            .game()
            .deal()
            .unwrap()
            .legal_actions()
            .nth(0)
            .unwrap();
        let by = Actor::Occupant;
        people.apply(&Event::Act { seat, action, by }).unwrap();
        if seat == 1 && last.is_some() {
            assert_eq!(
                people.undo_way(0).map_err(|r| r.code()),
                Err("undo-too-late")
            );
        }
        if seat == 0 {
            last = Some(0);
        }
    }
}
