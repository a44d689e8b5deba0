//! A table: one game driven from start to end, with its record and its seed.
//!
//! [`Table`] is the driver every surface needs under its own input and output (the terminal
//! session, a server table, the arena, the statistics): it owns the [`Game`], keeps the
//! [`Record`] of everything played and takes every deal and every Molotow draw from one
//! table seed ([`Seeds`]), so that a seed means the same game wherever it is played. It does
//! no I/O: a surface asks [`Table::next_step`] what is needed (a seat to act, a draw to make,
//! nothing more), feeds [`Table::apply`] the actions of its people and bots, and shows what it
//! likes of [`Table::report`], [`Table::game`] and the seats' [`View`]s.
//!
//! A deal that ends is scored at once and the next deal dealt from the seed, unless the deal
//! needs a draw ([`Step::Draw`]): then [`Table::draw`] makes the seed's draw (or
//! [`Table::draw_with`] takes one made elsewhere, with real cards), the deal is scored and the
//! next one dealt. The record is therefore always a loadable `RECORD.md` record, except in the
//! [`Step::Draw`] step, where its last deal waits for its draw: make the draw before saving.
//!
//! ```
//! use torite_core::table::{Step, Table};
//! use torite_core::Preset;
//! let mut table = Table::new(Preset::MiniMisere4.ruleset(), 0, 1)?;
//! loop {
//!     match table.next_step() {
//!         Step::Act { seat } => {
//!             let view = table.view(seat).expect("a deal is in progress");
//!             let action = view.legal_actions().nth(0).expect("a legal action");
//!             table.apply(action)?;
//!         }
//!         Step::Draw { .. } => {
//!             table.draw()?;
//!         }
//!         Step::GameOver => break,
//!     }
//! }
//! assert!(table.game().is_finished());
//! assert_eq!(table.record().replay().unwrap().report, table.report());
//! # Ok::<_, torite_core::GameError>(())
//! ```

use crate::deal::{Action, Deal, Seat};
use crate::game::{Game, GameError};
use crate::record::{Loc, Record, RecordDeal, RecordError};
use crate::report::{DealReport, Report, TrickReport};
use crate::ruleset::Ruleset;
use crate::scoring::ScoreError;
use crate::seats::SeatSet;
use crate::seeds::Seeds;
use crate::view::View;

/// The seat that deals a game's first deal unless a surface is told otherwise: the last
/// seat, so that seat 0 (the first seat) leads the first trick and the deal then passes to
/// the left. Every surface starts its games with it (`docs/SEEDS.md`), so that one table seed
/// gives the same game, dealer included, wherever it is played.
#[must_use]
pub const fn first_dealer(rules: &Ruleset) -> Seat {
    (rules.players as usize).saturating_sub(1)
}

/// What a table needs next.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Step {
    /// A deal is in progress and `seat` is to act: [`Table::apply`] its action.
    Act {
        /// The seat to act.
        seat: Seat,
    },
    /// The deal just played is over and the `tied` seats must draw to settle it (Molotow's
    /// three-way tie): [`Table::draw`] or [`Table::draw_with`].
    Draw {
        /// The tied seats.
        tied: SeatSet,
    },
    /// The game has ended.
    GameOver,
}

/// What an action did beyond itself.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Applied {
    /// The trick the action completed.
    pub trick: Option<TrickReport>,
    /// The index in [`Game::results`] of the deal the action ended and that is now scored (a
    /// deal that waits for a draw is scored by the draw).
    pub scored: Option<usize>,
}

/// One game at one table: the game, its record and its seed (module documentation).
#[derive(Clone, Debug)]
pub struct Table {
    game: Game,
    record: Record,
    seeds: Seeds,
    /// The reports of the deals scored so far.
    reports: Vec<DealReport>,
    /// The completed tricks of the deal in progress.
    tricks: Vec<TrickReport>,
    /// The deal scored last, as it ended.
    last_deal: Option<Deal>,
}

impl Table {
    /// A new game of `rules` whose first deal is dealt by `first_dealer`, every deal and draw
    /// from table seed `seed`; the first deal is dealt.
    ///
    /// # Errors
    ///
    /// The ruleset's problems, or a dealer that is not a seat.
    pub fn new(rules: Ruleset, first_dealer: Seat, seed: u64) -> Result<Table, GameError> {
        let mut table = Table::empty(rules, first_dealer, seed)?;
        table.deal_next()?;
        Ok(table)
    }

