//! Duplicate tournaments: every random deal (or whole game) is replayed with the bots rotated
//! through every seat, so the luck of the cards cancels out.
//!
//! The deals and draws are the one seed scheme's ([`torite_core::Seeds`], `docs/SEEDS.md`):
//! deal unit `u` of seed `N` is deal `u` of table seed `N`, game unit `g` the game of table seed
//! [`game_seed`]`(N, g)`, each played through a [`Table`]. Every unit depends only on the seed
//! and its index, and its bots are created afresh from seeds derived from (seed, unit,
//! rotation, seat), so results do not depend on the number of threads or the order units
//! finish in, and two lineups run with one seed play the same deals.

use std::time::Instant;

use rayon::prelude::*;
use torite_core::table::first_dealer;
use torite_core::{
    CardSet, MAX_SEATS, Record, RecordDeal, Ruleset, Seat, Seeds, Step, Table, View,
};

use crate::reward::deal_rewards;
use crate::standing::Standing;
use crate::{Bot, BotError, BotSpec, apply_at, engine_error};

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
    /// The bots; seats are filled with them in turn (A B A B … for two bots).
    pub bots: Vec<BotSpec>,
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
    /// Half-width of the 95% confidence interval of `win_rate`, over games.
    pub win_ci95: Option<f64>,
    /// Mean decision time in milliseconds.
    pub decision_ms: f64,
    /// The longest decision, in milliseconds.
    pub decision_max_ms: f64,
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
    /// The share of the variance of the seats' scores (one score per seat, rotation and unit)
    /// explained by which bot of the lineup plays the seat, with the half-width of its 95%
    /// bootstrap interval over units: near 0 when the cards decide everything, near 1 when the
    /// players do. In a lineup of one strong bot among weaker ones it measures how much skill
    /// decides the game; 0 ± 0 when every seat plays the same bot.
    pub explained: (f64, f64),
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

