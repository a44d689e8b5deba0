//! Rule-variant statistics: whole games played by bots, and the figures a club asks about —
//! how often the Lot is declared and succeeds, how tricks and scores spread over the seats
//! (counted from the first leader), how long games last, which scoring rules fire, how often
//! Mura's exemption is reached, and whether a seat exempt early still has something to play for.

use std::collections::BTreeMap;

use rayon::prelude::*;
use torite_core::table::first_dealer;
use torite_core::{Ruleset, Scoring, SeatSet, Step, Table};

use crate::arena::{bot_seed, game_seed, mean_ci95};
use crate::standing::Standing;
use crate::{Bot, BotError, BotSpec, RandomBot, apply_at, engine_error};

/// A statistics run's settings.
#[derive(Clone, Debug)]
pub struct StatsConfig {
    /// The rules.
    pub rules: Ruleset,
    /// The bots, filling the seats in turn.
    pub bots: Vec<BotSpec>,
    /// Whole games to play.
    pub games: usize,
    /// Master seed.
    pub seed: u64,
}

/// The figures of a statistics run. Positions count from the first leader of a deal (0 is the
/// seat after the dealer, the last position is the dealer).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    /// Games played.
    pub games: usize,
    /// Deals played.
    pub deals: usize,
    /// Deals in each game.
    pub deals_per_game: Vec<usize>,
    /// Deals in which the Lot was declared.
    pub lot_deals: usize,
    /// Deals in which a declarer won every trick.
    pub lot_successes: usize,
    /// Lot declarations per position.
    pub lot_by_position: Vec<usize>,
    /// Per position, declarations whose declarer won every trick.
    pub lot_success_by_position: Vec<usize>,
    /// Per position, declarations whose declarer lost the first trick (the Lot failed in it).
    pub lot_first_trick_fail_by_position: Vec<usize>,
    /// Per position, how many deals ended with each number of tricks.
    pub tricks_by_position: Vec<Vec<usize>>,
    /// Per position, every deal score (penalties as given).
    pub scores_by_position: Vec<Vec<f64>>,
    /// How often each scoring rule settled a deal.
    pub rules_fired: BTreeMap<String, usize>,
    /// Mura: seat-deals exempt from the penalty.
    pub exempt: usize,
    /// Mura: seat-deals whose captured points reached the exemption threshold with tricks
    /// still to play, by the number of tricks completed when they did (index 1 to tricks − 1).
    pub exempt_early_by_trick: Vec<usize>,
    /// Mura, of the seat-deals exempt early: how many were played again from that moment with
    /// the exempt seat playing random legal cards (the other seats as before) to see whether
    /// its later decisions could still change its own deal score.
    pub exempt_replays: usize,
    /// Of those replays, how many gave the exempt seat another deal score.
    pub exempt_replays_changed: usize,
    /// Seat-deals played.
    pub seat_deals: usize,
    /// Consecutive deal pairs of a game in which one seat alone had the worst deal score
    /// both times (for "do roles freeze?").
    pub role_pairs: usize,
    /// Of those pairs, how many had the same seat worst both times.
    pub role_repeats: usize,
}

impl Stats {
    fn new(players: usize, tricks: usize) -> Stats {
        Stats {
            lot_by_position: vec![0; players],
            lot_success_by_position: vec![0; players],
            lot_first_trick_fail_by_position: vec![0; players],
            tricks_by_position: vec![vec![0; tricks + 1]; players],
            scores_by_position: vec![Vec::new(); players],
            exempt_early_by_trick: vec![0; tricks],
            ..Stats::default()
        }
    }

