//! The PostgreSQL back end: `tokio_postgres`'s client driven by a small
//! runtime of the database thread's own (the database thread is a plain
//! thread, as it is for SQLite), so that every call waits for its answer
//! within a bound ([`Bounds::call`]) and is given up, its connection
//! dropped, past it. Each statement is prepared once per connection; a
//! lost connection is made again when the next group begins (the group
//! that saw it fails, and its requests are told so: nothing of it was
//! stored). A group's steps and fence checks are pipelined: sent one after
//! another, their answers read together at the group's next call
//! ([`Backend::pipeline`]); a round trip each held PostgreSQL to a third of
//! SQLite's pace.
//!
//! Several servers may share one database (`crate::cluster`): each table is
//! run by the server holding its lease (the `leases` and `processes` tables
//! of migration 2), and a server that lost a lease cannot write that
//! table's steps ([`Fence`](super::Fence)). The public tables every server
//! lists are kept in `public_tables` (migration 3), and the tables each
//! client address created lately in `creations` (migration 5) and each
//! lobby's address (migration 8), which the caps on one address's creates
//! count across every server ([`Caps`](super::Caps)). Migrations take a transaction's
//! advisory lock, so servers started together migrate one after another.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::task::Poll;
use std::time::{Duration, Instant};

use tokio::runtime::Runtime;
use tokio::task::JoinHandle;
use tokio_postgres::types::{ToSql, Type};
use tokio_postgres::{Client, Config, NoTls, Statement};

use super::backend::expected;
use super::{Backend, Cell, DbError, Value, pending};

impl From<tokio_postgres::Error> for DbError {
    fn from(e: tokio_postgres::Error) -> DbError {
        DbError::from(&e)
    }
}

impl From<&tokio_postgres::Error> for DbError {
    fn from(e: &tokio_postgres::Error) -> DbError {
        // The server's own message says more than the client's summary.
        DbError(match e.as_db_error() {
            Some(db) => format!("{}: {}", db.severity(), db.message()),
            None => e.to_string(),
        })
    }
}

/// The schema's migrations: `MIGRATIONS[k]` brings version `k` to `k + 1`.
const MIGRATIONS: &[&str] = &[
    "
CREATE TABLE tables (
    invite    TEXT PRIMARY KEY,
    created   BIGINT NOT NULL,
    settings  TEXT NOT NULL,
    host_hash BYTEA NOT NULL,
    status    TEXT NOT NULL,
    names     TEXT
);
CREATE TABLE seats (
    invite     TEXT NOT NULL,
    seat       BIGINT NOT NULL,
    name       TEXT NOT NULL,
    token_hash BYTEA NOT NULL,
    PRIMARY KEY (invite, seat)
);
CREATE TABLE steps (
    invite TEXT NOT NULL,
    idx    BIGINT NOT NULL,
    step   TEXT NOT NULL,
    PRIMARY KEY (invite, idx)
);
",
    "
CREATE TABLE processes (
    id      TEXT PRIMARY KEY,
    addr    TEXT NOT NULL,
    load    BIGINT NOT NULL,
    expires BIGINT NOT NULL
);
CREATE TABLE leases (
    invite TEXT PRIMARY KEY,
    owner  TEXT NOT NULL,
    epoch  BIGINT NOT NULL
);
CREATE INDEX leases_owner ON leases (owner);
CREATE INDEX tables_status ON tables (status);
",
    "
CREATE TABLE public_tables (
    invite TEXT PRIMARY KEY,
    owner  TEXT NOT NULL,
    listed BIGSERIAL NOT NULL,
    entry  TEXT NOT NULL
);
CREATE INDEX public_tables_listed ON public_tables (listed);
",
    "
CREATE TABLE shares (
    share  TEXT PRIMARY KEY,
    invite TEXT NOT NULL UNIQUE
);
CREATE TABLE analyses (
    invite TEXT NOT NULL,
    seat   BIGINT NOT NULL,
    body   TEXT NOT NULL,
    PRIMARY KEY (invite, seat)
);
",
    "
CREATE TABLE creations (
    invite  TEXT PRIMARY KEY,
    address TEXT NOT NULL,
    created BIGINT NOT NULL
);
CREATE INDEX creations_address ON creations (address, created);
CREATE INDEX creations_created ON creations (created);
",
    "
-- One row: the secret that proves a request forwarded (cluster/registry.rs).
CREATE TABLE cluster_secret (
    one    BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (one),
    secret TEXT NOT NULL
);
",
    "
-- Each group's mark, written in its transaction (store/backend.rs, Backend::mark):
-- after a commit whose answer was lost, it says whether the group was stored.
CREATE TABLE commit_marks (
    mark TEXT PRIMARY KEY,
    at   BIGINT NOT NULL
);
CREATE INDEX commit_marks_at ON commit_marks (at);
",
    "
-- The address a lobby was created from, while it is a lobby (store/backend.rs,
-- create_counted): the cap on an address's open lobbies counts them here, by
-- an index of lobbies alone, not through every create the address made.
ALTER TABLE tables ADD COLUMN address TEXT;
UPDATE tables t SET address = c.address FROM creations c
    WHERE c.invite = t.invite AND t.status = 'lobby';
CREATE INDEX tables_lobby_address ON tables (address) WHERE status = 'lobby';
",
];

