//! `torite bench`: complete random deals per second on one thread, shuffles included.

use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use torite_core::{Deal, Ruleset, random_playout};

/// Plays random deals of `rules` for about `seconds` and returns the JSON line to print.
pub fn run(rules: Ruleset, seconds: f64) -> String {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x746f_7269_7465);
    let budget = Duration::from_secs_f64(seconds);
    let start = Instant::now();
    let (mut deals, mut actions) = (0u64, 0u64);
    let mut dealer = 0;
    loop {
        // Check the clock every batch: reading it is slower than a playout.
        for _ in 0..256 {
            let mut deal = Deal::random(rules, dealer, &mut rng);
            actions += u64::from(random_playout(&mut deal, &mut rng));
            dealer = (dealer + 1) % rules.players as usize;
        }
        deals += 256;
        if start.elapsed() >= budget {
            break;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    serde_json::json!({
        "ruleset": rules.id(),
        "deals_per_sec": (deals as f64 / secs).round(),
        "actions_per_sec": (actions as f64 / secs).round(),
        "deals": deals,
        "seconds": (secs * 1000.0).round() / 1000.0,
    })
    .to_string()
}
