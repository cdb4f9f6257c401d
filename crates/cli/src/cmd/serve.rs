//! `tripoley serve` and `tripoley loadtest`: the multiplayer web table and
//! its load generator.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use tripoley_loadtest::{LoadOptions, ScratchDb};
use tripoley_server::{Database, ServerConfig};

use crate::Failure;

/// Arguments of `tripoley serve`.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Where to listen.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Where every table is kept: a `SQLite` file (created if missing), or a
    /// `PostgreSQL` database by its URL (`postgres://USER@HOST:PORT/NAME`;
    /// the server creates its tables there).
    #[arg(long, value_name = "PATH or URL", default_value = "tripoley.db")]
    db: Database,
    /// Another origin allowed to open websockets and use the API (for a
    /// reverse proxy); repeatable.
    #[arg(long, value_name = "URL")]
    allow_origin: Vec<String>,
    /// A proxy's address whose connections start with a PROXY protocol v2 header naming the
    /// client (`send-proxy-v2` in `HAProxy`), so limits per address count clients; repeatable.
    #[arg(long, value_name = "IP")]
    proxy_from: Vec<std::net::IpAddr>,
    /// With `PostgreSQL`, several servers may share the database: how long
    /// a server that stops answering keeps its tables before the others
    /// take them over.
    #[arg(long, value_name = "MILLISECONDS", default_value_t = ServerConfig::default().lease.as_millis() as u64)]
    lease_ms: u64,
    /// With `PostgreSQL`, the address the other servers reach this one at, when it is not
    /// `--addr` (listening on 0.0.0.0, or behind a port mapping): IP:PORT.
    #[arg(long, value_name = "IP:PORT")]
    advertise: Option<SocketAddr>,
    #[command(flatten)]
    limits: Limits,
}

/// The server's limits (`GET /api/health` reports them).
#[derive(clap::Args, Debug)]
#[allow(clippy::struct_field_names)]
struct Limits {
    /// Tables in memory at once.
    #[arg(long, value_name = "N", default_value_t = ServerConfig::default().max_tables)]
    max_tables: usize,
    /// Tables one address may create per hour.
    #[arg(long, value_name = "N", default_value_t = ServerConfig::default().max_tables_per_address)]
    max_tables_per_address: u32,
    /// Tables waiting for players (not started) one address may hold at once; under pressure
    /// the oldest nobody has opened are removed to make room.
    #[arg(long, value_name = "N", default_value_t = ServerConfig::default().max_lobbies_per_address)]
    max_lobbies_per_address: usize,
    /// Tables not finished (lobbies and games being played) one address may hold at once on
    /// this server; under pressure games of bots alone that nobody watches are removed first.
    #[arg(long, value_name = "N", default_value_t = ServerConfig::default().max_games_per_address)]
    max_games_per_address: usize,
    /// The length of the IPv6 prefix that counts as one address for every limit per address
    /// (64: a subscriber's network; 128: each address its own).
    #[arg(long, value_name = "BITS", default_value_t = ServerConfig::default().ipv6_prefix,
          value_parser = clap::value_parser!(u8).range(1..=128))]
    ipv6_prefix: u8,
    /// Connections open at once in the whole server (keep it well below the file limit): at the
    /// cap a new connection closes the oldest one still sending its first request, else the
    /// one silent longest.
    #[arg(long, value_name = "N", default_value_t = ServerConfig::default().max_connections)]
    max_connections: usize,
    /// Connections open at once from one address.
    #[arg(long, value_name = "N", default_value_t = ServerConfig::default().max_connections_per_address)]
    max_connections_per_address: usize,
    /// Connections (browser windows) open at once with one seat.
    #[arg(long, value_name = "N", default_value_t = ServerConfig::default().max_connections_per_seat)]
    max_connections_per_seat: usize,
    /// Spectators per table.
    #[arg(long, value_name = "N", default_value_t = ServerConfig::default().max_spectators)]
    max_spectators: usize,
    /// Spectators of one table from one address.
    #[arg(long, value_name = "N", default_value_t = ServerConfig::default().max_spectators_per_address)]
    max_spectators_per_address: usize,
    /// Hint searches running at once in the whole server.
    #[arg(long, value_name = "N", default_value_t = ServerConfig::default().max_hint_searches)]
    max_hint_searches: usize,
    /// Expert bots' searches running at once in the whole server (an expert
    /// finding none free plays the heuristic's move; 0: always).
    #[arg(long, value_name = "N", default_value_t = ServerConfig::default().max_expert_searches)]
    max_expert_searches: usize,
    /// Milliseconds an expert bot searches one decision at most, from 1 to 1,000. Its answer is
    /// shown when the bot pause has passed however long it searched, so keep this below
    /// --bot-pause.
    #[arg(long, value_name = "MS", default_value_t = ServerConfig::default().expert_ms,
        value_parser = clap::value_parser!(u32).range(1..=1_000))]
    expert_ms: u32,
    /// Seconds a request has for its whole head and body, an answered connection to begin its
    /// next request, and a websocket to send its hello.
    #[arg(long, value_name = "SECONDS", default_value_t = ServerConfig::default().hello_timeout.as_secs())]
    hello_timeout: u64,
    /// Seconds a connection may stay silent (browsers answer the server's pings).
    #[arg(long, value_name = "SECONDS", default_value_t = ServerConfig::default().idle_timeout.as_secs())]
    idle_timeout: u64,
    /// Seconds a table with nobody connected is kept before it is removed.
    #[arg(long, value_name = "SECONDS", default_value_t = ServerConfig::default().table_idle.as_secs())]
    table_idle: u64,
    /// Seconds a finished game is kept in the database.
    #[arg(long, value_name = "SECONDS", default_value_t = ServerConfig::default().keep_finished.as_secs())]
    keep_finished: u64,
    /// Seconds a player may be away before a bot plays for them (and the host may free the
    /// seat), at most a day.
    #[arg(long, value_name = "SECONDS", default_value_t = ServerConfig::default().grace.as_secs(),
        value_parser = clap::value_parser!(u64).range(0..=86_400))]
    grace: u64,
    /// Milliseconds a bot (or a player's automatic move) waits before playing, so people can
    /// follow the table; at most 5,000.
    #[arg(long, value_name = "MS", default_value_t = ServerConfig::default().bot_delay.as_millis() as u64,
        value_parser = clap::value_parser!(u64).range(0..=5_000))]
    bot_pause: u64,
    /// Milliseconds a run waits at a card a person might hold under penalised misplays
    /// (michigan-casino): the holder's secret follow-or-withhold has this long, on a clock only
    /// they see, and a stop is shown when it ends, withheld or not; from 1,000 to 60,000.
    #[arg(long, value_name = "MS", default_value_t = ServerConfig::default().withhold_window.as_millis() as u64,
        value_parser = clap::value_parser!(u64).range(1_000..=60_000))]
    withhold_window: u64,
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
    /// How long the test runs, in seconds (1 to 3,600).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600))]
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

