//! `torite stats`: whole games played by bots, and the figures a club asks about, as a table,
//! JSON and SVG plots.

use std::path::{Path, PathBuf};

use indicatif::{ProgressBar, ProgressStyle};
use plotters::prelude::*;
use serde_json::json;
use torite_bots::stats::{self, Stats, StatsConfig};
use torite_bots::{BotSpec, Budget};
use torite_core::{Ruleset, Scoring};
use torite_i18n::{Catalog, Lang};

use crate::Failure;

/// The command-line settings.
#[derive(Debug)]
pub struct Args {
    pub rules: Ruleset,
    /// The bots filling the seats in turn; empty for [`default_bots`].
    pub bots: Vec<BotSpec>,
    /// Whether `bots` are the defaults (the report says so).
    pub default_bots: bool,
    pub games: usize,
    pub seed: u64,
    pub json: bool,
    pub plots: Option<PathBuf>,
    /// The report's language.
    pub lang: Lang,
}

/// Runs the games and renders the figures.
pub fn run(mut args: Args) -> Result<String, Failure> {
    if args.bots.is_empty() {
        args.bots = default_bots(&args.rules);
        args.default_bots = true;
    }
    if args.games == 0 {
        return Err(Failure::input("--games must be at least 1"));
    }
    let config = StatsConfig {
        rules: args.rules,
        bots: args.bots.clone(),
        games: args.games,
        seed: args.seed,
    };
    let bar = if args.json || !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(args.games as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games {per_sec} eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let stats = stats::run(&config, &|| bar.inc(1)).map_err(Failure::input)?;
    bar.finish_and_clear();
    if let Some(dir) = &args.plots {
        plots(dir, &args.rules, &stats, &Catalog::new(args.lang))?;
    }
    Ok(if args.json {
        json(&args, &stats)
    } else {
        table(&args, &stats)
    })
}

fn json(args: &Args, s: &Stats) -> String {
    let ((lot, lot_ci), (success, success_ci)) = s.lot_rates();
    let (deals, deals_ci) = s.deals_per_game();
    let mut out = json!({
        "ruleset": args.rules.to_json(),
        "bots": args.bots.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "default_bots": args.default_bots,
        "scores": if args.rules.scoring.is_penalty() { "penalty" } else { "points" },
        "higher_is_better": !args.rules.scoring.is_penalty(),
        "games": s.games,
        "deals": s.deals,
        "deals_per_game": {"mean": deals, "ci95": deals_ci},
        "score_by_position": s.score_by_position().iter().map(|(m, c)| json!({"mean": m, "ci95": c})).collect::<Vec<_>>(),
        "tricks_by_position": s.tricks_by_position,
        "rules_fired": s.rules_fired,
    });
    if args.rules.lot.is_some() {
        out["lot"] = json!({
            "declared_rate": lot, "declared_ci95": lot_ci,
            "success_rate": success, "success_ci95": success_ci,
            "declared": s.lot_deals, "succeeded": s.lot_successes,
            "by_position": s.lot_by_position,
            "first_trick_failed": s.lot_first_trick_fail_by_position.iter().sum::<usize>(),
            "first_trick_fail_rate": s.lot_first_trick_fail_rate().0,
            "first_trick_fail_ci95": s.lot_first_trick_fail_rate().1,
            "declarers_by_position": (0..s.lot_by_position.len()).map(|p| {
                let (rate, ci) = s.lot_success_rate_by_position()[p];
                let (fail, fail_ci) = s.lot_first_trick_fail_rate_by_position()[p];
                json!({
                    "declared": s.lot_by_position[p],
                    "succeeded": s.lot_success_by_position[p],
                    "success_rate": rate, "success_ci95": ci,
                    "first_trick_failed": s.lot_first_trick_fail_by_position[p],
                    "first_trick_fail_rate": fail, "first_trick_fail_ci95": fail_ci,
                })
            }).collect::<Vec<_>>(),
        });
    }
    if matches!(args.rules.scoring, Scoring::Mura { .. }) {
        let (rate, ci) = stats::proportion(s.exempt, s.seat_deals);
        let (early, early_ci) = s.exempt_early_rate();
        let (changed, changed_ci) = s.exempt_replay_change_rate();
        out["exemption"] = json!({
            "rate": rate, "ci95": ci,
            "early_rate": early, "early_ci95": early_ci,
            "early_by_trick": s.exempt_early_by_trick,
            "replays": s.exempt_replays, "replays_changed": s.exempt_replays_changed,
            "replay_change_rate": changed, "replay_change_ci95": changed_ci,
        });
    }
    let (roles, roles_ci) = s.role_persistence();
    out["worst_seat_repeats"] = json!({"rate": roles, "ci95": roles_ci, "pairs": s.role_pairs});
    out.to_string() + "\n"
}

/// The bots that play when `--bots` is not given: [`BotSpec::STRONGEST`] (the rule-of-thumb
/// player, which decides at once), except in a game with the Lot, which that player never
/// declares: there every seat is [`DEFAULT_LOT_BOT`], so that the Lot figures answer.
#[must_use]
pub fn default_bots(rules: &Ruleset) -> Vec<BotSpec> {
    if rules.lot.is_some() {
        vec![DEFAULT_LOT_BOT.parse().unwrap_or(BotSpec::STRONGEST)]
    } else {
        vec![BotSpec::STRONGEST]
    }
}

/// The default players of a game with the Lot: the tree search at the budget `docs/STATS.md`
/// measures with (within noise of its default budget in Mini Misère, ten times quicker).
pub const DEFAULT_LOT_BOT: &str = "ismcts:1000";

/// A bot as a person reads it, from the catalogs: a level by its name ("Club"), an algorithm
/// by what it is ("search (1000 iterations a decision)"), never its spec.
#[must_use]
pub fn bot_label(spec: &BotSpec, c: &Catalog) -> String {
    if let Some(level) = spec.as_level() {
        return c.get(&format!("level-{}", level.id()), &[]);
    }
    let name = spec.name();
    let budget = spec.budget().map(|b| match b {
        Budget::Iterations(n) => c.get("stats-budget-iterations", &[("n", n.to_string())]),
        Budget::Millis(n) => c.get("stats-budget-millis", &[("n", n.to_string())]),
    });
    match budget {
        Some(budget) if c.has(&format!("stats-bot-{name}-budget")) => {
            c.get(&format!("stats-bot-{name}-budget"), &[("budget", budget)])
        }
        _ => c.get(&format!("stats-bot-{name}"), &[]),
    }
}

/// The bots filling the seats in turn, each named once, in the order they first sit.
#[must_use]
pub fn bots_label(bots: &[BotSpec], c: &Catalog) -> String {
    let mut seen: Vec<&BotSpec> = Vec::new();
    for b in bots {
        if !seen.contains(&b) {
            seen.push(b);
        }
    }
    let sep = if c.lang() == Lang::Ja { "、" } else { ", " };
    seen.iter()
        .map(|b| bot_label(b, c))
        .collect::<Vec<_>>()
        .join(sep)
}

/// A ruleset as a person reads it: the game's name, and a house rule's options in words.
#[must_use]
pub fn rules_words(rules: &Ruleset, c: &Catalog) -> String {
    let name = c.preset_name(rules.base);
    let options = rules.overrides();
    if options.is_empty() {
        return name;
    }
    let sep = if c.lang() == Lang::Ja { "、" } else { "; " };
    let options = options
        .iter()
        .map(|(option, value)| {
            c.get(
                "stats-house-option",
                &[
                    ("option", c.option_label(option)),
                    ("value", c.option_value(option, value)),
                ],
            )
        })
        .collect::<Vec<_>>()
        .join(sep);
    c.get("stats-house", &[("rules", name), ("options", options)])
}

/// "higher is better" for points, "lower is better" for penalty points.
#[must_use]
pub fn better(rules: &Ruleset, c: &Catalog) -> String {
    c.get(
        if rules.scoring.is_penalty() {
            "stats-lower-better"
        } else {
            "stats-higher-better"
        },
        &[],
    )
}

fn pct(x: f64, digits: usize) -> String {
    format!("{:.*}", digits, x * 100.0)
}

/// The width of a position's column in the table of tricks won by position.
const TRICKS_COLUMN: usize = 8;

fn table(args: &Args, s: &Stats) -> String {
    let c = Catalog::new(args.lang);
    let n = args.rules.players as usize;
    let mut out = c.get(
        "stats-title",
        &[
            ("rules", rules_words(&args.rules, &c)),
            ("games", s.games.to_string()),
            ("deals", s.deals.to_string()),
        ],
    ) + "\n";
    let bots_key = match (args.default_bots, args.rules.lot.is_some()) {
        (false, _) => "stats-bots",
        (true, false) => "stats-bots-default",
        (true, true) => "stats-bots-default-lot",
    };
    out += &c.get(bots_key, &[("bots", bots_label(&args.bots, &c))]);
    out += "\n";
    let (deals, deals_ci) = s.deals_per_game();
    out += &c.get(
        "stats-deals-per-game",
        &[
            ("mean", format!("{deals:.2}")),
            ("ci", format!("{deals_ci:.2}")),
        ],
    );
    out += "\n";
    if args.rules.lot.is_some() {
        let ((lot, lot_ci), (success, success_ci)) = s.lot_rates();
        out += &c.get_counted(
            "stats-lot-declared",
            &[("rate", pct(lot, 2)), ("ci", pct(lot_ci, 2))],
            &[("count", i64::try_from(s.lot_deals).unwrap_or(i64::MAX))],
        );
        out += "\n";
        out += &c.get(
            "stats-lot-succeeded",
            &[
                ("rate", pct(success, 1)),
                ("ci", pct(success_ci, 1)),
                ("hits", s.lot_successes.to_string()),
                ("count", s.lot_deals.to_string()),
            ],
        );
        out += "\n";
        let declared: usize = s.lot_by_position.iter().sum();
        let failed: usize = s.lot_first_trick_fail_by_position.iter().sum();
        let (fail, fail_ci) = s.lot_first_trick_fail_rate();
        out += &c.get(
            "stats-lot-first-trick",
            &[
                ("rate", pct(fail, 1)),
                ("ci", pct(fail_ci, 1)),
                ("hits", failed.to_string()),
                ("count", declared.to_string()),
            ],
        );
        out += "\n";
        out += &c.get("stats-lot-by-position", &[("last", (n - 1).to_string())]);
        out += "\n";
        out += &pad(&c.get("stats-position", &[]), 10, false);
        out += &pad(&c.get("stats-lot-declarers", &[]), 12, true);
        out += &pad(&c.get("stats-lot-success", &[]), 26, true);
        out += &pad(&c.get("stats-lot-fail-first", &[]), 26, true);
        out += "\n";
        let success = s.lot_success_rate_by_position();
        let first = s.lot_first_trick_fail_rate_by_position();
        for p in 0..n {
            out += &pad(&p.to_string(), 10, false);
            out += &pad(&s.lot_by_position[p].to_string(), 12, true);
            for ((rate, ci), hits) in [
                (success[p], s.lot_success_by_position[p]),
                (first[p], s.lot_first_trick_fail_by_position[p]),
            ] {
                let cell = if s.lot_by_position[p] == 0 {
                    "-".to_owned()
                } else {
                    format!("{}% ± {}% ({hits})", pct(rate, 1), pct(ci, 1))
                };
                out += &pad(&cell, 26, true);
            }
            out += "\n";
        }
    }
    if matches!(args.rules.scoring, Scoring::Mura { .. }) {
        let (rate, ci) = stats::proportion(s.exempt, s.seat_deals);
        out += &c.get(
            "stats-exempt",
            &[("rate", pct(rate, 1)), ("ci", pct(ci, 1))],
        );
        out += "\n";
        let (early, early_ci) = s.exempt_early_rate();
        out += &c.get(
            "stats-exempt-early",
            &[("rate", pct(early, 1)), ("ci", pct(early_ci, 1))],
        );
        out += "\n";
        let (changed, changed_ci) = s.exempt_replay_change_rate();
        out += &c.get(
            "stats-exempt-replay",
            &[
                ("rate", pct(changed, 1)),
                ("ci", pct(changed_ci, 1)),
                ("hits", s.exempt_replays_changed.to_string()),
                ("count", s.exempt_replays.to_string()),
            ],
        );
        out += "\n";
    }
    let (roles, roles_ci) = s.role_persistence();
    out += &c.get(
        "stats-worst-repeats",
        &[
            ("rate", pct(roles, 1)),
            ("ci", pct(roles_ci, 1)),
            ("none", format!("{:.1}", 100.0 / n as f64)),
        ],
    );
    out += "\n\n";
    let score_head = if args.rules.scoring.is_penalty() {
        "stats-penalty"
    } else {
        "stats-score"
    };
    out += &c.get(
        "stats-by-position",
        &[
            ("last", (n - 1).to_string()),
            ("better", better(&args.rules, &c)),
        ],
    );
    out += "\n";
    out += &pad(&c.get("stats-position", &[]), 10, false);
    out += &pad(&c.get(score_head, &[]), 18, true);
    out += "\n";
    for (p, (mean, ci)) in s.score_by_position().iter().enumerate() {
        out += &format!("{p:<10}{:>18}\n", format!("{mean:+.3} ± {ci:.3}"));
    }
    // Tricks won by position: a row for each number of tricks, a column for each position,
    // so that the table stays narrow however many tricks a deal has.
    out += "\n";
    out += &c.get("stats-tricks-by-position", &[("last", (n - 1).to_string())]);
    out += "\n";
    let head = c.get("stats-tricks-won", &[]);
    let first = columns(&head).max(6) + 2;
    out += &pad(&head, first, false);
    for p in 0..s.tricks_by_position.len() {
        out += &pad(&p.to_string(), TRICKS_COLUMN, true);
    }
    out += "\n";
    let totals: Vec<usize> = s
        .tricks_by_position
        .iter()
        .map(|row| row.iter().sum::<usize>().max(1))
        .collect();
    for t in 0..=args.rules.tricks() {
        out += &pad(&t.to_string(), first, false);
        for (row, total) in s.tricks_by_position.iter().zip(&totals) {
            let count = row.get(t).copied().unwrap_or(0);
            out += &pad(
                &format!("{:.1}%", count as f64 * 100.0 / *total as f64),
                TRICKS_COLUMN,
                true,
            );
        }
        out += "\n";
    }
    out += "\n";
    out += &c.get("stats-rules-fired", &[]);
    out += "\n";
    for (rule, count) in &s.rules_fired {
        let name = c.get(&format!("rule-{rule}"), &[]);
        out += &format!(
            "  {:>7.2}%  {:>7}  {name}\n",
            *count as f64 * 100.0 / s.deals.max(1) as f64,
            format!("({count})")
        );
    }
    out
}

/// Columns `text` takes in a terminal: a wide (CJK) character counts two.
#[must_use]
pub fn columns(text: &str) -> usize {
    text.chars()
        .map(|ch| {
            if ('\u{1100}'..='\u{115f}').contains(&ch) || ('\u{2e80}'..='\u{ffdc}').contains(&ch) {
                2
            } else {
                1
            }
        })
        .sum()
}

/// `text` padded with spaces to `width` columns (see [`columns`]), on the left when `right`.
#[must_use]
pub fn pad(text: &str, width: usize, right: bool) -> String {
    let fill = " ".repeat(width.saturating_sub(columns(text)));
    if right {
        format!("{fill}{text}")
    } else {
        format!("{text}{fill}")
    }
}

/// An axis label for whole numbers only (positions, tricks): none between them.
fn whole(x: &f64) -> String {
    if (x - x.round()).abs() < 1e-9 {
        format!("{}", x.round() as i64)
    } else {
        String::new()
    }
}

fn plot_error(e: impl std::fmt::Display) -> Failure {
    Failure::input(format!("cannot draw plot: {e}"))
}

fn plots(dir: &Path, rules: &Ruleset, s: &Stats, c: &Catalog) -> Result<(), Failure> {
    let label = rules_words(rules, c);
    let penalty = rules.scoring.is_penalty();
    std::fs::create_dir_all(dir)
        .map_err(|e| Failure::input(format!("cannot create {}: {e}", dir.display())))?;
    let n = rules.players as usize;
    // Mean score per position with its confidence interval.
    let path = dir.join("score-by-position.svg");
    let mut svg = String::new();
    {
        let scores = s.score_by_position();
        let lo = scores
            .iter()
            .map(|(m, c)| m - c)
            .fold(f64::INFINITY, f64::min)
            .min(0.0);
        let hi = scores
            .iter()
            .map(|(m, c)| m + c)
            .fold(f64::NEG_INFINITY, f64::max)
            .max(0.0);
        let pad = ((hi - lo) * 0.1).max(0.1);
        let root = SVGBackend::with_string(&mut svg, (800, 400)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                c.get(
                    if penalty {
                        "stats-plot-penalty"
                    } else {
                        "stats-plot-score"
                    },
                    &[("rules", label.clone()), ("better", better(rules, c))],
                ),
                ("sans-serif", 16),
            )
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(48)
            .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), (lo - pad)..(hi + pad))
            .map_err(plot_error)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(64)
            .x_label_formatter(&whole)
            .x_desc(c.get("stats-axis-position", &[]))
            .y_desc(c.get(
                if penalty {
                    "stats-axis-penalty"
                } else {
                    "stats-axis-score"
                },
                &[],
            ))
            .draw()
            .map_err(plot_error)?;
        chart
            .draw_series(scores.iter().enumerate().map(|(p, (m, c))| {
                ErrorBar::new_vertical(p as f64, m - c, *m, m + c, BLUE.filled(), 12)
            }))
            .map_err(plot_error)?;
        root.present().map_err(plot_error)?;
    }
    crate::save::save(&path, svg.as_bytes())?;
    if rules.lot.is_some() {
        lot_plot(&dir.join("lot-by-position.svg"), rules, s, c, &label)?;
    }
    // Distribution of tricks per position.
    let path = dir.join("tricks-by-position.svg");
    let mut svg = String::new();
    {
        let tricks = rules.tricks();
        let root = SVGBackend::with_string(&mut svg, (800, 400)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                c.get("stats-plot-tricks", &[("rules", label.clone())]),
                ("sans-serif", 16),
            )
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(48)
            .build_cartesian_2d(-0.5f64..(tricks as f64 + 0.5), 0f64..1f64)
            .map_err(plot_error)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(64)
            .x_label_formatter(&whole)
            .x_desc(c.get("stats-axis-tricks", &[]))
            .y_desc(c.get("stats-axis-share", &[]))
            .draw()
            .map_err(plot_error)?;
        for p in 0..n {
            let total = s.tricks_by_position[p].iter().sum::<usize>().max(1) as f64;
            let color = Palette99::pick(p);
            let width = 0.8 / n as f64;
            chart
                .draw_series(s.tricks_by_position[p].iter().enumerate().map(|(t, c)| {
                    let x = t as f64 - 0.4 + width * p as f64;
                    Rectangle::new([(x, 0.0), (x + width, *c as f64 / total)], color.filled())
                }))
                .map_err(plot_error)?
                .label(c.get("stats-legend-position", &[("p", p.to_string())]))
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 10, y + 5)], color.filled())
                });
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(plot_error)?;
        root.present().map_err(plot_error)?;
    }
    crate::save::save(&path, svg.as_bytes())?;
    // Deals per game.
    let path = dir.join("deals-per-game.svg");
    let mut svg = String::new();
    {
        let max = s.deals_per_game.iter().copied().max().unwrap_or(1);
        let mut counts = vec![0usize; max + 1];
        for d in &s.deals_per_game {
            counts[*d] += 1;
        }
        let top = counts.iter().copied().max().unwrap_or(1) as f64;
        let root = SVGBackend::with_string(&mut svg, (800, 400)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                c.get("stats-plot-deals", &[("rules", label.clone())]),
                ("sans-serif", 16),
            )
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(48)
            .build_cartesian_2d(0f64..(max as f64 + 1.0), 0f64..top * 1.1)
            .map_err(plot_error)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_label_formatter(&whole)
            .y_label_formatter(&whole)
            .x_desc(c.get("stats-axis-deals", &[]))
            .y_desc(c.get("stats-axis-games", &[]))
            .draw()
            .map_err(plot_error)?;
        chart
            .draw_series(counts.iter().enumerate().map(|(d, c)| {
                Rectangle::new(
                    [(d as f64 + 0.1, 0.0), (d as f64 + 0.9, *c as f64)],
                    BLUE.mix(0.6).filled(),
                )
            }))
            .map_err(plot_error)?;
        root.present().map_err(plot_error)?;
    }
    crate::save::save(&path, svg.as_bytes())?;
    if matches!(rules.scoring, Scoring::Mura { .. }) {
        exempt_plot(&dir.join("exempt-by-trick.svg"), s, c, &label)?;
    }
    Ok(())
}

