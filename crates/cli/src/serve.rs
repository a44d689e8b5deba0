//! `torite serve`: the online-play server, and `torite loadtest` against one.

use std::net::SocketAddr;

use crate::Failure;

/// Runs the server until the process is stopped.
pub fn run(addr: &str, db: &str, instant_bots: bool) -> Result<String, Failure> {
    let addr: SocketAddr = addr
        .parse()
        .map_err(|e| Failure::input(format!("--addr {addr}: {e} (e.g. 127.0.0.1:8080)")))?;
    let config = if instant_bots {
        torite_server::Config {
            creates_per_minute: torite_server::Config::default().creates_per_minute,
            ..torite_server::Config::instant()
        }
    } else {
        torite_server::Config::default()
    };
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
