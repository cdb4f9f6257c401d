//! Multiplayer Tripoley: the server behind `tripoley serve`.
//!
//! Each table is an actor: one tokio task owns its [`Game`](tripoley_engine::Game)
//! and is its only writer; websocket connections and HTTP handlers talk to it
//! through a channel. Every step is appended to the database (SQLite, or
//! PostgreSQL) before its effects go out, so a restarted server resumes each
//! table by replaying its record.
//! Each viewer's frames are built from that viewer's own view and the events
//! it may see: a hidden card never leaves the server. The protocol (JSON
//! over a websocket, versioned) is in `docs/protocol.md`; the web client in
//! `web/` is embedded in the binary.
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

// SQLite, PostgreSQL, WebSocket and VmRSS are names here, not code.
#![allow(clippy::doc_markdown)]

mod api;
mod api_error;
mod auth;
mod clock;
mod cluster;
mod net;
pub use tripoley_table::protocol;
mod secret;
mod store;
mod table;

pub use net::{proxy, web};
pub use table::public;

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, PoisonError};
use std::time::Duration;

use tokio::sync::{oneshot, watch};
use tripoley_engine::Record;

pub use store::Database;

/// The CPU time process `pid` has used so far, all its threads, in seconds
/// (Linux: user and system time from `/proc/PID/stat`, counted in the
/// kernel's USER_HZ ticks, which Linux fixes at 100 a second for what it
/// reports there), if it can be read: the load test's work per action.
pub fn cpu_seconds(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The program's name, in parentheses, may hold spaces: the fields are
    // counted after it, from the state (field 3) to utime and stime (14, 15).
    let mut after_name = stat.get(stat.rfind(')')? + 1..)?.split_whitespace();
    let user: u64 = after_name.nth(11)?.parse().ok()?;
    let system: u64 = after_name.next()?.parse().ok()?;
    Some((user + system) as f64 / 100.0)
}

/// Resident memory of process `pid` in KiB (Linux), if it can be read: the
/// load test reports its server's.
pub fn resident_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

use crate::protocol::{ErrorBody, ErrorCode};
use crate::store::Store;
use crate::table::{Cmd, TableConfig, TableHandle};

