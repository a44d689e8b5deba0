//! One table's state, rebuilt from its event log.
//!
//! A table is its log of [`Event`]s: created, seats taken, started, deals dealt, actions taken,
//! deals scored. [`TableState::apply`] checks an event and applies it, changing nothing when it
//! refuses one, so the same function runs live (after the event is stored) and when a table is
//! reloaded from the store. Every message to a seat is built from that seat's [`View`]
//! ([`TableState::state_message`]), so another seat's cards cannot reach it.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use torite_bots::{BotError, BotSpec};
use torite_core::{
    Action, CardSet, Deal, Game, Phase, Record, RecordDeal, Ruleset, Seat, SeatSet, Seeds, Trump,
    View,
};

/// Longest display name, in characters.
pub const MAX_NAME: usize = 24;

/// One entry of a table's log, as stored.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// The table was created.
    Created {
        /// The ruleset in record form.
        ruleset: Value,
        /// Seed of the deals and draws.
        seed: u64,
        /// The host's token hash.
        host: String,
        /// Seconds a human seat has to act before a bot plays for it.
        timer: Option<u32>,
        /// Creation time, seconds since the Unix epoch.
        created: u64,
    },
    /// A person took a seat.
    Join {
        /// The seat.
        seat: Seat,
        /// The display name.
        name: String,
        /// The seat token's hash.
        token: String,
    },
    /// A bot took a seat (empty, or replacing a person).
    Bot {
        /// The seat.
        seat: Seat,
        /// The bot spec, stored as its text (`heuristic`, `ismcts:200ms`).
        #[serde(with = "as_text")]
        bot: BotSpec,
    },
    /// The host started the game.
    Start,
    /// A deal was dealt.
    Deal {
        /// Each seat's hand, as card codes.
        hands: Vec<String>,
    },
    /// A seat acted.
    Act {
        /// The seat.
        seat: Seat,
        /// The action, stored as its code (`AS`, `lot`, `pass`, `call:S`).
        action: Action,
        /// Who chose it; absent when the seat's occupant did.
        #[serde(default, skip_serializing_if = "Actor::is_occupant")]
        by: Actor,
    },
    /// The finished deal was scored.
    Score {
        /// The seat whose drawn card was highest (Molotow three-way tie), where needed.
        draw: Option<Seat>,
    },
}

/// Who chose a seat's action, stored as the `by` of [`Event::Act`].
///
/// Logs written before this type existed stored `by` as free text; the server only ever wrote
/// `"timer"` and `"fallback"` there, or left it out, which is exactly what this reads.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Actor {
    /// The seat's occupant: the person sitting there, or the bot given the seat (no `by`).
    #[default]
    Occupant,
    /// A bot standing in for a person whose move timer ran out (`"timer"`).
    Timer,
    /// The server itself: the first legal action, after the seat's bot chose an illegal one
    /// (`"fallback"`).
    Fallback,
}

impl Actor {
    /// Whether the seat's occupant chose the action (then the log leaves `by` out).
    #[must_use]
    pub const fn is_occupant(&self) -> bool {
        matches!(self, Actor::Occupant)
    }
}

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

/// A table's state: seats, game and record.
#[derive(Debug)]
pub struct TableState {
    id: String,
    rules: Ruleset,
    seed: u64,
    host: String,
    timer: Option<u32>,
    created: u64,
    seats: Vec<Occupant>,
    started: bool,
    game: Game,
    record: Record,
    /// The table seed's streams, past the deals dealt and the draws made so far (the deals of
    /// a stored log keep their own hands and draws, so the seed only decides what comes next).
    seeds: Seeds,
    /// The last finished deal, kept for display until the next one is dealt.
    finished_deal: Option<Deal>,
    /// The token hashes of people whose seats were given to bots, with those seats.
    replaced: Vec<(String, Seat)>,
    version: u64,
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
/// A 400 refusal naming the known bots or the budget's range.
pub fn parse_bot(spec: &str) -> Result<BotSpec, Refusal> {
    spec.parse().map_err(|e: BotError| {
        Refusal::bad(match e {
            BotError::UnknownBot(bot) => Why::BotUnknown {
                bot: crate::refusal::shown(&bot),
                known: torite_bots::BOT_NAMES.join(", "),
            },
            other => Why::BotBudget {
                detail: other.to_string(),
            },
        })
    })
}

/// Serde for a value stored as its text: written with `Display`, read back with `FromStr`.
mod as_text {
    use std::fmt::Display;
    use std::str::FromStr;

