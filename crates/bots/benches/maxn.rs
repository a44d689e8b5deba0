//! Benchmarks: the exact max^n reference's hardest decision, the first of a deal.
//!
//! `maxn/PRESET/first-decision`: the max^n choice of the seat to act in a whole deal of each
//! Mini Misère preset (every card in every hand, the Lot open where the preset has it), from
//! an empty table; each iteration takes the next of 8 fixed random deals, so the figure is the
//! mean over that mix. Goal: about a second at most on the development machine, so that the
//! reference can play hundreds of deals in the strength runs. Later decisions of a deal reuse
//! the table and take a fraction of that.

use std::hint::black_box;

use criterion::{Criterion, SamplingMode, criterion_group, criterion_main};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use torite_bots::solver::maxn::MaxN;
use torite_core::{Deal, Preset};

fn first_decision(c: &mut Criterion) {
    let mut group = c.benchmark_group("maxn");
    group.sample_size(10);
    // Ten decisions a preset, one a sample: the largest deals take seconds each.
    group.sampling_mode(SamplingMode::Flat);
    for preset in [
        Preset::MiniMisere3,
        Preset::MiniMisere4,
        Preset::MiniMisere4_1989,
        Preset::MiniMisere5,
        Preset::MiniMisere5_1989,
        Preset::MiniMisere6,
    ] {
        let deals: Vec<Deal> = (0..8)
            .map(|seed| Deal::random(preset.ruleset(), 0, &mut ChaCha8Rng::seed_from_u64(seed)))
            .collect();
        let mut next = 0;
        group.bench_function(format!("{}/first-decision", preset.id()), |b| {
            b.iter(|| {
                let deal = &deals[next % deals.len()];
                next += 1;
                black_box(MaxN::new().best_action(black_box(deal)))
            });
        });
    }
    group.finish();
}

criterion_group!(benches, first_decision);
criterion_main!(benches);
