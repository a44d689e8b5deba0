//! How well does the inference ([`torite_bots::inference`]) place the unseen cards?
//!
//! ```text
//! cargo run --release -p torite-bots --example inference_quality -- PRESET DEALS OPPONENT
//! ```
//!
//! Plays `DEALS` deals (seed 1000 + deal number) with `OPPONENT` (a bot spec: `ismcts:1000`,
//! `club`, `heuristic`) in every seat. At every decision of seat 0 after the first trick,
//! it deals 300 worlds from seat 0's view and weighs them under each opponent model: the
//! rule of thumb with noise 0.5 and 0.9, per-seat noise chosen by the seats' play
//! ([`Inference::adaptive`]), the learned policy for card plays ([`Inference::with_policy`]),
//! no weighting, the learned reader for card plays ([`Inference::with_reader`]), and a small
//! search for card plays for each `--search ITERATIONS^SHARPNESS` ([`Inference::with_search`]);
//! the reader and each search also tempered so that a share of the worlds counts, for each
//! `--temper SHARE` ([`tempered_weights`]). For each model it reports the mean, over
//! decisions and unseen cards, of the natural logarithm of the weighted share of worlds that
//! put each unseen card where it really is (mixed with 1% of a uniform guess, so that a miss
//! is finite): higher is better. It also reports the pool's effective size, `(Σw)² / Σw²`.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use torite_bots::inference::{Inference, tempered_weights};
use torite_core::{Deal, Preset, View, Worlds};

const POOL: usize = 300;

#[path = "common/cli.rs"]
mod cli;

/// How well the inference's models place the unseen cards.
#[derive(clap::Parser)]
#[command(name = "inference_quality")]
struct Args {
    /// The preset played.
    #[arg(value_parser = cli::preset)]
    preset: Preset,
    /// Deals to play.
    #[arg(value_parser = cli::at_least(1u64))]
    deals: u64,
    /// The bot in every seat (`ismcts:1000`, `club`, `heuristic`, ...).
    #[arg(value_parser = cli::bot)]
    opponent: String,
    /// Also weigh by a small search as the model of card plays
    /// ([`Inference::with_search`]): `ITERATIONS^SHARPNESS`, e.g. `200^2`; repeatable.
    #[arg(long = "search", value_parser = search_model)]
    searches: Vec<(u32, f64)>,
    /// Also weigh each search model's worlds tempered so that at least this share of them
    /// counts ([`torite_bots::inference::tempered_weights`]); repeatable.
    #[arg(long = "temper", value_parser = share)]
    tempers: Vec<f64>,
}

/// A share in `(0, 1]`.
fn share(s: &str) -> Result<f64, String> {
    s.parse()
        .ok()
        .filter(|x: &f64| *x > 0.0 && *x <= 1.0)
        .ok_or_else(|| format!("share {s:?}: expected a number above 0, at most 1"))
}

/// `ITERATIONS^SHARPNESS`.
fn search_model(s: &str) -> Result<(u32, f64), String> {
    let (i, p) = s
        .split_once('^')
        .ok_or_else(|| format!("expected ITERATIONS^SHARPNESS, e.g. 200^2, not {s:?}"))?;
    let i: u32 = i
        .parse()
        .ok()
        .filter(|i| (1..=100_000).contains(i))
        .ok_or_else(|| format!("iterations {i:?}: expected 1 to 100000"))?;
    let p: f64 = p
        .parse()
        .ok()
        .filter(|p: &f64| p.is_finite() && *p > 0.0 && *p <= 20.0)
        .ok_or_else(|| format!("sharpness {p:?}: expected a number above 0, at most 20"))?;
    Ok((i, p))
}

