//! The solver's own tests (the public API is tested in `tests/solver.rs`).

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use torite_core::Preset;
use torite_core::shuffle::below;

use super::*;

/// A deal of `preset` after random legal actions, with `left` tricks still to play.
fn late_position(preset: Preset, seed: u64, left: usize) -> Deal {
    let rules = preset.ruleset();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut deal = Deal::random(rules, 0, &mut rng);
    while rules.tricks() - deal.tricks_completed() > left || deal.phase() != Phase::Play {
        let legal = deal.legal_actions();
        let action = legal.nth(below(&mut rng, legal.len() as u32) as usize);
        deal.apply_unchecked(action.expect("a deal in progress has a legal action"));
    }
    deal
}

/// Middler with joker deals 121 card points, not the 157 of the 36-card pack: the highest
/// seat's own points, its best score, are bounded by the rules' total.
#[test]
fn own_points_bounds_are_the_deal_total() {
    let deal = late_position(Preset::MiddlerJoker, 4, 3);
    let mut solver = Solver::new();
    for root in 0..deal.players() {
        solver.start(&deal, root);
        assert_eq!(solver.bounds(&deal), (0.0, 121.0));
        let value = solver.solve(&deal, root);
        assert!((0.0..=121.0).contains(&value), "{value}");
    }
}

/// The other Jass games' rewards keep their bounds.
#[test]
fn jass_bounds_are_the_score_bounds() {
    for (preset, bounds) in [
        (Preset::MittlereJass, (-2.0, 2.0)),
        (Preset::MolotowJass, (-3.0, 3.0)),
        (Preset::PlusMinusJass4, (0.0, 2.0)),
    ] {
        let deal = late_position(preset, 1, 3);
        let mut solver = Solver::new();
        solver.start(&deal, 0);
        assert_eq!(solver.bounds(&deal), bounds, "{preset}");
    }
}