/// How a server runs. [`ServerConfig::default`] is `tripoley serve`'s
/// default: 127.0.0.1:8080 and `tripoley.db` in the working directory.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// Where to listen (port 0 picks a free port).
    pub addr: SocketAddr,
    /// Where the tables are kept: a SQLite file (`:memory:` keeps
    /// everything in memory, lost on exit) or a PostgreSQL database.
    pub db: Database,
    /// Origins besides the server's own that may open websockets.
    pub allowed_origins: Vec<String>,
    /// Addresses of proxies whose connections start with a PROXY protocol
    /// v2 header naming the client (HAProxy's `send-proxy-v2`).
    pub proxies: Vec<IpAddr>,
    /// How long a player may be away before a bot plays for them.
    pub grace: Duration,
    /// How long a bot waits before it acts, so people can follow the game.
    pub bot_delay: Duration,
    /// Under penalised misplays (M9b), how long a run waits at a card a
    /// person might hold (whether one might is public): the holder's secret
    /// follow-or-withhold has this long, on a clock only they see, and a
    /// stop (a withhold, or the card in the spare) is shown exactly when it
    /// ends, so its timing tells nobody which it was (issue 49). Zero turns
    /// the window off (tests only: a person's answer then takes their time,
    /// which tells).
    pub withhold_window: Duration,
    /// The largest message a client may send, in bytes.
    pub max_message_bytes: usize,
    /// Messages a connection may send at once.
    pub rate_burst: u32,
    /// Messages a connection may send per second, on average.
    pub rate_per_second: u32,
    /// Spectators per table.
    pub max_spectators: usize,
    /// Spectators of one table from one address (or IPv6 network, see
    /// `ipv6_prefix`), so that one address cannot take every place.
    pub max_spectators_per_address: usize,
    /// Tables in memory at once (lobby or playing).
    pub max_tables: usize,
    /// Frames queued for a connection before it counts as too slow and is dropped.
    pub outbox: usize,
    /// A client this many events behind gets a full state instead of the events.
    pub resume_window: u64,
    /// Connections open at once from one address (HTTP and websocket).
    pub max_connections_per_address: usize,
    /// Connections open at once in the whole server, well below its file
    /// limit: at the cap a new connection sheds the oldest one that has not
    /// finished its first request head, else the one silent longest.
    pub max_connections: usize,
    /// Tables one address may create per `table_window`.
    pub max_tables_per_address: u32,
    /// The window `max_tables_per_address` counts over: an hour.
    pub table_window: Duration,
    /// Unstarted lobbies one address may hold at once: past it, that
    /// address creates no more until one starts or expires.
    pub max_lobbies_per_address: usize,
    /// Tables not finished (lobbies and games being played) that one
    /// address (or IPv6 network) created on this server: a started game of
    /// bots escaped the cap of lobbies (issue 49).
    pub max_games_per_address: usize,
    /// The IPv6 prefix length that is one address for every limit per
    /// address (64: one subscriber's network, which hands its devices
    /// addresses at will; 128: each address its own). IPv4 addresses are
    /// each their own.
    pub ipv6_prefix: u8,
    /// Connections open at once with one seat token.
    pub max_connections_per_seat: usize,
    /// Time a request has for its whole head and body from its first byte
    /// (from the accept, for a connection's first; however slowly the bytes
    /// come), an answered connection to begin its next one, and a
    /// websocket to send its `hello`.
    pub hello_timeout: Duration,
    /// Time a connection may stay silent; the server pings websockets three
    /// times within it, and a browser's automatic answer counts.
    pub idle_timeout: Duration,
    /// Time a table with nobody connected is kept (in the lobby or playing):
    /// then it is removed, its game abandoned.
    pub table_idle: Duration,
    /// Time a finished game is kept in the database before it is removed.
    pub keep_finished: Duration,
    /// Hint searches running at once in the whole server; a hint asked
    /// while all are busy is refused with "try again".
    pub max_hint_searches: usize,
    /// Expert bots' searches running at once in the whole server, so tables
    /// of expert bots never take every core from the others: an expert whose
    /// turn comes while all are busy plays the heuristic's move for that
    /// decision instead. 0 makes every expert play like the heuristic.
    pub max_expert_searches: usize,
    /// Milliseconds an expert bot searches one decision at most (its
    /// playouts scale with them). Its answer is shown `bot_delay` after its
    /// decision began, however long it searched, so a forced answer looks
    /// like a searched one (issue 49); keep this below `bot_delay`.
    pub expert_ms: u32,
    /// With PostgreSQL, several servers may share the database: how long a
    /// server that stops answering keeps its tables before the others take
    /// them over (it renews its lease four times within it).
    pub lease: Duration,
    /// With PostgreSQL, the address the other servers reach this one at
    /// (they forward requests for its tables there). `None`: the address it
    /// listens on, or, listening on every interface, this machine's
    /// loopback with its port (which only servers on the same machine
    /// reach).
    pub advertise: Option<SocketAddr>,
}

impl Default for ServerConfig {
    fn default() -> ServerConfig {
        ServerConfig {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            db: Database::Sqlite(PathBuf::from("tripoley.db")),
            allowed_origins: Vec::new(),
            proxies: Vec::new(),
            grace: Duration::from_secs(30),
            bot_delay: Duration::from_millis(700),
            withhold_window: Duration::from_secs(5),
            max_message_bytes: 4096,
            rate_burst: 30,
            rate_per_second: 10,
            max_spectators: 50,
            max_spectators_per_address: 10,
            max_tables: 5000,
            outbox: 1024,
            resume_window: 500,
            max_connections_per_address: 64,
            max_connections: 10_000,
            max_tables_per_address: 60,
            table_window: Duration::from_secs(3600),
            max_lobbies_per_address: 5,
            max_games_per_address: 20,
            ipv6_prefix: 64,
            max_connections_per_seat: 4,
            hello_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(120),
            table_idle: Duration::from_secs(30 * 60),
            keep_finished: Duration::from_secs(7 * 24 * 3600),
            max_hint_searches: 2,
            max_expert_searches: 1,
            expert_ms: 10,
            lease: Duration::from_secs(5),
            advertise: None,
        }
    }
}

