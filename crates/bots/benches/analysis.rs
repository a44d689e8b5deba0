//! Benchmark of the post-game analysis ([`torite_bots::analysis`]): the time to analyse every
//! decision of one seat in the example games (`examples/mittlere-jass.json`, a 12-deal game,
//! and `examples/mini-misere-4.json`, a game to 25 points), with each budget given (worlds per
//! decision; default 16, 64 and 256), and what the budget buys: the mean standard error of
//! the actions' values and of the losses. Also how often the exact solver could not settle the
//! true position within its node budget, trick by trick.
//!
//! `cargo bench -p torite-bots --bench analysis [-- BUDGET...]`; the decisions run on rayon's
//! pool (every core).

use std::time::Instant;

use torite_bots::analysis::{self, Method, Settings};
use torite_core::{Record, SeatSet};

fn main() {
    let budgets: Vec<u32> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let budgets = if budgets.is_empty() {
        vec![16, 64, 256]
    } else {
        budgets
    };
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples");
    for name in ["mittlere-jass", "mini-misere-4"] {
        let text = std::fs::read_to_string(format!("{examples}/{name}.json")).expect("an example");
        let record = Record::from_json(&text).expect("the example replays");
        let seats: SeatSet = [0].into_iter().collect();
        for &worlds in &budgets {
            let start = Instant::now();
            let result =
                analysis::analyse(&record, seats, None, Settings { worlds, seed: 0 }, &|| {});
            let secs = start.elapsed().as_secs_f64();
            let ds = &result.decisions;
            let n = ds.len() as f64;
            let values: Vec<f64> = ds
                .iter()
                .flat_map(|d| d.actions.iter().map(|a| a.stderr))
                .collect();
            let value_se = values.iter().sum::<f64>() / values.len() as f64;
            let loss_se = ds.iter().map(|d| d.loss_stderr).sum::<f64>() / n;
            let solver = ds.iter().filter(|d| d.method == Method::Solver).count();
            let unsolved = ds.iter().filter(|d| d.exact.is_none()).count();
            println!(
                "{name}: {} deals, seat 0, {worlds} worlds: {} decisions in {secs:.2} s ({:.1} a second); \
                 mean stderr {value_se:.3} (values), {loss_se:.3} (losses); \
                 {solver} valued by the solver, {} by rollouts; exact value not settled in {unsolved} ({:.0}%)",
                record.deals.len(),
                ds.len(),
                n / secs,
                ds.len() - solver,
                100.0 * unsolved as f64 / n,
            );
        }
        // How often the true position was too large to solve, by trick (the first budget's run
        // would give the same: the exact search does not depend on the worlds).
        let result = analysis::analyse(
            &record,
            seats,
            None,
            Settings { worlds: 1, seed: 0 },
            &|| {},
        );
        let tricks = record.ruleset.tricks();
        let by_trick: Vec<String> = (0..tricks)
            .filter_map(|t| {
                let at: Vec<_> = result.decisions.iter().filter(|d| d.trick == t).collect();
                (!at.is_empty()).then(|| {
                    let unsolved = at.iter().filter(|d| d.exact.is_none()).count();
                    format!("trick {}: {unsolved}/{}", t + 1, at.len())
                })
            })
            .collect();
        println!(
            "{name}: exact value not settled, by trick: {}",
            by_trick.join(", ")
        );
    }
}
