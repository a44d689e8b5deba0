//! Game records (the interchange format of `RECORD.md`) and their replay.
//!
//! Replaying through [`Game`] is the only way to load a record, so every stored game is checked
//! again action by action. Errors carry where they happened (deal, trick, seat) and why.
//!
//! There is one reader of the JSON form, [`read`]: it reads a record and replays it in one pass,
//! so that the first error reported is the first one met in the game's order (a bad card code
//! in deal 3 is not reported before an illegal play in deal 0). [`Record::from_json`],
//! [`Record::from_value`], [`Record::replay_json`] and [`replay_value`] are built on it.

use std::fmt;

use serde::Serialize;
use serde_json::Value;

use crate::card::{Card, CardSet};
use crate::deal::{Action, Deal, Seat};
use crate::game::{Game, GameError};
use crate::ruleset::Ruleset;
use crate::scoring::ScoreRule;

/// A game record.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Record {
    /// The rules.
    pub ruleset: Ruleset,
    /// Display names, one per seat, if known.
    pub players: Option<Vec<String>>,
    /// The deals in order.
    pub deals: Vec<RecordDeal>,
}

/// One deal of a record.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RecordDeal {
    /// The dealer's seat.
    pub dealer: Seat,
    /// Each seat's hand at the start.
    pub hands: Vec<CardSet>,
    /// Every action in order.
    pub actions: Vec<Action>,
    /// The seat whose drawn card was highest (Molotow three-way tie), where needed.
    pub draw: Option<Seat>,
}

impl Record {
    /// The record as JSON in the interchange format.
    #[must_use]
    pub fn to_json(&self) -> Value {
        let deals: Vec<Value> = self
            .deals
            .iter()
            .map(|d| {
                let mut deal = serde_json::Map::new();
                deal.insert("dealer".into(), d.dealer.into());
                let hands: Vec<Vec<String>> = d
                    .hands
                    .iter()
                    .map(|h| {
                        h.to_string()
                            .split_whitespace()
                            .map(str::to_owned)
                            .collect()
                    })
                    .collect();
                deal.insert("hands".into(), serde_json::json!(hands));
                let actions: Vec<String> = d.actions.iter().map(Action::to_string).collect();
                deal.insert("actions".into(), actions.into());
                if let Some(draw) = d.draw {
                    deal.insert("draw".into(), draw.into());
                }
                Value::Object(deal)
            })
            .collect();
        let mut map = serde_json::Map::new();
        map.insert("ruleset".into(), self.ruleset.to_json());
        if let Some(players) = &self.players {
            map.insert("players".into(), serde_json::json!(players));
        }
        map.insert("deals".into(), deals.into());
        Value::Object(map)
    }

    /// Replays the record, checking every action.
    ///
    /// # Errors
    ///
    /// The first [`RecordError`] found.
    pub fn replay(&self) -> Result<Replay, RecordError> {
        let mut r = Replayer::new(
            self.ruleset,
            self.players.as_ref().map(Vec::len),
            self.deals.first().map(|d| d.dealer),
        )?;
        r.names.clone_from(&self.players);
        for (i, deal) in self.deals.iter().enumerate() {
            r.start_deal(i, Some(deal.dealer), &deal.hands)?;
            for action in &deal.actions {
                r.action(Ok(*action), &action.to_string())?;
            }
            r.end_deal(i == self.deals.len() - 1, deal.draw)?;
        }
        Ok(r.finish())
    }

    /// Parses and replays a record from JSON text.
    ///
    /// # Errors
    ///
    /// A [`RecordError`] for invalid JSON, a malformed record or an illegal action.
    pub fn replay_json(text: &str) -> Result<Replay, RecordError> {
        read_json(text).map(|(_, replay)| replay)
    }

    /// Reads a record from JSON text, strictly: it is replayed action by action, and anything
    /// `torite replay` refuses is refused with the same error. Keys the format does not know
    /// (a save's `table` entry) are ignored. Dealers the record leaves out are filled in from
    /// the rotation.
    ///
    /// # Errors
    ///
    /// A [`RecordError`] for invalid JSON, a malformed record or an illegal action.
    pub fn from_json(text: &str) -> Result<Record, RecordError> {
        read_json(text).map(|(record, _)| record)
    }