/// Mura: how many seat-deals became exempt after each number of completed tricks (those with
/// tricks still to play).
fn exempt_plot(path: &Path, s: &Stats, c: &Catalog, label: &str) -> Result<(), Failure> {
    let counts = &s.exempt_early_by_trick;
    let last = counts.len().max(2);
    let top = counts.iter().copied().max().unwrap_or(0).max(1) as f64;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (800, 400)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                c.get("stats-plot-exempt", &[("rules", label.to_owned())]),
                ("sans-serif", 16),
            )
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(56)
            .build_cartesian_2d(0.5f64..(last as f64 - 0.5), 0f64..top * 1.1)
            .map_err(plot_error)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(last)
            .x_label_formatter(&whole)
            .y_label_formatter(&whole)
            .x_desc(c.get("stats-axis-exempt-trick", &[]))
            .y_desc(c.get("stats-axis-seat-deals", &[]))
            .draw()
            .map_err(plot_error)?;
        chart
            .draw_series(counts.iter().enumerate().skip(1).map(|(t, n)| {
                Rectangle::new(
                    [(t as f64 - 0.4, 0.0), (t as f64 + 0.4, *n as f64)],
                    BLUE.mix(0.6).filled(),
                )
            }))
            .map_err(plot_error)?;
        root.present().map_err(plot_error)?;
    }
    crate::save::save(path, svg.as_bytes())
}

