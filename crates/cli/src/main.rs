//! `torite`: the command-line front end of the torite trick-taking engine.

mod admin;
mod analyse;
mod arena;
mod bench;
mod deal;
mod input;
mod play;
mod rules;
mod save;
mod score;
mod serve;
mod sheet;
mod show;
mod stats;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use torite_bots::{BotError, BotSpec};

/// mimalloc rather than the C library's allocator: `torite serve` under load spent about a
/// fifth of its CPU time in glibc's malloc and free (README, "When one machine is not enough").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Trick-taking games (トリテ): Mini Misère, the Jass avoidance family and Mura.
#[derive(Parser, Debug)]
#[command(name = "torite", version, about, long_about = None, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play a game against bots: full-screen, or line by line with --plain.
    Play {
        /// A preset id or a house-rule file (default: mini-misere-4).
        ruleset: Option<String>,
        /// Your seat.
        #[arg(long, default_value_t = 0)]
        seat: usize,
        /// Bots for the other seats, comma-separated, in turn: a level, weakest first beginner,
        /// casual, club, strong, expert (default: club; with --fast, heuristic), or an algorithm as
        /// in `torite arena`.
        #[arg(long, value_delimiter = ',', value_parser = bot_spec)]
        bots: Vec<BotSpec>,
        /// Seed of the deals (default: from the clock).
        #[arg(long)]
        seed: Option<u64>,
        /// Language: ja or en (default: from the locale).
        #[arg(long)]
        lang: Option<torite_i18n::Lang>,
        /// Continue a saved game.
        #[arg(long, conflicts_with_all = ["ruleset", "seat", "bots", "seed"])]
        resume: Option<PathBuf>,
        /// Line-oriented mode: prompts and answers on standard input and output.
        #[arg(long)]
        plain: bool,
        /// Instant bots.
        #[arg(long)]
        fast: bool,
        /// How suits are drawn: symbols (♠ ♥ ♦ ♣) or letters (S H D C). Default: letters in
        /// the Japanese full screen, where terminals set up for Japanese draw the symbols two
        /// cells wide; symbols otherwise.
        #[arg(long, value_enum)]
        suits: Option<play::text::SuitStyle>,
        /// The same as --suits letters.
        #[arg(long, hide = true, conflicts_with = "suits")]
        letters: bool,
        /// Where to save the game record.
        #[arg(long)]
        save: Option<PathBuf>,
    },
    /// Keep score of a game played with real cards: enter each deal's facts.
    Score {
        /// A preset id or a house-rule file (default: mini-misere-4).
        ruleset: Option<String>,
        /// Language: ja or en (default: from the locale).
        #[arg(long)]
        lang: Option<torite_i18n::Lang>,
        /// Where to save the sheet.
        #[arg(long)]
        save: Option<PathBuf>,
        /// The players' names in seat order, separated by commas ("Aki,Ben,Chie,Dan");
        /// asked when not given.
        #[arg(long)]
        players: Option<String>,
        /// Continue a saved sheet.
        #[arg(long, conflicts_with_all = ["ruleset", "save", "players"])]
        resume: Option<PathBuf>,
    },
    /// Check a game record action by action and print its scores as JSON (RECORD.md).
    Replay {
        /// The record file, or `-` for standard input.
        file: PathBuf,
    },
    /// Count the legal action sequences of a given length after a record's last action.
    Perft {
        /// The record file, or `-` for standard input.
        file: PathBuf,
        /// The sequence length.
        #[arg(long)]
        depth: u32,
    },
    /// List the presets, or describe one ruleset (the rules sheet's text); `--toml` prints
    /// its options as a house-rule TOML file instead.
    Rules {
        /// A preset id or a house-rule file (TOML or JSON).
        ruleset: Option<String>,
        /// Language: ja or en (default: from the locale).
        #[arg(long)]
        lang: Option<torite_i18n::Lang>,
        /// Print the options as a house-rule TOML file, each labelled in the language.
        #[arg(long, requires = "ruleset")]
        toml: bool,
    },
    /// Deal a seeded random deal (ChaCha8) and print it as a record; `--play` plays a whole
    /// game with random legal actions.
    Deal {
        /// A preset id or a house-rule file (TOML or JSON).
        ruleset: String,
        /// The seed: the same seed gives the same deal on every machine and version.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// The first dealer's seat (default: the last seat, so that seat 0 leads, as on every
        /// surface).
        #[arg(long)]
        dealer: Option<usize>,
        /// Play a complete game with uniformly random legal actions.
        #[arg(long)]
        play: bool,
    },
    /// Review a recorded game: every decision's legal actions valued from the deciding seat's
    /// own view (expected deal score, higher is better), the loss of the action played and a
    /// verdict; with every hand known where the solver settles it (docs/ANALYSIS.md).
    Analyse {
        /// The record file, or `-` for standard input.
        file: PathBuf,
        /// Only this seat, numbered from 0 as `torite show` does (default: every seat).
        #[arg(long, conflicts_with = "all")]
        seat: Option<usize>,
        /// Every seat (the default).
        #[arg(long)]
        all: bool,
        /// Only this deal, numbered from 1 as `torite show` does.
        #[arg(long)]
        deal: Option<usize>,
        /// Worlds (deals consistent with the seat's view) per decision, 1 to 10000.
        #[arg(long, default_value_t = torite_bots::analysis::DEFAULT_WORLDS,
              value_parser = clap::value_parser!(u32).range(1..=i64::from(torite_bots::analysis::MAX_WORLDS)))]
        budget: u32,
        /// Seed of the worlds: the same seed gives the same analysis.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
        /// Language: ja or en (default: from the locale).
        #[arg(long)]
        lang: Option<torite_i18n::Lang>,
    },
    /// Show a record as a readable score sheet, trick by trick.
    Show {
        /// The record file, or `-` for standard input.
        file: PathBuf,
        /// Only the score sheet, without the tricks.
        #[arg(long)]
        scores_only: bool,
        /// Language: ja or en (default: from the locale).
        #[arg(long)]
        lang: Option<torite_i18n::Lang>,
    },
    /// Duplicate tournament between bots: every deal replayed with the bots rotated through
    /// every seat.
    Arena {
        /// A preset id or a house-rule file.
        #[arg(long)]
        ruleset: String,
        /// Bots, comma-separated; seats are filled with them in turn: a level (beginner, casual,
        /// club, strong, expert) or an algorithm: random, heuristic, ismcts, ismcts-inf (with
        /// inference from the others' play), ismcts-eval (with a learned evaluation), ismcts-eq
        /// (with equivalent cards searched as one), ismcts-duck (with rollouts half played by a
        /// ducking rule), ismcts-lot (with rollouts that play a declared Lot out), ismcts-pol
        /// (inference with a policy learned from the search), ismcts-net (inference with a small
        /// neural network learned from the search), ismcts-read (inference with a
        /// small search standing in for each other seat; ten to forty times slower), ismcts-table
        /// (every seat playing to beat the table: its score less the table's mean; a declared
        /// Lot played out; the strongest), pimc, and the cheating references omniscient (sees every hand) and maxn (sees every hand
        /// and plays the exact max^n solution; Mini Misère only, omniscient elsewhere). A
        /// search bot takes a budget: ismcts:2000 (iterations, 1 to 1000000), ismcts:200ms
        /// (time, 1ms to 60000ms).
        #[arg(long, value_delimiter = ',', required = true, value_parser = bot_spec)]
        bots: Vec<BotSpec>,
        /// Number of random deals (each played in every rotation), 1 to 1000000.
        #[arg(long, conflicts_with = "games", value_parser = count(1_000_000))]
        deals: Option<usize>,
        /// Number of whole games instead of single deals, 1 to 100000.
        #[arg(long, value_parser = count(100_000))]
        games: Option<usize>,
        /// Master seed.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Worker threads, 1 to 256 (default: all cores).
        #[arg(long, value_parser = count(256))]
        threads: Option<usize>,
        /// Wall-clock milliseconds per decision, 1 to 60000, for every bot that searches (the
        /// levels that search included), instead of their own budgets: equal time for all.
        #[arg(long, value_parser = count(u64::from(torite_bots::MAX_MILLIS)))]
        movetime: Option<usize>,
        /// Print one JSON object instead of a table.
        #[arg(long)]
        json: bool,
        /// Save every game as a record in this folder.
        #[arg(long)]
        records: Option<PathBuf>,
        /// Language of the table: ja or en (default: from the locale).
        #[arg(long)]
        lang: Option<torite_i18n::Lang>,
    },
    /// Play whole games with bots and report what a club asks: Lot rates, tricks and scores by
    /// position, game length, scoring rules fired, Mura exemptions.
    Stats {
        /// A preset id or a house-rule file.
        #[arg(long)]
        ruleset: String,
        /// Bot specs filling the seats in turn, levels or algorithms as in `torite arena`
        /// (default: heuristic, which decides instantly;
        /// in a game with the Lot ismcts:1000, since heuristic never declares it).
        #[arg(long, value_delimiter = ',', value_parser = bot_spec)]
        bots: Vec<BotSpec>,
        /// Number of whole games, 1 to 1000000.
        #[arg(long, default_value_t = 1000, value_parser = count(1_000_000))]
        games: usize,
        /// Master seed.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Print one JSON object instead of a table.
        #[arg(long)]
        json: bool,
        /// Write SVG plots into this folder.
        #[arg(long)]
        plots: Option<PathBuf>,
        /// Language of the report and the plots: ja or en (default: from the locale).
        #[arg(long)]
        lang: Option<torite_i18n::Lang>,
    },
    /// Make a printable sheet: a one-page rules summary, score cards to cut out (57×89 mm,
    /// nine to an A4 page), a blank score sheet, the score sheet of a game kept with `torite
    /// score`, or the rules of a game's forms side by side, as HTML or PDF.
    Sheet {
        /// A preset id, a house-rule file (TOML or JSON) or a `torite score` save; with
        /// `--kind compare` also a game's family: `mini-misere` sets its six forms side by
        /// side.
        ruleset: String,
        /// Language: ja or en (default: from the locale).
        #[arg(long)]
        lang: Option<torite_i18n::Lang>,
        /// rules, scores, scorepad or compare (the ruleset beside the presets scored the
        /// same way, differences marked). Default: rules; for a `torite score` save, its
        /// score sheet with the game so far written in.
        #[arg(long)]
        kind: Option<torite_sheets::Kind>,
        /// html or pdf (default: from the output file's extension, else html).
        #[arg(long)]
        format: Option<torite_sheets::Format>,
        /// Where to write the sheet (default: standard output).
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Serve online play: the lobby, tables over WebSocket and the browser client, until
    /// SIGTERM or Ctrl-C (then it closes the sockets and the store and exits 0). Settings
    /// come from the flags, then TORITE_* variables, then --config FILE, then the defaults.
    Serve(serve::ServeArgs),
    /// Back up and restore the server's database: every table, profile, score sheet and
    /// duplicate series as JSON lines.
    #[command(arg_required_else_help = false)]
    Admin {
        #[command(subcommand)]
        command: admin::AdminCommand,
    },
    /// Load-test the server: bot-filled tables played by WebSocket clients on 127.0.0.1;
    /// reports actions per second and action latency as JSON.
    Loadtest {
        /// Tables played at once, 1 to 5000.
        #[arg(long, default_value_t = 100, value_parser = count(5000))]
        tables: usize,
        /// The preset every table plays.
        #[arg(long, default_value = "mini-misere-4")]
        ruleset: String,
        /// Deals per game, 1 to 1000.
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=1000))]
        deals: u32,
        /// Seats per table played by WebSocket clients, 1 to 6 (the most seats a table has);
        /// the server's bots play the others.
        #[arg(long, default_value_t = 1, value_parser = count(6))]
        clients: usize,
        /// The server's bot.
        #[arg(long, default_value = "random")]
        bot: String,
        /// A running server on a loopback address (default: start one in this process).
        #[arg(long)]
        addr: Option<std::net::SocketAddr>,
        /// Database of the server started here (default: a temporary SQLite file).
        #[arg(long)]
        db: Option<String>,
        /// Stop after this many seconds, 1 to 86400 (a day).
        #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..=86_400))]
        seconds: u64,
        /// Milliseconds the server's bots wait before acting, 0 (at once) to 60000.
        #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=60_000))]
        bot_delay_ms: u64,
        /// Milliseconds a client thinks before acting, 0 to 60000.
        #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=60_000))]
        think_ms: u64,
        /// Milliseconds each think may fall either side of --think-ms, at random (0 to
        /// --think-ms): 0 keeps every table acting at the same moments.
        #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=60_000))]
        think_jitter_ms: u64,
        /// Start this many `torite serve` processes, 1 to 8, on the --db PostgreSQL database (a
        /// cluster) and spread the clients over them; also reports lost_actions, double_owned
        /// and takeover_seconds from the database.
        #[arg(long, default_value_t = 1, value_parser = count(8))]
        nodes: usize,
        /// Kill the first node with SIGKILL in the middle of play (--after seconds).
        #[arg(long, group = "failure", requires = "after")]
        kill_node: bool,
        /// Stop the first node with SIGSTOP in the middle of play (--after seconds), as if its
        /// machine died: its sockets stay open and silent and its leases run out; it is woken
        /// with SIGCONT once play is over, before the logs are read.
        #[arg(long, group = "failure", requires = "after")]
        freeze_node: bool,
        /// When --kill-node or --freeze-node strikes: seconds after play begins, 1 to 3600.
        #[arg(long, requires = "failure", value_parser = clap::value_parser!(u64).range(1..=3600))]
        after: Option<u64>,
        /// With --nodes: keep each node's log (level info) in this directory as node-N.log
        /// (node-0 is the one killed or frozen).
        #[arg(long, value_name = "DIR")]
        node_logs: Option<std::path::PathBuf>,
    },
    /// Measure random playouts per second, single-threaded; one JSON line per ruleset.
    Bench {
        /// Only this preset (default: every preset).
        #[arg(long)]
        ruleset: Option<String>,
        /// Seconds to measure each ruleset, 0.001 to 3600.
        #[arg(long, default_value_t = 2.0, value_parser = bench_seconds, allow_negative_numbers = true)]
        seconds: f64,
    },
}