/// The server's runtime: its workers give back the memory they freed when
/// they go idle (see [`crate::allocator::return_own_freed_pages`]).
fn runtime() -> Result<tokio::runtime::Runtime, Failure> {
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    builder.on_thread_park(crate::allocator::return_own_freed_pages);
    built(builder)
}

/// The load generator's runtime when the server runs elsewhere: one
/// thread. Its clients need about half a core, and on a small machine a
/// second worker only contends with the server it measures (more context
/// switches and cross-thread wake-ups for every frame).
fn client_runtime() -> Result<tokio::runtime::Runtime, Failure> {
    built(tokio::runtime::Builder::new_current_thread())
}

fn built(mut builder: tokio::runtime::Builder) -> Result<tokio::runtime::Runtime, Failure> {
    builder.enable_all().build().map_err(|e| Failure {
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

/// Until Ctrl-C or `SIGTERM` (how service managers and `kill` stop a
/// server): either stops it cleanly, and with several servers hands its
/// tables to the others at once.
async fn stop_signal() -> Result<(), Failure> {
    #[cfg(unix)]
    {
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
            .map_err(failed)?;
        tokio::select! {
            r = tokio::signal::ctrl_c() => r.map_err(failed),
            _ = term.recv() => Ok(()),
        }
    }
    #[cfg(not(unix))]
    tokio::signal::ctrl_c().await.map_err(failed)
}

/// Serves the game until Ctrl-C or `SIGTERM`. A server that cannot start (the address is
/// taken, the database cannot be opened, a limit is zero) exits with code 2
/// and the cause.
pub fn serve(args: &ServeArgs) -> Result<(), Failure> {
    let config = config(args);
    crate::allocator::return_freed_pages();
    runtime()?.block_on(async {
        let server = tripoley_server::start(config)
            .await
            .map_err(|e| Failure::usage(format!("tripoley serve cannot start: {e}")))?;
        println!(
            "Tripoley is being served at http://{} (tables kept in {}); Ctrl-C stops it.",
            server.addr(),
            args.db
        );
        stop_signal().await?;
        server.shutdown().await;
        Ok(())
    })
}

/// The server `args` ask for.
fn config(args: &ServeArgs) -> ServerConfig {
    let l = &args.limits;
    ServerConfig {
        addr: args.addr,
        db: args.db.clone(),
        allowed_origins: args.allow_origin.clone(),
        proxies: args.proxy_from.clone(),
        max_tables: l.max_tables,
        max_tables_per_address: l.max_tables_per_address,
        max_lobbies_per_address: l.max_lobbies_per_address,
        max_games_per_address: l.max_games_per_address,
        ipv6_prefix: l.ipv6_prefix,
        max_connections_per_address: l.max_connections_per_address,
        max_connections: l.max_connections,
        max_connections_per_seat: l.max_connections_per_seat,
        max_spectators: l.max_spectators,
        max_spectators_per_address: l.max_spectators_per_address,
        max_hint_searches: l.max_hint_searches,
        max_expert_searches: l.max_expert_searches,
        expert_ms: l.expert_ms,
        hello_timeout: Duration::from_secs(l.hello_timeout),
        idle_timeout: Duration::from_secs(l.idle_timeout),
        table_idle: Duration::from_secs(l.table_idle),
        keep_finished: Duration::from_secs(l.keep_finished),
        grace: Duration::from_secs(l.grace),
        bot_delay: Duration::from_millis(l.bot_pause),
        withhold_window: Duration::from_millis(l.withhold_window),
        lease: Duration::from_millis(args.lease_ms),
        advertise: args.advertise,
        ..ServerConfig::default()
    }
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
    let runtime = if args.in_process {
        // The server in this process gives freed memory back as `serve` does.
        crate::allocator::return_freed_pages();
        runtime()?
    } else {
        client_runtime()?
    };
    let cpu = tripoley_server::cpu_seconds;
    let before = (
        own.as_ref().and_then(|s| cpu(s.child.id())),
        cpu(std::process::id()),
    );
    let mut report = runtime
        .block_on(tripoley_loadtest::loadtest_with(opts))
        .map_err(|e| match e {
            tripoley_server::ServerError::Usage(m) => Failure::usage(m),
            other => failed(other),
        })?;
    let since = |start: Option<f64>, now: Option<f64>| Some(now? - start?);
    report.load_cpu_seconds = since(before.1, cpu(std::process::id()));
    if let Some(server) = own {
        report.memory_kib = tripoley_server::resident_kib(server.child.id());
        report.server_cpu_seconds = since(before.0, cpu(server.child.id()));
    }
    if args.json {
        println!(
            "{}",
            serde_json::to_string(&report).expect("reports serialise")
        );
    } else {
        println!("{report}");
    }
    verdict(&report)
}

/// A load test that lost games, or chips, or made no action at all fails
/// (exit 1) after its report, so scripts and CI notice.
fn verdict(report: &tripoley_loadtest::LoadReport) -> Result<(), Failure> {
    if report.failures > 0 {
        Err(failed(format!(
            "{} games could not be played (their causes are in the report)",
            report.failures
        )))
    } else if !report.chips_conserved {
        Err(failed("a table's chips did not add up"))
    } else if report.actions == 0 {
        Err(failed(format!(
            "no action was played: is {} a tripoley server?",
            report.addr
        )))
    } else {
        Ok(())
    }
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
    /// `tripoley serve`'s arguments for it: a free port, `db`, and the
    /// limits a load generator needs ([`ServerConfig::for_load_generator`]:
    /// all its clients come from this machine's one address).
    fn args(db: &std::path::Path) -> Vec<std::ffi::OsString> {
        let c = ServerConfig::default().for_load_generator();
        let mut args: Vec<std::ffi::OsString> = vec!["--addr".into(), "127.0.0.1:0".into()];
        args.extend(["--db".into(), db.into()]);
        for (flag, value) in [
            ("--max-connections", c.max_connections.to_string()),
            (
                "--max-connections-per-address",
                c.max_connections_per_address.to_string(),
            ),
            (
                "--max-tables-per-address",
                c.max_tables_per_address.to_string(),
            ),
            (
                "--max-lobbies-per-address",
                c.max_lobbies_per_address.to_string(),
            ),
            (
                "--max-games-per-address",
                c.max_games_per_address.to_string(),
            ),
        ] {
            args.extend([flag.into(), value.into()]);
        }
        args
    }

    fn start() -> Result<ServerProcess, Failure> {
        let db = ScratchDb::new();
        let exe = std::env::current_exe()
            .map_err(|e| failed(format!("cannot find this program to start its server: {e}")))?;
        let mut child = Command::new(exe)
            .arg("serve")
            .args(ServerProcess::args(db.path()))
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

#[cfg(test)]
mod tests {
    use super::{ServeArgs, ServerProcess, config};
    use clap::Parser;
    use tripoley_server::ServerConfig;

    #[derive(Parser)]
    struct Serve {
        #[command(flatten)]
        args: ServeArgs,
    }

    /// `tripoley loadtest`'s own server has every limit a load generator
    /// needs. It was given the caps per address but not the server's
    /// total, 10,000 connections: at 2,500 tables the generator's 10,000
    /// clients filled it, and each new request shed one of its own.
    #[test]
    fn the_load_generator_s_own_server_has_the_load_generator_s_limits() {
        let line = std::iter::once("serve".into())
            .chain(ServerProcess::args(std::path::Path::new("load.db")));
        let given = config(
            &Serve::try_parse_from(line)
                .expect("its arguments parse")
                .args,
        );
        let wanted = ServerConfig::default().for_load_generator();
        let limits = |c: &ServerConfig| {
            (
                c.max_connections,
                c.max_connections_per_address,
                c.max_tables_per_address,
                c.max_lobbies_per_address,
                c.max_games_per_address,
            )
        };
        assert_eq!(limits(&given), limits(&wanted));
    }
}
