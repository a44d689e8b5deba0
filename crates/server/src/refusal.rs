//! Refusals: why the server said no to a request, a client message or an event.
//!
//! A [`Refusal`] is a kind ([`RefusalKind`], which decides the HTTP status only where the
//! answer is written) and a reason that is a message of the Fluent catalogs
//! (`locales/*.ftl`): a key `err-{code}` with named arguments. Every refusal the server sends
//! carries the English text of that message as `error` (`message` on the WebSocket), the
//! `code` and the `args`, so that a client can show it in its reader's language with the same
//! catalogs (`docs/PROTOCOL.md`, "Errors"). The server's own reasons are the variants of
//! [`Why`], listed with their arguments in [`Why::CODES`]; an illegal action's reason is the
//! terminal's message for core's `PlayError` ([`torite_i18n::play_error_message`]).

use std::sync::LazyLock;

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{Map, Value, json};
use torite_core::{OPTION_NAMES, PlayError, Preset, RulesetError, RulesetProblem};
use torite_i18n::{Catalog, Lang, Message, MessageArg};

/// Why a request or an event was refused. The HTTP edge maps each kind to a status
/// ([`RefusalKind::http_status`]); the rest of the server decides on the kind.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum RefusalKind {
    /// The request or event is malformed or breaks a rule of its own (400).
    Invalid,
    /// The token may not do this (403).
    Forbidden,
    /// No such table or record (404).
    NotFound,
    /// Not now: the table's state does not allow it (409).
    Conflict,
    /// The body is larger than the server reads (413).
    TooLarge,
    /// The body is not JSON (415).
    NotJson,
    /// This address has done this too often or holds too many open tables (429).
    TooMany,
    /// The server holds as many tables as it keeps (503).
    Full,
    /// The table did not answer in time or is not running (503).
    Busy,
    /// The store failed; nothing changed (503).
    Storage,
    /// Something went wrong inside the server: what it keeps does not read, or a page could
    /// not be made (500).
    Broken,
}

impl RefusalKind {
    /// The HTTP status that answers a refusal of this kind.
    #[must_use]
    pub const fn http_status(self) -> u16 {
        match self {
            RefusalKind::Invalid => 400,
            RefusalKind::Forbidden => 403,
            RefusalKind::NotFound => 404,
            RefusalKind::Conflict => 409,
            RefusalKind::TooLarge => 413,
            RefusalKind::NotJson => 415,
            RefusalKind::TooMany => 429,
            RefusalKind::Full | RefusalKind::Busy | RefusalKind::Storage => 503,
            RefusalKind::Broken => 500,
        }
    }

    /// The kind of refusal an HTTP status stands for (an answer the server did not build
    /// from a refusal, such as a framework's rejection).
    #[must_use]
    pub const fn of_status(status: u16) -> RefusalKind {
        match status {
            403 => RefusalKind::Forbidden,
            404 => RefusalKind::NotFound,
            409 => RefusalKind::Conflict,
            413 => RefusalKind::TooLarge,
            415 => RefusalKind::NotJson,
            429 => RefusalKind::TooMany,
            503 => RefusalKind::Busy,
            500..=599 => RefusalKind::Broken,
            _ => RefusalKind::Invalid,
        }
    }
}

/// A catalog key given as an argument: the client shows that message (without arguments) in
/// its reader's language, e.g. a suit's name or the kind of a refused character.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Key(pub &'static str);

/// What a [`Why`] field may be: text shown as it is, or a catalog [`Key`].
trait ToArg {
    fn to_arg(&self) -> MessageArg;
}

impl ToArg for String {
    fn to_arg(&self) -> MessageArg {
        MessageArg::Text(self.clone())
    }
}

impl ToArg for Key {
    fn to_arg(&self) -> MessageArg {
        MessageArg::Key(self.0)
    }
}

