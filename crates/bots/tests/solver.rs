//! The solver against a plain brute-force minimax on small endings of every game family.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use torite_bots::reward::deal_rewards;
use torite_bots::solver::Solver;
use torite_core::shuffle::below;
use torite_core::{Action, Deal, LotTiming, Preset, Rank, Ranking, Ruleset, Scoring, Seat};

/// Paranoid minimax written plainly: no table, no pruning, no bounds.
fn minimax(deal: &Deal, root: Seat) -> f64 {
    if deal.is_over() {
        return deal_rewards(deal)[root];
    }
    let legal = deal.legal_actions();
    let values = legal.iter().map(|a| {
        let mut child = deal.clone();
        child.apply(a).expect("legal");
        minimax(&child, root)
    });
    if deal.to_act() == root {
        values.fold(f64::NEG_INFINITY, f64::max)
    } else {
        values.fold(f64::INFINITY, f64::min)
    }
}

/// A random deal played at random (never declaring the Lot, which would mostly end it at
/// once) until the seat to act holds at most `cards` cards, then `extra` more random actions
/// (to land inside a trick).
fn ending(rules: Ruleset, seed: u64, cards: usize, extra: usize) -> Deal {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut deal = Deal::random(rules, (seed % u64::from(rules.players)) as usize, &mut rng);
    let mut step = |deal: &mut Deal| {
        let actions: Vec<Action> = deal
            .legal_actions()
            .iter()
            .filter(|a| *a != Action::Lot)
            .collect();
        let a = actions[below(&mut rng, actions.len() as u32) as usize];
        deal.apply(a).expect("legal");
    };
    while !deal.is_over() && deal.hand(deal.to_act()).len() > cards {
        step(&mut deal);
    }
    for _ in 0..extra {
        if deal.is_over() {
            break;
        }
        step(&mut deal);
    }
    deal
}

/// Checks the solver's values, for every root and every action of the seat to act.
fn check(solver: &mut Solver, deal: &Deal) {
    for root in 0..deal.players() {
        assert_eq!(
            solver.solve(deal, root),
            minimax(deal, root),
            "value for seat {root} of {deal:?}"
        );
    }
    if deal.is_over() {
        return;
    }
    let values = solver.action_values(deal);
    let legal: Vec<_> = deal.legal_actions().iter().collect();
    assert_eq!(values.len(), legal.len());
    let mut best = f64::NEG_INFINITY;
    for ((action, value), expected) in values.iter().zip(&legal) {
        assert_eq!(action, expected);
        let mut child = deal.clone();
        child.apply(*action).expect("legal");
        let exact = minimax(&child, deal.to_act());
        assert_eq!(*value, exact, "value of {action} in {deal:?}");
        best = best.max(exact);
    }
    let (action, value) = solver.best_action(deal);
    assert!(deal.is_legal(action));
    assert_eq!(value, best);
    let mut child = deal.clone();
    child.apply(action).expect("legal");
    assert_eq!(minimax(&child, deal.to_act()), best);
}

fn check_endings(rules: Ruleset, cards: usize, seeds: std::ops::Range<u64>) {
    let mut solver = Solver::new();
    for seed in seeds {
        for extra in [0, 1, 2] {
            check(&mut solver, &ending(rules, seed, cards, extra));
        }
    }
}

/// `rules` with only these ranks in the deck.
fn with_ranks(mut rules: Ruleset, ranks: &[Rank]) -> Ruleset {
    rules.ranks = ranks.iter().fold(0, |m, r| m | 1 << r.index());
    rules
}

#[test]
fn mini_misere_endings() {
    check_endings(Preset::MiniMisere4.ruleset(), 3, 0..6);
    check_endings(Preset::MiniMisere5.ruleset(), 2, 0..6);
    check_endings(Preset::MiniMisere5_1989.ruleset(), 2, 0..6);
}

/// The last three tricks of a no-trump trick-table deal are played out on the hands alone;
/// these endings check that shortcut in the variants it accepts: the led low card, none, a plain
/// order other than the natural one, the 1989 deck, no Lot.
#[test]
fn plain_endings_played_out_directly() {
    let mut no_led_low = Preset::MiniMisere4.ruleset();
    no_led_low.led_low_wins = false;
    let mut ten_nine_ace = Preset::MiniMisere4.ruleset();
    ten_nine_ace.ranking = Ranking::TenNineAce;
    let mut no_lot = Preset::MiniMisere4.ruleset();
    no_lot.lot = None;
    for rules in [
        Preset::MiniMisere4.ruleset(),
        Preset::MiniMisere4_1989.ruleset(),
        no_led_low,
        ten_nine_ace,
        no_lot,
    ] {
        check_endings(rules, 3, 6..12);
    }
}