    fn merge(mut self, other: Stats) -> Stats {
        self.games += other.games;
        self.deals += other.deals;
        self.deals_per_game.extend(other.deals_per_game);
        self.lot_deals += other.lot_deals;
        self.lot_successes += other.lot_successes;
        for (mine, theirs) in [
            (&mut self.lot_by_position, other.lot_by_position),
            (
                &mut self.lot_success_by_position,
                other.lot_success_by_position,
            ),
            (
                &mut self.lot_first_trick_fail_by_position,
                other.lot_first_trick_fail_by_position,
            ),
        ] {
            for (a, b) in mine.iter_mut().zip(theirs) {
                *a += b;
            }
        }
        for (a, b) in self
            .tricks_by_position
            .iter_mut()
            .zip(other.tricks_by_position)
        {
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
        for (a, b) in self
            .scores_by_position
            .iter_mut()
            .zip(other.scores_by_position)
        {
            a.extend(b);
        }
        for (rule, count) in other.rules_fired {
            *self.rules_fired.entry(rule).or_default() += count;
        }
        self.exempt += other.exempt;
        for (a, b) in self
            .exempt_early_by_trick
            .iter_mut()
            .zip(other.exempt_early_by_trick)
        {
            *a += b;
        }
        self.exempt_replays += other.exempt_replays;
        self.exempt_replays_changed += other.exempt_replays_changed;
        self.seat_deals += other.seat_deals;
        self.role_pairs += other.role_pairs;
        self.role_repeats += other.role_repeats;
        self
    }

    /// How often the seat with the worst deal score is the same as in the previous deal, with
    /// its 95% confidence half-width; compare with 1/players, the rate without fixed roles.
    #[must_use]
    pub fn role_persistence(&self) -> (f64, f64) {
        proportion(self.role_repeats, self.role_pairs)
    }

    /// Share of deals with a Lot declared, and of those the share that succeeded, each with
    /// its 95% confidence half-width.
    #[must_use]
    pub fn lot_rates(&self) -> ((f64, f64), (f64, f64)) {
        (
            proportion(self.lot_deals, self.deals),
            proportion(self.lot_successes, self.lot_deals),
        )
    }

    /// Per declarer position, the share of its Lots that succeeded, with its 95% confidence
    /// half-width (0 ± 0 where that position never declared).
    #[must_use]
    pub fn lot_success_rate_by_position(&self) -> Vec<(f64, f64)> {
        self.lot_success_by_position
            .iter()
            .zip(&self.lot_by_position)
            .map(|(hits, n)| proportion(*hits, *n))
            .collect()
    }

    /// Per declarer position, the share of its Lots that failed in the first trick (the
    /// declarer did not win it), with its 95% confidence half-width.
    #[must_use]
    pub fn lot_first_trick_fail_rate_by_position(&self) -> Vec<(f64, f64)> {
        self.lot_first_trick_fail_by_position
            .iter()
            .zip(&self.lot_by_position)
            .map(|(hits, n)| proportion(*hits, *n))
            .collect()
    }

    /// Of every declaration, the share that failed in the first trick, with its 95%
    /// confidence half-width.
    #[must_use]
    pub fn lot_first_trick_fail_rate(&self) -> (f64, f64) {
        proportion(
            self.lot_first_trick_fail_by_position.iter().sum(),
            self.lot_by_position.iter().sum(),
        )
    }

    /// Mura: the share of seat-deals exempt with tricks still to play, with its 95% confidence
    /// half-width.
    #[must_use]
    pub fn exempt_early_rate(&self) -> (f64, f64) {
        proportion(self.exempt_early_by_trick.iter().sum(), self.seat_deals)
    }

    /// Mura: of the seats exempt early, the share whose deal score changed when they played
    /// random cards from then on, with its 95% confidence half-width: 0 where nothing is left
    /// to play for.
    #[must_use]
    pub fn exempt_replay_change_rate(&self) -> (f64, f64) {
        proportion(self.exempt_replays_changed, self.exempt_replays)
    }

    /// Mean score per position with its 95% confidence half-width.
    #[must_use]
    pub fn score_by_position(&self) -> Vec<(f64, f64)> {
        self.scores_by_position
            .iter()
            .map(|s| mean_ci95(s))
            .collect()
    }

    /// Mean deals per game with its 95% confidence half-width.
    #[must_use]
    pub fn deals_per_game(&self) -> (f64, f64) {
        let samples: Vec<f64> = self.deals_per_game.iter().map(|d| *d as f64).collect();
        mean_ci95(&samples)
    }
}

/// A proportion and its 95% confidence half-width (Wilson score interval, symmetric part).
#[must_use]
pub fn proportion(hits: usize, trials: usize) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 0.0);
    }
    let n = trials as f64;
    let p = hits as f64 / n;
    let z = 1.959_964_f64;
    let denom = 1.0 + z * z / n;
    // The observed share, with the half-width of the Wilson interval (which stays sensible
    // for shares near 0 or 1, as Lot success rates are).
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    (p, half)
}

