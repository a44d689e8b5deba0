//! Trains the learned evaluation of `ismcts-eval` ([`torite_bots::eval`]) from self-play and
//! writes its weights.
//!
//! `cargo run --release -p torite-bots --example train_eval -- --seed 1 --deals 10000 --out
//! crates/bots/weights/eval.txt`
//!
//! For every preset, `heuristic` plays `--deals` seeded deals (one action in ten uniformly at
//! random instead, so that the positions are more varied than the rule of thumb's own); every
//! position of every deal gives one row per seat, that seat's [`features`], with its final
//! score ([`deal_rewards`], divided by [`score_scale`]) as the target. Ridge regression (the
//! normal equations, solved by Cholesky) fits one linear model per preset on nine deals in
//! ten; the tenth are held out, and the file's comments give each model's share of the
//! target's variance explained on them (R²). The same seed gives the same file.

#[path = "common/cholesky.rs"]
mod cholesky;

use std::fmt::Write as _;
use std::time::Instant;

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use torite_bots::eval::{FEATURES, PROGRESS, features};
use torite_bots::reward::{deal_rewards, score_scale};
use torite_bots::{Bot, Heuristic};
use torite_core::shuffle::below;
use torite_core::{Deal, Preset, View};

/// The ridge penalty on every weight but the first (the constant).
const RIDGE: f64 = 1.0;

/// One action in this many is random.
const RANDOM_EVERY: u32 = 10;

#[path = "common/cli.rs"]
mod cli;

/// Trains the learned evaluation of `ismcts-eval` from self-play and writes its weights.
#[derive(clap::Parser)]
#[command(name = "train_eval")]
struct Args {
    /// The seed of the self-play deals.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Self-play deals per preset.
    #[arg(long, default_value_t = 10_000, value_parser = cli::at_least(10u64))]
    deals: u64,
    /// The weights file to write.
    #[arg(long, value_name = "FILE")]
    out: String,
}

fn parse_args() -> Args {
    clap::Parser::parse()
}

/// The sums of the normal equations, over the rows seen.
struct Normal {
    xtx: Vec<f64>,
    xty: Vec<f64>,
    rows: u64,
}

impl Normal {
    fn new() -> Normal {
        Normal {
            xtx: vec![0.0; FEATURES * FEATURES],
            xty: vec![0.0; FEATURES],
            rows: 0,
        }
    }

    fn add(&mut self, x: &[f32; FEATURES], y: f64) {
        let nonzero: Vec<(usize, f64)> = x
            .iter()
            .enumerate()
            .filter(|(_, v)| **v != 0.0)
            .map(|(i, v)| (i, f64::from(*v)))
            .collect();
        for &(i, a) in &nonzero {
            self.xty[i] += a * y;
            let row = &mut self.xtx[i * FEATURES..(i + 1) * FEATURES];
            for &(j, b) in &nonzero {
                row[j] += a * b;
            }
        }
        self.rows += 1;
    }

    /// The ridge solution, by Cholesky.
    fn solve(&self) -> Vec<f64> {
        let n = FEATURES;
        let mut a = self.xtx.clone();
        for i in 1..n {
            a[i * n + i] += RIDGE;
        }
        a[0] += 1e-9;
        cholesky::solve(&mut a, &self.xty)
    }
}

/// One self-play deal of `preset`: every seat's features at every position, and the targets.
fn play(preset: Preset, seed: u64, number: u64) -> Vec<([f32; FEATURES], f64)> {
    let rules = preset.ruleset();
    let n = rules.players as usize;
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ ((preset as u64) << 40) ^ number);
    let mut deal = Deal::random(rules, (number % n as u64) as usize, &mut rng);
    let mut bots: Vec<Heuristic> = (0..n)
        .map(|s| Heuristic::new(seed ^ (number << 8) ^ s as u64))
        .collect();
    let mut rows: Vec<([f32; FEATURES], usize)> = Vec::new();
    while !deal.is_over() {
        for seat in 0..n {
            let mut x = [0.0; FEATURES];
            features(&View::new(&deal, seat), &mut x);
            rows.push((x, seat));
        }
        let seat = deal.to_act();
        let legal = deal.legal_actions();
        let action = if below(&mut rng, RANDOM_EVERY) == 0 {
            legal.nth(below(&mut rng, legal.len() as u32) as usize)
        } else {
            Some(bots[seat].act(&View::new(&deal, seat)))
        };
        let Some(action) = action else { break };
        if deal.apply(action).is_err() {
            eprintln!("train_eval: an illegal action in {}", preset.id());
            std::process::exit(1);
        }
    }
    let rewards = deal_rewards(&deal);
    let scale = score_scale(&rules);
    rows.into_iter()
        .map(|(x, seat)| (x, rewards[seat] / scale))
        .collect()
}

/// The share of the variance of the targets of the `rows` that pass `keep` explained by
/// the weights `w`.
fn r_squared(
    rows: &[([f32; FEATURES], f64)],
    w: &[f64],
    keep: impl Fn(&[f32; FEATURES]) -> bool,
) -> f64 {
    let kept: Vec<_> = rows.iter().filter(|r| keep(&r.0)).collect();
    let mean = kept.iter().map(|r| r.1).sum::<f64>() / kept.len().max(1) as f64;
    let (mut residual, mut total) = (0.0, 0.0);
    for (x, y) in kept {
        let p: f64 = x.iter().zip(w).map(|(x, w)| f64::from(*x) * w).sum();
        residual += (y - p).powi(2);
        total += (y - mean).powi(2);
    }
    1.0 - residual / total.max(1e-12)
}

fn main() {
    let args = parse_args();
    let start = Instant::now();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# The learned evaluation of ismcts-eval (crates/bots/src/eval.rs): one linear model per\n\
         # preset, {FEATURES} weights each. Made by\n\
         # cargo run --release -p torite-bots --example train_eval -- --seed {} --deals {} --out crates/bots/weights/eval.txt\n\
         # R² (the share of the final score's variance explained) on the held-out tenth of the\n\
         # deals, per preset, over all positions and over those from half the tricks on:",
        args.seed, args.deals
    );
    let mut lines = String::new();
    for preset in Preset::ALL {
        let mut normal = Normal::new();
        let mut held_out = Vec::new();
        for number in 0..args.deals {
            let rows = play(preset, args.seed, number);
            if number % 10 == 0 {
                held_out.extend(rows);
            } else {
                for (x, y) in &rows {
                    normal.add(x, *y);
                }
            }
        }
        let w = normal.solve();
        let r2 = r_squared(&held_out, &w, |_| true);
        let late = r_squared(&held_out, &w, |x| x[PROGRESS] >= 0.5);
        let _ = writeln!(
            out,
            "#   {}: {r2:.3}, {late:.3} from half the tricks on ({} rows)",
            preset.id(),
            normal.rows
        );
        eprintln!(
            "{}: R² {r2:.3} ({late:.3} from half the tricks on) over {} held-out rows, {} training rows, {:.0?}",
            preset.id(),
            held_out.len(),
            normal.rows,
            start.elapsed()
        );
        lines.push_str(preset.id());
        for v in &w {
            let _ = write!(lines, " {}", *v as f32);
        }
        lines.push('\n');
    }
    out.push_str(&lines);
    if let Err(e) = std::fs::write(&args.out, out) {
        eprintln!("train_eval: cannot write {}: {e}", args.out);
        std::process::exit(1);
    }
    eprintln!("wrote {} in {:.0?}", args.out, start.elapsed());
}