impl ServerConfig {
    /// For tests and the load generator: a free loopback port, an in-memory
    /// database, bots that act at once and a short grace time, and no cap
    /// on one address's open lobbies (every test client comes from one
    /// address; the tests of that cap set it).
    pub fn ephemeral() -> ServerConfig {
        ServerConfig {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            db: Database::Sqlite(PathBuf::from(":memory:")),
            grace: Duration::from_secs(5),
            bot_delay: Duration::ZERO,
            withhold_window: Duration::ZERO,
            max_lobbies_per_address: LOAD_LOBBIES,
            max_games_per_address: LOAD_LOBBIES,
            ..ServerConfig::default()
        }
    }
}

/// The most tables a load generator plays at once (`tripoley_loadtest`'s
/// limit): the caps below are sized for it.
pub const LOAD_MAX_TABLES: usize = 3000;
/// Connections per address a load generator needs: two for each of its
/// clients (`tripoley serve --max-connections-per-address` for one).
pub const LOAD_CONNECTIONS: usize = LOAD_MAX_TABLES * 4 * 2;
/// Connections open at once a load generator's server needs: a websocket
/// for each of its clients and a request for each table being set up, well
/// below this machine's 20,000 open files (at its cap a server sheds the
/// oldest request still coming: at 2,500 tables, the generator's own).
pub const LOAD_OPEN: usize = LOAD_MAX_TABLES * 5;
/// Tables per address per hour a load generator needs.
pub const LOAD_TABLES: u32 = 1_000_000;
/// Unstarted lobbies at once from one address a load generator (or the
/// cluster's tests, which create every table from one address) needs.
pub const LOAD_LOBBIES: usize = 1_000_000;

/// Why the server could not run.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// Listening or another I/O operation failed.
    #[error("{0}")]
    Io(String),
    /// The database failed.
    #[error("storage: {0}")]
    Storage(String),
    /// A stored table this build cannot rebuild (its record does not
    /// decode or replay): trying again will not help, so it is set aside.
    #[error("storage: {0}")]
    Unreadable(String),
    /// The database's answer to a change was lost: it may have been
    /// stored or not (read back what is stored before going on).
    #[error("storage: {}", store::IN_DOUBT)]
    InDoubt,
    /// A request was refused.
    #[error("refused: {0}")]
    Refused(ErrorBody),
    /// A bad option (of the load generator, for example).
    #[error("{0}")]
    Usage(String),
}

impl ServerError {
    /// What a client is told: a refusal is its own answer; anything else
    /// is a storage failure, "nothing changed, try again" (the database's
    /// own words stay in the server's log, never in an answer).
    pub(crate) fn answer(&self) -> ErrorBody {
        match self {
            ServerError::Refused(body) => body.clone(),
            ServerError::InDoubt => ErrorBody::new(
                ErrorCode::Storage,
                "the server lost its database's answer: the table is read again from the \
                 database; reconnecting",
            ),
            _ => ErrorBody::new(
                ErrorCode::Storage,
                "the server cannot reach its database just now; nothing changed: \
                 try again in a few seconds",
            ),
        }
    }
}

/// What every handler shares.
pub(crate) struct App {
    pub config: ServerConfig,
    pub store: Store,
    pub tables: tokio::sync::Mutex<HashMap<String, TableHandle>>,
    /// A gate per table being loaded: one load of a table at a time, and
    /// none holding `tables` (every lookup, the health check) meanwhile.
    pub loading: std::sync::Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
    pub tasks: std::sync::Mutex<tokio::task::JoinSet<()>>,
    pub shutdown: watch::Receiver<bool>,
    pub next_conn: AtomicU64,
    /// Connections and tables created per client address.
    pub addresses: Arc<net::limits::AddressBook>,
    /// The unstarted lobbies created here, by age and creator.
    pub lobbies: table::lobbies::Lobbies,
    /// The server-wide budget of hint searches running at once.
    pub hints: Arc<tokio::sync::Semaphore>,
    /// The server-wide budget of expert bots' searches running at once.
    pub experts: Arc<tokio::sync::Semaphore>,
    pub rematches: api::rematch::Rematches,
    /// The public tables waiting for players.
    pub public: Arc<public::Directory>,
    /// This server's part in a cluster (PostgreSQL only).
    pub cluster: Option<Arc<cluster::Cluster>>,
}

