//! One table's state, rebuilt from its event log.
//!
//! A table is its log of [`Event`]s (`event.rs`): created, seats taken, started, deals dealt,
//! actions taken, deals scored. [`TableState`] is who sits where (people, bots, tokens) and the
//! game as core's [`Table`] plays it, which deals, checks the actions, scores, draws and keeps
//! the record; the server adds no game logic of its own. [`TableState::apply`] checks an event
//! and applies it, changing nothing when it refuses one, so the same function runs live (after
//! the event is stored) and when a table is reloaded from the store. Every message to a seat is
//! built from that seat's [`View`](torite_core::View) ([`TableState::state_message`],
//! `message.rs`), so another seat's cards cannot reach it.

use serde_json::{Value, json};
use torite_bots::{BotError, BotSpec};
use torite_core::table::{Step, first_dealer};
use torite_core::{CardSet, Deal, Game, GameError, Ruleset, ScoreError, Seat, Table, Trump};

mod chat;
mod event;
mod message;
#[cfg(test)]
mod tests;

pub use crate::protocol::{SeatSummary, Summary};
pub use chat::{CHAT_KEPT, ChatLine, MAX_CHAT, REACTIONS, check_chat_text, check_reaction};
pub use event::{Actor, Event, SeriesGame};

/// Longest display name, in characters.
pub const MAX_NAME: usize = 24;

/// Who sits in a seat.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Occupant {
    /// Nobody yet.
    Empty,
    /// A person, known by the hash of their seat token.
    Human {
        /// Display name.
        name: String,
        /// The seat token's hash.
        token: String,
    },
    /// A bot.
    Bot {
        /// The bot spec (`heuristic`, `ismcts:200ms`, ...).
        spec: BotSpec,
    },
}

use crate::refusal::{Key, Why};
pub use crate::refusal::{Refusal, RefusalKind};

/// Where the table is in its life.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Status {
    /// Seats are being filled.
    Open,
    /// The game is on.
    Playing,
    /// The game has ended.
    Finished,
}

impl Status {
    /// The protocol word.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::Playing => "playing",
            Status::Finished => "finished",
        }
    }
}

/// A table's state: who sits where, and the game as core's [`Table`] drives it.
///
/// The game is the [`Table`]'s: it deals every deal and makes every draw from the table seed,
/// checks and applies the actions, scores each deal and keeps the record. The log follows it
/// with events of its own, a step behind: the table deals the next deal as soon as one is
/// scored, the log deals it (a `deal` event holding its hands, so that a later seed scheme
/// does not change how a log replays) after the pause between deals; the table scores a deal
/// with its last action, the log with the `score` event that follows it (holding the draw,
/// where one is needed). Until the log has dealt a deal the messages show the one before.
#[derive(Debug)]
pub struct TableState {
    id: String,
    host: String,
    timer: Option<u32>,
    created: u64,
    /// The hash of a private table's invite secret.
    invite: Option<String>,
    seats: Vec<Occupant>,
    started: bool,
    table: Table,
    /// The log's `deal` events so far: the deals the messages may show.
    dealt: usize,
    /// The log's `score` events so far.
    scored: usize,
    /// The token hashes of people whose seats were given to bots, with those seats.
    replaced: Vec<(String, Seat)>,
    /// The seat of each action of the deal in progress, in order (for undo).
    acted: Vec<Seat>,
    /// A person's request to take back their last action, waiting for the others' answers.
    /// Not an event: a request is only asked, and a restart forgets it.
    undo_request: Option<UndoRequest>,
    version: u64,
    /// The events applied, talk included: the sequence number of the next one in the log.
    seq: u64,
    /// The chat's last lines and mutes.
    chat: chat::Chat,
    /// The series' games before this one (a rematch's table).
    series: Vec<SeriesGame>,
    /// The seats kept for the people of the game before (token hashes).
    reserved: Vec<Option<String>>,
    /// The rematch's table, once this game is over and someone asked for it.
    next: Option<String>,
}

