//! Trains the learned policy ([`torite_bots::policy`]) from ISMCTS self-play and writes its
//! weights.
//!
//! `cargo run --release -p torite-bots --example train_policy -- --seed 1 --deals 1000 --out
//! crates/bots/weights/policy.txt`
//!
//! For every preset, `ismcts` with `--iterations` iterations a decision plays `--deals` seeded
//! deals in every seat. Every card play with a choice gives one decision: the [`features`] of
//! each legal card, and which the search played. A multinomial logit (one weight per feature,
//! a small ridge penalty) is fitted by Newton's method on nine deals in ten; on the held-out
//! tenth the file's comments compare, per decision, how often the policy's likeliest card is
//! the search's and the mean log-likelihood of the search's card under the policy mixed with a
//! share of uniform choice, against the rule of thumb (`heuristic`) mixed the same way as the
//! inference used it, and against uniform choice. The same seed and sizes give the same file,
//! whatever the number of threads.

#[path = "common/cholesky.rs"]
mod cholesky;

use std::fmt::Write as _;
use std::time::Instant;

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use rayon::prelude::*;
use torite_bots::eval::Scoring;
use torite_bots::ismcts::Ismcts;
use torite_bots::policy::{Decision, FEATURES, features};
use torite_bots::{Bot, Budget, Heuristic};
use torite_core::{Action, Deal, Preset, View};

/// The ridge penalty on every weight.
const RIDGE: f64 = 1.0;

/// The shares of uniform choice mixed into the policy that the report compares.
const POLICY_NOISES: [f64; 5] = [0.02, 0.05, 0.1, 0.2, 0.3];

/// The shares of uniform choice mixed into the rule of thumb that the report compares.
const HEURISTIC_NOISES: [f64; 2] = [0.5, 0.9];

#[path = "common/cli.rs"]
mod cli;

#[path = "common/weights_file.rs"]
mod weights_file;

/// Trains the learned policy from ISMCTS self-play and writes its weights.
#[derive(clap::Parser)]
#[command(name = "train_policy")]
struct Args {
    /// The seed of the self-play deals and searches.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Self-play deals per preset.
    #[arg(long, default_value_t = 1000, value_parser = cli::at_least(10u64))]
    deals: u64,
    /// The search's iterations a decision.
    #[arg(long, default_value_t = 2000, value_parser = cli::at_least(1u32))]
    iterations: u32,
    /// Threads to play on; the file does not depend on it.
    #[arg(long, default_value_t = 2, value_parser = cli::at_least(1usize))]
    threads: usize,
    /// The weights file to write.
    #[arg(long, value_name = "FILE")]
    out: String,
    /// The presets to train (all of them if none is given).
    #[arg(value_name = "PRESET", value_parser = cli::preset)]
    presets: Vec<Preset>,
}

fn parse_args() -> Args {
    let mut args = <Args as clap::Parser>::parse();
    if args.presets.is_empty() {
        args.presets = Preset::ALL.to_vec();
    }
    args
}

/// One card play with a choice: the features of each legal card, the one the search played
/// and the one the rule of thumb would have.
struct Sample {
    cards: Vec<[f32; FEATURES]>,
    chosen: usize,
    heuristic: usize,
}