    /// Reads a record given as a JSON value, as [`Record::from_json`] does.
    ///
    /// # Errors
    ///
    /// A [`RecordError`] for a malformed record or an illegal action.
    pub fn from_value(value: &Value) -> Result<Record, RecordError> {
        read(value).map(|(record, _)| record)
    }
}

/// Where in a record something went wrong.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Loc {
    /// The deal index.
    pub deal: Option<usize>,
    /// The trick number within the deal.
    pub trick: Option<usize>,
    /// The seat.
    pub seat: Option<Seat>,
}

/// A record that cannot be loaded: where, and why.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RecordError {
    /// Where.
    pub loc: Loc,
    /// Why.
    pub message: String,
}

impl RecordError {
    fn at(loc: Loc, message: impl Into<String>) -> RecordError {
        RecordError {
            loc,
            message: message.into(),
        }
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(d) = self.loc.deal {
            parts.push(format!("deal {d}"));
        }
        if let Some(t) = self.loc.trick {
            parts.push(format!("trick {t}"));
        }
        if let Some(s) = self.loc.seat {
            parts.push(format!("seat {s}"));
        }
        if parts.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", parts.join(", "), self.message)
        }
    }
}

impl std::error::Error for RecordError {}

/// The result of replaying a record.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The game after the last action.
    pub game: Game,
    /// The report `torite replay` prints.
    pub report: Report,
}

/// The replay report of `RECORD.md`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct Report {
    /// The ruleset in record form.
    pub ruleset: Value,
    /// Display names per seat, when the record has them (an extra key).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub players: Option<Vec<String>>,
    /// Per deal.
    pub deals: Vec<DealReport>,
    /// Whether the game has ended.
    pub finished: bool,
    /// The winning seats (empty until finished).
    pub winners: Vec<Seat>,
}

/// One deal of a [`Report`].
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct DealReport {
    /// The dealer.
    pub dealer: Seat,
    /// `null`, a suit letter or `"JK"`.
    pub trump: Option<String>,
    /// The Lot, if declared.
    pub lot: Option<LotReport>,
    /// The tricks, the one in progress last.
    pub tricks: Vec<TrickReport>,
    /// Tricks won per seat.
    pub tricks_won: Vec<u8>,
    /// Card points per seat.
    pub card_points: Vec<u32>,
    /// This deal's scores (absent while in progress).
    pub scores: Option<Vec<i32>>,
    /// Totals after this deal (absent while in progress).
    pub totals: Option<Vec<i32>>,
    /// Whether the deal is complete.
    pub complete: bool,
    /// The scoring rule that settled the deal (an extra key).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
}

/// The Lot in a [`DealReport`].
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct LotReport {
    /// Declaring seats in seat order.
    pub declarers: Vec<Seat>,
    /// Whether it succeeded (`null` while unsettled).
    pub success: Option<bool>,
}

/// One trick in a [`DealReport`].
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct TrickReport {
    /// The leader.
    pub leader: Seat,
    /// Canonical card codes in the order played.
    pub cards: Vec<String>,
    /// The winner (`null` while in progress).
    pub winner: Option<Seat>,
}

/// Drives a [`Game`] through a record's deals and actions, building the report.
struct Replayer {
    game: Game,
    names: Option<Vec<String>>,
    deals: Vec<DealReport>,
    tricks: Vec<TrickReport>,
    deal_index: usize,
}

impl Replayer {
    fn new(
        rules: Ruleset,
        names: Option<usize>,
        first_dealer: Option<Seat>,
    ) -> Result<Replayer, RecordError> {
        let players = rules.players as usize;
        if let Some(n) = names
            && n != players
        {
            return Err(RecordError::at(
                Loc::default(),
                format!("players has {n} names but the ruleset has {players} seats"),
            ));
        }
        let game = Game::new(rules, first_dealer.unwrap_or(0)).map_err(|e| {
            RecordError::at(
                Loc {
                    deal: Some(0),
                    ..Loc::default()
                },
                e.to_string(),
            )
        })?;
        Ok(Replayer {
            game,
            names: None,
            deals: Vec::new(),
            tricks: Vec::new(),
            deal_index: 0,
        })
    }

