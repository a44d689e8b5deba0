//! Benchmarks of the strongest search's parts: weighing a world by the other seats' play
//! ([`torite_bots::inference`], under the rule of thumb, the learned policy, the learned
//! reader and a search as `ismcts-read`'s model; the throughput column counts worlds), at one
//! position and in pools at every decision of a deal, one `ismcts-inf` decision (simulations),
//! and a max^n ending ([`torite_bots::ismcts::maxn`]).
//!
//! Each position is a random deal played by `heuristic` bots for a third of its cards, watched
//! from the start by the seat then to act, so that its history holds choices to weigh.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use torite_bots::inference::{Inference, READ_ITERATIONS, READ_SHARPNESS};
use torite_bots::ismcts::{DEFAULT_ITERATIONS, Ismcts, maxn};
use torite_bots::{Bot, Budget, make_bot};
use torite_core::{Deal, Preset, View, Worlds};

/// A deal of `preset` played by `heuristic` bots until `left` cards are held in all, and the
/// inference of the seat then to act, which has watched it at each of its turns.
fn position(preset: Preset, left: usize) -> (Deal, Inference) {
    let rules = preset.ruleset();
    let mut deal = Deal::random(rules, 0, &mut ChaCha8Rng::seed_from_u64(1));
    let n = deal.players();
    let mut bots: Vec<_> = (0..n)
        .map(|s| make_bot("heuristic", s as u64).expect("a bot"))
        .collect();
    let mut watchers: Vec<Inference> = (0..n).map(|_| Inference::new()).collect();
    let held = |d: &Deal| (0..n).map(|s| d.hand(s).len()).sum::<usize>();
    while held(&deal) > left {
        let seat = deal.to_act();
        watchers[seat].observe(&View::new(&deal, seat));
        torite_bots::step(&mut deal, bots[seat].as_mut()).expect("legal");
    }
    let seat = deal.to_act();
    let mut watcher = watchers.swap_remove(seat);
    watcher.observe(&View::new(&deal, seat));
    (deal, watcher)
}

fn weighing(c: &mut Criterion) {
    let mut group = c.benchmark_group("inference");
    group.sample_size(20);
    for preset in [Preset::MiniMisere4, Preset::MolotowJass] {
        let cards = preset.ruleset().deck().len();
        let (deal, mut inference) = position(preset, cards * 2 / 3);
        let view = View::new(&deal, deal.to_act());
        let worlds = Worlds::new(view);
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let pool: Vec<Deal> = (0..64).map(|_| worlds.sample(&mut rng)).collect();
        group.throughput(Throughput::Elements(pool.len() as u64));
        group.bench_function(format!("{}/weigh-64-worlds", preset.id()), |b| {
            b.iter(|| {
                pool.iter()
                    .map(|w| inference.log_likelihood(&view, black_box(w)))
                    .sum::<f64>()
            });
        });
        // The same worlds weighed with the learned policy as the model of the card plays. Each
        // round starts from an inference that has read nothing yet: it keeps what it read for
        // the deal (by each seat's starting hand), as the reader and the search do.
        let learned = inference.clone().with_policy();
        group.bench_function(format!("{}/weigh-64-worlds-policy", preset.id()), |b| {
            b.iter_batched(
                || learned.clone(),
                |mut learned| {
                    pool.iter()
                        .map(|w| learned.log_likelihood(&view, black_box(w)))
                        .sum::<f64>()
                },
                BatchSize::SmallInput,
            );
        });
        // The same worlds weighed with the learned reader as the model of the card plays.
        let reader = inference.clone().with_reader();
        group.bench_function(format!("{}/weigh-64-worlds-reader", preset.id()), |b| {
            b.iter_batched(
                || reader.clone(),
                |mut reader| {
                    pool.iter()
                        .map(|w| reader.log_likelihood(&view, black_box(w)))
                        .sum::<f64>()
                },
                BatchSize::SmallInput,
            );
        });
        // The same worlds weighed with a search as the model of the card plays (`ismcts-read`):
        // 8 worlds, for each costs one search per choice logged. Each round starts from an
        // inference that has read nothing yet: it keeps what it read for the deal.
        let read = inference
            .clone()
            .with_search(READ_ITERATIONS, READ_SHARPNESS);
        group.throughput(Throughput::Elements(8));
        group.bench_function(format!("{}/weigh-8-worlds-search", preset.id()), |b| {
            b.iter_batched(
                || read.clone(),
                |mut read| {
                    pool[..8]
                        .iter()
                        .map(|w| read.log_likelihood(&view, black_box(w)))
                        .sum::<f64>()
                },
                BatchSize::SmallInput,
            );
        });
        let iterations = DEFAULT_ITERATIONS;
        group.throughput(Throughput::Elements(u64::from(iterations)));
        group.bench_function(format!("{}/ismcts-inf-{iterations}", preset.id()), |b| {
            b.iter(|| {
                let mut bot = Ismcts::with_budget(1, Budget::Iterations(iterations))
                    .with_inference(inference.clone())
                    .with_endings(torite_bots::ismcts::INF_ENDINGS);
                black_box(bot.act(&View::new(black_box(&deal), deal.to_act())))
            });
        });
        let (ending, _) = position(preset, deal.players() * 2);
        group.throughput(Throughput::Elements(1));
        group.bench_function(format!("{}/maxn-2-tricks", preset.id()), |b| {
            b.iter(|| black_box(maxn(black_box(&ending))));
        });
    }
    group.finish();
}