/// One self-play deal of `preset` by ISMCTS: its decisions.
fn play(preset: Preset, args: &Args, number: u64) -> Vec<Sample> {
    let rules = preset.ruleset();
    let n = rules.players as usize;
    let seed = args.seed ^ ((preset as u64) << 40) ^ number;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut deal = Deal::random(rules, (number % n as u64) as usize, &mut rng);
    let budget = Budget::Iterations(args.iterations);
    let mut bots: Vec<Ismcts> = (0..n)
        .map(|s| Ismcts::with_budget(seed.wrapping_mul(31) ^ s as u64, budget))
        .collect();
    let mut heuristic = Heuristic::new(seed);
    let mut samples = Vec::new();
    while !deal.is_over() {
        let seat = deal.to_act();
        let view = View::new(&deal, seat);
        let action = bots[seat].act(&view);
        let legal = deal.legal_actions();
        if let Action::Play(card) = action
            && legal.cards.len() > 1
            && legal.len() == legal.cards.len()
        {
            let decision = Decision::of(&view, legal.cards, &Scoring::of(&view));
            let mut cards = Vec::new();
            let mut x = [0.0; FEATURES];
            for c in legal.cards {
                features(&view, c, &decision, &mut x);
                cards.push(x);
            }
            let position = |a: Action| legal.cards.iter().position(|c| Action::Play(c) == a);
            samples.push(Sample {
                cards,
                chosen: position(Action::Play(card)).unwrap_or(0),
                heuristic: position(heuristic.act(&view)).unwrap_or(0),
            });
        }
        if deal.apply(action).is_err() {
            eprintln!("train_policy: an illegal action in {}", preset.id());
            std::process::exit(1);
        }
    }
    samples
}

/// The probabilities of a sample's cards under the weights `w`.
fn probabilities(sample: &Sample, w: &[f64]) -> Vec<f64> {
    let logits: Vec<f64> = sample
        .cards
        .iter()
        .map(|x| x.iter().zip(w).map(|(x, w)| f64::from(*x) * w).sum())
        .collect();
    let top = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let exp: Vec<f64> = logits.iter().map(|l| (l - top).exp()).collect();
    let total: f64 = exp.iter().sum();
    exp.into_iter().map(|e| e / total).collect()
}

/// The maximum-likelihood weights (with the ridge penalty), by Newton's method.
fn fit(samples: &[&Sample]) -> Vec<f64> {
    let n = FEATURES;
    let mut w = vec![0.0; n];
    for _ in 0..50 {
        let mut gradient: Vec<f64> = w.iter().map(|w| RIDGE * w).collect();
        let mut hessian = vec![0.0; n * n];
        for i in 0..n {
            hessian[i * n + i] = RIDGE;
        }
        for sample in samples {
            let p = probabilities(sample, &w);
            let mut mean = vec![0.0; n];
            for (x, p) in sample.cards.iter().zip(&p) {
                for (m, x) in mean.iter_mut().zip(x) {
                    *m += p * f64::from(*x);
                }
            }
            for (g, (m, x)) in gradient
                .iter_mut()
                .zip(mean.iter().zip(&sample.cards[sample.chosen]))
            {
                *g += m - f64::from(*x);
            }
            for (x, p) in sample.cards.iter().zip(&p) {
                let d: Vec<(usize, f64)> = x
                    .iter()
                    .zip(&mean)
                    .enumerate()
                    .map(|(i, (x, m))| (i, f64::from(*x) - m))
                    .filter(|(_, d)| *d != 0.0)
                    .collect();
                for &(i, a) in &d {
                    for &(j, b) in &d {
                        hessian[i * n + j] += p * a * b;
                    }
                }
            }
        }
        let step = cholesky::solve(&mut hessian, &gradient);
        let size = step.iter().map(|s| s.abs()).fold(0.0, f64::max);
        for (w, s) in w.iter_mut().zip(&step) {
            *w -= s;
        }
        if size < 1e-7 {
            break;
        }
    }
    w
}

/// How well the policy `w` and the rule of thumb predict the held-out decisions: the share
/// the policy's likeliest card matches, the share the rule of thumb's matches, and the mean
/// log-likelihood per decision under the policy mixed with each of [`POLICY_NOISES`], the
/// rule of thumb mixed with each of [`HEURISTIC_NOISES`], and uniform choice.
struct Report {
    decisions: usize,
    policy_top: f64,
    heuristic_top: f64,
    policy: [f64; POLICY_NOISES.len()],
    heuristic: [f64; HEURISTIC_NOISES.len()],
    uniform: f64,
}