    use serde::{Deserialize, Deserializer, Serializer, de};

    pub(super) fn serialize<T: Display, S: Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(v)
    }

    pub(super) fn deserialize<'de, T, D>(d: D) -> Result<T, D::Error>
    where
        T: FromStr<Err: Display>,
        D: Deserializer<'de>,
    {
        String::deserialize(d)?.parse().map_err(de::Error::custom)
    }
}

impl TableState {
    /// A table from its `Created` event.
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
        } = created
        else {
            return Err(Refusal::bad(Why::LogStart));
        };
        let bad_rules = |e: String| Refusal::bad(Why::BadRuleset { detail: e });
        let rules = Ruleset::from_json(ruleset)
            .map_err(|e| Refusal::bad(crate::refusal::ruleset_refused(&e)))?;
        let n = rules.players as usize;
        let game = Game::new(rules, n - 1).map_err(|e| bad_rules(e.to_string()))?;
        Ok(TableState {
            id: id.to_owned(),
            rules,
            seed: *seed,
            host: host.clone(),
            timer: *timer,
            created: *created,
            seats: vec![Occupant::Empty; n],
            started: false,
            game,
            record: Record {
                ruleset: rules,
                players: None,
                deals: Vec::new(),
            },
            seeds: Seeds::new(*seed),
            finished_deal: None,
            replaced: Vec::new(),
            version: 1,
        })
    }

    /// The table id.
    #[must_use]
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The number of events applied (the `Created` event included): the state's version.
    #[must_use]
    pub const fn version(&self) -> u64 {
        self.version
    }

    /// The rules.
    #[must_use]
    pub const fn rules(&self) -> &Ruleset {
        &self.rules
    }

    /// The game.
    #[must_use]
    pub const fn game(&self) -> &Game {
        &self.game
    }

    /// Who sits where.
    #[must_use]
    pub fn seats(&self) -> &[Occupant] {
        &self.seats
    }

    /// Seconds a human has to act before a bot plays for them.
    #[must_use]
    pub const fn timer(&self) -> Option<u32> {
        self.timer
    }

    /// The table's seed.
    #[must_use]
    pub const fn seed(&self) -> u64 {
        self.seed
    }

    /// Where the table is in its life.
    #[must_use]
    pub fn status(&self) -> Status {
        if self.game.is_finished() {
            Status::Finished
        } else if self.started {
            Status::Playing
        } else {
            Status::Open
        }
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

    /// The seat to act now, if a deal is in progress.
    #[must_use]
    pub fn to_act(&self) -> Option<Seat> {
        self.game.deal().filter(|d| !d.is_over()).map(Deal::to_act)
    }

    /// What the table does next on its own, when nobody needs to act.
    #[must_use]
    pub fn next_step(&self) -> Option<Event> {
        if !self.started || self.game.is_finished() {
            return None;
        }
        match self.game.deal() {
            None => Some(Event::Deal {
                hands: self.next_hands(),
            }),
            Some(deal) if deal.is_over() => Some(Event::Score {
                draw: self.next_draw(),
            }),
            Some(_) => None,
        }
    }

    /// Whether the table waits between deals (a deal was just scored).
    #[must_use]
    pub fn between_deals(&self) -> bool {
        self.started
            && !self.game.is_finished()
            && self.game.deal().is_none()
            && self.finished_deal.is_some()
    }

    /// The hands of the next deal: the table seed's next deal ([`Seeds`]).
    fn next_hands(&self) -> Vec<String> {
        let hands = self.seeds.clone().next_hands(&self.rules);
        hands[..self.rules.players as usize]
            .iter()
            .map(CardSet::to_string)
            .collect()
    }

    /// The seat that draws highest when the finished deal needs a draw: the table seed's next
    /// draw ([`Seeds`]).
    fn next_draw(&self) -> Option<Seat> {
        let tied = self.game.draw_needed()?;
        self.seeds.clone().next_draw(SeatSet::from_bits(tied))
    }

    /// Checks an event and applies it; nothing changes when it is refused.
    ///
    /// # Errors
    ///
    /// A refusal saying why the event does not fit the table now.
    pub fn apply(&mut self, event: &Event) -> Result<(), Refusal> {
        self.check(event)?;
        match event {
            Event::Created { .. } => {}
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
                self.record.players = Some((0..self.seats.len()).map(|s| self.name(s)).collect());
            }
            Event::Deal { hands } => {
                let hands = parse_hands(hands)?;
                let deal = self.game.start_deal(&hands).map_err(|e| bad_event(&e))?;
                self.record.deals.push(RecordDeal {
                    dealer: deal.dealer(),
                    hands,
                    actions: Vec::new(),
                    draw: None,
                });
                let _ = self.seeds.next_hands(&self.rules);
                self.finished_deal = None;
            }
            Event::Act { action, .. } => {
                let action = *action;
                self.game.apply(action).map_err(|e| match e {
                    torite_core::GameError::Play(e) => Refusal::illegal(action, &e),
                    other => bad_event(&other),
                })?;
                if let Some(deal) = self.record.deals.last_mut() {
                    deal.actions.push(action);
                }
            }
            Event::Score { draw } => {
                let deal = self.game.deal().cloned();
                let tied = self.game.draw_needed();
                self.game.finish_deal(*draw).map_err(|e| bad_event(&e))?;
                if let Some(tied) = tied {
                    let _ = self.seeds.next_draw(SeatSet::from_bits(tied));
                }
                if let Some(d) = self.record.deals.last_mut() {
                    d.draw = self.game.results().last().and_then(|r| r.draw);
                }
                self.finished_deal = deal;
            }
        }
        self.version += 1;
        Ok(())
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
            Event::Join { seat, name, .. } => {
                seat_ok(*seat)?;
                check_stored_name(name)?;
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
                if self.game.is_finished() {
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
                parse_hands(hands).map(|_| ())
            }
            Event::Act { seat, action, .. } => {
                let Some(deal) = self.game.deal().filter(|d| !d.is_over()) else {
                    return Err(Refusal::conflict(Why::NoDeal));
                };
                let parsed = *action;
                if deal.to_act() != *seat {
                    return Err(Refusal::conflict(Why::NotYourTurn {
                        seat: deal.to_act().to_string(),
                    }));
                }
                match deal.check(parsed) {
                    Some(e) => Err(Refusal::illegal(parsed, &e)),
                    None => Ok(()),
                }
            }
            Event::Score { .. } => match self.game.deal() {
                Some(d) if d.is_over() => Ok(()),
                _ => Err(Refusal::conflict(Why::NoDealToScore)),
            },
        }
    }

    /// The game record: every deal when the game is over; only the completed deals while it
    /// is in progress (the deal being played has hidden hands).
    #[must_use]
    pub fn record(&self) -> Value {
        let mut record = self.record.clone();
        if !self.game.is_finished() {
            record.deals.truncate(self.game.results().len());
        }
        if record.players.is_none() {
            record.players = Some((0..self.seats.len()).map(|s| self.name(s)).collect());
        }
        let mut value = record.to_json();
        value["table"] = json!({
            "id": self.id,
            "created": self.created,
            "complete": self.game.is_finished(),
        });
        value
    }

    /// The lobby's summary of this table (public).
    #[must_use]
    pub fn summary(&self, connected: &[u32]) -> Summary {
        let seats = self
            .seats
            .iter()
            .enumerate()
            .map(|(s, o)| {
                let (kind, bot) = match o {
                    Occupant::Empty => ("empty", None),
                    Occupant::Human { .. } => ("human", None),
                    Occupant::Bot { spec } => ("bot", Some(spec.to_string())),
                };
                SeatSummary {
                    name: self.name(s),
                    kind,
                    bot,
                    connected: connected.get(s).copied().unwrap_or(0) > 0,
                    absent_since: None,
                }
            })
            .collect();
        Summary {
            id: self.id.clone(),
            ruleset: self.rules.to_json(),
            base: self.rules.id(),
            players: self.seats.len(),
            status: self.status().as_str(),
            seats,
            created: self.created,
            timer: self.timer,
            deals: self.game.results().len(),
            replace_after_ms: 0,
        }
    }

    /// The scored deals, as every state message shows them.
    #[must_use]
    pub fn results(&self) -> Vec<ResultMsg> {
        let n = self.seats.len();
        self.game
            .results()
            .iter()
            .enumerate()
            .map(|(i, r)| ResultMsg {
                deal: i,
                dealer: r.dealer,
                tricks: r.facts.tricks[..n].to_vec(),
                points: r.facts.points[..n].to_vec(),
                lot: r.facts.lot.map(|l| LotResultMsg {
                    declarers: l.declaring().iter().collect(),
                    success: l.winner.is_some(),
                }),
                scores: r.score.scores[..n].to_vec(),
                totals: r.totals[..n].to_vec(),
                rule: torite_core::record::rule_name(r.score.rule),
                draw: r.draw,
            })
            .collect()
    }

    /// The state message for `seat` (`None`: a spectator), built from that seat's [`View`],
    /// as JSON text. `summary` and `results` are this state's ([`TableState::summary`],
    /// [`TableState::results`]), shared by every seat's message; `deadline` is when the move
    /// timer of the seat to act runs out (milliseconds since the Unix epoch), if one runs.
    #[must_use]
    pub fn state_message(
        &self,
        seat: Option<Seat>,
        summary: &Summary,
        results: &[ResultMsg],
        deadline: Option<u64>,
    ) -> String {
        let n = self.seats.len();
        let deal = self.game.deal().or(self.finished_deal.as_ref());
        let deal_fields = deal.map(|deal| {
            // Every deal fact below comes through a View; a spectator gets seat 0's view
            // without its hand or legal actions.
            let view = View::new(deal, seat.unwrap_or(0));
            let leader = view.leader();
            let over = view.phase() == Phase::Over;
            let lot = view.lot();
            DealMsg {
                dealer: view.dealer(),
                phase: phase_word(view.phase()),
                to_act: (!over).then(|| view.to_act()),
                leader,
                trick: view
                    .current_trick()
                    .iter()
                    .enumerate()
                    .map(|(i, c)| PlayedMsg {
                        seat: (leader + i) % n,
                        card: c.to_string(),
                    })
                    .collect(),
                winning: view.winning(),
                led: view.led().map(|s| s.letter().to_string()),
                hand_sizes: view.hand_sizes(),
                trump: trump_code(view.trump()),
                lot: LotMsg {
                    declarers: lot.declaring().iter().collect(),
                    failed: lot.failing().iter().collect(),
                },
                tricks_won: view.tricks_won().to_vec(),
                card_points: view.card_points(),
                tricks_completed: view.tricks_completed(),
                last_trick: view.last_trick().map(|t| TrickMsg {
                    leader: t.leader,
                    cards: t.cards().iter().map(ToString::to_string).collect(),
                    winner: t.winner,
                }),
                hand: seat.map(|_| sorted_hand(&self.rules, view.trump(), view.hand())),
                legal: if seat.is_some() {
                    view.legal_actions().iter().map(|a| a.to_string()).collect()
                } else {
                    Vec::new()
                },
            }
        });
        let msg = StateMsg {
            kind: "state",
            version: self.version,
            seat,
            table: summary,
            ruleset: self.rules.id(),
            players: n,
            started: self.started,
            deal: deal.map(|_| self.record.deals.len().saturating_sub(1)),
            totals: self.game.totals(),
            held: self.game.held().len(),
            results,
            finished: self.game.is_finished(),
            winners: self.game.winners(),
            deadline,
            fields: deal_fields,
        };
        serde_json::to_string(&msg).unwrap_or_default()
    }
}

