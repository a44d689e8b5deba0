//! Benchmarks: ISMCTS simulations per second (the throughput column counts simulations).
//!
//! Each measurement is one decision of a fixed number of iterations from the second seat's
//! first decision of a random deal (so the tree, the sampler and the rollouts are all in it),
//! for `ismcts` and for its variants with equivalent cards merged (`ismcts-eq/…`), with
//! ducking rollouts (`ismcts-duck/…`), with rollouts that play a declared Lot out
//! (`ismcts-lot/…`; in the second seat's first decision of `mini-misere-4` the Lot may be
//! declared), with every seat valuing a deal against the table (`ismcts-table/…`), with every
//! rollout card drawn from the learned policy (`policy-rollouts/…`) and with the policy's bias
//! at the other seats' nodes (`policy-prior/…`).
//! Speed goals: 500,000 simulations per second on `mini-misere-4`, 250,000 on
//! `mittlere-jass`, single-threaded.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use torite_bots::ismcts::{DEFAULT_ITERATIONS, DUCK_PERMILLE, Ismcts};
use torite_bots::{Bot, Budget};
use torite_core::{Action, Deal, Preset, View};

fn simulations(c: &mut Criterion) {
    let mut group = c.benchmark_group("ismcts");
    group.sample_size(20);
    for preset in [Preset::MiniMisere4, Preset::MittlereJass] {
        let rules = preset.ruleset();
        let mut deal = Deal::random(rules, 0, &mut ChaCha8Rng::seed_from_u64(1));
        let lead = deal.legal_plays().first().expect("a card to lead");
        deal.apply(Action::Play(lead)).expect("a legal lead");
        let iterations = DEFAULT_ITERATIONS;
        let plain = Ismcts::with_budget(1, Budget::Iterations(iterations));
        for (name, mut bot) in [
            ("", plain.clone()),
            ("ismcts-eq/", plain.clone().with_merging()),
            ("ismcts-duck/", plain.clone().with_ducking(DUCK_PERMILLE)),
            ("ismcts-lot/", plain.clone().with_lot_rollouts()),
            ("ismcts-table/", plain.clone().with_table_rewards()),
            ("policy-rollouts/", plain.clone().with_policy_rollouts(1000)),
            ("policy-prior/", plain.clone().with_policy_prior(1.0)),
        ] {
            group.throughput(Throughput::Elements(u64::from(iterations)));
            group.bench_function(format!("{name}{}/{iterations}", preset.id()), |b| {
                b.iter(|| black_box(bot.act(&View::new(black_box(&deal), deal.to_act()))));
            });
        }
    }
    group.finish();
}

criterion_group!(benches, simulations);
criterion_main!(benches);
