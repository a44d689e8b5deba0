//! Duplicate tournaments: every random deal (or whole game) is replayed with the bots rotated
//! through every seat, so the luck of the cards cancels out.
//!
//! Each unit (a deal or a game) is seeded on its own and its bots are created afresh from seeds
//! derived from (seed, unit, rotation, seat), so results do not depend on the number of threads
//! or the order units finish in.

use std::time::Instant;

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use rayon::prelude::*;
use torite_core::{Game, GameError, Record, RecordDeal, Ruleset, Seat, View};

use crate::reward::deal_rewards;
use crate::{Bot, BotError, BotSpec};

/// What a duplicate unit is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Unit {
    /// One deal, scored alone.
    Deal,
    /// A whole game, scored by its final totals.
    Game,
}

/// An arena run's settings.
#[derive(Clone, Debug)]
pub struct ArenaConfig {
    /// The rules.
    pub rules: Ruleset,
    /// Bot names; seats are filled with them in turn (A B A B … for two bots).
    pub bots: Vec<String>,
    /// How many units (deals or games) to play, each in every rotation.
    pub units: usize,
    /// Deals or whole games.
    pub unit: Unit,
    /// The master seed.
    pub seed: u64,
    /// Keep every played game as a record.
    pub keep_records: bool,
}

/// One bot's results.
#[derive(Clone, PartialEq, Debug)]
pub struct BotResult {
    /// The bot's name (with its lineup position when a name appears twice, e.g. `heuristic#2`).
    pub name: String,
    /// Mean score per deal or game (penalties negative).
    pub mean: f64,
    /// Half-width of the 95% confidence interval of `mean`, over units.
    pub ci95: f64,
    /// Mean score difference to the other bots of the same unit.
    pub diff: f64,
    /// Half-width of the 95% confidence interval of `diff`.
    pub diff_ci95: f64,
    /// Share of games won (ties split), when whole games are played.
    pub win_rate: Option<f64>,
    /// Mean decision time in milliseconds.
    pub decision_ms: f64,
    /// The bot's score in each unit, in unit order (`mean` is their mean). The deals depend
    /// only on the seed, not on the bots, so two runs with the same seed can be compared unit
    /// by unit (paired differences).
    pub unit_scores: Vec<f64>,
}

/// An arena run's results.
#[derive(Clone, Debug)]
pub struct ArenaResult {
    /// Per bot of the lineup, in lineup order (duplicates merged).
    pub bots: Vec<BotResult>,
    /// The records of every game played, when asked for.
    pub records: Vec<Record>,
}

/// Mean and half-width of the 95% confidence interval (normal approximation).
#[must_use]
pub fn mean_ci95(samples: &[f64]) -> (f64, f64) {
    let n = samples.len() as f64;
    if samples.is_empty() {
        return (0.0, 0.0);
    }
    let mean = samples.iter().sum::<f64>() / n;
    if samples.len() < 2 {
        return (mean, f64::INFINITY);
    }
    let var = samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, 1.959_964 * (var / n).sqrt())
}