/// A count option's parser: a whole number from 1 to `max` (clap names the option and the
/// range when it is refused).
fn count(max: u64) -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::<usize>::new().range(1..=max)
}

/// Parses one bot spec of a `--bots` list (`club`, `heuristic`, `ismcts:2000`, `ismcts:200ms`), so
/// that a bad one is a usage error naming the option and the value.
fn bot_spec(text: &str) -> Result<BotSpec, BotError> {
    text.parse()
}

/// The range of `torite bench --seconds`.
const BENCH_SECONDS: std::ops::RangeInclusive<f64> = 0.001..=3600.0;

/// Parses `torite bench --seconds`: a number of seconds within [`BENCH_SECONDS`].
fn bench_seconds(text: &str) -> Result<f64, String> {
    let range = format!("{}..={}", BENCH_SECONDS.start(), BENCH_SECONDS.end());
    match text.trim().parse::<f64>() {
        Ok(s) if BENCH_SECONDS.contains(&s) => Ok(s),
        Ok(_) => Err(format!("{text} is not in {range} (seconds)")),
        Err(_) => Err(format!("expected a number of seconds in {range}")),
    }
}

/// Turns a clap error into the one line `torite` prints for bad input: the message, any
/// continuation lines (a list of missing options, a tip) joined on, and where to find help.
fn usage_line(rendered: &str) -> String {
    let mut line = String::new();
    // clap shows the usage of the subcommand for some errors only: otherwise name the
    // subcommand given on the command line, if any.
    let subcommand = std::env::args().nth(1).filter(|name| {
        <Cli as clap::CommandFactory>::command()
            .get_subcommands()
            .any(|c| c.get_name() == name)
    });
    let mut help = match subcommand {
        Some(name) => format!("torite {name} --help"),
        None => "torite --help".to_owned(),
    };
    for text in rendered.lines().map(str::trim) {
        if text.is_empty() || text.starts_with("For more information") {
            continue;
        }
        if let Some(usage) = text.strip_prefix("Usage: ") {
            let path: Vec<&str> = usage
                .split_whitespace()
                .take_while(|w| !w.starts_with(['-', '[', '<']))
                .collect();
            help = format!("{} --help", path.join(" "));
        } else if let Some(first) = text.strip_prefix("error: ") {
            line += first;
        } else if text.starts_with("tip:") {
            line += &format!(" ({text})");
        } else if line.ends_with(':') {
            line += &format!(" {text}");
        } else {
            line += &format!(", {text}");
        }
    }
    format!("{line}; see '{help}'")
}