/// Every decision of a deal of `preset` played by `heuristic` bots: the deal as it stood.
fn decisions(preset: Preset) -> Vec<Deal> {
    let mut deal = Deal::random(preset.ruleset(), 0, &mut ChaCha8Rng::seed_from_u64(3));
    let mut bots: Vec<_> = (0..deal.players())
        .map(|s| make_bot("heuristic", s as u64).expect("a bot"))
        .collect();
    let mut decisions = Vec::new();
    while !deal.is_over() {
        let seat = deal.to_act();
        decisions.push(deal.clone());
        torite_bots::step(&mut deal, bots[seat].as_mut()).expect("legal");
    }
    decisions
}

/// Weighs a pool of `size` worlds at each decision with a choice among the `decisions` of one
/// deal, every seat watching from the start with a clone of `model`, as a bot's search does;
/// returns the worlds weighed.
fn pools_over_a_deal(decisions: &[Deal], model: &Inference, size: usize) -> usize {
    let n = decisions.first().map_or(0, Deal::players);
    let mut watchers = vec![model.clone(); n];
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let mut weighed = 0;
    for deal in decisions {
        let view = View::new(deal, deal.to_act());
        let watcher = &mut watchers[deal.to_act()];
        watcher.observe(&view);
        if view.legal_actions().len() < 2 {
            continue;
        }
        if let Some(pool) = watcher.pool(&view, size, &mut rng, || true) {
            weighed += pool.len();
        }
    }
    weighed
}

/// The cost of a world over whole deals: what a bot pays, where the readings kept by starting
/// hand are found again more often the fewer cards are unseen.
fn over_a_deal(c: &mut Criterion) {
    let mut group = c.benchmark_group("inference");
    group.sample_size(10);
    for preset in [
        Preset::MiniMisere4,
        Preset::MolotowJass,
        Preset::PlusMinusJass3,
    ] {
        let decisions = decisions(preset);
        for (name, model) in [
            ("rule", Inference::new()),
            ("reader", Inference::new().with_reader()),
        ] {
            let worlds = pools_over_a_deal(&decisions, &model, 256);
            group.throughput(Throughput::Elements(worlds as u64));
            group.bench_function(
                format!("{}/pools-of-256-over-a-deal-{name}", preset.id()),
                |b| b.iter(|| pools_over_a_deal(black_box(&decisions), &model, 256)),
            );
        }
    }
    group.finish();
}

criterion_group!(benches, weighing, over_a_deal);
criterion_main!(benches);
