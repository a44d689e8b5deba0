//! Integration tests of the command line itself: every usage error of every subcommand is one
//! line on standard error with exit status 2, `--help` and `--version` print as usual, options
//! that size something are bounded and say their range, and house-rule errors say where.

mod common;

use common::torite;

/// Every subcommand, with arguments that satisfy its required ones.
const SUBCOMMANDS: [(&str, &[&str]); 13] = [
    ("play", &[]),
    ("score", &[]),
    ("replay", &["x.json"]),
    ("perft", &["x.json", "--depth", "1"]),
    ("rules", &[]),
    ("deal", &["mura-4"]),
    ("show", &["x.json"]),
    ("arena", &["--ruleset", "mura-4", "--bots", "random"]),
    ("stats", &["--ruleset", "mura-4"]),
    ("sheet", &["mura-4"]),
    ("serve", &[]),
    ("loadtest", &[]),
    ("bench", &[]),
];

/// Asserts a usage error: status 2, nothing on standard output, one line on standard error.
fn one_line(args: &[&str]) -> String {
    let run = torite(args);
    assert_eq!(run.status, Some(2), "{args:?}: {}", run.stderr);
    assert_eq!(run.stdout, "", "{args:?}");
    assert_eq!(
        run.stderr.lines().count(),
        1,
        "{args:?}: one line, got {:?}",
        run.stderr
    );
    assert!(run.stderr.ends_with('\n'));
    run.stderr.trim_end().to_owned()
}

#[test]
fn an_unknown_flag_is_one_line_for_every_subcommand() {
    for (name, required) in SUBCOMMANDS {
        let mut args = vec![name];
        args.extend(required);
        args.push("--no-such-flag");
        let line = one_line(&args);
        assert!(
            line.starts_with("unexpected argument '--no-such-flag' found"),
            "{line}"
        );
        assert!(
            line.ends_with(&format!("; see 'torite {name} --help'")),
            "{line}"
        );
    }
}

#[test]
fn a_missing_value_is_one_line_for_every_subcommand_with_an_option() {
    for (name, option) in [
        ("play", "--seed"),
        ("score", "--save"),
        ("perft", "--depth"),
        ("deal", "--seed"),
        ("arena", "--deals"),
        ("stats", "--games"),
        ("sheet", "--kind"),
        ("serve", "--addr"),
        ("loadtest", "--tables"),
        ("bench", "--seconds"),
    ] {
        let line = one_line(&[name, option]);
        assert!(line.contains(&format!("'{option} <")), "{line}");
        assert!(
            line.ends_with(&format!("; see 'torite {name} --help'")),
            "{line}"
        );
    }
}

#[test]
fn missing_required_arguments_are_listed_on_one_line() {
    assert_eq!(
        one_line(&["arena"]),
        "the following required arguments were not provided: --ruleset <RULESET>, \
         --bots <BOTS>; see 'torite arena --help'"
    );
    for name in ["replay", "perft", "deal", "show", "stats", "sheet"] {
        let line = one_line(&[name]);
        assert!(
            line.starts_with("the following required arguments"),
            "{line}"
        );
    }
}

#[test]
fn a_bad_value_is_one_line_for_every_subcommand() {
    for args in [
        &["play", "--seed", "x"][..],
        &["score", "--lang", "x"],
        &["perft", "x.json", "--depth", "-1"],
        &["deal", "mura-4", "--dealer", "x"],
        &[
            "arena",
            "--ruleset",
            "mura-4",
            "--bots",
            "random",
            "--deals",
            "x",
        ],
        &["stats", "--ruleset", "mura-4", "--games", "x"],
        &["sheet", "mura-4", "--kind", "x"],
        &["loadtest", "--tables", "x"],
        &["bench", "--seconds", "x"],
    ] {
        let line = one_line(args);
        assert!(
            line.starts_with("invalid value 'x'") || line.contains("'-1'"),
            "{line}"
        );
    }
}

#[test]
fn no_command_or_an_unknown_one_is_one_line() {
    assert_eq!(
        one_line(&[]),
        "a command is needed: play, score, replay, perft, rules, deal, analyse, show, arena, \
         stats, sheet, serve, admin, loadtest, bench; see 'torite --help'"
    );
    assert_eq!(
        one_line(&["admin"]),
        "'torite admin' requires a subcommand but one was not provided, \
         [subcommands: export, import, help]; see 'torite admin --help'"
    );
    assert_eq!(
        one_line(&["bogus"]),
        "unrecognized subcommand 'bogus'; see 'torite --help'"
    );
}