impl App {
    fn table_config(&self) -> TableConfig {
        TableConfig {
            grace: self.config.grace,
            bot_delay: self.config.bot_delay,
            withhold_window: self.config.withhold_window,
            max_spectators: self.config.max_spectators,
            max_spectators_per_address: self.config.max_spectators_per_address,
            resume_window: self.config.resume_window,
            max_connections_per_seat: self.config.max_connections_per_seat,
            idle: self.config.table_idle,
            hints: Arc::clone(&self.hints),
            experts: Arc::clone(&self.experts),
            bots: tripoley_bots::BotOptions {
                budget: tripoley_bots::Budget::millis(self.config.expert_ms),
                ..tripoley_bots::BotOptions::default()
            },
            directory: Arc::clone(&self.public),
        }
    }

    /// The running table with this invite, loading it from storage if it is
    /// not in memory.
    pub async fn table(&self, invite: &str) -> Result<Option<TableHandle>, ServerError> {
        if !auth::valid_invite(invite) {
            return Ok(None);
        }
        if let Some(h) = self.running(invite).await? {
            return Ok(Some(h));
        }
        let gate = {
            let mut loading = self.loading.lock().unwrap_or_else(PoisonError::into_inner);
            Arc::clone(loading.entry(invite.to_owned()).or_default())
        };
        let loaded = {
            let _one_at_a_time = gate.lock().await;
            match self.running(invite).await {
                // Another request loaded it meanwhile.
                Ok(Some(h)) => Ok(Some(h)),
                Ok(None) => self.load(invite).await,
                Err(e) => Err(e),
            }
        };
        let mut loading = self.loading.lock().unwrap_or_else(PoisonError::into_inner);
        // The map's and this request's: no one else waits at the gate.
        if Arc::strong_count(&gate) == 2 {
            loading.remove(invite);
        }
        loaded
    }

    /// The handle of the table `invite` if it runs here. A table stopped
    /// (its lease lost) whose actor has not ended yet (it waits on the
    /// database) is refused `busy` until it has: a second actor of the
    /// same table here would share its public entry and its lobby slot.
    async fn running(&self, invite: &str) -> Result<Option<TableHandle>, ServerError> {
        let mut tables = self.tables.lock().await;
        let Some(h) = tables.get(invite) else {
            return Ok(None);
        };
        if h.runs() {
            return Ok(Some(h.clone()));
        }
        if !h.tx.is_closed() {
            return Err(ServerError::Refused(cluster::moving()));
        }
        tables.remove(invite);
        Ok(None)
    }

    /// Loads the table `invite` from storage and runs it here (its gate
    /// held).
    async fn load(&self, invite: &str) -> Result<Option<TableHandle>, ServerError> {
        // With several servers, the table is run here only under its lease,
        // taken before its steps are read: its last owner can store none
        // after that.
        let lease = match &self.cluster {
            Some(cluster) => match cluster.lease(invite).await? {
                Some(lease) => Some(lease),
                None => return Ok(None),
            },
            None => None,
        };
        let Some(stored) = self.store.load(invite.to_owned()).await? else {
            return Ok(None);
        };
        let (store, stop, cut) = match lease {
            Some(l) => (self.store.fenced(l.fence), l.stop, l.cut),
            None => (
                self.store.clone(),
                self.shutdown.clone(),
                self.shutdown.clone(),
            ),
        };
        let handle = {
            let mut tasks = self
                .tasks
                .lock()
                .map_err(|_| ServerError::Io("the task list lock is poisoned".into()))?;
            // A finished task stays in the set, future and all, until it is
            // joined: reap those that have ended, so a server that has run
            // a million games holds only its live tables' tasks.
            while tasks.try_join_next().is_some() {}
            table::spawn(
                invite.to_owned(),
                stored,
                store,
                self.table_config(),
                (stop, cut),
                &mut tasks,
            )?
        };
        self.tables
            .lock()
            .await
            .insert(invite.to_owned(), handle.clone());
        Ok(Some(handle))
    }

    /// Whether this server runs the table `invite` now.
    async fn runs(&self, invite: &str) -> bool {
        self.tables
            .lock()
            .await
            .get(invite)
            .is_some_and(TableHandle::runs)
    }