/// A request to take back a seat's last action, waiting for the other people's answers.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct UndoRequest {
    /// The seat asking.
    pub by: Seat,
    /// The people who have not yet accepted.
    pub waiting: Vec<Seat>,
}

/// How a seat may take back its last action ([`TableState::undo_way`]).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum UndoWay {
    /// At once: every other seat is a bot's.
    Now,
    /// Once each of these people (every other person at the table) has accepted.
    Ask(Vec<Seat>),
}

/// The hash of a seat token as stored: SHA-256, hex.
#[must_use]
pub fn token_hash(token: &str) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(token.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// Why a character may not be in a display name, if it may not, as the catalog key of the
/// kind of character (`char-bidi`, ...): control and format characters (the bidirectional
/// controls and zero-width characters among them), line and paragraph separators,
/// private-use, surrogate and unassigned code points.
#[must_use]
pub fn refused_in_name(c: char) -> Option<&'static str> {
    use unicode_properties::{GeneralCategory as G, UnicodeGeneralCategory};
    let bidi = matches!(
        c,
        '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
    );
    if bidi {
        return Some("char-bidi");
    }
    if matches!(c, '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}') {
        return Some("char-zero-width");
    }
    match c.general_category() {
        G::Control => Some("char-control"),
        G::Format => Some("char-format"),
        G::LineSeparator | G::ParagraphSeparator => Some("char-separator"),
        G::PrivateUse => Some("char-private-use"),
        G::Surrogate | G::Unassigned => Some("char-unassigned"),
        _ => None,
    }
}

/// Checks a new display name: trimmed, 1 to [`MAX_NAME`] characters, none that
/// [`refused_in_name`] refuses.
///
/// # Errors
///
/// A 400 refusal saying what is wrong, naming a refused character as `U+XXXX`.
pub fn check_name(name: &str) -> Result<String, Refusal> {
    let name = name.trim();
    if name.is_empty() {
        return Err(Refusal::bad(Why::NameNeeded));
    }
    if let Some((c, why)) = name
        .chars()
        .find_map(|c| refused_in_name(c).map(|w| (c, w)))
    {
        return Err(Refusal::bad(Why::NameCharacter {
            character: format!("U+{:04X}", u32::from(c)),
            why: Key(why),
        }));
    }
    let length = name.chars().count();
    if length > MAX_NAME {
        return Err(Refusal::bad(Why::NameTooLong {
            max: MAX_NAME.to_string(),
            length: length.to_string(),
        }));
    }
    Ok(name.to_owned())
}

/// The check a stored `join` passes: the rule names were accepted by before
/// [`check_name`] refused more, so that older logs still load.
fn check_stored_name(name: &str) -> Result<(), Refusal> {
    if name.trim().is_empty() || name.chars().count() > MAX_NAME {
        return Err(Refusal::bad(Why::NameLength {
            max: MAX_NAME.to_string(),
        }));
    }
    if name.chars().any(char::is_control) {
        return Err(Refusal::bad(Why::NameControl));
    }
    Ok(())
}

/// Reads a bot spec from a request.
///
/// # Errors
///
/// A 400 refusal naming the known levels and bots, or the budget's range.
pub fn parse_bot(spec: &str) -> Result<BotSpec, Refusal> {
    spec.parse().map_err(|e: BotError| {
        Refusal::bad(match e {
            BotError::UnknownBot(bot) => Why::BotUnknown {
                bot: crate::refusal::shown(&bot),
                known: torite_bots::Level::ALL
                    .iter()
                    .map(|l| l.id())
                    .chain(torite_bots::BOT_NAMES)
                    .collect::<Vec<_>>()
                    .join(", "),
            },
            other => Why::BotBudget {
                detail: other.to_string(),
            },
        })
    })
}

