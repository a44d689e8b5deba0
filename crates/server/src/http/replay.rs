//! A finished game step by step, for the browser's history page and replay viewer: the record
//! replayed through `torite-core`, with what each action did (the trick it belongs to, the
//! trick's winner when it completes one, trump and the Lot after it) and each deal's score, so
//! that the browser shows the game without knowing its rules.
//!
//! The record is read by core's strict reader ([`torite_core::record::read`]), and the tricks,
//! the Lot and each deal's result are core's report types ([`TrickReport`], [`LotReport`],
//! built by [`DealReport`]), as `torite replay` reports them; only the steps are this
//! endpoint's own.

use serde::Serialize;
use serde_json::Value;
use torite_core::report::{DealReport, LotReport, TrickReport};
use torite_core::{Game, Seat, SeatSet, TrumpRule};

use crate::refusal::{Refusal, RefusalKind, Why};
use crate::table::{sorted_hand, trump_code};

/// The replay of a finished game (`GET /api/tables/{id}/replay`).
#[derive(Serialize, Debug)]
pub(crate) struct GameReplay {
    /// The table id.
    id: String,
    /// The ruleset in record form.
    ruleset: Value,
    /// The preset it is based on.
    base: &'static str,
    /// The options changed from the preset (empty for a preset).
    house_rules: serde_json::Map<String, Value>,
    /// Display names per seat.
    players: Vec<String>,
    /// The deals in order.
    deals: Vec<DealReplay>,
    /// The totals at the end.
    totals: Vec<i32>,
    /// The winning seats.
    winners: Vec<Seat>,
    /// Held-over points lost at the end (Plus-Minus Jass).
    held: usize,
    /// Whether the rules have trumps (a deal may then be played without one).
    trumps: bool,
}

/// One deal of a [`GameReplay`].
#[derive(Serialize, Debug)]
struct DealReplay {
    dealer: Seat,
    /// Each seat's hand as dealt, in display order.
    hands: Vec<Vec<String>>,
    /// The seat that leads the first trick (or is asked the Lot first).
    first: Seat,
    /// Trump as the deal starts.
    start_trump: Option<String>,
    /// Every action in order.
    steps: Vec<Step>,
    /// The tricks as played: leader, cards in order, winner.
    tricks: Vec<TrickReport>,
    /// Trump at the end of the deal.
    trump: Option<String>,
    /// The Lot, if declared (its success known: the deal is over).
    lot: Option<LotReport>,
    tricks_won: Vec<u8>,
    points: Vec<u32>,
    scores: Vec<i32>,
    totals: Vec<i32>,
    /// The scoring rule that settled the deal (`rule-{rule}` in the catalogs).
    rule: String,
    /// The seat whose drawn card was highest (Molotow three-way tie), where needed.
    draw: Option<Seat>,
}

/// One action and what it did.
#[derive(Serialize, Debug)]
struct Step {
    seat: Seat,
    /// The action code (`AS`, `lot`, `pass`, `call:S`).
    action: String,
    /// The trick it belongs to, from 0.
    trick: usize,
    /// The trick's winner, when this action completed it.
    #[serde(skip_serializing_if = "Option::is_none")]
    winner: Option<Seat>,
    /// The seat to act next (`null` when the deal is over).
    to_act: Option<Seat>,
    /// Trump after this action.
    trump: Option<String>,
    /// The Lot after this action.
    lot: LotState,
    /// Tricks won per seat after this action.
    tricks_won: Vec<u8>,
    /// Card points captured per seat after this action.
    points: Vec<u32>,
}

/// The Lot as it stands after a step.
#[derive(Serialize, Debug)]
struct LotState {
    declarers: SeatSet,
    failed: SeatSet,
}

fn broken(why: impl std::fmt::Display) -> Refusal {
    Refusal::new(
        RefusalKind::Broken,
        Why::RecordDoesNotReplay {
            detail: why.to_string(),
        },
    )
}