    fn empty(rules: Ruleset, first_dealer: Seat, seed: u64) -> Result<Table, GameError> {
        Ok(Table {
            game: Game::new(rules, first_dealer)?,
            record: Record {
                ruleset: rules,
                players: None,
                deals: Vec::new(),
            },
            seeds: Seeds::new(seed),
            reports: Vec::new(),
            tricks: Vec::new(),
            last_deal: None,
        })
    }

    /// Continues the game of `record` at table seed `seed`. The record is checked by the
    /// strict replay ([`Record::replay`]) and its deals keep their own hands and draws; the
    /// seed's streams move past them, so later deals and draws are those the seed gives at
    /// their place in the game. A record whose last deal is complete goes on with the next
    /// deal, dealt from the seed.
    ///
    /// # Errors
    ///
    /// The record's first [`RecordError`].
    pub fn resume(record: Record, seed: u64) -> Result<Table, RecordError> {
        record.replay()?;
        let rules = record.ruleset;
        let first_dealer = record.deals.first().map_or(0, |d| d.dealer);
        let at = |deal: usize| {
            move |e: GameError| RecordError {
                loc: Loc {
                    deal: Some(deal),
                    ..Loc::default()
                },
                message: e.to_string(),
            }
        };
        let mut table = Table::empty(rules, first_dealer, seed).map_err(at(0))?;
        table.record.players.clone_from(&record.players);
        for (i, deal) in record.deals.iter().enumerate() {
            let _ = table.seeds.next_hands(&rules);
            table.start(&deal.hands).map_err(at(i))?;
            for action in &deal.actions {
                table.play(*action).map_err(at(i))?;
            }
            if table.game.deal().is_some_and(Deal::is_over) {
                if let Some(tied) = table.game.draw_needed() {
                    let _ = table.seeds.next_draw(SeatSet::from_bits(tied));
                }
                table.score(deal.draw).map_err(at(i))?;
            }
        }
        if table.game.deal().is_none() && !table.game.is_finished() {
            let next = table.record.deals.len();
            table.deal_next().map_err(at(next))?;
        }
        Ok(table)
    }

    /// What the table needs next.
    #[must_use]
    pub fn next_step(&self) -> Step {
        match self.game.deal() {
            Some(deal) if !deal.is_over() => Step::Act {
                seat: deal.to_act(),
            },
            Some(_) => match self.game.draw_needed() {
                Some(tied) => Step::Draw {
                    tied: SeatSet::from_bits(tied),
                },
                // Not reached: a deal that ends without a draw is scored at once.
                None => Step::GameOver,
            },
            None => Step::GameOver,
        }
    }

    /// Applies the action of the seat to act. A deal it ends is scored and the next one
    /// dealt, unless the deal needs a draw ([`Step::Draw`]).
    ///
    /// # Errors
    ///
    /// [`GameError::GameOver`], [`GameError::NoDeal`] while a draw is awaited, or the action's
    /// [`crate::PlayError`]; nothing changes then.
    pub fn apply(&mut self, action: Action) -> Result<Applied, GameError> {
        if self.game.is_finished() {
            return Err(GameError::GameOver);
        }
        if self.game.deal().is_none_or(Deal::is_over) {
            return Err(GameError::NoDeal);
        }
        let trick = self.play(action)?;
        let mut applied = Applied {
            trick,
            scored: None,
        };
        if self.game.deal().is_some_and(Deal::is_over) && self.game.draw_needed().is_none() {
            applied.scored = Some(self.settle(None)?);
        }
        Ok(applied)
    }

    /// Makes the seed's draw among the tied seats, scores the deal and deals the next one;
    /// returns the seat that drew highest.
    ///
    /// # Errors
    ///
    /// [`GameError::NoDeal`] when no draw is awaited.
    pub fn draw(&mut self) -> Result<Seat, GameError> {
        let tied = self.awaited_draw()?;
        let seat = self.seeds.next_draw(tied).ok_or(GameError::NoDeal)?;
        self.settle(Some(seat))?;
        Ok(seat)
    }

    /// Settles the awaited draw with `seat` as the seat that drew highest (a draw made with real
    /// cards, or one a log already holds), scores the deal and deals the next one. The seed's
    /// draw is passed over, so later draws stay at their place in the stream.
    ///
    /// # Errors
    ///
    /// [`GameError::NoDeal`] when no draw is awaited, [`ScoreError::BadDraw`] for a seat that
    /// is not tied; nothing changes then.
    pub fn draw_with(&mut self, seat: Seat) -> Result<(), GameError> {
        let tied = self.awaited_draw()?;
        if !tied.contains(seat) {
            return Err(GameError::Score(ScoreError::BadDraw {
                seat,
                tied: tied.bits(),
            }));
        }
        let _ = self.seeds.next_draw(tied);
        self.settle(Some(seat))?;
        Ok(())
    }