impl TableState {
    /// A table from its `Created` event: its game's first deal is dealt by
    /// [`first_dealer`] (the last seat) from the table seed, and shown once the log deals it.
    ///
    /// # Errors
    ///
    /// A 400 refusal for a bad ruleset (the same message as the command line's), or an event
    /// that is not `Created`.
    pub fn new(id: &str, created: &Event) -> Result<TableState, Refusal> {
        let Event::Created {
            ruleset,
            seed,
            host,
            timer,
            created,
            invite,
        } = created
        else {
            return Err(Refusal::bad(Why::LogStart));
        };
        let bad_rules = |e: String| Refusal::bad(Why::BadRuleset { detail: e });
        let rules = Ruleset::from_json(ruleset)
            .map_err(|e| Refusal::bad(crate::refusal::ruleset_refused(&e)))?;
        let table =
            Table::new(rules, first_dealer(&rules), *seed).map_err(|e| bad_rules(e.to_string()))?;
        Ok(TableState {
            id: id.to_owned(),
            host: host.clone(),
            timer: *timer,
            created: *created,
            invite: invite.clone(),
            seats: vec![Occupant::Empty; rules.players as usize],
            started: false,
            table,
            dealt: 0,
            scored: 0,
            replaced: Vec::new(),
            acted: Vec::new(),
            undo_request: None,
            version: 1,
            seq: 1,
            chat: chat::Chat::default(),
            series: Vec::new(),
            reserved: Vec::new(),
            next: None,
        })
    }

    /// The table id.
    #[must_use]
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The number of events applied (the `Created` event included) but the chat's: the
    /// state's version, which an action answers.
    #[must_use]
    pub const fn version(&self) -> u64 {
        self.version
    }

    /// The number of events applied, the chat's included: the sequence number the next event
    /// is stored at.
    #[must_use]
    pub const fn seq(&self) -> u64 {
        self.seq
    }

    /// The rules.
    #[must_use]
    pub const fn rules(&self) -> &Ruleset {
        self.table.game().rules()
    }

    /// The game.
    #[must_use]
    pub const fn game(&self) -> &Game {
        self.table.game()
    }

    /// The game's driver, which may be a deal ahead of the log (see [`TableState`]).
    #[must_use]
    pub const fn table(&self) -> &Table {
        &self.table
    }

    /// Who sits where.
    #[must_use]
    pub fn seats(&self) -> &[Occupant] {
        &self.seats
    }

    /// The hash of the invite secret of a private table; `None` for a public one.
    #[must_use]
    pub fn invite(&self) -> Option<&str> {
        self.invite.as_deref()
    }

    /// Seconds a human has to act before a bot plays for them.
    #[must_use]
    pub const fn timer(&self) -> Option<u32> {
        self.timer
    }

    /// The table's seed.
    #[must_use]
    pub const fn seed(&self) -> u64 {
        self.table.seeds().seed()
    }

    /// Whether the game is over: its last deal is scored, by the table and by the log (which
    /// scores it with the event after its last action).
    #[must_use]
    pub fn is_finished(&self) -> bool {
        self.game().is_finished() && self.scored == self.dealt
    }

    /// Where the table is in its life.
    #[must_use]
    pub fn status(&self) -> Status {
        if self.is_finished() {
            Status::Finished
        } else if self.started {
            Status::Playing
        } else {
            Status::Open
        }
    }

    /// The series' games before this one (empty: not a rematch).
    #[must_use]
    pub fn series(&self) -> &[SeriesGame] {
        &self.series
    }

    /// The rematch's table, once asked for.
    #[must_use]
    pub fn next(&self) -> Option<&str> {
        self.next.as_deref()
    }

    /// The host's token hash.
    #[must_use]
    pub fn host_hash(&self) -> &str {
        &self.host
    }

    /// Whether `token_hash` is the host's.
    #[must_use]
    pub fn is_host(&self, token_hash: &str) -> bool {
        self.host == token_hash
    }

