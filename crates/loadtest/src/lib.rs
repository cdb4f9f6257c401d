//! The load generator behind `tripoley loadtest`: N tables of client bots
//! over loopback websockets, each answering its turn after a think time.
//! Bounded in count and time, and loopback only. Its [`client`] of the
//! server is the server's and the command line's tests' too.
//!
//! ```
//! use tripoley_loadtest::client;
//! use tripoley_server::{ServerConfig, protocol::CreateTable};
//!
//! # tokio::runtime::Runtime::new()?.block_on(async {
//! let server = tripoley_server::start(ServerConfig::ephemeral()).await?;
//! let table = client::create_table(server.addr(), &CreateTable::default()).await?;
//! assert_eq!(table.path, format!("/t/{}", table.invite));
//! server.shutdown().await;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! # })?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

// SQLite, PostgreSQL and HAProxy are names here, not code.
#![allow(clippy::doc_markdown)]

pub mod client;

use std::collections::BTreeMap;
use std::fmt;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use tokio::sync::mpsc::UnboundedSender;
use tripoley_bots::BotKind;
use tripoley_cards::seeded_rng;
use tripoley_engine::{Preset, Rules, View};

use crate::client::{PlayStats, Socket};
use tripoley_server::protocol::{CreateTable, ErrorCode};
use tripoley_server::{RunningServer, ServerConfig, ServerError};

/// The most tables a load test may play at once (the server's caps for a
/// load generator are sized for them).
pub const MAX_TABLES: usize = tripoley_server::LOAD_MAX_TABLES;
/// The longest a load test may run: an hour, room for the 30-minute soak.
pub const MAX_DURATION: Duration = Duration::from_secs(3600);
/// How long a game may go without news before it counts as frozen, by
/// default: long enough for a table to move after its server dies (the
/// lease time, 5 s by default, and its reload).
const FROZEN: Duration = Duration::from_secs(15);

/// What a load test plays.
#[derive(Clone, Debug)]
pub struct LoadOptions {
    /// Tables played at once (1 to `MAX_TABLES`).
    pub tables: usize,
    /// Seats per table, every one a client bot.
    pub seats: u8,
    /// How long each client waits before answering its turn.
    pub think: Duration,
    /// How long the test runs (at most `MAX_DURATION`); a table that
    /// finishes its game early starts another.
    pub duration: Duration,
    /// A running server to load (loopback only); `None` starts one in this
    /// process, storing every step in a temporary SQLite file as `tripoley
    /// serve` does (removed at the end).
    pub addr: Option<SocketAddr>,
    /// The rules.
    pub preset: Preset,
    /// The clients' bot.
    pub bot: BotKind,
    /// A game that goes this long without any of its seats hearing from
    /// it is frozen, and counted as failed.
    pub frozen_after: Duration,
    /// Where each game played is told, as its seats saw it (a test compares
    /// that with the record the servers stored); `None` tells no one.
    pub seen: Option<UnboundedSender<GameSeen>>,
}

/// One game as the load generator's seats saw it.
#[derive(Clone, Debug)]
pub struct GameSeen {
    /// The table.
    pub invite: String,
    /// Each seat's last event number and, if it saw the game end, the
    /// stacks it ended with.
    pub seats: Vec<(Option<u64>, Option<Vec<u32>>)>,
}

impl Default for LoadOptions {
    fn default() -> LoadOptions {
        LoadOptions {
            tables: 10,
            seats: 4,
            think: Duration::from_millis(50),
            duration: Duration::from_secs(10),
            addr: None,
            preset: Preset::Pagat,
            bot: BotKind::Heuristic,
            frozen_after: FROZEN,
            seen: None,
        }
    }
}

/// What a load test measured.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct LoadReport {
    /// The server loaded.
    pub addr: SocketAddr,
    /// Tables played at once.
    pub tables: usize,
    /// The most clients connected at once.
    pub clients: usize,
    /// Games played to the end.
    pub games_finished: u64,
    /// Actions sent by all clients.
    pub actions: u64,
    /// Seconds the test ran.
    pub seconds: f64,
    /// Actions per second over the whole test.
    pub actions_per_second: f64,
    /// Median milliseconds from sending an action to receiving its result.
    pub latency_p50_ms: f64,
    /// 99th percentile of the same.
    pub latency_p99_ms: f64,
    /// The slowest.
    pub latency_max_ms: f64,
    /// The same once all but one in a hundred tables had played: setting
    /// the tables up (each create, sit and welcome) counts in the figures
    /// above, not here. `None` if more never played, or only in the last
    /// second.
    pub steady: Option<Steady>,
    /// The server's resident memory at the end in KiB: of this process,
    /// clients included, when the server ran in it; `tripoley loadtest`
    /// fills in its own server process's.
    pub memory_kib: Option<u64>,
    /// The CPU seconds the server used during the test, all its threads:
    /// `tripoley loadtest` fills it in for its own server process. Divided by
    /// the actions, the server's work per action, a figure that other work
    /// on the machine changes far less than it changes latency.
    pub server_cpu_seconds: Option<f64>,
    /// The CPU seconds of the load generator's own process (its clients,
    /// and the server too when it ran in-process).
    pub load_cpu_seconds: Option<f64>,
    /// Error replies the clients received (stale answers, for example).
    pub errors: u64,
    /// Games that could not be played: a connection refused or lost, a
    /// request refused, a game frozen (no news for longer than
    /// [`LoadOptions::frozen_after`]). Games cut short by the end of the test are not
    /// failures.
    pub failures: u64,
    /// How many failures had each cause (the client's error message).
    pub failure_causes: BTreeMap<String, u64>,
    /// Whether every table's chips added up to what it started with.
    pub chips_conserved: bool,
    /// Connections that dropped mid-game (their server stopped or died,
    /// behind a proxy in front of several) and connected again.
    pub reconnects: u64,
    /// The longest of those, in milliseconds: from the drop until the
    /// table (wherever it runs now) took the client back.
    pub reconnect_max_ms: f64,
    /// Tables left before their game began because a seat was taken by a
    /// sit whose answer was lost (behind a proxy, a server died after
    /// seating the client and before answering): not failures; another
    /// table was made.
    pub sits_lost: u64,
}