fn report(samples: &[&Sample], w: &[f64]) -> Report {
    let mut r = Report {
        decisions: samples.len(),
        policy_top: 0.0,
        heuristic_top: 0.0,
        policy: [0.0; POLICY_NOISES.len()],
        heuristic: [0.0; HEURISTIC_NOISES.len()],
        uniform: 0.0,
    };
    for sample in samples {
        let p = probabilities(sample, w);
        let legal = p.len() as f64;
        let top = (0..p.len())
            .max_by(|&a, &b| p[a].total_cmp(&p[b]).then(b.cmp(&a)))
            .unwrap_or(0);
        r.policy_top += f64::from(u8::from(top == sample.chosen));
        let matches = sample.heuristic == sample.chosen;
        r.heuristic_top += f64::from(u8::from(matches));
        for (cell, eps) in r.policy.iter_mut().zip(POLICY_NOISES) {
            *cell += ((1.0 - eps) * p[sample.chosen] + eps / legal).ln();
        }
        for (cell, eps) in r.heuristic.iter_mut().zip(HEURISTIC_NOISES) {
            let own = if matches { 1.0 - eps } else { 0.0 };
            *cell += (own + eps / legal).ln();
        }
        r.uniform -= legal.ln();
    }
    let n = r.decisions.max(1) as f64;
    r.policy_top /= n;
    r.heuristic_top /= n;
    for cell in r.policy.iter_mut().chain(r.heuristic.iter_mut()) {
        *cell /= n;
    }
    r.uniform /= n;
    r
}

fn main() {
    let args = parse_args();
    let start = Instant::now();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()
        .unwrap_or_else(|e| {
            eprintln!("train_policy: no thread pool: {e}");
            std::process::exit(1)
        });
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# The learned policy (crates/bots/src/policy.rs): one multinomial\n\
         # logit per preset, {FEATURES} weights each, fitted to the cards ismcts:{} played in\n\
         # self-play. Made by\n\
         # cargo run --release -p torite-bots --example train_policy -- --seed {} --deals {} --iterations {} --out crates/bots/weights/policy.txt\n\
         # On the held-out tenth of the deals, per decision: how often the likeliest card is the\n\
         # search's (policy, then the rule of thumb), and the mean log-likelihood of the\n\
         # search's card under the policy mixed with {POLICY_NOISES:?} uniform choice, under\n\
         # the rule of thumb mixed with {HEURISTIC_NOISES:?}, and under uniform choice:",
        args.iterations, args.seed, args.deals, args.iterations
    );
    let mut lines = String::new();
    for &preset in &args.presets {
        let deals: Vec<Vec<Sample>> = pool.install(|| {
            (0..args.deals)
                .into_par_iter()
                .map(|number| play(preset, &args, number))
                .collect()
        });
        let (mut train, mut held_out) = (Vec::new(), Vec::new());
        for (number, samples) in deals.iter().enumerate() {
            let into = if number % 10 == 0 {
                &mut held_out
            } else {
                &mut train
            };
            into.extend(samples.iter());
        }
        let w = fit(&train);
        let r = report(&held_out, &w);
        let _ = writeln!(
            out,
            "#   {}: {} decisions; top {:.3} / {:.3}; policy {}; rule of thumb {}; uniform {:.3}",
            preset.id(),
            r.decisions,
            r.policy_top,
            r.heuristic_top,
            r.policy.map(|v| format!("{v:.3}")).join(" "),
            r.heuristic.map(|v| format!("{v:.3}")).join(" "),
            r.uniform,
        );
        let _ = write!(lines, "{}", preset.id());
        for v in &w {
            // Written to five places, without a sign on a weight that rounds to zero.
            let v = if v.abs() < 5e-6 { 0.0 } else { *v };
            let _ = write!(lines, " {v:.5}");
        }
        lines.push('\n');
        eprintln!(
            "train_policy: {} done ({} decisions, {:.0} s)",
            preset.id(),
            train.len() + held_out.len(),
            start.elapsed().as_secs_f64()
        );
    }
    out.push_str(&lines);
    weights_file::write_or_exit("train_policy", &args.out, &out);
    eprint!("{out}");
}
