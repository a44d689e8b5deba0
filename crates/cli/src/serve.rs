//! `torite serve`: the online-play server, and `torite loadtest` against one.
//!
//! Every setting of the server comes, in this order of precedence, from its command-line
//! flag, its `TORITE_*` environment variable, the TOML file of `--config` (or
//! `TORITE_CONFIG`), or its default. `--print-config` shows the result.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use toml::Spanned;

use crate::Failure;

/// The address served when none is given.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8080";
/// The SQLite file of the data directory when no database is given.
pub const DB_FILE: &str = "torite.db";

/// Where the server's data is: the settings `torite serve` and `torite admin` share.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct Place {
    /// A TOML file of settings: `addr`, `db`, `data_dir`, `public_url`, `allow_origin` (a
    /// list), `log`. Flags and `TORITE_*` variables take precedence over it.
    #[arg(long, env = "TORITE_CONFIG", value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Database: an SQLite file (`sqlite:torite.db`, created if missing) or a PostgreSQL URL
    /// (`postgres://user@host/db`) [default: sqlite:DATA_DIR/torite.db]. Help never shows
    /// the variable's value, which may hold a password.
    #[arg(long, env = "TORITE_DB", value_name = "URL", hide_env_values = true)]
    pub db: Option<String>,
    /// Where the server keeps what it writes: the default database is `torite.db` in it.
    /// Created if missing [default: the working directory].
    #[arg(long, env = "TORITE_DATA_DIR", value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
}

/// `torite serve`'s options.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ServeArgs {
    #[command(flatten)]
    pub place: Place,
    /// Address to listen on [default: 127.0.0.1:8080].
    #[arg(long, env = "TORITE_ADDR", value_name = "HOST:PORT")]
    pub addr: Option<String>,
    /// The address people reach the server at (`https://torite.example`), when it is not the
    /// one it listens on (behind a reverse proxy): pages of that origin are admitted, and the
    /// browser is told it, for invite links.
    #[arg(long, env = "TORITE_PUBLIC_URL", value_name = "URL")]
    pub public_url: Option<String>,
    /// Also admit the pages of this origin (`https://host[:port]`) besides the server's own,
    /// e.g. behind a proxy that rewrites `Host`. Repeatable; TORITE_ALLOW_ORIGIN takes a
    /// comma-separated list.
    #[arg(
        long = "allow-origin",
        env = "TORITE_ALLOW_ORIGIN",
        value_name = "URL",
        value_delimiter = ','
    )]
    pub allow_origin: Vec<String>,
    /// What the log on standard error shows: error, warn, info (the default), debug, trace,
    /// or a filter such as `torite_server=debug,warn`. Without it (or TORITE_LOG, or `log` in
    /// the config file), `RUST_LOG` is read.
    #[arg(long, env = "TORITE_LOG", value_name = "LEVEL")]
    pub log: Option<String>,
    /// On PostgreSQL, where the other nodes of the cluster reach this one (`host:port`)
    /// [default: the address listened on, 127.0.0.1 for 0.0.0.0].
    #[arg(long, env = "TORITE_NODE_ADDR", value_name = "HOST:PORT")]
    pub node_addr: Option<String>,
    /// Bots act at once, without pauses to follow the play.
    #[arg(long)]
    pub instant_bots: bool,
    /// The load test's nodes: bots wait this many milliseconds, and tables are created
    /// without limits.
    #[arg(long, hide = true, value_name = "MS")]
    pub loadtest_pace_ms: Option<u64>,
    /// How long a node holds a table's lease without renewing it, in milliseconds.
    #[arg(long, hide = true, value_name = "MS")]
    pub lease_ms: Option<u64>,
    /// Print the settings as resolved (flags, then TORITE_* variables, then the config file,
    /// then the defaults), as TOML, and exit.
    #[arg(long)]
    pub print_config: bool,
}

/// The config file's keys, each with where it is in the file.
#[derive(Deserialize, Default, Debug)]
#[serde(deny_unknown_fields)]
struct FileSettings {
    addr: Option<Spanned<String>>,
    db: Option<Spanned<String>>,
    data_dir: Option<Spanned<PathBuf>>,
    public_url: Option<Spanned<String>>,
    allow_origin: Option<Spanned<Vec<String>>>,
    log: Option<Spanned<String>>,
}