/// How long a group's mark is kept: far longer than a commit's answer can
/// be waited for ([`super::RIDE_OUT`]).
const MARKS_KEPT_SECS: i64 = 3600;

/// Marks old enough to go are removed at one group in this many.
const MARKS_SWEPT_EVERY: u64 = 1024;

/// The advisory lock a migrating server holds ("trip" in ASCII), until its
/// migration's transaction ends.
const MIGRATION_LOCK: i64 = 0x7472_6970;

/// The silence after which a connection probes its peer, and the pause
/// between probes: the least TCP keepalive counts in.
const KEEPALIVE_EVERY: Duration = Duration::from_secs(1);

/// How long the server's sessions may wait, whatever they do.
///
/// No database call may wait without a bound: a server stopped (SIGSTOP,
/// a long pause) in the middle of a transaction keeps its locks, and the
/// others would wait on them for as long as it stays stopped. So every
/// statement has a time limit, every lock wait a shorter one, and
/// PostgreSQL itself ends a session left idle inside a transaction (its
/// server frozen), which frees its locks.
///
/// Those limits are the database's, and a network that swallows packets
/// (a partition, a peer gone without a word) would keep its answer from
/// this side for ever: the connection is also given up once what it sent
/// stays unacknowledged, or its keepalive probes unanswered, for
/// `network` (`tcp_user_timeout`, TCP keepalive from a second of silence),
/// and a connection not made within `network` (unless the URL says how
/// long) is not waited for either.
///
/// Those still trust the kernel: a peer that takes the bytes and never
/// answers (a proxy or relay cut off from the database, a frozen
/// database host whose kernel still acknowledges) holds a call for ever.
/// So the store's client also gives each call up after `call`, whatever
/// the network does ([`Postgres`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bounds {
    pub statement: Duration,
    pub lock: Duration,
    pub idle_in_transaction: Duration,
    pub network: Duration,
    /// How long the store waits on its side for any one call's answer (a
    /// statement, a commit, a new connection and its handshake) before it
    /// drops the connection and the call fails as a lost connection (a
    /// commit then is in doubt, and looked up): longer than `statement`,
    /// so that the database's own limit answers first when it can.
    pub call: Duration,
}

impl Bounds {
    /// The store's: a group's statements, and its fence check waiting for
    /// a lease being taken over.
    pub(crate) const STORE: Bounds = Bounds {
        statement: Duration::from_secs(10),
        lock: Duration::from_secs(1),
        idle_in_transaction: Duration::from_secs(1),
        network: Duration::from_secs(5),
        call: Duration::from_secs(11),
    };

