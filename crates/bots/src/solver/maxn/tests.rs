//! The max^n search against hand-built positions, a plain search of every line, and the
//! paranoid solver.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use torite_core::shuffle::below;
use torite_core::{CardSet, Preset};

use super::*;
use crate::solver::Solver;

const MINI_MISERE: [Preset; 6] = [
    Preset::MiniMisere4,
    Preset::MiniMisere4_1989,
    Preset::MiniMisere5,
    Preset::MiniMisere5_1989,
    Preset::MiniMisere6,
    Preset::MiniMisere3,
];

/// A `preset` deal played at random until at most `left` tricks remain; the Lot is declared
/// at random in one deal of four (a failed Lot ends most deals early).
fn late_position(preset: Preset, seed: u64, left: usize) -> Deal {
    let rules = preset.ruleset();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut deal = Deal::random(rules, (seed % 3) as usize, &mut rng);
    while !deal.is_over()
        && (rules.tricks() - deal.tricks_completed() > left || deal.phase() != Phase::Play)
    {
        let actions: Vec<Action> = deal
            .legal_actions()
            .iter()
            .filter(|a| seed.is_multiple_of(4) || *a != Action::Lot)
            .collect();
        let action = actions[below(&mut rng, actions.len() as u32) as usize];
        deal.apply_unchecked(action);
    }
    deal
}

/// max^n by the same tie rule over every line: no table, no equivalent cards.
fn plain(deal: &Deal) -> Values {
    if deal.is_over() {
        return deal_rewards(deal);
    }
    let seat = deal.to_act();
    let mut best: Option<Values> = None;
    for action in deal.legal_actions().iter() {
        let mut child = deal.clone();
        child.apply_unchecked(action);
        let v = plain(&child);
        if best.is_none_or(|b| better(&v, &b, seat, deal.players())) {
            best = Some(v);
        }
    }
    best.expect("legal actions")
}

fn hands(text: &[&str]) -> Vec<CardSet> {
    text.iter().map(|h| h.parse().expect("a hand")).collect()
}

/// A seat holding a whole suit, on lead, wins every trick: it declares the Lot and scores the
/// success points, and nobody else scores.
#[test]
fn a_sure_lot_is_declared() {
    let deal = Deal::new(
        Preset::MiniMisere4.ruleset(),
        0,
        &hands(&[
            "AH KH QH JH TH 2H",
            "AS KS QS JS TS 2S",
            "AD KD QD JD TD 2D",
            "AC KC QC JC TC 2C",
        ]),
    )
    .expect("a deal");
    assert_eq!(deal.to_act(), 1);
    let (action, v) = MaxN::new().best_action(&deal);
    assert_eq!(action, Action::Lot);
    assert_eq!(&v[..4], &[0.0, 12.0, 0.0, 0.0]);
}

/// Without the Lot the same hands are the worst there are for the leader: six tricks score 0,
/// and the others, each void in spades, score 6 for no trick.
#[test]
fn without_the_lot_the_whole_suit_takes_every_trick() {
    let mut rules = Preset::MiniMisere4.ruleset();
    rules.lot = None;
    let deal = Deal::new(
        rules,
        0,
        &hands(&[
            "AH KH QH JH TH 2H",
            "AS KS QS JS TS 2S",
            "AD KD QD JD TD 2D",
            "AC KC QC JC TC 2C",
        ]),
    )
    .expect("a deal");
    let v = MaxN::new().values(&deal);
    assert_eq!(&v[..4], &[6.0, 0.0, 6.0, 6.0]);
}

/// The table, the relative-rank keys and the equivalent cards change nothing: every seat's
/// value is that of the plain search of every line, in every Mini Misère preset.
#[test]
fn agrees_with_the_plain_search_of_every_line() {
    let mut checked = 0;
    for preset in MINI_MISERE {
        let mut search = MaxN::new(); // kept across positions: its entries stay valid
        for seed in 0..10 {
            for left in [2, 3] {
                let deal = late_position(preset, seed, left);
                if deal.is_over() {
                    continue;
                }
                assert_eq!(
                    search.values(&deal),
                    plain(&deal),
                    "{preset} seed {seed}: {deal:?}"
                );
                let (action, v) = search.best_action(&deal);
                assert!(deal.is_legal(action));
                let mut child = deal.clone();
                child.apply_unchecked(action);
                assert_eq!(v, plain(&child), "{preset} seed {seed}");
                checked += 1;
            }
        }
    }
    assert!(checked >= 100, "only {checked} positions");
}

