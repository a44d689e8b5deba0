//! Property tests: random complete deals and games of every preset and of a few house rules.
//!
//! Every case plays each ruleset of [`variants`] once, with random legal actions from a seeded
//! generator, and checks at every node that the legal-action set, `is_legal` and `apply` agree
//! and that an illegal action changes nothing; after every deal, that cards and tricks are
//! conserved and card points add up (157 in Jass, 121 in Middler with joker); in whole games,
//! that card points, deal scores and the end of the game equal those of a naive scorer
//! written from `RULES.md` (Mini Misère's trick table or Lot, the Jass and Mura rules, held
//! Plus-Minus points), and that the game's record replays to the same result through JSON.

use proptest::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use torite_core::{
    Action, CardPoints, CardSet, Deal, Game, JokerRule, Preset, Record, RecordDeal, Ruleset,
    Scoring, Suit,
};

use crate::perft::{random_deal, variants};
use crate::reference::{RefState, RefTrump};

/// Every action a seat could name: each card of the notation, `lot`, `pass`, `call:X`.
fn probes() -> Vec<Action> {
    CardSet::ALL
        .iter()
        .map(Action::Play)
        .chain([Action::Lot, Action::Pass])
        .chain(Suit::ALL.into_iter().map(Action::Call))
        .collect()
}

/// A uniformly chosen legal action.
fn random_action(deal: &Deal, rng: &mut ChaCha8Rng) -> Action {
    let legal = deal.legal_actions();
    assert!(!legal.is_empty(), "a deal in progress has a legal action");
    let n = legal.len() as u64;
    legal.nth((rng.next_u64() % n) as usize).expect("in range")
}

/// The checks made at every node of a deal.
fn check_node(deal: &Deal, probes: &[Action]) -> Result<(), TestCaseError> {
    prop_assert_eq!(&deal.clone(), deal, "clone equality");
    let legal = deal.legal_actions();
    prop_assert_eq!(legal.is_empty(), deal.is_over());
    prop_assert_eq!(legal.iter().count(), legal.len());
    for (i, action) in legal.iter().enumerate() {
        prop_assert_eq!(legal.nth(i), Some(action));
    }
    for &action in probes {
        let is_legal = deal.is_legal(action);
        prop_assert_eq!(is_legal, legal.contains(action), "is_legal({})", action);
        prop_assert_eq!(deal.check(action).is_none(), is_legal, "check({})", action);
        if !is_legal {
            let mut copy = deal.clone();
            prop_assert!(copy.apply(action).is_err(), "{} applied", action);
            prop_assert_eq!(&copy, deal, "an illegal {} changed the deal", action);
        }
    }
    Ok(())
}

/// The checks made when a deal is over, from the actions that were played.
fn check_finished_deal(
    deal: &Deal,
    hands: &[CardSet],
    actions: &[Action],
) -> Result<(), TestCaseError> {
    let rules = deal.rules();
    let n = deal.players();
    let deck = rules.deck();
    // Every card played exactly once, and only cards that were dealt.
    let mut played = CardSet::EMPTY;
    for action in actions {
        if let Action::Play(card) = action {
            prop_assert!(!played.contains(*card), "{} played twice", card);
            played.insert(*card);
        }
    }
    let dealt = hands.iter().fold(CardSet::EMPTY, |all, h| all | *h);
    prop_assert_eq!(dealt, deck);
    prop_assert_eq!(deal.played(), played);
    let remaining = (0..n).fold(CardSet::EMPTY, |all, s| all | deal.hand(s));
    prop_assert!(remaining.is_disjoint(played));
    prop_assert_eq!(remaining | played, deck);
    if deal.all_tricks_played() {
        prop_assert_eq!(played, deck, "every card is played once");
    } else {
        // Only a failed Lot ends a deal early (RULES.md 1.4).
        prop_assert!(
            deal.lot().declarers != 0,
            "a deal ended early without a Lot"
        );
        prop_assert_eq!(deal.lot().failed, deal.lot().declarers);
    }
    // Tricks won add up to the tricks played.
    let won: usize = deal.tricks_won().iter().map(|t| usize::from(*t)).sum();
    prop_assert_eq!(won, deal.tricks_completed());
    prop_assert_eq!(played.len(), deal.tricks_completed() * n);
    let captured = (0..n).fold(CardSet::EMPTY, |all, s| all | deal.won(s));
    prop_assert_eq!(captured, played);
    // Card points.
    let points: u32 = (0..n).map(|s| deal.card_points(s)).sum();
    match rules.card_points {
        CardPoints::Jass { .. } => {
            let total = if rules.joker.is_some() { 121 } else { 157 };
            prop_assert_eq!(points, total, "Jass card points");
        }
        CardPoints::Mura => prop_assert!((16..=20).contains(&points), "Mura points {}", points),
        _ => prop_assert_eq!(points, 0),
    }
    Ok(())
}

