//! Driving a table with client messages, without sockets or a database: the harness of the
//! `client_messages` fuzz target (`fuzz/`) and of tests.
//!
//! A [`Harness`] is one table mid-game, run by its real task ([`crate::actor`]) on a
//! single-threaded runtime with a [`MemoryStore`]. [`Harness::send`] hands a message text to the
//! same function a WebSocket hands it to, then waits until the table's task is idle again (its
//! bots have moved), so every run of the same messages takes the same steps.
//! [`Harness::check`] checks what must hold after any message:
//!
//! - the table's task is still running (a panic there would stop it);
//! - the stored log replays through [`TableState::apply`] to the state that was published:
//!   every seat's message and the spectators' are the ones the replayed state builds;
//! - no message shows a card that another seat still holds.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use serde_json::Value;
use tokio::sync::oneshot;
use torite_core::shuffle::below;
use torite_core::{Action, Card, CardSet, Deal, Game, Seat};

use crate::Config;
use crate::actor::{self, Cmd, Published, TableHandle};
use crate::store::{BoxFuture, Store, StoreError};
use crate::table::{Actor, Event, Occupant, TableState, token_hash};

/// The host's token at a harness table.
pub const HOST_TOKEN: &str = "host";

/// A [`Store`] in memory: each table's log and record, for tests and fuzzing.
#[derive(Debug, Default)]
pub struct MemoryStore {
    tables: Mutex<HashMap<String, (i64, Vec<String>)>>,
    records: Mutex<HashMap<String, String>>,
}

impl MemoryStore {
    /// A table's stored events in order (empty for an unknown table).
    #[must_use]
    pub fn events(&self, id: &str) -> Vec<String> {
        let tables = self.tables.lock().unwrap_or_else(PoisonError::into_inner);
        tables.get(id).map(|(_, e)| e.clone()).unwrap_or_default()
    }
}

impl Store for MemoryStore {
    fn create_table<'a>(
        &'a self,
        id: &'a str,
        created: i64,
        first: &'a str,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let mut tables = self.tables.lock().unwrap_or_else(PoisonError::into_inner);
            if tables.contains_key(id) {
                return Err(StoreError(format!("table {id} exists")));
            }
            tables.insert(id.to_owned(), (created, vec![first.to_owned()]));
            Ok(())
        })
    }

    fn append<'a>(
        &'a self,
        id: &'a str,
        seq: i64,
        event: &'a str,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let mut tables = self.tables.lock().unwrap_or_else(PoisonError::into_inner);
            let Some((_, events)) = tables.get_mut(id) else {
                return Err(StoreError(format!("no table {id}")));
            };
            if usize::try_from(seq).ok() != Some(events.len()) {
                return Err(StoreError(format!(
                    "table {id}: event {seq} is not the next ({})",
                    events.len()
                )));
            }
            events.push(event.to_owned());
            Ok(())
        })
    }

    fn load_all(&self) -> BoxFuture<'_, Result<Vec<crate::store::StoredTable>, StoreError>> {
        Box::pin(async move {
            let tables = self.tables.lock().unwrap_or_else(PoisonError::into_inner);
            let records = self.records.lock().unwrap_or_else(PoisonError::into_inner);
            let mut out: Vec<_> = tables
                .iter()
                .filter(|(id, _)| !records.contains_key(*id))
                .map(|(id, (created, events))| crate::store::StoredTable {
                    id: id.clone(),
                    created: *created,
                    events: events.clone(),
                })
                .collect();
            out.sort_by(|a, b| a.created.cmp(&b.created).then_with(|| a.id.cmp(&b.id)));
            Ok(out)
        })
    }

    fn save_record<'a>(
        &'a self,
        id: &'a str,
        record: &'a str,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let mut records = self.records.lock().unwrap_or_else(PoisonError::into_inner);
            records.insert(id.to_owned(), record.to_owned());
            Ok(())
        })
    }

    fn record<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<String>, StoreError>> {
        Box::pin(async move {
            let records = self.records.lock().unwrap_or_else(PoisonError::into_inner);
            Ok(records.get(id).cloned())
        })
    }
}

/// The token of a person's seat at a harness table.
#[must_use]
pub fn seat_token(seat: Seat) -> String {
    format!("seat-{seat}")
}

/// One table run by its task, to be sent client messages.
#[derive(Debug)]
pub struct Harness {
    runtime: tokio::runtime::Runtime,
    store: Arc<MemoryStore>,
    table: TableHandle,
}