    /// Deals the deal in progress again with `hands` (a deal made elsewhere: with real cards,
    /// or one a log already holds) while none of its actions has been played. The seed's deal
    /// is passed over, so later deals stay at their place in the stream, as in
    /// [`Table::resume`].
    ///
    /// # Errors
    ///
    /// [`GameError::GameOver`], [`GameError::DealInProgress`] once an action of the deal has
    /// been played, or the hands' [`crate::SetupError`]; nothing changes then.
    pub fn deal_with(&mut self, hands: &[crate::card::CardSet]) -> Result<(), GameError> {
        if self.game.is_finished() {
            return Err(GameError::GameOver);
        }
        let unplayed = self
            .record
            .deals
            .last()
            .is_some_and(|d| d.actions.is_empty());
        if !unplayed {
            return Err(GameError::DealInProgress);
        }
        self.game.redeal(hands)?;
        if let Some(last) = self.record.deals.last_mut() {
            last.hands = hands.to_vec();
        }
        Ok(())
    }

    /// Takes back the last action, and with it the scoring, draw and dealing that followed
    /// it: the table is as it was just before that action. `None` (and nothing changes) when
    /// no action has been played.
    ///
    /// Only a surface whose players may take a move back offers this (a game against bots in
    /// the terminal, practice); a table with several people, a tournament or a score kept
    /// for a club does not.
    pub fn undo_last(&mut self) -> Option<Action> {
        let mut record = self.record.clone();
        let undone = loop {
            let last = record.deals.last_mut()?;
            if let Some(action) = last.actions.pop() {
                last.draw = None;
                break action;
            }
            // A deal dealt but not yet played: it goes, and the action before it.
            record.deals.pop();
        };
        let table = Table::resume(record, self.seeds.seed()).ok()?;
        *self = table;
        Some(undone)
    }

    /// The game.
    #[must_use]
    pub const fn game(&self) -> &Game {
        &self.game
    }

    /// The record of everything played: the deals in order, the one in progress last.
    #[must_use]
    pub const fn record(&self) -> &Record {
        &self.record
    }

    /// The seed streams, as far as the game has used them.
    #[must_use]
    pub const fn seeds(&self) -> &Seeds {
        &self.seeds
    }

    /// The deal in progress (or over and awaiting its draw).
    #[must_use]
    pub const fn deal(&self) -> Option<&Deal> {
        self.game.deal()
    }

    /// The deal scored last, as it ended (for a summary of it).
    #[must_use]
    pub const fn last_deal(&self) -> Option<&Deal> {
        self.last_deal.as_ref()
    }