/// Plays one deal with random actions, checking every node.
fn play_checked_deal(rules: Ruleset, rng: &mut ChaCha8Rng) -> Result<(), TestCaseError> {
    let probes = probes();
    let (mut deal, _) = random_deal(rules, rng);
    let hands: Vec<CardSet> = (0..deal.players()).map(|s| deal.hand(s)).collect();
    let mut actions = Vec::new();
    while !deal.is_over() {
        check_node(&deal, &probes)?;
        let action = random_action(&deal, rng);
        let seat = deal.to_act();
        let mut twin = deal.clone();
        deal.apply(action)
            .map_err(|e| TestCaseError::fail(format!("legal {action} refused: {e}")))?;
        twin.apply_unchecked(action);
        prop_assert_eq!(&twin, &deal, "apply and apply_unchecked agree");
        if let Action::Play(card) = action {
            prop_assert!(!deal.hand(seat).contains(card));
        }
        actions.push(action);
    }
    check_node(&deal, &probes)?;
    check_finished_deal(&deal, &hands, &actions)
}

/// Mini Misère's trick table and Lot points, written from RULES.md 1.1 and 1.5.
fn mini_misere_table(base: Preset) -> Option<(&'static [i32], i32, i32)> {
    match base {
        Preset::MiniMisere4 | Preset::MiniMisere6 => Some((&[6, 1, 2, 3, 8, 10, 0], 12, 6)),
        // No Lot: its points are never used.
        Preset::MiniMisere3 => Some((&[7, 1, 2, 3, 8, 10, 12, 0], 0, 0)),
        Preset::MiniMisere4_1989 => Some((&[7, 1, 2, 3, 8, 10, 12, 0], 14, 7)),
        Preset::MiniMisere5 | Preset::MiniMisere5_1989 => Some((&[5, 1, 2, 6, 8, 0], 10, 5)),
        _ => None,
    }
}

/// Card points of a finished deal, counted from the reference's tricks (RULES.md 2.1, 2.2, 2.8
/// and 3), with the last-trick bonus.
fn reference_points(state: &RefState) -> Vec<u32> {
    let n = state.n;
    let mut points = vec![0; n];
    let middler_joker = state.rules.joker == Some(JokerRule::HighestTrump);
    match state.rules.card_points {
        CardPoints::Jass { .. } => {
            let trump = match state.trump {
                RefTrump::Suit(suit) => Some(suit),
                _ => None,
            };
            for (seat, cards) in state.captured.iter().enumerate() {
                for card in cards {
                    let is_trump = card.suit().is_some() && card.suit() == trump && !middler_joker;
                    points[seat] += match card.rank().map(|r| r.letter()) {
                        None => 1,
                        Some('A') => 11,
                        Some('K') => 4,
                        Some('Q') => 3,
                        Some('J') if is_trump => 20,
                        Some('J') => 2,
                        Some('T') => 10,
                        Some('9') if is_trump => 14,
                        Some('8') if state.trump == RefTrump::None && !middler_joker => 8,
                        _ => 0,
                    };
                }
            }
            if !middler_joker && let Some((_, _, winner)) = state.history.last() {
                points[*winner] += 5;
            }
        }
        CardPoints::Mura => {
            for (leader, cards, winner) in &state.history {
                let winning = cards[(winner + n - leader) % n];
                for card in cards {
                    points[*winner] += match card.rank().map(|r| r.letter()) {
                        Some('K' | 'Q' | 'J') => 1,
                        Some('A') if *card == winning => 2,
                        Some('A') => 1,
                        _ => 0,
                    };
                }
            }
        }
        _ => {}
    }
    points
}