impl Harness {
    /// A table of `ruleset` (record form) dealt from `seed`, with bots (`random` or
    /// `heuristic`) in the seats of `bots` and people (tokens [`seat_token`]) in the others,
    /// started, its first deal dealt and then `actions` random legal actions taken (fewer if
    /// the game ends first).
    ///
    /// # Errors
    ///
    /// A bad ruleset or bot, every seat given to a bot (nobody could send a message), or a
    /// runtime that cannot be built.
    pub fn new(
        ruleset: &Value,
        seed: u64,
        bots: &[(Seat, &str)],
        actions: usize,
    ) -> Result<Harness, String> {
        let id = "fuzz";
        let created = Event::Created {
            ruleset: ruleset.clone(),
            seed,
            host: token_hash(HOST_TOKEN),
            timer: None,
            created: 0,
            invite: None,
        };
        let mut state = TableState::new(id, &created).map_err(|e| e.to_string())?;
        let created = Event::Created {
            ruleset: state.rules().to_json(),
            seed,
            host: token_hash(HOST_TOKEN),
            timer: None,
            created: 0,
            invite: None,
        };
        let n = state.seats().len();
        let mut events = vec![created];
        for seat in 0..n {
            events.push(match bots.iter().find(|(s, _)| *s == seat) {
                Some((_, bot)) if matches!(*bot, "random" | "heuristic") => Event::Bot {
                    seat,
                    bot: bot
                        .parse()
                        .map_err(|e: torite_bots::BotError| e.to_string())?,
                },
                Some((_, bot)) => return Err(format!("bot {bot:?}: random or heuristic only")),
                None => Event::Join {
                    seat,
                    name: format!("p{seat}"),
                    token: token_hash(&seat_token(seat)),
                },
            });
        }
        if !events.iter().any(|e| matches!(e, Event::Join { .. })) {
            return Err("every seat has a bot: nobody could send a message".into());
        }
        events.push(Event::Start);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for event in &events[1..] {
            state.apply(event).map_err(|e| e.to_string())?;
        }
        let mut taken = 0;
        loop {
            let next = match state.next_step() {
                Some(step) => step,
                None => match state
                    .game()
                    .deal()
                    .filter(|d| !d.is_over() && taken < actions)
                {
                    Some(deal) => {
                        let legal = deal.legal_actions();
                        let pick = below(&mut rng, legal.len() as u32) as usize;
                        let action = legal.nth(pick).ok_or("no legal action")?;
                        taken += 1;
                        Event::Act {
                            seat: deal.to_act(),
                            action,
                            by: Actor::Occupant,
                        }
                    }
                    None => break,
                },
            };
            state.apply(&next).map_err(|e| e.to_string())?;
            events.push(next);
        }
        let store = Arc::new(MemoryStore::default());
        let bodies: Vec<String> = events
            .iter()
            .map(|e| serde_json::to_string(e).map_err(|e| e.to_string()))
            .collect::<Result<_, _>>()?;
        store
            .tables
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(id.to_owned(), (0, bodies));
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .map_err(|e| format!("cannot build a runtime: {e}"))?;
        let table = {
            let _entered = runtime.enter();
            let store: Arc<dyn Store> = Arc::clone(&store) as Arc<dyn Store>;
            actor::spawn(state, store, Config::instant())
        };
        let harness = Harness {
            runtime,
            store,
            table,
        };
        harness.settle()?;
        Ok(harness)
    }

    /// Sends one message text as the holder of `token` would over a WebSocket (`None`: a
    /// spectator), and waits until the table is idle again. Returns the answer sent back to
    /// that socket, if any (an accepted action has none: the new state is published).
    ///
    /// # Errors
    ///
    /// The table's task has stopped.
    pub fn send(&self, token: Option<&str>, text: &str) -> Result<Option<String>, String> {
        let answer = self
            .runtime
            .block_on(crate::ws::handle(&self.table, token, text))
            .answer;
        self.settle()?;
        Ok(answer)
    }

    /// Waits until the table's task has taken every step it takes by itself (it answers a
    /// request only between steps).
    fn settle(&self) -> Result<(), String> {
        self.runtime.block_on(async {
            let (reply, answer) = oneshot::channel();
            let stopped = || "the table's task has stopped (did it panic?)".to_owned();
            self.table
                .tx
                .send(Cmd::Record { reply })
                .await
                .map_err(|_| stopped())?;
            answer.await.map(|_| ()).map_err(|_| stopped())
        })
    }

    /// The state the table published last.
    #[must_use]
    pub fn published(&self) -> Arc<Published> {
        Arc::clone(&self.table.states.borrow())
    }

    /// The table's stored events, in order.
    #[must_use]
    pub fn events(&self) -> Vec<String> {
        self.store.events(&self.table.id)
    }

    /// The version of the published state (what an action must answer).
    #[must_use]
    pub fn version(&self) -> u64 {
        self.published().version
    }

