//! What a game looks like to the outside: its tricks, its Lot, each deal's result and the
//! game's, as `torite replay` prints them (`RECORD.md`).
//!
//! The types are those of the replay report ([`Report`], [`DealReport`], [`LotReport`],
//! [`TrickReport`], declared with the record, whose replay builds them); this module builds
//! them from the engine's state, so that every surface (the replay, a [`crate::table::Table`],
//! later the server's messages and its replay endpoint) reports a game in one form.

pub use crate::record::{DealReport, LotReport, Report, TrickReport};

use crate::card::Card;
use crate::deal::{Deal, Trick};
use crate::game::DealResult;
use crate::record::rule_name;
use crate::ruleset::Trump;
use crate::scoring::DealFacts;

fn card_codes(cards: &[Card]) -> Vec<String> {
    cards.iter().map(Card::to_string).collect()
}

impl TrickReport {
    /// A completed trick: its leader, its cards in the order played and its winner.
    #[must_use]
    pub fn of(trick: &Trick) -> TrickReport {
        TrickReport {
            leader: trick.leader,
            cards: card_codes(trick.cards()),
            winner: Some(trick.winner),
        }
    }

    /// The trick in progress in `deal`, if a card has been played to it (its winner `null`).
    #[must_use]
    pub fn in_progress(deal: &Deal) -> Option<TrickReport> {
        let cards = deal.current_trick();
        (!cards.is_empty()).then(|| TrickReport {
            leader: deal.leader(),
            cards: card_codes(cards),
            winner: None,
        })
    }
}

impl DealReport {
    /// The report of `deal` as it stands, given its completed tricks in order: the trick in
    /// progress is added last, and the Lot's success is known once the deal is over. Scores,
    /// totals and the rule are absent until [`DealReport::settle`].
    #[must_use]
    pub fn of(deal: &Deal, completed: Vec<TrickReport>) -> DealReport {
        let mut tricks = completed;
        tricks.extend(TrickReport::in_progress(deal));
        let n = deal.players();
        let facts = DealFacts::of(deal);
        let declarers = deal.lot().declaring();
        DealReport {
            dealer: deal.dealer(),
            trump: match deal.trump() {
                Trump::None => None,
                t => Some(t.to_string()),
            },
            lot: (!declarers.is_empty()).then(|| LotReport {
                declarers: declarers.iter().collect(),
                success: deal
                    .is_over()
                    .then(|| facts.lot.is_some_and(|l| l.winner.is_some())),
            }),
            tricks,
            tricks_won: deal.tricks_won().to_vec(),
            card_points: facts.points[..n].to_vec(),
            scores: None,
            totals: None,
            complete: deal.is_over(),
            rule: None,
        }
    }

    /// Adds the deal's result: its scores, the totals after it and the rule that settled it.
    pub fn settle(&mut self, result: &DealResult) {
        let n = self.tricks_won.len();
        self.scores = Some(result.score.scores[..n].to_vec());
        self.totals = Some(result.totals[..n].to_vec());
        self.rule = Some(rule_name(result.score.rule).to_owned());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::record::{Record, to_pretty_json};

    /// Each example and the text `torite replay` printed for it before the report was built
    /// here (`RECORD.md`'s contract).
    const EXAMPLES: [(&str, &str); 4] = [
        (
            include_str!("../../../examples/mini-misere-4.json"),
            include_str!("../tests/data/mini-misere-4.replay.json"),
        ),
        (
            include_str!("../../../examples/mittlere-jass.json"),
            include_str!("../tests/data/mittlere-jass.replay.json"),
        ),
        (
            include_str!("../../../examples/molotow-jass.json"),
            include_str!("../tests/data/molotow-jass.replay.json"),
        ),
        (
            include_str!("../../../examples/mura-4.json"),
            include_str!("../tests/data/mura-4.replay.json"),
        ),
    ];

    fn text(report: &Report) -> String {
        to_pretty_json(&serde_json::to_value(report).unwrap())
    }

    #[test]
    fn the_replay_prints_the_contracts_text() {
        for (record, printed) in EXAMPLES {
            let replay = Record::replay_json(record).expect("the example replays");
            assert_eq!(text(&replay.report), printed);
        }
    }

    /// The reports built deal by deal from a game driven by hand are the same text.
    #[test]
    fn reports_built_from_the_state_print_the_same() {
        for (record, printed) in EXAMPLES {
            let replay = Record::replay_json(record).unwrap();
            let value: serde_json::Value = serde_json::from_str(record).unwrap();
            let rules = *replay.game.rules();
            let mut game = Game::new(rules, replay.report.deals[0].dealer).unwrap();
            let mut deals = Vec::new();
            for deal in value["deals"].as_array().unwrap() {
                let hands: Vec<_> = deal["hands"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|h| {
                        h.as_array()
                            .unwrap()
                            .iter()
                            .map(|c| c.as_str().unwrap().parse::<Card>().unwrap())
                            .collect()
                    })
                    .collect();
                game.start_deal(&hands).unwrap();
                let mut tricks = Vec::new();
                for action in deal["actions"].as_array().unwrap() {
                    let before = game.deal().unwrap().tricks_completed();
                    game.apply(action.as_str().unwrap().parse().unwrap())
                        .unwrap();
                    let now = game.deal().unwrap();
                    if now.tricks_completed() > before {
                        tricks.push(TrickReport::of(&now.last_trick().unwrap()));
                    }
                }
                let state = game.deal().unwrap().clone();
                let mut report = DealReport::of(&state, tricks);
                if state.is_over() {
                    let draw = deal["draw"].as_u64().map(|d| d as usize);
                    report.settle(game.finish_deal(draw).unwrap());
                }
                deals.push(report);
            }
            let rebuilt = Report {
                ruleset: rules.to_json(),
                players: None,
                deals,
                finished: game.is_finished(),
                winners: game.winners().to_vec(),
            };
            assert_eq!(text(&rebuilt), printed);
        }
    }
}