/// Parses the command line; a usage error becomes one line with exit status 2, while
/// `--help` and `--version` print as usual.
fn parse() -> Result<Cli, ExitCode> {
    use clap::error::ErrorKind;
    match Cli::try_parse() {
        Ok(cli) => Ok(cli),
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            let _ = e.print();
            Err(ExitCode::SUCCESS)
        }
        Err(e) if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let names: Vec<String> = <Cli as clap::CommandFactory>::command()
                .get_subcommands()
                .map(|c| c.get_name().to_owned())
                .collect();
            eprintln!(
                "a command is needed: {}; see 'torite --help'",
                names.join(", ")
            );
            Err(ExitCode::from(2))
        }
        Err(e) => {
            eprintln!("{}", usage_line(&e.render().to_string()));
            Err(ExitCode::from(2))
        }
    }
}

/// An error to report on one line of standard error, with its exit status.
#[derive(Debug)]
pub struct Failure {
    message: String,
    status: u8,
}

impl Failure {
    /// Bad input: exit status 2.
    pub fn input(message: impl std::fmt::Display) -> Failure {
        Failure {
            message: message.to_string(),
            status: 2,
        }
    }
}

fn run(cli: Cli) -> Result<String, Failure> {
    match cli.command {
        Command::Play {
            ruleset,
            seat,
            bots,
            seed,
            lang,
            resume,
            plain,
            fast,
            suits,
            letters,
            save,
        } => play::run(play::PlayArgs {
            ruleset,
            seat,
            bots,
            seed,
            lang,
            resume,
            plain,
            fast,
            suits: suits.or(letters.then_some(play::text::SuitStyle::Letters)),
            save,
        }),
        Command::Score {
            ruleset,
            lang,
            save,
            players,
            resume,
        } => {
            let catalog =
                torite_i18n::Catalog::new(lang.unwrap_or_else(torite_i18n::Lang::from_env));
            let resumed = resume.is_some();
            let mut sheet = match resume {
                Some(path) => score::Sheet::load(&path)?,
                None => {
                    let rules = input::load_rules(ruleset.as_deref().unwrap_or("mini-misere-4"))?;
                    let path = save.unwrap_or_else(|| {
                        let stamp = std::time::SystemTime::now()
                            .duration_since(std::time::UNIX_EPOCH)
                            .map_or(0, |d| d.as_secs());
                        PathBuf::from(format!("torite-score-{}-{stamp}.json", rules.id()))
                    });
                    score::Sheet::new(rules, path)
                }
            };
            if let Some(names) = &players {
                sheet
                    .set_names(&catalog, names)
                    .map_err(|why| Failure::input(format!("--players: {why}")))?;
            }
            let stdin = std::io::stdin();
            let mut input = stdin.lock();
            let mut output = std::io::stdout().lock();
            let ask_names = !resumed && players.is_none();
            score::run(&mut sheet, &catalog, ask_names, &mut input, &mut output)?;
            Ok(String::new())
        }
        Command::Replay { file } => {
            let replay = input::replay_file(&file)?;
            let report = serde_json::to_value(&replay.report).map_err(Failure::input)?;
            Ok(torite_core::to_pretty_json(&report))
        }
        Command::Perft { file, depth } => input::perft_file(&file, depth).map(|n| format!("{n}\n")),
        Command::Rules {
            ruleset,
            lang,
            toml,
        } => {
            let lang = lang.unwrap_or_else(torite_i18n::Lang::from_env);
            match ruleset {
                None => Ok(rules::list()),
                Some(arg) if toml => Ok(rules::toml(&input::load_rules(&arg)?, lang)),
                Some(arg) => Ok(rules::describe(&input::load_rules(&arg)?, lang)),
            }
        }
        Command::Deal {
            ruleset,
            seed,
            dealer,
            play,
        } => {
            let rules = input::load_rules(&ruleset)?;
            let record = deal::seeded(rules, seed, dealer, play)?;
            Ok(torite_core::to_pretty_json(&record.to_json()))
        }
        Command::Analyse {
            file,
            seat,
            all: _,
            deal,
            budget,
            seed,
            json,
            lang,
        } => analyse::run(&analyse::Args {
            file,
            seat,
            deal,
            worlds: budget,
            seed,
            json,
            catalog: torite_i18n::Catalog::new(lang.unwrap_or_else(torite_i18n::Lang::from_env)),
        }),
        Command::Show {
            file,
            scores_only,
            lang,
        } => {
            let (replay, kind) = show::read(&file)?;
            let catalog =
                torite_i18n::Catalog::new(lang.unwrap_or_else(torite_i18n::Lang::from_env));
            Ok(show::render(
                &replay,
                !scores_only && kind == input::Kind::Record,
                &catalog,
            ))
        }
        Command::Arena {
            ruleset,
            bots,
            deals,
            games,
            seed,
            threads,
            movetime,
            json,
            records,
            lang,
        } => {
            let bots = match movetime {
                // At most MAX_MILLIS, so it fits.
                Some(ms) => bots
                    .into_iter()
                    .map(|b| b.with_movetime(ms as u32))
                    .collect(),
                None => bots,
            };
            let (units, unit) = match (deals, games) {
                (_, Some(g)) => (g, torite_bots::arena::Unit::Game),
                (d, None) => (d.unwrap_or(100), torite_bots::arena::Unit::Deal),
            };
            arena::run(arena::Args {
                rules: input::load_rules(&ruleset)?,
                bots,
                units,
                unit,
                seed,
                threads,
                json,
                records,
                lang: lang.unwrap_or_else(torite_i18n::Lang::from_env),
            })
        }
        Command::Stats {
            ruleset,
            bots,
            games,
            seed,
            json,
            plots,
            lang,
        } => stats::run(stats::Args {
            rules: input::load_rules(&ruleset)?,
            bots,
            default_bots: false,
            games,
            seed,
            json,
            plots,
            lang: lang.unwrap_or_else(torite_i18n::Lang::from_env),
        }),
        Command::Sheet {
            ruleset,
            lang,
            kind,
            format,
            output,
        } => sheet::run(sheet::Args {
            source: sheet::load(&ruleset, kind)?,
            lang: lang.unwrap_or_else(torite_i18n::Lang::from_env),
            kind,
            format,
            output,
        }),
        Command::Serve(args) => serve::run(&args),
        Command::Admin { command } => admin::run(command),
        Command::Loadtest {
            tables,
            ruleset,
            deals,
            clients,
            bot,
            addr,
            db,
            seconds,
            bot_delay_ms,
            think_ms,
            think_jitter_ms,
            nodes,
            kill_node,
            freeze_node,
            after,
            node_logs,
        } => serve::loadtest(torite_server::loadtest::Args {
            tables,
            ruleset,
            deals,
            clients,
            bot,
            addr,
            db,
            limit: std::time::Duration::from_secs(seconds),
            bot_delay: std::time::Duration::from_millis(bot_delay_ms),
            think: std::time::Duration::from_millis(think_ms),
            think_jitter: std::time::Duration::from_millis(think_jitter_ms),
            nodes,
            kill_after: after
                .filter(|_| kill_node || freeze_node)
                .map(std::time::Duration::from_secs),
            freeze: freeze_node,
            program: std::env::current_exe().ok(),
            node_logs,
        }),
        Command::Bench { ruleset, seconds } => {
            let presets = match ruleset {
                Some(arg) => vec![input::load_rules(&arg)?],
                None => torite_core::Preset::ALL
                    .iter()
                    .map(|p| p.ruleset())
                    .collect(),
            };
            for rules in presets {
                let line = bench::run(rules, seconds);
                println!("{line}");
            }
            Ok(String::new())
        }
    }
}

fn main() -> ExitCode {
    let cli = match parse() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    match run(cli) {
        Ok(out) => {
            let mut stdout = std::io::stdout().lock();
            if stdout
                .write_all(out.as_bytes())
                .and_then(|()| stdout.flush())
                .is_err()
            {
                return ExitCode::from(1);
            }
            ExitCode::SUCCESS
        }
        Err(failure) => {
            // One line, whatever the message was built from.
            let lines: Vec<&str> = failure
                .message
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .collect();
            eprintln!("{}", lines.join("; "));
            ExitCode::from(failure.status)
        }
    }
}
