//! Writing files: the one way every command saves (games, score sheets, printable sheets,
//! arena records, plots), so that saving never destroys what is at the path.
//!
//! - A regular file (or a missing one) is replaced atomically: the bytes go to a temporary
//!   file with a unique name in the same folder, which is flushed to disk (`fsync`) and then
//!   renamed over the target. If anything fails the temporary file is removed and the old file
//!   is left exactly as it was; two saves at once never share a temporary file. An existing
//!   file keeps its permissions.
//! - A symbolic link to a regular file stays a link: the file it names is replaced.
//! - Anything else (a FIFO, a character device such as `/dev/null`, or a link to one) is
//!   written to in place, never replaced; a write error is reported.
//! - A folder is refused.

use std::fs::{File, OpenOptions, Permissions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::Failure;

/// Saves `bytes` at `path` (see the module documentation for what happens to what is there).
///
/// # Errors
///
/// One line naming the path and the reason when the file cannot be written.
pub fn save(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    save_with(path, |out| out.write_all(bytes))
}

/// Saves what `write` produces at `path`; `write` may stream its output.
///
/// # Errors
///
/// One line naming the path and the reason when the file cannot be written, or when `write`
/// fails; nothing at the path is changed then (a device or FIFO may have received part of it).
pub fn save_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), Failure> {
    let fail = |e: io::Error| Failure::input(format!("cannot save {}: {e}", path.display()));
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => Err(Failure::input(format!(
            "cannot save {}: it is a folder",
            path.display()
        ))),
        Ok(meta) if meta.is_file() => {
            // Follow symbolic links, so that a link stays a link and its file is replaced.
            let target = std::fs::canonicalize(path).map_err(fail)?;
            replace(&target, Some(meta.permissions()), write).map_err(fail)
        }
        Ok(_) => write_through(path, write).map_err(fail),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            if std::fs::symlink_metadata(path).is_ok() {
                // A link to a missing file: create the file it names.
                return write_through(path, write).map_err(fail);
            }
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir).map_err(|e| {
                    Failure::input(format!(
                        "cannot save {}: cannot create {}: {e}",
                        path.display(),
                        dir.display()
                    ))
                })?;
            }
            replace(path, None, write).map_err(fail)
        }
        Err(e) => Err(fail(e)),
    }
}

/// Writes into whatever is at `path` (a FIFO, a device), creating a regular file if needed.
fn write_through(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let file = OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .open(path)?;
    let mut out = BufWriter::new(file);
    write(&mut out)?;
    out.flush()
}

/// Writes a unique temporary file beside `target`, syncs it and renames it over `target`.
fn replace(
    target: &Path,
    permissions: Option<Permissions>,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = target
        .file_name()
        .map_or_else(|| "torite".into(), |n| n.to_string_lossy().into_owned());
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    if permissions.is_none() {
        // What a newly created file gets (the umask applies), rather than tempfile's 0600.
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(Permissions::from_mode(0o666));
    }
    let tmp = builder.tempfile_in(&dir)?;
    {
        let mut out = BufWriter::new(tmp.as_file());
        write(&mut out)?;
        out.flush()?;
    }
    if let Some(permissions) = permissions {
        tmp.as_file().set_permissions(permissions)?;
    }
    tmp.as_file().sync_all()?;
    tmp.persist(target).map_err(|e| e.error)?;
    // Make the rename itself durable; not every system can sync a folder.
    if let Ok(dir) = File::open(&dir) {
        let _ = dir.sync_all();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leftovers(dir: &Path) -> Vec<String> {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp"))
            .collect()
    }

    #[test]
    fn a_failed_write_keeps_the_old_file_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game.json");
        std::fs::write(&path, "old").unwrap();
        let err = save_with(&path, |out| {
            out.write_all(b"half of the new")?;
            Err(io::Error::other("the disk is full"))
        })
        .unwrap_err();
        assert_eq!(
            err.message,
            format!("cannot save {}: the disk is full", path.display())
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
        assert!(leftovers(dir.path()).is_empty());
    }

    #[test]
    fn replaces_a_file_and_keeps_its_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game.json");
        std::fs::write(&path, "old").unwrap();
        std::fs::set_permissions(&path, Permissions::from_mode(0o640)).unwrap();
        save(&path, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
        assert!(leftovers(dir.path()).is_empty());
    }

    #[test]
    fn a_link_to_a_file_stays_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.json");
        let link = dir.path().join("link.json");
        std::fs::write(&real, "old").unwrap();
        std::os::unix::fs::symlink(&real, &link).unwrap();
        save(&link, b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
    }

    #[test]
    fn a_folder_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let err = save(dir.path(), b"x").unwrap_err();
        assert!(err.message.ends_with("it is a folder"), "{}", err.message);
    }

    #[test]
    fn saves_at_once_do_not_collide() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game.json");
        let contents: Vec<String> = (0..8).map(|i| format!("{i}").repeat(10_000)).collect();
        std::thread::scope(|s| {
            for text in &contents {
                let path = &path;
                s.spawn(move || {
                    for _ in 0..20 {
                        save(path, text.as_bytes()).unwrap();
                    }
                });
            }
        });
        let last = std::fs::read_to_string(&path).unwrap();
        assert!(contents.contains(&last), "the file is one whole save");
        assert!(leftovers(dir.path()).is_empty());
    }
}