    /// Sets these bounds on a connection's `config`: the sessions' limits
    /// ([`Bounds::options`]) and the network's.
    pub(crate) fn apply(&self, config: &mut tokio_postgres::Config) {
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(self.network);
        }
        let options = self.options(config.get_options());
        config
            .options(&options)
            .keepalives(true)
            .keepalives_idle(KEEPALIVE_EVERY)
            .keepalives_interval(KEEPALIVE_EVERY)
            .tcp_user_timeout(self.network);
        let probes = self.network.as_secs().clamp(1, 10);
        config.keepalives_retries(u32::try_from(probes).unwrap_or(1));
    }

    /// These bounds added to a URL's own `options` startup parameter
    /// (PostgreSQL takes the last of two settings of one name, so the URL
    /// cannot lift them).
    fn options(&self, given: Option<&str>) -> String {
        let ms = |d: Duration| d.as_millis().max(1);
        let ours = format!(
            "-c statement_timeout={} -c lock_timeout={} -c idle_in_transaction_session_timeout={}",
            ms(self.statement),
            ms(self.lock),
            ms(self.idle_in_transaction)
        );
        match given {
            Some(given) if !given.trim().is_empty() => format!("{given} {ours}"),
            _ => ours,
        }
    }
}

/// A PostgreSQL database, owned by the database thread.
pub(super) struct Postgres {
    config: Config,
    bounds: Bounds,
    /// Drives the connection, on the database thread, while a call waits
    /// (a current-thread runtime: nothing runs between calls, as with a
    /// blocking client).
    runtime: Runtime,
    /// The connection; none once given up, until the next group begins.
    conn: Option<Conn>,
    /// Statements prepared on this connection, by their text.
    prepared: HashMap<&'static str, Statement>,
    /// The connection was lost at the last failure (see [`Backend::lost`]).
    lost: bool,
    /// Groups marked ([`Backend::mark`]).
    marked: u64,
    /// No call waits past this ([`Backend::until`]), if set.
    deadline: Option<Instant>,
    /// [`Backend::expect`] sends its statements ahead ([`Backend::pipeline`]).
    pipelining: bool,
    /// Statements sent ahead whose answers are still to be read, in order.
    ahead: Vec<Ahead>,
    /// Calls made and waited for: round trips (the tests count them).
    #[cfg(test)]
    calls: u64,
}

/// A statement sent ahead: what it runs, and the rows it must change.
struct Ahead {
    statement: Statement,
    params: Vec<Owned>,
    rows: u64,
    refused: &'static str,
}

/// A parameter of a statement sent ahead, kept until its answer is read.
enum Owned {
    Int(i64),
    Text(String),
    Blob(Vec<u8>),
}

impl Owned {
    fn new(v: &Value<'_>) -> Owned {
        match *v {
            Value::Int(i) => Owned::Int(i),
            Value::Text(t) => Owned::Text(t.to_owned()),
            Value::Blob(b) => Owned::Blob(b.to_owned()),
        }
    }

    fn param(&self) -> &(dyn ToSql + Sync) {
        match self {
            Owned::Int(i) => i,
            Owned::Text(t) => t,
            Owned::Blob(b) => b,
        }
    }
}

/// A connection: its client, and the task that reads and writes its
/// socket. Dropped, the task ends and the socket is closed.
struct Conn {
    client: Client,
    io: JoinHandle<()>,
}

impl Drop for Conn {
    fn drop(&mut self) {
        self.io.abort();
    }
}

/// What a call given up past its bound is told.
const NO_ANSWER: &str = "PostgreSQL did not answer in time; the connection was dropped";

/// The least a call is given, however close the deadline: a call given no
/// time at all would drop a good connection for nothing.
const LEAST_CALL: Duration = Duration::from_millis(100);

impl Postgres {
    /// A new connection if the last one was lost.
    fn reconnect(&mut self) -> Result<(), DbError> {
        let open = self.conn.as_ref().is_some_and(|c| !c.client.is_closed());
        if !open || self.lost {
            // The old socket goes before a new one is made.
            self.conn = None;
            self.prepared.clear();
            self.ahead.clear();
            let limit = self.limit();
            let conn = connect_within(&self.runtime, &self.config, limit)
                .inspect_err(|_| self.lost = true)?;
            self.conn = Some(conn);
        }
        self.lost = false;
        Ok(())
    }