/// A config file: its name, text and settings.
struct ConfigFile {
    path: PathBuf,
    text: String,
    settings: FileSettings,
}

impl ConfigFile {
    /// Reads and parses the file.
    fn read(path: &Path) -> Result<ConfigFile, Failure> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            Failure::input(format!("--config {}: cannot read it: {e}", path.display()))
        })?;
        let settings = toml::from_str(&text).map_err(|e| {
            Failure::input(format!(
                "--config {}: {}",
                path.display(),
                file_error(&text, &e)
            ))
        })?;
        Ok(ConfigFile {
            path: path.to_owned(),
            text,
            settings,
        })
    }

    /// Where a value stands in the file, for an error: `FILE line N, key`.
    fn at<T>(&self, key: &str, value: &Spanned<T>) -> String {
        format!(
            "{} line {}, {key}",
            self.path.display(),
            line_of(&self.text, value.span().start)
        )
    }
}

/// The line (from 1) of byte `offset` in `text`.
fn line_of(text: &str, offset: usize) -> usize {
    text[..text.floor_char_boundary(offset)]
        .matches('\n')
        .count()
        + 1
}

/// A TOML error of the config file as one line: the line, the key when there is one, why.
fn file_error(text: &str, e: &toml::de::Error) -> String {
    let message = e.message().trim().replace('\n', " ");
    let Some(span) = e.span().filter(|s| text.get(s.clone()).is_some()) else {
        return format!("invalid TOML: {message}");
    };
    let line = line_of(text, span.start);
    let line_start = text[..span.start].rfind('\n').map_or(0, |i| i + 1);
    let line_text = text[line_start..].lines().next().unwrap_or_default();
    let key = line_text
        .split_once('=')
        .map(|(k, _)| k.trim().trim_matches(['"', '\'']))
        .filter(|k| !k.is_empty() && !k.starts_with('['));
    match key {
        Some(key) => format!("line {line}, key {key}: {message}"),
        None => format!("line {line}: {message}"),
    }
}

/// A setting with where it came from, for its errors.
struct Setting<T> {
    value: T,
    from: String,
}

/// Picks a setting: the flag's or variable's value, else the file's, else none.
fn pick<T: Clone>(
    given: Option<T>,
    flag: &str,
    env: &str,
    file: Option<&ConfigFile>,
    key: &str,
    of_file: impl Fn(&FileSettings) -> Option<&Spanned<T>>,
) -> Option<Setting<T>> {
    if let Some(value) = given {
        return Some(Setting {
            value,
            from: format!("{flag} (or {env})"),
        });
    }
    let file = file?;
    of_file(&file.settings).map(|v| Setting {
        value: v.get_ref().clone(),
        from: file.at(key, v),
    })
}

/// The data directory and the database, as resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Store {
    /// Where the server's data lives.
    pub data_dir: PathBuf,
    /// The database URL.
    pub db: String,
}

/// The settings of `torite serve`, as resolved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Settings {
    /// The address listened on.
    pub addr: String,
    /// The database URL.
    pub db: String,
    /// The data directory.
    pub data_dir: PathBuf,
    /// The address people reach the server at, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub public_url: Option<String>,
    /// Origins admitted besides the server's own.
    pub allow_origin: Vec<String>,
    /// The log filter, when given (else `RUST_LOG`, else `info`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub log: Option<String>,
    /// Where each setting that can be wrong came from.
    #[serde(skip)]
    from: Vec<(&'static str, String)>,
}

impl Place {
    /// The config file, when one is named.
    fn file(&self) -> Result<Option<ConfigFile>, Failure> {
        self.config.as_deref().map(ConfigFile::read).transpose()
    }

    /// The data directory and database from these options and the file.
    fn resolve_with(&self, file: Option<&ConfigFile>) -> Store {
        let data_dir = pick(
            self.data_dir.clone(),
            "--data-dir",
            "TORITE_DATA_DIR",
            file,
            "data_dir",
            |f| f.data_dir.as_ref(),
        )
        .map_or_else(|| PathBuf::from("."), |s| s.value);
        let db = pick(self.db.clone(), "--db", "TORITE_DB", file, "db", |f| {
            f.db.as_ref()
        })
        .map_or_else(|| default_db(&data_dir), |s| s.value);
        Store { data_dir, db }
    }