    fn loc(&self) -> Loc {
        let deal = self.game.deal();
        Loc {
            deal: Some(self.deal_index),
            trick: deal.map(Deal::tricks_completed),
            seat: deal.filter(|d| !d.is_over()).map(Deal::to_act),
        }
    }

    fn deal_loc(&self) -> Loc {
        Loc {
            deal: Some(self.deal_index),
            ..Loc::default()
        }
    }

    fn start_deal(
        &mut self,
        index: usize,
        dealer: Option<Seat>,
        hands: &[CardSet],
    ) -> Result<(), RecordError> {
        self.deal_index = index;
        if self.game.is_finished() {
            return Err(RecordError::at(
                self.deal_loc(),
                format!(
                    "the game ended after deal {}; no deal may follow",
                    index - 1
                ),
            ));
        }
        let expected = self.game.next_dealer();
        match dealer {
            Some(d) if d != expected => {
                let why = if d >= self.game.rules().players as usize {
                    format!(
                        "dealer {d} is not a seat (seats are 0 to {})",
                        self.game.rules().players - 1
                    )
                } else {
                    format!(
                        "dealer {d} breaks the rotation (the dealer of this deal is seat {expected})"
                    )
                };
                return Err(RecordError::at(self.deal_loc(), why));
            }
            _ => {}
        }
        let loc = self.deal_loc();
        self.game
            .start_deal(hands)
            .map_err(|e| RecordError::at(loc, format!("hands: {e}")))?;
        self.tricks.clear();
        Ok(())
    }

    fn action(&mut self, action: Result<Action, String>, token: &str) -> Result<(), RecordError> {
        let loc = self.loc();
        let deal = self.game.deal().expect("a deal was started");
        if deal.is_over() {
            return Err(RecordError::at(
                Loc { seat: None, ..loc },
                format!("{token} comes after the end of the deal"),
            ));
        }
        let action = action.map_err(|why| RecordError::at(loc, why))?;
        let before = deal.tricks_completed();
        if let Err(e) = self.game.apply(action) {
            let why = match e {
                GameError::Play(p) => p.to_string(),
                other => other.to_string(),
            };
            return Err(RecordError::at(loc, format!("{action} is illegal: {why}")));
        }
        let deal = self.game.deal().expect("a deal is in progress");
        if deal.tricks_completed() > before
            && let Some(trick) = deal.last_trick()
        {
            self.tricks.push(TrickReport::of(&trick));
        }
        Ok(())
    }

    fn end_deal(&mut self, last: bool, draw: Option<Seat>) -> Result<(), RecordError> {
        let deal = self.game.deal().expect("a deal was started").clone();
        let mut report = DealReport::of(&deal, std::mem::take(&mut self.tricks));
        if deal.is_over() {
            let loc = self.deal_loc();
            let result = self
                .game
                .finish_deal(draw)
                .map_err(|e| RecordError::at(loc, e.to_string()))?;
            report.settle(result);
        } else if !last {
            return Err(RecordError::at(
                self.deal_loc(),
                format!(
                    "the deal is incomplete ({} of {} tricks played) but is not the last deal",
                    deal.tricks_completed(),
                    deal.rules().tricks()
                ),
            ));
        }
        self.deals.push(report);
        Ok(())
    }

    fn finish(self) -> Replay {
        let report = Report {
            ruleset: self.game.rules().to_json(),
            players: self.names,
            deals: self.deals,
            finished: self.game.is_finished(),
            winners: self.game.winners().to_vec(),
        };
        Replay {
            game: self.game,
            report,
        }
    }
}