fn main() {
    let Args {
        preset,
        deals,
        opponent,
        searches,
        tempers,
    } = clap::Parser::parse();
    let opponent = opponent.as_str();
    let rules = preset.ruleset();
    let n = rules.players as usize;
    let mut names: Vec<String> = [
        "noise 0.5",
        "noise 0.9",
        "adaptive",
        "policy",
        "none",
        "reader",
    ]
    .map(String::from)
    .to_vec();
    names.extend(searches.iter().map(|(i, s)| format!("search {i} ^{s}")));
    let models = names.len();
    // Tempered columns for the reader and each search model, in that order.
    for model in std::iter::once("reader".to_string())
        .chain(searches.iter().map(|(i, s)| format!("search {i} ^{s}")))
    {
        names.extend(tempers.iter().map(|t| format!("{model} ≥{t}")));
    }
    let columns = names.len();
    let mut score = vec![0.0f64; columns];
    let mut effective = vec![0.0f64; columns];
    let mut decisions = 0.0;
    for d in 0..deals {
        let dealer = (d % n as u64) as usize;
        let mut deal = Deal::random(rules, dealer, &mut ChaCha8Rng::seed_from_u64(1000 + d));
        let mut bots: Vec<_> = (0..n)
            .map(|s| torite_bots::make_bot(opponent, d * 7 + s as u64).expect("checked above"))
            .collect();
        let mut inference = vec![
            Inference::new().noise(0.5),
            Inference::new().noise(0.9),
            Inference::adaptive(),
            Inference::new().with_policy(),
            // "none": never asked, it keeps each model at its column's index.
            Inference::new(),
            Inference::new().with_reader(),
        ];
        inference.extend(
            searches
                .iter()
                .map(|(i, s)| Inference::new().with_search(*i, *s)),
        );
        let mut rng = ChaCha8Rng::seed_from_u64(d);
        while !deal.is_over() {
            let seat = deal.to_act();
            if seat == 0 {
                let view = View::new(&deal, 0);
                for m in &mut inference {
                    m.observe(&view);
                }
                let unseen = view.unseen();
                if !unseen.is_empty() && deal.tricks_completed() > 0 {
                    let worlds = Worlds::new(view);
                    let dealt: Vec<Deal> = (0..POOL).map(|_| worlds.sample(&mut rng)).collect();
                    // The reader's and each search model's log-likelihoods, for their tempered columns.
                    let mut searched = Vec::new();
                    for k in 0..columns {
                        let weighted: Vec<(Deal, f64)> = match k {
                            0 | 1 | 3 | 5.. => {
                                let (lls, share) = if k < models {
                                    let lls: Vec<f64> = dealt
                                        .iter()
                                        .map(|w| inference[k].log_likelihood(&view, w))
                                        .collect();
                                    if k >= 5 {
                                        searched.push(lls.clone());
                                    }
                                    (lls, 0.0)
                                } else {
                                    let t = k - models;
                                    (
                                        searched[t / tempers.len()].clone(),
                                        tempers[t % tempers.len()],
                                    )
                                };
                                dealt
                                    .iter()
                                    .cloned()
                                    .zip(tempered_weights(&lls, share))
                                    .collect()
                            }
                            2 => match inference[2].pool(&view, POOL, &mut rng, || true) {
                                Some(pool) => {
                                    pool.weighted().map(|(w, x)| (w.clone(), x)).collect()
                                }
                                None => dealt.iter().cloned().map(|w| (w, 1.0)).collect(),
                            },
                            _ => dealt.iter().cloned().map(|w| (w, 1.0)).collect(),
                        };
                        let total: f64 = weighted.iter().map(|(_, w)| w).sum();
                        let squares: f64 = weighted.iter().map(|(_, w)| w * w).sum();
                        effective[k] += total * total / squares;
                        let mut sum = 0.0;
                        for card in unseen.iter() {
                            let owner = (0..n).find(|o| deal.hand(*o).contains(card));
                            let share = weighted
                                .iter()
                                .filter(|(w, _)| owner.is_some_and(|o| w.hand(o).contains(card)))
                                .map(|(_, x)| x)
                                .sum::<f64>()
                                / total;
                            sum += (share * 0.99 + 0.01 / (n - 1) as f64).ln();
                        }
                        score[k] += sum / unseen.len() as f64;
                    }
                    decisions += 1.0;
                }
            }
            torite_bots::step(&mut deal, bots[seat].as_mut()).expect("a legal action");
        }
    }
    println!(
        "{}, {deals} deals of {opponent}, {decisions} decisions of seat 0:",
        preset.id()
    );
    for k in 0..columns {
        println!(
            "  {:<14} mean log share of the true owner {:+.4}, effective worlds {:.1} of {POOL}",
            names[k],
            score[k] / decisions,
            effective[k] / decisions
        );
    }
}
