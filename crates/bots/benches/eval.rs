//! Benchmarks of the learned evaluation ([`torite_bots::eval`]): one evaluation of every
//! seat of a position (the leaf value of `ismcts-eval`), and one 10,000-iteration decision of
//! `ismcts-eval` beside the same decision of `ismcts` (the throughput column counts
//! simulations), from the second seat's first decision of a random deal.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use torite_bots::eval::Model;
use torite_bots::ismcts::{DEFAULT_ITERATIONS, Ismcts};
use torite_bots::{Bot, Budget};
use torite_core::{Action, Deal, Preset, View};

fn first_lead(preset: Preset) -> Deal {
    let mut deal = Deal::random(preset.ruleset(), 0, &mut ChaCha8Rng::seed_from_u64(1));
    let lead = deal.legal_plays().first().expect("a card to lead");
    deal.apply(Action::Play(lead)).expect("a legal lead");
    deal
}

fn evaluation(c: &mut Criterion) {
    let mut group = c.benchmark_group("eval");
    for preset in [Preset::MiniMisere4, Preset::MittlereJass, Preset::Mura4] {
        let deal = first_lead(preset);
        let model = Model::for_rules(deal.rules()).expect("a trained model");
        group.bench_function(format!("{}/values", preset.id()), |b| {
            b.iter(|| black_box(model.values(black_box(&deal))));
        });
    }
    group.finish();
}

fn decisions(c: &mut Criterion) {
    let mut group = c.benchmark_group("eval-decision");
    group.sample_size(20);
    for preset in [Preset::MiniMisere4, Preset::MittlereJass] {
        let deal = first_lead(preset);
        let iterations = DEFAULT_ITERATIONS;
        group.throughput(Throughput::Elements(u64::from(iterations)));
        for (name, mut bot) in [
            (
                "ismcts",
                Ismcts::with_budget(1, Budget::Iterations(iterations)),
            ),
            (
                "ismcts-eval",
                Ismcts::with_budget(1, Budget::Iterations(iterations)).with_eval(),
            ),
        ] {
            group.bench_function(format!("{}/{name}-{iterations}", preset.id()), |b| {
                b.iter(|| black_box(bot.act(&View::new(black_box(&deal), deal.to_act()))));
            });
        }
    }
    group.finish();
}

criterion_group!(benches, evaluation, decisions);
criterion_main!(benches);