#[test]
fn mini_misere_whole_small_deals_with_the_lot() {
    // Three cards each: the Lot can be declared, and a failed Lot ends the deal early.
    let current = with_ranks(
        Preset::MiniMisere4.ruleset(),
        &[Rank::ACE, Rank::KING, Rank::TWO],
    );
    let mut before_lead = current;
    if let Some(lot) = &mut before_lead.lot {
        lot.timing = LotTiming::BeforeLead;
    }
    let old = with_ranks(
        Preset::MiniMisere4_1989.ruleset(),
        &[Rank::ACE, Rank::NINE, Rank::TWO],
    );
    for rules in [current, before_lead, old] {
        check_endings(rules, 3, 0..4);
    }
}

#[test]
fn jass_whole_small_deals_set_trump() {
    // Jacks, Nines and Eights: trump set during the deal, the Jass trump order and values,
    // and Eights worth 8 when no trump comes.
    let ranks = [Rank::JACK, Rank::NINE, Rank::EIGHT];
    for preset in [
        Preset::MittlereJass,
        Preset::Middler,
        Preset::PlusMinusJass3,
    ] {
        check_endings(with_ranks(preset.ruleset(), &ranks), 4, 0..4);
    }
    // Sevens and Sixes (equal in value) with an Ace and a Ten.
    let low = [Rank::ACE, Rank::TEN, Rank::SEVEN, Rank::SIX];
    check_endings(with_ranks(Preset::MolotowJass.ruleset(), &low), 4, 0..3);
    // Middler with joker: the joker before any trump.
    let joker = with_ranks(Preset::MiddlerJoker.ruleset(), &[Rank::ACE, Rank::SEVEN]);
    check_endings(joker, 3, 0..6);
}

#[test]
fn jass_endings() {
    check_endings(Preset::MittlereJass.ruleset(), 3, 0..4);
    check_endings(Preset::Middler.ruleset(), 3, 0..3);
    check_endings(Preset::MolotowJass.ruleset(), 3, 0..3);
    check_endings(Preset::PlusMinusJass4.ruleset(), 3, 0..3);
    check_endings(Preset::MiddlerJoker.ruleset(), 3, 0..3);
}

#[test]
fn mura_endings() {
    check_endings(Preset::Mura4.ruleset(), 3, 0..5);
    check_endings(Preset::Mura3.ruleset(), 3, 0..4);
    let mut bonus = Preset::Mura4.ruleset();
    bonus.scoring = Scoring::Mura {
        threshold: 4,
        bonus_at: Some(5),
    };
    check_endings(bonus, 3, 0..4);
}

#[test]
fn a_finished_deal_is_worth_its_reward() {
    let deal = ending(Preset::Mura4.ruleset(), 1, 0, 0);
    assert!(deal.is_over());
    let mut solver = Solver::new();
    for seat in 0..4 {
        assert_eq!(solver.solve(&deal, seat), deal_rewards(&deal)[seat]);
    }
}

/// Every position reachable from `deal` at the first trick boundary after `tricks` more
/// completed tricks (or the end of the deal).
fn positions_after(deal: &Deal, tricks: usize, out: &mut Vec<Deal>) {
    if deal.is_over() || (deal.tricks_completed() == tricks && deal.current_trick().is_empty()) {
        out.push(deal.clone());
        return;
    }
    for a in deal.legal_actions().iter() {
        let mut child = deal.clone();
        child.apply(a).expect("legal");
        positions_after(&child, tricks, out);
    }
}

