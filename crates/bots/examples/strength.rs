//! How strong are the bots? Duplicate deals against a field of `heuristic` bots, per preset.
//!
//! ```text
//! cargo run --release -p torite-bots --example strength -- --deals 2000 --seed 1 [PRESET...]
//! ```
//!
//! `--help` lists the options: the number of deals and the seed, the bot measured (`--best`)
//! and the field it plays among (`--field`), equal wall-clock time a decision (`--movetime`,
//! `--best-movetime`), the cheating reference, and a cache of per-deal scores. Against a field,
//! `--seeds N` plays the deals of N seeds, each its own run and cache file, and pools them, so
//! that a long measurement can be made a seed at a time. Without presets, every preset is
//! played.
//!
//! For each preset, four arena runs on the same deals (the arena's deals depend only on the
//! seed), each deal played in every seat rotation:
//!
//! - `heuristic` in every seat: the baseline;
//! - `random`, the search bot and the cheating reference, each alone among
//!   `heuristic` bots, so that it is seated once in every seat of every deal.
//!
//! Scores are the arena's deal scores ([`torite_bots::reward::deal_rewards`]): higher is better
//! in every preset (Mura's penalty points count negative). A bot's difference to the baseline
//! is paired deal by deal: its mean score over the rotations of a deal minus the mean score of
//! a seat in the all-`heuristic` play of that deal. The gap closed is
//! (search − heuristic) / (reference − heuristic), with a delta-method 95% interval.
//!
//! The Markdown table goes to standard output, one preset's rows as soon as they are done;
//! progress goes to standard error.

use std::io::Write;
use std::time::Instant;

use torite_bots::arena::{self, ArenaConfig, BotResult, Unit, mean_ci95};
use torite_core::Preset;

#[path = "common/cli.rs"]
mod cli;

/// Duplicate deals: a search bot alone among a field (by default `heuristic` bots, with the
/// baseline, `random` and the cheating reference), per preset.
#[derive(clap::Parser)]
#[command(name = "strength")]
struct Args {
    /// Deals per preset, each played in every seat rotation.
    #[arg(long, default_value_t = 2000, value_parser = cli::at_least(2usize))]
    deals: usize,
    /// The arena's seed: the deals depend on it alone.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// With `--field`: play the deals of this many seeds in turn (`--seed` and the ones after
    /// it), each its own run (and, with `--cache`, its own file, so that a long measurement can
    /// be made a seed at a time and resumed), and pool them: `--deals` times this many deals.
    #[arg(long, default_value_t = 1, value_parser = cli::at_least(1u64))]
    seeds: u64,
    /// Threads to play on (0: every core); the results do not depend on it.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// The search bot measured.
    #[arg(long, default_value = "ismcts", value_parser = cli::bot)]
    best: String,
    /// The bots it plays among; any other than `heuristic` plays it alone among them, one run
    /// a preset, and reports its score against its table's field.
    #[arg(long, default_value = "heuristic", value_parser = cli::bot)]
    field: String,
    /// Every search bot thinks this many milliseconds a decision, whatever its budget.
    #[arg(long, value_name = "MS", value_parser = cli::millis)]
    movetime: Option<u32>,
    /// The best bot alone thinks this many milliseconds a decision (the field keeps
    /// `--movetime` or its own budget).
    #[arg(long, value_name = "MS", value_parser = cli::millis)]
    best_movetime: Option<u32>,
    /// The cheating reference.
    #[arg(long, default_value = "omniscient", value_parser = cli::bot)]
    reference: String,
    /// Play the reference on the first K deals only; its gap closed is measured on those.
    #[arg(long, value_name = "K", value_parser = cli::at_least(2usize))]
    omniscient_deals: Option<usize>,
    /// Keep each run's per-deal scores here, and reuse them when the same run comes again.
    #[arg(long, value_name = "DIR")]
    cache: Option<std::path::PathBuf>,
    /// The presets to play (all of them if none is given).
    #[arg(value_name = "PRESET", value_parser = cli::preset)]
    presets: Vec<Preset>,
}

fn parse_args() -> Args {
    let mut args = <Args as clap::Parser>::parse();
    if args.seed.checked_add(args.seeds).is_none() {
        eprintln!(
            "strength: --seed {} --seeds {}: past the last seed",
            args.seed, args.seeds
        );
        std::process::exit(2);
    }
    if args.seeds > 1 && args.field == "heuristic" {
        eprintln!(
            "strength: --seeds pools a bot's runs against a field: give the field with --field"
        );
        std::process::exit(2);
    }
    if args.presets.is_empty() {
        args.presets = Preset::ALL.to_vec();
    }
    args.omniscient_deals = args.omniscient_deals.map(|k| k.min(args.deals));
    args
}