/// Seats sorted by points, highest first.
fn by_points(points: &[u32]) -> Vec<usize> {
    let mut seats: Vec<usize> = (0..points.len()).collect();
    seats.sort_by_key(|s| std::cmp::Reverse(points[*s]));
    seats
}

/// A naive game scorer written from RULES.md: deal scores, held-over points, the end.
#[derive(Debug)]
struct Scorer {
    rules: Ruleset,
    totals: Vec<i32>,
    held: Vec<Vec<usize>>,
    deals: usize,
    finished: bool,
    winners: Vec<usize>,
}

impl Scorer {
    fn new(rules: Ruleset) -> Scorer {
        Scorer {
            rules,
            totals: vec![0; rules.players as usize],
            held: Vec::new(),
            deals: 0,
            finished: false,
            winners: Vec::new(),
        }
    }

    /// Scores a finished deal (replayed in the reference) and returns the deal's scores.
    fn score(&mut self, state: &RefState, points: &[u32], draw: Option<usize>) -> Vec<i32> {
        let n = state.n;
        let tricks = &state.tricks_won;
        let mut s = vec![0i32; n];
        let mut held_now: Vec<Vec<usize>> = Vec::new();
        let order = by_points(points);
        let p = |i: usize| points[order[i]];
        match self.rules.scoring {
            Scoring::TrickTable { .. } => {
                let (table, success, fail) =
                    mini_misere_table(self.rules.base).expect("a Mini Misère preset");
                let all = state.total_tricks();
                if state.declarers.is_empty() {
                    s = tricks.iter().map(|t| table[*t]).collect();
                } else if let Some(w) = state
                    .declarers
                    .iter()
                    .find(|d| tricks[**d] == all && state.tricks_played == all)
                {
                    s[*w] = success;
                } else {
                    for (seat, score) in s.iter_mut().enumerate() {
                        if !state.declarers.contains(&seat) {
                            *score = fail;
                        }
                    }
                }
            }
            Scoring::Mittlere {
                hundred_with_no_trick,
            } => {
                let all = state.total_tricks();
                let everyone_but = |s: &mut Vec<i32>, seat: usize, own: i32, others: i32| {
                    for (x, score) in s.iter_mut().enumerate() {
                        *score = if x == seat { own } else { others };
                    }
                };
                let no_trick = (0..n).find(|x| tricks[*x] == 0);
                let hundred = (0..n).find(|x| points[*x] >= 100);
                if let Some(seat) = (0..n).find(|x| tricks[*x] == all) {
                    everyone_but(&mut s, seat, 2, -1);
                } else if let (true, Some(h), Some(z)) = (hundred_with_no_trick, hundred, no_trick)
                {
                    s = vec![2; n];
                    s[h] = -1;
                    s[z] = -1;
                } else if let Some(seat) = no_trick {
                    everyone_but(&mut s, seat, -2, 1);
                } else if let Some(seat) = hundred {
                    everyone_but(&mut s, seat, -2, 1);
                } else if p(0) == p(1) {
                    everyone_but(&mut s, order[2], 2, -1);
                } else if p(1) == p(2) {
                    everyone_but(&mut s, order[0], 2, -1);
                } else {
                    everyone_but(&mut s, order[1], -2, 1);
                }
            }
            Scoring::Molotow { middle_wins } => {
                let total: u32 = points.iter().sum();
                let tied3 =
                    (0..n).find(|x| points.iter().filter(|q| **q == points[*x]).count() == 3);
                let ends = if middle_wins { -1 } else { 1 };
                if p(0) == total {
                    s = vec![-1; n];
                    s[order[0]] = 3;
                } else if p(0) >= 100 {
                    s = vec![1; n];
                    s[order[0]] = -3;
                } else if let Some(x) = tied3 {
                    let fourth = (0..n).find(|y| points[*y] != points[x]).expect("a fourth");
                    s[fourth] = 1;
                    s[draw.expect("a draw for three equal")] = -1;
                } else if p(2) == p(3) {
                    s[order[0]] = 1;
                    s[order[1]] = -1;
                } else if p(0) == p(1) {
                    s[order[2]] = -1;
                    s[order[3]] = 1;
                } else {
                    s[order[0]] = ends;
                    s[order[3]] = ends;
                    s[order[1]] = -ends;
                    s[order[2]] = -ends;
                }
            }
            Scoring::PlusMinus => {
                let odd = (0..n).find(|x| {
                    let others: Vec<u32> = (0..n).filter(|y| y != x).map(|y| points[y]).collect();
                    others.iter().all(|q| *q == others[0]) && others[0] != points[*x]
                });
                if let Some(seat) = odd {
                    s[seat] = 2;
                } else {
                    let top: Vec<usize> = (0..n).filter(|x| points[*x] == p(0)).collect();
                    let bottom: Vec<usize> = (0..n).filter(|x| points[*x] == p(n - 1)).collect();
                    if p(0) < 100 {
                        match top.len() {
                            1 => s[top[0]] = 1,
                            _ => held_now.push(top),
                        }
                    }
                    match bottom.len() {
                        1 => s[bottom[0]] = 1,
                        _ => held_now.push(bottom),
                    }
                }
            }
            Scoring::OwnPoints => {
                let own = |seat: usize| points[seat] as i32;
                if p(0) == p(1) {
                    s[order[2]] = own(order[2]);
                } else if p(1) == p(2) {
                    s[order[0]] = own(order[0]);
                } else {
                    s[order[0]] = own(order[0]);
                    s[order[2]] = own(order[2]);
                }
            }
            Scoring::Mura {
                threshold,
                bonus_at,
            } => {
                for seat in 0..n {
                    s[seat] = match bonus_at {
                        Some(b) if points[seat] >= u32::from(b) => {
                            if self.totals[seat] > 0 {
                                -1
                            } else {
                                0
                            }
                        }
                        _ if points[seat] >= u32::from(threshold) => 0,
                        _ => tricks[seat] as i32 + 1,
                    };
                }
            }
            other => panic!("no reference scoring for {other:?}"),
        }
        // RULES.md 2.6: held points go to the first later deal in which exactly one of the
        // pair scores.
        let scorers: Vec<usize> = (0..n).filter(|x| s[*x] > 0).collect();
        self.held.retain(|pair| {
            let scoring: Vec<usize> = pair
                .iter()
                .copied()
                .filter(|x| scorers.contains(x))
                .collect();
            if scoring.len() == 1 {
                s[scoring[0]] += 1;
                false
            } else {
                true
            }
        });
        self.held.extend(held_now);
        for (total, score) in self.totals.iter_mut().zip(&s) {
            *total += score;
        }
        self.deals += 1;
        self.check_end();
        s
    }