/// Transpositions: positions with the same hands and seat to act but different tallies
/// (tricks won, cards captured) must not share a table entry unless their values agree. Every
/// group of such positions is solved with one solver and checked against brute force.
fn check_transpositions(rules: Ruleset, seed: u64, tricks: usize, max_groups: usize) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let deal = Deal::random(rules, 0, &mut rng);
    let mut all = Vec::new();
    positions_after(&deal, tricks, &mut all);
    let mut groups: std::collections::HashMap<_, Vec<Deal>> = std::collections::HashMap::new();
    for d in all.into_iter().filter(|d| !d.is_over()) {
        let hands: Vec<_> = (0..d.players()).map(|s| d.hand(s)).collect();
        groups
            .entry((hands, d.to_act(), d.trump(), d.lot()))
            .or_default()
            .push(d);
    }
    let mut checked = 0;
    let mut keys: Vec<_> = groups.keys().cloned().collect();
    keys.sort_by_key(|k| format!("{k:?}"));
    for key in keys {
        let group = &groups[&key];
        let tallies = |d: &Deal| {
            let won: Vec<_> = (0..d.players()).map(|s| d.won(s)).collect();
            (d.tricks_won().to_vec(), won)
        };
        let mut distinct: Vec<&Deal> = Vec::new();
        for d in group {
            if !distinct.iter().any(|e| tallies(e) == tallies(d)) {
                distinct.push(d);
            }
        }
        if distinct.len() < 2 {
            continue;
        }
        let mut solver = Solver::new();
        for d in distinct {
            for root in 0..d.players() {
                assert_eq!(
                    solver.solve(d, root),
                    minimax(d, root),
                    "seat {root} of {d:?}"
                );
            }
        }
        checked += 1;
        if checked == max_groups {
            break;
        }
    }
    checked
}

#[test]
fn transpositions_with_different_tallies() {
    let mut mm = with_ranks(
        Preset::MiniMisere4.ruleset(),
        &[Rank::ACE, Rank::KING, Rank::QUEEN, Rank::TWO],
    );
    mm.lot = None;
    let mura = with_ranks(
        Preset::Mura4.ruleset(),
        &[Rank::ACE, Rank::KING, Rank::EIGHT, Rank::SEVEN],
    );
    let jass = with_ranks(
        Preset::MittlereJass.ruleset(),
        &[Rank::JACK, Rank::NINE, Rank::EIGHT],
    );
    let molotow = with_ranks(
        Preset::MolotowJass.ruleset(),
        &[Rank::JACK, Rank::NINE, Rank::EIGHT, Rank::ACE],
    );
    for (rules, seeds) in [(mm, 0..3), (mura, 0..3), (jass, 0..6), (molotow, 0..2)] {
        let mut groups = 0;
        for seed in seeds {
            groups += check_transpositions(rules, seed, 2, 40);
        }
        assert!(groups > 0, "no transposition found for {}", rules.id());
    }
}

/// Jass before trump: positions with the same hands, tricks and card points can still differ
/// in value through the cards whose worth waits for the trump (here the Eights, worth 8 each if
/// no trump ever comes). With every seat dealt three cards of each suit and everyone following,
/// no trump is ever set, and the Eights decide.
#[test]
fn jass_captured_cards_waiting_for_trump() {
    let rules = Preset::MittlereJass.ruleset();
    let mut groups_checked = 0;
    for seed in 0..6 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut hands = [torite_core::CardSet::EMPTY; 3];
        for suit in torite_core::Suit::ALL {
            let mut cards: Vec<_> = torite_core::CardSet::suit(suit)
                .iter()
                .filter(|c| rules.deck().contains(*c))
                .collect();
            torite_core::shuffle::shuffle(&mut rng, &mut cards);
            for (i, card) in cards.into_iter().enumerate() {
                hands[i % 3].insert(card);
            }
        }
        let mut deal = Deal::new(rules, 2, &hands).expect("a deal");
        while deal.tricks_completed() < 7 {
            let legal = deal.legal_actions();
            let action = legal
                .nth(below(&mut rng, legal.len() as u32) as usize)
                .expect("in progress");
            deal.apply(action).expect("legal");
        }
        let mut all = Vec::new();
        positions_after(&deal, 9, &mut all);
        let mut groups: std::collections::HashMap<_, Vec<Deal>> = std::collections::HashMap::new();
        for d in all {
            assert_eq!(d.trump(), torite_core::Trump::None);
            let hands: Vec<_> = (0..3).map(|s| d.hand(s)).collect();
            let points: Vec<_> = (0..3).map(|s| d.card_points(s)).collect();
            groups
                .entry((hands, d.to_act(), d.tricks_won().to_vec(), points))
                .or_default()
                .push(d);
        }
        let eights = torite_core::CardSet::of_ranks(1 << Rank::EIGHT.index());
        for group in groups.values() {
            let counts = |d: &Deal| {
                (0..3)
                    .map(|s| (d.won(s) & eights).len())
                    .collect::<Vec<_>>()
            };
            let Some(other) = group.iter().find(|d| counts(d) != counts(&group[0])) else {
                continue;
            };
            let mut solver = Solver::new();
            for d in [&group[0], other] {
                for root in 0..3 {
                    assert_eq!(
                        solver.solve(d, root),
                        minimax(d, root),
                        "seat {root} of {d:?}"
                    );
                }
            }
            groups_checked += 1;
        }
    }
    assert!(groups_checked > 0);
}