    /// The seat this token acts for, if any.
    #[must_use]
    pub fn seat_of(&self, token_hash: &str) -> Option<Seat> {
        self.seats
            .iter()
            .position(|o| matches!(o, Occupant::Human { token, .. } if token == token_hash))
    }

    /// The seat this token held before the host gave it to a bot, if it did.
    #[must_use]
    pub fn replaced_seat(&self, token_hash: &str) -> Option<Seat> {
        self.replaced
            .iter()
            .find(|(t, _)| t == token_hash)
            .map(|(_, s)| *s)
    }

    /// The display name of a seat.
    #[must_use]
    pub fn name(&self, seat: Seat) -> String {
        match &self.seats[seat] {
            Occupant::Empty => String::new(),
            Occupant::Human { name, .. } => name.clone(),
            Occupant::Bot { spec } => spec.to_string(),
        }
    }

    /// The deal the messages show, with its index: the deal the log dealt last, in progress
    /// or over (then the table has already dealt the next one).
    pub(crate) fn shown(&self) -> Option<(usize, &Deal)> {
        let index = self.dealt.checked_sub(1)?;
        let deal = if self.game().results().len() > index {
            self.table.last_deal()
        } else {
            self.table.deal()
        };
        deal.map(|deal| (index, deal))
    }

    /// The seat to act now, if the deal the log dealt last is in progress.
    #[must_use]
    pub fn to_act(&self) -> Option<Seat> {
        if self.dealt <= self.game().results().len() {
            return None;
        }
        match self.table.next_step() {
            Step::Act { seat } => Some(seat),
            Step::Draw { .. } | Step::GameOver => None,
        }
    }

    /// What the table does next on its own, when nobody needs to act: the log scores the
    /// deal that is over (with the seed's draw, where one is needed) or deals the deal the
    /// table has dealt.
    #[must_use]
    pub fn next_step(&self) -> Option<Event> {
        if !self.started {
            return None;
        }
        if self.scored < self.dealt {
            if self.game().results().len() == self.dealt {
                return Some(Event::Score { draw: None });
            }
            return match self.table.next_step() {
                Step::Draw { .. } => Some(Event::Score {
                    draw: self.table.clone().draw().ok(),
                }),
                Step::Act { .. } | Step::GameOver => None,
            };
        }
        let next = self.table.record().deals.get(self.dealt)?;
        Some(Event::Deal {
            hands: next.hands.iter().map(CardSet::to_string).collect(),
        })
    }

    /// Whether the table waits between deals (a deal was just scored).
    #[must_use]
    pub fn between_deals(&self) -> bool {
        self.started && self.scored > 0 && self.scored == self.dealt && !self.game().is_finished()
    }