#[test]
fn help_and_version_print_as_usual() {
    for args in [
        &["--help"][..],
        &["help"],
        &["arena", "--help"],
        &["help", "bench"],
    ] {
        let run = torite(args);
        assert_eq!(run.status, Some(0), "{args:?}");
        assert!(
            run.stdout.contains("Usage: torite"),
            "{args:?}: {}",
            run.stdout
        );
        assert_eq!(run.stderr, "");
    }
    let run = torite(&["--version"]);
    assert_eq!(run.status, Some(0));
    assert_eq!(
        run.stdout,
        format!("torite {}\n", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn bench_seconds_must_be_in_range() {
    for bad in ["1e20", "0", "-1", "nan", "inf", "3600.5"] {
        assert_eq!(
            one_line(&["bench", "--seconds", bad]),
            format!(
                "invalid value '{bad}' for '--seconds <SECONDS>': {bad} is not in \
                 0.001..=3600 (seconds); see 'torite bench --help'"
            )
        );
    }
}

#[test]
fn counts_are_bounded_and_say_their_range() {
    for (args, option, value, range) in [
        (
            &["arena", "--ruleset", "mura-4", "--bots", "random"][..],
            "--threads",
            "100000",
            "1..=256",
        ),
        (
            &["arena", "--ruleset", "mura-4", "--bots", "random"],
            "--threads",
            "0",
            "1..=256",
        ),
        (
            &["arena", "--ruleset", "mura-4", "--bots", "random"],
            "--deals",
            "0",
            "1..=1000000",
        ),
        (
            &["arena", "--ruleset", "mura-4", "--bots", "random"],
            "--games",
            "100001",
            "1..=100000",
        ),
        (
            &["stats", "--ruleset", "mura-4"],
            "--games",
            "0",
            "1..=1000000",
        ),
        (&["loadtest"], "--tables", "5001", "1..=5000"),
        (&["loadtest"], "--clients", "0", "1..=6"),
        (&["loadtest"], "--deals", "1001", "1..=1000"),
        (
            &["loadtest"],
            "--seconds",
            "18446744073709551615",
            "1..=86400",
        ),
        (&["loadtest"], "--think-ms", "60001", "0..=60000"),
        (&["loadtest"], "--think-jitter-ms", "60001", "0..=60000"),
        (&["loadtest"], "--bot-delay-ms", "60001", "0..=60000"),
    ] {
        let mut all = args.to_vec();
        all.extend([option, value]);
        let line = one_line(&all);
        let name = args[0];
        let upper = option
            .trim_start_matches('-')
            .replace('-', "_")
            .to_uppercase();
        assert_eq!(
            line,
            format!(
                "invalid value '{value}' for '{option} <{upper}>': {value} is not in {range}; \
                 see 'torite {name} --help'"
            )
        );
    }
}

#[test]
fn a_bot_budget_out_of_range_gives_the_range() {
    for spec in ["ismcts:0", "ismcts:99999999999"] {
        assert_eq!(
            one_line(&[
                "arena",
                "--ruleset",
                "mura-4",
                "--bots",
                spec,
                "--deals",
                "1"
            ]),
            format!(
                "invalid value '{spec}' for '--bots <BOTS>': bot \"{spec}\": the budget is out \
                 of range: 1 to 1000000 iterations or 1ms to 60000ms; see 'torite arena --help'"
            )
        );
    }
    assert_eq!(
        one_line(&["play", "--plain", "--bots", "pimc:0ms"]),
        "invalid value 'pimc:0ms' for '--bots <BOTS>': bot \"pimc:0ms\": the budget is out \
         of range: 1 to 1000000 iterations or 1ms to 60000ms; see 'torite play --help'"
    );
}

#[test]
fn a_bad_bot_spec_is_a_usage_error_naming_the_option_and_the_value() {
    for (name, args) in [
        (
            "play",
            &["play", "--plain", "--bots", "heuristic,nobody"][..],
        ),
        (
            "arena",
            &["arena", "--ruleset", "mura-4", "--bots", "random,nobody"],
        ),
        (
            "stats",
            &["stats", "--ruleset", "mura-4", "--bots", "nobody"],
        ),
    ] {
        assert_eq!(
            one_line(args),
            format!(
                "invalid value 'nobody' for '--bots <BOTS>': unknown bot \"nobody\" (levels: \
                 beginner, casual, club, strong, expert; algorithms: random, heuristic, ismcts, \
                 ismcts-inf, ismcts-eval, ismcts-eq, ismcts-duck, ismcts-lot, ismcts-pol, ismcts-net, ismcts-read, ismcts-table, pimc, omniscient, maxn); see 'torite {name} --help'"
            )
        );
    }
    assert_eq!(
        one_line(&["arena", "--ruleset", "mura-4", "--bots", "ismcts:fast"]),
        "invalid value 'ismcts:fast' for '--bots <BOTS>': bot \"ismcts:fast\": the budget \
         after the colon is a number of iterations (ismcts:2000) or milliseconds \
         (ismcts:200ms); see 'torite arena --help'"
    );
}

#[test]
fn house_rule_errors_say_the_file_line_column_and_key() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("usage-toml");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (name, text, expected) in [
        (
            "dup.toml",
            "base = \"mura-4\"\nthreshold = 3\nthreshold = 4\n",
            "3:1: duplicate key `threshold`",
        ),
        (
            "huge.toml",
            "base = \"mura-4\"\nthreshold = 99999999999999999999\n",
            "2:13: `threshold` = 99999999999999999999: the integer is out of range",
        ),
        (
            "range.toml",
            "base = \"mura-4\"\nthreshold = 300\n",
            "2:1: option threshold = 300 is invalid: expected an integer from 0 to 40",
        ),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let file = path.to_str().unwrap();
        assert_eq!(one_line(&["rules", file]), format!("{file}:{expected}"));
    }
}