/// The Lot by the declarer's position: the share of Lots that succeeded and the share that
/// failed in the first trick, each with its 95% interval.
fn lot_plot(
    path: &Path,
    rules: &Ruleset,
    s: &Stats,
    c: &Catalog,
    label: &str,
) -> Result<(), Failure> {
    let n = rules.players as usize;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (800, 400)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                c.get("stats-plot-lot", &[("rules", label.to_owned())]),
                ("sans-serif", 16),
            )
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(48)
            .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), 0f64..1.3f64)
            .map_err(plot_error)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(64)
            .x_label_formatter(&whole)
            .x_desc(c.get("stats-axis-declarer", &[]))
            .y_desc(c.get("stats-axis-lot-share", &[]))
            .draw()
            .map_err(plot_error)?;
        let series = [
            (
                s.lot_success_rate_by_position(),
                c.get("stats-lot-success", &[]),
                -0.1,
                BLUE,
            ),
            (
                s.lot_first_trick_fail_rate_by_position(),
                c.get("stats-lot-fail-first", &[]),
                0.1,
                RED,
            ),
        ];
        for (rates, name, shift, color) in series {
            let declared = &s.lot_by_position;
            chart
                .draw_series(
                    rates
                        .iter()
                        .enumerate()
                        .filter(|(p, _)| declared[*p] > 0)
                        .map(|(p, (m, ci))| {
                            ErrorBar::new_vertical(
                                p as f64 + shift,
                                (m - ci).max(0.0),
                                *m,
                                (m + ci).min(1.0),
                                color.filled(),
                                10,
                            )
                        }),
                )
                .map_err(plot_error)?
                .label(name)
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 10, y + 5)], color.filled())
                });
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperMiddle)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(plot_error)?;
        root.present().map_err(plot_error)?;
    }
    crate::save::save(path, svg.as_bytes())
}