/// A stable machine name for a scoring rule, used in reports.
#[must_use]
pub fn rule_name(rule: ScoreRule) -> &'static str {
    match rule {
        ScoreRule::TrickTable => "trick-table",
        ScoreRule::LotSucceeded => "lot-succeeded",
        ScoreRule::LotFailed => "lot-failed",
        ScoreRule::AllTricks => "all-tricks",
        ScoreRule::HundredAndNoTrick => "hundred-and-no-trick",
        ScoreRule::NoTrick => "no-trick",
        ScoreRule::Hundred => "hundred",
        ScoreRule::TwoEqual => "two-equal",
        ScoreRule::HighestAndLowest => "highest-and-lowest",
        ScoreRule::AllPoints => "all-points",
        ScoreRule::ThreeEqual => "three-equal",
        ScoreRule::TwoLowestEqual => "two-lowest-equal",
        ScoreRule::TwoHighestEqual => "two-highest-equal",
        ScoreRule::TwoMiddleEqual => "two-middle-equal",
        ScoreRule::AllDiffer => "all-differ",
        ScoreRule::AllButOneEqual => "all-but-one-equal",
        ScoreRule::PlusMinus => "plus-minus",
        ScoreRule::OwnPoints => "own-points",
        ScoreRule::OwnPointsTwoEqual => "own-points-two-equal",
        ScoreRule::Penalty => "penalty",
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn seat_number(v: &Value, what: &str, loc: Loc) -> Result<Seat, RecordError> {
    v.as_u64().map(|n| n as Seat).ok_or_else(|| {
        RecordError::at(
            loc,
            format!("{what} must be a seat number (an integer from 0), not {v}"),
        )
    })
}

/// Replays a record given as a JSON value.
///
/// # Errors
///
/// A [`RecordError`] for a malformed record or an illegal action.
pub fn replay_value(value: &Value) -> Result<Replay, RecordError> {
    read(value).map(|(_, replay)| replay)
}

fn read_json(text: &str) -> Result<(Record, Replay), RecordError> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| RecordError::at(Loc::default(), format!("invalid JSON: {e}")))?;
    read(&value)
}

/// Reads a record given as a JSON value and replays it, in one pass (module documentation):
/// the record as read, and its replay.
///
/// # Errors
///
/// A [`RecordError`] for a malformed record or an illegal action.
pub fn read(value: &Value) -> Result<(Record, Replay), RecordError> {
    let top = Loc::default();
    let obj = value.as_object().ok_or_else(|| {
        RecordError::at(
            top,
            format!("a record must be a JSON object, not {}", kind(value)),
        )
    })?;
    let ruleset = obj
        .get("ruleset")
        .ok_or_else(|| RecordError::at(top, "the record has no \"ruleset\""))?;
    let rules =
        Ruleset::from_json(ruleset).map_err(|e| RecordError::at(top, format!("ruleset: {e}")))?;
    let names = match obj.get("players") {
        None | Some(Value::Null) => None,
        Some(Value::Array(names)) => {
            if let Some(bad) = names.iter().find(|n| !n.is_string()) {
                return Err(RecordError::at(
                    top,
                    format!("players must be names (strings), not {bad}"),
                ));
            }
            Some(names.len())
        }
        Some(other) => {
            return Err(RecordError::at(
                top,
                format!("players must be an array of names, not {}", kind(other)),
            ));
        }
    };
    let deals = match obj.get("deals") {
        Some(Value::Array(deals)) => deals,
        Some(other) => {
            return Err(RecordError::at(
                top,
                format!("deals must be an array, not {}", kind(other)),
            ));
        }
        None => return Err(RecordError::at(top, "the record has no \"deals\"")),
    };
    let first_dealer = match deals.first() {
        None => None,
        Some(first) => {
            let loc = Loc {
                deal: Some(0),
                ..top
            };
            match first.get("dealer") {
                None | Some(Value::Null) => {
                    return Err(RecordError::at(loc, "the first deal must give its dealer"));
                }
                Some(d) => {
                    let d = seat_number(d, "dealer", loc)?;
                    if d >= rules.players as usize {
                        return Err(RecordError::at(
                            loc,
                            format!(
                                "dealer {d} is not a seat (seats are 0 to {})",
                                rules.players - 1
                            ),
                        ));
                    }
                    Some(d)
                }
            }
        }
    };
    let mut r = Replayer::new(rules, names, first_dealer)?;
    // Every name is a string (checked above).
    r.names = obj.get("players").and_then(Value::as_array).map(|a| {
        a.iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect()
    });
    let mut record = Record {
        ruleset: rules,
        players: r.names.clone(),
        deals: Vec::with_capacity(deals.len()),
    };
    for (i, deal) in deals.iter().enumerate() {
        let loc = Loc {
            deal: Some(i),
            ..top
        };
        let deal = deal.as_object().ok_or_else(|| {
            RecordError::at(loc, format!("a deal must be an object, not {}", kind(deal)))
        })?;
        let dealer = match deal.get("dealer") {
            None | Some(Value::Null) => None,
            Some(d) => Some(seat_number(d, "dealer", loc)?),
        };
        let draw = match deal.get("draw") {
            None | Some(Value::Null) => None,
            Some(d) => Some(seat_number(d, "draw", loc)?),
        };
        let hands = parse_hands(deal.get("hands"), loc)?;
        let actions = match deal.get("actions") {
            None | Some(Value::Null) => &Vec::new(),
            Some(Value::Array(a)) => a,
            Some(other) => {
                return Err(RecordError::at(
                    loc,
                    format!("actions must be an array, not {}", kind(other)),
                ));
            }
        };
        r.start_deal(i, dealer, &hands)?;
        let mut played = RecordDeal {
            dealer: r.game.deal().map_or(0, Deal::dealer),
            hands,
            actions: Vec::with_capacity(actions.len()),
            draw,
        };
        for action in actions {
            let parsed = match action.as_str() {
                Some(token) => token.parse::<Action>().map_err(|e| e.to_string()),
                None => Err(format!("an action must be a string, not {action}")),
            };
            let token = action
                .as_str()
                .map_or_else(|| action.to_string(), str::to_owned);
            r.action(parsed.clone(), &token)?;
            // `action` succeeded, so the token parsed.
            played.actions.extend(parsed.ok());
        }
        r.end_deal(i + 1 == deals.len(), draw)?;
        record.deals.push(played);
    }
    Ok((record, r.finish()))
}