/// Plays the games (in parallel on rayon's pool) and gathers the figures; `progress` is called
/// once per finished game. Results do not depend on the number of threads.
///
/// Game `g` is the game of table seed [`game_seed`]`(seed, g)` (the arena's game unit `g`),
/// played through a [`Table`]; its first dealer is [`first_dealer`] (the last seat) moved on
/// by `g` seats, `(players − 1 + g) mod players`, so the first deal goes round the seats from
/// game to game.
///
/// # Errors
///
/// An unknown bot, or a bot that chose an illegal action.
pub fn run(config: &StatsConfig, progress: &(dyn Fn() + Sync)) -> Result<Stats, BotError> {
    let specs = &config.bots;
    let n = config.rules.players as usize;
    let tricks = config.rules.tricks();
    let parts: Vec<Stats> = (0..config.games)
        .into_par_iter()
        .map(|g| {
            let r = play_game(config, specs, g as u64);
            progress();
            r
        })
        .collect::<Result<_, _>>()?;
    Ok(parts.into_iter().fold(Stats::new(n, tricks), Stats::merge))
}

fn play_game(config: &StatsConfig, specs: &[BotSpec], index: u64) -> Result<Stats, BotError> {
    let rules = config.rules;
    let n = rules.players as usize;
    let mut stats = Stats::new(n, rules.tricks());
    let mut bots: Vec<Box<dyn Bot>> = (0..n)
        .map(|s| specs[s % specs.len()].build(bot_seed(config.seed, index, s as u64, 0x57A7)))
        .collect();
    // The first deal goes round the seats from game to game, so that every seat deals first
    // equally often (exactly, when the games are a multiple of the seats).
    let first = (first_dealer(&rules) + (index % n as u64) as usize) % n;
    let mut table =
        Table::new(rules, first, game_seed(config.seed, index)).map_err(engine_error)?;
    let mut last_worst: Option<usize> = None;
    // The winner of the deal's first trick, once it is complete.
    let mut first_winner: Option<usize> = None;
    // Mura: the seats already exempt in the deal in progress, and for each seat exempt early
    // its deal score when it played random cards from then on.
    let mut exempt_now = SeatSet::EMPTY;
    let mut replayed: Vec<(usize, i32)> = Vec::new();
    loop {
        let scored = match table.next_step() {
            Step::Act { seat } => {
                let view = table.view(seat).ok_or(BotError::Engine("no deal".into()))?;
                bots[seat].observe_standing(&Standing::of(table.game()));
                let action = bots[seat].act(&view);
                let applied = apply_at(&mut table, bots[seat].as_ref(), seat, action)?;
                if first_winner.is_none() {
                    first_winner = applied.trick.as_ref().and_then(|t| t.winner);
                }
                if applied.trick.is_some() && applied.scored.is_none() {
                    exempt_early(
                        config,
                        specs,
                        index,
                        &table,
                        &mut exempt_now,
                        &mut replayed,
                        &mut stats,
                    )?;
                }
                applied.scored
            }
            Step::Draw { .. } => {
                table.draw().map_err(engine_error)?;
                table.game().results().len().checked_sub(1)
            }
            Step::GameOver => break,
        };
        let Some(scored) = scored else { continue };
        let (Some(deal), Some(result)) = (table.last_deal(), table.game().results().get(scored))
        else {
            return Err(BotError::Engine("no deal".into()));
        };
        stats.deals += 1;
        stats.seat_deals += n;
        let position = |seat: usize| (seat + n - deal.dealer() - 1) % n;
        let declarers = deal.lot().declaring();
        if !declarers.is_empty() {
            stats.lot_deals += 1;
            if result.facts.lot.is_some_and(|l| l.winner.is_some()) {
                stats.lot_successes += 1;
            }
            let winner = result.facts.lot.and_then(|l| l.winner);
            for seat in declarers {
                let p = position(seat);
                stats.lot_by_position[p] += 1;
                if winner == Some(seat) {
                    stats.lot_success_by_position[p] += 1;
                }
                if first_winner != Some(seat) {
                    stats.lot_first_trick_fail_by_position[p] += 1;
                }
            }
        }
        for seat in 0..n {
            let p = position(seat);
            let t = usize::from(result.facts.tricks[seat]);
            if let Some(slot) = stats.tricks_by_position[p].get_mut(t) {
                *slot += 1;
            }
            stats.scores_by_position[p].push(f64::from(result.score.scores[seat]));
            if let Scoring::Mura { threshold, .. } = rules.scoring
                && result.facts.points[seat] >= u32::from(threshold)
            {
                stats.exempt += 1;
            }
        }
        // The seat that did worst this deal (alone), to see whether roles persist.
        let sign = if rules.scoring.is_penalty() { -1 } else { 1 };
        let worst = (0..n).min_by_key(|s| sign * result.score.scores[*s]);
        let worst = worst.filter(|w| {
            (0..n)
                .filter(|s| result.score.scores[*s] == result.score.scores[*w])
                .count()
                == 1
        });
        if let (Some(previous), Some(now)) = (last_worst, worst) {
            stats.role_pairs += 1;
            if previous == now {
                stats.role_repeats += 1;
            }
        }
        last_worst = worst;
        first_winner = None;
        for (seat, score) in replayed.drain(..) {
            stats.exempt_replays += 1;
            if score != result.score.scores[seat] {
                stats.exempt_replays_changed += 1;
            }
        }
        exempt_now = SeatSet::EMPTY;
        *stats
            .rules_fired
            .entry(torite_core::record::rule_name(result.score.rule).to_owned())
            .or_default() += 1;
    }
    stats.games = 1;
    stats.deals_per_game.push(table.game().results().len());
    Ok(stats)
}