/// The first decisions of a deal, the Lot's included, against the plain search, in the
/// smallest decks (a whole deal of seven tricks takes the plain search too long).
#[test]
fn agrees_with_the_plain_search_from_four_tricks_out() {
    for preset in [
        Preset::MiniMisere4,
        Preset::MiniMisere3,
        Preset::MiniMisere5,
    ] {
        for seed in 0..2 {
            let deal = late_position(preset, 100 + seed, 4);
            if !deal.is_over() {
                assert_eq!(MaxN::new().values(&deal), plain(&deal), "{preset} {seed}");
            }
        }
    }
}

/// The paranoid solver's value is what a seat is sure of whatever the others do, so under
/// max^n, where the seat plays its best reply to the others' play, it scores at least that;
/// on the last trick, where nobody has a choice, the two are equal.
#[test]
fn every_seat_scores_at_least_its_paranoid_value() {
    let mut solver = Solver::new();
    let mut search = MaxN::new();
    for preset in MINI_MISERE {
        for seed in 0..6 {
            for left in [1, 3, 4] {
                let deal = late_position(preset, 7 + seed, left);
                if deal.is_over() {
                    continue;
                }
                let v = search.values(&deal);
                for (seat, own) in v.iter().enumerate().take(deal.players()) {
                    let sure = solver.solve(&deal, seat);
                    if left == 1 && deal.current_trick().is_empty() {
                        assert_eq!(*own, sure, "{preset} seed {seed} seat {seat}");
                    } else {
                        assert!(*own >= sure, "{preset} seed {seed} seat {seat}");
                    }
                }
            }
        }
    }
}

/// Whole deals of every Mini Misère preset are solved from the first decision.
#[test]
fn solves_whole_deals() {
    for preset in MINI_MISERE {
        let deal = Deal::random(preset.ruleset(), 0, &mut ChaCha8Rng::seed_from_u64(5));
        let mut search = MaxN::new();
        let (action, v) = search.best_action(&deal);
        assert!(deal.is_legal(action), "{preset}");
        let (low, high) = preset.ruleset().score_bounds();
        for own in v.iter().take(deal.players()) {
            assert!((f64::from(low)..=f64::from(high)).contains(own), "{preset}");
        }
        assert!(search.table_len() > 0);
    }
}

/// Ties go to the seat's own score first, then to the lowest total for the others, then to
/// the engine's first action.
#[test]
fn the_tie_rule() {
    let a = [3.0, 1.0, 2.0, 0.0, 0.0, 0.0];
    let b = [3.0, 2.0, 2.0, 0.0, 0.0, 0.0];
    assert!(better(&a, &b, 0, 3));
    assert!(!better(&b, &a, 0, 3));
    assert!(!better(&a, &a, 0, 3)); // the first of equals is kept
    assert!(better(&b, &a, 1, 3));
}

/// Outside Mini Misère the search declines the rules.
#[test]
fn handles_the_trick_table_games_only() {
    for preset in Preset::ALL {
        assert_eq!(
            MaxN::handles(&preset.ruleset()),
            MINI_MISERE.contains(&preset),
            "{preset}"
        );
    }
}

/// Playing plain deals out on the bare hands changes nothing: the same values as the search
/// of whole deals, from the first lead of a 1989 deal and from late positions.
#[test]
fn bare_hands_agree_with_whole_deals() {
    for (preset, left) in [
        (Preset::MiniMisere4, 4),
        (Preset::MiniMisere4_1989, 4),
        (Preset::MiniMisere6, 3),
    ] {
        for seed in 0..4 {
            let deal = late_position(preset, 40 + seed, left);
            if deal.is_over() {
                continue;
            }
            let mut whole = MaxN::new();
            whole.start(&deal);
            whole.plain = None;
            let mut bare = MaxN::new();
            assert_eq!(bare.values(&deal), whole.values(&deal), "{preset} {seed}");
            assert!(bare.nodes() < whole.nodes(), "{preset} {seed}");
        }
    }
}
