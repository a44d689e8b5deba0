//! Benchmarks: the exact solver and one PIMC decision.
//!
//! - `solver/mini-misere-4/full-deal`: the exact value of a whole `mini-misere-4` deal (all 24
//!   cards, the Lot included) for the seat on lead, from an empty table; each iteration takes
//!   the next of 32 fixed random deals, so the figure is the mean over that mix (a few deals
//!   take ten times the median).
//! - `solver/mini-misere-4/median-deal`: the one deal of those 32 whose search visits the
//!   median number of positions: the typical whole deal. Goal: under 1 ms.
//! - `solver/mittlere-jass/endgame-5`: the same for `mittlere-jass` positions with five cards in
//!   each hand (seven tricks played at random, trump usually set).
//! - `pimc/mini-misere-4/first-lead`: one default-budget `pimc` decision on the opening lead
//!   (every card solved in every world).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use torite_bots::Bot;
use torite_bots::pimc::Pimc;
use torite_bots::solver::Solver;
use torite_core::shuffle::below;
use torite_core::{Action, Deal, Preset, View};

/// 32 random deals of `preset`, each played at random (never declaring the Lot) for `skip`
/// actions.
fn positions(preset: Preset, skip: usize) -> Vec<Deal> {
    (0..32)
        .map(|seed| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut deal = Deal::random(preset.ruleset(), 0, &mut rng);
            for _ in 0..skip {
                let actions: Vec<Action> = deal
                    .legal_actions()
                    .iter()
                    .filter(|a| *a != Action::Lot)
                    .collect();
                let a = actions[below(&mut rng, actions.len() as u32) as usize];
                deal.apply(a).expect("legal");
            }
            deal
        })
        .collect()
}

fn solve(c: &mut Criterion) {
    let mut group = c.benchmark_group("solver");
    group.sample_size(30);
    for (preset, skip, name) in [
        (Preset::MiniMisere4, 0, "full-deal"),
        (Preset::MittlereJass, 21, "endgame-5"),
    ] {
        let deals = positions(preset, skip);
        let mut solver = Solver::new();
        if skip == 0 {
            let mut by_work: Vec<(u64, &Deal)> = deals
                .iter()
                .map(|deal| {
                    let mut solver = Solver::new();
                    solver.solve(deal, deal.to_act());
                    (solver.nodes(), deal)
                })
                .collect();
            by_work.sort_by_key(|(nodes, _)| *nodes);
            let median = by_work[by_work.len() / 2].1;
            group.bench_function(format!("{}/median-deal", preset.id()), |b| {
                b.iter(|| {
                    solver.clear();
                    black_box(solver.solve(black_box(median), median.to_act()))
                });
            });
        }
        let mut i = 0;
        group.bench_function(format!("{}/{name}", preset.id()), |b| {
            b.iter(|| {
                let deal = &deals[i % deals.len()];
                i += 1;
                solver.clear();
                black_box(solver.solve(black_box(deal), deal.to_act()))
            });
        });
    }
    group.finish();
}

fn pimc(c: &mut Criterion) {
    let mut group = c.benchmark_group("pimc");
    group.sample_size(10);
    let deal = Deal::random(
        Preset::MiniMisere4.ruleset(),
        0,
        &mut ChaCha8Rng::seed_from_u64(1),
    );
    let mut bot = Pimc::new(None, 1);
    group.bench_function("mini-misere-4/first-lead", |b| {
        b.iter(|| black_box(bot.act(&View::new(black_box(&deal), deal.to_act()))));
    });
    group.finish();
}

criterion_group!(benches, solve, pimc);
criterion_main!(benches);