    /// Whether a new table fits under the cap of tables, reclaiming the
    /// oldest lobby nobody has opened if it must: what a create and a
    /// rematch ask before making a table.
    pub(crate) async fn room_for_a_table(&self) -> bool {
        self.live_tables().await < self.config.max_tables || self.lobbies.reclaim_oldest().await
    }

    /// Tables in memory, dropping those whose actors stopped.
    async fn live_tables(&self) -> usize {
        let mut tables = self.tables.lock().await;
        tables.retain(|_, h| !h.tx.is_closed());
        tables.len()
    }

    /// Asks a table something and waits for the answer.
    pub async fn ask<T>(
        &self,
        invite: &str,
        make: impl Fn(oneshot::Sender<T>) -> Cmd,
    ) -> Result<T, ErrorBody> {
        let no_table = || ErrorBody::new(ErrorCode::NoTable, "there is no table with this code");
        for _ in 0..2 {
            let handle = self
                .table(invite)
                .await
                .map_err(|e| e.answer())?
                .ok_or_else(no_table)?;
            let (tx, rx) = oneshot::channel();
            if handle.tx.send(make(tx)).await.is_ok()
                && let Ok(answer) = rx.await
            {
                return Ok(answer);
            }
        }
        Err(no_table())
    }
}

/// Resumes a game in progress at start-up. A table this build cannot
/// rebuild (stored by an older build whose moves no longer fit, such as a
/// game that chose its five at the showdown) is set aside with the reason,
/// not a reason to refuse to start: the other tables go on. With several
/// servers, the games another live server runs are left to it
/// (`App::table` takes only free leases), and any other failure (the
/// database slow or out of reach, a lock a frozen server holds) sets
/// nothing aside: the game moves at a later beat.
async fn resume(app: &App, invite: String) -> Result<(), ServerError> {
    match app.table(&invite).await {
        Err(ServerError::Unreadable(e)) => {
            eprintln!("tripoley serve: table {invite} cannot be resumed and is set aside: {e}");
            app.store.refuse(invite).await?;
        }
        Err(ServerError::Refused(_)) | Ok(_) => {}
        Err(e) => eprintln!("tripoley serve: table {invite} cannot be resumed yet: {e}"),
    }
    Ok(())
}

/// A server started by [`start`]: its address, and the way to stop it.
pub struct RunningServer {
    addr: SocketAddr,
    app: Arc<App>,
    stop: watch::Sender<bool>,
    serving: tokio::task::JoinHandle<()>,
}

impl RunningServer {
    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Table tasks the server holds: those running, and any that ended and
    /// have not been reaped yet (for tests of the server's memory).
    pub fn table_tasks(&self) -> usize {
        self.app
            .tasks
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .len()
    }

    /// The record of a table's game so far, or `None` if it has not started
    /// or does not exist. It holds every hidden card: for tests and tools,
    /// never for clients.
    pub async fn record(&self, invite: &str) -> Option<Record> {
        self.app
            .ask(invite, |reply| Cmd::Record { reply })
            .await
            .ok()
            .flatten()
    }

    /// The record of a Napalm table's game so far, or `None` if it has not
    /// started, does not exist or plays Tripoley. It holds every hidden
    /// card: for tests and tools, never for clients.
    pub async fn napalm_record(&self, invite: &str) -> Option<tripoley_napalm::NapalmRecord> {
        self.app
            .ask(invite, |reply| Cmd::NapalmRecord { reply })
            .await
            .ok()
            .flatten()
    }

    /// Resident memory of this process in KiB (Linux), if it can be read.
    pub fn memory_kib() -> Option<u64> {
        resident_kib(std::process::id())
    }

    /// Stops the server: connections close, tables stop after their current
    /// step (everything applied is already stored).
    pub async fn shutdown(self) {
        let _ = self.stop.send(true);
        let mut tasks = std::mem::take(
            &mut *self
                .app
                .tasks
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        );
        while tasks.join_next().await.is_some() {}
        let _ = self.serving.await;
        // Every table has stopped: the other servers may take them at once.
        if let Some(cluster) = &self.app.cluster {
            cluster.leave().await;
        }
    }

    /// Stops the server at once, as `kill -9` would: table tasks are
    /// aborted wherever they are, then connections drop. Storage holds every
    /// step whose effects went out; a server started on the same database
    /// resumes from there.
    pub async fn kill(self) {
        let mut tasks = std::mem::take(
            &mut *self
                .app
                .tasks
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        );
        tasks.abort_all();
        while tasks.join_next().await.is_some() {}
        let _ = self.stop.send(true);
        self.serving.abort();
        let _ = self.serving.await;
    }
}

