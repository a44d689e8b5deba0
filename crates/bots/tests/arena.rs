//! The duplicate arena: confidence intervals computed correctly, results independent of the
//! number of threads, every seat rotation played.

use torite_bots::arena::{self, ArenaConfig, Unit, mean_ci95};
use torite_core::{Game, Preset, SeatSet, Seeds, Step, Table};

#[test]
fn mean_and_interval_of_a_known_sample() {
    // 1..=100: mean 50.5, sample standard deviation 29.011, so the half-width is
    // 1.96 × 29.011 / 10 = 5.686.
    let sample: Vec<f64> = (1..=100).map(f64::from).collect();
    let (mean, half) = mean_ci95(&sample);
    assert!((mean - 50.5).abs() < 1e-12);
    assert!((half - 5.686).abs() < 0.001, "{half}");
    // A constant sample has no spread; one value has no interval.
    assert_eq!(mean_ci95(&[3.0; 10]), (3.0, 0.0));
    assert!(mean_ci95(&[1.0]).1.is_infinite());
}

#[test]
fn interval_covers_the_true_mean_about_95_percent_of_the_time() {
    // Samples of a fair die (mean 3.5) from a fixed generator: the 95% interval should
    // contain 3.5 in about 95% of 400 repetitions.
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut roll = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % 6 + 1) as f64
    };
    let covered = (0..400)
        .filter(|_| {
            let sample: Vec<f64> = (0..200).map(|_| roll()).collect();
            let (mean, half) = mean_ci95(&sample);
            (mean - 3.5).abs() <= half
        })
        .count();
    assert!((360..=396).contains(&covered), "{covered} of 400");
}

fn config(unit: Unit) -> ArenaConfig {
    ArenaConfig {
        rules: Preset::MittlereJass.ruleset(),
        bots: vec!["heuristic".parse().unwrap(), "random".parse().unwrap()],
        units: 6,
        unit,
        seed: 42,
        keep_records: true,
    }
}

#[test]
fn fixed_seeds_give_the_same_results_on_one_thread_and_many() {
    for unit in [Unit::Deal, Unit::Game] {
        let config = config(unit);
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let serial = one.install(|| arena::run(&config, &|| {})).unwrap();
        let four = rayon::ThreadPoolBuilder::new()
            .num_threads(4)
            .build()
            .unwrap();
        let parallel = four.install(|| arena::run(&config, &|| {})).unwrap();
        let strip = |r: &arena::ArenaResult| {
            r.bots
                .iter()
                .map(|b| (b.name.clone(), b.mean, b.ci95, b.diff, b.win_rate))
                .collect::<Vec<_>>()
        };
        assert_eq!(strip(&serial), strip(&parallel));
        assert_eq!(serial.records, parallel.records);
    }
}

#[test]
fn every_deal_is_played_in_every_rotation_and_replays() {
    let result = arena::run(&config(Unit::Deal), &|| {}).unwrap();
    // 6 deals × 3 rotations, one record each.
    assert_eq!(result.records.len(), 18);
    for rotation in result.records.chunks(3) {
        // The same hands in every rotation of a deal.
        assert!(
            rotation
                .iter()
                .all(|r| r.deals[0].hands == rotation[0].deals[0].hands)
        );
        for record in rotation {
            let text = record.to_json().to_string();
            assert!(torite_core::Record::replay_json(&text).is_ok());
        }
    }
    // Duplicate scoring is zero-sum against the field for two bots.
    let (a, b) = (&result.bots[0], &result.bots[1]);
    assert!((a.diff + b.diff).abs() < 1e-9, "{} {}", a.diff, b.diff);
}

/// Plays `table` on until it has dealt deal `deals` (or the game ends), with legal actions
/// picked in turn, making the seed's draws.
fn play_out(table: &mut Table, deals: usize) {
    let mut k = 0;
    while table.record().deals.len() <= deals {
        match table.next_step() {
            Step::Act { seat } => {
                let legal = table.view(seat).unwrap().legal_actions();
                k += 7;
                let action = legal.nth(k % legal.len()).unwrap();
                table.apply(action).unwrap();
            }
            Step::Draw { .. } => {
                table.draw().unwrap();
            }
            Step::GameOver => break,
        }
    }
}