/// A table in the lobby (public: no token).
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct Summary {
    /// The table id.
    pub id: String,
    /// The ruleset in record form.
    pub ruleset: Value,
    /// The preset it is based on.
    pub base: &'static str,
    /// The number of seats.
    pub players: usize,
    /// `open`, `playing` or `finished`.
    pub status: &'static str,
    /// Who sits where.
    pub seats: Vec<SeatSummary>,
    /// Creation time, seconds since the Unix epoch.
    pub created: u64,
    /// The move timer in seconds.
    pub timer: Option<u32>,
    /// Deals scored so far.
    pub deals: usize,
    /// How long a person must have been absent before the host may give the seat to a bot,
    /// in milliseconds.
    pub replace_after_ms: u64,
}

impl Summary {
    /// The summary with the server's presence facts: since when each absent person's seat
    /// has had no socket (milliseconds since the Unix epoch; kept only for a person who is
    /// not connected) and how long an absence must last before the seat may be replaced.
    #[must_use]
    pub fn with_presence(mut self, absent_since: &[Option<u64>], replace_after_ms: u64) -> Summary {
        for (seat, since) in self.seats.iter_mut().zip(absent_since) {
            seat.absent_since = (seat.kind == "human" && !seat.connected)
                .then_some(*since)
                .flatten();
        }
        self.replace_after_ms = replace_after_ms;
        self
    }
}

