//! Integration tests of what the `torite` command writes and reads back: saving never destroys
//! what is at the path (FIFOs, devices, links, failed writes), every file a command writes is
//! read by the commands that claim to read it (or refused with a line saying what it is), and
//! inputs above the size limits are refused before they are parsed.

mod common;

use std::io::Read;
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{Run, failed, ok, path_str as s, refused, run, scratch, torite};

/// A game of Mura against instant bots, saved at `save`, stopped at the first question.
fn play_saving(save: &Path) -> Run {
    torite(&[
        "play",
        "mura-4",
        "--plain",
        "--fast",
        "--bots",
        "random",
        "--seed",
        "3",
        "--save",
        s(save),
    ])
}

// ---------------------------------------------------------------------------------------------
// Saving never destroys what is at the path
// ---------------------------------------------------------------------------------------------

/// Reads everything written into the FIFO at `path`, one writer after another, until `stop`.
fn drain_fifo(path: PathBuf, stop: std::sync::Arc<std::sync::atomic::AtomicBool>) -> Vec<u8> {
    let mut all = Vec::new();
    while !stop.load(std::sync::atomic::Ordering::SeqCst) {
        let mut fifo = std::fs::File::open(&path).expect("open the FIFO");
        fifo.read_to_end(&mut all).expect("read the FIFO");
    }
    all
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().expect("mkfifo");
    assert!(status.success());
}

/// Stops the reader of a FIFO and returns what it read. The reader may be blocked in `open`,
/// about to call it, or already past its last look at `stop`: so the FIFO is opened and closed
/// again until the reader has finished. Opened for reading and writing, it never blocks (Linux),
/// and it wakes a reader waiting in `open` for a writer.
fn release_fifo(
    path: &Path,
    stop: &std::sync::atomic::AtomicBool,
    reader: std::thread::JoinHandle<Vec<u8>>,
) -> Vec<u8> {
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    while !reader.is_finished() {
        let _ = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(path);
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    reader.join().expect("the reader")
}

#[test]
fn a_game_saved_into_a_fifo_writes_into_it_and_leaves_it_a_fifo() {
    let dir = scratch("fifo-play");
    let fifo = dir.join("game.json");
    mkfifo(&fifo);
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let reader = {
        let (fifo, stop) = (fifo.clone(), stop.clone());
        std::thread::spawn(move || drain_fifo(fifo, stop))
    };
    let run = play_saving(&fifo);
    let received = String::from_utf8(release_fifo(&fifo, &stop, reader)).expect("UTF-8");
    assert_eq!(run.status, Some(0), "{}", run.stderr);
    assert!(
        std::fs::symlink_metadata(&fifo)
            .expect("still there")
            .file_type()
            .is_fifo(),
        "the FIFO was replaced"
    );
    assert!(received.contains("\"ruleset\""), "{received}");
    let leftovers: Vec<_> = std::fs::read_dir(&dir).expect("dir").collect();
    assert_eq!(leftovers.len(), 1, "only the FIFO is in the folder");
}

#[test]
fn a_sheet_written_into_a_fifo_leaves_it_a_fifo() {
    let dir = scratch("fifo-sheet");
    let fifo = dir.join("sheet.html");
    mkfifo(&fifo);
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let reader = {
        let (fifo, stop) = (fifo.clone(), stop.clone());
        std::thread::spawn(move || drain_fifo(fifo, stop))
    };
    let run = torite(&["sheet", "mura-4", "--lang", "en", "-o", s(&fifo)]);
    let received = String::from_utf8(release_fifo(&fifo, &stop, reader)).expect("UTF-8");
    ok(run);
    assert!(
        std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo()
    );
    assert!(received.contains("<html"), "{received}");
}

#[test]
fn a_save_through_a_link_to_dev_null_leaves_the_link_and_the_device() {
    let dir = scratch("dev-null");
    let link = dir.join("game.json");
    std::os::unix::fs::symlink("/dev/null", &link).expect("a link");
    ok(play_saving(&link));
    let meta = std::fs::symlink_metadata(&link).expect("still there");
    assert!(meta.is_symlink(), "the link was replaced");
    assert_eq!(std::fs::read_link(&link).unwrap(), Path::new("/dev/null"));
    assert!(
        std::fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device()
    );
    let sheet = dir.join("sheet.html");
    std::os::unix::fs::symlink("/dev/null", &sheet).expect("a link");
    ok(torite(&["sheet", "mura-4", "-o", s(&sheet)]));
    assert!(std::fs::symlink_metadata(&sheet).unwrap().is_symlink());
}

#[test]
fn a_full_device_is_one_line_and_a_failure() {
    let line = failed(&play_saving(Path::new("/dev/full")));
    assert!(line.starts_with("cannot save /dev/full: "), "{line}");
    assert!(
        std::fs::metadata("/dev/full")
            .unwrap()
            .file_type()
            .is_char_device()
    );
    let line = refused(&torite(&["sheet", "mura-4", "-o", "/dev/full"]));
    assert!(line.starts_with("cannot save /dev/full: "), "{line}");
}

#[test]
fn a_save_under_a_file_fails_and_keeps_the_file() {
    let dir = scratch("under-a-file");
    let file = dir.join("notes.txt");
    std::fs::write(&file, "keep me").unwrap();
    let target = file.join("game.json");
    let line = failed(&play_saving(&target));
    assert!(
        line.starts_with(&format!("cannot save {}: ", target.display())),
        "{line}"
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "keep me");
}

#[test]
fn a_save_into_a_folder_is_refused_and_the_folder_kept() {
    let dir = scratch("into-a-folder");
    let line = refused(&torite(&["sheet", "mura-4", "-o", s(&dir)]));
    assert_eq!(
        line,
        format!("cannot save {}: it is a folder", dir.display())
    );
    assert!(dir.is_dir());
}

#[test]
fn two_games_saving_at_once_to_one_path_both_save_whole_files() {
    let dir = scratch("at-once");
    let path = dir.join("game.json");
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| ok(play_saving(&path)));
        }
    });
    ok(torite(&["replay", s(&path)]));
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["game.json"], "no temporary file is left");
}