/// Mura, after a trick of a deal still in progress: counts each seat whose captured points
/// have just reached the exemption threshold, and plays the rest of the deal again on a copy of
/// the table with that seat playing random legal cards and the other seats fresh bots of the
/// same specs, keeping the seat's deal score in that replay.
fn exempt_early(
    config: &StatsConfig,
    specs: &[BotSpec],
    index: u64,
    table: &Table,
    exempt_now: &mut SeatSet,
    replayed: &mut Vec<(usize, i32)>,
    stats: &mut Stats,
) -> Result<(), BotError> {
    let Scoring::Mura { threshold, .. } = config.rules.scoring else {
        return Ok(());
    };
    let Some(deal) = table.deal() else {
        return Ok(());
    };
    let n = config.rules.players as usize;
    let done = deal.tricks_completed();
    for seat in 0..n {
        if exempt_now.contains(seat) || deal.card_points(seat) < u32::from(threshold) {
            continue;
        }
        exempt_now.insert(seat);
        if let Some(slot) = stats.exempt_early_by_trick.get_mut(done) {
            *slot += 1;
        }
        let deal_number = table.game().results().len() as u64;
        let salt = 0xE8E3_0000 + (deal_number << 8) + seat as u64;
        let mut bots: Vec<Box<dyn Bot>> = (0..n)
            .map(|s| {
                let seed = bot_seed(config.seed, index, s as u64, salt);
                if s == seat {
                    Box::new(RandomBot::new(seed)) as Box<dyn Bot>
                } else {
                    specs[s % specs.len()].build(seed)
                }
            })
            .collect();
        let mut copy = table.clone();
        let score = loop {
            let Step::Act { seat: to_act } = copy.next_step() else {
                return Err(BotError::Engine("a Mura deal ended without a score".into()));
            };
            let view = copy
                .view(to_act)
                .ok_or(BotError::Engine("no deal".into()))?;
            bots[to_act].observe_standing(&Standing::of(copy.game()));
            let action = bots[to_act].act(&view);
            let applied = apply_at(&mut copy, bots[to_act].as_ref(), to_act, action)?;
            if let Some(scored) = applied.scored {
                break copy.game().results()[scored].score.scores[seat];
            }
        };
        replayed.push((seat, score));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use torite_core::Preset;

    #[test]
    fn proportion_of_a_known_case() {
        let (p, half) = proportion(50, 100);
        assert!((p - 0.5).abs() < 1e-12);
        // Wilson half-width for p = 0.5, n = 100 is about 0.0962.
        assert!((half - 0.0962).abs() < 0.001, "{half}");
        assert_eq!(proportion(0, 0), (0.0, 0.0));
    }

    /// Game `g` of a run is the game of table seed `game_seed(seed, g)`, first dealt by seat
    /// `(players − 1 + g) mod players`: the same game played at such a table by the same bots
    /// gives the same deals and scores.
    #[test]
    fn each_game_is_the_game_of_its_table_seed() {
        let rules = Preset::Mura3.ruleset();
        let n = 3;
        let config = StatsConfig {
            rules,
            bots: vec!["heuristic".parse().unwrap(), "random".parse().unwrap()],
            games: 4,
            seed: 21,
        };
        let stats = run(&config, &|| {}).unwrap();
        let specs = config.bots.clone();
        let mut scores = vec![Vec::new(); n];
        let mut deals_per_game = Vec::new();
        for g in 0..4u64 {
            let mut bots: Vec<Box<dyn Bot>> = (0..n)
                .map(|s| specs[s % 2].build(bot_seed(21, g, s as u64, 0x57A7)))
                .collect();
            let first = (2 + g as usize) % n;
            let mut table = Table::new(rules, first, game_seed(21, g)).unwrap();
            while let Step::Act { seat } = table.next_step() {
                let action = bots[seat].act(&table.view(seat).unwrap());
                table.apply(action).unwrap();
            }
            let record = table.record();
            assert_eq!(record.deals[0].dealer, first);
            assert_eq!(
                record.deals[0].hands,
                torite_core::Seeds::hands(game_seed(21, g), &rules, 0)[..n]
            );
            for (deal, result) in record.deals.iter().zip(table.game().results()) {
                for seat in 0..n {
                    let position = (seat + n - deal.dealer - 1) % n;
                    scores[position].push(f64::from(result.score.scores[seat]));
                }
            }
            deals_per_game.push(record.deals.len());
        }
        assert_eq!(stats.deals_per_game, deals_per_game);
        assert_eq!(stats.scores_by_position, scores);
    }

    /// The Lot by declarer position: a success is counted for the one declarer who won every
    /// trick, a first-trick failure for every declarer who did not win the first trick, never
    /// both for one declaration; random players declare often and lose the first trick often.
    #[test]
    fn lot_outcomes_by_position_add_up() {
        for rules in [
            Preset::MiniMisere4.ruleset(),
            Preset::MiniMisere4_1989.ruleset(),
        ] {
            let config = StatsConfig {
                rules,
                bots: vec!["random".parse().unwrap()],
                games: 30,
                seed: 3,
            };
            let s = run(&config, &|| {}).unwrap();
            assert_eq!(
                s.lot_success_by_position.iter().sum::<usize>(),
                s.lot_successes
            );
            for p in 0..4 {
                assert!(
                    s.lot_success_by_position[p] + s.lot_first_trick_fail_by_position[p]
                        <= s.lot_by_position[p]
                );
            }
            assert!(s.lot_first_trick_fail_by_position.iter().sum::<usize>() > 0);
            let (rate, _) = s.lot_first_trick_fail_rate();
            assert!(rate > 0.0 && rate < 1.0, "{rate}");
        }
    }

    /// A failed first trick is the declarer's loss of it: under the 1989 timing, where the
    /// deal ends as soon as the one declarer loses a trick, a Lot that failed in the first
    /// trick is a deal of one trick.
    #[test]
    fn a_first_trick_failure_ends_a_1989_deal_after_one_trick() {
        let rules = Preset::MiniMisere4_1989.ruleset();
        let specs: Vec<BotSpec> = vec!["random".parse().unwrap()];
        let config = StatsConfig {
            rules,
            bots: vec!["random".parse().unwrap()],
            games: 10,
            seed: 5,
        };
        let s = run(&config, &|| {}).unwrap();
        let mut one_trick_lots = 0;
        for g in 0..10u64 {
            let mut bots: Vec<Box<dyn Bot>> = (0..4)
                .map(|seat| specs[0].build(bot_seed(5, g, seat as u64, 0x57A7)))
                .collect();
            let first = (3 + g as usize) % 4;
            let mut table = Table::new(rules, first, game_seed(5, g)).unwrap();
            while let Step::Act { seat } = table.next_step() {
                let action = bots[seat].act(&table.view(seat).unwrap());
                let applied = table.apply(action).unwrap();
                if applied.scored.is_some() {
                    let deal = table.last_deal().unwrap();
                    if !deal.lot().declaring().is_empty() && deal.tricks_completed() == 1 {
                        one_trick_lots += 1;
                    }
                }
            }
        }
        assert!(one_trick_lots > 0);
        assert_eq!(
            s.lot_first_trick_fail_by_position.iter().sum::<usize>(),
            one_trick_lots
        );
    }

    /// Mura's exemption, reached with tricks left: without the bonus the exempt seat's later
    /// cards can never change its own score (its points only grow); with `bonus_at` they can.
    #[test]
    fn an_early_exemption_leaves_something_to_play_for_only_with_the_bonus() {
        let plain = Preset::Mura4.ruleset();
        let mut bonus = plain;
        if let Scoring::Mura { bonus_at, .. } = &mut bonus.scoring {
            *bonus_at = Some(7);
        }
        let run_with = |rules| {
            let config = StatsConfig {
                rules,
                bots: vec!["heuristic".parse().unwrap()],
                games: 12,
                seed: 4,
            };
            run(&config, &|| {}).unwrap()
        };
        let s = run_with(plain);
        let early: usize = s.exempt_early_by_trick.iter().sum();
        assert!(early > 0 && early <= s.exempt);
        assert_eq!(
            s.exempt_early_by_trick[0], 0,
            "no seat is exempt before a trick"
        );
        assert_eq!(s.exempt_replays, early);
        assert_eq!(s.exempt_replays_changed, 0);
        let b = run_with(bonus);
        assert_eq!(
            b.exempt_replays,
            b.exempt_early_by_trick.iter().sum::<usize>()
        );
        assert!(b.exempt_replays_changed > 0, "{b:?}");
    }

    #[test]
    fn stats_count_every_deal_and_do_not_depend_on_threads() {
        let config = StatsConfig {
            rules: Preset::MiniMisere4.ruleset(),
            bots: vec!["heuristic".parse().unwrap()],
            games: 6,
            seed: 9,
        };
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let a = one.install(|| run(&config, &|| {})).unwrap();
        let b = run(&config, &|| {}).unwrap();
        assert_eq!(a.deals, b.deals);
        assert_eq!(a.deals_per_game.iter().sum::<usize>(), a.deals);
        assert_eq!(a.rules_fired.values().sum::<usize>(), a.deals);
        let tricks_rows: usize = a
            .tricks_by_position
            .iter()
            .map(|r| r.iter().sum::<usize>())
            .sum();
        assert_eq!(tricks_rows, a.deals * 4);
        assert_eq!(a.score_by_position(), b.score_by_position());
    }
}