macro_rules! reasons {
    ($(
        $(#[$doc:meta])*
        $variant:ident $({ $($field:ident : $ty:ty),* $(,)? })? = $code:literal,
    )*) => {
        /// The server's own reasons for a refusal, each a catalog message `err-{code}` whose
        /// arguments are the variant's fields (text shown as it is, or a [`Key`]).
        #[derive(Clone, PartialEq, Eq, Debug)]
        pub enum Why {
            $(
                $(#[$doc])*
                #[doc = concat!("\n\nCode `", $code, "`.")]
                $variant $({ $(#[allow(missing_docs)] $field: $ty),* })?,
            )*
        }

        impl Why {
            /// Every code a [`Why`] is sent as, with the names of its arguments.
            pub const CODES: &[(&str, &[&str])] = &[
                $( ($code, &[$($(stringify!($field)),*)?]), )*
            ];

            /// The catalog key: `err-{code}`.
            #[must_use]
            pub const fn key(&self) -> &'static str {
                match self {
                    $( Why::$variant { .. } => concat!("err-", $code), )*
                }
            }

            fn args(&self) -> Vec<(&'static str, MessageArg)> {
                match self {
                    $( Why::$variant $({ $($field),* })? => vec![
                        $($((stringify!($field), ToArg::to_arg($field))),*)?
                    ], )*
                }
            }
        }
    };
}

reasons! {
    /// A request body not sent as JSON (`sent`: its content type, or `none`).
    NotJsonBody { sent: String } = "not-json-body",
    /// A request body over the size read.
    BodyTooLarge { kib: String } = "body-too-large",
    /// A request body that could not be read.
    BodyUnreadable { detail: String } = "body-unreadable",
    /// A request body that is not JSON.
    BodyNotJson { detail: String } = "body-not-json",
    /// A request body that is JSON but not an object.
    BodyNotObject = "body-not-object",
    /// A string field missing from a request.
    FieldNeeded { field: String } = "field-needed",
    /// The seat missing from a request.
    SeatNeeded = "seat-needed",
    /// A table seed that is not a whole number from 0 to `max`.
    SeedRange { max: String, value: String } = "seed-range",
    /// A move timer that is not a number of seconds.
    TimerNotNumber = "timer-not-number",
    /// A move timer out of range.
    TimerRange { min: String, max: String } = "timer-range",
    /// A `fill` that is not a bot's name.
    FillNotBot = "fill-not-bot",
    /// A `private` that is not true or false.
    PrivateNotBool = "private-not-bool",
    /// An unknown bot.
    BotUnknown { bot: String, known: String } = "bot-unknown",
    /// A bot's budget that is not one (`detail` in English).
    BotBudget { detail: String } = "bot-budget",
    /// Too many tables created from an address lately.
    TooManyCreates = "too-many-creates",
    /// The server holds as many tables as it keeps.
    ServerFull = "server-full",
    /// Too many open tables created from an address.
    TooManyOpen { open: String, max: String } = "too-many-open",
    /// The table did not answer in time.
    TableBusy = "table-busy",
    /// The server could not do the work in time.
    ServerBusy = "server-busy",
    /// The table is not running.
    TableNotRunning = "table-not-running",
    /// No such table.
    NoTable { id: String } = "no-table",
    /// A table created a moment ago is gone.
    TableVanished = "table-vanished",
    /// The table's game is over (its record is still kept).
    TableOver { id: String } = "table-over",
    /// A record asked for before the game is over.
    RecordNotYet { id: String } = "record-not-yet",
    /// A replay asked for before the game is over.
    ReplayNotYet { id: String } = "replay-not-yet",
    /// An analysis asked for before the game is over.
    AnalysisNotYet { id: String } = "analysis-not-yet",
    /// An analysis's seat that is not a seat of the game.
    AnalysisSeat { value: String, max: String } = "analysis-seat",
    /// An analysis's budget out of range.
    AnalysisWorlds { value: String, max: String } = "analysis-worlds",
    /// As many analyses running and waiting as the server takes.
    AnalysisBusy { max: String } = "analysis-busy",
    /// As many analyses under way for this client as one may ask for.
    AnalysisBusyClient { max: String } = "analysis-busy-client",
    /// An analysis never asked for.
    AnalysisNotAsked { id: String } = "analysis-not-asked",
    /// An analysis of seats without a single decision.
    AnalysisNoDecision = "analysis-no-decision",
    /// The store failed; nothing changed (`detail` in English).
    Storage { detail: String } = "storage",
    /// Something failed inside the server (`detail` in English).
    Internal { detail: String } = "internal",
    /// A kept record is not JSON.
    KeptRecordBroken { id: String, detail: String } = "kept-record-broken",
    /// A kept record without its ruleset.
    KeptRecordNoRuleset { id: String } = "kept-record-no-ruleset",
    /// A kept record that does not replay.
    RecordDoesNotReplay { detail: String } = "record-does-not-replay",
    /// A table's ruleset that does not load.
    TableRulesetBroken { id: String, detail: String } = "table-ruleset-broken",
    /// A sheet that could not be made.
    SheetFailed { detail: String } = "sheet-failed",
    /// A query parameter a sheet does not take.
    UnknownParameter { name: String } = "unknown-parameter",
    /// An unknown sheet kind.
    BadSheetKind { value: String } = "bad-sheet-kind",
    /// An unknown sheet format.
    BadSheetFormat { value: String } = "bad-sheet-format",
    /// An unknown language.
    UnknownLang { value: String } = "unknown-lang",
    /// No such preset.
    NoPreset { id: String } = "no-preset",
    /// No such page.
    NoPage { path: String } = "no-page",
    /// No such score sheet.
    NoScoresheet { id: String } = "no-scoresheet",
    /// A key that opens neither the writing nor the view of a score sheet.
    ScoresheetKey = "scoresheet-key",
    /// A change asked with a score sheet's view key.
    ScoresheetViewOnly = "scoresheet-view-only",
    /// Player names that are not one per seat.
    ScoresheetPlayers { count: String, given: String } = "scoresheet-players",
    /// A player name given twice.
    ScoresheetNameTwice { name: String } = "scoresheet-name-twice",
    /// A deal's `tricks` or `points` that are not one whole number per player.
    ScoresheetNumbers { field: String, count: String } = "scoresheet-numbers",
    /// Tricks that do not add up to the deal's.
    ScoresheetTricksTotal { given: String, expected: String } = "scoresheet-tricks-total",
    /// Card points that do not add up to the deal's.
    ScoresheetPointsTotal { given: String, expected: String } = "scoresheet-points-total",
    /// Card points for a player who took no trick.
    ScoresheetPointsWithoutTrick { player: String, points: String } = "scoresheet-points-without-trick",
    /// A Lot in a game that has none.
    ScoresheetNoLot = "scoresheet-no-lot",
    /// A Lot that is not its declaring seats and the one that won every trick, if any.
    ScoresheetLot { last: String } = "scoresheet-lot",
    /// A Lot won by a player who did not declare it.
    ScoresheetWinner { player: String } = "scoresheet-winner",
    /// A three-way tie without the tied player who drew the highest card.
    ScoresheetDraw { players: String } = "scoresheet-draw",
    /// A deal added after the game has ended.
    ScoresheetOver = "scoresheet-over",
    /// A sheet holding as many deals as it keeps.
    ScoresheetFull { max: String } = "scoresheet-full",
    /// An undo on a sheet without deals.
    ScoresheetNothingToUndo = "scoresheet-nothing-to-undo",
    /// An undo of a deal that is not on the sheet.
    ScoresheetNoDeal { number: String, count: String } = "scoresheet-no-deal",
    /// An undo after which the game would end before the deals that follow (`ends`: the
    /// deals it would then take, `count`: the deals on the sheet).
    ScoresheetUndoEnds { number: String, ends: String, count: String } = "scoresheet-undo-ends",
    /// A change that crossed another one.
    ScoresheetChanged = "scoresheet-changed",
    /// Jass ticks that are not the players who took no trick and the one who took every
    /// trick, or that contradict each other.
    ScoresheetTicks { last: String } = "scoresheet-ticks",
    /// As many live views open as the sheet (or the server) takes.
    ScoresheetFollowers { max: String } = "scoresheet-followers",
    /// A profile request without the profile's key.
    ProfileKeyNeeded = "profile-key-needed",
    /// A profile key that is not one the server gave (forged, mistyped or of a deleted
    /// profile).
    ProfileKey = "profile-key",
    /// No such profile.
    NoProfile { id: String } = "no-profile",
    /// A seat token that holds no seat at the table, kept with a profile.
    ProfileNoSeat { id: String } = "profile-no-seat",
    /// A seat kept by another profile, or a second seat of a table for one profile.
    ProfileSeatTaken { id: String, seat: String } = "profile-seat-taken",
    /// No such duplicate series.
    NoDuplicate { id: String } = "no-duplicate",
    /// A key that is not a duplicate series' host key.
    DuplicateKey = "duplicate-key",
    /// A series' number of deals that is not a whole number in range.
    DuplicateDeals { max: String } = "duplicate-deals",
    /// A series' number of tables that is not a whole number in range.
    DuplicateTables { max: String } = "duplicate-tables",
    /// A series' seats that are not one per seat, each a person or a bot.
    DuplicateSeats { count: String } = "duplicate-seats",
    /// A QR code of something that is not a link, or of a link too long.
    QrText { max: String } = "qr-text",
    /// A path that does not take this method.
    MethodNotAllowed { path: String, method: String } = "method-not-allowed",
    /// A request refused before the server's own code saw it (`detail`: the first line of
    /// the framework's answer, in English).
    Request { status: String, detail: String } = "request",
    /// No such built asset.
    NoAsset { path: String } = "no-asset",
    /// A page of another origin calling the server.
    OriginRefused { origin: String } = "origin-refused",
    /// The token's seat was given to a bot.
    Replaced { seat: String } = "replaced",
    /// A token without a seat at the table.
    NoSeat = "no-seat",
    /// A token without a seat trying to act.
    ActNoSeat = "act-no-seat",
    /// As many spectators as the table takes.
    SpectatorsFull = "spectators-full",
    /// As many spectators' sockets from an address as it may have.
    SpectatorsPerAddress = "spectators-per-address",
    /// As many sockets for a token as it may have.
    TokenSockets = "token-sockets",
    /// A client sending too many messages.
    TooManyMessages = "too-many-messages",
    /// A spectator's socket sending an action.
    SpectatorCannotAct = "spectator-cannot-act",
    /// A WebSocket message that is not JSON.
    MessageNotJson = "message-not-json",
    /// A WebSocket message without a type.
    MessageNoType = "message-no-type",
    /// A WebSocket message of an unknown type.
    MessageUnknownType { name: String } = "message-unknown-type",
    /// An `act` without an action.
    MessageNoAction = "message-no-action",
    /// An `act` without a version.
    MessageNoVersion = "message-no-version",
    /// An `undo_answer` without a boolean `accept`.
    MessageNoAccept = "message-no-accept",
    /// A `chat` without either a `text` or a `reaction`.
    MessageNoChat = "message-no-chat",
    /// A `mute` without a seat and a boolean `muted`.
    MessageNoMute = "message-no-mute",
    /// An `act` whose action is too long to be one.
    MessageActionTooLong = "message-action-too-long",
    /// A binary WebSocket message.
    MessageBinary = "message-binary",
    /// An action code that is not one.
    UnknownAction { action: String } = "unknown-action",
    /// An action answering an older state.
    Stale { version: String, sent: String } = "stale",
    /// An action out of turn.
    NotYourTurn { seat: String } = "not-your-turn",
    /// An action when nobody is to act.
    NobodyToAct = "nobody-to-act",
    /// An undo with no deal in progress (before the start, once a deal is scored).
    UndoNotNow = "undo-not-now",
    /// An undo by a seat that has not acted in the deal in progress.
    UndoNothing = "undo-nothing",
    /// An undo after another person has acted since the seat's last action.
    UndoTooLate = "undo-too-late",
    /// An undo request while one is already waiting for answers.
    UndoPending = "undo-pending",
    /// An answer to an undo request that is not asked of the seat.
    UndoNotAsked = "undo-not-asked",
    /// An action the rules refuse, for a reason the catalogs have no words for yet
    /// (`detail` in English).
    Illegal { action: String, detail: String } = "illegal",
    /// Replacing a person who is connected.
    ReplaceConnected { seat: String, name: String } = "replace-connected",
    /// Replacing a person who has not been away long enough.
    ReplaceTooSoon { seat: String, name: String, away: String, needed: String } = "replace-too-soon",
    /// Seating a bot without being the host.
    HostOnlyBot = "host-only-bot",
    /// Starting without being the host.
    HostOnlyStart = "host-only-start",
    /// Chatting without a seat of one's own at the table (a spectator, a seat given to a bot).
    ChatNoSeat = "chat-no-seat",
    /// Chatting while the host has muted the seat.
    ChatMuted = "chat-muted",
    /// An empty chat line.
    ChatEmpty = "chat-empty",
    /// A chat line too long.
    ChatTooLong { max: String, length: String } = "chat-too-long",
    /// A chat line with a refused character (`why`: the kind of character, a `char-…` key).
    ChatCharacter { character: String, why: Key } = "chat-character",
    /// An unknown quick reaction.
    ChatReaction { reaction: String, known: String } = "chat-reaction",
    /// Chatting faster than a table takes (`seconds`: the wait before the next line).
    ChatTooFast { seconds: String } = "chat-too-fast",
    /// Muting without being the host.
    HostOnlyMute = "host-only-mute",
    /// Muting a seat that holds no person (a bot's, an empty one); `seat` counted from 1.
    MuteNoPerson { seat: String } = "mute-no-person",
    /// The host muting their own seat.
    MuteSelf = "mute-self",
    /// A rematch asked for before the game is over.
    RematchNotYet = "rematch-not-yet",
    /// A second rematch of one game (stored logs only: the server joins the first).
    RematchExists = "rematch-exists",
    /// A rematch asked for by a token that held no seat in the game.
    RematchNoSeat = "rematch-no-seat",
    /// A seat of a rematch kept for the person who held it in the game before.
    SeatReserved { seat: String } = "seat-reserved",
    /// A stored `series` event that is not the table's second, or not of its seats.
    SeriesNotFirst = "series-not-first",
    /// No name given.
    NameNeeded = "name-needed",
    /// A name with a refused character (`why`: the kind of character, a `char-…` key).
    NameCharacter { character: String, why: Key } = "name-character",
    /// A name too long.
    NameTooLong { max: String, length: String } = "name-too-long",
    /// A stored name not 1 to `max` characters.
    NameLength { max: String } = "name-length",
    /// A stored name with control characters.
    NameControl = "name-control",
    /// A ruleset that does not load, for a reason the catalogs have no words for yet
    /// (`detail` in English).
    BadRuleset { detail: String } = "bad-ruleset",
    /// A ruleset id that is no preset.
    UnknownRuleset { id: String, known: String } = "unknown-ruleset",
    /// A house-rule option that does not exist.
    UnknownOption { name: String, known: String } = "unknown-option",
    /// A house-rule option that does not apply to the game (`option`: its label's key,
    /// `why` in English).
    OptionNotApplicable { name: String, option: Key, why: String } = "option-not-applicable",
    /// A house-rule option's bad value (`expected` in English).
    OptionBadValue { name: String, option: Key, value: String, expected: String } = "option-bad-value",
    /// House-rule options that cannot go together (`why` in English).
    OptionsConflict { names: String, why: String } = "options-conflict",
    /// A table log that does not start with its creation.
    LogStart = "log-start",
    /// A second creation event.
    TableExists = "table-exists",
    /// An event that needs a game not yet started.
    AlreadyStarted = "already-started",
    /// An event that needs a game started.
    NotStarted = "not-started",
    /// An event after the game's end.
    GameOver = "game-over",
    /// A seat the table does not have.
    NoSuchSeat { seat: String, last: String } = "no-such-seat",
    /// A seat already taken.
    SeatTaken { seat: String } = "seat-taken",
    /// A seat already a bot's.
    SeatIsBot { seat: String } = "seat-is-bot",
    /// A start with an empty seat.
    SeatEmpty { seat: String } = "seat-empty",
    /// An action with no deal in progress.
    NoDeal = "no-deal",
    /// A score with no finished deal.
    NoDealToScore = "no-deal-to-score",
    /// A stored deal whose hands do not read.
    BadHand { hand: String, detail: String } = "bad-hand",
    /// A stored event the game refuses (`detail` in English).
    BadEvent { detail: String } = "bad-event",
}

impl From<Why> for Message {
    fn from(why: Why) -> Message {
        Message {
            key: why.key(),
            args: why.args(),
        }
    }
}

/// Why a ruleset is refused: its first problem (a ruleset error lists every problem; the
/// first is the one to fix first).
#[must_use]
pub fn ruleset_refused(error: &RulesetError) -> Why {
    let label = |name: &str| {
        OPTION_KEYS
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(Key("option"), |(_, key)| Key(key))
    };
    match error.problems.first() {
        Some(RulesetProblem::UnknownRuleset(id)) => Why::UnknownRuleset {
            id: shown(id),
            known: Preset::ALL
                .iter()
                .map(|p| p.id())
                .collect::<Vec<_>>()
                .join(", "),
        },
        Some(RulesetProblem::UnknownOption(name)) => Why::UnknownOption {
            name: shown(name),
            known: OPTION_NAMES.join(", "),
        },
        Some(RulesetProblem::NotApplicable { option, why }) => Why::OptionNotApplicable {
            name: (*option).to_owned(),
            option: label(option),
            why: why.clone(),
        },
        Some(RulesetProblem::BadValue {
            option,
            value,
            expected,
        }) => Why::OptionBadValue {
            name: (*option).to_owned(),
            option: label(option),
            value: shown(value),
            expected: (*expected).to_owned(),
        },
        Some(RulesetProblem::Conflict { options, why }) => Why::OptionsConflict {
            names: options.join(" and "),
            why: why.clone(),
        },
        _ => Why::BadRuleset {
            detail: error.to_string(),
        },
    }
}

/// The catalog keys of the house-rule options' labels (`option-{name}`), by name.
static OPTION_KEYS: LazyLock<Vec<(&'static str, &'static str)>> = LazyLock::new(|| {
    OPTION_NAMES
        .iter()
        .map(|name| {
            let key: &'static str = Box::leak(format!("option-{name}").into_boxed_str());
            (*name, key)
        })
        .collect()
});

/// The English catalog the `error` texts are made from.
static ENGLISH: LazyLock<Catalog> = LazyLock::new(|| Catalog::new(Lang::En));

/// Text from a request shown in a reason: the first 100 characters, control characters
/// escaped.
#[must_use]
pub fn shown(text: &str) -> String {
    text.chars()
        .take(100)
        .flat_map(|c| {
            let escape = c.is_control();
            let escaped: Vec<char> = if escape {
                c.escape_unicode().collect()
            } else {
                vec![c]
            };
            escaped
        })
        .collect()
}

/// A refusal: its kind and its reason, a catalog message.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Refusal {
    /// Why, as the server decides on it.
    pub kind: RefusalKind,
    /// What and why, as a catalog message (`err-{code}` and its arguments).
    pub reason: Message,
}

impl Refusal {
    /// A refusal of this kind.
    pub fn new(kind: RefusalKind, reason: impl Into<Message>) -> Refusal {
        Refusal {
            kind,
            reason: reason.into(),
        }
    }
    /// An [`RefusalKind::Invalid`] refusal.
    pub fn bad(reason: impl Into<Message>) -> Refusal {
        Refusal::new(RefusalKind::Invalid, reason)
    }
    /// A [`RefusalKind::Forbidden`] refusal.
    pub fn forbidden(reason: impl Into<Message>) -> Refusal {
        Refusal::new(RefusalKind::Forbidden, reason)
    }
    /// A [`RefusalKind::Conflict`] refusal.
    pub fn conflict(reason: impl Into<Message>) -> Refusal {
        Refusal::new(RefusalKind::Conflict, reason)
    }
    /// The [`RefusalKind::Storage`] refusal of a store failure (nothing changed).
    pub fn storage(e: impl std::fmt::Display) -> Refusal {
        Refusal::new(
            RefusalKind::Storage,
            Why::Storage {
                detail: e.to_string(),
            },
        )
    }
    /// The [`RefusalKind::Broken`] refusal of a failure inside the server.
    pub fn internal(e: impl std::fmt::Display) -> Refusal {
        Refusal::new(
            RefusalKind::Broken,
            Why::Internal {
                detail: e.to_string(),
            },
        )
    }
    /// The [`RefusalKind::NotFound`] refusal of a table id that names no live table.
    #[must_use]
    pub fn no_table(id: &str) -> Refusal {
        Refusal::new(RefusalKind::NotFound, Why::NoTable { id: shown(id) })
    }
    /// A [`RefusalKind::Conflict`] refusal of an action the rules refuse: the terminal's
    /// message for `error`, with the action as the argument `action` besides its own.
    pub fn illegal(action: impl std::fmt::Display, error: &PlayError) -> Refusal {
        let action = action.to_string();
        let reason = match torite_i18n::play_error_message(error) {
            Some(mut message) => {
                message
                    .args
                    .push(("action", MessageArg::Text(action.clone())));
                message
            }
            None => Why::Illegal {
                action,
                detail: error.to_string(),
            }
            .into(),
        };
        Refusal::conflict(reason)
    }

    /// The code a client is sent: the catalog key without `err-`.
    #[must_use]
    pub fn code(&self) -> &'static str {
        let key = self.reason.key;
        key.strip_prefix("err-").unwrap_or(key)
    }

    /// The reason in English, one line.
    #[must_use]
    pub fn message(&self) -> String {
        ENGLISH.message(&self.reason)
    }

    /// The arguments as JSON: text as a string, a number as a number, a catalog key as
    /// `{"key": "suit-H"}`.
    #[must_use]
    pub fn args(&self) -> Map<String, Value> {
        self.reason
            .args
            .iter()
            .map(|(name, arg)| {
                let value = match arg {
                    MessageArg::Text(text) => json!(text),
                    MessageArg::Number(n) => json!(n),
                    MessageArg::Key(key) => json!({ "key": key }),
                };
                ((*name).to_owned(), value)
            })
            .collect()
    }

    /// The JSON body of an HTTP refusal: `{"error": …, "code": …, "args": {…}}`.
    #[must_use]
    pub fn body(&self) -> Value {
        json!({"error": self.message(), "code": self.code(), "args": self.args()})
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message())
    }
}

impl std::error::Error for Refusal {}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let status =
            StatusCode::from_u16(self.kind.http_status()).unwrap_or(StatusCode::BAD_REQUEST);
        (status, axum::Json(self.body())).into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use torite_i18n::{EN_FTL, JA_FTL};

    /// A message's source lines in a catalog: its first line and the indented ones after it.
    fn source(catalog: &str, key: &str) -> Option<String> {
        let mut lines = catalog.lines();
        let first = lines.find(|l| {
            l.strip_prefix(key)
                .is_some_and(|rest| rest.trim_start().starts_with('='))
        })?;
        let mut text = first.to_owned();
        for line in lines.take_while(|l| l.starts_with(' ')) {
            text.push('\n');
            text.push_str(line);
        }
        Some(text)
    }

    /// The variables a message's source names (`{ $name }`).
    fn variables(source: &str) -> Vec<String> {
        let mut names: Vec<String> = source
            .split('$')
            .skip(1)
            .map(|rest| {
                rest.chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
                    .collect()
            })
            .collect();
        names.sort();
        names.dedup();
        names
    }

    /// Every code the server can send has a message in both catalogs that names only the
    /// arguments it is given, and the English one names all of them (the `error` text says
    /// everything the arguments do).
    #[test]
    fn every_code_has_words_in_both_catalogs_for_its_arguments() {
        let play = torite_core_play_errors();
        let mut codes: Vec<(String, Vec<String>)> = Why::CODES
            .iter()
            .map(|(code, args)| {
                (
                    format!("err-{code}"),
                    args.iter().map(|a| (*a).to_owned()).collect(),
                )
            })
            .collect();
        for error in &play {
            let refusal = Refusal::illegal("QH", error);
            let names = refusal
                .reason
                .args
                .iter()
                .map(|(n, _)| (*n).to_owned())
                .collect();
            codes.push((refusal.reason.key.to_owned(), names));
        }
        for (key, args) in &codes {
            for (lang, catalog) in [("en", EN_FTL), ("ja", JA_FTL)] {
                let text =
                    source(catalog, key).unwrap_or_else(|| panic!("{lang}: no message {key}"));
                for name in variables(&text) {
                    assert!(
                        args.contains(&name),
                        "{lang}: {key} names ${name}, which it is not given ({args:?})"
                    );
                }
            }
            let en = variables(&source(EN_FTL, key).unwrap_or_default());
            for name in args {
                // The refused action is named by the client's own words around a play error.
                if name != "action" || key == "err-illegal" || key == "err-unknown-action" {
                    assert!(en.contains(name), "en: {key} does not show ${name}");
                }
            }
        }
        let mut seen: Vec<&str> = Why::CODES.iter().map(|(c, _)| *c).collect();
        seen.sort_unstable();
        let before = seen.len();
        seen.dedup();
        assert_eq!(seen.len(), before, "a code is used twice");
    }

    /// `docs/PROTOCOL.md` lists every code.
    #[test]
    fn the_protocol_lists_every_code() {
        let protocol = include_str!("../../../docs/PROTOCOL.md");
        let play = torite_core_play_errors();
        let codes = Why::CODES.iter().map(|(c, _)| (*c).to_owned()).chain(
            play.iter()
                .map(|e| Refusal::illegal("QH", e).code().to_owned()),
        );
        for code in codes {
            assert!(
                protocol.contains(&format!("`{code}`")),
                "docs/PROTOCOL.md does not list `{code}`"
            );
        }
    }

    /// Core's play errors with words in the catalogs.
    fn torite_core_play_errors() -> Vec<PlayError> {
        use torite_core::{Card, Rank, Suit};
        vec![
            PlayError::DealOver,
            PlayError::NotInHand(Card::JOKER),
            PlayError::MustFollow { led: Suit::Hearts },
            PlayError::Undertrump {
                over: Card::new(Suit::Clubs, Rank::NINE),
            },
            PlayError::MustPlayTrump { trump: Suit::Clubs },
            PlayError::MustBeat { best: Card::JOKER },
            PlayError::MustTrump {
                trump: Suit::Spades,
            },
            PlayError::JokerOnlyWhenVoid {
                led: Suit::Diamonds,
            },
            PlayError::MustCallSuit,
            PlayError::NoCallExpected,
            PlayError::MustSayJoker,
            PlayError::NoJokerSayExpected,
            PlayError::MustAnswerLot,
            PlayError::LotNotAllowed("x"),
            PlayError::PassNotAllowed,
        ]
    }

    #[test]
    fn a_refusal_is_sent_as_its_english_text_code_and_arguments() {
        let refusal = Refusal::conflict(Why::SeatTaken { seat: "2".into() });
        assert_eq!(
            refusal.body(),
            json!({"error": "seat 2 is taken", "code": "seat-taken", "args": {"seat": "2"}})
        );
        let illegal = Refusal::illegal(
            "9H",
            &PlayError::MustFollow {
                led: torite_core::Suit::Spades,
            },
        );
        assert_eq!(
            illegal.body(),
            json!({
                "error": "you must follow spades",
                "code": "must-follow",
                "args": {"suit": {"key": "suit-S"}, "action": "9H"},
            })
        );
        assert_eq!(
            Catalog::new(Lang::Ja).message(&illegal.reason),
            "スペードをフォローしなければなりません"
        );
        let character = Refusal::bad(Why::NameCharacter {
            character: "U+202E".into(),
            why: Key("char-bidi"),
        });
        assert_eq!(
            character.message(),
            "names may not contain U+202E (a bidirectional control)"
        );
    }

    /// A refused ruleset is told by its first problem, the option named by its label's key.
    #[test]
    fn ruleset_problems_have_codes() {
        let refused = |ruleset: Value| {
            let e = torite_core::Ruleset::from_json(&ruleset).unwrap_err();
            Refusal::bad(ruleset_refused(&e))
        };
        let unknown = refused(json!("whist"));
        assert_eq!(unknown.code(), "unknown-ruleset");
        assert!(unknown.message().contains("\"whist\""), "{unknown}");
        let late = refused(json!({"base": "mura-4", "lot_timing": "before-lead"}));
        assert_eq!(late.code(), "option-not-applicable", "{late}");
        assert_eq!(late.args()["option"], json!({"key": "option-lot_timing"}));
        assert!(
            late.message()
                .starts_with("option lot_timing (Lot timing) does not apply"),
            "{late}"
        );
        let bad = refused(json!({"base": "mini-misere-4", "target": "x"}));
        assert_eq!(bad.code(), "option-bad-value", "{bad}");
        assert_eq!(bad.args()["value"], "\"x\"");
        assert_eq!(
            refused(json!({"base": "mini-misere-4", "colour": 1})).code(),
            "unknown-option"
        );
        for (name, key) in OPTION_KEYS.iter() {
            assert_eq!(*key, format!("option-{name}"));
        }
    }

    #[test]
    fn statuses_and_kinds_agree() {
        use RefusalKind::*;
        for kind in [
            Invalid, Forbidden, NotFound, Conflict, TooLarge, NotJson, TooMany, Broken,
        ] {
            assert_eq!(RefusalKind::of_status(kind.http_status()), kind);
        }
        assert_eq!(RefusalKind::of_status(405), Invalid);
        assert_eq!(RefusalKind::of_status(503).http_status(), 503);
    }

    #[test]
    fn shown_text_is_short_and_has_no_control_characters() {
        assert_eq!(shown("a\u{7}b"), "a\\u{7}b");
        assert_eq!(shown(&"x".repeat(300)).len(), 100);
    }
}