/// A load test's figures from the moment all but one table in a hundred
/// had made its first move to the end: what a server serves once its
/// tables are set up.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Steady {
    /// When, in seconds from the start.
    pub from_seconds: f64,
    /// Actions sent from then on and answered, a second.
    pub actions_per_second: f64,
    /// Median milliseconds from sending one of those actions to its result.
    pub latency_p50_ms: f64,
    /// 99th percentile of the same.
    pub latency_p99_ms: f64,
    /// The slowest.
    pub latency_max_ms: f64,
}

impl Steady {
    /// The figures of each table's answers sent from the moment all but
    /// one in a hundred tables had sent their first (a table whose game
    /// failed and started again later is no setup the server still does),
    /// to `ended`.
    fn of(tables: &[Vec<client::Answer>], started: Instant, ended: Instant) -> Option<Steady> {
        let mut firsts: Vec<Instant> = tables
            .iter()
            .filter_map(|t| t.iter().map(|a| a.sent).min())
            .collect();
        firsts.sort_unstable();
        let most = tables.len() - tables.len() / 100;
        let from = *firsts.get(most.checked_sub(1)?)?;
        let seconds = ended.saturating_duration_since(from).as_secs_f64();
        if seconds < 1.0 {
            return None;
        }
        let mut lat: Vec<u64> = tables
            .iter()
            .flatten()
            .filter(|a| a.sent >= from)
            .map(|a| a.micros)
            .collect();
        lat.sort_unstable();
        Some(Steady {
            from_seconds: from.duration_since(started).as_secs_f64(),
            actions_per_second: lat.len() as f64 / seconds,
            latency_p50_ms: percentile_ms(&lat, 50),
            latency_p99_ms: percentile_ms(&lat, 99),
            latency_max_ms: percentile_ms(&lat, 100),
        })
    }
}

/// The `p`th percentile of sorted microseconds, in milliseconds (0 if none).
fn percentile_ms(sorted: &[u64], p: usize) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() - 1) * p + 50) / 100;
    sorted[i] as f64 / 1000.0
}

impl fmt::Display for LoadReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "server             {}", self.addr)?;
        writeln!(f, "tables             {}", self.tables)?;
        writeln!(f, "clients connected  {}", self.clients)?;
        writeln!(f, "games finished     {}", self.games_finished)?;
        writeln!(
            f,
            "actions            {} in {:.1} s ({:.0}/s)",
            self.actions, self.seconds, self.actions_per_second
        )?;
        writeln!(
            f,
            "latency            p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            self.latency_p50_ms, self.latency_p99_ms, self.latency_max_ms
        )?;
        match &self.steady {
            Some(s) => writeln!(
                f,
                "once all played    from {:.1} s: {:.0} actions/s, p50 {:.2} ms, p99 {:.2} ms, \
                 max {:.2} ms",
                s.from_seconds,
                s.actions_per_second,
                s.latency_p50_ms,
                s.latency_p99_ms,
                s.latency_max_ms
            )?,
            None => writeln!(
                f,
                "once all played    never (more than one table in a hundred did not play, or \
                 only in the last second)"
            )?,
        }
        match self.memory_kib {
            Some(k) => writeln!(f, "memory (VmRSS)     {:.1} MiB", k as f64 / 1024.0)?,
            None => writeln!(
                f,
                "memory (VmRSS)     not measured (the server is not ours)"
            )?,
        }
        let per_action = |cpu: f64| cpu * 1e6 / (self.actions.max(1) as f64);
        let cores = |cpu: f64| cpu / self.seconds.max(1e-9);
        if let Some(cpu) = self.server_cpu_seconds {
            writeln!(
                f,
                "server CPU         {cpu:.1} s ({:.2} cores), {:.0} µs per action",
                cores(cpu),
                per_action(cpu)
            )?;
        }
        if let Some(cpu) = self.load_cpu_seconds {
            writeln!(
                f,
                "load generator CPU {cpu:.1} s ({:.2} cores), {:.0} µs per action",
                cores(cpu),
                per_action(cpu)
            )?;
        }
        writeln!(f, "errors, failures   {}, {}", self.errors, self.failures)?;
        if self.sits_lost > 0 {
            writeln!(
                f,
                "tables left        {} (a sit's answer lost behind a proxy)",
                self.sits_lost
            )?;
        }
        if self.reconnects > 0 {
            writeln!(
                f,
                "reconnects         {} (the longest {:.0} ms)",
                self.reconnects, self.reconnect_max_ms
            )?;
        }
        for (cause, count) in &self.failure_causes {
            writeln!(f, "  {count} x {cause}")?;
        }
        write!(
            f,
            "chips conserved    {}",
            if self.chips_conserved { "yes" } else { "NO" }
        )
    }
}

