//! Trains the learned reader ([`torite_bots::reader`]) from ISMCTS self-play and writes its
//! weights.
//!
//! `cargo run --release -p torite-bots --example train_reader -- --seed 1 --deals 2000 --out
//! crates/bots/weights/reader.txt`
//!
//! For every preset, `ismcts` with `--iterations` iterations a decision plays `--deals` seeded
//! deals. Every card play with a choice gives one decision: the [`inputs`] of each legal card,
//! and which the search played. The network is fitted to the cross-entropy of the search's
//! cards by Adam (minibatches of 64, `--epochs` passes, the rate cut to three tenths for the
//! last third, a small weight decay) on four deals in five; on the held-out fifth the file's
//! comments compare, per decision, how often the likeliest card is the search's and the mean
//! log-likelihood of the search's card, mixed with 5% uniform choice, under the network, the
//! learned policy ([`torite_bots::policy`]) and uniform choice. The same seed and sizes give
//! the same file, whatever the number of threads.

use std::fmt::Write as _;
use std::time::Instant;

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use rayon::prelude::*;
use torite_bots::eval::Scoring;
use torite_bots::ismcts::Ismcts;
use torite_bots::policy::{Decision, Policy};
use torite_bots::reader::{HIDDEN, HandFacts, INPUTS, PARAMETERS, Reader, inputs};
use torite_bots::{Bot, Budget};
use torite_core::shuffle::below;
use torite_core::{Action, Deal, Preset, View};

#[path = "common/cli.rs"]
mod cli;

#[path = "common/weights_file.rs"]
mod weights_file;

/// The share of uniform choice mixed into every model the report compares.
const NOISE: f64 = 0.05;

/// Decisions a minibatch.
const BATCH: usize = 64;

/// Minibatch slices worked on in parallel and summed in order (so the sums, and the file, do
/// not depend on the threads).
const SLICES: usize = 8;

/// Trains the learned reader from ISMCTS self-play and writes its weights.
#[derive(clap::Parser)]
#[command(name = "train_reader")]
struct Args {
    /// The seed of the self-play deals, the searches and the network's start.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Self-play deals per preset.
    #[arg(long, default_value_t = 2000, value_parser = cli::at_least(10u64))]
    deals: u64,
    /// The search's iterations a decision.
    #[arg(long, default_value_t = 2000, value_parser = cli::at_least(1u32))]
    iterations: u32,
    /// Passes over the training decisions.
    #[arg(long, default_value_t = 40, value_parser = cli::at_least(1usize))]
    epochs: usize,
    /// Threads to play and train on; the file does not depend on it.
    #[arg(long, default_value_t = 2, value_parser = cli::at_least(1usize))]
    threads: usize,
    /// The weights file to write.
    #[arg(long, value_name = "FILE")]
    out: String,
    /// The presets to train (all of them if none is given).
    #[arg(value_name = "PRESET", value_parser = cli::preset)]
    presets: Vec<Preset>,
}

/// One card play with a choice: the inputs of each legal card, the one the search played, and
/// the learned policy's probabilities.
struct Sample {
    cards: Vec<[f32; INPUTS]>,
    chosen: usize,
    policy: Vec<f64>,
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
    let policy = Policy::for_rules(&rules);
    let mut scratch = Vec::new();
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
            let scoring = Scoring::of(&view);
            let decision = Decision::of(&view, legal.cards, &scoring);
            let facts = HandFacts::of(&view, &scoring);
            let mut x = [0.0; INPUTS];
            let cards = legal
                .cards
                .iter()
                .map(|c| {
                    inputs(&view, c, &decision, &facts, &mut x);
                    x
                })
                .collect();
            let uniform = 1.0 / legal.cards.len() as f64;
            let policy = match policy {
                Some(p) => {
                    p.probabilities_with(&view, legal.cards, &scoring, &mut scratch);
                    scratch.iter().map(|(_, p)| *p).collect()
                }
                None => vec![uniform; legal.cards.len()],
            };
            samples.push(Sample {
                cards,
                chosen: legal.cards.iter().position(|c| c == card).unwrap_or(0),
                policy,
            });
        }
        if deal.apply(action).is_err() {
            eprintln!("train_reader: an illegal action in {}", preset.id());
            std::process::exit(1);
        }
    }
    samples
}

