//! `tripoley serve` and `tripoley loadtest`: the multiplayer web table and
//! its load generator.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use tripoley_server::{LoadOptions, ServerConfig};

use crate::Failure;

/// Arguments of `tripoley serve`.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Where to listen.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// The `SQLite` file that keeps every table (created if missing).
    #[arg(long, value_name = "PATH", default_value = "tripoley.db")]
    db: PathBuf,
    /// Another origin allowed to open websockets (for a reverse proxy); repeatable.
    #[arg(long, value_name = "URL")]
    allow_origin: Vec<String>,
}

/// Arguments of `tripoley loadtest`.
#[derive(clap::Args, Debug)]
pub struct LoadArgs {
    /// Tables played at once, each with four client bots.
    #[arg(long, default_value_t = 10)]
    tables: usize,
    /// How long each client thinks before answering its turn.
    #[arg(long, default_value_t = 200)]
    think_ms: u64,
    /// How long the test runs, in seconds.
    #[arg(long, default_value_t = 10)]
    duration: u64,
    /// Load a server already running here (loopback only) instead of starting one.
    #[arg(long)]
    addr: Option<SocketAddr>,
    /// Print the report as one JSON object.
    #[arg(long)]
    json: bool,
}

fn runtime() -> Result<tokio::runtime::Runtime, Failure> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure {
            message: format!("cannot start the async runtime: {e}"),
            code: 1,
        })
}

fn failed(e: impl std::fmt::Display) -> Failure {
    Failure {
        message: e.to_string(),
        code: 1,
    }
}

/// Serves the game until Ctrl-C.
pub fn serve(args: &ServeArgs) -> Result<(), Failure> {
    let config = ServerConfig {
        addr: args.addr,
        db: args.db.clone(),
        allowed_origins: args.allow_origin.clone(),
        ..ServerConfig::default()
    };
    runtime()?.block_on(async {
        let server = tripoley_server::start(config).await.map_err(failed)?;
        println!(
            "Tripoley is being served at http://{} (tables kept in {}); Ctrl-C stops it.",
            server.addr(),
            args.db.display()
        );
        tokio::signal::ctrl_c().await.map_err(failed)?;
        server.shutdown().await;
        Ok(())
    })
}

/// Runs the load generator and prints its report.
pub fn loadtest(args: &LoadArgs) -> Result<(), Failure> {
    let opts = LoadOptions {
        tables: args.tables,
        think: Duration::from_millis(args.think_ms),
        duration: Duration::from_secs(args.duration),
        addr: args.addr,
        ..LoadOptions::default()
    };
    let report = runtime()?
        .block_on(tripoley_server::loadtest_with(opts))
        .map_err(|e| match e {
            tripoley_server::ServerError::Usage(m) => Failure::usage(m),
            other => failed(other),
        })?;
    if args.json {
        println!(
            "{}",
            serde_json::to_string(&report).expect("reports serialise")
        );
    } else {
        println!("{report}");
    }
    Ok(())
}
