//! Writing a weights file, shared by the training examples.

/// Writes `text` to `path` beside it and renames it over the target, so that an interrupted
/// run leaves the old file; on failure, says so as `program` and exits with 1.
pub fn write_or_exit(program: &str, path: &str, text: &str) {
    let partial = format!("{path}.partial");
    if let Err(e) = std::fs::write(&partial, text).and_then(|()| std::fs::rename(&partial, path)) {
        eprintln!("{program}: cannot write {path}: {e}");
        std::process::exit(1);
    }
}