/// A seat in a [`Summary`].
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct SeatSummary {
    /// Display name (a bot's spec for a bot).
    pub name: String,
    /// `empty`, `human` or `bot`.
    pub kind: &'static str,
    /// The bot spec, for a bot.
    pub bot: Option<String>,
    /// Whether a socket of this seat is open.
    pub connected: bool,
    /// For a person with no socket open: since when (milliseconds since the Unix epoch).
    pub absent_since: Option<u64>,
}

/// A scored deal in a state message.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct ResultMsg {
    deal: usize,
    dealer: Seat,
    tricks: Vec<u8>,
    points: Vec<u32>,
    lot: Option<LotResultMsg>,
    scores: Vec<i32>,
    totals: Vec<i32>,
    rule: &'static str,
    draw: Option<Seat>,
}

#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
struct LotResultMsg {
    declarers: Vec<Seat>,
    success: bool,
}

#[derive(Serialize)]
struct StateMsg<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    version: u64,
    seat: Option<Seat>,
    table: &'a Summary,
    ruleset: &'static str,
    players: usize,
    started: bool,
    deal: Option<usize>,
    totals: &'a [i32],
    held: usize,
    results: &'a [ResultMsg],
    finished: bool,
    winners: &'a [Seat],
    #[serde(skip_serializing_if = "Option::is_none")]
    deadline: Option<u64>,
    #[serde(flatten)]
    fields: Option<DealMsg>,
}

