//! What a table shows: the lobby's [`Summary`] (a type of the protocol), the scored deals and each seat's state
//! message ([`TableState::state_message`]), every deal fact of which is taken from that seat's
//! [`View`].

use std::sync::Arc;

use torite_core::report::{LotReport, TrickReport};
use torite_core::{Direction, GameEnd, Phase, Ruleset, Scoring, Seat, TrumpRule, View};
use torite_i18n::present::{strokes_and_circles, tally};

use super::{Occupant, TableState, UndoWay, sorted_hand, trump_code};
use crate::protocol::{
    DealMsg, LotMsg, PlayedMsg, ResultMsg, SeatSummary, ServerMsg, StateMsg, Summary, UndoMsg,
};

impl TableState {
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
            ruleset: self.rules().to_json(),
            base: self.rules().id(),
            players: self.seats.len(),
            status: self.status().as_str(),
            seats,
            created: self.created,
            timer: self.timer,
            deals: self.game().results().len(),
            replace_after_ms: 0,
        }
    }

    /// The scored deals, as every state message shows them.
    #[must_use]
    pub fn results(&self) -> Vec<ResultMsg> {
        let n = self.seats.len();
        self.game()
            .results()
            .iter()
            .enumerate()
            .map(|(i, r)| ResultMsg {
                deal: i,
                dealer: r.dealer,
                tricks: r.facts.tricks[..n].to_vec(),
                points: r.facts.points[..n].to_vec(),
                lot: r.facts.lot.map(|l| LotReport {
                    declarers: l.declaring().iter().collect(),
                    success: Some(l.winner.is_some()),
                }),
                scores: r.score.scores[..n].to_vec(),
                totals: r.totals[..n].to_vec(),
                rule: torite_core::record::rule_name(r.score.rule),
                draw: r.draw,
            })
            .collect()
    }

    /// The state message for `seat` (`None`: a spectator), built from that seat's [`View`].
    /// `summary` and `results` are this state's ([`TableState::summary`],
    /// [`TableState::results`]), shared by every seat's message; `deadline` is when the move
    /// timer of the seat to act runs out (milliseconds since the Unix epoch), if one runs.
    #[must_use]
    pub fn state_message(
        &self,
        seat: Option<Seat>,
        summary: &Arc<Summary>,
        results: &Arc<[ResultMsg]>,
        deadline: Option<u64>,
    ) -> ServerMsg {
        let n = self.seats.len();
        let game = self.game();
        let shown = self.shown();
        let deal_fields = shown.map(|(_, deal)| {
            // Every deal fact below comes through a View; a spectator gets seat 0's view
            // without its hand or legal actions.
            let view = View::new(deal, seat.unwrap_or(0));
            let leader = view.leader();
            let over = view.phase() == Phase::Over;
            let lot = view.lot();
            DealMsg {
                dealer: view.dealer(),
                phase: view.phase().into(),
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
                exempt: exempt_seats(self.rules(), &view.card_points()),
                tricks_completed: view.tricks_completed(),
                last_trick: view.last_trick().map(|t| TrickReport::of(&t)),
                hand: seat.map(|_| sorted_hand(self.rules(), view.trump(), view.hand())),
                legal: if seat.is_some() {
                    view.legal_actions().iter().map(|a| a.to_string()).collect()
                } else {
                    Vec::new()
                },
            }
        });
        ServerMsg::State(Box::new(StateMsg {
            version: self.version,
            seat,
            table: Arc::clone(summary),
            ruleset: self.rules().id(),
            players: n,
            started: self.started,
            deal: shown.map(|(index, _)| index),
            totals: game.totals().to_vec(),
            held: game.held().len(),
            results: Arc::clone(results),
            finished: self.is_finished(),
            winners: if self.is_finished() {
                game.winners().to_vec()
            } else {
                Vec::new()
            },
            deals_total: match self.rules().end {
                GameEnd::Deals(deals) => Some(deals),
                GameEnd::Target { .. } => None,
            },
            direction: match self.rules().direction {
                Direction::Clockwise => "clockwise",
                Direction::CounterClockwise => "counter-clockwise",
            },
            penalties: self.rules().scoring.is_penalty(),
            trumps: self.rules().trump != TrumpRule::NoTrump,
            tallies: strokes_and_circles(self.rules()).then(|| {
                (0..n)
                    .map(|s| {
                        tally(
                            self.rules(),
                            game.results().iter().map(|r| r.score.scores[s]),
                        )
                        .unwrap_or_default()
                    })
                    .collect()
            }),
            undo: self.undo_request().map(|r| UndoMsg {
                by: r.by,
                waiting: r.waiting.clone(),
            }),
            may_undo: seat.and_then(|s| match self.undo_way(s) {
                Ok(UndoWay::Now) => Some("now"),
                Ok(UndoWay::Ask(_)) => Some("ask"),
                Err(_) => None,
            }),
            deadline,
            series: (!self.series.is_empty()).then(|| self.series.clone()),
            next: self.next.clone(),
            shown: deal_fields,
        }))
    }
}

/// The seats whose card points exempt them from the deal's penalty: Mura's threshold reached
/// (the rules' own figure); no seat in a game without one.
fn exempt_seats(rules: &Ruleset, points: &[u32]) -> Vec<Seat> {
    match rules.scoring {
        Scoring::Mura { threshold, .. } => (0..points.len())
            .filter(|&s| points[s] >= u32::from(threshold))
            .collect(),
        _ => Vec::new(),
    }
}