    /// Checks an event and applies it; nothing changes when it is refused.
    ///
    /// # Errors
    ///
    /// A refusal saying why the event does not fit the table now.
    pub fn apply(&mut self, event: &Event) -> Result<(), Refusal> {
        self.check(event)?;
        self.seq += 1;
        if event.is_talk() {
            self.apply_talk(event);
            return Ok(());
        }
        match event {
            Event::Created { .. } | Event::Chat { .. } | Event::Mute { .. } => {}
            Event::Series { games, reserved } => {
                self.series.clone_from(games);
                self.reserved.clone_from(reserved);
            }
            Event::Next { table } => self.next = Some(table.clone()),
            Event::Join { seat, name, token } => {
                self.seats[*seat] = Occupant::Human {
                    name: name.clone(),
                    token: token.clone(),
                };
            }
            Event::Bot { seat, bot } => {
                if let Occupant::Human { token, .. } = &self.seats[*seat] {
                    self.replaced.push((token.clone(), *seat));
                }
                self.seats[*seat] = Occupant::Bot { spec: *bot };
            }
            Event::Start => {
                self.started = true;
                let names = (0..self.seats.len()).map(|s| self.name(s)).collect();
                // One name per seat: the table takes them.
                let _ = self.table.set_players(names);
            }
            Event::Deal { hands } => {
                let hands = parse_hands(hands)?;
                if self.dealt_hands() != Some(&hands[..]) {
                    // A log written under another seed scheme holds its own hands.
                    self.table.deal_with(&hands).map_err(|e| bad_event(&e))?;
                }
                self.dealt += 1;
                self.acted.clear();
            }
            Event::Act { seat, action, .. } => {
                let action = *action;
                self.table.apply(action).map_err(|e| match e {
                    GameError::Play(e) => Refusal::illegal(action, &e),
                    other => bad_event(&other),
                })?;
                // Cleared by the next deal (until then no undo is taken: the deal is scored).
                self.acted.push(*seat);
            }
            Event::Undo { seat } => {
                let from = self.acted.iter().rposition(|s| s == seat).unwrap_or(0);
                for _ in from..self.acted.len() {
                    self.table
                        .undo_last()
                        .ok_or_else(|| bad_event(&"an action to undo is not in the record"))?;
                }
                self.acted.truncate(from);
            }
            Event::Score { draw } => {
                if let (Some(seat), Step::Draw { .. }) = (*draw, self.table.next_step()) {
                    self.table.draw_with(seat).map_err(|e| bad_event(&e))?;
                }
                self.scored += 1;
            }
        }
        self.version += 1;
        // A waiting request goes once it can no longer be granted (someone else acted), or
        // once the seat that asked has acted again (it asked about another action).
        if let Some(request) = &self.undo_request
            && (!matches!(self.undo_way(request.by), Ok(UndoWay::Ask(_)))
                || matches!(event, Event::Act { seat, .. } if *seat == request.by))
        {
            self.undo_request = None;
        }
        Ok(())
    }

    /// The undo request waiting for answers, if any.
    #[must_use]
    pub const fn undo_request(&self) -> Option<&UndoRequest> {
        self.undo_request.as_ref()
    }

    /// `seat` asks the other people to let it take back its last action.
    ///
    /// # Errors
    ///
    /// `undo-pending` while another request waits; `undo_way`'s refusals.
    pub fn ask_undo(&mut self, seat: Seat, people: Vec<Seat>) -> Result<(), Refusal> {
        if self.undo_request.is_some() {
            return Err(Refusal::conflict(Why::UndoPending));
        }
        self.undo_request = Some(UndoRequest {
            by: seat,
            waiting: people,
        });
        Ok(())
    }

    /// `seat` answers the waiting request: declined (or withdrawn by the seat that asked),
    /// it goes; accepted by the last person asked, the seat that asked is returned (its undo
    /// is then to be committed).
    ///
    /// # Errors
    ///
    /// `undo-not-asked` when no request waits for this seat's answer.
    pub fn answer_undo(&mut self, seat: Seat, accept: bool) -> Result<Option<Seat>, Refusal> {
        let Some(request) = self
            .undo_request
            .as_mut()
            .filter(|r| r.waiting.contains(&seat) || (r.by == seat && !accept))
        else {
            return Err(Refusal::conflict(Why::UndoNotAsked));
        };
        if !accept {
            self.undo_request = None;
            return Ok(None);
        }
        request.waiting.retain(|s| *s != seat);
        if request.waiting.is_empty() {
            let by = request.by;
            self.undo_request = None;
            return Ok(Some(by));
        }
        Ok(None)
    }