    /// The seat to act and its legal actions, if a deal is in progress.
    #[must_use]
    pub fn to_act(&self) -> Option<(Seat, Vec<String>)> {
        let deal = shown_deal(&self.events()).ok()??;
        (!deal.is_over()).then(|| {
            let legal = deal.legal_actions().iter().map(|a| a.to_string()).collect();
            (deal.to_act(), legal)
        })
    }

    /// Checks what must hold after any message (see the module's documentation).
    ///
    /// # Errors
    ///
    /// One line saying which property broke and where.
    pub fn check(&self) -> Result<(), String> {
        self.settle()?;
        let published = self.published();
        let events = self.events();
        let replayed = replay(&self.table.id, &events)?;
        if replayed.version() != published.version {
            return Err(format!(
                "the log replays to version {}, but version {} was published",
                replayed.version(),
                published.version
            ));
        }
        // The lobby summary also carries presence, which lives in the table's task, not in
        // its log: the messages are compared as built with the published summary, and the
        // summary on what the log decides.
        let n = replayed.seats().len();
        let logged = replayed.summary(&vec![0; n]);
        let summary = &published.summary;
        let shared = Arc::new(summary.clone());
        let seats_of = |s: &crate::table::Summary| -> Vec<(String, &'static str, Option<String>)> {
            s.seats
                .iter()
                .map(|x| (x.name.clone(), x.kind, x.bot.clone()))
                .collect()
        };
        if (summary.status, summary.deals, seats_of(summary))
            != (logged.status, logged.deals, seats_of(&logged))
        {
            return Err("the published summary is not the one the stored log replays to".into());
        }
        let results: Arc<[crate::protocol::ResultMsg]> = replayed.results().into();
        for seat in 0..n {
            let expected = match replayed.seats()[seat] {
                Occupant::Human { .. } => replayed
                    .state_message(Some(seat), &shared, &results, None)
                    .to_text(),
                _ => String::new(),
            };
            if *published.seats[seat] != *expected {
                return Err(format!(
                    "seat {seat}: the published state is not the one the stored log replays to"
                ));
            }
        }
        let spectator = replayed.state_message(None, &shared, &results, None);
        if *published.spectator != *spectator.to_text() {
            return Err("the spectators' published state is not the one the log replays to".into());
        }
        let Some(deal) = shown_deal(&events)? else {
            return Ok(());
        };
        for (seat, text) in published
            .seats
            .iter()
            .enumerate()
            .map(|(s, t)| (Some(s), t))
            .chain([(None, &published.spectator)])
        {
            let shown = shown_cards(text);
            for owner in (0..deal.players()).filter(|&o| Some(o) != seat) {
                if let Some(card) = (deal.hand(owner) & shown).first() {
                    return Err(format!(
                        "the state sent to {} shows {card}, which seat {owner} holds",
                        seat.map_or("spectators".to_owned(), |s| format!("seat {s}"))
                    ));
                }
            }
        }
        Ok(())
    }
}

/// Every card a state message (JSON text) names, anywhere but as the trump (`"trump": "JK"`
/// names the joker's trump, not the card): the quoted two-character card codes.
fn shown_cards(text: &str) -> CardSet {
    let bytes = text.as_bytes();
    let mut shown = CardSet::EMPTY;
    for i in 0..bytes.len().saturating_sub(3) {
        if bytes[i] != b'"' || bytes[i + 3] != b'"' || text[..i].ends_with("\"trump\":") {
            continue;
        }
        if let Some(code) = text.get(i + 1..i + 3)
            && let Ok(card) = code.parse::<Card>()
            && card.to_string() == code
        {
            shown.insert(card);
        }
    }
    shown
}

/// A table rebuilt from its stored events, as the server does on start.
fn replay(id: &str, events: &[String]) -> Result<TableState, String> {
    let parse = |i: usize, body: &str| {
        serde_json::from_str::<Event>(body)
            .map_err(|e| format!("stored event {i} is not an event: {e}"))
    };
    let first = events.first().ok_or("the table has no stored events")?;
    let mut state =
        TableState::new(id, &parse(0, first)?).map_err(|e| format!("stored event 0: {e}"))?;
    for (i, body) in events.iter().enumerate().skip(1) {
        state
            .apply(&parse(i, body)?)
            .map_err(|e| format!("stored event {i} does not replay: {e}"))?;
    }
    Ok(state)
}

