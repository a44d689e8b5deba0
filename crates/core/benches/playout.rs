//! Benchmarks: random playouts (shuffle included), legal-move generation, perft, and dealing
//! the worlds of a view.

use criterion::{Criterion, criterion_group, criterion_main};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use std::hint::black_box;
use torite_core::{Action, CardSet, Deal, Preset, View, Worlds, perft, random_playout};

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

/// Worlds of a view with two void groups (seat 1 void in spades, seat 2 in hearts, seen by
/// seat 0 of mini-misere-4), and of a Middler view after a follow that did not beat.
fn worlds(c: &mut Criterion) {
    let deal = |preset: Preset, dealer: usize, hands: &[&str], actions: &str| {
        let hands: Vec<CardSet> = hands.iter().map(|h| h.parse().expect("a hand")).collect();
        let mut deal = Deal::new(preset.ruleset(), dealer, &hands).expect("a deal");
        for action in actions.split_whitespace() {
            let action: Action = action.parse().expect("an action");
            deal.apply(action).expect("legal");
        }
        deal
    };
    let positions = [
        (
            "mini-misere-4/two-voids",
            deal(
                Preset::MiniMisere4,
                3,
                &[
                    "AS AH AD KD QD JD",
                    "KH QH JH TD 2D AC",
                    "KS QS JS KC QC JC",
                    "TS 2S TH 2H TC 2C",
                ],
                "AS AC KS TS AH KH KC TH",
            ),
        ),
        (
            "middler/no-beat",
            deal(
                Preset::Middler,
                2,
                &[
                    "KS 6S 7H 8H 9H TH JH QH KH AH 6D 7D",
                    "7S 8S 9S AS 8D 9D TD JD QD KD AD 6C",
                    "QS TS JS 6H 7C 8C 9C TC JC QC KC AC",
                ],
                "KS AS TS 9S JS 6S",
            ),
        ),
    ];
    let mut group = c.benchmark_group("worlds");
    for (name, deal) in &positions {
        let view = View::new(deal, 0);
        group.bench_function(format!("{name}/new"), |b| {
            b.iter(|| black_box(Worlds::new(black_box(view))))
        });
        let worlds = Worlds::new(view);
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        group.bench_function(format!("{name}/sample"), |b| {
            b.iter(|| black_box(worlds.sample(&mut rng)))
        });
    }
    group.finish();
}

criterion_group!(benches, playouts, legal_actions, perft_bench, worlds);
criterion_main!(benches);