/// One bot's run alone among `heuristic` bots (or the all-`heuristic` baseline).
fn play(
    args: &Args,
    pool: &rayon::ThreadPool,
    preset: Preset,
    bot: &str,
    deals: usize,
    seed: u64,
) -> Result<BotResult, torite_bots::BotError> {
    let rules = preset.ruleset();
    let spec =
        |name: &str, ms: Option<u32>| -> Result<torite_bots::BotSpec, torite_bots::BotError> {
            let spec: torite_bots::BotSpec = name.parse()?;
            Ok(ms.map_or(spec, |ms| spec.with_movetime(ms)))
        };
    // `--best-movetime` times the best bot alone (not the baseline, random or the reference).
    let own_time = if bot == args.best {
        args.best_movetime.or(args.movetime)
    } else {
        args.movetime
    };
    let mut bots: Vec<torite_bots::BotSpec> = vec![spec(bot, own_time)?];
    if bot != args.field || own_time != args.movetime {
        let field = spec(&args.field, args.movetime)?;
        bots.extend((1..rules.players).map(|_| field));
    }
    let config = ArenaConfig {
        rules,
        bots,
        units: deals,
        unit: Unit::Deal,
        seed,
        keep_records: false,
    };
    let file = args.cache.as_ref().map(|dir| {
        dir.join(format!(
            // `seeds`: the arena's deals of the one seed scheme (docs/SEEDS.md); files of
            // the arena's earlier scheme are not read back.
            "{}-{}{}{}{}-{deals}-{}-seeds.txt",
            preset.id(),
            bot.replace([':', '/'], "_"),
            if own_time == args.movetime {
                String::new()
            } else {
                own_time.map_or(String::new(), |ms| format!("-{ms}ms"))
            },
            if args.field == "heuristic" {
                String::new()
            } else {
                format!("-among-{}", args.field.replace([':', '/'], "_"))
            },
            args.movetime.map_or(String::new(), |ms| format!("-{ms}ms")),
            seed
        ))
    });
    if let Some(cached) = file.as_deref().and_then(load) {
        eprintln!(
            "{}: {bot} among {} bots, {deals} deals, cached",
            preset.id(),
            args.field
        );
        return Ok(cached);
    }
    let start = Instant::now();
    let result = pool.install(|| arena::run(&config, &|| {}))?;
    eprintln!(
        "{}: {bot} among {} bots, {deals} deals, {:.1} s",
        preset.id(),
        args.field,
        start.elapsed().as_secs_f64()
    );
    let result = result
        .bots
        .into_iter()
        .next()
        .expect("one bot in the lineup");
    if let Some(file) = &file {
        save(file, &result);
    }
    Ok(result)
}

/// A cached run: a first line of `mean ci95 diff diff_ci95 decision_ms`, then one deal's score
/// a line (written with Rust's shortest exact float formatting, so they read back exactly).
fn load(file: &std::path::Path) -> Option<BotResult> {
    let text = std::fs::read_to_string(file).ok()?;
    let mut lines = text.lines();
    let head: Vec<f64> = lines
        .next()?
        .split_whitespace()
        .map(|x| x.parse().ok())
        .collect::<Option<_>>()?;
    let unit_scores = lines
        .map(|x| x.parse().ok())
        .collect::<Option<Vec<f64>>>()?;
    let [mean, ci95, diff, diff_ci95, decision_ms] = head[..] else {
        return None;
    };
    Some(BotResult {
        name: String::new(),
        mean,
        ci95,
        diff,
        diff_ci95,
        win_rate: None,
        win_ci95: None,
        decision_ms,
        // The cache keeps the mean time only.
        decision_max_ms: f64::NAN,
        unit_scores,
    })
}

fn save(file: &std::path::Path, r: &BotResult) {
    let mut text = format!(
        "{} {} {} {} {}\n",
        r.mean, r.ci95, r.diff, r.diff_ci95, r.decision_ms
    );
    for x in &r.unit_scores {
        text.push_str(&format!("{x}\n"));
    }
    let written = file
        .parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|()| std::fs::write(file, text));
    if let Err(e) = written {
        eprintln!("{}: not cached: {e}", file.display());
    }
}

/// Runs of the same bot on as many deals each, of different seeds, as one: the mean of their
/// means, and an interval from their standard errors (the runs are independent).
fn pooled(runs: &[BotResult]) -> BotResult {
    let k = runs.len() as f64;
    let mean = |f: fn(&BotResult) -> f64| runs.iter().map(f).sum::<f64>() / k;
    let ci = |f: fn(&BotResult) -> f64| runs.iter().map(|r| f(r).powi(2)).sum::<f64>().sqrt() / k;
    BotResult {
        name: String::new(),
        mean: mean(|r| r.mean),
        ci95: ci(|r| r.ci95),
        diff: mean(|r| r.diff),
        diff_ci95: ci(|r| r.diff_ci95),
        win_rate: None,
        win_ci95: None,
        decision_ms: mean(|r| r.decision_ms),
        decision_max_ms: runs
            .iter()
            .map(|r| r.decision_max_ms)
            .fold(f64::NAN, f64::max),
        unit_scores: runs.iter().flat_map(|r| r.unit_scores.clone()).collect(),
    }
}