/// [`loadtest_with`] with four seats per table, `pagat` rules and heuristic
/// bots.
pub async fn loadtest(
    tables: usize,
    think_ms: u64,
    duration: Duration,
    addr: Option<SocketAddr>,
) -> Result<LoadReport, ServerError> {
    loadtest_with(LoadOptions {
        tables,
        think: Duration::from_millis(think_ms),
        duration,
        addr,
        ..LoadOptions::default()
    })
    .await
}

#[derive(Default)]
struct TableResult {
    stats: Vec<PlayStats>,
    /// How long each dropped connection took to come back.
    reconnects: Vec<Duration>,
    games: u64,
    failures: BTreeMap<String, u64>,
    conserved: bool,
    sits_lost: u64,
}

/// Whether a view's chips add up to what the table started with (T7).
fn conserved(view: &View, start: u32) -> bool {
    let stacks: u32 = view.stacks.iter().sum();
    let layout: u32 = view.layout.iter().map(|(_, c)| c).sum();
    stacks + layout == start * u32::from(view.players)
}

/// Runs a load test; see [`LoadOptions`].
pub async fn loadtest_with(opts: LoadOptions) -> Result<LoadReport, ServerError> {
    if opts.tables == 0 || opts.tables > MAX_TABLES {
        return Err(ServerError::Usage(format!(
            "a load test plays 1 to {MAX_TABLES} tables"
        )));
    }
    if opts.duration.is_zero() || opts.duration > MAX_DURATION {
        return Err(ServerError::Usage(format!(
            "a load test runs for 1 to {} seconds",
            MAX_DURATION.as_secs()
        )));
    }
    if opts.think > Duration::from_secs(60) {
        return Err(ServerError::Usage("the think time is at most 60 s".into()));
    }
    let rules = Rules::preset(opts.preset);
    rules
        .check_players(usize::from(opts.seats))
        .map_err(|e| ServerError::Usage(e.to_string()))?;
    if let Some(a) = opts.addr
        && !a.ip().is_loopback()
    {
        return Err(ServerError::Usage(format!(
            "a load test only targets this machine (a loopback address), not {a}"
        )));
    }
    let db = opts.addr.is_none().then(ScratchDb::new);
    let server: Option<RunningServer> = match &db {
        None => None,
        Some(db) => Some(
            tripoley_server::start(ServerConfig {
                max_tables: MAX_TABLES * 4,
                db: db.path().to_path_buf().into(),
                ..ServerConfig::ephemeral().for_load_generator()
            })
            .await?,
        ),
    };
    let addr = opts
        .addr
        .or_else(|| server.as_ref().map(RunningServer::addr))
        .expect("an address or a server");
    let started = Instant::now();
    let deadline = started + opts.duration;
    let connected = Arc::new(AtomicUsize::new(0));
    let peak = Arc::new(AtomicUsize::new(0));
    let mut slots = tokio::task::JoinSet::new();
    for slot in 0..opts.tables {
        slots.spawn(run_slot(
            addr,
            opts.clone(),
            slot as u64,
            deadline,
            Arc::clone(&connected),
            Arc::clone(&peak),
        ));
    }
    let mut results = Vec::new();
    while let Some(r) = slots.join_next().await {
        if let Ok(r) = r {
            results.push(r);
        }
    }
    let ended = Instant::now();
    let memory_kib = server.as_ref().and_then(|_| RunningServer::memory_kib());
    if let Some(s) = server {
        s.shutdown().await;
    }
    drop(db);
    Ok(summarize(
        addr,
        opts.tables,
        peak.load(Ordering::Relaxed),
        (started, ended),
        memory_kib,
        &results,
    ))
}

/// A fresh SQLite file in the temporary folder for a load test's own
/// server; removed, with its WAL companions, when dropped.
pub struct ScratchDb(PathBuf);

impl ScratchDb {
    /// A name no other load test uses (process id and clock).
    pub fn new() -> ScratchDb {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        ScratchDb(std::env::temp_dir().join(format!(
            "tripoley-loadtest-{}-{nanos}.db",
            std::process::id()
        )))
    }

    /// The file's path.
    pub fn path(&self) -> &std::path::Path {
        &self.0
    }
}

impl Default for ScratchDb {
    fn default() -> ScratchDb {
        ScratchDb::new()
    }
}