    /// `seat`'s view of the deal in progress.
    #[must_use]
    pub fn view(&self, seat: Seat) -> Option<View<'_>> {
        self.game
            .deal()
            .filter(|_| seat < self.game.rules().players as usize)
            .map(|deal| View::new(deal, seat))
    }

    /// Sets the players' display names, one per seat, kept in the record.
    ///
    /// # Errors
    ///
    /// The names back when their number is not the number of seats.
    pub fn set_players(&mut self, names: Vec<String>) -> Result<(), Vec<String>> {
        if names.len() != self.game.rules().players as usize {
            return Err(names);
        }
        self.record.players = Some(names);
        Ok(())
    }

    /// The report `torite replay` prints for the record (`RECORD.md`). In the [`Step::Draw`]
    /// step the last deal shows as complete, its scores absent until the draw.
    #[must_use]
    pub fn report(&self) -> Report {
        let mut deals = self.reports.clone();
        if let Some(deal) = self.game.deal() {
            deals.push(DealReport::of(deal, self.tricks.clone()));
        }
        Report {
            ruleset: self.game.rules().to_json(),
            players: self.record.players.clone(),
            deals,
            finished: self.game.is_finished(),
            winners: self.game.winners().to_vec(),
        }
    }

    fn awaited_draw(&self) -> Result<SeatSet, GameError> {
        match self.next_step() {
            Step::Draw { tied } => Ok(tied),
            _ => Err(GameError::NoDeal),
        }
    }

    /// Starts a deal with these hands and records it.
    fn start(&mut self, hands: &[crate::card::CardSet]) -> Result<(), GameError> {
        let deal = self.game.start_deal(hands)?;
        self.record.deals.push(RecordDeal {
            dealer: deal.dealer(),
            hands: hands.to_vec(),
            actions: Vec::new(),
            draw: None,
        });
        self.tricks.clear();
        Ok(())
    }

    /// Deals the next deal from the seed.
    fn deal_next(&mut self) -> Result<(), GameError> {
        let rules = *self.game.rules();
        let hands = self.seeds.next_hands(&rules);
        self.start(&hands[..rules.players as usize])
    }

    /// Applies an action to the deal in progress and records it, with the trick it completed.
    fn play(&mut self, action: Action) -> Result<Option<TrickReport>, GameError> {
        let before = self.game.deal().map_or(0, Deal::tricks_completed);
        self.game.apply(action)?;
        if let Some(deal) = self.record.deals.last_mut() {
            deal.actions.push(action);
        }
        let trick = self
            .game
            .deal()
            .filter(|d| d.tricks_completed() > before)
            .and_then(Deal::last_trick)
            .map(|t| TrickReport::of(&t));
        self.tricks.extend(trick.clone());
        Ok(trick)
    }

    /// Scores the finished deal with `draw`, without dealing the next one; returns its index
    /// in the results.
    fn score(&mut self, draw: Option<Seat>) -> Result<usize, GameError> {
        let deal = self.game.deal().ok_or(GameError::NoDeal)?.clone();
        let mut report = DealReport::of(&deal, self.tricks.clone());
        let result = self.game.finish_deal(draw)?.clone();
        report.settle(&result);
        if let Some(last) = self.record.deals.last_mut() {
            last.draw = result.draw;
        }
        self.tricks.clear();
        self.reports.push(report);
        self.last_deal = Some(deal);
        Ok(self.game.results().len() - 1)
    }

    /// Scores the finished deal and deals the next one, unless the game is over.
    fn settle(&mut self, draw: Option<Seat>) -> Result<usize, GameError> {
        let index = self.score(draw)?;
        if !self.game.is_finished() {
            self.deal_next()?;
        }
        Ok(index)
    }
}

#[cfg(test)]
mod tests {
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::SeedableRng;

    use super::*;
    use crate::card::CardSet;
    use crate::ruleset::Preset;
    use crate::shuffle::below;

    /// Plays the next step with an action (or draw) chosen by `rng`.
    fn step(table: &mut Table, rng: &mut ChaCha8Rng) -> Step {
        let step = table.next_step();
        match step {
            Step::Act { seat } => {
                let legal = table.view(seat).unwrap().legal_actions();
                let action = legal.nth(below(rng, legal.len() as u32) as usize).unwrap();
                table.apply(action).unwrap();
            }
            Step::Draw { .. } => {
                table.draw().unwrap();
            }
            Step::GameOver => {}
        }
        step
    }

    #[test]
    fn deals_come_from_the_seed() {
        let rules = Preset::MiniMisere4.ruleset();
        let table = Table::new(rules, 0, 1).unwrap();
        let first = &table.record().deals[0];
        assert_eq!(first.hands, Seeds::hands(1, &rules, 0)[..4]);
        // `torite deal mini-misere-4 --seed 1`
        assert_eq!(
            first.hands[0],
            "JS KH JH KD QD JD".parse::<CardSet>().unwrap()
        );
        assert_eq!(table.next_step(), Step::Act { seat: 1 });
        let mut table = table;
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        while table.record().deals.len() < 2 {
            step(&mut table, &mut rng);
        }
        assert_eq!(
            table.record().deals[1].hands,
            Seeds::hands(1, &rules, 1)[..4]
        );
        assert_eq!(table.record().deals[1].dealer, 1);
    }

