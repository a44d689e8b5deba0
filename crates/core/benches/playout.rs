//! Benchmarks: random playouts (shuffle included), legal-move generation and perft.

use criterion::{Criterion, criterion_group, criterion_main};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use std::hint::black_box;
use torite_core::{Deal, Preset, perft, random_playout};

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_deal");
    for preset in [
        Preset::MiniMisere4,
        Preset::MittlereJass,
        Preset::Mura4,
        Preset::MiniMisere5_1989,
    ] {
        let rules = preset.ruleset();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        group.bench_function(preset.id(), |b| {
            b.iter(|| {
                let mut deal = Deal::random(rules, 0, &mut rng);
                black_box(random_playout(&mut deal, &mut rng))
            });
        });
    }
    group.finish();
}

fn legal_actions(c: &mut Criterion) {
    let rules = Preset::MittlereJass.ruleset();
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    // Positions from the middle of random deals.
    let positions: Vec<Deal> = (0..64)
        .map(|_| {
            let mut deal = Deal::random(rules, 0, &mut rng);
            for _ in 0..13 {
                let a = deal.legal_actions().nth(0).expect("deal in progress");
                deal.apply_unchecked(a);
            }
            deal
        })
        .collect();
    c.bench_function("legal_actions/mittlere-jass", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|d| black_box(d).legal_actions().len())
                .sum::<usize>()
        });
    });
}

fn perft_bench(c: &mut Criterion) {
    let rules = Preset::MiniMisere4.ruleset();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let deal = Deal::random(rules, 0, &mut rng);
    c.bench_function("perft/mini-misere-4/depth-5", |b| {
        b.iter(|| perft(black_box(&deal), 5))
    });
}

criterion_group!(benches, playouts, legal_actions, perft_bench);
criterion_main!(benches);