fn parse_hands(hands: Option<&Value>, loc: Loc) -> Result<Vec<CardSet>, RecordError> {
    let hands = match hands {
        Some(Value::Array(h)) => h,
        Some(other) => {
            return Err(RecordError::at(
                loc,
                format!("hands must be an array of hands, not {}", kind(other)),
            ));
        }
        None => return Err(RecordError::at(loc, "the deal has no \"hands\"")),
    };
    hands
        .iter()
        .enumerate()
        .map(|(seat, hand)| {
            let loc = Loc {
                seat: Some(seat),
                ..loc
            };
            let cards = hand.as_array().ok_or_else(|| {
                RecordError::at(
                    loc,
                    format!("a hand must be an array of card codes, not {}", kind(hand)),
                )
            })?;
            let mut set = CardSet::EMPTY;
            for code in cards {
                let text = code.as_str().ok_or_else(|| {
                    RecordError::at(loc, format!("a card code must be a string, not {code}"))
                })?;
                let card: Card = text
                    .parse()
                    .map_err(|e| RecordError::at(loc, format!("hands: {e}")))?;
                if set.contains(card) {
                    return Err(RecordError::at(
                        loc,
                        format!("hands: {card} appears twice in this hand"),
                    ));
                }
                set.insert(card);
            }
            Ok(set)
        })
        .collect()
}

/// Writes JSON with two-space indentation, keeping arrays of plain values (hands, actions,
/// card lists, scores) on one line, so records and reports stay readable.
#[must_use]
pub fn to_pretty_json(value: &Value) -> String {
    let mut out = String::new();
    write_pretty(value, 0, &mut out);
    out.push('\n');
    out
}