/// SplitMix64's output function: a bijection of `u64` with `mix64(0) == 0`.
const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The table seed of game `game` of an arena or `stats` run with seed `seed`: `seed ^
/// m(game · 0x9E3779B97F4A7C15)`, where `m` is SplitMix64's output function. `m(0) = 0`, so
/// game 0 is the game of table seed `seed` itself; the game then deals and draws from its
/// table seed like any table ([`torite_core::Seeds`], `docs/SEEDS.md`).
#[must_use]
pub const fn game_seed(seed: u64, game: u64) -> u64 {
    seed ^ mix64(game.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// The seed of a bot's own randomness, mixed from the run's seed and the indices that place
/// it (unit, rotation, seat): apart from the table seeds, so it never moves a deal.
pub(crate) const fn bot_seed(seed: u64, a: u64, b: u64, c: u64) -> u64 {
    mix64(
        seed ^ a.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ b.wrapping_mul(0xBF58_476D_1CE4_E5B9)
            ^ c.wrapping_mul(0x94D0_49BB_1331_11EB),
    )
}

/// One unit's outcome per lineup slot: score, decisions, time, and win share.
struct UnitResult {
    score: Vec<f64>,
    decisions: Vec<u64>,
    nanos: Vec<u128>,
    max_nanos: Vec<u128>,
    wins: Vec<f64>,
    records: Vec<Record>,
    /// Per distinct lineup entry: the sum of its seats' scores, of their squares, and how many.
    moments: Vec<(f64, f64, f64)>,
}

/// The share of the scores' variance explained by the lineup entry playing (the between-entry
/// sum of squares over the total sum of squares), from per-entry moments.
fn explained_share(moments: &[(f64, f64, f64)]) -> f64 {
    let (sum, squares, count) = moments
        .iter()
        .fold((0.0, 0.0, 0.0), |(a, b, c), m| (a + m.0, b + m.1, c + m.2));
    if count == 0.0 {
        return 0.0;
    }
    let total = squares - sum * sum / count;
    if total <= 1e-12 {
        return 0.0;
    }
    let between: f64 = moments
        .iter()
        .filter(|m| m.2 > 0.0)
        .map(|m| m.0 * m.0 / m.2)
        .sum::<f64>()
        - sum * sum / count;
    (between / total).clamp(0.0, 1.0)
}

/// [`explained_share`] over every unit, with the half-width of a 95% percentile bootstrap
/// interval (1,000 resamples of the units, seeded by the run's seed).
fn explained(units: &[UnitResult], entries: usize, seed: u64) -> (f64, f64) {
    use rand_core::{Rng, SeedableRng};
    let pooled = |pick: &mut dyn FnMut() -> usize| {
        let mut m = vec![(0.0, 0.0, 0.0); entries];
        for _ in 0..units.len() {
            for (a, b) in m.iter_mut().zip(&units[pick()].moments) {
                a.0 += b.0;
                a.1 += b.1;
                a.2 += b.2;
            }
        }
        explained_share(&m)
    };
    let mut next = 0;
    let share = pooled(&mut || {
        next += 1;
        next - 1
    });
    if units.len() < 2 || entries < 2 {
        return (share, 0.0);
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(bot_seed(seed, 0xB007, 0, 0));
    let n = units.len() as u64;
    let mut shares: Vec<f64> = (0..1000)
        .map(|_| pooled(&mut || (rng.next_u64() % n) as usize))
        .collect();
    shares.sort_by(f64::total_cmp);
    let (low, high) = (shares[25], shares[974]);
    (share, (high - low) / 2.0)
}

/// Plays `config.units` units in every rotation, in parallel on rayon's pool; `progress` is
/// called once per finished unit.
///
/// Deal unit `u` is deal `u` of table seed `config.seed`: its hands are
/// [`Seeds::hands`]`(seed, rules, u)` and its dealer the one a table of that seed gives it
/// ([`first_dealer`], the last seat, deals deal 0, and the deal passes on), and a tie is
/// settled by the seed's first draw, as if the deal were the first of its game to need one (a
/// deal unit's score averages over the tied seats, so the draw only completes the record).
/// Game unit `g` is the game of table seed [`game_seed`]`(seed, g)`, first dealt by
/// [`first_dealer`]. Both are played through [`Table`], which keeps their records.
///
/// # Errors
///
/// An unknown bot name, or a bot that chose an illegal action.
pub fn run(config: &ArenaConfig, progress: &(dyn Fn() + Sync)) -> Result<ArenaResult, BotError> {
    let specs = &config.bots;
    let n = config.rules.players as usize;
    let lineup: Vec<usize> = (0..n).map(|s| s % config.bots.len().max(1)).collect();
    // Deal units take the deals of the seed in order: one pass over the stream.
    let hands: Vec<[CardSet; MAX_SEATS]> = if config.unit == Unit::Deal {
        let mut seeds = Seeds::new(config.seed);
        (0..config.units)
            .map(|_| seeds.next_hands(&config.rules))
            .collect()
    } else {
        Vec::new()
    };
    let units: Vec<UnitResult> = (0..config.units)
        .into_par_iter()
        .map(|u| {
            let r = play_unit(config, specs, &lineup, u as u64, hands.get(u));
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
        let max_nanos: u128 = units
            .iter()
            .flat_map(|u| slots.iter().map(|s| u.max_nanos[*s]))
            .max()
            .unwrap_or(0);
        let wins = (config.unit == Unit::Game).then(|| mean_ci95(&per_unit(&|u, s| u.wins[s])));
        let spec = &config.bots[b];
        let name = if config.bots.iter().filter(|x| *x == spec).count() > 1 {
            format!("{spec}#{}", b + 1)
        } else {
            spec.to_string()
        };
        bots.push(BotResult {
            name,
            mean,
            ci95,
            diff,
            diff_ci95,
            win_rate: wins.map(|w| w.0),
            win_ci95: wins.map(|w| w.1),
            decision_ms: if decisions == 0 {
                0.0
            } else {
                nanos as f64 / decisions as f64 / 1e6
            },
            decision_max_ms: max_nanos as f64 / 1e6,
            unit_scores: scores,
        });
    }
    let explained = explained(&units, k, config.seed);
    let records = units.into_iter().flat_map(|u| u.records).collect();
    Ok(ArenaResult {
        bots,
        records,
        explained,
    })
}

fn add_moment(m: &mut (f64, f64, f64), x: f64) {
    m.0 += x;
    m.1 += x * x;
    m.2 += 1.0;
}

fn play_unit(
    config: &ArenaConfig,
    specs: &[BotSpec],
    lineup: &[usize],
    unit: u64,
    hands: Option<&[CardSet; MAX_SEATS]>,
) -> Result<UnitResult, BotError> {
    let rules = config.rules;
    let n = rules.players as usize;
    let mut out = UnitResult {
        score: vec![0.0; n],
        decisions: vec![0; n],
        nanos: vec![0; n],
        max_nanos: vec![0; n],
        wins: vec![0.0; n],
        records: Vec::new(),
        moments: vec![(0.0, 0.0, 0.0); config.bots.len().max(1)],
    };
    // The same bot twice in the lineup is one kind of player: the first entry that names it.
    let kind_of = |entry: usize| {
        specs
            .iter()
            .position(|s| *s == specs[entry])
            .unwrap_or(entry)
    };
    for rotation in 0..n {
        // Seat s is played by lineup slot (s + rotation) % n.
        let slot_of = |seat: Seat| (seat + rotation) % n;
        let mut bots: Vec<Box<dyn Bot>> = (0..n)
            .map(|seat| {
                specs[lineup[slot_of(seat)]].build(bot_seed(
                    config.seed,
                    unit,
                    rotation as u64,
                    seat as u64,
                ))
            })
            .collect();
        let mut table = match hands {
            // Deal `unit` of the seed, as a table of that seed deals it.
            Some(hands) => {
                let dealer = (first_dealer(&rules) + unit as usize) % n;
                let deal = Record {
                    ruleset: rules,
                    players: None,
                    deals: vec![RecordDeal {
                        dealer,
                        hands: hands[..n].to_vec(),
                        actions: Vec::new(),
                        draw: None,
                    }],
                };
                Table::resume(deal, config.seed).map_err(|e| BotError::Engine(e.to_string()))?
            }
            None => Table::new(rules, first_dealer(&rules), game_seed(config.seed, unit))
                .map_err(engine_error)?,
        };
        let one_deal = hands.is_some();
        loop {
            match table.next_step() {
                Step::Act { seat } => {
                    let deal = table.deal().ok_or(BotError::Engine("no deal".into()))?;
                    bots[seat].observe_true_deal(deal); // only the references (`omniscient`, `maxn`) use it
                    if !one_deal {
                        // Whole games: the score sheet is public (a single deal is played for
                        // its own score).
                        bots[seat].observe_standing(&Standing::of(table.game()));
                    }
                    let start = Instant::now();
                    let action = bots[seat].act(&View::new(deal, seat));
                    let slot = slot_of(seat);
                    let took = start.elapsed().as_nanos();
                    out.nanos[slot] += took;
                    out.max_nanos[slot] = out.max_nanos[slot].max(took);
                    out.decisions[slot] += 1;
                    let applied = apply_at(&mut table, bots[seat].as_ref(), seat, action)?;
                    if one_deal && applied.scored.is_some() {
                        break;
                    }
                }
                Step::Draw { .. } => {
                    table.draw().map_err(engine_error)?;
                    if one_deal {
                        break;
                    }
                }
                Step::GameOver => break,
            }
        }
        let names = (0..n).map(|s| bots[s].name().to_owned()).collect();
        let _ = table.set_players(names);
        if one_deal {
            let deal = table
                .last_deal()
                .ok_or(BotError::Engine("no deal".into()))?;
            let rewards = deal_rewards(deal);
            for (seat, reward) in rewards.iter().enumerate().take(n) {
                out.score[slot_of(seat)] += reward / n as f64;
                add_moment(&mut out.moments[kind_of(lineup[slot_of(seat)])], *reward);
            }
        } else {
            let game = table.game();
            let sign = if rules.scoring.is_penalty() {
                -1.0
            } else {
                1.0
            };
            let winners = game.winners();
            for seat in 0..n {
                out.score[slot_of(seat)] += sign * f64::from(game.totals()[seat]) / n as f64;
                let total = sign * f64::from(game.totals()[seat]);
                add_moment(&mut out.moments[kind_of(lineup[slot_of(seat)])], total);
                if winners.contains(&seat) {
                    out.wins[slot_of(seat)] += 1.0 / winners.len() as f64 / n as f64;
                }
            }
        }
        if config.keep_records {
            let mut record = table.record().clone();
            if one_deal {
                // The table has dealt on from the seed: the unit is its first deal.
                record.deals.truncate(1);
            }
            out.records.push(record);
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
            bots: bots.iter().map(|b| b.parse().expect("a bot")).collect(),
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

    /// The share of score variance explained by who plays: none when every seat plays the
    /// same bot (seeds apart), some when a random player sits among rule-of-thumb players, and
    /// the moments add up to the plain between-group share.
    #[test]
    fn the_variance_explained_by_the_players() {
        let config = |bots: &[&str]| ArenaConfig {
            rules: Preset::MiniMisere4.ruleset(),
            bots: bots.iter().map(|b| b.parse().expect("a bot")).collect(),
            units: 40,
            unit: Unit::Deal,
            seed: 11,
            keep_records: false,
        };
        let same = run(&config(&["heuristic", "heuristic"]), &|| {}).unwrap();
        assert_eq!(same.explained, (0.0, 0.0));
        let mixed = run(
            &config(&["random", "heuristic", "heuristic", "heuristic"]),
            &|| {},
        )
        .unwrap();
        let (share, half) = mixed.explained;
        assert!(share > 0.05 && share < 0.9, "{share}");
        assert!(half > 0.0 && half < share, "{half}");
        // Two groups {1, 3} and {5, 7}: the total sum of squares is 20, the between-group 16.
        let groups = [(4.0, 10.0, 2.0), (12.0, 74.0, 2.0)];
        assert!((explained_share(&groups) - 0.8).abs() < 1e-12);
    }
}
