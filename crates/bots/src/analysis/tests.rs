use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use torite_core::{Action, Deal, Preset, View, Worlds};

use super::*;

/// A seeded deal of `preset` played by heuristic bots until the seat to act holds at most
/// `cards` cards and has a choice (or the deal is over).
fn position(preset: Preset, seed: u64, cards: usize) -> Deal {
    let rules = preset.ruleset();
    let dealer = (seed % u64::from(rules.players)) as usize;
    let mut deal = Deal::random(rules, dealer, &mut ChaCha8Rng::seed_from_u64(seed));
    let mut bot = Heuristic::new(seed);
    while !deal.is_over()
        && (deal.hand(deal.to_act()).len() > cards || deal.legal_actions().len() < 2)
    {
        let action = bot.act(&View::new(&deal, deal.to_act()));
        deal.apply_unchecked(action);
    }
    deal
}

fn point(position: Deal, chosen: Action) -> Point {
    Point {
        deal: 0,
        index: position.tricks_completed() * 8,
        position,
        chosen,
    }
}

/// The heuristic bot's action at `deal`.
fn heuristic_action(deal: &Deal) -> Action {
    Heuristic::new(0).act(&View::new(deal, deal.to_act()))
}

#[test]
fn verdicts_follow_the_thresholds_of_the_score_range() {
    let rules = Preset::MiniMisere4.ruleset();
    assert_eq!(score_range(&rules), 12.0);
    assert_eq!(Verdict::of(0.0, 0.0, &rules), Verdict::Best);
    assert_eq!(Verdict::of(0.2, 0.0, &rules), Verdict::Best);
    assert_eq!(Verdict::of(0.3, 0.0, &rules), Verdict::Inaccuracy);
    assert_eq!(
        Verdict::of(0.3, 0.2, &rules),
        Verdict::Best,
        "within the noise"
    );
    assert_eq!(Verdict::of(1.0, 0.1, &rules), Verdict::Mistake);
    assert_eq!(Verdict::of(2.0, 0.1, &rules), Verdict::Blunder);
    let jass = Preset::MittlereJass.ruleset();
    assert_eq!(score_range(&jass), 4.0);
    assert_eq!(Verdict::of(0.3, 0.0, &jass), Verdict::Mistake);
}

/// With every hand known to the searcher, in end positions the solver settles, the analysis
/// values every action as the solver does, so it ranks them the same and calls the solver's
/// best (or one as good) best.
#[test]
fn with_all_hands_known_the_analysis_ranks_as_the_solver() {
    let mut solver = Solver::new();
    let mut checked = 0;
    for preset in [Preset::MiniMisere4, Preset::Mura4, Preset::MittlereJass] {
        for seed in 0..12 {
            let deal = position(preset, seed, 4);
            if deal.is_over() {
                continue;
            }
            let chosen = heuristic_action(&deal);
            let settings = Settings { worlds: 2, seed: 1 };
            let d = analyse_point(
                &point(deal.clone(), chosen),
                settings,
                Knowledge::AllHands,
                &mut solver,
            );
            let exact = d.exact.clone().expect("an end position is solved");
            assert_eq!(d.method, Method::Solver);
            assert_eq!(d.actions.len(), exact.len());
            for (a, b) in d.actions.iter().zip(&exact) {
                for (c, e) in d.actions.iter().zip(&exact) {
                    assert_eq!(
                        a.value.partial_cmp(&c.value),
                        b.1.partial_cmp(&e.1),
                        "{preset:?} seed {seed}: {} against {}",
                        a.action,
                        c.action
                    );
                }
                assert_eq!(a.stderr, 0.0);
            }
            let top = exact.iter().map(|(_, v)| *v).fold(f64::MIN, f64::max);
            assert_eq!(d.exact_of(d.best), Some(top));
            assert_eq!(d.loss, top - d.exact_of(chosen).expect("legal"));
            checked += 1;
        }
    }
    assert!(checked >= 30, "only {checked} positions");
}

/// The mean score over fresh worlds consistent with the view (not those the analysis saw) of
/// playing `action` at `deal`, the deal then played out by the heuristic bot at every seat.
fn score_over_fresh_worlds(deal: &Deal, action: Action, worlds: u32, seed: u64) -> Vec<f64> {
    let seat = deal.to_act();
    let view = View::new(deal, seat);
    let dealer = Worlds::new(view);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut bot = Heuristic::new(0);
    (0..worlds)
        .map(|_| {
            let mut world = dealer.sample(&mut rng);
            world.apply_unchecked(action);
            rollout(world, seat, &mut bot)
        })
        .collect()
}

/// On seeded deals, the action the analysis calls best scores, over fresh worlds consistent
/// with the seat's view, at least as well as the heuristic bot's action.
#[test]
fn the_best_action_scores_at_least_as_well_as_the_heuristics() {
    let mut solver = Solver::new();
    let mut differences = Vec::new();
    for (preset, cards) in [
        (Preset::MiniMisere4, 6),
        (Preset::MiniMisere4, 4),
        (Preset::MittlereJass, 9),
        (Preset::MittlereJass, 6),
        (Preset::Mura4, 8),
        (Preset::Mura4, 5),
    ] {
        for seed in 0..6 {
            let deal = position(preset, 100 + seed, cards);
            if deal.is_over() {
                continue;
            }
            let chosen = heuristic_action(&deal);
            let settings = Settings {
                worlds: 24,
                seed: 7,
            };
            let d = analyse_point(
                &point(deal.clone(), chosen),
                settings,
                Knowledge::View,
                &mut solver,
            );
            let range = score_range(deal.rules());
            let best = score_over_fresh_worlds(&deal, d.best, 48, 1000 + seed);
            let heuristic = score_over_fresh_worlds(&deal, chosen, 48, 1000 + seed);
            for (b, h) in best.iter().zip(&heuristic) {
                differences.push((b - h) / range);
            }
        }
    }
    let (mean, stderr) = mean_stderr(&differences);
    assert!(
        mean >= -2.0 * stderr,
        "the best action scores {mean:.4} ± {stderr:.4} of the range against the heuristic's"
    );
}

#[test]
fn an_analysis_is_reproducible_from_its_seed() {
    let rules = Preset::MiniMisere4.ruleset();
    let mut deal = Deal::random(rules, 3, &mut ChaCha8Rng::seed_from_u64(5));
    let hands: Vec<_> = (0..4).map(|s| deal.hand(s)).collect();
    let mut actions = Vec::new();
    let mut bot = Heuristic::new(0);
    while !deal.is_over() {
        let a = bot.act(&View::new(&deal, deal.to_act()));
        actions.push(a);
        deal.apply_unchecked(a);
    }
    let record = Record {
        ruleset: rules,
        players: None,
        deals: vec![torite_core::RecordDeal {
            dealer: 3,
            hands,
            actions,
            draw: None,
        }],
    };
    let settings = Settings { worlds: 8, seed: 3 };
    let seats: SeatSet = [1].into_iter().collect();
    let a = analyse(&record, seats, None, settings, &|| {});
    let b = analyse(&record, seats, None, settings, &|| {});
    assert_eq!(a, b);
    assert!(!a.decisions.is_empty());
    assert!(
        a.decisions
            .iter()
            .all(|d| d.seat == 1 && d.actions.len() > 1)
    );
    assert_eq!(a.seats.len(), 1);
    assert_eq!(a.seats[0].decisions, a.decisions.len());
    assert!(a.seats[0].score.is_some());
    let other = analyse(
        &record,
        seats,
        None,
        Settings { worlds: 8, seed: 4 },
        &|| {},
    );
    assert_ne!(a, other, "another seed deals other worlds");
}