fn mix(seed: u64, a: u64, b: u64, c: u64) -> u64 {
    // SplitMix64-style mixing of the indices into one seed.
    let mut z = seed
        ^ a.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ b.wrapping_mul(0xBF58_476D_1CE4_E5B9)
        ^ c.wrapping_mul(0x94D0_49BB_1331_11EB);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One unit's outcome per lineup slot: score, decisions, time, and win share.
struct UnitResult {
    score: Vec<f64>,
    decisions: Vec<u64>,
    nanos: Vec<u128>,
    wins: Vec<f64>,
    records: Vec<Record>,
}

/// Plays `config.units` units in every rotation, in parallel on rayon's pool; `progress` is
/// called once per finished unit.
///
/// # Errors
///
/// An unknown bot name, or a bot that chose an illegal action.
pub fn run(config: &ArenaConfig, progress: &(dyn Fn() + Sync)) -> Result<ArenaResult, BotError> {
    let specs: Vec<BotSpec> = config
        .bots
        .iter()
        .map(|b| b.parse())
        .collect::<Result<_, _>>()?;
    let n = config.rules.players as usize;
    let lineup: Vec<usize> = (0..n).map(|s| s % config.bots.len().max(1)).collect();
    let units: Vec<UnitResult> = (0..config.units)
        .into_par_iter()
        .map(|u| {
            let r = play_unit(config, &specs, &lineup, u as u64);
            progress();
            r
        })
        .collect::<Result<_, _>>()?;
    // Per lineup slot, then merged per distinct bot entry (slot % bots).
    let k = config.bots.len().max(1);
    let mut bots = Vec::new();
    for b in 0..k.min(n) {
        let slots: Vec<usize> = (0..n).filter(|s| lineup[*s] == b).collect();
        let per_unit = |f: &dyn Fn(&UnitResult, usize) -> f64| -> Vec<f64> {
            units
                .iter()
                .map(|u| slots.iter().map(|s| f(u, *s)).sum::<f64>() / slots.len() as f64)
                .collect()
        };
        let scores = per_unit(&|u, s| u.score[s]);
        let diffs = per_unit(&|u, s| {
            let others: Vec<f64> = (0..n)
                .filter(|o| lineup[*o] != b)
                .map(|o| u.score[o])
                .collect();
            if others.is_empty() {
                0.0
            } else {
                u.score[s] - others.iter().sum::<f64>() / others.len() as f64
            }
        });
        let (mean, ci95) = mean_ci95(&scores);
        let (diff, diff_ci95) = mean_ci95(&diffs);
        let decisions: u64 = units
            .iter()
            .flat_map(|u| slots.iter().map(|s| u.decisions[*s]))
            .sum();
        let nanos: u128 = units
            .iter()
            .flat_map(|u| slots.iter().map(|s| u.nanos[*s]))
            .sum();
        let win_rate =
            (config.unit == Unit::Game).then(|| mean_ci95(&per_unit(&|u, s| u.wins[s])).0);
        let name = &config.bots[b];
        let name = if config.bots.iter().filter(|x| *x == name).count() > 1 {
            format!("{name}#{}", b + 1)
        } else {
            name.clone()
        };
        bots.push(BotResult {
            name,
            mean,
            ci95,
            diff,
            diff_ci95,
            win_rate,
            decision_ms: if decisions == 0 {
                0.0
            } else {
                nanos as f64 / decisions as f64 / 1e6
            },
            unit_scores: scores,
        });
    }
    let records = units.into_iter().flat_map(|u| u.records).collect();
    Ok(ArenaResult { bots, records })
}

fn play_unit(
    config: &ArenaConfig,
    specs: &[BotSpec],
    lineup: &[usize],
    unit: u64,
) -> Result<UnitResult, BotError> {
    let rules = config.rules;
    let n = rules.players as usize;
    let mut out = UnitResult {
        score: vec![0.0; n],
        decisions: vec![0; n],
        nanos: vec![0; n],
        wins: vec![0.0; n],
        records: Vec::new(),
    };
    for rotation in 0..n {
        // Seat s is played by lineup slot (s + rotation) % n.
        let slot_of = |seat: Seat| (seat + rotation) % n;
        let mut bots: Vec<Box<dyn Bot>> = (0..n)
            .map(|seat| {
                specs[lineup[slot_of(seat)]].build(mix(
                    config.seed,
                    unit,
                    rotation as u64,
                    seat as u64,
                ))
            })
            .collect();
        let mut deal_rng = ChaCha8Rng::seed_from_u64(mix(config.seed, unit, u64::MAX, 0));
        let engine = |e: GameError| BotError::Engine(e.to_string());
        let mut game = Game::new(rules, 0).map_err(engine)?;
        let mut record_deals = Vec::new();
        loop {
            let deal = game.start_random_deal(&mut deal_rng).map_err(engine)?;
            let hands = (0..n).map(|s| deal.hand(s)).collect();
            let mut actions = Vec::new();
            while let Some(deal) = game.deal().filter(|d| !d.is_over()) {
                let seat = deal.to_act();
                bots[seat].observe_true_deal(deal); // only `omniscient` uses it: the reference
                let start = Instant::now();
                let action = bots[seat].act(&View::new(deal, seat));
                let slot = slot_of(seat);
                out.nanos[slot] += start.elapsed().as_nanos();
                out.decisions[slot] += 1;
                game.apply(action).map_err(|e| match e {
                    GameError::Play(why) => BotError::Illegal {
                        bot: bots[seat].name().to_owned(),
                        seat,
                        action,
                        why,
                    },
                    other => engine(other),
                })?;
                actions.push(action);
            }
            let deal = game.deal().ok_or(BotError::Engine("no deal".into()))?;
            let dealer = deal.dealer();
            if config.unit == Unit::Deal {
                let rewards = deal_rewards(deal);
                for (seat, reward) in rewards.iter().enumerate().take(n) {
                    out.score[slot_of(seat)] += reward / n as f64;
                }
            }
            let draw = game.draw_needed().map(|tied| {
                let seats: Vec<usize> = (0..n).filter(|s| tied & (1 << s) != 0).collect();
                seats[(mix(config.seed, unit, record_deals.len() as u64, 7) % seats.len() as u64)
                    as usize]
            });
            game.finish_deal(draw).map_err(engine)?;
            record_deals.push(RecordDeal {
                dealer,
                hands,
                actions,
                draw,
            });
            if config.unit == Unit::Deal || game.is_finished() {
                break;
            }
        }
        if config.unit == Unit::Game {
            let sign = if rules.scoring.is_penalty() {
                -1.0
            } else {
                1.0
            };
            let winners = game.winners();
            for seat in 0..n {
                out.score[slot_of(seat)] += sign * f64::from(game.totals()[seat]) / n as f64;
                if winners.contains(&seat) {
                    out.wins[slot_of(seat)] += 1.0 / winners.len() as f64 / n as f64;
                }
            }
        }
        if config.keep_records {
            out.records.push(Record {
                ruleset: rules,
                players: Some((0..n).map(|s| bots[s].name().to_owned()).collect()),
                deals: record_deals,
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use torite_core::Preset;

    use super::*;

    #[test]
    fn unit_scores_are_per_unit_and_paired_across_lineups() {
        let config = |bots: &[&str]| ArenaConfig {
            rules: Preset::MiniMisere4.ruleset(),
            bots: bots.iter().map(|b| (*b).to_owned()).collect(),
            units: 5,
            unit: Unit::Deal,
            seed: 7,
            keep_records: true,
        };
        let field = run(&config(&["heuristic"]), &|| {}).unwrap();
        let other = run(
            &config(&["random", "heuristic", "heuristic", "heuristic"]),
            &|| {},
        )
        .unwrap();
        for bot in field.bots.iter().chain(&other.bots) {
            assert_eq!(bot.unit_scores.len(), 5);
            assert!((mean_ci95(&bot.unit_scores).0 - bot.mean).abs() < 1e-12);
        }
        // The same deals whatever the bots: unit scores of two lineups can be paired.
        for (a, b) in field.records.iter().zip(&other.records) {
            assert_eq!(a.deals[0].hands, b.deals[0].hands);
        }
    }
}