    /// The end of the game (RULES.md 1.6, 2.4, 2.5, 2.6, 2.8, 3).
    fn check_end(&mut self) {
        let penalty = matches!(self.rules.scoring, Scoring::Mura { .. });
        let best = if penalty {
            *self.totals.iter().min().expect("seats")
        } else {
            *self.totals.iter().max().expect("seats")
        };
        let best_seats: Vec<usize> = (0..self.totals.len())
            .filter(|s| self.totals[*s] == best)
            .collect();
        let target = match self.rules.base {
            Preset::MiniMisere4
            | Preset::MiniMisere5
            | Preset::MiniMisere5_1989
            | Preset::MiniMisere6 => Some(25),
            Preset::MiniMisere4_1989 | Preset::MiniMisere3 => Some(31),
            Preset::PlusMinusJass3 | Preset::PlusMinusJass4 => Some(7),
            Preset::Mura4 | Preset::Mura3 => Some(10),
            _ => None,
        };
        let over = match target {
            None => self.deals == 12,
            Some(t) if penalty => self.totals.iter().any(|x| *x >= t),
            Some(t) => self.totals.iter().any(|x| *x >= t) && best_seats.len() == 1,
        };
        if over {
            self.finished = true;
            self.winners = best_seats;
        }
    }
}

