//! Benchmarks: playing to the score of the game ([`torite_bots::standing`]).
//!
//! - `standing/<preset>/equity-new`: the equity a bot builds once, at its first decision in a
//!   game (the heuristic sample deals, their continuations and the first calibration);
//! - `standing/<preset>/new-standing`: what each new deal of a game costs it (the calibration
//!   of the rescaling from a new standing);
//! - `standing/<preset>/match-play/<iterations>`: one decision of the search playing to the
//!   score, mid-game, its equity warm (compare `ismcts/<preset>/<iterations>`, the same
//!   decision valued by the deal's scores; the throughput column counts simulations).

use std::hint::black_box;

use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use torite_bots::ismcts::{DEFAULT_ITERATIONS, Ismcts};
use torite_bots::standing::{Equity, Standing};
use torite_bots::{Bot, Budget};
use torite_core::{Action, Deal, Preset, View};

/// A game half-way to its target of 25: every seat still has a chance.
fn mid_game(deals: u32) -> Standing {
    Standing {
        totals: [16, 12, 9, 7, 0, 0],
        deals,
    }
}

fn equity(c: &mut Criterion) {
    let mut group = c.benchmark_group("standing");
    group.sample_size(10);
    group.sampling_mode(SamplingMode::Flat);
    let preset = Preset::MiniMisere4;
    let rules = preset.ruleset();
    group.bench_function(format!("{}/equity-new", preset.id()), |b| {
        b.iter(|| black_box(Equity::new(black_box(rules), 1)));
    });
    let mut equity = Equity::new(rules, 1);
    let mut deals = 4;
    group.bench_function(format!("{}/new-standing", preset.id()), |b| {
        b.iter(|| {
            deals += 1;
            equity.set_standing(mid_game(deals));
        });
    });
    let mut deal = Deal::random(rules, 0, &mut ChaCha8Rng::seed_from_u64(1));
    let lead = deal.legal_plays().first().expect("a card to lead");
    deal.apply(Action::Play(lead)).expect("a legal lead");
    let iterations = DEFAULT_ITERATIONS;
    let mut bot = Ismcts::with_budget(1, Budget::Iterations(iterations)).with_match_play();
    bot.observe_standing(&mid_game(5));
    bot.act(&View::new(&deal, deal.to_act()));
    group.throughput(Throughput::Elements(u64::from(iterations)));
    group.bench_function(format!("{}/match-play/{iterations}", preset.id()), |b| {
        b.iter(|| black_box(bot.act(&View::new(black_box(&deal), deal.to_act()))));
    });
    group.finish();
}

criterion_group!(benches, equity);
criterion_main!(benches);