fn pm(mean: f64, ci: f64) -> String {
    format!("{mean:.3} ± {ci:.3}")
}

fn signed(mean: f64, ci: f64) -> String {
    format!("{mean:+.3} ± {ci:.3}")
}

/// One preset's verdicts, for the summary.
struct Verdict {
    preset: Preset,
    beats_random: bool,
    beats_heuristic: bool,
    gap: String,
    half_gap: bool,
}

fn row(cells: &[String]) -> String {
    format!("| {} |", cells.join(" | "))
}

/// `--field` other than `heuristic`: the best bot alone among the field, each preset one arena
/// run, its score against its table's field paired within each deal.
fn head_to_head(args: &Args, pool: &rayon::ThreadPool) {
    let started = Instant::now();
    let mut out = std::io::stdout().lock();
    let time = match (args.best_movetime, args.movetime) {
        (Some(best), Some(ms)) => {
            format!(
                ", {best} ms a decision for `{}` and {ms} ms for every other search bot",
                args.best
            )
        }
        (Some(best), None) => format!(", {best} ms a decision for `{}`", args.best),
        (None, Some(ms)) => format!(", {ms} ms a decision for every search bot"),
        (None, None) => String::new(),
    };
    let seeds = if args.seeds == 1 {
        format!("seed {}", args.seed)
    } else {
        format!(
            "seeds {} to {}, {} deals each",
            args.seed,
            args.seed + args.seeds - 1,
            args.deals
        )
    };
    let _ = writeln!(
        out,
        "`{}` alone among `{}` bots: mean deal score per seat, higher is better in every \
         preset (penalty points negative); {} duplicate deals, {seeds}{time}, each deal played \
         in every seat rotation; the difference to its table's `{}` bots is paired within each \
         deal; 95% intervals.\n",
        args.best,
        args.field,
        args.deals * args.seeds as usize,
        args.field
    );
    let _ = writeln!(
        out,
        "| preset | mean score | − its table's `{}` | ms / decision | beats it |",
        args.field
    );
    let _ = writeln!(out, "|---|---|---|---|---|");
    let mut wins = 0;
    for &preset in &args.presets {
        let runs: Vec<BotResult> = (args.seed..args.seed + args.seeds)
            .map(|seed| play(args, pool, preset, &args.best, args.deals, seed))
            .collect::<Result<_, _>>()
            .unwrap_or_else(|e| {
                eprintln!("{}: {e}", preset.id());
                std::process::exit(1);
            });
        if runs.len() > 1 {
            for (seed, run) in (args.seed..).zip(&runs) {
                eprintln!(
                    "{}: seed {seed}: {}",
                    preset.id(),
                    signed(run.diff, run.diff_ci95)
                );
            }
        }
        let r = pooled(&runs);
        let beats = r.diff - r.diff_ci95 > 0.0;
        wins += usize::from(beats);
        let _ = writeln!(
            out,
            "{}",
            row(&[
                format!("`{}`", preset.id()),
                pm(r.mean, r.ci95),
                signed(r.diff, r.diff_ci95),
                format!("{:.2}", r.decision_ms),
                if beats { "yes" } else { "**no**" }.to_owned(),
            ])
        );
        let _ = out.flush();
    }
    let _ = writeln!(
        out,
        "\nBeats `{}` with the interval clear of zero in {wins} of {} presets. Total time: \
         {:.0} s on {} thread(s).",
        args.field,
        args.presets.len(),
        started.elapsed().as_secs_f64(),
        args.threads
    );
}