/// Plays a whole game with random actions; returns it and its record.
fn play_game(rules: Ruleset, rng: &mut ChaCha8Rng) -> Result<(Game, Record), TestCaseError> {
    const MAX_DEALS: usize = 40;
    let n = rules.players as usize;
    let first_dealer = (rng.next_u32() % u32::from(rules.players)) as usize;
    let mut game = Game::new(rules, first_dealer)
        .map_err(|e| TestCaseError::fail(format!("new game: {e}")))?;
    let mut deals = Vec::new();
    let mut scorer = Scorer::new(rules);
    while !game.is_finished() && deals.len() < MAX_DEALS {
        let deal = game
            .start_random_deal(rng)
            .map_err(|e| TestCaseError::fail(format!("start: {e}")))?;
        let dealer = deal.dealer();
        prop_assert_eq!(
            dealer,
            (first_dealer + deals.len()) % n,
            "the dealer rotates"
        );
        prop_assert_eq!(
            deal.to_act(),
            (dealer + 1) % n,
            "the seat after the dealer leads"
        );
        let hands: Vec<CardSet> = (0..n).map(|s| deal.hand(s)).collect();
        let mut actions = Vec::new();
        while let Some(deal) = game.deal().filter(|d| !d.is_over()) {
            let action = random_action(deal, rng);
            game.apply(action)
                .map_err(|e| TestCaseError::fail(format!("legal {action} refused: {e}")))?;
            actions.push(action);
        }
        let deal = game
            .deal()
            .expect("the deal is over, not yet scored")
            .clone();
        check_finished_deal(&deal, &hands, &actions)?;
        let draw = game.draw_needed().map(|tied| {
            let seats: Vec<usize> = (0..n).filter(|s| tied & (1 << s) != 0).collect();
            seats[(rng.next_u32() as usize) % seats.len()]
        });
        if let Some(tied) = game.draw_needed()
            && let Some(other) = (0..n).find(|s| tied & (1 << s) == 0)
        {
            prop_assert!(
                game.clone().finish_deal(Some(other)).is_err(),
                "a draw by a seat that is not tied"
            );
        }
        if game.draw_needed().is_some() {
            prop_assert!(
                game.clone().finish_deal(None).is_err(),
                "a needed draw is missing"
            );
        }
        let result = game
            .finish_deal(draw)
            .map_err(|e| TestCaseError::fail(format!("finish: {e}")))?
            .clone();
        let mut state = RefState::new(
            rules,
            dealer,
            &hands.iter().map(|h| h.iter().collect()).collect::<Vec<_>>(),
        );
        for action in &actions {
            state.apply(*action);
        }
        let points = reference_points(&state);
        prop_assert_eq!(
            &result.facts.points[..n],
            points.as_slice(),
            "card points, deal {}",
            deals.len()
        );
        let expected = scorer.score(&state, &points, draw);
        prop_assert_eq!(
            &result.score.scores[..n],
            expected.as_slice(),
            "scores, deal {}",
            deals.len()
        );
        prop_assert_eq!(
            game.is_finished(),
            scorer.finished,
            "end of the game after deal {}",
            deals.len()
        );
        prop_assert_eq!(game.winners(), scorer.winners.as_slice(), "winners");
        if matches!(
            rules.scoring,
            Scoring::Mittlere { .. } | Scoring::Molotow { .. }
        ) {
            prop_assert_eq!(result.score.scores[..n].iter().sum::<i32>(), 0, "zero-sum");
        }
        deals.push(RecordDeal {
            dealer,
            hands,
            actions,
            draw,
        });
    }
    let record = Record {
        ruleset: rules,
        players: None,
        deals,
    };
    Ok((game, record))
}