/// The deal the table shows, worked out from the log with a [`Game`] of its own: the one in
/// progress, or the last one until the next is dealt.
fn shown_deal(events: &[String]) -> Result<Option<Deal>, String> {
    let mut game: Option<Game> = None;
    let mut shown: Option<Deal> = None;
    // The game as the deal in progress began, and its actions since, for undo.
    let mut at_deal: Option<Game> = None;
    let mut acts: Vec<(Seat, Action)> = Vec::new();
    for body in events {
        let event: Event = serde_json::from_str(body).map_err(|e| e.to_string())?;
        match event {
            Event::Created { ruleset, .. } => {
                let rules = torite_core::Ruleset::from_json(&ruleset).map_err(|e| e.to_string())?;
                game =
                    Some(Game::new(rules, rules.players as usize - 1).map_err(|e| e.to_string())?);
            }
            Event::Deal { hands } => {
                let hands: Vec<CardSet> = hands
                    .iter()
                    .map(|h| h.parse().map_err(|e| format!("{e}")))
                    .collect::<Result<_, String>>()?;
                let game = game.as_mut().ok_or("a deal before the table")?;
                shown = Some(game.start_deal(&hands).map_err(|e| e.to_string())?.clone());
                at_deal = Some(game.clone());
                acts.clear();
            }
            Event::Act { seat, action, .. } => {
                let game = game.as_mut().ok_or("an act before the table")?;
                game.apply(action).map_err(|e| e.to_string())?;
                shown = game.deal().cloned();
                acts.push((seat, action));
            }
            Event::Undo { seat } => {
                let from = acts
                    .iter()
                    .rposition(|(s, _)| *s == seat)
                    .ok_or("an undo of nothing")?;
                acts.truncate(from);
                let mut again = at_deal.clone().ok_or("an undo before a deal")?;
                for (_, action) in &acts {
                    again.apply(*action).map_err(|e| e.to_string())?;
                }
                shown = again.deal().cloned();
                game = Some(again);
            }
            Event::Score { draw } => {
                let game = game.as_mut().ok_or("a score before the table")?;
                game.finish_deal(draw).map_err(|e| e.to_string())?;
            }
            Event::Join { .. }
            | Event::Bot { .. }
            | Event::Start
            | Event::Chat { .. }
            | Event::Mute { .. }
            | Event::Series { .. }
            | Event::Next { .. } => {}
        }
    }
    Ok(shown)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn act(version: u64, action: &str) -> String {
        json!({"type": "act", "action": action, "version": version}).to_string()
    }

    #[test]
    fn a_legal_action_is_published_and_replays() {
        let h = Harness::new(&json!("mini-misere-4"), 7, &[(1, "random")], 3).expect("table");
        h.check().expect("fresh table");
        let (seat, legal) = h.to_act().expect("someone is to act");
        let before = h.version();
        let answer = h
            .send(Some(&seat_token(seat)), &act(before, &legal[0]))
            .expect("sent");
        assert_eq!(answer, None, "an accepted action gets no answer");
        assert!(h.version() > before);
        h.check().expect("after an action");
    }

    #[test]
    fn bad_messages_are_answered_and_change_nothing() {
        let h = Harness::new(&json!("mura-3"), 3, &[], 2).expect("table");
        let (seat, _) = h.to_act().expect("someone is to act");
        let other = (seat + 1) % 3;
        let version = h.version();
        for (token, text) in [
            (None, act(version, "AS")),
            (Some(seat_token(other)), act(version, "AS")),
            (Some(seat_token(seat)), act(version + 1, "AS")),
            (Some(seat_token(seat)), "{\"type\":\"act\"}".to_owned()),
            (Some("nobody".to_owned()), act(version, "AS")),
            (Some(HOST_TOKEN.to_owned()), "[1,2".to_owned()),
        ] {
            let answer = h.send(token.as_deref(), &text).expect("sent");
            assert!(answer.is_some_and(|a| a.contains("\"error\"")), "{text}");
        }
        assert_eq!(h.version(), version);
        h.check().expect("unchanged");
    }

    #[test]
    fn a_card_is_seen_wherever_it_is_but_as_the_trump() {
        let cards = |c: &str| c.parse::<CardSet>().expect("cards");
        let text = r#"{"hand":["AS"],"trump":"JK","trick":[{"seat":0,"card":"9H"}],"led":"S"}"#;
        assert_eq!(shown_cards(text), cards("AS 9H"));
        assert_eq!(
            shown_cards(r#"{"trump":"JK","trick":["JK"],"x":"as"}"#),
            cards("JK")
        );
    }

    #[test]
    fn a_table_of_bots_only_is_refused() {
        let bots = [(0, "random"), (1, "random"), (2, "random")];
        assert!(Harness::new(&json!("mittlere-jass"), 1, &bots, 0).is_err());
        assert!(Harness::new(&json!("mittlere-jass"), 1, &[(0, "ismcts")], 0).is_err());
    }
}