/// The network's probabilities of a sample's cards.
fn probabilities(reader: &Reader, sample: &Sample) -> Vec<f64> {
    let mut hidden = [0.0; HIDDEN];
    let logits: Vec<f64> = sample
        .cards
        .iter()
        .map(|x| f64::from(reader.logit(x, &mut hidden)))
        .collect();
    let top = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let exp: Vec<f64> = logits.iter().map(|l| (l - top).exp()).collect();
    let total: f64 = exp.iter().sum();
    exp.into_iter().map(|e| e / total).collect()
}

/// Adds the gradient of minus the log-probability of the sample's chosen card under `reader`,
/// whose numbers are `p`, to `g` (both in the order of [`PARAMETERS`]).
fn gradient(reader: &Reader, p: &[f32], sample: &Sample, g: &mut [f32]) {
    let w2 = &p[HIDDEN * INPUTS + HIDDEN..][..HIDDEN];
    let mut hidden = vec![[0.0; HIDDEN]; sample.cards.len()];
    let logits: Vec<f64> = sample
        .cards
        .iter()
        .zip(hidden.iter_mut())
        .map(|(x, h)| f64::from(reader.logit(x, h)))
        .collect();
    let top = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let exp: Vec<f64> = logits.iter().map(|l| (l - top).exp()).collect();
    let total: f64 = exp.iter().sum();
    let (gw1, rest) = g.split_at_mut(HIDDEN * INPUTS);
    let (gb1, rest) = rest.split_at_mut(HIDDEN);
    let (gw2, gu) = rest.split_at_mut(HIDDEN);
    for (i, (x, h)) in sample.cards.iter().zip(&hidden).enumerate() {
        let target = if i == sample.chosen { 1.0 } else { 0.0 };
        let d = (exp[i] / total - target) as f32;
        for (g, x) in gu.iter_mut().zip(x) {
            *g += d * x;
        }
        for j in 0..HIDDEN {
            if h[j] <= 0.0 {
                continue;
            }
            gw2[j] += d * h[j];
            let dz = d * w2[j];
            gb1[j] += dz;
            for (g, x) in gw1[j * INPUTS..][..INPUTS].iter_mut().zip(x) {
                *g += dz * x;
            }
        }
    }
}

/// Fits a network to `samples` by Adam.
fn fit(samples: &[&Sample], epochs: usize, seed: u64) -> Reader {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut uniform = || (f64::from(below(&mut rng, 1 << 20)) / f64::from(1u32 << 20) - 0.5) as f32;
    // He-style start for the hidden layer, small output weights, no linear term.
    let scale = 2.0 * (2.0 / INPUTS as f32).sqrt();
    let mut p: Vec<f32> = (0..HIDDEN * INPUTS).map(|_| uniform() * scale).collect();
    p.extend(std::iter::repeat_n(0.0, HIDDEN));
    p.extend((0..HIDDEN).map(|_| uniform() * 0.2));
    p.extend(std::iter::repeat_n(0.0, INPUTS));
    let (mut m, mut v) = (vec![0.0f32; PARAMETERS], vec![0.0f32; PARAMETERS]);
    let (beta1, beta2, rate, decay) = (0.9f32, 0.999f32, 2e-3f32, 1e-5f32);
    let mut order: Vec<usize> = (0..samples.len()).collect();
    let mut step = 0;
    for epoch in 0..epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, below(&mut rng, i as u32 + 1) as usize);
        }
        let rate = if epoch * 3 >= epochs * 2 {
            rate * 0.3
        } else {
            rate
        };
        for batch in order.chunks(BATCH) {
            let reader = Reader::from_parameters(&p).expect("PARAMETERS numbers");
            let slices: Vec<Vec<f32>> = batch
                .chunks(BATCH.div_ceil(SLICES))
                .collect::<Vec<_>>()
                .par_iter()
                .map(|slice| {
                    let mut g = vec![0.0f32; PARAMETERS];
                    for &i in *slice {
                        gradient(&reader, &p, samples[i], &mut g);
                    }
                    g
                })
                .collect();
            step += 1;
            let k = batch.len() as f32;
            let (c1, c2) = (1.0 - beta1.powi(step), 1.0 - beta2.powi(step));
            for (i, w) in p.iter_mut().enumerate() {
                let g = slices.iter().map(|s| s[i]).sum::<f32>() / k + decay * *w;
                m[i] = beta1 * m[i] + (1.0 - beta1) * g;
                v[i] = beta2 * v[i] + (1.0 - beta2) * g * g;
                *w -= rate * (m[i] / c1) / ((v[i] / c2).sqrt() + 1e-8);
            }
        }
    }
    Reader::from_parameters(&p).expect("PARAMETERS numbers")
}

