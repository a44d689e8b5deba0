//! `torite admin export|import`: a backup of everything the server's store holds, as JSON
//! lines, to keep or to move a club's server from one database to another (SQLite to
//! PostgreSQL).
//!
//! The first line is `{"type":"torite-backup","version":1}`; then one line per table, oldest
//! first: `{"type":"table","id","created","events":[…],"record":{…}|null,"expired":…|null}`,
//! its events as the server logged them (numbered from 0 by their place) and, once the game
//! has finished, its record in `RECORD.md` form; the last line is `{"type":"end","tables":N}`,
//! so that a backup cut short is refused rather than half imported.

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use torite_server::store::{SqlStore, TableRows};

use crate::Failure;
use crate::serve::Place;

/// The backup format's version.
const VERSION: u64 = 1;

/// `torite admin`'s commands.
#[derive(clap::Subcommand, Debug)]
pub enum AdminCommand {
    /// Write every table of the database (events, records, expiry marks) as JSON lines.
    Export {
        #[command(flatten)]
        place: Place,
        /// Where to write the backup; `-` (the default) for standard output.
        file: Option<PathBuf>,
    },
    /// Read a backup of `torite admin export` into the database (created if missing), in
    /// one transaction. Stop the server first, or restart it after: it loads tables on start.
    Import {
        #[command(flatten)]
        place: Place,
        /// The backup; `-` for standard input.
        file: PathBuf,
        /// Overwrite the tables already in the database (else they are refused).
        #[arg(long)]
        replace: bool,
    },
}

/// Runs an admin command.
pub fn run(command: AdminCommand) -> Result<String, Failure> {
    let runtime = tokio::runtime::Runtime::new()
        .map_err(|e| Failure::input(format!("cannot start the runtime: {e}")))?;
    match command {
        AdminCommand::Export { place, file } => {
            let store = place.resolve()?;
            must_exist(&store.db)?;
            let tables = runtime.block_on(async {
                let db = open(&store.db).await?;
                let tables = db.export().await.map_err(Failure::input);
                db_close(&db).await;
                tables
            })?;
            let text = backup(&tables);
            let finished = tables.iter().filter(|t| t.record.is_some()).count();
            let to = match file.as_deref() {
                None => None,
                Some(p) if p == Path::new("-") => None,
                Some(p) => Some(p),
            };
            match to {
                None => {
                    let mut out = std::io::stdout().lock();
                    out.write_all(text.as_bytes())
                        .and_then(|()| out.flush())
                        .map_err(|e| Failure::input(format!("cannot write the backup: {e}")))?;
                }
                Some(path) => write_file(path, &text)?,
            }
            eprintln!(
                "torite admin export: {} tables ({finished} finished) from {} to {}",
                tables.len(),
                torite_server::without_password(&store.db),
                to.map_or_else(|| "standard output".to_owned(), |p| p.display().to_string())
            );
            Ok(String::new())
        }
        AdminCommand::Import {
            place,
            file,
            replace,
        } => {
            let store = place.resolve()?;
            let (text, name) = if file == Path::new("-") {
                let mut text = String::new();
                for line in std::io::stdin().lock().lines() {
                    let line = line
                        .map_err(|e| Failure::input(format!("cannot read standard input: {e}")))?;
                    text.push_str(&line);
                    text.push('\n');
                }
                (text, "standard input".to_owned())
            } else {
                let text = std::fs::read_to_string(&file).map_err(|e| {
                    Failure::input(format!("{}: cannot read it: {e}", file.display()))
                })?;
                (text, file.display().to_string())
            };
            let tables = read_backup(&text).map_err(|e| Failure::input(format!("{name}: {e}")))?;
            runtime.block_on(async {
                let db = open(&store.db).await?;
                let done = db.import(&tables, replace).await.map_err(|e| {
                    Failure::input(format!(
                        "import into {}: {e}",
                        torite_server::without_password(&store.db)
                    ))
                });
                db_close(&db).await;
                done
            })?;
            eprintln!(
                "torite admin import: {} tables from {name} into {}",
                tables.len(),
                torite_server::without_password(&store.db)
            );
            Ok(String::new())
        }
    }
}

async fn open(db: &str) -> Result<SqlStore, Failure> {
    SqlStore::open(db).await.map_err(|e| {
        Failure::input(format!(
            "database {}: {e}",
            torite_server::without_password(db)
        ))
    })
}

async fn db_close(db: &SqlStore) {
    use torite_server::store::Store;
    db.close().await;
}

/// Refuses to export an SQLite file that is not there (opening it would create an empty one).
fn must_exist(db: &str) -> Result<(), Failure> {
    if db.starts_with("postgres://") || db.starts_with("postgresql://") || db.contains(":memory:") {
        return Ok(());
    }
    let path = db.strip_prefix("sqlite:").unwrap_or(db);
    let path = path.strip_prefix("//").unwrap_or(path);
    let path = path.split('?').next().unwrap_or(path);
    if Path::new(path).exists() {
        Ok(())
    } else {
        Err(Failure::input(format!(
            "database {db}: there is no such file (give --db, --data-dir or --config as to torite serve)"
        )))
    }
}

/// Writes `text` to a temporary file beside `path` and renames it over `path`, so that a
/// backup is never left half written.
fn write_file(path: &Path, text: &str) -> Result<(), Failure> {
    let fail = |e: &dyn std::fmt::Display| Failure::input(format!("{}: {e}", path.display()));
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(|e| fail(&e))?;
    tmp.write_all(text.as_bytes())
        .and_then(|()| tmp.as_file().sync_all())
        .map_err(|e| fail(&e))?;
    tmp.persist(path).map_err(|e| fail(&e.error))?;
    Ok(())
}