#[test]
fn a_search_cut_short_leaves_the_table_exact() {
    let mut solver = Solver::new();
    for seed in 0..4 {
        // Four cards each: the last three tricks are played out directly, so the first must be
        // searched.
        let deal = ending(Preset::MiniMisere4.ruleset(), seed, 4, 1);
        if deal.is_over() {
            continue;
        }
        assert!(solver.try_action_values(&deal, 5).is_none());
        assert!(solver.try_best_action(&deal, 5).is_none());
        check(&mut solver, &deal);
        let values = solver.try_action_values(&deal, u64::MAX).expect("no limit");
        assert_eq!(values, solver.action_values(&deal));
    }
}

/// Positions after `tricks` tricks of a deal where `declarer` declared the Lot at its first
/// chance and has won every trick so far (it plays a winning card when it has one, the others
/// at random), or `None` if it lost one.
fn lot_survivor(rules: Ruleset, seed: u64, tricks: usize) -> Option<Deal> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut deal = Deal::random(
        rules,
        (seed % 7) as usize % rules.players as usize,
        &mut rng,
    );
    let declarer = (seed / 7) as usize % deal.players();
    while !deal.is_over() && deal.tricks_completed() < tricks {
        let seat = deal.to_act();
        let legal = deal.legal_actions();
        let action = if seat == declarer && legal.lot {
            Action::Lot
        } else if seat == declarer && !legal.cards.is_empty() {
            let view = torite_core::View::new(&deal, seat);
            let winning: Vec<_> = legal.cards.iter().filter(|c| view.wins_with(*c)).collect();
            let pool: Vec<_> = if winning.is_empty() {
                legal.cards.iter().collect()
            } else {
                winning
            };
            Action::Play(pool[below(&mut rng, pool.len() as u32) as usize])
        } else {
            let actions: Vec<Action> = legal.iter().filter(|a| *a != Action::Lot).collect();
            actions[below(&mut rng, actions.len() as u32) as usize]
        };
        deal.apply(action).expect("legal");
    }
    (!deal.is_over() && deal.lot().declarers != 0).then_some(deal)
}

#[test]
fn the_lot_settled_from_the_hands() {
    let mut checked = 0;
    for (preset, tricks) in [
        (Preset::MiniMisere4, 3),
        (Preset::MiniMisere4_1989, 4),
        (Preset::MiniMisere5_1989, 2),
        (Preset::MiniMisere5, 2),
    ] {
        let mut solver = Solver::new();
        for seed in 0..120 {
            if let Some(deal) = lot_survivor(preset.ruleset(), seed, tricks) {
                check(&mut solver, &deal);
                checked += 1;
            }
        }
    }
    assert!(checked > 20, "only {checked} positions");
}

#[test]
fn one_solver_for_several_rulesets() {
    // The same position under two scorings: the table must not carry values across.
    let mut other = Preset::MiniMisere4.ruleset();
    other.scoring = Scoring::TrickTable {
        points: [0, 5, 1, 7, 2, 9, 3, 4],
    };
    let mut solver = Solver::new();
    for seed in 0..3 {
        for rules in [Preset::MiniMisere4.ruleset(), other] {
            let mut deal = Deal::random(rules, 0, &mut ChaCha8Rng::seed_from_u64(seed));
            while !deal.is_over() && deal.hand(deal.to_act()).len() > 3 {
                let a = deal
                    .legal_actions()
                    .iter()
                    .find(|a| *a != Action::Lot)
                    .expect("in progress");
                deal.apply(a).expect("legal");
            }
            for root in 0..4 {
                assert_eq!(solver.solve(&deal, root), minimax(&deal, root));
            }
        }
    }
}