    /// The data directory and database (for `torite admin`).
    ///
    /// # Errors
    ///
    /// The config file cannot be read or is not valid.
    pub fn resolve(&self) -> Result<Store, Failure> {
        let file = self.file()?;
        Ok(self.resolve_with(file.as_ref()))
    }
}

/// The default database: `torite.db` in the data directory.
fn default_db(data_dir: &Path) -> String {
    if data_dir == Path::new(".") {
        format!("sqlite:{DB_FILE}")
    } else {
        format!("sqlite:{}", data_dir.join(DB_FILE).display())
    }
}

impl ServeArgs {
    /// Resolves every setting: flag, then variable (clap has merged those), then file, then
    /// default.
    ///
    /// # Errors
    ///
    /// The config file cannot be read or is not valid.
    pub fn resolve(&self) -> Result<Settings, Failure> {
        let file = self.place.file()?;
        let file = file.as_ref();
        let Store { data_dir, db } = self.place.resolve_with(file);
        let mut from = Vec::new();
        let mut keep = |name: &'static str, s: &Option<Setting<String>>| {
            if let Some(s) = s {
                from.push((name, s.from.clone()));
            }
        };
        let addr = pick(
            self.addr.clone(),
            "--addr",
            "TORITE_ADDR",
            file,
            "addr",
            |f| f.addr.as_ref(),
        );
        keep("addr", &addr);
        let public_url = pick(
            self.public_url.clone(),
            "--public-url",
            "TORITE_PUBLIC_URL",
            file,
            "public_url",
            |f| f.public_url.as_ref(),
        );
        keep("public_url", &public_url);
        let log = pick(self.log.clone(), "--log", "TORITE_LOG", file, "log", |f| {
            f.log.as_ref()
        });
        keep("log", &log);
        let given_origins = (!self.allow_origin.is_empty()).then(|| self.allow_origin.clone());
        let origins = pick(
            given_origins,
            "--allow-origin",
            "TORITE_ALLOW_ORIGIN",
            file,
            "allow_origin",
            |f| f.allow_origin.as_ref(),
        );
        if let Some(s) = &origins {
            from.push(("allow_origin", s.from.clone()));
        }
        Ok(Settings {
            addr: addr.map_or_else(|| DEFAULT_ADDR.to_owned(), |s| s.value),
            db,
            data_dir,
            public_url: public_url.map(|s| s.value),
            allow_origin: origins.map(|s| s.value).unwrap_or_default(),
            log: log.map(|s| s.value),
            from,
        })
    }
}

impl Settings {
    /// Where a setting came from, to name it in an error.
    fn from(&self, name: &str) -> String {
        self.from
            .iter()
            .find(|(n, _)| *n == name)
            .map_or_else(|| name.to_owned(), |(_, f)| f.clone())
    }

    /// The settings as a TOML file would give them (the database's password hidden).
    #[must_use]
    pub fn to_toml(&self) -> String {
        let shown = Settings {
            db: torite_server::without_password(&self.db),
            ..self.clone()
        };
        let body = toml::to_string(&shown).unwrap_or_default();
        format!(
            "# torite serve: the settings as resolved (flags, TORITE_* variables, --config file, \
             defaults)\n{body}"
        )
    }

    /// The address to listen on, and the server's configuration.
    fn server_config(
        &self,
        instant_bots: bool,
    ) -> Result<(SocketAddr, torite_server::Config), Failure> {
        let addr: SocketAddr = self.addr.parse().map_err(|e| {
            Failure::input(format!(
                "{} = {}: {e} (e.g. 127.0.0.1:8080)",
                self.from("addr"),
                self.addr
            ))
        })?;
        let mut config = if instant_bots {
            torite_server::Config {
                creates_per_minute: torite_server::Config::default().creates_per_minute,
                ..torite_server::Config::instant()
            }
        } else {
            torite_server::Config::default()
        };
        if let Some(url) = &self.public_url {
            config.set_public_url(url).map_err(|e| {
                let hint = if e.contains("has a path") {
                    " (torite is served at the root of its address)"
                } else {
                    ""
                };
                Failure::input(format!("{}: {e}{hint}", self.from("public_url")))
            })?;
        }
        for origin in &self.allow_origin {
            config
                .allow_origin(origin)
                .map_err(|e| Failure::input(format!("{}: {e}", self.from("allow_origin"))))?;
        }
        Ok((addr, config))
    }
}