#[test]
fn deal_unit_n_of_seed_n_is_deal_n_of_table_seed_n() {
    for preset in [
        Preset::MiniMisere4,
        Preset::MolotowJass,
        Preset::MiniMisere5,
    ] {
        let rules = preset.ruleset();
        let n = rules.players as usize;
        let seed = 5;
        let result = arena::run(
            &ArenaConfig {
                rules,
                bots: vec!["random".parse().unwrap()],
                units: 6,
                unit: Unit::Deal,
                seed,
                keep_records: true,
            },
            &|| {},
        )
        .unwrap();
        // A table of the same seed, first dealt by the last seat, played past deal 5.
        let mut table = Table::new(rules, n - 1, seed).unwrap();
        play_out(&mut table, 5);
        assert!(
            table.record().deals.len() > 5,
            "{preset}: the table reached deal 5"
        );
        for (u, rotations) in result.records.chunks(n).enumerate() {
            assert_eq!(rotations.len(), n);
            for record in rotations {
                assert_eq!(record.deals.len(), 1);
                let deal = &record.deals[0];
                assert_eq!(
                    deal.hands,
                    Seeds::hands(seed, &rules, u)[..n],
                    "{preset} {u}"
                );
                assert_eq!(deal.hands, table.record().deals[u].hands, "{preset} {u}");
                assert_eq!(deal.dealer, table.record().deals[u].dealer, "{preset} {u}");
                assert_eq!(deal.dealer, (n - 1 + u) % n);
            }
        }
        // Deal N of seed N is `Seeds::hands(N, rules, N)`.
        assert_eq!(
            result.records[5 * n].deals[0].hands,
            Seeds::hands(5, &rules, 5)[..n]
        );
    }
}

#[test]
fn a_game_unit_is_the_game_a_table_of_its_seed_plays() {
    let rules = Preset::MolotowJass.ruleset();
    let result = arena::run(
        &ArenaConfig {
            rules,
            bots: vec!["random".parse().unwrap()],
            units: 11,
            unit: Unit::Game,
            seed: 1,
            keep_records: true,
        },
        &|| {},
    )
    .unwrap();
    assert_eq!(arena::game_seed(1, 0), 1, "game 0 is table seed 1 itself");
    let mut draws = 0;
    for (g, rotations) in result.records.chunks(4).enumerate() {
        for record in rotations {
            assert!(record.replay().unwrap().report.finished);
            // The same actions at a table of the game's seed give the same record: the same
            // hands, dealers and draws.
            let mut table = Table::new(rules, 3, arena::game_seed(1, g as u64)).unwrap();
            for deal in &record.deals {
                for action in &deal.actions {
                    table.apply(*action).unwrap();
                }
                if let Step::Draw { .. } = table.next_step() {
                    table.draw().unwrap();
                    draws += 1;
                }
            }
            assert_eq!(table.next_step(), Step::GameOver);
            assert_eq!(table.record().deals, record.deals, "game {g}");
        }
    }
    assert!(
        draws > 0,
        "a game of these needs a draw (game 10 of seed 1)"
    );
}

#[test]
fn a_tied_deal_unit_is_settled_by_the_seeds_first_draw() {
    let rules = Preset::MolotowJass.ruleset();
    let result = arena::run(
        &ArenaConfig {
            rules,
            bots: vec!["random".parse().unwrap()],
            units: 476,
            unit: Unit::Deal,
            seed: 2,
            keep_records: true,
        },
        &|| {},
    )
    .unwrap();
    let mut tied = 0;
    for record in &result.records {
        let Some(draw) = record.deals[0].draw else {
            continue;
        };
        assert!(record.replay().is_ok());
        tied += 1;
        let deal = &record.deals[0];
        let mut game = Game::new(rules, deal.dealer).unwrap();
        game.start_deal(&deal.hands).unwrap();
        for action in &deal.actions {
            game.apply(*action).unwrap();
        }
        let seats = SeatSet::from_bits(game.draw_needed().unwrap());
        let mut seeds = Seeds::new(2);
        assert_eq!(Some(draw), seeds.next_draw(seats));
    }
    assert!(tied > 0, "a deal of these is tied (deal 475 of seed 2)");
}
