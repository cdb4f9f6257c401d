//! `tripoley serve` and `tripoley loadtest`: the multiplayer web table and
//! its load generator.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use tripoley_server::{LoadOptions, ScratchDb, ServerConfig};

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
    /// Run the server inside the load generator's process instead of as a
    /// `tripoley serve` child process (both sides then share one limit of
    /// open files: each client needs two sockets).
    #[arg(long, conflicts_with = "addr")]
    in_process: bool,
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

/// Runs the load generator and prints its report. Unless given a server or
/// asked to run in-process, it starts its own `tripoley serve` as a child
/// process, as a real deployment runs: the server and the 4 clients per
/// table then each have their own limit of open files, and the report gives
/// the server's own memory.
pub fn loadtest(args: &LoadArgs) -> Result<(), Failure> {
    let own = if args.addr.is_none() && !args.in_process {
        Some(ServerProcess::start()?)
    } else {
        None
    };
    let opts = LoadOptions {
        tables: args.tables,
        think: Duration::from_millis(args.think_ms),
        duration: Duration::from_secs(args.duration),
        addr: args.addr.or(own.as_ref().map(|s| s.addr)),
        ..LoadOptions::default()
    };
    let mut report = runtime()?
        .block_on(tripoley_server::loadtest_with(opts))
        .map_err(|e| match e {
            tripoley_server::ServerError::Usage(m) => Failure::usage(m),
            other => failed(other),
        })?;
    if let Some(server) = own {
        report.memory_kib = tripoley_server::resident_kib(server.child.id());
    }
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

/// The load generator's own server: `tripoley serve` (this executable) on a
/// free loopback port with a scratch database; killed, and its database
/// removed, when dropped.
struct ServerProcess {
    child: Child,
    addr: SocketAddr,
    /// Held until the server is gone, then removed.
    _db: ScratchDb,
}

impl ServerProcess {
    fn start() -> Result<ServerProcess, Failure> {
        let db = ScratchDb::new();
        let exe = std::env::current_exe()
            .map_err(|e| failed(format!("cannot find this program to start its server: {e}")))?;
        let mut child = Command::new(exe)
            .args(["serve", "--addr", "127.0.0.1:0", "--db"])
            .arg(db.path())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| failed(format!("cannot start the server: {e}")))?;
        // Its first line says where it listens: "... served at http://ADDR (...".
        let mut line = String::new();
        let read = child
            .stdout
            .take()
            .map(|out| BufReader::new(out).read_line(&mut line));
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|a| a.parse().ok());
        if let (Some(Ok(_)), Some(addr)) = (read, addr) {
            return Ok(ServerProcess {
                child,
                addr,
                _db: db,
            });
        }
        let _ = child.kill();
        let _ = child.wait();
        Err(failed(format!(
            "the server did not start (it said {:?})",
            line.trim()
        )))
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