/// Starts the log on standard error: the setting if given, else `RUST_LOG` if set, else
/// `info`.
fn start_log(level: Option<&str>, from: &str) -> Result<(), Failure> {
    use tracing_subscriber::EnvFilter;
    let filter = match level {
        Some(level) => EnvFilter::builder().parse(level).map_err(|e| {
            Failure::input(format!("{from} = {level}: {e} (e.g. info, debug, warn)"))
        })?,
        None => match std::env::var("RUST_LOG") {
            Ok(env) if !env.trim().is_empty() => EnvFilter::builder()
                .parse(&env)
                .map_err(|e| Failure::input(format!("RUST_LOG={env}: {e} (e.g. info)")))?,
            _ => EnvFilter::new("info"),
        },
    };
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .try_init()
        .map_err(|e| Failure::input(format!("cannot start the log: {e}")))
}

/// Completes on SIGTERM or SIGINT (Ctrl-C). The handlers are installed when this is called,
/// so that a signal that comes while the tables load is not lost.
fn stop_signal() -> Result<impl Future<Output = ()> + Send + 'static, Failure> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let cannot = |e: std::io::Error| Failure::input(format!("cannot catch signals: {e}"));
        let mut term = signal(SignalKind::terminate()).map_err(cannot)?;
        let mut int = signal(SignalKind::interrupt()).map_err(cannot)?;
        Ok(async move {
            let name = tokio::select! {
                _ = term.recv() => "SIGTERM",
                _ = int.recv() => "SIGINT",
            };
            tracing::info!(signal = name, "stop asked");
        })
    }
    #[cfg(not(unix))]
    {
        Ok(async {
            let _ = tokio::signal::ctrl_c().await;
        })
    }
}

/// Runs the server until SIGTERM or Ctrl-C, then shuts it down gracefully (exit status 0).
pub fn run(args: &ServeArgs) -> Result<String, Failure> {
    let settings = args.resolve()?;
    if args.print_config {
        return Ok(settings.to_toml());
    }
    let (addr, mut config) = settings.server_config(args.instant_bots)?;
    if let Some(ms) = args.loadtest_pace_ms {
        let pace = std::time::Duration::from_millis(ms);
        config = torite_server::Config {
            bot_delay: pace,
            trick_pause: pace,
            ..torite_server::Config {
                public_url: config.public_url,
                allowed_origins: config.allowed_origins,
                ..torite_server::Config::instant()
            }
        };
    }
    if let Some(ms) = args.lease_ms {
        config.lease = std::time::Duration::from_millis(ms.max(200));
    }
    config.node_addr.clone_from(&args.node_addr);
    start_log(settings.log.as_deref(), &settings.from("log"))?;
    std::fs::create_dir_all(&settings.data_dir).map_err(|e| {
        Failure::input(format!(
            "data directory {}: cannot create it: {e}",
            settings.data_dir.display()
        ))
    })?;
    let runtime = tokio::runtime::Runtime::new()
        .map_err(|e| Failure::input(format!("cannot start the runtime: {e}")))?;
    runtime.block_on(async {
        let stop = stop_signal()?;
        torite_server::serve_with_shutdown(addr, &settings.db, config, stop)
            .await
            .map_err(Failure::input)
    })?;
    Ok(String::new())
}