#[derive(Serialize)]
struct DealMsg {
    dealer: Seat,
    phase: &'static str,
    to_act: Option<Seat>,
    leader: Seat,
    trick: Vec<PlayedMsg>,
    winning: Option<Seat>,
    led: Option<String>,
    hand_sizes: Vec<usize>,
    trump: Option<String>,
    lot: LotMsg,
    tricks_won: Vec<u8>,
    card_points: Vec<u32>,
    tricks_completed: usize,
    last_trick: Option<TrickMsg>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hand: Option<Vec<String>>,
    legal: Vec<String>,
}

#[derive(Serialize)]
struct PlayedMsg {
    seat: Seat,
    card: String,
}

#[derive(Serialize)]
struct LotMsg {
    declarers: Vec<Seat>,
    failed: Vec<Seat>,
}

#[derive(Serialize)]
struct TrickMsg {
    leader: Seat,
    cards: Vec<String>,
    winner: Seat,
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

fn phase_word(phase: Phase) -> &'static str {
    match phase {
        Phase::LotQuestion => "lot",
        Phase::Play => "play",
        Phase::CallSuit => "call",
        Phase::Over => "over",
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The `created` event of a table of `ruleset` seeded `seed`, whose host's token is "h".
    fn created(ruleset: &str, seed: u64) -> Event {
        Event::Created {
            ruleset: serde_json::json!(ruleset),
            seed,
            host: token_hash("h"),
            timer: None,
            created: 0,
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
            "../../cli/tests/data/molotow-three-way-tie.json"
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
        state.apply(&Event::Score { draw }).unwrap();
        let second = seeds.next_hands(&rules)[..4]
            .iter()
            .map(CardSet::to_string)
            .collect::<Vec<_>>();
        assert_eq!(state.next_step(), Some(Event::Deal { hands: second }));
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
            let results = state.results();
            let message = state.state_message(seat, &summary, &results, deadline);
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
        while !state.game().is_finished() {
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
            let seat = state.to_act().expect("a seat to act");
            let summary = state.summary(&[0; 4]);
            let message = state.state_message(Some(seat), &summary, &[], None);
            let message: Value = serde_json::from_str(&message).unwrap();
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
}