    /// How long the next call may wait: its bound, or less near the
    /// deadline.
    fn limit(&self) -> Duration {
        match self.deadline {
            Some(at) => self
                .bounds
                .call
                .min(at.saturating_duration_since(Instant::now()))
                .max(LEAST_CALL),
            None => self.bounds.call,
        }
    }

    /// Waits for `call` on the connection `conn` within `limit`.
    fn wait<T>(
        runtime: &Runtime,
        limit: Duration,
        call: impl Future<Output = Result<T, tokio_postgres::Error>>,
    ) -> Option<Result<T, tokio_postgres::Error>> {
        // The timer is made inside the runtime, which drives it.
        runtime
            .block_on(async { tokio::time::timeout(limit, call).await })
            .ok()
    }

    /// What a call's wait came to: its answer, or, given up, a lost
    /// connection, dropped (its late answer must not be read as the next
    /// call's).
    fn answered<T>(
        &mut self,
        answer: Option<Result<T, tokio_postgres::Error>>,
    ) -> Result<T, DbError> {
        match answer {
            Some(Ok(v)) => Ok(v),
            Some(Err(e)) => Err(self.failed(&e)),
            None => {
                self.conn = None;
                self.lost = true;
                Err(DbError(NO_ANSWER.into()))
            }
        }
    }

    /// The error of a call with no connection (given up earlier in the
    /// group): a lost one.
    fn gone(&mut self) -> DbError {
        self.lost = true;
        DbError(NO_ANSWER.into())
    }
}

/// Runs `$call`, made with `$client` (the connection's client), on the
/// database `$db` within its limit ([`Postgres::limit`]); its answer, or
/// a lost connection's error.
macro_rules! call {
    ($db:expr, |$client:ident| $call:expr) => {{
        let limit = $db.limit();
        #[cfg(test)]
        {
            $db.calls += 1;
        }
        match &$db.conn {
            Some(conn) => {
                let $client = &conn.client;
                let answer = Postgres::wait(&$db.runtime, limit, $call);
                $db.answered(answer)
            }
            None => Err($db.gone()),
        }
    }};
}

/// A new connection to `config`, made within `limit` (its handshake
/// included), its socket driven by `runtime`.
fn connect_within(runtime: &Runtime, config: &Config, limit: Duration) -> Result<Conn, DbError> {
    let cannot = |why: String| DbError(format!("cannot connect to PostgreSQL: {why}"));
    let (client, connection) = runtime
        .block_on(async { tokio::time::timeout(limit, config.connect(NoTls)).await })
        .map_err(|_| cannot(format!("no answer within {limit:?}")))?
        .map_err(|e| cannot(DbError::from(e).0))?;
    let io = runtime.spawn(async move {
        let _ = connection.await;
    });
    Ok(Conn { client, io })
}

/// Whether `e` says the connection was lost, not that a statement was
/// refused: the database restarting or out of reach.
fn connection_lost(e: &tokio_postgres::Error) -> bool {
    match e.code() {
        Some(code) => {
            code.code().starts_with("08") || matches!(code.code(), "57P01" | "57P02" | "57P03")
        }
        None => e.as_db_error().is_none(),
    }
}

impl Postgres {
    /// Connects to the database at `url` and brings the schema up to date.
    pub(super) fn connect(url: &str) -> Result<Postgres, DbError> {
        Postgres::connect_with(url, Bounds::STORE)
    }