    /// Whether and how `seat` may take back its last action: only while a deal is in
    /// progress, once the seat has acted in it, and, with other people at the table, only
    /// until one of them has acted after it (the bots' answers are taken back with it).
    ///
    /// # Errors
    ///
    /// Why not (`undo-not-now`, `undo-nothing`, `undo-too-late`).
    pub fn undo_way(&self, seat: Seat) -> Result<UndoWay, Refusal> {
        if self.to_act().is_none() {
            return Err(Refusal::conflict(Why::UndoNotNow));
        }
        let Some(last) = self.acted.iter().rposition(|s| *s == seat) else {
            return Err(Refusal::conflict(Why::UndoNothing));
        };
        let person = |s: Seat| matches!(self.seats[s], Occupant::Human { .. });
        if self.acted[last + 1..].iter().any(|s| person(*s)) {
            return Err(Refusal::conflict(Why::UndoTooLate));
        }
        let people: Vec<Seat> = (0..self.seats.len())
            .filter(|s| *s != seat && person(*s))
            .collect();
        Ok(if people.is_empty() {
            UndoWay::Now
        } else {
            UndoWay::Ask(people)
        })
    }

    /// The hands of the deal the table has dealt and the log has not yet.
    fn dealt_hands(&self) -> Option<&[CardSet]> {
        let deal = self.table.record().deals.get(self.dealt)?;
        Some(&deal.hands)
    }

    /// Checks an event without applying it.
    ///
    /// # Errors
    ///
    /// A refusal saying why.
    pub fn check(&self, event: &Event) -> Result<(), Refusal> {
        let n = self.seats.len();
        let seat_ok = |seat: Seat| {
            if seat < n {
                Ok(())
            } else {
                Err(Refusal::bad(Why::NoSuchSeat {
                    seat: seat.to_string(),
                    last: (n - 1).to_string(),
                }))
            }
        };
        match event {
            Event::Created { .. } => Err(Refusal::bad(Why::TableExists)),
            Event::Chat { .. } | Event::Mute { .. } => self.check_talk(event),
            Event::Series { reserved, .. } => {
                if self.version != 1 || reserved.len() != n {
                    return Err(Refusal::bad(Why::SeriesNotFirst));
                }
                Ok(())
            }
            Event::Next { .. } => {
                if !self.is_finished() {
                    return Err(Refusal::conflict(Why::RematchNotYet));
                }
                if self.next.is_some() {
                    return Err(Refusal::conflict(Why::RematchExists));
                }
                Ok(())
            }
            Event::Join { seat, name, token } => {
                seat_ok(*seat)?;
                check_stored_name(name)?;
                if let Some(Some(kept)) = self.reserved.get(*seat)
                    && kept != token
                {
                    return Err(Refusal::conflict(Why::SeatReserved {
                        seat: (seat + 1).to_string(),
                    }));
                }
                if self.started {
                    return Err(Refusal::conflict(Why::AlreadyStarted));
                }
                if self.seats[*seat] != Occupant::Empty {
                    return Err(Refusal::conflict(Why::SeatTaken {
                        seat: seat.to_string(),
                    }));
                }
                Ok(())
            }
            Event::Bot { seat, .. } => {
                seat_ok(*seat)?;
                if self.game().is_finished() {
                    return Err(Refusal::conflict(Why::GameOver));
                }
                if self.started && matches!(self.seats[*seat], Occupant::Bot { .. }) {
                    return Err(Refusal::conflict(Why::SeatIsBot {
                        seat: seat.to_string(),
                    }));
                }
                Ok(())
            }
            Event::Start => {
                if self.started {
                    return Err(Refusal::conflict(Why::AlreadyStarted));
                }
                if let Some(empty) = self.seats.iter().position(|o| *o == Occupant::Empty) {
                    return Err(Refusal::conflict(Why::SeatEmpty {
                        seat: empty.to_string(),
                    }));
                }
                Ok(())
            }
            Event::Deal { hands } => {
                if !self.started {
                    return Err(Refusal::conflict(Why::NotStarted));
                }
                if self.scored < self.dealt {
                    return Err(bad_event(&GameError::DealInProgress));
                }
                let Some(dealt) = self.dealt_hands() else {
                    return Err(bad_event(&GameError::GameOver));
                };
                let hands = parse_hands(hands)?;
                if dealt != &hands[..] {
                    self.table
                        .clone()
                        .deal_with(&hands)
                        .map_err(|e| bad_event(&e))?;
                }
                Ok(())
            }
            Event::Act { seat, action, .. } => {
                let (Some(to_act), Some(deal)) = (self.to_act(), self.table.deal()) else {
                    return Err(Refusal::conflict(Why::NoDeal));
                };
                let parsed = *action;
                if to_act != *seat {
                    return Err(Refusal::conflict(Why::NotYourTurn {
                        seat: to_act.to_string(),
                    }));
                }
                match deal.check(parsed) {
                    Some(e) => Err(Refusal::illegal(parsed, &e)),
                    None => Ok(()),
                }
            }
            Event::Undo { seat } => {
                seat_ok(*seat)?;
                self.undo_way(*seat).map(|_| ())
            }
            Event::Score { draw } => {
                if self.scored == self.dealt {
                    return Err(Refusal::conflict(Why::NoDealToScore));
                }
                if self.game().results().len() == self.dealt {
                    // Scored with its last action: no draw was needed.
                    return match draw {
                        None => Ok(()),
                        Some(seat) => Err(bad_event(&ScoreError::BadDraw {
                            seat: *seat,
                            tied: 0,
                        })),
                    };
                }
                match (self.table.next_step(), draw) {
                    (Step::Draw { tied }, Some(seat)) if tied.contains(*seat) => Ok(()),
                    (Step::Draw { tied }, Some(seat)) => Err(bad_event(&ScoreError::BadDraw {
                        seat: *seat,
                        tied: tied.bits(),
                    })),
                    (Step::Draw { tied }, None) => {
                        Err(bad_event(&ScoreError::NeedsDraw { tied: tied.bits() }))
                    }
                    (Step::Act { .. } | Step::GameOver, _) => {
                        Err(Refusal::conflict(Why::NoDealToScore))
                    }
                }
            }
        }
    }