    #[test]
    fn random_games_report_as_their_replay() {
        for (i, preset) in [
            Preset::MiniMisere4,
            Preset::MiniMisere4_1989,
            Preset::MiniMisere5,
            Preset::MiniMisere5_1989,
            Preset::MittlereJass,
            Preset::MolotowJass,
            Preset::PlusMinusJass3,
            Preset::MiddlerJoker,
            Preset::Mura3,
        ]
        .into_iter()
        .enumerate()
        {
            let mut table = Table::new(preset.ruleset(), i % 3, 10 + i as u64).unwrap();
            let mut rng = ChaCha8Rng::seed_from_u64(i as u64);
            let mut steps = 0;
            while step(&mut table, &mut rng) != Step::GameOver {
                steps += 1;
                if steps % 11 == 0 && !matches!(table.next_step(), Step::Draw { .. }) {
                    let replay = table.record().replay().unwrap();
                    assert_eq!(table.report(), replay.report, "{preset} step {steps}");
                }
            }
            let replay = table.record().replay().unwrap();
            assert_eq!(table.report(), replay.report, "{preset}");
            assert!(replay.report.finished);
            assert_eq!(table.apply(Action::Lot), Err(GameError::GameOver));
            assert_eq!(table.draw(), Err(GameError::NoDeal));
        }
    }

    #[test]
    fn a_resumed_table_goes_on_with_the_same_game() {
        let rules = Preset::MolotowJass.ruleset();
        let mut whole = Table::new(rules, 2, 77).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut snapshots = vec![whole.clone()];
        let mut actions = Vec::new();
        for _ in 0..120 {
            if let Step::Act { seat } = whole.next_step() {
                let legal = whole.view(seat).unwrap().legal_actions();
                let action = legal
                    .nth(below(&mut rng, legal.len() as u32) as usize)
                    .unwrap();
                whole.apply(action).unwrap();
                actions.push(action);
                snapshots.push(whole.clone());
            }
        }
        for cut in [0, 1, 35, 36, 37, 100] {
            let mut resumed = Table::resume(snapshots[cut].record().clone(), 77).unwrap();
            assert_eq!(resumed.report(), snapshots[cut].report(), "cut {cut}");
            assert_eq!(resumed.next_step(), snapshots[cut].next_step(), "cut {cut}");
            for action in &actions[cut..] {
                resumed.apply(*action).unwrap();
            }
            assert_eq!(resumed.record(), whole.record(), "cut {cut}");
            assert_eq!(resumed.seeds().dealt(), whole.seeds().dealt());
        }
    }

    #[test]
    fn undo_takes_back_the_last_action_and_what_followed() {
        let mut table = Table::new(Preset::MiniMisere4.ruleset(), 3, 8).unwrap();
        assert_eq!(table.undo_last(), None);
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        let mut boundaries = 0;
        while let Step::Act { seat } = table.next_step() {
            let before = table.clone();
            let legal = table.view(seat).unwrap().legal_actions();
            let action = legal
                .nth(below(&mut rng, legal.len() as u32) as usize)
                .unwrap();
            let applied = table.apply(action).unwrap();
            boundaries += usize::from(applied.scored.is_some());
            let after = table.clone();
            assert_eq!(table.undo_last(), Some(action));
            assert_eq!(table.record(), before.record());
            assert_eq!(table.report(), before.report());
            assert_eq!(table.next_step(), before.next_step());
            assert_eq!(table.game().totals(), before.game().totals());
            table.apply(action).unwrap();
            assert_eq!(table.record(), after.record());
        }
        assert!(boundaries > 1 && table.game().is_finished());
    }

    /// The three-way tie of `crates/cli/tests/data/molotow-three-way-tie.json`.
    fn tied_deal() -> Record {
        let hands = [
            "9S 7S 6S KH 8H 7H 9D 7D AC",
            "AS KS 8S AH QD JD 6D KC 6C",
            "JS QH 9H 6H AD KD 8D JC 9C",
            "QS TS JH TH TD QC TC 8C 7C",
        ];
        let actions = "TC AC 6C JC 9S KS JS QS JD AD TD 9D KD QC 7D 6D 8C 8H KC 9C \
                       9H TH KH AH 8S QH 7C 6S JH 7H AS 6H TS 7S QD 8D";
        Record {
            ruleset: Preset::MolotowJass.ruleset(),
            players: None,
            deals: vec![RecordDeal {
                dealer: 2,
                hands: hands.iter().map(|h| h.parse().unwrap()).collect(),
                actions: actions
                    .split_whitespace()
                    .map(|a| a.parse().unwrap())
                    .collect(),
                draw: Some(3),
            }],
        }
    }

