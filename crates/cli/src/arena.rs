//! `torite arena`: duplicate tournaments between bots.

use std::path::Path;

use indicatif::{ProgressBar, ProgressStyle};
use torite_bots::arena::{self, ArenaConfig, ArenaResult, Unit};
use torite_core::Ruleset;

use crate::Failure;

/// The arena's command-line settings.
#[derive(Debug)]
pub struct Args {
    pub rules: Ruleset,
    pub bots: Vec<torite_bots::BotSpec>,
    pub units: usize,
    pub unit: Unit,
    pub seed: u64,
    pub threads: Option<usize>,
    pub json: bool,
    pub records: Option<std::path::PathBuf>,
}

/// Runs the arena and renders its table or JSON.
pub fn run(args: Args) -> Result<String, Failure> {
    if args.units == 0 {
        return Err(Failure::input("--deals (or --games) must be at least 1"));
    }
    let config = ArenaConfig {
        rules: args.rules,
        bots: args.bots.clone(),
        units: args.units,
        unit: args.unit,
        seed: args.seed,
        keep_records: args.records.is_some(),
    };
    let bar = if args.json || !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(args.units as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} {per_sec} eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .map_err(Failure::input)?;
    let result = pool
        .install(|| arena::run(&config, &|| bar.inc(1)))
        .map_err(Failure::input)?;
    bar.finish_and_clear();
    if let Some(dir) = &args.records {
        save_records(dir, &result)?;
    }
    Ok(if args.json {
        json(&args, &result)
    } else {
        table(&args, &result)
    })
}

fn save_records(dir: &Path, result: &ArenaResult) -> Result<(), Failure> {
    std::fs::create_dir_all(dir)
        .map_err(|e| Failure::input(format!("cannot create {}: {e}", dir.display())))?;
    for (i, record) in result.records.iter().enumerate() {
        let path = dir.join(format!("game-{i:06}.json"));
        crate::save::save(
            &path,
            torite_core::to_pretty_json(&record.to_json()).as_bytes(),
        )?;
    }
    Ok(())
}

fn json(args: &Args, result: &ArenaResult) -> String {
    let bots: Vec<serde_json::Value> = result
        .bots
        .iter()
        .map(|b| {
            let mut v = serde_json::json!({
                "name": b.name,
                "mean": b.mean,
                "ci95": b.ci95,
                "diff": b.diff,
                "diff_ci95": b.diff_ci95,
                "decision_ms": b.decision_ms,
            });
            if let Some(w) = b.win_rate {
                v["win_rate"] = w.into();
            }
            v
        })
        .collect();
    let unit = if args.unit == Unit::Game {
        "games"
    } else {
        "deals"
    };
    let mut out =
        serde_json::json!({"ruleset": args.rules.to_json(), "deals": args.units, "bots": bots});
    if args.unit == Unit::Game {
        out["unit"] = unit.into();
    }
    out.to_string() + "\n"
}

fn table(args: &Args, result: &ArenaResult) -> String {
    let unit = if args.unit == Unit::Game {
        "games"
    } else {
        "deals"
    };
    let mut out = format!(
        "{} — {} {unit} × {} seat rotations (duplicate)\n",
        crate::input::rules_label(&args.rules),
        args.units,
        args.rules.players
    );
    out += &format!(
        "{:<16} {:>16} {:>18} {:>9} {:>12}\n",
        "bot", "mean ± 95%", "vs field ± 95%", "win rate", "decision ms"
    );
    for b in &result.bots {
        let win = b
            .win_rate
            .map_or("-".to_owned(), |w| format!("{:.1}%", w * 100.0));
        out += &format!(
            "{:<16} {:>16} {:>18} {:>9} {:>12.3}\n",
            b.name,
            format!("{:+.3} ± {:.3}", b.mean, b.ci95),
            format!("{:+.3} ± {:.3}", b.diff, b.diff_ci95),
            win,
            b.decision_ms
        );
    }
    out
}