/// The step-by-step replay of a finished game's record (as `GET /api/tables/{id}/record`
/// gives it).
///
/// # Errors
///
/// A 409 refusal if the record is not of a finished game; a 500 if it does not replay.
pub(crate) fn replay(id: &str, record: &Value) -> Result<GameReplay, Refusal> {
    // The whole record is read, and so checked against the rules, first.
    let (record, checked) = torite_core::record::read(record).map_err(broken)?;
    if !checked.game.is_finished() {
        return Err(Refusal::conflict(Why::ReplayNotYet { id: id.to_owned() }));
    }
    let rules = record.ruleset;
    let n = rules.players as usize;
    let first_dealer = record.deals.first().map_or(0, |d| d.dealer);
    let mut game = Game::new(rules, first_dealer).map_err(broken)?;
    let mut deals = Vec::new();
    for played in &record.deals {
        let deal = game.start_deal(&played.hands).map_err(broken)?;
        let dealer = deal.dealer();
        let first = deal.to_act();
        let start_trump = trump_code(deal.trump());
        let mut steps = Vec::with_capacity(played.actions.len());
        let mut tricks = Vec::new();
        for &action in &played.actions {
            let deal = game.deal().ok_or_else(|| broken("no deal"))?;
            let seat = deal.to_act();
            let trick = deal.tricks_completed();
            game.apply(action).map_err(broken)?;
            let deal = game.deal().ok_or_else(|| broken("no deal"))?;
            let completed = (deal.tricks_completed() > trick)
                .then(|| deal.last_trick())
                .flatten()
                .map(|t| TrickReport::of(&t));
            let winner = completed.as_ref().and_then(|t| t.winner);
            tricks.extend(completed);
            let lot = deal.lot();
            steps.push(Step {
                seat,
                action: action.to_string(),
                trick,
                winner,
                to_act: (!deal.is_over()).then(|| deal.to_act()),
                trump: trump_code(deal.trump()),
                lot: LotState {
                    declarers: SeatSet::from_bits(lot.declarers),
                    failed: SeatSet::from_bits(lot.failed),
                },
                tricks_won: deal.tricks_won()[..n].to_vec(),
                points: (0..n).map(|s| deal.card_points(s)).collect(),
            });
        }
        let deal = game.deal().ok_or_else(|| broken("no deal"))?;
        let trump = trump_code(deal.trump());
        let mut report = DealReport::of(deal, tricks);
        let result = game.finish_deal(played.draw).map_err(broken)?;
        report.settle(result);
        deals.push(DealReplay {
            dealer,
            hands: played
                .hands
                .iter()
                .map(|h| sorted_hand(&rules, torite_core::Trump::None, *h))
                .collect(),
            first,
            start_trump,
            steps,
            tricks: report.tricks,
            trump,
            lot: report.lot,
            tricks_won: report.tricks_won,
            points: report.card_points,
            scores: report.scores.unwrap_or_default(),
            totals: report.totals.unwrap_or_default(),
            rule: report.rule.unwrap_or_default(),
            draw: result.draw,
        });
    }
    let players = record
        .players
        .unwrap_or_else(|| (0..n).map(|s| format!("{s}")).collect());
    Ok(GameReplay {
        id: id.to_owned(),
        ruleset: rules.to_json(),
        base: rules.id(),
        house_rules: rules
            .overrides()
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v))
            .collect(),
        players,
        deals,
        totals: game.totals()[..n].to_vec(),
        winners: game.winners().to_vec(),
        held: game.held().len(),
        trumps: rules.trump != TrumpRule::NoTrump,
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// A one-deal record of the command line's tests, made a whole game (one deal).
    fn one_deal_game(text: &str) -> Value {
        let mut record: Value = serde_json::from_str(text).unwrap();
        let base = record["ruleset"].as_str().unwrap().to_owned();
        record["ruleset"] = json!({"base": base, "deals": 1});
        record
    }

    fn replayed(record: &Value) -> Value {
        serde_json::to_value(replay("t", record).unwrap()).unwrap()
    }

    #[test]
    fn a_joker_call_is_a_step_of_its_trick() {
        let record = one_deal_game(include_str!(
            "../../../cli/tests/data/mini-misere-5-1989-joker-call.json"
        ));
        let r = replayed(&record);
        let steps = r["deals"][0]["steps"].as_array().unwrap();
        let call = steps.iter().position(|s| s["action"] == "call:S").unwrap();
        assert_eq!(steps[call - 1]["action"], "JK");
        assert_eq!(steps[call]["seat"], steps[call - 1]["seat"]);
        assert_eq!(steps[call]["trick"], steps[call - 1]["trick"]);
        let report = torite_core::record::replay_value(&record).unwrap().report;
        let winners: Vec<&Value> = steps.iter().filter_map(|s| s.get("winner")).collect();
        let expected: Vec<Value> = report.deals[0]
            .tricks
            .iter()
            .map(|t| json!(t.winner.unwrap()))
            .collect();
        assert_eq!(winners, expected.iter().collect::<Vec<_>>());
        assert_eq!(r["deals"][0]["totals"], json!(report.deals[0].totals));
        assert_eq!(r["trumps"], false);
    }

    #[test]
    fn a_failed_lot_ends_the_deal_with_cards_in_hand() {
        let record = one_deal_game(include_str!(
            "../../../cli/tests/data/lot-fails-first-trick.json"
        ));
        let r = replayed(&record);
        let deal = &r["deals"][0];
        assert_eq!(deal["steps"][0]["action"], "lot");
        assert_eq!(deal["steps"][1]["lot"]["declarers"], json!([0]));
        let last = deal["steps"].as_array().unwrap().last().unwrap();
        assert_eq!(last["winner"], 1);
        assert_eq!(last["to_act"], Value::Null);
        assert_eq!(last["lot"]["failed"], json!([0]));
        assert_eq!(deal["lot"], json!({"declarers": [0], "success": false}));
        assert_eq!(deal["rule"], "lot-failed");
        assert_eq!(deal["scores"], json!([0, 6, 6, 6]));
        assert_eq!(r["players"], json!(["Aki", "Ben", "Chie", "Dan"]));
        assert_eq!(r["house_rules"], json!({"deals": 1}));
    }

    #[test]
    fn trump_and_the_draw_are_shown() {
        let r = replayed(&one_deal_game(include_str!(
            "../../../cli/tests/data/middler-joker-trump.json"
        )));
        assert_eq!(r["trumps"], true);
        let deal = &r["deals"][0];
        assert_eq!(deal["start_trump"], Value::Null);
        assert!(deal["trump"].is_string());
        let steps = deal["steps"].as_array().unwrap();
        let set = steps.iter().position(|s| !s["trump"].is_null()).unwrap();
        assert!(steps[set..].iter().all(|s| s["trump"] == deal["trump"]));
        let r = replayed(&one_deal_game(include_str!(
            "../../../cli/tests/data/molotow-three-way-tie.json"
        )));
        assert_eq!(r["deals"][0]["draw"], 3);
        assert_eq!(r["deals"][0]["rule"], "three-equal");
    }

    /// The endpoint's whole output for the finished games of the examples and the command
    /// line's test data (one-deal records made whole games), and its refusals, pinned byte for
    /// byte (`TORITE_BLESS=1` rewrites the golden file after a deliberate change).
    #[test]
    fn the_replays_of_the_examples_are_unchanged() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut files: Vec<std::path::PathBuf> = ["examples", "crates/cli/tests/data"]
            .iter()
            .flat_map(|d| std::fs::read_dir(dir.join(d)).unwrap())
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        let mut out = String::new();
        for path in files {
            let text = std::fs::read_to_string(&path).unwrap();
            let mut record: Value = serde_json::from_str(&text).unwrap();
            if record["deals"].as_array().is_some_and(|d| d.len() == 1) {
                if record["ruleset"].is_string() {
                    record = one_deal_game(&text);
                } else {
                    record["ruleset"]["deals"] = json!(1);
                }
            }
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let shown = match replay("t", &record) {
                Ok(r) => serde_json::to_string(&r).unwrap(),
                Err(e) => format!("{} {}", e.kind.http_status(), e.message()),
            };
            out.push_str(&format!("{name}\n{shown}\n"));
        }
        let golden =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/replays.txt");
        if std::env::var_os("TORITE_BLESS").is_some() {
            std::fs::create_dir_all(golden.parent().unwrap()).unwrap();
            std::fs::write(&golden, &out).unwrap();
        }
        assert_eq!(out, std::fs::read_to_string(&golden).unwrap());
    }

    #[test]
    fn an_unfinished_game_is_refused() {
        let record: Value = serde_json::from_str(include_str!(
            "../../../cli/tests/data/lot-fails-first-trick.json"
        ))
        .unwrap();
        assert_eq!(
            replay("t", &record).unwrap_err().kind,
            RefusalKind::Conflict
        );
    }
}