impl Drop for ScratchDb {
    fn drop(&mut self) {
        for suffix in ["", "-wal", "-shm"] {
            let mut p = self.0.as_os_str().to_owned();
            p.push(suffix);
            let _ = std::fs::remove_file(p);
        }
    }
}

/// Plays games at one table until the deadline.
async fn run_slot(
    addr: SocketAddr,
    opts: LoadOptions,
    slot: u64,
    deadline: Instant,
    connected: Arc<AtomicUsize>,
    peak: Arc<AtomicUsize>,
) -> TableResult {
    let mut result = TableResult {
        conserved: true,
        ..TableResult::default()
    };
    let mut game = 0u64;
    while Instant::now() < deadline {
        let played = play_table(addr, &opts, slot * 1000 + game, deadline, &connected, &peak).await;
        match played {
            Ok(None) => result.sits_lost += 1,
            Ok(Some((stats, finished, ok))) => {
                result.conserved &= ok;
                result.games += u64::from(finished);
                for played in stats {
                    result.stats.push(played.stats);
                    result.reconnects.extend(played.reconnects);
                }
            }
            Err(e) => {
                *result.failures.entry(e.to_string()).or_default() += 1;
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
        game += 1;
    }
    result
}

fn summarize(
    addr: SocketAddr,
    tables: usize,
    clients: usize,
    (started, ended): (Instant, Instant),
    memory_kib: Option<u64>,
    results: &[TableResult],
) -> LoadReport {
    let seconds = ended.duration_since(started).as_secs_f64();
    let answers: Vec<Vec<client::Answer>> = results
        .iter()
        .map(|r| {
            r.stats
                .iter()
                .flat_map(|s| s.answers.iter().copied())
                .collect()
        })
        .collect();
    let mut lat: Vec<u64> = answers.iter().flatten().map(|a| a.micros).collect();
    lat.sort_unstable();
    let pct = |p: usize| percentile_ms(&lat, p);
    let actions: u64 = results
        .iter()
        .flat_map(|r| r.stats.iter().map(|s| s.actions))
        .sum();
    LoadReport {
        addr,
        tables,
        clients,
        games_finished: results.iter().map(|r| r.games).sum(),
        actions,
        seconds,
        actions_per_second: actions as f64 / seconds.max(1e-9),
        latency_p50_ms: pct(50),
        latency_p99_ms: pct(99),
        latency_max_ms: pct(100),
        steady: Steady::of(&answers, started, ended),
        memory_kib,
        server_cpu_seconds: None,
        load_cpu_seconds: None,
        errors: results
            .iter()
            .flat_map(|r| r.stats.iter().map(|s| s.errors))
            .sum(),
        failures: results.iter().flat_map(|r| r.failures.values()).sum(),
        failure_causes: results.iter().flat_map(|r| &r.failures).fold(
            BTreeMap::new(),
            |mut all, (cause, n)| {
                *all.entry(cause.clone()).or_default() += n;
                all
            },
        ),
        chips_conserved: results.iter().all(|r| r.conserved),
        reconnects: results.iter().map(|r| r.reconnects.len() as u64).sum(),
        reconnect_max_ms: results
            .iter()
            .flat_map(|r| &r.reconnects)
            .max()
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0),
        sits_lost: results.iter().map(|r| r.sits_lost).sum(),
    }
}

/// One game at one table: every seat a client bot. Returns each seat's
/// stats, whether the game finished, and whether chips were conserved.
async fn play_table(
    addr: SocketAddr,
    opts: &LoadOptions,
    seed: u64,
    deadline: Instant,
    connected: &Arc<AtomicUsize>,
    peak: &Arc<AtomicUsize>,
) -> Result<Option<(Vec<Played>, bool, bool)>, client::ClientError> {
    let request = CreateTable {
        preset: Some(opts.preset),
        seats: Some(opts.seats),
        turn_seconds: Some(0),
        bot: Some(opts.bot),
        host_name: Some("Load 1".into()),
        ..CreateTable::default()
    };
    let created = again_until(deadline, passing, || client::create_table(addr, &request)).await?;
    let invite = created.invite.clone();
    // Every failure from here on is this game's: the report names it.
    async {
        let mut tokens = vec![created.host_token.clone()];
        for s in 1..opts.seats {
            let name = format!("Load {}", s + 1);
            match sit(addr, deadline, &created.invite, s, &name).await? {
                Some(token) => tokens.push(token),
                // Its seat is held by a token lost with a proxy's answer.
                None => return Ok(None),
            }
        }
        let mut sockets = Vec::new();
        for token in &tokens {
            sockets.push(
                again_until(deadline, passing, || {
                    welcomed(addr, &created.invite, token, None)
                })
                .await?,
            );
        }
        let now = connected.fetch_add(sockets.len(), Ordering::Relaxed) + sockets.len();
        peak.fetch_max(now, Ordering::Relaxed);
        let result = async {
            // Refused as started after a lost answer: the first try started it.
            again_unless_done(deadline, ErrorCode::AlreadyStarted, || {
                client::start_table(addr, &created.invite, &created.host_token)
            })
            .await?;
            let start_chips = Rules::preset(opts.preset).starting_chips;
            let mut players = tokio::task::JoinSet::new();
            for (i, (sock, token)) in sockets.drain(..).zip(tokens.clone()).enumerate() {
                let seat = Seat {
                    addr,
                    invite: created.invite.clone(),
                    token,
                    think: opts.think,
                    deadline,
                };
                let mut bot = opts.bot.make(&Rules::preset(opts.preset));
                players.spawn(async move {
                    let mut rng = seeded_rng(seed * 16 + i as u64);
                    seat.play(sock, bot.as_mut(), &mut rng).await
                });
            }
            let mut all = Vec::new();
            let mut finished = false;
            let mut ok = true;
            let mut progress_gap = None::<Duration>;
            while let Some(r) = players.join_next().await {
                let played = r.map_err(|e| client::ClientError::Io(e.to_string()))??;
                finished |= played.stats.finished;
                if let Some(v) = &played.stats.last_view {
                    ok &= conserved(v, start_chips);
                }
                // The game stalled if every seat went without news that long
                // (one seat's reconnection alone is not the game's).
                let gap = played
                    .reconnects
                    .iter()
                    .copied()
                    .fold(played.stats.longest_silence, Duration::max);
                progress_gap = Some(progress_gap.map_or(gap, |g| g.min(gap)));
                all.push(played);
            }
            if let Some(seen) = &opts.seen {
                let seats = all
                    .iter()
                    .map(|p| {
                        let end = p.stats.last_view.as_ref().filter(|_| p.stats.finished);
                        (p.last, end.map(|v| v.stacks.to_vec()))
                    })
                    .collect();
                let _ = seen.send(GameSeen {
                    invite: created.invite.clone(),
                    seats,
                });
            }
            if let Some(gap) = progress_gap
                && gap > opts.frozen_after
            {
                return Err(stalled(gap, opts.frozen_after, &all));
            }
            Ok(Some((all, finished, ok)))
        }
        .await;
        connected.fetch_sub(tokens.len(), Ordering::Relaxed);
        result
    }
    .await
    .map_err(|e| at_table(&invite, e))
}

/// A game that stood still longer than `bound`, said with how long and
/// after which event (each frozen game is a failure of its own, named by
/// [`at_table`]).
fn stalled(gap: Duration, bound: Duration, seats: &[Played]) -> client::ClientError {
    let last = seats.iter().filter_map(|p| p.last).max();
    client::ClientError::Protocol(format!(
        "the game made no progress for more than {:.0} s: it stood still {:.1} s \
         after event {}",
        bound.as_secs_f64(),
        gap.as_secs_f64(),
        last.map_or_else(|| "none".to_owned(), |n| n.to_string())
    ))
}

/// `e`, a failure of the game at table `invite`, said with its table: the
/// report names each failed game and why.
fn at_table(invite: &str, e: client::ClientError) -> client::ClientError {
    client::ClientError::Game {
        invite: invite.to_owned(),
        why: Box::new(e),
    }
}

/// What one seat did in one game.
struct Played {
    stats: PlayStats,
    /// How long each dropped connection took to come back.
    reconnects: Vec<Duration>,
    /// The last event number it saw.
    last: Option<u64>,
}

/// A client bot's seat at one table.
struct Seat {
    addr: SocketAddr,
    invite: String,
    token: String,
    think: Duration,
    deadline: Instant,
}

impl Seat {
    /// Plays the seat until its game ends or the deadline. When the
    /// connection drops mid-game (its server stopped or died, behind a
    /// proxy in front of several), it connects again with the last event it
    /// saw and goes on, as the browser does. Returns what it saw and how
    /// long each reconnection took; the actions of a connection that
    /// dropped are not counted.
    async fn play(
        &self,
        mut sock: Socket,
        bot: &mut dyn tripoley_bots::Bot,
        rng: &mut tripoley_cards::GameRng,
    ) -> Result<Played, client::ClientError> {
        let mut reconnects = Vec::new();
        loop {
            let played =
                client::play_seat(&mut sock, bot, rng, self.think, Some(self.deadline)).await;
            match played {
                Ok(stats) => {
                    let last = sock.last;
                    sock.close().await;
                    return Ok(Played {
                        stats,
                        reconnects,
                        last,
                    });
                }
                Err(client::ClientError::Closed | client::ClientError::Io(_))
                    if Instant::now() < self.deadline =>
                {
                    let dropped = Instant::now();
                    sock = self.reconnect(sock.last).await?;
                    reconnects.push(dropped.elapsed());
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// A new connection to the table, welcomed back after event `last`;
    /// tried after each [`reconnect_pause`] until the deadline (while the
    /// table moves, the connection may be refused).
    async fn reconnect(&self, last: Option<u64>) -> Result<Socket, client::ClientError> {
        let dropped = Instant::now();
        loop {
            match welcomed(self.addr, &self.invite, &self.token, last).await {
                Err(_) if Instant::now() < self.deadline => {
                    let draw = random_u64();
                    tokio::time::sleep(reconnect_pause(dropped.elapsed(), draw)).await;
                }
                answer => return answer,
            }
        }
    }
}

/// How long a table takes to move to another server at most: the lease
/// (5 s by default), a beat and the reload. A client failing for longer
/// meets an outage, not a move.
const MOVE_TIME: Duration = Duration::from_secs(8);

/// A client failing for longer than this meets an outage: a move, the
/// second its players may take to come back after it (issue 48), and a
/// second to spare, so that a move that takes all its time is never
/// waited out as an outage.
const OUTAGE_AFTER: Duration = Duration::from_secs(MOVE_TIME.as_secs() + 2);

/// The pause between two tries while a table moves.
const MOVE_PAUSE: Duration = Duration::from_millis(100);

/// The shortest pause during an outage, and how far the pauses spread
/// beyond it.
const OUTAGE_PAUSE: Duration = Duration::from_secs(2);
const OUTAGE_SPREAD: Duration = Duration::from_secs(5);

/// How long a client whose connection dropped `failed_for` ago waits
/// before it tries again, given a random `draw`: 100 ms while its table
/// may be moving (its server died: back within a beat of the move), and
/// past [`OUTAGE_AFTER`], an outage (a database out of reach for longer than the
/// lease: every server stopped every table at once, and all their clients
/// are trying), a pause drawn from 2 to 7 s, so that when it ends they do
/// not all come back in the same second but over the next seven, a
/// quarter at most in any one (the least pause keeps the first second
/// from taking those whose pauses were ending: a pause's rest is more
/// often short than long). The page does the same (`reconnectPause` in
/// `web/table.js`).
fn reconnect_pause(failed_for: Duration, draw: u64) -> Duration {
    if failed_for < OUTAGE_AFTER {
        return MOVE_PAUSE;
    }
    let spread = u64::try_from(OUTAGE_SPREAD.as_millis()).unwrap_or(u64::MAX);
    OUTAGE_PAUSE + Duration::from_millis(draw % spread)
}

/// A random number for a client's pause (the clock's, when the system has
/// no randomness to give).
fn random_u64() -> u64 {
    let mut bytes = [0u8; 8];
    match getrandom::fill(&mut bytes) {
        Ok(()) => u64::from_le_bytes(bytes),
        Err(_) => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| u64::from(d.subsec_nanos())),
    }
}

/// A connection to the table `invite` whose hello with `token` (after event
/// `last`) was welcomed.
async fn welcomed(
    addr: SocketAddr,
    invite: &str,
    token: &str,
    last: Option<u64>,
) -> Result<Socket, client::ClientError> {
    let mut sock = Socket::connect(addr, invite).await?;
    sock.hello(Some(token), last).await?;
    sock.recv_type("welcome", Duration::from_secs(10)).await?;
    Ok(sock)
}

/// Sits at seat `seat` of table `invite` as `name`; returns the seat's
/// token. Tried again while the failure passes, as a person would. If
/// trying again finds the seat taken after an answer was lost, this client
/// took it and its token is lost, so the table cannot be played (`None`),
/// which is no failure of the servers.
async fn sit(
    addr: SocketAddr,
    deadline: Instant,
    invite: &str,
    seat: u8,
    name: &str,
) -> Result<Option<String>, client::ClientError> {
    let seated = again_unless_done(deadline, ErrorCode::SeatTaken, || {
        client::sit(addr, invite, Some(seat), name)
    })
    .await?;
    Ok(seated.map(|s| s.token))
}

/// `call` again every 100 ms, until the deadline, while its failure passes
/// with time. An answer lost on its way back (a 502 from the proxy, a
/// dropped connection) may hide a call that was done: trying again is then
/// refused with `done` (the seat taken, the game started), which means the
/// first try did it (`None`). A 503 is the server's own "not done".
async fn again_unless_done<T, F: Future<Output = Result<T, client::ClientError>>>(
    deadline: Instant,
    done: ErrorCode,
    mut call: impl FnMut() -> F,
) -> Result<Option<T>, client::ClientError> {
    let mut answer_lost = false;
    loop {
        match call().await {
            Ok(answer) => return Ok(Some(answer)),
            Err(client::ClientError::Refused { body, .. }) if answer_lost && body.code == done => {
                return Ok(None);
            }
            Err(e) if passing(&e) && Instant::now() < deadline => {
                answer_lost |= !matches!(e, client::ClientError::Refused { status: 503, .. });
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(e) => return Err(e),
        }
    }
}

/// `call` again every 100 ms, until the deadline, while its failure is one
/// that `passes` with time.
async fn again_until<T, F: Future<Output = Result<T, client::ClientError>>>(
    deadline: Instant,
    passes: impl Fn(&client::ClientError) -> bool,
    mut call: impl FnMut() -> F,
) -> Result<T, client::ClientError> {
    loop {
        match call().await {
            Err(e) if passes(&e) && Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            answer => return answer,
        }
    }
}

/// Whether a request's failure passes with time, so that a person would
/// try again: the connection failed or closed, or a proxy answered that the
/// server behind it could not (502-504: behind a proxy in front of several
/// servers, one stopped or died mid-request, or the table it ran is moving).
fn passing(e: &client::ClientError) -> bool {
    match e {
        client::ClientError::Io(_) | client::ClientError::Closed | client::ClientError::Timeout => {
            true
        }
        client::ClientError::Refused { status, .. } => (502..=504).contains(status),
        client::ClientError::Protocol(_) | client::ClientError::Game { .. } => false,
    }
}

/// The tests' throwaway PostgreSQL, the server's own (`crates/server/src/store/testpg.rs`).
#[cfg(test)]
#[path = "../../server/src/store/testpg.rs"]
mod testpg;

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::Steady;
    use crate::client::Answer;

    /// The steady state starts when all but one in a hundred tables have
    /// made their first move (here: all of them) and counts only the answers
    /// sent from then: a slow setup's early moves, and their latencies, are
    /// left out.
    #[test]
    fn the_steady_state_begins_when_the_last_table_first_moves() {
        let started = Instant::now();
        let at = |ms: u64, micros: u64| Answer {
            sent: started + Duration::from_millis(ms),
            micros,
        };
        // The first table plays from the start, slowly at first; the second
        // only from 2 s (its answers in the order the seats were read).
        let tables = vec![
            vec![
                at(0, 900_000),
                at(500, 800_000),
                at(2_500, 1_000),
                at(3_000, 2_000),
            ],
            vec![at(3_500, 4_000), at(2_000, 3_000)],
        ];
        let ended = started + Duration::from_secs(4);
        let steady = Steady::of(&tables, started, ended).expect("every table played");
        let figures = [
            steady.from_seconds,
            steady.actions_per_second,
            steady.latency_p50_ms,
            steady.latency_max_ms,
        ];
        // From 2 s, four answers in 2 s; 1 to 4 ms.
        assert!(
            figures
                .iter()
                .zip([2.0, 2.0, 3.0, 4.0])
                .all(|(got, want)| (got - want).abs() < 1e-9),
            "{steady:?}"
        );
        // A table that never played: no steady state.
        let idle = vec![tables[0].clone(), Vec::new()];
        assert_eq!(Steady::of(&idle, started, ended), None);
        // One in a hundred did not: it starts when the rest had played.
        let mut many = vec![vec![at(100, 1_000)]; 98];
        many.extend([vec![at(1_000, 1_000)], Vec::new()]);
        let from = Steady::of(&many, started, ended).map(|s| s.from_seconds);
        assert!(from.is_some_and(|f| (f - 1.0).abs() < 1e-9), "{from:?}");
        // Every table played, but only in the last second: none either.
        let late = Steady::of(&tables, started, started + Duration::from_millis(2_500));
        assert_eq!(late, None);
    }

    /// A database outage longer than the lease stops every table at once,
    /// and their clients (1,200 at 300 tables) keep trying; when it ends
    /// they must not all come back in the same second (each brings a
    /// table's reload, and the servers would take them all at once). Each
    /// simulated client lost its socket within 100 ms of the others and
    /// tries by [`super::reconnect_pause`]; the database is back after
    /// 20 s, and a client is back at its first try after that.
    #[test]
    fn reconnections_after_a_long_outage_are_spread() {
        const CLIENTS: usize = 1200;
        let back = Duration::from_secs(20);
        // SplitMix64: a fixed sequence of draws.
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut draw = move || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let mut per_second = std::collections::BTreeMap::<u64, usize>::new();
        let mut last_back = Duration::ZERO;
        for _ in 0..CLIENTS {
            let dropped = Duration::from_millis(draw() % 100);
            let mut failed_for = Duration::ZERO;
            while dropped + failed_for < back {
                failed_for += super::reconnect_pause(failed_for, draw());
            }
            let at = dropped + failed_for;
            *per_second.entry(at.as_secs()).or_default() += 1;
            last_back = last_back.max(at);
        }
        let busiest = per_second.values().copied().max().unwrap_or(0);
        assert!(
            busiest <= CLIENTS / 4,
            "{busiest} of {CLIENTS} clients came back in one second: {per_second:?}"
        );
        assert!(
            last_back <= back + Duration::from_secs(7),
            "the last came back {:?} after the database",
            last_back.saturating_sub(back)
        );
    }

    use std::net::SocketAddr;

    use super::{LoadOptions, ScratchDb, loadtest_with};
    use tripoley_server::Database;

    use crate::testpg::TestPostgres;

    /// One whole HTTP message from `from`: its head up to the blank line and
    /// as many body bytes as its `Content-Length` says. A request may come
    /// in several segments; forwarding only the first left the server
    /// waiting for the body, and closing a socket with its body unread
    /// resets the connection instead of delivering the 502 (CI met it).
    async fn whole_message(from: &mut tokio::net::TcpStream) -> Option<Vec<u8>> {
        use tokio::io::AsyncReadExt;
        let mut message = Vec::new();
        let mut chunk = [0; 4096];
        loop {
            if let Some(end) = message.windows(4).position(|w| w == b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&message[..end]).to_ascii_lowercase();
                let body = head
                    .lines()
                    .find_map(|l| l.strip_prefix("content-length:"))
                    .and_then(|v| v.trim().parse::<usize>().ok())
                    .unwrap_or(0);
                if message.len() >= end + 4 + body {
                    return Some(message);
                }
            }
            let n = from.read(&mut chunk).await.ok()?;
            if n == 0 {
                return None;
            }
            message.extend_from_slice(&chunk[..n]);
        }
    }

    /// A proxy in front of `server` that passes everything through but
    /// answers the first sit with 502 after the server did it (as HAProxy
    /// does when the server dies before answering).
    async fn losing_the_first_sit(server: SocketAddr) -> SocketAddr {
        use std::sync::Arc;
        use std::sync::atomic::{AtomicBool, Ordering};
        use tokio::io::AsyncWriteExt;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let lost = Arc::new(AtomicBool::new(false));
        tokio::spawn(async move {
            while let Ok((mut down, _)) = listener.accept().await {
                let lost = lost.clone();
                // Each connection on its own: one waiting for the server's
                // answer holds up no other.
                tokio::spawn(async move {
                    let Some(request) = whole_message(&mut down).await else {
                        return;
                    };
                    let sit =
                        request.starts_with(b"POST ") && request.windows(5).any(|w| w == b"/sit ");
                    let Ok(mut up) = tokio::net::TcpStream::connect(server).await else {
                        return;
                    };
                    let _ = up.write_all(&request).await;
                    if sit && !lost.swap(true, Ordering::SeqCst) {
                        // The server did the sit; its answer is lost.
                        let _ = whole_message(&mut up).await;
                        let _ = down
                            .write_all(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                            .await;
                        let _ = down.shutdown().await;
                        return;
                    }
                    let _ = tokio::io::copy_bidirectional(&mut down, &mut up).await;
                });
            }
        });
        addr
    }

    /// A sit done behind a proxy that lost its answer (502), then "seat
    /// taken" when sent again, is not a failed game: the table is left and
    /// another made.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_sit_done_behind_a_lost_answer_is_not_a_failure() {
        let db = ScratchDb::new();
        let server = tripoley_server::start(tripoley_server::ServerConfig {
            db: db.path().to_path_buf().into(),
            ..tripoley_server::ServerConfig::ephemeral().for_load_generator()
        })
        .await
        .expect("the server starts");
        let proxy = losing_the_first_sit(server.addr()).await;
        let report = loadtest_with(LoadOptions {
            tables: 1,
            think: Duration::ZERO,
            duration: Duration::from_secs(2),
            addr: Some(proxy),
            ..LoadOptions::default()
        })
        .await
        .expect("reports");
        assert_eq!(report.failures, 0, "{report}");
        assert_eq!(report.sits_lost, 1, "{report}");
        assert!(report.actions > 0, "another table was played: {report}");
        server.shutdown().await;
    }

    /// A game that stops making progress (here its steps cannot be stored
    /// for a while) is reported failed, not hidden among the games the end
    /// of the test cut short; and its clients send their refused actions
    /// again, so it goes on once the database answers.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_game_that_makes_no_progress_is_reported_failed() {
        let Some(pg) = TestPostgres::start() else {
            return;
        };
        let url = pg.new_database();
        let server = tripoley_server::start(tripoley_server::ServerConfig {
            addr: "127.0.0.1:0".parse().expect("an address"),
            db: Database::Postgres(url.clone()),
            ..tripoley_server::ServerConfig::default()
        })
        .await
        .expect("the server starts");
        // Seats that think a little, so the first game outlasts the test:
        // with no thinking it could end before the lock below, which then
        // held up only the next game's start, where nothing is frozen (it
        // failed so under load).
        let load = tokio::spawn(loadtest_with(LoadOptions {
            tables: 1,
            think: Duration::from_millis(30),
            duration: Duration::from_secs(8),
            addr: Some(server.addr()),
            frozen_after: Duration::from_secs(2),
            ..LoadOptions::default()
        }));
        let name = url.rsplit('/').next().expect("a name").to_owned();
        let count = "SELECT count(*) FROM steps";
        while pg.psql(&name, count).trim() == "0" {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let (db, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
            .await
            .expect("connects");
        tokio::spawn(connection);
        db.batch_execute("BEGIN; LOCK TABLE steps IN ACCESS EXCLUSIVE MODE")
            .await
            .unwrap();
        tokio::time::sleep(Duration::from_secs(3)).await;
        db.batch_execute("ROLLBACK").await.unwrap();
        let before = pg.psql(&name, count);
        let report = load.await.expect("runs").expect("reports");
        // The failure names the frozen game's table, which is stored.
        let tables = pg.psql(&name, "SELECT invite FROM tables");
        assert!(
            report.failure_causes.keys().any(|c| {
                c.contains("no progress")
                    && tables
                        .lines()
                        .any(|invite| c.starts_with(&format!("table {invite}: ")))
            }),
            "{report}"
        );
        assert!(
            pg.psql(&name, count).trim().parse::<u64>().unwrap()
                > before.trim().parse::<u64>().unwrap(),
            "the game went on: {report}"
        );
        server.shutdown().await;
    }
}