/// Connections waiting to be accepted: thousands of clients may connect at
/// once (the load generator's do), more than the usual 1,024.
const BACKLOG: u32 = 4096;

fn listen(addr: SocketAddr) -> std::io::Result<tokio::net::TcpListener> {
    let socket = if addr.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    // A restarted server takes its port back at once.
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(BACKLOG)
}

impl ServerConfig {
    /// These limits with the per-address caps raised for a load generator
    /// on this machine: all its clients come from one address (two sockets
    /// each at most, a websocket and a request).
    #[must_use]
    pub fn for_load_generator(self) -> ServerConfig {
        ServerConfig {
            max_connections_per_address: LOAD_CONNECTIONS,
            max_connections: self.max_connections.max(LOAD_OPEN),
            max_tables_per_address: LOAD_TABLES,
            max_lobbies_per_address: LOAD_LOBBIES,
            max_games_per_address: LOAD_LOBBIES,
            ..self
        }
    }

    /// Where the other servers reach a server listening at `listening`:
    /// [`ServerConfig::advertise`], else `listening`, or on every interface
    /// this machine's loopback with its port.
    fn reached_at(&self, listening: SocketAddr) -> SocketAddr {
        match self.advertise {
            Some(advertised) => advertised,
            None if listening.ip().is_unspecified() => {
                SocketAddr::from(([127, 0, 0, 1], listening.port()))
            }
            None => listening,
        }
    }

    /// Refuses limits that would stop the server working: a zero cap or
    /// time (every connection or table refused or timed out at once).
    pub fn check(&self) -> Result<(), ServerError> {
        let zero = [
            ("max_tables", self.max_tables == 0),
            (
                "max_connections_per_address",
                self.max_connections_per_address == 0,
            ),
            ("max_connections", self.max_connections == 0),
            ("max_tables_per_address", self.max_tables_per_address == 0),
            ("max_lobbies_per_address", self.max_lobbies_per_address == 0),
            ("max_games_per_address", self.max_games_per_address == 0),
            (
                "max_spectators_per_address",
                self.max_spectators_per_address == 0,
            ),
            (
                "ipv6_prefix",
                self.ipv6_prefix == 0 || self.ipv6_prefix > 128,
            ),
            (
                "max_connections_per_seat",
                self.max_connections_per_seat == 0,
            ),
            ("max_hint_searches", self.max_hint_searches == 0),
            ("max_message_bytes", self.max_message_bytes == 0),
            ("outbox", self.outbox == 0),
            ("hello_timeout", self.hello_timeout.is_zero()),
            ("idle_timeout", self.idle_timeout < Duration::from_secs(1)),
            ("table_idle", self.table_idle.is_zero()),
            ("lease", self.lease < Duration::from_millis(100)),
            ("table_window", self.table_window.is_zero()),
        ];
        if let Some((name, _)) = zero.iter().find(|(_, bad)| *bad) {
            return Err(ServerError::Usage(format!(
                "{name} must be above zero (idle_timeout at least a second, lease at least 100 ms)"
            )));
        }
        match (self.advertise, &self.db) {
            (Some(a), _) if a.ip().is_unspecified() || a.port() == 0 => {
                Err(ServerError::Usage(format!(
                    "advertise must name an address and a port the other servers can reach, not {a}"
                )))
            }
            (Some(_), Database::Sqlite(_)) => Err(ServerError::Usage(
                "advertise is for several servers sharing a PostgreSQL database".into(),
            )),
            _ => Ok(()),
        }
    }
}