/// A stored JSON text as a value (a text that is not JSON is kept as a string).
fn as_json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_owned()))
}

/// The backup of `tables`, as JSON lines.
fn backup(tables: &[TableRows]) -> String {
    let mut out = json!({"type": "torite-backup", "version": VERSION}).to_string();
    out.push('\n');
    for t in tables {
        let line = json!({
            "type": "table",
            "id": t.id,
            "created": t.created,
            "events": t.events.iter().map(|e| as_json(e)).collect::<Vec<_>>(),
            "record": t.record.as_deref().map(as_json),
            "expired": t.expired,
        });
        out.push_str(&line.to_string());
        out.push('\n');
    }
    out.push_str(&json!({"type": "end", "tables": tables.len()}).to_string());
    out.push('\n');
    out
}

/// Reads a backup, or says (in one line) where and why it is not one.
fn read_backup(text: &str) -> Result<Vec<TableRows>, String> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .filter(|(_, l)| !l.trim().is_empty());
    let line_value = |n: usize, line: &str| {
        serde_json::from_str::<Value>(line).map_err(|e| format!("line {n}: not JSON: {e}"))
    };
    let Some((n, first)) = lines.next() else {
        return Err("empty: not a torite backup".into());
    };
    let head = line_value(n, first)
        .ok()
        .filter(|v| v["type"] == "torite-backup")
        .ok_or_else(|| {
            format!("line {n}: not a torite backup (it begins with no {{\"type\":\"torite-backup\"}} line)")
        })?;
    if head["version"].as_u64() != Some(VERSION) {
        return Err(format!(
            "line {n}: backup version {} is not one this torite reads ({VERSION})",
            head["version"]
        ));
    }
    let mut tables = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut end = None;
    for (n, line) in lines {
        if end.is_some() {
            return Err(format!("line {n}: a line after the end line"));
        }
        let v = line_value(n, line)?;
        match v["type"].as_str() {
            Some("table") => {
                let t = table_of(&v).map_err(|e| format!("line {n}: {e}"))?;
                if let Some(other) = seen.insert(t.id.clone(), n) {
                    return Err(format!(
                        "line {n}: table {} is in the backup twice (also line {other})",
                        t.id
                    ));
                }
                tables.push(t);
            }
            Some("end") => {
                let count = v["tables"].as_u64();
                if count != Some(tables.len() as u64) {
                    return Err(format!(
                        "line {n}: the end line counts {} tables, the backup holds {}",
                        v["tables"],
                        tables.len()
                    ));
                }
                end = Some(n);
            }
            _ => {
                return Err(format!(
                    "line {n}: \"type\" is {}, not \"table\" or \"end\"",
                    v["type"]
                ));
            }
        }
    }
    if end.is_none() {
        return Err(format!(
            "no end line after {} tables: the backup is cut short",
            tables.len()
        ));
    }
    Ok(tables)
}

/// One table line.
fn table_of(v: &Value) -> Result<TableRows, String> {
    let id = v["id"]
        .as_str()
        .filter(|id| !id.is_empty())
        .ok_or("a table line without its \"id\"")?
        .to_owned();
    let created = v["created"]
        .as_i64()
        .ok_or_else(|| format!("table {id}: \"created\" is not a whole number"))?;
    let events = v["events"]
        .as_array()
        .filter(|e| !e.is_empty())
        .ok_or_else(|| format!("table {id}: \"events\" is not a list of events"))?;
    let events = events
        .iter()
        .enumerate()
        .map(|(i, e)| {
            serde_json::from_value::<torite_server::table::Event>(e.clone())
                .map(|_| e.to_string())
                .map_err(|err| format!("table {id}: event {i} is not a torite event: {err}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let record = match &v["record"] {
        Value::Null => None,
        r @ Value::Object(_) => Some(r.to_string()),
        _ => {
            return Err(format!(
                "table {id}: \"record\" is neither a record nor null"
            ));
        }
    };
    let expired = match &v["expired"] {
        Value::Null => None,
        x => Some(
            x.as_i64()
                .ok_or_else(|| format!("table {id}: \"expired\" is not a whole number"))?,
        ),
    };
    Ok(TableRows {
        id,
        created,
        events,
        record,
        expired,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows() -> Vec<TableRows> {
        vec![TableRows {
            id: "abc".into(),
            created: 7,
            events: vec![
                r#"{"type":"created","ruleset":"mura-3","seed":1,"host":"h","timer":null,"created":7}"#
                    .into(),
            ],
            record: None,
            expired: Some(9),
        }]
    }

    #[test]
    fn a_backup_reads_back() {
        let text = backup(&rows());
        assert_eq!(read_backup(&text), Ok(rows()));
    }

    #[test]
    fn a_bad_backup_is_refused_with_its_line() {
        let text = backup(&rows());
        let cut: String = text.lines().take(2).map(|l| format!("{l}\n")).collect();
        assert_eq!(
            read_backup(&cut).unwrap_err(),
            "no end line after 1 tables: the backup is cut short"
        );
        let lines: Vec<&str> = text.lines().collect();
        let twice = [lines[0], lines[1], lines[1], lines[2]].join("\n");
        assert_eq!(
            read_backup(&twice).unwrap_err(),
            "line 3: table abc is in the backup twice (also line 2)"
        );
        assert!(
            read_backup("{}\n")
                .unwrap_err()
                .starts_with("line 1: not a torite backup")
        );
        let bad = text.replace(r#""type":"created""#, r#""type":"dance""#);
        let e = read_backup(&bad).unwrap_err();
        assert!(
            e.starts_with("line 2: table abc: event 0 is not a torite event"),
            "{e}"
        );
    }
}
