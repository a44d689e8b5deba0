//! `torite arena`: duplicate tournaments between bots.

use std::path::Path;

use indicatif::{ProgressBar, ProgressStyle};
use torite_bots::arena::{self, ArenaConfig, ArenaResult, Unit};
use torite_core::Ruleset;
use torite_i18n::Catalog;

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
    /// The table's language.
    pub lang: torite_i18n::Lang,
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

/// The sign that turns the arena's rewards (higher is better: penalty points count
/// negative) into the ruleset's own scores, so that a penalty reads as a penalty, as in
/// `torite stats`.
fn own_sign(rules: &Ruleset) -> f64 {
    if rules.scoring.is_penalty() {
        -1.0
    } else {
        1.0
    }
}

fn json(args: &Args, result: &ArenaResult) -> String {
    let sign = own_sign(&args.rules);
    let bots: Vec<serde_json::Value> = result
        .bots
        .iter()
        .map(|b| {
            let mut v = serde_json::json!({
                "name": b.name,
                "mean": sign * b.mean,
                "ci95": b.ci95,
                "diff": sign * b.diff,
                "diff_ci95": b.diff_ci95,
                "decision_ms": b.decision_ms,
                "decision_max_ms": b.decision_max_ms,
            });
            if let (Some(w), Some(ci)) = (b.win_rate, b.win_ci95) {
                v["win_rate"] = w.into();
                v["win_ci95"] = ci.into();
            }
            v
        })
        .collect();
    let unit = if args.unit == Unit::Game {
        "games"
    } else {
        "deals"
    };
    let penalty = args.rules.scoring.is_penalty();
    let mut out = serde_json::json!({
        "ruleset": args.rules.to_json(),
        "deals": args.units,
        "scores": if penalty { "penalty" } else { "points" },
        "higher_is_better": !penalty,
        "bots": bots,
        "explained_variance": {"share": result.explained.0, "ci95": result.explained.1},
    });
    if args.unit == Unit::Game {
        out["unit"] = unit.into();
    }
    out.to_string() + "\n"
}

/// The terminal width the arena's table keeps to.
const LINE_COLUMNS: usize = 80;

/// The spaces before each figure column.
const COLUMN_GAP: usize = 3;

/// `value ± ci` to three places; the value alone when there is no interval (a single deal
/// or game gives none).
fn with_interval(value: f64, ci: f64) -> String {
    if ci.is_finite() {
        format!("{value:+.3} ± {ci:.3}")
    } else {
        format!("{value:+.3}")
    }
}

fn table(args: &Args, result: &ArenaResult) -> String {
    use crate::stats::{better, bot_label, columns, pad, rules_words};
    let c = Catalog::new(args.lang);
    let penalty = args.rules.scoring.is_penalty();
    let sign = own_sign(&args.rules);
    let games = args.unit == Unit::Game;
    let mut out = c.get(
        "arena-title",
        &[
            ("rules", rules_words(&args.rules, &c)),
            (
                "unit",
                c.get_counted(
                    if games {
                        "arena-unit-games"
                    } else {
                        "arena-unit-deals"
                    },
                    &[],
                    &[("units", i64::try_from(args.units).unwrap_or(i64::MAX))],
                ),
            ),
            ("rotations", args.rules.players.to_string()),
        ],
    ) + "\n";
    let note = match (games, penalty) {
        (false, false) => "arena-scores-by-deal",
        (false, true) => "arena-penalties-by-deal",
        (true, false) => "arena-scores-by-game",
        (true, true) => "arena-penalties-by-game",
    };
    out += &c.get(note, &[("better", better(&args.rules, &c))]);
    out += "\n";
    // Result `i` is the lineup's entry `i`; a bot named twice is told apart by its entry.
    let labels: Vec<String> = result
        .bots
        .iter()
        .zip(&args.bots)
        .enumerate()
        .map(|(i, (b, spec))| {
            let label = bot_label(spec, &c);
            if b.name.contains('#') {
                c.get(
                    "arena-bot-again",
                    &[("bot", label), ("n", (i + 1).to_string())],
                )
            } else {
                label
            }
        })
        .collect();
    let mean_head = if penalty {
        "arena-mean-penalty"
    } else {
        "arena-mean-score"
    };
    // The figures' columns, right-aligned, each as wide as its widest cell and the gap;
    // "games won" only when whole games were played.
    let mut heads = vec![c.get(mean_head, &[]), c.get("arena-vs-field", &[])];
    if games {
        heads.push(c.get("arena-win-rate", &[]));
    }
    heads.push(c.get("arena-decision-ms", &[]));
    let rows: Vec<Vec<String>> = result
        .bots
        .iter()
        .map(|b| {
            let mut cells = vec![
                with_interval(sign * b.mean, b.ci95),
                with_interval(sign * b.diff, b.diff_ci95),
            ];
            if games {
                cells.push(match (b.win_rate, b.win_ci95) {
                    (Some(w), Some(ci)) => format!("{:.1}% ± {:.1}%", w * 100.0, ci * 100.0),
                    _ => "-".to_owned(),
                });
            }
            cells.push(format!("{:.3}", b.decision_ms));
            cells
        })
        .collect();
    let widths: Vec<usize> = (0..heads.len())
        .map(|i| {
            rows.iter()
                .map(|r| &r[i])
                .chain([&heads[i]])
                .map(|t| columns(t))
                .max()
                .unwrap_or(0)
                + COLUMN_GAP
        })
        .collect();
    let figures: usize = widths.iter().sum();
    let head = c.get("arena-bot", &[]);
    let widest = labels
        .iter()
        .chain([&head])
        .map(|l| columns(l))
        .max()
        .unwrap_or(0);
    // A name too long to share a terminal line with the figures gets a line of its own, the
    // figures below it.
    let own_line = widest + figures > LINE_COLUMNS;
    let width = if own_line {
        LINE_COLUMNS.saturating_sub(figures).max(columns(&head))
    } else {
        widest
    };
    let line = |name: &str, cells: &[String]| {
        let mut out = pad(name, width, false);
        for (cell, w) in cells.iter().zip(&widths) {
            out += &pad(cell, *w, true);
        }
        out + "\n"
    };
    out += &line(&head, &heads);
    for (cells, label) in rows.iter().zip(&labels) {
        if own_line {
            out += label;
            out += "\n";
            out += &line("", cells);
        } else {
            out += &line(label, cells);
        }
    }
    let kinds = args
        .bots
        .iter()
        .enumerate()
        .filter(|(i, s)| args.bots.iter().position(|t| t == *s) == Some(*i))
        .count();
    if kinds > 1 {
        let (share, ci) = result.explained;
        out += &c.get(
            "arena-explained",
            &[
                ("share", format!("{:.1}", share * 100.0)),
                ("ci", format!("{:.1}", ci * 100.0)),
            ],
        );
        out += "\n";
    }
    out
}
