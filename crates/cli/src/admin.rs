//! `torite admin export|import`: a backup of everything the server's store holds, as JSON
//! lines, to keep or to move a club's server from one database to another (SQLite to
//! PostgreSQL).
//!
//! The first line is `{"type":"torite-backup","version":1}`; then one line per table, oldest
//! first: `{"type":"table","id","created","events":[…],"record":{…}|null,"expired":…|null}`,
//! its events as the server logged them (numbered from 0 by their place) and, once the game
//! has finished, its record in `RECORD.md` form; then one line per player profile,
//! `{"type":"profile","id","created","name","key_digest"}`, and per seat kept with one,
//! `{"type":"profile_seat","profile","table","seat","token_hash","sealed","invite","created",
//! "result"}` (the key itself is in no backup: only its digest, and the tokens sealed with it);
//! then one line per scorekeeper's sheet, `{"type":"scoresheet","id","created","version",
//! "body":{…}}` (its keys, as in the database, only as digests), and per duplicate series,
//! `{"type":"series","id","created","body":{…}}`, each oldest first; the last line is
//! `{"type":"end","tables":N,"profiles":P,"profile_seats":S,"scoresheets":K,"series":D}`, so
//! that a backup cut short is refused rather than half imported. A backup made before sheets
//! and series were kept has neither count and reads as one without any.
//!
//! The tables, the profiles and the sheets with the series are each read as one snapshot
//! (three reads) and each imported in one transaction; before anything is imported without
//! `--replace`, a sheet or series already in the database refuses the whole import.

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use torite_server::store::{
    ProfileRow, ProfileRows, ProfileStore, SeatRow, SeriesRow, SheetRow, SheetRows, SqlStore,
    TableRows,
};

use crate::Failure;
use crate::serve::Place;

/// The backup format's version.
const VERSION: u64 = 1;

