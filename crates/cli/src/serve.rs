//! `torite serve`: the online-play server, and `torite loadtest` against one.

use std::net::SocketAddr;

use crate::Failure;

/// Starts the log on standard error: `--log` if given, else `RUST_LOG` if set, else `info`.
fn start_log(level: Option<&str>) -> Result<(), Failure> {
    use tracing_subscriber::EnvFilter;
    let filter = match level {
        Some(level) => EnvFilter::builder()
            .parse(level)
            .map_err(|e| Failure::input(format!("--log {level}: {e} (e.g. info, debug, warn)")))?,
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

/// Runs the server until the process is stopped.
pub fn run(
    addr: &str,
    db: &str,
    instant_bots: bool,
    allow_origins: &[String],
    log: Option<&str>,
) -> Result<String, Failure> {
    let addr: SocketAddr = addr
        .parse()
        .map_err(|e| Failure::input(format!("--addr {addr}: {e} (e.g. 127.0.0.1:8080)")))?;
    let mut config = if instant_bots {
        torite_server::Config {
            creates_per_minute: torite_server::Config::default().creates_per_minute,
            ..torite_server::Config::instant()
        }
    } else {
        torite_server::Config::default()
    };
    for origin in allow_origins {
        config
            .allow_origin(origin)
            .map_err(|e| Failure::input(format!("--allow-origin: {e}")))?;
    }
    start_log(log)?;
    let runtime = tokio::runtime::Runtime::new()
        .map_err(|e| Failure::input(format!("cannot start the runtime: {e}")))?;
    runtime
        .block_on(torite_server::serve(addr, db, config))
        .map_err(Failure::input)?;
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
