//! Tunes the `ismcts` bot: plays several settings against the `heuristic` bot on the same
//! duplicate deals and prints each setting's mean score and its difference to the field.
//!
//! ```text
//! cargo run --release -p torite-bots --example ismcts_tune -- RULESET DEALS SETTING...
//! ```
//!
//! A setting is `ITERATIONS` or `ITERATIONS@C` (C the exploration constant), e.g.
//! `cargo run --release -p torite-bots --example ismcts_tune -- mini-misere-4 300 10000@0.5
//! 10000@0.7 10000@1.0`. Every setting plays every deal once from each seat, the other seats
//! held by `heuristic`, with the same seeds, so the settings' differences are paired.

use std::time::Instant;

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use rayon::prelude::*;
use torite_bots::arena::mean_ci95;
use torite_bots::ismcts::{DEFAULT_EXPLORATION, Ismcts};
use torite_bots::reward::deal_rewards;
use torite_bots::{Bot, Budget, Heuristic};
use torite_core::{Deal, Preset, View};

#[derive(Clone, Copy, Debug)]
struct Setting {
    iterations: u32,
    exploration: f64,
}

/// One deal played from every seat: the setting's score minus the heuristics' mean, per
/// seat, and the time and number of its decisions.
fn play(rules: torite_core::Ruleset, unit: u64, s: Setting) -> (f64, f64, f64, u64) {
    let n = rules.players as usize;
    let mut deal_rng = ChaCha8Rng::seed_from_u64(unit);
    let start = Deal::random(rules, (unit % n as u64) as usize, &mut deal_rng);
    let (mut score, mut diff, mut secs, mut decisions) = (0.0, 0.0, 0.0, 0);
    for seat in 0..n {
        let mut deal = start.clone();
        let mut bot =
            Ismcts::with_budget(unit * 16 + seat as u64, Budget::Iterations(s.iterations))
                .exploration(s.exploration);
        let mut other = Heuristic::new(0);
        while !deal.is_over() {
            let to_act = deal.to_act();
            let view = View::new(&deal, to_act);
            let action = if to_act == seat {
                let t = Instant::now();
                let a = bot.act(&view);
                secs += t.elapsed().as_secs_f64();
                decisions += 1;
                a
            } else {
                other.act(&view)
            };
            deal.apply(action).expect("legal action");
        }
        let r = deal_rewards(&deal);
        let others = (0..n).filter(|o| *o != seat).map(|o| r[o]).sum::<f64>() / (n - 1) as f64;
        score += r[seat] / n as f64;
        diff += (r[seat] - others) / n as f64;
    }
    (score, diff, secs, decisions)
}

#[path = "common/cli.rs"]
mod cli;

/// Plays `ismcts` settings against `heuristic` on the same duplicate deals.
#[derive(clap::Parser)]
#[command(name = "ismcts_tune")]
struct Args {
    /// The preset played.
    #[arg(value_parser = cli::preset)]
    ruleset: Preset,
    /// Deals to play, each from every seat.
    #[arg(value_parser = cli::at_least(2u64))]
    deals: u64,
    /// The settings compared: `ITERATIONS` or `ITERATIONS@C`, C the exploration constant.
    #[arg(value_name = "SETTING", required = true, value_parser = setting)]
    settings: Vec<Setting>,
}

/// A setting, `ITERATIONS` or `ITERATIONS@C`.
fn setting(text: &str) -> Result<Setting, String> {
    let (n, c) = text.split_once('@').unwrap_or((text, ""));
    let iterations = n
        .parse()
        .ok()
        .filter(|i| (1..=torite_bots::MAX_ITERATIONS).contains(i))
        .ok_or_else(|| {
            format!(
                "expected ITERATIONS or ITERATIONS@C, iterations 1 to {}",
                torite_bots::MAX_ITERATIONS
            )
        })?;
    let exploration = if c.is_empty() {
        DEFAULT_EXPLORATION
    } else {
        c.parse()
            .ok()
            .filter(|c: &f64| c.is_finite() && *c >= 0.0)
            .ok_or_else(|| format!("{c:?} is not an exploration constant (a number, 0 or more)"))?
    };
    Ok(Setting {
        iterations,
        exploration,
    })
}

fn main() {
    let Args {
        ruleset: preset,
        deals,
        settings,
    } = clap::Parser::parse();
    let ruleset = preset.id();
    let rules = preset.ruleset();
    println!(
        "{ruleset}: {deals} deals x {} seats against heuristic",
        rules.players
    );
    println!(
        "{:>10} {:>6} {:>18} {:>18} {:>18} {:>10}",
        "iterations", "c", "mean ± 95%", "vs field ± 95%", "vs first ± 95%", "ms/dec"
    );
    let mut first: Option<Vec<f64>> = None;
    for s in settings {
        let results: Vec<(f64, f64, f64, u64)> = (0..deals)
            .into_par_iter()
            .map(|u| play(rules, u, s))
            .collect();
        let scores: Vec<f64> = results.iter().map(|r| r.0).collect();
        let diffs: Vec<f64> = results.iter().map(|r| r.1).collect();
        let secs: f64 = results.iter().map(|r| r.2).sum();
        let decisions: u64 = results.iter().map(|r| r.3).sum();
        let (mean, ci) = mean_ci95(&scores);
        let (diff, diff_ci) = mean_ci95(&diffs);
        let paired = first.as_ref().map_or((0.0, 0.0), |f| {
            let d: Vec<f64> = scores.iter().zip(f).map(|(a, b)| a - b).collect();
            mean_ci95(&d)
        });
        println!(
            "{:>10} {:>6} {:>18} {:>18} {:>18} {:>10.2}",
            s.iterations,
            s.exploration,
            format!("{mean:+.3} ± {ci:.3}"),
            format!("{diff:+.3} ± {diff_ci:.3}"),
            format!("{:+.3} ± {:.3}", paired.0, paired.1),
            secs * 1e3 / decisions.max(1) as f64
        );
        first.get_or_insert(scores);
    }
}