    /// [`Postgres::connect`] with these bounds.
    pub(super) fn connect_with(url: &str, bounds: Bounds) -> Result<Postgres, DbError> {
        let mut config: Config = url.parse().map_err(|e: tokio_postgres::Error| {
            DbError(format!(
                "this is not a PostgreSQL URL the server can use: {e}"
            ))
        })?;
        bounds.apply(&mut config);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| DbError(format!("cannot start the database client: {e}")))?;
        let conn = connect_within(&runtime, &config, bounds.call)?;
        let mut db = Postgres {
            config,
            bounds,
            runtime,
            conn: Some(conn),
            prepared: HashMap::new(),
            lost: false,
            marked: 0,
            deadline: None,
            pipelining: false,
            ahead: Vec::new(),
            #[cfg(test)]
            calls: 0,
        };
        db.migrate().inspect_err(|_| db.conn = None)?;
        Ok(db)
    }

    /// Runs the migrations this database lacks, in one transaction that
    /// holds the migration lock: no other server migrates it meanwhile
    /// (dropping the connection on a failure rolls it back).
    fn migrate(&mut self) -> Result<(), DbError> {
        self.batch(&format!(
            "BEGIN; SELECT pg_advisory_xact_lock({MIGRATION_LOCK}); \
             CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"
        ))?;
        let version = self
            .query("SELECT max(version) FROM schema_version", &[])?
            .pop()
            .and_then(|row| row.into_iter().next());
        let version = match version {
            Some(Cell::Int(v)) => v,
            _ => 0,
        };
        let mut reached = None;
        for (to, sql) in pending(version, MIGRATIONS)? {
            self.batch(sql)
                .map_err(|e| DbError(format!("migrating the schema to version {to}: {e}")))?;
            reached = Some(to);
        }
        if let Some(to) = reached {
            let to =
                i32::try_from(to).map_err(|_| DbError("schema version out of range".into()))?;
            self.batch(&format!(
                "DELETE FROM schema_version; INSERT INTO schema_version (version) VALUES ({to})"
            ))?;
        }
        self.batch("COMMIT")
    }

    /// The statement `sql`, prepared on this connection the first time.
    fn statement(&mut self, sql: &'static str) -> Result<Statement, DbError> {
        if let Some(s) = self.prepared.get(sql) {
            return Ok(s.clone());
        }
        let s = call!(self, |client| client.prepare(sql))?;
        self.prepared.insert(sql, s.clone());
        Ok(s)
    }

    /// Reads the answers of the statements sent ahead, all sent first in
    /// their order (`tokio_postgres` sends a call's request when it is
    /// first polled, and the database answers in order): the first
    /// failure, or a statement that changed other than its rows.
    fn answer_ahead(&mut self) -> Result<(), DbError> {
        if self.ahead.is_empty() {
            return Ok(());
        }
        let ahead = std::mem::take(&mut self.ahead);
        let counts = call!(self, |client| in_order(ahead.iter().map(|a| {
            Box::pin(async move {
                let params: Vec<_> = a.params.iter().map(Owned::param).collect();
                client.execute(&a.statement, &params).await
            }) as Call<'_>
        })))?;
        ahead
            .iter()
            .zip(counts)
            .try_for_each(|(a, n)| expected(n, a.rows, a.refused))
    }

    /// The calls made so far, each a round trip.
    #[cfg(test)]
    pub(super) fn calls(&self) -> u64 {
        self.calls
    }

    /// `e` as an error, noting whether the connection was lost.
    fn failed(&mut self, e: &tokio_postgres::Error) -> DbError {
        self.lost = connection_lost(e);
        DbError::from(e)
    }
}

/// A statement's call on the connection: the rows it changed.
type Call<'a> = Pin<Box<dyn Future<Output = Result<u64, tokio_postgres::Error>> + 'a>>;

/// Polls every call once in their order (each sends its request then), and
/// again until all have answered; their answers in order, or the first
/// failure.
async fn in_order<'a>(
    calls: impl Iterator<Item = Call<'a>>,
) -> Result<Vec<u64>, tokio_postgres::Error> {
    let mut calls: Vec<Call<'a>> = calls.collect();
    let mut answers: Vec<Option<u64>> = calls.iter().map(|_| None).collect();
    // The calls before it have all answered.
    let mut first = 0;
    let mut sent = false;
    std::future::poll_fn(|cx| {
        // The database answers in order: once every request is sent, the
        // calls are polled from the first unanswered to the first waiting.
        for (call, answer) in calls[first..].iter_mut().zip(&mut answers[first..]) {
            if answer.is_some() {
                continue;
            }
            match call.as_mut().poll(cx) {
                Poll::Ready(Ok(n)) => *answer = Some(n),
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending if sent => break,
                Poll::Pending => {}
            }
        }
        sent = true;
        while answers.get(first).is_some_and(Option::is_some) {
            first += 1;
        }
        if first == answers.len() {
            Poll::Ready(Ok(()))
        } else {
            Poll::Pending
        }
    })
    .await?;
    Ok(answers.into_iter().flatten().collect())
}