/// Runs the load test and prints its report as JSON.
pub fn loadtest(args: torite_server::loadtest::Args) -> Result<String, Failure> {
    let runtime = tokio::runtime::Runtime::new()
        .map_err(|e| Failure::input(format!("cannot start the runtime: {e}")))?;
    let report = runtime
        .block_on(torite_server::loadtest::run(args))
        .map_err(Failure::input)?;
    Ok(format!("{}\n", torite_core::to_pretty_json(&report)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &str) -> Result<ConfigFile, String> {
        toml::from_str(text)
            .map(|settings| ConfigFile {
                path: PathBuf::from("torite.toml"),
                text: text.to_owned(),
                settings,
            })
            .map_err(|e| file_error(text, &e))
    }

    fn resolve(args: &ServeArgs, text: &str) -> Settings {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("torite.toml");
        std::fs::write(&path, text).unwrap();
        let mut args = args.clone();
        args.place.config = Some(path);
        args.resolve().unwrap()
    }

    #[test]
    fn defaults_without_flags_or_file() {
        let s = ServeArgs::default().resolve().unwrap();
        assert_eq!(s.addr, DEFAULT_ADDR);
        assert_eq!(s.db, "sqlite:torite.db");
        assert_eq!(s.data_dir, PathBuf::from("."));
        assert_eq!(s.public_url, None);
        assert!(s.allow_origin.is_empty());
    }

    #[test]
    fn the_database_defaults_to_the_data_directory() {
        let args = ServeArgs {
            place: Place {
                data_dir: Some(PathBuf::from("/var/lib/torite")),
                ..Place::default()
            },
            ..ServeArgs::default()
        };
        assert_eq!(
            args.resolve().unwrap().db,
            "sqlite:/var/lib/torite/torite.db"
        );
        let s = resolve(&ServeArgs::default(), "data_dir = \"/srv/t\"\n");
        assert_eq!(s.db, "sqlite:/srv/t/torite.db");
    }

    #[test]
    fn flags_come_before_the_file() {
        let text = "addr = \"0.0.0.0:80\"\ndb = \"sqlite:file.db\"\nlog = \"debug\"\n\
                    allow_origin = [\"https://a.example\"]\npublic_url = \"https://t.example\"\n";
        let s = resolve(&ServeArgs::default(), text);
        assert_eq!(s.addr, "0.0.0.0:80");
        assert_eq!(s.db, "sqlite:file.db");
        assert_eq!(s.log.as_deref(), Some("debug"));
        assert_eq!(s.allow_origin, ["https://a.example"]);
        assert_eq!(s.public_url.as_deref(), Some("https://t.example"));
        let args = ServeArgs {
            addr: Some("127.0.0.1:9".into()),
            allow_origin: vec!["https://b.example".into()],
            ..ServeArgs::default()
        };
        let s = resolve(&args, text);
        assert_eq!(s.addr, "127.0.0.1:9");
        assert_eq!(s.allow_origin, ["https://b.example"]);
        assert_eq!(s.db, "sqlite:file.db");
    }

    #[test]
    fn a_bad_file_is_one_line_naming_the_line_and_the_key() {
        let e = file("addr = \"x:1\"\nadr = \"y\"\n").err().unwrap();
        assert!(e.starts_with("line 2, key adr: unknown field `adr`"), "{e}");
        let e = file("db = \"a\"\n\naddr = 8080\n").err().unwrap();
        assert!(
            e.starts_with("line 3, key addr: invalid type: integer"),
            "{e}"
        );
        let e = file("addr = \n").err().unwrap();
        assert!(e.starts_with("line 1"), "{e}");
        assert!(!e.contains('\n'), "{e}");
    }

    #[test]
    fn a_bad_value_names_where_it_came_from() {
        let s = resolve(&ServeArgs::default(), "db = \"x\"\naddr = \"nowhere\"\n");
        let e = s.server_config(false).err().unwrap().message;
        assert!(e.contains("torite.toml line 2, addr = nowhere:"), "{e}");
        let args = ServeArgs {
            public_url: Some("https://t.example/torite".into()),
            ..ServeArgs::default()
        };
        let e = args
            .resolve()
            .unwrap()
            .server_config(false)
            .err()
            .unwrap()
            .message;
        assert!(
            e.starts_with("--public-url (or TORITE_PUBLIC_URL): "),
            "{e}"
        );
    }

    #[test]
    fn the_public_url_is_an_admitted_origin() {
        let args = ServeArgs {
            public_url: Some("https://Torite.Example/".into()),
            ..ServeArgs::default()
        };
        let (_, config) = args.resolve().unwrap().server_config(false).unwrap();
        assert_eq!(config.allowed_origins, ["https://torite.example:443"]);
        assert_eq!(config.public_url.as_deref(), Some("https://Torite.Example"));
    }

    #[test]
    fn the_printed_settings_read_back_and_hide_the_password() {
        let args = ServeArgs {
            place: Place {
                db: Some("postgres://t:secret@db/t".into()),
                ..Place::default()
            },
            public_url: Some("https://t.example".into()),
            ..ServeArgs::default()
        };
        let text = args.resolve().unwrap().to_toml();
        assert!(!text.contains("secret"), "{text}");
        let back = file(&text).unwrap();
        assert_eq!(
            back.settings.db.map(|d| d.into_inner()).as_deref(),
            Some("postgres://t:***@db/t")
        );
    }
}