// ---------------------------------------------------------------------------------------------
// Every file written is read by the commands that claim to read it
// ---------------------------------------------------------------------------------------------

/// A Mura score sheet of two deals, saved at `path`.
fn score_sheet(path: &Path) {
    ok(run(
        &["score", "mura-4", "--lang", "en", "--save", s(path)],
        // Enter keeps the seat numbers as the players' names.
        Some("\n2 3 4 0\n5 5 6 0\n3 3 3 0\n6 4 6 0\nq\n"),
    ));
}

#[test]
fn a_game_saved_by_play_is_resumed_replayed_shown_and_counted() {
    let dir = scratch("pair-play");
    let save = dir.join("game.json");
    ok(play_saving(&save));
    let replayed = ok(torite(&["replay", s(&save)]));
    assert!(replayed.contains("\"deals\""), "{replayed}");
    assert!(ok(torite(&["show", s(&save)])).contains("Deal 1"));
    ok(torite(&["perft", s(&save), "--depth", "1"]));
    ok(torite(&["play", "--plain", "--resume", s(&save)]));
}

#[test]
fn a_score_sheet_is_resumed_and_shown_and_refused_as_a_record_with_what_it_is() {
    let dir = scratch("pair-score");
    let sheet = dir.join("sheet.json");
    score_sheet(&sheet);
    let shown = ok(torite(&["show", s(&sheet)]));
    assert!(shown.contains("Deal 2 (dealer: seat 1)"), "{shown}");
    assert!(
        shown.contains("  total             0      0      0      2"),
        "{shown}"
    );
    assert_eq!(
        ok(torite(&["show", s(&sheet), "--scores-only"])),
        shown,
        "a sheet has no tricks to leave out"
    );
    let resumed = ok(run(
        &["score", "--lang", "en", "--resume", s(&sheet)],
        Some("q\n"),
    ));
    assert!(resumed.contains("Deal 3"), "{resumed}");
    let p = sheet.display();
    let what = format!(
        "{p} is a torite score-keeping save, not a game record (it has no cards): \
         show it with `torite show {p}` or continue it with `torite score --resume {p}`"
    );
    assert_eq!(refused(&torite(&["replay", s(&sheet)])), what);
    assert_eq!(
        refused(&torite(&["perft", s(&sheet), "--depth", "1"])),
        what
    );
    assert_eq!(
        refused(&torite(&["play", "--plain", "--resume", s(&sheet)])),
        format!(
            "{p} is a torite score-keeping save, not a game: continue it with `torite score --resume {p}`"
        )
    );
}

#[test]
fn a_seeded_deal_and_a_seeded_game_are_replayed_shown_and_counted() {
    let dir = scratch("pair-deal");
    for (name, extra) in [("deal.json", None), ("game.json", Some("--play"))] {
        let path = dir.join(name);
        let mut args = vec!["deal", "molotow-jass", "--seed", "5"];
        args.extend(extra);
        std::fs::write(&path, ok(torite(&args))).unwrap();
        ok(torite(&["replay", s(&path)]));
        assert!(ok(torite(&["show", s(&path)])).contains("Deal 1"));
        ok(torite(&["perft", s(&path), "--depth", "1"]));
        let line = refused(&torite(&["score", "--resume", s(&path)]));
        assert_eq!(
            line,
            format!(
                "{} is a game record, not a score-keeping save: show it with `torite show {}`",
                path.display(),
                path.display()
            )
        );
    }
}