    #[test]
    fn a_tied_deal_waits_for_its_draw() {
        let mut record = tied_deal();
        let last = record.deals[0].actions.pop().unwrap();
        record.deals[0].draw = None;
        for given in [None, Some(3)] {
            let mut table = Table::resume(record.clone(), 5).unwrap();
            let applied = table.apply(last).unwrap();
            assert_eq!(applied.scored, None);
            let Step::Draw { tied } = table.next_step() else {
                panic!("a draw is awaited");
            };
            assert_eq!(tied.len(), 3);
            assert!(table.record().replay().is_err(), "the draw is missing");
            assert_eq!(table.apply(last), Err(GameError::NoDeal));
            let untied = (0..4).find(|s| !tied.contains(*s)).unwrap();
            assert!(matches!(
                table.draw_with(untied),
                Err(GameError::Score(ScoreError::BadDraw { .. }))
            ));
            let seat = match given {
                Some(seat) => {
                    table.draw_with(seat).unwrap();
                    seat
                }
                None => table.draw().unwrap(),
            };
            assert!(tied.contains(seat));
            assert_eq!(table.seeds().drawn(), 1);
            assert_eq!(table.record().deals[0].draw, Some(seat));
            assert!(matches!(table.next_step(), Step::Act { .. }));
            assert_eq!(table.record().deals.len(), 2);
            assert_eq!(table.report(), table.record().replay().unwrap().report);
            // Resuming passes the recorded draw over in the seed's stream.
            let resumed = Table::resume(table.record().clone(), 5).unwrap();
            assert_eq!(resumed.seeds().drawn(), 1);
            assert_eq!(resumed.record(), table.record());
        }
        // The seed's draw is the first of the stream of seed 5 among the tied seats.
        let mut seeds = Seeds::new(5);
        let mut table = Table::resume(record, 5).unwrap();
        table.apply(last).unwrap();
        let Step::Draw { tied } = table.next_step() else {
            panic!("a draw is awaited");
        };
        assert_eq!(table.draw().unwrap(), seeds.next_draw(tied).unwrap());
    }

    #[test]
    fn resume_refuses_what_the_replay_refuses() {
        let mut record = tied_deal();
        record.deals[0].draw = None;
        let err = Table::resume(record, 0).unwrap_err();
        assert!(err.to_string().contains("missing draw"), "{err}");
        let mut record = tied_deal();
        record.deals[0].actions[0] = Action::Lot;
        let err = Table::resume(record, 0).unwrap_err();
        assert_eq!(err.loc.deal, Some(0));
    }

    #[test]
    fn the_first_dealer_is_the_last_seat_so_seat_0_leads() {
        for preset in [Preset::Mura3, Preset::MiniMisere4, Preset::MiniMisere5] {
            let rules = preset.ruleset();
            let dealer = first_dealer(&rules);
            assert_eq!(dealer, rules.players as usize - 1, "{preset}");
            let table = Table::new(rules, dealer, 3).unwrap();
            assert_eq!(table.record().deals[0].dealer, dealer);
            assert_eq!(table.next_step(), Step::Act { seat: 0 }, "{preset}");
        }
    }

    #[test]
    fn a_deal_made_elsewhere_replaces_the_seeds_until_it_is_played() {
        let rules = Preset::MiniMisere4.ruleset();
        let mut table = Table::new(rules, 3, 1).unwrap();
        let other = Seeds::hands(2, &rules, 0);
        let bad = [other[0], other[0], other[1], other[2]];
        assert!(matches!(table.deal_with(&bad), Err(GameError::Setup(_))));
        assert_eq!(
            table.record().deals[0].hands,
            Seeds::hands(1, &rules, 0)[..4]
        );
        table.deal_with(&other[..4]).unwrap();
        assert_eq!(table.record().deals[0].hands, other[..4]);
        assert_eq!(table.deal().unwrap().hand(0), other[0]);
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        step(&mut table, &mut rng);
        assert_eq!(table.deal_with(&other[..4]), Err(GameError::DealInProgress));
        while table.record().deals.len() < 2 {
            step(&mut table, &mut rng);
        }
        // The seed's own first deal was passed over: the second deal is still its second.
        assert_eq!(
            table.record().deals[1].hands,
            Seeds::hands(1, &rules, 1)[..4]
        );
        assert_eq!(table.report(), table.record().replay().unwrap().report);
    }

    #[test]
    fn names_are_one_per_seat() {
        let mut table = Table::new(Preset::Mura3.ruleset(), 0, 0).unwrap();
        assert!(table.set_players(vec!["a".into()]).is_err());
        table
            .set_players(vec!["a".into(), "b".into(), "c".into()])
            .unwrap();
        assert_eq!(table.report().players.unwrap().len(), 3);
        assert!(table.view(3).is_none() && table.view(2).is_some());
    }
}
