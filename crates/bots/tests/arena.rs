//! The duplicate arena: confidence intervals computed correctly, results independent of the
//! number of threads, every seat rotation played.

use torite_bots::arena::{self, ArenaConfig, Unit, mean_ci95};
use torite_core::Preset;

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
        bots: vec!["heuristic".into(), "random".into()],
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