#[test]
fn arena_records_are_replayed_and_shown() {
    let dir = scratch("pair-arena");
    let records = dir.join("records");
    ok(torite(&[
        "arena",
        "--ruleset",
        "mura-3",
        "--bots",
        "random",
        "--deals",
        "1",
        "--records",
        s(&records),
    ]));
    let mut n = 0;
    for entry in std::fs::read_dir(&records).unwrap() {
        let path = entry.unwrap().path();
        ok(torite(&["replay", s(&path)]));
        ok(torite(&["show", s(&path)]));
        n += 1;
    }
    assert_eq!(n, 3, "one record per seat rotation");
}

// ---------------------------------------------------------------------------------------------
// Input sizes
// ---------------------------------------------------------------------------------------------

/// The size limit of records and saved games (README).
const MAX_RECORD: usize = 4 * 1024 * 1024;
/// The size limit of house-rule files (README).
const MAX_HOUSE_RULES: usize = 64 * 1024;

/// A legal record padded with spaces to exactly `len` bytes.
fn padded_record(len: usize) -> String {
    let mut text = ok(torite(&["deal", "mura-4", "--seed", "1", "--play"]));
    assert!(text.len() < len);
    text.extend(std::iter::repeat_n(' ', len - text.len()));
    text
}

#[test]
fn a_record_at_the_limit_replays_and_one_byte_more_is_refused() {
    let dir = scratch("record-limit");
    let at = dir.join("at.json");
    std::fs::write(&at, padded_record(MAX_RECORD)).unwrap();
    ok(torite(&["replay", s(&at)]));
    let over = dir.join("over.json");
    std::fs::write(&over, padded_record(MAX_RECORD + 1)).unwrap();
    let limit = "is larger than 4 MiB, the limit for records and saved games";
    for command in ["replay", "show"] {
        assert_eq!(
            refused(&torite(&[command, s(&over)])),
            format!("{} {limit}", over.display())
        );
    }
    assert_eq!(
        refused(&torite(&["play", "--plain", "--resume", s(&over)])),
        format!("{} {limit}", over.display())
    );
    assert_eq!(
        refused(&torite(&["score", "--resume", s(&over)])),
        format!("{} {limit}", over.display())
    );
}

#[test]
fn a_big_real_record_under_the_limit_replays() {
    // A house rule of 600 deals: about 330 KB, a hundred times the longest real game.
    let dir = scratch("big-record");
    let rules = dir.join("long.toml");
    std::fs::write(&rules, "base = \"plus-minus-jass-4\"\ndeals = 600\n").unwrap();
    let record = dir.join("long.json");
    std::fs::write(
        &record,
        ok(torite(&["deal", s(&rules), "--seed", "2", "--play"])),
    )
    .unwrap();
    assert!(std::fs::metadata(&record).unwrap().len() > 300_000);
    let report: serde_json::Value =
        serde_json::from_str(&ok(torite(&["replay", s(&record)]))).unwrap();
    assert_eq!(report["deals"].as_array().unwrap().len(), 600);
    assert_eq!(report["finished"], true);
}

#[test]
fn endless_standard_input_is_refused_at_the_limit() {
    // Far more than the limit: the command stops reading at the limit and refuses.
    let input = " ".repeat(4 * MAX_RECORD);
    assert_eq!(
        refused(&run(&["replay", "-"], Some(&input))),
        "standard input is larger than 4 MiB, the limit for records and saved games"
    );
}

#[test]
fn a_house_rule_file_at_the_limit_loads_and_one_byte_more_is_refused() {
    let dir = scratch("rules-limit");
    let mut text = "base = \"mura-4\"\nthreshold = 3\n#".to_owned();
    text.extend(std::iter::repeat_n('x', MAX_HOUSE_RULES - text.len()));
    let at = dir.join("at.toml");
    std::fs::write(&at, &text).unwrap();
    assert!(ok(torite(&["rules", s(&at), "--toml"])).contains("threshold = 3"));
    text.push('x');
    let over = dir.join("over.toml");
    std::fs::write(&over, &text).unwrap();
    assert_eq!(
        refused(&torite(&["rules", s(&over)])),
        format!(
            "{} is larger than 64 KiB, the limit for house-rule files",
            over.display()
        )
    );
}