/// The record of a game replays, through its JSON text, to the same scores and result.
fn check_replay(game: &Game, record: &Record) -> Result<(), TestCaseError> {
    let n = game.rules().players as usize;
    let text = record.to_json().to_string();
    let replay = Record::replay_json(&text)
        .map_err(|e| TestCaseError::fail(format!("replay: {e}\n{text}")))?;
    let report = &replay.report;
    prop_assert_eq!(report.finished, game.is_finished());
    prop_assert_eq!(report.winners.as_slice(), game.winners());
    prop_assert_eq!(replay.game.totals(), game.totals());
    prop_assert_eq!(replay.game.is_finished(), game.is_finished());
    prop_assert_eq!(replay.game.winners(), game.winners());
    prop_assert_eq!(report.deals.len(), game.results().len());
    for (i, (deal, result)) in report.deals.iter().zip(game.results()).enumerate() {
        prop_assert!(deal.complete, "deal {} complete", i);
        prop_assert_eq!(deal.scores.as_deref(), Some(&result.score.scores[..n]));
        prop_assert_eq!(deal.totals.as_deref(), Some(&result.totals[..n]));
        let tricks: Vec<u8> = result.facts.tricks[..n].to_vec();
        prop_assert_eq!(&deal.tricks_won, &tricks);
        prop_assert_eq!(deal.card_points.as_slice(), &result.facts.points[..n]);
    }
    // The record value itself replays the same way.
    let direct = record
        .replay()
        .map_err(|e| TestCaseError::fail(format!("replay: {e}")))?;
    prop_assert_eq!(direct.report, replay.report);
    Ok(())
}

/// A record cut in the middle of a deal replays as a game in progress.
fn check_cut_replay(record: &Record, rng: &mut ChaCha8Rng) -> Result<(), TestCaseError> {
    let Some(last) = record.deals.len().checked_sub(1) else {
        return Ok(());
    };
    let keep = (rng.next_u32() as usize) % (last + 1);
    let mut cut = record.clone();
    cut.deals.truncate(keep + 1);
    let deal = &mut cut.deals[keep];
    let actions = (rng.next_u32() as usize) % deal.actions.len();
    deal.actions.truncate(actions);
    deal.draw = None;
    let replay = Record::replay_json(&cut.to_json().to_string())
        .map_err(|e| TestCaseError::fail(format!("cut replay: {e}")))?;
    prop_assert!(!replay.report.finished);
    prop_assert!(replay.report.winners.is_empty());
    let last_report = replay.report.deals.last().expect("a deal");
    prop_assert!(!last_report.complete);
    prop_assert_eq!(&last_report.scores, &None);
    let deal = replay.game.deal().expect("a deal in progress");
    prop_assert!(!deal.is_over());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 6,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// One random deal of every ruleset, with every node checked.
    #[test]
    fn random_deals_keep_their_invariants(seed in any::<u64>()) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for rules in variants() {
            play_checked_deal(rules, &mut rng)
                .map_err(|e| TestCaseError::fail(format!("{}: {e}", rules.to_json())))?;
        }
    }

    /// One random game of every ruleset: scores, and the round trip through a record.
    #[test]
    fn random_games_replay_from_their_records(seed in any::<u64>()) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for rules in variants() {
            let (game, record) = play_game(rules, &mut rng)
                .map_err(|e| TestCaseError::fail(format!("{}: {e}", rules.to_json())))?;
            check_replay(&game, &record)
                .and_then(|()| check_cut_replay(&record, &mut rng))
                .map_err(|e| TestCaseError::fail(format!("{}: {e}", rules.to_json())))?;
        }
    }
}

/// The sweep covers every preset and the house rules the rules text names.
#[test]
fn variants_cover_every_preset() {
    let all = variants();
    for preset in Preset::ALL {
        assert!(all.contains(&preset.ruleset()), "{preset}");
    }
    assert!(
        all.iter()
            .any(|r| r.joker == Some(JokerRule::LeadWinsNamesSuit))
    );
    assert!(all.iter().any(|r| !r.is_preset()));
}