/// Per held-out decision: how often the likeliest card is the search's (ties sharing), and the mean
/// log-likelihood of the search's card mixed with [`NOISE`] of uniform choice.
fn report(samples: &[&Sample], probabilities: impl Fn(&Sample) -> Vec<f64>) -> (f64, f64) {
    let (mut top, mut ll) = (0.0, 0.0);
    for s in samples {
        let p = probabilities(s);
        // Tied likeliest cards share the credit.
        let most = p.iter().copied().fold(0.0, f64::max);
        if p[s.chosen] == most {
            top += 1.0 / p.iter().filter(|&&q| q == most).count() as f64;
        }
        ll += ((1.0 - NOISE) * p[s.chosen] + NOISE / p.len() as f64).ln();
    }
    let n = samples.len().max(1) as f64;
    (top / n, ll / n)
}

fn main() {
    let mut args = <Args as clap::Parser>::parse();
    if args.presets.is_empty() {
        args.presets = Preset::ALL.to_vec();
    }
    let start = Instant::now();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()
        .unwrap_or_else(|e| {
            eprintln!("train_reader: no thread pool: {e}");
            std::process::exit(1)
        });
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# The learned reader (crates/bots/src/reader.rs): one network per preset, {PARAMETERS}\n\
         # numbers each ({INPUTS} inputs, {HIDDEN} hidden units), fitted to the cards ismcts:{}\n\
         # played in self-play. Made by\n\
         # cargo run --release -p torite-bots --example train_reader -- --seed {} --deals {} --iterations {} --epochs {} --out crates/bots/weights/reader.txt\n\
         # On the held-out fifth of the deals, per decision: how often the likeliest card is the\n\
         # search's, and the mean log-likelihood of the search's card mixed with {NOISE} uniform\n\
         # choice, under the network, the learned policy and uniform choice:",
        args.iterations, args.seed, args.deals, args.iterations, args.epochs
    );
    let mut lines = String::new();
    for &preset in &args.presets {
        let (held_out, reader) = pool.install(|| {
            let deals: Vec<Vec<Sample>> = (0..args.deals)
                .into_par_iter()
                .map(|number| play(preset, &args, number))
                .collect();
            let (mut train, mut held_out) = (Vec::new(), Vec::new());
            for (number, samples) in deals.iter().enumerate() {
                let into = if number % 5 == 0 {
                    &mut held_out
                } else {
                    &mut train
                };
                into.extend(samples.iter());
            }
            let reader = fit(&train, args.epochs, args.seed ^ preset as u64);
            let held: Vec<(f64, f64)> = [
                report(&held_out, |s| probabilities(&reader, s)),
                report(&held_out, |s| s.policy.clone()),
                report(&held_out, |s| {
                    vec![1.0 / s.cards.len() as f64; s.cards.len()]
                }),
            ]
            .to_vec();
            ((held_out.len(), held), reader)
        });
        let (decisions, r) = held_out;
        let _ = writeln!(
            out,
            "#   {}: {decisions} decisions; top {:.3} / {:.3} / {:.3}; log-likelihood {:.3} / {:.3} / {:.3}",
            preset.id(),
            r[0].0,
            r[1].0,
            r[2].0,
            r[0].1,
            r[1].1,
            r[2].1,
        );
        let _ = write!(lines, "{}", preset.id());
        for v in reader.parameters() {
            // Written to four places, without a sign on a number that rounds to zero.
            let v = if v.abs() < 5e-5 { 0.0 } else { v };
            let _ = write!(lines, " {v:.4}");
        }
        lines.push('\n');
        eprintln!(
            "train_reader: {} done ({decisions} held-out decisions, {:.0} s)",
            preset.id(),
            start.elapsed().as_secs_f64()
        );
    }
    out.push_str(&lines);
    weights_file::write_or_exit("train_reader", &args.out, &out);
    eprint!("{out}");
}