fn write_pretty(value: &Value, depth: usize, out: &mut String) {
    let indent = |d: usize| "  ".repeat(d);
    match value {
        Value::Array(items) if items.iter().all(|v| !v.is_array() && !v.is_object()) => {
            out.push_str(&flat(items));
        }
        Value::Array(items)
            if items.iter().all(|v| {
                v.as_array()
                    .is_some_and(|a| a.iter().all(|x| !x.is_array() && !x.is_object()))
            }) && items.len() <= 6 =>
        {
            // An array of flat arrays (hands): one inner array per line.
            if items.is_empty() {
                out.push_str("[]");
                return;
            }
            out.push_str("[\n");
            for (i, item) in items.iter().enumerate() {
                out.push_str(&indent(depth + 1));
                out.push_str(&flat(item.as_array().map_or(&[][..], Vec::as_slice)));
                out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
            }
            out.push_str(&indent(depth));
            out.push(']');
        }
        Value::Array(items) => {
            out.push_str("[\n");
            for (i, item) in items.iter().enumerate() {
                out.push_str(&indent(depth + 1));
                write_pretty(item, depth + 1, out);
                out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
            }
            out.push_str(&indent(depth));
            out.push(']');
        }
        Value::Object(map) if map.is_empty() => out.push_str("{}"),
        Value::Object(map) => {
            out.push_str("{\n");
            for (i, (key, item)) in map.iter().enumerate() {
                out.push_str(&indent(depth + 1));
                out.push_str(&Value::from(key.as_str()).to_string());
                out.push_str(": ");
                write_pretty(item, depth + 1, out);
                out.push_str(if i + 1 < map.len() { ",\n" } else { "\n" });
            }
            out.push_str(&indent(depth));
            out.push('}');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

fn flat(items: &[Value]) -> String {
    let inner: Vec<String> = items.iter().map(Value::to_string).collect();
    format!("[{}]", inner.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The examples and the command line's test records.
    fn records() -> Vec<(String, String)> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut files: Vec<std::path::PathBuf> = ["examples", "crates/cli/tests/data"]
            .iter()
            .flat_map(|d| std::fs::read_dir(root.join(d)).unwrap())
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        assert!(files.len() >= 10, "the test records are found");
        files
            .into_iter()
            .map(|p| {
                (
                    p.display().to_string(),
                    std::fs::read_to_string(&p).unwrap(),
                )
            })
            .collect()
    }

    #[test]
    fn a_record_read_is_the_record_replayed() {
        for (name, text) in records() {
            let record = Record::from_json(&text).unwrap();
            let replay = Record::replay_json(&text).unwrap();
            assert_eq!(record.replay().unwrap().report, replay.report, "{name}");
            assert_eq!(
                Record::from_json(&record.to_json().to_string()).unwrap(),
                record,
                "{name}"
            );
            let value: Value = serde_json::from_str(&text).unwrap();
            assert_eq!(record.deals.len(), value["deals"].as_array().unwrap().len());
        }
    }

    #[test]
    fn left_out_dealers_come_from_the_rotation() {
        let (_, two) = records()
            .into_iter()
            .find(|(name, _)| name.ends_with("mini-misere-4-two-deals.json"))
            .unwrap();
        let value: Value = serde_json::from_str(&two).unwrap();
        assert!(
            value["deals"][1].get("dealer").is_none(),
            "deal 1 leaves it out"
        );
        let record = Record::from_value(&value).unwrap();
        assert_eq!(record.deals[0].dealer, 3);
        assert_eq!(record.deals[1].dealer, 0);
        assert_eq!(record.to_json()["deals"][1]["dealer"], 0);
    }

    #[test]
    fn what_the_replay_refuses_is_refused_with_its_error() {
        for (name, text) in records() {
            let value: Value = serde_json::from_str(&text).unwrap();
            let deals = value["deals"].as_array().unwrap().len();
            for deal in 0..deals {
                let mut bad = value.clone();
                bad["deals"][deal]["hands"][1][0] = "9Z".into();
                let err = Record::from_value(&bad).unwrap_err();
                assert_eq!(Some(err.clone()), replay_value(&bad).err(), "{name}");
                assert!(err.to_string().contains("\"9Z\""), "{name}: {err}");
                let mut bad = value.clone();
                if let Some(actions) = bad["deals"][deal]["actions"].as_array_mut()
                    && actions.len() > 2
                {
                    actions[2] = serde_json::json!(12);
                    let err = Record::from_value(&bad).unwrap_err();
                    assert_eq!(Some(err.clone()), replay_value(&bad).err(), "{name}");
                    assert_eq!(err.loc.deal, Some(deal), "{name}: {err}");
                }
            }
        }
    }

    #[test]
    fn the_first_error_in_the_game_is_the_one_reported() {
        let (_, text) = records()
            .into_iter()
            .find(|(name, _)| name.ends_with("mini-misere-4-two-deals.json"))
            .unwrap();
        let mut value: Value = serde_json::from_str(&text).unwrap();
        value["deals"][1]["hands"][0][0] = "ZZ".into();
        let card = value["deals"][0]["actions"][1].clone();
        value["deals"][0]["actions"][0] = card;
        let err = Record::from_value(&value).unwrap_err();
        assert_eq!(err.loc.deal, Some(0), "{err}");
        assert!(err.to_string().contains("is illegal"), "{err}");
    }
}
