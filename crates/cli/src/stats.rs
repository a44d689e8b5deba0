//! `torite stats`: whole games played by bots, and the figures a club asks about, as a table,
//! JSON and SVG plots.

use std::path::{Path, PathBuf};

use indicatif::{ProgressBar, ProgressStyle};
use plotters::prelude::*;
use serde_json::json;
use torite_bots::stats::{self, Stats, StatsConfig};
use torite_core::{Ruleset, Scoring};

use crate::Failure;

/// The command-line settings.
#[derive(Debug)]
pub struct Args {
    pub rules: Ruleset,
    pub bots: Vec<torite_bots::BotSpec>,
    pub games: usize,
    pub seed: u64,
    pub json: bool,
    pub plots: Option<PathBuf>,
}

/// Runs the games and renders the figures.
pub fn run(args: Args) -> Result<String, Failure> {
    if args.games == 0 {
        return Err(Failure::input("--games must be at least 1"));
    }
    let config = StatsConfig {
        rules: args.rules,
        bots: args.bots.iter().map(ToString::to_string).collect(),
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
        plots(dir, &args.rules, &stats)?;
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
        });
    }
    if matches!(args.rules.scoring, Scoring::Mura { .. }) {
        let (rate, ci) = stats::proportion(s.exempt, s.seat_deals);
        out["exemption"] = json!({"rate": rate, "ci95": ci});
    }
    let (roles, roles_ci) = s.role_persistence();
    out["worst_seat_repeats"] = json!({"rate": roles, "ci95": roles_ci, "pairs": s.role_pairs});
    out.to_string() + "\n"
}

fn table(args: &Args, s: &Stats) -> String {
    let n = args.rules.players as usize;
    let mut out = format!(
        "{} — {} games, {} deals, bots: {}\n",
        crate::input::rules_label(&args.rules),
        s.games,
        s.deals,
        args.bots
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(",")
    );
    let (deals, deals_ci) = s.deals_per_game();
    out += &format!("deals per game        {deals:.2} ± {deals_ci:.2}\n");
    if args.rules.lot.is_some() {
        let ((lot, lot_ci), (success, success_ci)) = s.lot_rates();
        out += &format!(
            "Lot declared          {:.2}% ± {:.2}% of deals ({} deals)\n",
            lot * 100.0,
            lot_ci * 100.0,
            s.lot_deals
        );
        out += &format!(
            "Lot succeeded         {:.1}% ± {:.1}% of Lots ({} of {})\n",
            success * 100.0,
            success_ci * 100.0,
            s.lot_successes,
            s.lot_deals
        );
    }
    if matches!(args.rules.scoring, Scoring::Mura { .. }) {
        let (rate, ci) = stats::proportion(s.exempt, s.seat_deals);
        out += &format!(
            "exempt from penalty   {:.1}% ± {:.1}% of seat-deals\n",
            rate * 100.0,
            ci * 100.0
        );
    }
    let (roles, roles_ci) = s.role_persistence();
    out += &format!(
        "worst seat repeats    {:.1}% ± {:.1}% of consecutive deals (no fixed roles: {:.1}%)\n",
        roles * 100.0,
        roles_ci * 100.0,
        100.0 / n as f64
    );
    out += "\nby position (0 = first leader, last = dealer)\n";
    out += &format!("{:<10}{:>16}", "position", "score ± 95%");
    let tricks = args.rules.tricks();
    for t in 0..=tricks {
        out += &format!("{:>7}", format!("{t}tr"));
    }
    out += "\n";
    let scores = s.score_by_position();
    for (p, ((mean, ci), row)) in scores.iter().zip(&s.tricks_by_position).enumerate() {
        let total: usize = row.iter().sum::<usize>().max(1);
        out += &format!("{:<10}{:>16}", p, format!("{mean:+.3} ± {ci:.3}"));
        for count in row {
            out += &format!("{:>6.1}%", *count as f64 * 100.0 / total as f64);
        }
        out += "\n";
    }
    out += "\nscoring rules fired\n";
    for (rule, count) in &s.rules_fired {
        out += &format!(
            "  {rule:<24}{:>7.2}%  ({count})\n",
            *count as f64 * 100.0 / s.deals.max(1) as f64
        );
    }
    out
}

fn plot_error(e: impl std::fmt::Display) -> Failure {
    Failure::input(format!("cannot draw plot: {e}"))
}

fn plots(dir: &Path, rules: &Ruleset, s: &Stats) -> Result<(), Failure> {
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
        let root = SVGBackend::with_string(&mut svg, (640, 400)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!(
                    "{}: mean deal score by position",
                    crate::input::rules_label(rules)
                ),
                ("sans-serif", 20),
            )
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(48)
            .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), (lo - pad)..(hi + pad))
            .map_err(plot_error)?;
        chart
            .configure_mesh()
            .x_desc("position (0 = first leader)")
            .y_desc("score")
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
    // Distribution of tricks per position.
    let path = dir.join("tricks-by-position.svg");
    let mut svg = String::new();
    {
        let tricks = rules.tricks();
        let root = SVGBackend::with_string(&mut svg, (640, 400)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!(
                    "{}: tricks won by position",
                    crate::input::rules_label(rules)
                ),
                ("sans-serif", 20),
            )
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(48)
            .build_cartesian_2d(-0.5f64..(tricks as f64 + 0.5), 0f64..1f64)
            .map_err(plot_error)?;
        chart
            .configure_mesh()
            .x_desc("tricks")
            .y_desc("share of deals")
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
                .label(format!("position {p}"))
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
        let root = SVGBackend::with_string(&mut svg, (640, 400)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!("{}: deals per game", crate::input::rules_label(rules)),
                ("sans-serif", 20),
            )
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(48)
            .build_cartesian_2d(0f64..(max as f64 + 1.0), 0f64..top * 1.1)
            .map_err(plot_error)?;
        chart
            .configure_mesh()
            .x_desc("deals")
            .y_desc("games")
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
    Ok(())
}