/// `torite admin`'s commands.
#[derive(clap::Subcommand, Debug)]
pub enum AdminCommand {
    /// Write every table of the database (events, records, expiry marks), player profile,
    /// scorekeeper's sheet and duplicate series as JSON lines.
    Export {
        #[command(flatten)]
        place: Place,
        /// Where to write the backup; `-` (the default) for standard output.
        file: Option<PathBuf>,
    },
    /// Read a backup of `torite admin export` into the database (created if missing): the
    /// tables, the profiles, and the score sheets with the series, each in one transaction.
    /// Stop the server first, or restart it after: it loads tables on start.
    Import {
        #[command(flatten)]
        place: Place,
        /// The backup; `-` for standard input.
        file: PathBuf,
        /// Overwrite the tables, sheets and series already in the database (else they are
        /// refused).
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
            let (tables, profiles, sheets) = runtime.block_on(async {
                let db = open(&store.db).await?;
                let tables = db.export().await.map_err(Failure::input);
                let profiles = db.export_profiles().await.map_err(Failure::input);
                let sheets = db.export_sheets().await.map_err(Failure::input);
                db_close(&db).await;
                Ok::<_, Failure>((tables?, profiles?, sheets?))
            })?;
            let text = backup(&tables, &profiles, &sheets);
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
                "torite admin export: {} tables ({finished} finished), {} profiles, {} score sheets, {} duplicate series from {} to {}",
                tables.len(),
                profiles.0.len(),
                sheets.0.len(),
                sheets.1.len(),
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
            let (tables, profiles, sheets) =
                read_backup(&text).map_err(|e| Failure::input(format!("{name}: {e}")))?;
            runtime.block_on(async {
                let db = open(&store.db).await?;
                let into = || torite_server::without_password(&store.db);
                let mut done = if replace {
                    Ok(())
                } else {
                    db.check_sheets(&sheets)
                        .await
                        .map_err(|e| Failure::input(format!("import into {}: {e}", into())))
                };
                if done.is_ok() {
                    done = db
                        .import(&tables, replace)
                        .await
                        .map_err(|e| Failure::input(format!("import into {}: {e}", into())));
                }
                if done.is_ok() {
                    done = db
                        .import_profiles(&profiles.0, &profiles.1)
                        .await
                        .map_err(|e| {
                            Failure::input(format!(
                                "import into {}: the tables were imported, the profiles not: {e}",
                                into()
                            ))
                        });
                }
                if done.is_ok() {
                    done = db.import_sheets(&sheets, replace).await.map_err(|e| {
                        Failure::input(format!(
                            "import into {}: the tables and profiles were imported, the score sheets and series not: {e}",
                            into()
                        ))
                    });
                }
                db_close(&db).await;
                done
            })?;
            eprintln!(
                "torite admin import: {} tables, {} profiles, {} score sheets, {} duplicate series from {name} into {}",
                tables.len(),
                profiles.0.len(),
                sheets.0.len(),
                sheets.1.len(),
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

/// The backup of `tables`, the profiles, the score sheets and the series, as JSON lines.
fn backup(tables: &[TableRows], profiles: &ProfileRows, sheets: &SheetRows) -> String {
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
    for p in &profiles.0 {
        let line = json!({
            "type": "profile",
            "id": p.id,
            "created": p.created,
            "name": p.name,
            "key_digest": p.key_digest,
        });
        out.push_str(&line.to_string());
        out.push('\n');
    }
    for s in &profiles.1 {
        let line = json!({
            "type": "profile_seat",
            "profile": s.profile,
            "table": s.table,
            "seat": s.seat,
            "token_hash": s.token_hash,
            "sealed": s.sealed,
            "invite": s.invite,
            "created": s.created,
            "result": s.result.as_deref().map(as_json),
        });
        out.push_str(&line.to_string());
        out.push('\n');
    }
    for s in &sheets.0 {
        let line = json!({
            "type": "scoresheet",
            "id": s.id,
            "created": s.created,
            "version": s.version,
            "body": as_json(&s.body),
        });
        out.push_str(&line.to_string());
        out.push('\n');
    }
    for s in &sheets.1 {
        let line = json!({
            "type": "series",
            "id": s.id,
            "created": s.created,
            "body": as_json(&s.body),
        });
        out.push_str(&line.to_string());
        out.push('\n');
    }
    let end = json!({
        "type": "end",
        "tables": tables.len(),
        "profiles": profiles.0.len(),
        "profile_seats": profiles.1.len(),
        "scoresheets": sheets.0.len(),
        "series": sheets.1.len(),
    });
    out.push_str(&end.to_string());
    out.push('\n');
    out
}

/// A text field of a backup line.
fn text_of(v: &Value, field: &str, what: &str) -> Result<String, String> {
    v[field]
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| format!("{what}: \"{field}\" is not a text"))
}

/// A whole-number field of a backup line.
fn number_of(v: &Value, field: &str, what: &str) -> Result<i64, String> {
    v[field]
        .as_i64()
        .ok_or_else(|| format!("{what}: \"{field}\" is not a whole number"))
}

/// One profile line.
fn profile_of(v: &Value) -> Result<ProfileRow, String> {
    let id = text_of(v, "id", "a profile line")?;
    let what = format!("profile {id}");
    Ok(ProfileRow {
        created: number_of(v, "created", &what)?,
        name: text_of(v, "name", &what)?,
        key_digest: text_of(v, "key_digest", &what)?,
        id,
    })
}

/// One line of a seat kept with a profile.
fn profile_seat_of(v: &Value) -> Result<SeatRow, String> {
    let profile = text_of(v, "profile", "a profile seat line")?;
    let table = text_of(v, "table", "a profile seat line")?;
    let what = format!("profile {profile}'s seat at table {table}");
    let invite = match &v["invite"] {
        Value::Null => None,
        _ => Some(text_of(v, "invite", &what)?),
    };
    let result = match &v["result"] {
        Value::Null => None,
        r @ Value::Object(_) => Some(r.to_string()),
        _ => return Err(format!("{what}: \"result\" is neither a result nor null")),
    };
    Ok(SeatRow {
        seat: number_of(v, "seat", &what)?,
        token_hash: text_of(v, "token_hash", &what)?,
        sealed: text_of(v, "sealed", &what)?,
        created: number_of(v, "created", &what)?,
        name: String::new(),
        profile,
        table,
        invite,
        result,
    })
}

/// A stored JSON body of a backup line: an object or array, kept as its text.
fn body_of(v: &Value, what: &str) -> Result<String, String> {
    match &v["body"] {
        b @ (Value::Object(_) | Value::Array(_)) => Ok(b.to_string()),
        _ => Err(format!("{what}: \"body\" is not a JSON object")),
    }
}

/// One score sheet line.
fn sheet_of(v: &Value) -> Result<SheetRow, String> {
    let id = text_of(v, "id", "a score sheet line")?;
    let what = format!("score sheet {id}");
    Ok(SheetRow {
        created: number_of(v, "created", &what)?,
        version: number_of(v, "version", &what)?,
        body: body_of(v, &what)?,
        id,
    })
}

/// One duplicate series line.
fn series_of(v: &Value) -> Result<SeriesRow, String> {
    let id = text_of(v, "id", "a series line")?;
    let what = format!("duplicate series {id}");
    Ok(SeriesRow {
        created: number_of(v, "created", &what)?,
        body: body_of(v, &what)?,
        id,
    })
}

/// What a backup holds.
type Backup = (Vec<TableRows>, ProfileRows, SheetRows);

/// Reads a backup, or says (in one line) where and why it is not one.
fn read_backup(text: &str) -> Result<Backup, String> {
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
    let mut profiles = Vec::new();
    let mut seats = Vec::new();
    let mut sheets = Vec::new();
    let mut series = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut seen_sheets: HashMap<(bool, String), usize> = HashMap::new();
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
            Some("profile") => profiles.push(profile_of(&v).map_err(|e| format!("line {n}: {e}"))?),
            Some("profile_seat") => {
                seats.push(profile_seat_of(&v).map_err(|e| format!("line {n}: {e}"))?);
            }
            Some(kind @ ("scoresheet" | "series")) => {
                let (id, what) = if kind == "scoresheet" {
                    let s = sheet_of(&v).map_err(|e| format!("line {n}: {e}"))?;
                    let id = s.id.clone();
                    sheets.push(s);
                    (id, "score sheet")
                } else {
                    let s = series_of(&v).map_err(|e| format!("line {n}: {e}"))?;
                    let id = s.id.clone();
                    series.push(s);
                    (id, "duplicate series")
                };
                if let Some(other) = seen_sheets.insert((kind == "series", id.clone()), n) {
                    return Err(format!(
                        "line {n}: {what} {id} is in the backup twice (also line {other})"
                    ));
                }
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
                // A backup made before profiles (or before sheets and series) has neither
                // count, and no such lines.
                for (field, held) in [
                    ("profiles", profiles.len()),
                    ("profile_seats", seats.len()),
                    ("scoresheets", sheets.len()),
                    ("series", series.len()),
                ] {
                    let counted = v.get(field).map_or(Some(0), Value::as_u64);
                    if counted != Some(held as u64) {
                        return Err(format!(
                            "line {n}: the end line counts {} {field}, the backup holds {held}",
                            v.get(field).unwrap_or(&json!(0))
                        ));
                    }
                }
                end = Some(n);
            }
            _ => {
                return Err(format!(
                    "line {n}: \"type\" is {}, not \"table\", \"profile\", \"profile_seat\", \"scoresheet\", \"series\" or \"end\"",
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
    Ok((tables, (profiles, seats), (sheets, series)))
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

    fn profiles() -> ProfileRows {
        (
            vec![ProfileRow {
                id: "0123456789abcdef".into(),
                created: 8,
                name: "Aki".into(),
                key_digest: "d".into(),
            }],
            vec![SeatRow {
                profile: "0123456789abcdef".into(),
                name: String::new(),
                table: "abc".into(),
                seat: 0,
                token_hash: "h".into(),
                sealed: "5e".into(),
                invite: None,
                created: 8,
                result: Some(r#"{"finished":true}"#.into()),
            }],
        )
    }

    fn sheets() -> SheetRows {
        (
            vec![SheetRow {
                id: "s1".into(),
                created: 9,
                version: 2,
                body: r#"{"deals":[[1,2]],"key_digest":"k"}"#.into(),
            }],
            vec![SeriesRow {
                id: "d1".into(),
                created: 10,
                body: r#"{"host_digest":"h","seed":4}"#.into(),
            }],
        )
    }

    #[test]
    fn a_backup_reads_back() {
        let none = (Vec::new(), Vec::new());
        let text = backup(&rows(), &none, &(Vec::new(), Vec::new()));
        assert_eq!(
            read_backup(&text),
            Ok((rows(), none, (Vec::new(), Vec::new())))
        );
        let text = backup(&rows(), &profiles(), &sheets());
        assert_eq!(read_backup(&text), Ok((rows(), profiles(), sheets())));
        // A backup made before sheets and series reads as one without any.
        let before_sheets = text
            .lines()
            .filter(|l| !l.contains("\"type\":\"s"))
            .map(|l| format!("{l}\n"))
            .collect::<String>()
            .replace(r#","scoresheets":1,"series":1"#, "");
        assert!(!before_sheets.contains("scoresheet"), "{before_sheets}");
        assert_eq!(
            read_backup(&before_sheets),
            Ok((rows(), profiles(), (Vec::new(), Vec::new())))
        );
        // A backup made before profiles reads as one without any.
        let old = before_sheets
            .lines()
            .filter(|l| !l.contains("\"type\":\"profile"))
            .map(|l| format!("{l}\n"))
            .collect::<String>()
            .replace(r#","profiles":1,"profile_seats":1"#, "");
        assert_eq!(
            read_backup(&old),
            Ok((rows(), (Vec::new(), Vec::new()), (Vec::new(), Vec::new())))
        );
        // A series line lost is a backup cut.
        let lost: String = text
            .lines()
            .filter(|l| !l.contains("\"type\":\"series\""))
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(
            read_backup(&lost).unwrap_err(),
            "line 6: the end line counts 1 series, the backup holds 0"
        );
        // A profile line lost is a backup cut.
        let lost: String = before_sheets
            .lines()
            .filter(|l| !l.contains("\"type\":\"profile\""))
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(
            read_backup(&lost).unwrap_err(),
            "line 4: the end line counts 1 profiles, the backup holds 0"
        );
    }

    #[test]
    fn a_bad_sheet_or_series_line_is_refused_with_its_line() {
        let text = backup(&rows(), &(Vec::new(), Vec::new()), &sheets());
        let lines: Vec<&str> = text.lines().collect();
        let twice = [lines[0], lines[1], lines[2], lines[2], lines[3], lines[4]].join("\n");
        assert_eq!(
            read_backup(&twice).unwrap_err(),
            "line 4: score sheet s1 is in the backup twice (also line 3)"
        );
        let bad = text.replace(r#""version":2"#, r#""version":"two""#);
        assert_eq!(
            read_backup(&bad).unwrap_err(),
            "line 3: score sheet s1: \"version\" is not a whole number"
        );
        let bad = text.replace(r#""body":{"host_digest":"h","seed":4}"#, r#""body":"x""#);
        assert_eq!(
            read_backup(&bad).unwrap_err(),
            "line 4: duplicate series d1: \"body\" is not a JSON object"
        );
    }

    #[test]
    fn a_bad_backup_is_refused_with_its_line() {
        let text = backup(
            &rows(),
            &(Vec::new(), Vec::new()),
            &(Vec::new(), Vec::new()),
        );
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