impl Backend for Postgres {
    fn batch(&mut self, sql: &str) -> Result<(), DbError> {
        self.answer_ahead()?;
        call!(self, |client| client.batch_execute(sql))
    }

    fn expect(
        &mut self,
        sql: &'static str,
        params: &[Value<'_>],
        rows: u64,
        refused: &'static str,
    ) -> Result<(), DbError> {
        if !self.pipelining {
            return expected(self.execute(sql, params)?, rows, refused);
        }
        let statement = self.statement(sql)?;
        self.ahead.push(Ahead {
            statement,
            params: params.iter().map(Owned::new).collect(),
            rows,
            refused,
        });
        Ok(())
    }

    fn pipeline(&mut self, on: bool) -> Result<(), DbError> {
        self.pipelining = on;
        self.answer_ahead()
    }

    fn until(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    fn begin(&mut self) -> Result<(), DbError> {
        self.reconnect()?;
        self.batch("BEGIN")
    }

    fn lost(&self) -> bool {
        self.lost
    }

    fn mark(&mut self, mark: &str) -> Result<(), DbError> {
        let now = super::unix_now();
        self.marked += 1;
        if self.marked % MARKS_SWEPT_EVERY == 0 {
            self.execute(
                "DELETE FROM commit_marks WHERE at < $1",
                &[Value::Int(now - MARKS_KEPT_SECS)],
            )?;
        }
        self.execute(
            "INSERT INTO commit_marks (mark, at) VALUES ($1, $2)",
            &[Value::Text(mark), Value::Int(now)],
        )
        .map(drop)
    }

    fn committed(&mut self, mark: &str) -> Result<bool, DbError> {
        self.reconnect()?;
        let rows = self.query(
            "SELECT 1 FROM commit_marks WHERE mark = $1",
            &[Value::Text(mark)],
        )?;
        Ok(!rows.is_empty())
    }

    fn execute(&mut self, sql: &'static str, params: &[Value<'_>]) -> Result<u64, DbError> {
        self.answer_ahead()?;
        let s = self.statement(sql)?;
        let params: Vec<_> = params.iter().map(param).collect();
        call!(self, |client| client.execute(&s, &params))
    }

    fn query(
        &mut self,
        sql: &'static str,
        params: &[Value<'_>],
    ) -> Result<Vec<Vec<Cell>>, DbError> {
        self.answer_ahead()?;
        let s = self.statement(sql)?;
        let params: Vec<_> = params.iter().map(param).collect();
        call!(self, |client| client.query(&s, &params))?
            .iter()
            .map(|row| (0..row.len()).map(|i| cell(row, i)).collect())
            .collect()
    }
}

fn param<'a>(v: &'a Value<'a>) -> &'a (dyn ToSql + Sync) {
    match v {
        Value::Int(i) => i,
        Value::Text(s) => s,
        Value::Blob(b) => b,
    }
}

/// Column `i` of `row`, by its type in the schema.
fn cell(row: &tokio_postgres::Row, i: usize) -> Result<Cell, DbError> {
    let ty = row.columns()[i].type_();
    let cell = if *ty == Type::INT8 {
        row.try_get::<_, Option<i64>>(i)?.map(Cell::Int)
    } else if *ty == Type::INT4 {
        row.try_get::<_, Option<i32>>(i)?
            .map(|v| Cell::Int(v.into()))
    } else if *ty == Type::TEXT {
        row.try_get::<_, Option<String>>(i)?.map(Cell::Text)
    } else if *ty == Type::BYTEA {
        row.try_get::<_, Option<Vec<u8>>>(i)?.map(Cell::Blob)
    } else {
        return Err(DbError(format!("a column of type {ty} is not expected")));
    };
    Ok(cell.unwrap_or(Cell::Null))
}