fn main() {
    let args = parse_args();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()
        .expect("a thread pool");
    if args.field != "heuristic" {
        head_to_head(&args, &pool);
        return;
    }
    let started = Instant::now();
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "Mean deal score per seat, higher is better in every preset (penalty points negative); \
         {} duplicate deals, seed {}, each deal played in every seat rotation. Differences \
         are paired deal by deal with the all-`heuristic` baseline; 95% intervals.\n",
        args.deals, args.seed
    );
    let _ = writeln!(
        out,
        "| preset | bot | mean score | − heuristic (paired) | − its table's heuristics | ms / decision | goal |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|---|");
    let mut verdicts = Vec::new();
    for &preset in &args.presets {
        let t = Instant::now();
        let bots = [
            "heuristic",
            "random",
            args.best.as_str(),
            args.reference.as_str(),
        ];
        let results = bots
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let deals = match i {
                    3 => args.omniscient_deals.unwrap_or(args.deals),
                    _ => args.deals,
                };
                play(&args, &pool, preset, b, deals, args.seed)
            })
            .collect::<Result<Vec<BotResult>, _>>()
            .unwrap_or_else(|e| {
                eprintln!("{}: {e}", preset.id());
                std::process::exit(1);
            });
        let base = &results[0].unit_scores;
        let diffs: Vec<Vec<f64>> = results
            .iter()
            .map(|r| r.unit_scores.iter().zip(base).map(|(x, b)| x - b).collect())
            .collect();
        let d: Vec<(f64, f64)> = diffs.iter().map(|x| mean_ci95(x)).collect();
        // Gap closed: ratio of the search bot's and omniscient's gains, with a delta-method
        // interval; the goal itself is checked as gain(best) − ½ gain(omniscient) ≥ 0.
        // `omniscient` may have played only the first deals: compare on those.
        let k = diffs[3].len();
        let (gain_best, gain_omni) = (&diffs[2][..k], &diffs[3]);
        let gain_best_k = mean_ci95(gain_best).0;
        let ratio = gain_best_k / d[3].0;
        let spread: Vec<f64> = gain_best
            .iter()
            .zip(gain_omni)
            .map(|(a, g)| a - ratio * g)
            .collect();
        let ratio_ci = mean_ci95(&spread).1 / d[3].0.abs();
        let margin: Vec<f64> = gain_best
            .iter()
            .zip(gain_omni)
            .map(|(a, g)| a - 0.5 * g)
            .collect();
        let (margin, margin_ci) = mean_ci95(&margin);
        let verdict = Verdict {
            preset,
            beats_random: d[1].0 + d[1].1 < 0.0,
            beats_heuristic: d[2].0 - d[2].1 > 0.0,
            gap: if d[3].0 > 0.0 {
                pm(ratio, ratio_ci)
            } else {
                "n/a (reference ≤ heuristic)".to_owned()
            },
            half_gap: margin >= 0.0,
        };
        let yes = |b: bool| if b { "yes" } else { "**no**" };
        let goals = [
            "baseline".to_owned(),
            format!("heuristic beats random: {}", yes(verdict.beats_random)),
            format!("beats heuristic: {}", yes(verdict.beats_heuristic)),
            if args.best == "heuristic" {
                // Only the reference is measured: there is no gap to close.
                "reference".to_owned()
            } else {
                format!(
                    "gap closed {}: {} (margin {}{})",
                    verdict.gap,
                    yes(verdict.half_gap),
                    signed(margin, margin_ci),
                    if k < args.deals {
                        format!("; first {k} deals")
                    } else {
                        String::new()
                    }
                )
            },
        ];
        for (i, r) in results.iter().enumerate() {
            let (field, paired) = if i == 0 {
                ("—".to_owned(), "—".to_owned())
            } else {
                (signed(r.diff, r.diff_ci95), signed(d[i].0, d[i].1))
            };
            let _ = writeln!(
                out,
                "{}",
                row(&[
                    format!("`{}`", preset.id()),
                    format!("`{}`", bots[i]),
                    pm(r.mean, r.ci95),
                    paired,
                    field,
                    format!("{:.2}", r.decision_ms),
                    goals[i].clone(),
                ])
            );
        }
        let _ = out.flush();
        eprintln!(
            "{}: done in {:.1} s ({:.1} s in all)",
            preset.id(),
            t.elapsed().as_secs_f64(),
            started.elapsed().as_secs_f64()
        );
        verdicts.push(verdict);
    }
    let _ = writeln!(
        out,
        "\n| preset | heuristic beats random | {0} beats heuristic | gap closed by {0} | closes half the gap |",
        args.best
    );
    let _ = writeln!(out, "|---|---|---|---|---|");
    let mark = |b: bool| if b { "✓" } else { "✗" };
    for v in &verdicts {
        let _ = writeln!(
            out,
            "{}",
            row(&[
                format!("`{}`", v.preset.id()),
                mark(v.beats_random).to_owned(),
                mark(v.beats_heuristic).to_owned(),
                if args.best == "heuristic" {
                    "—".to_owned()
                } else {
                    v.gap.clone()
                },
                if args.best == "heuristic" {
                    "—".to_owned()
                } else {
                    mark(v.half_gap).to_owned()
                },
            ])
        );
    }
    let _ = writeln!(
        out,
        "\nTotal time: {:.0} s on {} thread(s).",
        started.elapsed().as_secs_f64(),
        args.threads
    );
}