    /// The game record: every deal when the game is over; only the completed deals while it
    /// is in progress (the deal being played has hidden hands).
    #[must_use]
    pub fn record(&self) -> Value {
        let mut record = self.table.record().clone();
        if !self.game().is_finished() {
            record.deals.truncate(self.game().results().len());
        }
        if record.players.is_none() {
            record.players = Some((0..self.seats.len()).map(|s| self.name(s)).collect());
        }
        let mut value = record.to_json();
        value["table"] = json!({
            "id": self.id,
            "created": self.created,
            "complete": self.game().is_finished(),
        });
        value
    }
}

/// The refusal of a stored event the game does not take.
fn bad_event(e: &impl std::fmt::Display) -> Refusal {
    Refusal::bad(Why::BadEvent {
        detail: e.to_string(),
    })
}

fn parse_hands(hands: &[String]) -> Result<Vec<CardSet>, Refusal> {
    hands
        .iter()
        .map(|h| {
            h.parse::<CardSet>().map_err(|e| {
                Refusal::bad(Why::BadHand {
                    hand: crate::refusal::shown(h),
                    detail: e.to_string(),
                })
            })
        })
        .collect()
}

/// The trump as the protocol writes it: a suit letter, `JK` for the joker alone, or none.
pub(crate) fn trump_code(trump: Trump) -> Option<String> {
    match trump {
        Trump::None => None,
        Trump::Suit(s) => Some(s.letter().to_string()),
        Trump::JokerOnly => Some("JK".to_owned()),
    }
}

/// A hand in display order with `trump` in force ([`torite_i18n::present::hand_order`]: the
/// trump suit in its trump order), as card codes.
pub(crate) fn sorted_hand(rules: &Ruleset, trump: Trump, hand: CardSet) -> Vec<String> {
    torite_i18n::present::hand_order(rules, trump, hand)
        .iter()
        .map(ToString::to_string)
        .collect()
}