/// Starts a server and returns once it listens. Games in progress in the
/// database resume (bots and timers go on at once).
pub async fn start(config: ServerConfig) -> Result<RunningServer, ServerError> {
    config.check()?;
    let store = Store::open(&config.db)?;
    let listener = listen(config.addr)
        .map_err(|e| ServerError::Io(format!("cannot listen on {}: {e}", config.addr)))?;
    let addr = listener
        .local_addr()
        .map_err(|e| ServerError::Io(e.to_string()))?;
    let (stop, shutdown) = watch::channel(false);
    let addresses = Arc::new(net::limits::AddressBook::default());
    let conn_limits = net::limits::ConnLimits::of(&config);
    let listener = net::limits::LimitedListener::new(listener, Arc::clone(&addresses), conn_limits)
        .behind(config.proxies.clone());
    let cluster = match &config.db {
        Database::Postgres(url) => {
            let reached_at = config.reached_at(addr);
            Some(cluster::Cluster::join(url, reached_at, config.lease, shutdown.clone()).await?)
        }
        Database::Sqlite(_) => None,
    };
    // With several servers, the public list is shared through the database.
    let (public, shared_list) = if cluster.is_some() {
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        (public::Directory::shared(tx), Some(rx))
    } else {
        (public::Directory::default(), None)
    };
    let app = Arc::new(App {
        cluster,
        hints: Arc::new(tokio::sync::Semaphore::new(config.max_hint_searches)),
        experts: Arc::new(tokio::sync::Semaphore::new(config.max_expert_searches)),
        config,
        store,
        tables: tokio::sync::Mutex::new(HashMap::new()),
        loading: std::sync::Mutex::new(HashMap::new()),
        tasks: std::sync::Mutex::new(tokio::task::JoinSet::new()),
        shutdown: shutdown.clone(),
        next_conn: AtomicU64::new(1),
        addresses,
        lobbies: table::lobbies::Lobbies::default(),
        rematches: api::rematch::Rematches::default(),
        public: Arc::new(public),
    });
    // Old lobbies are removed at start-up, when none is in memory here;
    // with several servers, only those no live server runs.
    let lobby_cutoff = app.cluster.is_none().then_some(app.config.table_idle);
    app.store
        .forget_old(app.config.keep_finished, lobby_cutoff)
        .await?;
    if let Some(cluster) = &app.cluster {
        cluster.forget_old_lobbies(app.config.table_idle).await?;
    }
    for invite in app.store.playing().await? {
        resume(&app, invite).await?;
    }
    // Public tables waiting for players are listed again; a private lobby
    // is loaded when its link is opened.
    for invite in app.store.lobbies().await? {
        if let Ok(Some(t)) = app.store.load(invite.clone()).await
            && t.settings.public
            && let Err(e) = app.table(&invite).await
        {
            eprintln!("tripoley serve: public table {invite} cannot be listed: {e}");
        }
    }
    {
        let mut tasks = app
            .tasks
            .lock()
            .map_err(|_| ServerError::Io("the task list lock is poisoned".into()))?;
        tasks.spawn(sweep_finished(Arc::clone(&app)));
        if let Some(c) = &app.cluster {
            tasks.spawn(cluster::keep(Arc::clone(&app), Arc::clone(c)));
            if let Some(changes) = shared_list {
                tasks.spawn(cluster::share_list(Arc::clone(c), changes));
            }
        }
    }
    let router = api::router(Arc::clone(&app))
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&app),
            cluster::route,
        ))
        .layer(axum::middleware::map_response(api::json_errors))
        .into_make_service_with_connect_info::<SocketAddr>();
    // Connect info (the client's address) is read through `tap_io`, which
    // also turns off Nagle's delay: frames are small and wanted at once.
    let listener = axum::serve::ListenerExt::tap_io(listener, net::limits::Limited::set_nodelay);
    let mut quit = shutdown;
    let serving = tokio::spawn(async move {
        let _ = axum::serve(listener, router)
            .with_graceful_shutdown(async move {
                let _ = quit.wait_for(|&stop| stop).await;
            })
            .await;
    });
    Ok(RunningServer {
        addr,
        app,
        stop,
        serving,
    })
}

/// Removes finished games older than `keep_finished` from the database, a
/// few times within that time, until the server stops: the database of a
/// server that runs for months holds a bounded number of games.
async fn sweep_finished(app: Arc<App>) {
    let keep = app.config.keep_finished;
    let every = (keep / 4).clamp(Duration::from_secs(1), Duration::from_secs(3600));
    let mut stop = app.shutdown.clone();
    loop {
        tokio::select! {
            _ = stop.changed() => return,
            () = tokio::time::sleep(every) => {
                // A failed sweep is tried again at the next one.
                let _ = app.store.forget_old(keep, None).await;
            }
        }
    }
}
