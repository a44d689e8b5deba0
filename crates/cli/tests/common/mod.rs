//! What the command's integration tests share: running the `torite` binary, the bad-input
//! contract of RECORD.md (exit status 2, nothing on standard output, one line on standard
//! error), fresh scratch folders, the test data and the two languages the tests read.
//!
//! Each test binary includes this module (`mod common;`) and uses the part it needs.

// Every test binary compiles the whole module but uses only part of it.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The `torite` binary built for these tests.
pub const BIN: &str = env!("CARGO_BIN_EXE_torite");

/// A language of the command's text, as the tests pick the words they look for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Lang {
    /// English.
    En,
    /// Japanese.
    Ja,
}

/// Both languages, for tests run once in each.
pub const LANGS: [Lang; 2] = [Lang::En, Lang::Ja];

impl Lang {
    /// The value of `--lang`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ja => "ja",
        }
    }

    /// The English or the Japanese text.
    pub fn pick(self, en: &'static str, ja: &'static str) -> &'static str {
        match self {
            Lang::En => en,
            Lang::Ja => ja,
        }
    }
}

/// How a run of `torite` ended.
#[derive(Debug)]
pub struct Run {
    /// The exit status (`None` if a signal ended it).
    pub status: Option<i32>,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

/// Runs `torite` with `args`, feeding `stdin` to standard input (or none: standard input is
/// closed). Standard output and error must be UTF-8.
pub fn run(args: &[&str], stdin: Option<&str>) -> Run {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cannot start torite");
    let writer = stdin.map(|text| {
        let mut pipe = child.stdin.take().expect("stdin is piped");
        let text = text.to_owned();
        std::thread::spawn(move || {
            // The command may stop reading before the end (a refusal, the end of a game).
            let _ = pipe.write_all(text.as_bytes());
        })
    });
    let out = child.wait_with_output().expect("torite did not finish");
    if let Some(writer) = writer {
        writer.join().expect("the stdin writer panicked");
    }
    Run {
        status: out.status.code(),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    }
}

/// Runs `torite` with `args` and standard input closed.
pub fn torite(args: &[&str]) -> Run {
    run(args, None)
}

/// Asserts success and returns standard output.
pub fn ok(run: Run) -> String {
    assert_eq!(
        run.status,
        Some(0),
        "expected success, got {:?}; stderr: {}",
        run.status,
        run.stderr
    );
    run.stdout
}

/// Asserts a failure told in one line: exit status 2 and exactly one non-empty line on
/// standard error, whatever was printed before (a game whose save failed). Returns the line.
pub fn failed(run: &Run) -> String {
    assert_eq!(
        run.status,
        Some(2),
        "expected exit status 2; stdout: {}; stderr: {}",
        run.stdout,
        run.stderr
    );
    let line = run
        .stderr
        .strip_suffix('\n')
        .unwrap_or_else(|| panic!("stderr must end with a newline: {:?}", run.stderr));
    assert!(
        !line.is_empty() && !line.contains('\n'),
        "stderr must be exactly one line, got: {:?}",
        run.stderr
    );
    line.to_owned()
}

/// Asserts the bad-input contract: exit status 2, nothing on standard output and exactly one
/// non-empty line on standard error. Returns that line.
pub fn refused(run: &Run) -> String {
    assert!(
        run.stdout.is_empty(),
        "nothing may be printed on stdout for bad input, got: {}",
        run.stdout
    );
    failed(run)
}

/// A fresh, empty folder for one test's files, named after the test binary and `name`.
pub fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("{}-{name}", env!("CARGO_CRATE_NAME")));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

/// A path as an argument.
pub fn path_str(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// The path of a file in `tests/data/`.
pub fn data(name: &str) -> String {
    format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}
