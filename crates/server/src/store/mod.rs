//! Storage: each table's settings, seats and record steps, in SQLite (the
//! default, one file: `sqlite.rs`) or PostgreSQL (a `postgres://` URL:
//! `postgres.rs`). Both back ends implement [`Backend`]; everything above it
//! (the commit loop, decoding what was stored) is shared, so both give the
//! same guarantees and pass the same tests (`tests.rs`).
//!
//! Every applied step is appended here before its events go out, so a
//! restarted server (even after `kill -9`) rebuilds each table by replaying
//! its steps.
//!
//! One thread owns the connection and commits in groups: it takes every
//! request waiting when it wakes, runs them all in one transaction, commits,
//! and only then answers each one. A table waits for that answer before its
//! step's effects go out, so thousands of tables acting at once cost one
//! commit per group, not one each, and nothing is reported stored that is
//! not committed. A request that fails (a duplicate step, say) leaves no
//! trace and does not take the group's other requests down with it, on
//! either back end: the group is then run again with each request in a
//! savepoint ([`run_group`]).
//!
//! Each back end's schema is versioned: the server creates it in an empty
//! database and migrates an older one when it opens it ([`pending`]), and
//! refuses a database written by a newer build.

mod postgres;
#[cfg(test)]
pub(crate) mod relay;
mod sqlite;
#[cfg(test)]
pub(crate) mod testpg;
#[cfg(test)]
pub(crate) mod tests;

pub(crate) use postgres::Bounds;

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::{Arc, mpsc};
use std::time::Duration;

use serde::Serialize;
use tripoley_engine::Step;
use tripoley_napalm::NapalmStep;

use crate::ServerError;
use crate::protocol::{GameKind, TableSettings, TableStatus};

/// A token's SHA-256 digest: all the server keeps of a secret.
pub(crate) type TokenHash = [u8; 32];

/// Where the tables are kept.
#[derive(Clone, PartialEq, Eq)]
pub enum Database {
    /// A SQLite file, created if missing; `:memory:` keeps everything in
    /// memory (lost on exit).
    Sqlite(PathBuf),
    /// A PostgreSQL database by its URL
    /// (`postgres://USER[:PASSWORD]@HOST[:PORT]/NAME`); the server creates
    /// its tables there. Connections are not encrypted (the database is
    /// expected on this machine or a private network).
    Postgres(String),
}

impl FromStr for Database {
    type Err = std::convert::Infallible;

    /// A `postgres://` or `postgresql://` URL names PostgreSQL; anything
    /// else is a SQLite file's path.
    fn from_str(s: &str) -> Result<Database, Self::Err> {
        Ok(
            if s.starts_with("postgres://") || s.starts_with("postgresql://") {
                Database::Postgres(s.to_owned())
            } else {
                Database::Sqlite(PathBuf::from(s))
            },
        )
    }
}

impl From<PathBuf> for Database {
    fn from(path: PathBuf) -> Database {
        Database::Sqlite(path)
    }
}

/// The path, or the URL without its password (it is printed at startup
/// and in logs).
impl fmt::Display for Database {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Database::Sqlite(path) => write!(f, "{}", path.display()),
            Database::Postgres(url) => f.write_str(&without_password(url)),
        }
    }
}

impl fmt::Debug for Database {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Database::Sqlite(_) => write!(f, "Sqlite({self})"),
            Database::Postgres(_) => write!(f, "Postgres({self})"),
        }
    }
}

/// `url` with its password (in the user part or a `password=` parameter),
/// if any, replaced by `***`.
fn without_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let (main, query) = match rest.split_once('?') {
        Some((main, query)) => (main, Some(query)),
        None => (rest, None),
    };
    let authority = &main[..main.find('/').unwrap_or(main.len())];
    let mut out = format!("{scheme}://");
    match authority
        .rfind('@')
        .and_then(|at| Some((main[..at].split_once(':')?.0, &main[at..])))
    {
        Some((user, host_on)) => {
            out.push_str(user);
            out.push_str(":***");
            out.push_str(host_on);
        }
        None => out.push_str(main),
    }
    if let Some(query) = query {
        let params: Vec<String> = query
            .split('&')
            .map(|p| match p.split_once('=') {
                Some((key, _)) if key.eq_ignore_ascii_case("password") => format!("{key}=***"),
                _ => p.to_owned(),
            })
            .collect();
        out.push('?');
        out.push_str(&params.join("&"));
    }
    out
}

/// Why the database refused a request: its own words.
#[derive(Debug)]
pub(crate) struct DbError(pub String);

impl fmt::Display for DbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<DbError> for ServerError {
    fn from(e: DbError) -> ServerError {
        ServerError::Storage(e.0)
    }
}

/// A table as a back end stores it, before it is decoded.
pub(crate) struct Row {
    pub settings: String,
    pub host_hash: Vec<u8>,
    pub status: String,
    pub names: Option<String>,
    /// Seat, name, token hash, by seat.
    pub seats: Vec<(u8, String, Vec<u8>)>,
    /// Each step as JSON, in order.
    pub steps: Vec<String>,
}

/// A parameter of a statement.
#[derive(Clone, Copy)]
pub(crate) enum Value<'a> {
    Int(i64),
    Text(&'a str),
    Blob(&'a [u8]),
}

/// A value read from a row.
#[derive(Debug, PartialEq)]
pub(crate) enum Cell {
    Null,
    Int(i64),
    Text(String),
    Blob(Vec<u8>),
}

impl Cell {
    fn unexpected(&self, want: &str) -> DbError {
        DbError(format!("the database holds {self:?} where {want} belongs"))
    }

    fn int(self) -> Result<i64, DbError> {
        match self {
            Cell::Int(i) => Ok(i),
            other => Err(other.unexpected("a number")),
        }
    }

    fn text(self) -> Result<String, DbError> {
        match self {
            Cell::Text(s) => Ok(s),
            other => Err(other.unexpected("text")),
        }
    }

    fn maybe_text(self) -> Result<Option<String>, DbError> {
        match self {
            Cell::Null => Ok(None),
            other => other.text().map(Some),
        }
    }

    fn blob(self) -> Result<Vec<u8>, DbError> {
        match self {
            Cell::Blob(b) => Ok(b),
            other => Err(other.unexpected("bytes")),
        }
    }
}

/// A row's `N` cells, in order.
fn cells<const N: usize>(row: Vec<Cell>) -> Result<[Cell; N], DbError> {
    <[Cell; N]>::try_from(row)
        .map_err(|row| DbError(format!("the database gave {} columns, not {N}", row.len())))
}

/// A database the server can keep its tables in: statements and queries
/// with the parameters `$1`, `$2`, ... Its methods run on the database
/// thread, inside the group's transaction. Every statement the server runs
/// is written once, below, in the SQL both back ends understand; only the
/// schema (each back end's migrations) differs.
pub(crate) trait Backend: Send {
    /// Runs statements that take no parameters.
    fn batch(&mut self, sql: &str) -> Result<(), DbError>;
    /// Runs a statement; returns the rows it changed.
    fn execute(&mut self, sql: &'static str, params: &[Value<'_>]) -> Result<u64, DbError>;
    /// Runs a query; returns its rows.
    fn query(&mut self, sql: &'static str, params: &[Value<'_>])
    -> Result<Vec<Vec<Cell>>, DbError>;

    /// Opens the group's transaction.
    fn begin(&mut self) -> Result<(), DbError> {
        self.batch("BEGIN")
    }
    /// Whether the last failure was the connection's, not a refusal: the
    /// database restarting or out of reach, so the group is tried again.
    fn lost(&self) -> bool {
        false
    }
    /// No call waits for the database past `deadline` (the end of a
    /// ride-out), if set, so that a group's retries end with it; a back
    /// end whose calls cannot hang (a file on this machine) ignores it.
    fn until(&mut self, _deadline: Option<std::time::Instant>) {}
    /// Commits it. An error means nothing of the group was stored, unless
    /// the connection was lost ([`Backend::lost`]) while it committed: then
    /// the outcome is unknown until [`Backend::committed`] says.
    fn commit(&mut self) -> Result<(), DbError> {
        self.batch("COMMIT")
    }
    /// Writes the group's `mark` in its transaction, just before the
    /// commit, so that a commit whose answer was lost can be told from one
    /// that failed. A database that cannot lose an answer (a file on this
    /// machine) writes none.
    fn mark(&mut self, _mark: &str) -> Result<(), DbError> {
        Ok(())
    }
    /// Whether the group marked `mark` was committed: asked, on a new
    /// connection, after its commit's answer was lost.
    fn committed(&mut self, _mark: &str) -> Result<bool, DbError> {
        Ok(false)
    }
    /// Marks where a request starts.
    fn savepoint(&mut self) -> Result<(), DbError> {
        self.batch("SAVEPOINT request")
    }
    /// Keeps what the request did.
    fn release(&mut self) -> Result<(), DbError> {
        self.batch("RELEASE SAVEPOINT request")
    }
    /// Undoes what the request did; the group goes on.
    fn rollback_to(&mut self) -> Result<(), DbError> {
        self.batch("ROLLBACK TO SAVEPOINT request; RELEASE SAVEPOINT request")
    }
}

/// The tables `forget_old` removes: finished before `$1`, lobbies before `$2`.
macro_rules! old_tables {
    () => {
        "SELECT invite FROM tables WHERE (status = 'finished' AND created < $1) \
         OR (status = 'lobby' AND created < $2)"
    };
}

/// The first key of an address's advisory lock ([`Caps`]): "caps" in
/// ASCII, as SQL.
macro_rules! caps_lock {
    () => {
        "1667330163"
    };
}

/// The server's statements, on either back end.
impl dyn Backend + '_ {
    /// Stores a new table in the lobby.
    fn create_table(
        &mut self,
        invite: &str,
        created: i64,
        settings: &str,
        host_hash: &[u8],
    ) -> Result<(), DbError> {
        use Value::{Blob, Int, Text};
        self.execute(
            "INSERT INTO tables (invite, created, settings, host_hash, status) \
             VALUES ($1, $2, $3, $4, 'lobby')",
            &[Text(invite), Int(created), Text(settings), Blob(host_hash)],
        )
        .map(drop)
    }

    /// Stores a new lobby unless its creator's address is over one of
    /// `caps` (then nothing is written, and the answer says which).
    /// PostgreSQL only: the address's advisory lock, held until the group
    /// commits, makes one address's creates on every server wait for each
    /// other, so two at once cannot both take its last slot.
    fn create_counted(
        &mut self,
        invite: &str,
        created: i64,
        settings: &str,
        host_hash: &[u8],
        caps: &Caps,
    ) -> Result<Option<Over>, DbError> {
        use Value::{Int, Text};
        let address = Text(&caps.address);
        self.execute(
            concat!(
                "SELECT 1 FROM pg_advisory_xact_lock(",
                caps_lock!(),
                ", hashtext($1))"
            ),
            &[address],
        )?;
        let row = self
            .query(
                concat!(
                    "SELECT (SELECT count(*) FROM creations c JOIN tables t ON t.invite = c.invite \
                     WHERE c.address = $1 AND t.status = 'lobby'), \
                     (SELECT count(*) FROM creations WHERE address = $1 AND created > ",
                    crate::clock::now_ms!(),
                    " - $2::bigint)"
                ),
                &[address, Int(caps.window_ms)],
            )?
            .pop()
            .ok_or_else(|| DbError("the count of an address's tables was empty".into()))?;
        let [lobbies, recent] = cells(row)?;
        if lobbies.int()? >= caps.lobbies {
            return Ok(Some(Over::Lobbies));
        }
        if recent.int()? >= caps.tables {
            return Ok(Some(Over::Tables));
        }
        self.execute(
            concat!(
                "INSERT INTO creations (invite, address, created) VALUES ($1, $2, ",
                crate::clock::now_ms!(),
                ")"
            ),
            &[Text(invite), address],
        )?;
        self.create_table(invite, created, settings, host_hash)?;
        Ok(None)
    }

    /// Stores a claimed seat.
    fn sit(&mut self, invite: &str, seat: u8, name: &str, hash: &[u8]) -> Result<(), DbError> {
        use Value::{Blob, Int, Text};
        self.execute(
            "INSERT INTO seats (invite, seat, name, token_hash) VALUES ($1, $2, $3, $4)",
            &[Text(invite), Int(seat.into()), Text(name), Blob(hash)],
        )
        .map(drop)
    }

    /// Frees a claimed seat: its token holds it no more.
    fn free_seat(&mut self, invite: &str, seat: u8) -> Result<(), DbError> {
        self.execute(
            "DELETE FROM seats WHERE invite = $1 AND seat = $2",
            &[Value::Text(invite), Value::Int(seat.into())],
        )
        .map(drop)
    }

    /// Replaces a lobby table's settings (JSON): the host's bot seats.
    fn set_settings(&mut self, invite: &str, settings: &str) -> Result<(), DbError> {
        self.execute(
            "UPDATE tables SET settings = $2 WHERE invite = $1",
            &[Value::Text(invite), Value::Text(settings)],
        )
        .map(drop)
    }

    /// Marks a game started with these names (JSON).
    fn start(&mut self, invite: &str, names: &str) -> Result<(), DbError> {
        self.execute(
            "UPDATE tables SET status = 'playing', names = $2 WHERE invite = $1",
            &[Value::Text(invite), Value::Text(names)],
        )
        .map(drop)
    }

    /// Appends step `idx` (JSON); refused if the table already has it.
    fn append_step(&mut self, invite: &str, idx: i64, step: &str) -> Result<(), DbError> {
        use Value::{Int, Text};
        self.execute(
            "INSERT INTO steps (invite, idx, step) VALUES ($1, $2, $3)",
            &[Text(invite), Int(idx), Text(step)],
        )
        .map(drop)
    }

    /// Sets a table's status (`finished`, `refused`).
    fn set_status(&mut self, invite: &str, status: &str) -> Result<(), DbError> {
        self.execute(
            "UPDATE tables SET status = $2 WHERE invite = $1",
            &[Value::Text(invite), Value::Text(status)],
        )
        .map(drop)
    }

    /// Refuses a write unless the lease is still `fence`'s, and keeps it
    /// so until the group commits (`FOR SHARE`: another server taking the
    /// table over waits for that commit, then replays what it stored). So
    /// a server that lost a table cannot store a step the new owner would
    /// not replay: no action is applied twice. PostgreSQL only.
    fn check_fence(&mut self, fence: &Fence) -> Result<(), DbError> {
        use Value::{Int, Text};
        let held = self.query(
            "SELECT epoch FROM leases WHERE invite = $1 AND owner = $2 AND epoch = $3 FOR SHARE",
            &[Text(&fence.invite), Text(&fence.owner), Int(fence.epoch)],
        )?;
        if held.is_empty() {
            return Err(DbError(
                "this table has moved to another server; reconnect to go on".into(),
            ));
        }
        Ok(())
    }

    /// Removes a table, its seats and steps.
    fn forget(&mut self, invite: &str) -> Result<(), DbError> {
        for sql in [
            "DELETE FROM analyses WHERE invite = $1",
            "DELETE FROM shares WHERE invite = $1",
            "DELETE FROM steps WHERE invite = $1",
            "DELETE FROM seats WHERE invite = $1",
            "DELETE FROM tables WHERE invite = $1",
        ] {
            self.execute(sql, &[Value::Text(invite)])?;
        }
        Ok(())
    }

    /// Removes finished tables created before `finished_before` and lobby
    /// tables created before `lobby_before` (seconds since 1970); returns
    /// how many went.
    fn forget_old(&mut self, finished_before: i64, lobby_before: i64) -> Result<usize, DbError> {
        let cutoffs = [Value::Int(finished_before), Value::Int(lobby_before)];
        for sql in [
            concat!("DELETE FROM analyses WHERE invite IN (", old_tables!(), ")"),
            concat!("DELETE FROM shares WHERE invite IN (", old_tables!(), ")"),
            concat!("DELETE FROM steps WHERE invite IN (", old_tables!(), ")"),
            concat!("DELETE FROM seats WHERE invite IN (", old_tables!(), ")"),
        ] {
            self.execute(sql, &cutoffs)?;
        }
        let gone = self.execute(
            concat!("DELETE FROM tables WHERE invite IN (", old_tables!(), ")"),
            &cutoffs,
        )?;
        Ok(usize::try_from(gone).unwrap_or(usize::MAX))
    }

    /// The share id of a finished game's replay, if it has one; with
    /// `fresh`, made from it if it had none.
    fn share(&mut self, invite: &str, fresh: Option<&str>) -> Result<Option<String>, DbError> {
        use Value::Text;
        if let Some(fresh) = fresh {
            self.execute(
                "INSERT INTO shares (share, invite) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                &[Text(fresh), Text(invite)],
            )?;
        }
        let Some(row) = self
            .query(
                "SELECT share FROM shares WHERE invite = $1",
                &[Text(invite)],
            )?
            .pop()
        else {
            return match fresh {
                Some(_) => Err(DbError("the share was not stored".into())),
                None => Ok(None),
            };
        };
        let [share] = cells(row)?;
        share.text().map(Some)
    }

    /// The invite a share id stands for.
    fn shared(&mut self, share: &str) -> Result<Option<String>, DbError> {
        let Some(row) = self
            .query(
                "SELECT invite FROM shares WHERE share = $1",
                &[Value::Text(share)],
            )?
            .pop()
        else {
            return Ok(None);
        };
        let [invite] = cells(row)?;
        invite.text().map(Some)
    }

    /// Keeps an analysis (its JSON) of `seat`'s decisions (-1: everyone's).
    fn keep_analysis(&mut self, invite: &str, seat: i64, body: &str) -> Result<(), DbError> {
        use Value::{Int, Text};
        self.execute(
            "INSERT INTO analyses (invite, seat, body) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
            &[Text(invite), Int(seat), Text(body)],
        )
        .map(drop)
    }

    /// A kept analysis.
    fn analysis(&mut self, invite: &str, seat: i64) -> Result<Option<String>, DbError> {
        let Some(row) = self
            .query(
                "SELECT body FROM analyses WHERE invite = $1 AND seat = $2",
                &[Value::Text(invite), Value::Int(seat)],
            )?
            .pop()
        else {
            return Ok(None);
        };
        let [body] = cells(row)?;
        body.text().map(Some)
    }

    /// Invites of the tables with this status (`playing`, `lobby`).
    fn invites_in(&mut self, status: &str) -> Result<Vec<String>, DbError> {
        self.query(
            "SELECT invite FROM tables WHERE status = $1",
            &[Value::Text(status)],
        )?
        .into_iter()
        .map(|row| {
            let [invite] = cells(row)?;
            invite.text()
        })
        .collect()
    }

    /// A table not set aside, as stored.
    fn load(&mut self, invite: &str) -> Result<Option<Row>, DbError> {
        let invite = [Value::Text(invite)];
        let Some(table) = self
            .query(
                "SELECT settings, host_hash, status, names FROM tables \
                 WHERE invite = $1 AND status != 'refused'",
                &invite,
            )?
            .pop()
        else {
            return Ok(None);
        };
        let [settings, host_hash, status, names] = cells(table)?;
        let seats = self
            .query(
                "SELECT seat, name, token_hash FROM seats WHERE invite = $1 ORDER BY seat",
                &invite,
            )?
            .into_iter()
            .map(|row| {
                let [seat, name, hash] = cells(row)?;
                let seat = seat.int()?;
                let seat = u8::try_from(seat)
                    .map_err(|_| DbError(format!("seat {seat} is out of range")))?;
                Ok((seat, name.text()?, hash.blob()?))
            })
            .collect::<Result<_, DbError>>()?;
        let steps = self
            .query(
                "SELECT step FROM steps WHERE invite = $1 ORDER BY idx",
                &invite,
            )?
            .into_iter()
            .map(|row| {
                let [step] = cells(row)?;
                step.text()
            })
            .collect::<Result<_, DbError>>()?;
        Ok(Some(Row {
            settings: settings.text()?,
            host_hash: host_hash.blob()?,
            status: status.text()?,
            names: names.maybe_text()?,
            seats,
            steps,
        }))
    }
}

/// The migrations a database at schema `version` still needs, with the
/// version each one brings it to; or why this build cannot use it.
/// `migrations[k]` brings a database from version `k` to `k + 1`.
pub(crate) fn pending<'a>(
    version: i64,
    migrations: &'a [&'a str],
) -> Result<impl Iterator<Item = (i64, &'a str)> + 'a, DbError> {
    let known = i64::try_from(migrations.len()).unwrap_or(i64::MAX);
    if version > known {
        return Err(DbError(format!(
            "the database was written by a newer tripoley (its schema is version {version}, \
             this build knows versions up to {known}): run the newer build, or use another database"
        )));
    }
    let version = version.max(0);
    let done = usize::try_from(version)
        .unwrap_or(usize::MAX)
        .min(migrations.len());
    Ok((version + 1..).zip(migrations[done..].iter().copied()))
}

/// The shared database handle: a queue to the thread that owns the
/// connection (see the module's documentation).
#[derive(Clone)]
pub(crate) struct Store {
    jobs: mpsc::Sender<Job>,
    /// The lease a table's writes are made under, when several servers
    /// share the database (see [`Store::fenced`]).
    fence: Option<Arc<Fence>>,
}

/// A table's lease as the server running it holds it (`crate::cluster`):
/// the owner's process id and the lease's epoch, which goes up each time
/// the table changes hands.
#[derive(Debug)]
pub(crate) struct Fence {
    pub invite: String,
    pub owner: Arc<str>,
    pub epoch: i64,
}

/// The caps on one client address's creates, counted in the database
/// across every server sharing it (PostgreSQL): lobbies open at once (until
/// they start or are removed) and tables created in the last `window_ms`.
pub(crate) struct Caps {
    pub address: String,
    pub lobbies: i64,
    pub tables: i64,
    pub window_ms: i64,
}

/// The cap a create was refused for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Over {
    /// The address holds `Caps::lobbies` open lobbies.
    Lobbies,
    /// It created `Caps::tables` tables in the window.
    Tables,
}

/// A request to the database thread.
type Job = Box<dyn Request>;

/// A request: its statements, and how to answer it.
trait Request: Send {
    /// Runs its statements in the group's transaction; false if the
    /// database refused them. It is run again if the group is rolled back
    /// and retried.
    fn run(&mut self, db: &mut dyn Backend) -> bool;
    /// Answers, given the commit's failure if it failed.
    fn answer(self: Box<Self>, failed: Option<&Failure>);
    /// The address whose lock its statements take, if they count a
    /// create against its caps ([`Store::create_counted`]).
    fn locks(&self) -> Option<&str>;
}

/// A request from [`Store::run`]: its statements, their last result, and
/// where the answer goes.
struct Pending<T, F> {
    statements: F,
    locks: Option<String>,
    result: Option<Result<T, ServerError>>,
    reply: tokio::sync::oneshot::Sender<Result<T, ServerError>>,
}

impl<T, F> Request for Pending<T, F>
where
    T: Send,
    F: FnMut(&mut dyn Backend) -> Result<T, DbError> + Send,
{
    fn run(&mut self, db: &mut dyn Backend) -> bool {
        let result = (self.statements)(db).map_err(ServerError::from);
        let ok = result.is_ok();
        self.result = Some(result);
        ok
    }

    fn answer(self: Box<Self>, failed: Option<&Failure>) {
        let answer = match (failed, self.result) {
            (Some(f), _) if f.in_doubt => Err(ServerError::InDoubt),
            (Some(f), _) => Err(ServerError::Storage(format!("commit: {}", f.why))),
            (None, Some(result)) => result,
            (None, None) => Err(ServerError::Storage("the request was not run".into())),
        };
        let _ = self.reply.send(answer);
    }

    fn locks(&self) -> Option<&str> {
        self.locks.as_deref()
    }
}

/// Requests committed together at most.
const MAX_GROUP: usize = 1024;

/// How long a group whose connection was lost is tried again (the
/// database restarting, a network blip) before its requests are told it
/// failed: meanwhile its players wait, and their games go on by themselves
/// once it is stored. Retrying is safe: a group is tried again only once
/// nothing of it is known to be stored (a commit whose answer was lost is
/// first looked up by its mark), and a table that moved meanwhile is
/// refused by its fence. No try outlasts it ([`Backend::until`]), so a
/// group is answered within a call's bound (`Bounds::STORE.call`) of its
/// first try and the ride-out after: 21 s at most, whatever the network.
const RIDE_OUT: Duration = Duration::from_secs(10);

/// The pause between two tries.
const RETRY_PAUSE: Duration = Duration::from_millis(250);

/// What a request is told when the database stayed out of reach (its own
/// words go to the server's log).
const OUT_OF_REACH: &str = "the database is out of reach";

/// What a group whose commit lost its answer is, while the database stays
/// out of reach: it may have been stored.
pub(crate) const IN_DOUBT: &str = "the database took the change, or not: its answer was lost";

/// A group's failure: why, and whether it happened as it committed with
/// the connection lost, so that it may have been stored.
struct Failure {
    why: String,
    in_doubt: bool,
}

/// The database thread: takes the waiting requests, runs them in one
/// transaction, commits, answers them; until every [`Store`] is dropped.
fn commit_groups(db: &mut dyn Backend, jobs: &mpsc::Receiver<Job>) {
    let mut out_of_reach = false;
    let mut marks = Marks::new();
    while let Ok(first) = jobs.recv() {
        let mut group = vec![first];
        while group.len() < MAX_GROUP {
            match jobs.try_recv() {
                Ok(job) => group.push(job),
                Err(_) => break,
            }
        }
        let mark = marks.next();
        let mut failed = try_group(db, &mut group, &mark);
        let since = std::time::Instant::now();
        // The retries' calls end with the ride-out, not a call's bound
        // after it.
        db.until(Some(since + RIDE_OUT));
        while let Some(f) = &mut failed
            && db.lost()
        {
            // Said once an outage, not at every try.
            if !out_of_reach {
                eprintln!(
                    "tripoley serve: the database is out of reach, retrying: {}",
                    f.why
                );
                out_of_reach = true;
            }
            if since.elapsed() >= RIDE_OUT {
                // A group whose commit's answer was lost stays in doubt:
                // its tables must read back what is stored.
                f.why = OUT_OF_REACH.into();
                break;
            }
            std::thread::sleep(RETRY_PAUSE);
            if f.in_doubt {
                match db.committed(&mark) {
                    // Stored: every request's own answer stands.
                    Ok(true) => {
                        failed = None;
                        break;
                    }
                    // Not stored: it is tried again, below.
                    Ok(false) => {}
                    // Still out of reach: asked again after a pause.
                    Err(_) => continue,
                }
            }
            failed = try_group(db, &mut group, &mark);
        }
        db.until(None);
        if failed.is_none() && out_of_reach {
            eprintln!("tripoley serve: the database answers again");
            out_of_reach = false;
        }
        for request in group {
            request.answer(failed.as_ref());
        }
    }
}

/// The marks of a database thread's groups ([`Backend::mark`]): unique
/// across the servers sharing a database and their restarts (a random
/// prefix) and within this one (a count).
struct Marks {
    prefix: u64,
    count: u64,
}

impl Marks {
    fn new() -> Marks {
        let mut seed = [0u8; 8];
        // Without the system's randomness the clock is unique enough.
        let prefix = getrandom::fill(&mut seed).map_or_else(
            |_| unix_now().cast_unsigned(),
            |()| u64::from_le_bytes(seed),
        );
        Marks { prefix, count: 0 }
    }

    fn next(&mut self) -> String {
        self.count += 1;
        format!("{:016x}-{}", self.prefix, self.count)
    }
}

/// Runs and commits a group ([`run_group`]); why it failed, if it did.
fn try_group(db: &mut dyn Backend, group: &mut [Job], mark: &str) -> Option<Failure> {
    run_group(db, group, mark).err().inspect(|_| {
        let _ = db.batch("ROLLBACK");
    })
}

/// Runs a group's requests in one transaction, marks it and commits it.
/// First without savepoints (each costs PostgreSQL a round trip); if the
/// database refuses a request, the transaction is rolled back and the
/// group run again with each request in a savepoint of its own, so that
/// the refused one fails alone and leaves nothing (PostgreSQL aborts the
/// whole transaction at a failed statement; a request of several
/// statements may fail halfway). A failure means nothing was stored, but
/// one in doubt.
fn run_group(db: &mut dyn Backend, group: &mut [Job], mark: &str) -> Result<(), Failure> {
    let plain = |e: DbError| Failure {
        why: e.0,
        in_doubt: false,
    };
    begin_group(db, group).map_err(plain)?;
    if !group.iter_mut().all(|request| request.run(db)) {
        db.batch("ROLLBACK").map_err(plain)?;
        begin_group(db, group).map_err(plain)?;
        for request in group.iter_mut() {
            db.savepoint().map_err(plain)?;
            if request.run(db) {
                db.release().map_err(plain)?;
            } else {
                db.rollback_to().map_err(plain)?;
            }
        }
    }
    db.mark(mark).map_err(plain)?;
    db.commit().map_err(|e| Failure {
        why: e.0,
        in_doubt: db.lost(),
    })
}

/// Opens a group's transaction. A group counting creates against two or
/// more addresses' caps first takes all their locks, in the order of the
/// locks' keys: its creates would take them one by one, in the order they
/// came, and two servers' groups taking the same two in opposite orders
/// would each hold one and wait for the other, stalling both servers'
/// writes until the lock timeout.
fn begin_group(db: &mut dyn Backend, group: &[Job]) -> Result<(), DbError> {
    db.begin()?;
    let mut addresses: Vec<&str> = group.iter().filter_map(|r| r.locks()).collect();
    addresses.sort_unstable();
    addresses.dedup();
    if addresses.len() < 2 {
        return Ok(());
    }
    let addresses = addresses.join("\n");
    db.query(
        concat!(
            "SELECT count(pg_advisory_xact_lock(",
            caps_lock!(),
            ", k)) FROM (SELECT DISTINCT hashtext(a) AS k \
             FROM unnest(string_to_array($1, E'\\n')) AS a ORDER BY k) AS keys"
        ),
        &[Value::Text(&addresses)],
    )
    .map(drop)
}

/// A table as stored.
pub(crate) struct StoredTable {
    pub settings: TableSettings,
    pub host_hash: TokenHash,
    pub status: TableStatus,
    /// Claimed seats: seat, name, token hash.
    pub seats: Vec<(u8, String, TokenHash)>,
    /// Names fixed when the game started.
    pub names: Option<Vec<String>>,
    pub steps: StoredSteps,
}

/// A table's record steps, of the game its settings name.
pub(crate) enum StoredSteps {
    /// A Tripoley game's steps.
    Tripoley(Vec<Step>),
    /// A Napalm game's steps.
    Napalm(Vec<NapalmStep>),
}

fn hash_from(blob: &[u8]) -> TokenHash {
    let mut h = [0; 32];
    if blob.len() == 32 {
        h.copy_from_slice(blob);
    }
    h
}

/// Seconds since 1970, the `created` column's clock.
pub(crate) fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

/// Opens the back end `db` names (creating or migrating its schema).
fn open_backend(db: &Database) -> Result<Box<dyn Backend>, DbError> {
    Ok(match db {
        Database::Sqlite(path) => Box::new(sqlite::Sqlite::open(path)?),
        Database::Postgres(url) => Box::new(postgres::Postgres::connect(url)?),
    })
}

impl Store {
    /// Opens (creating or migrating if needed) the database `db` on a
    /// thread of its own, and returns once it is ready (or why it is not).
    pub fn open(db: &Database) -> Result<Store, ServerError> {
        let (jobs, queue) = mpsc::channel();
        let (ready, opened) = mpsc::sync_channel(1);
        let db = db.clone();
        // The connection is made on the thread that will own it: the
        // PostgreSQL client runs its own small runtime, which may not start
        // inside the server's.
        std::thread::Builder::new()
            .name("tripoley-store".into())
            .spawn(move || match open_backend(&db) {
                Ok(mut backend) => {
                    let _ = ready.send(Ok(()));
                    commit_groups(backend.as_mut(), &queue);
                }
                Err(e) => {
                    let _ = ready.send(Err(e));
                }
            })
            .map_err(|e| ServerError::Storage(format!("cannot start the database thread: {e}")))?;
        opened
            .recv()
            .map_err(|_| ServerError::Storage("the database thread stopped".into()))??;
        Ok(Store { jobs, fence: None })
    }

    /// This store with every request first checked against `fence`, in
    /// the same transaction: a table's writes once it runs under a lease.
    pub fn fenced(&self, fence: Fence) -> Store {
        Store {
            jobs: self.jobs.clone(),
            fence: Some(Arc::new(fence)),
        }
    }

    /// Runs `statements` on the database thread in the next group (again
    /// if the group is retried); answers once the group is committed.
    async fn run<T: Send + 'static>(
        &self,
        statements: impl FnMut(&mut dyn Backend) -> Result<T, DbError> + Send + 'static,
    ) -> Result<T, ServerError> {
        self.run_locking(None, statements).await
    }

    /// [`Store::run`] for statements that take the lock of `locks` (an
    /// address; see [`Request::locks`]).
    async fn run_locking<T: Send + 'static>(
        &self,
        locks: Option<String>,
        mut statements: impl FnMut(&mut dyn Backend) -> Result<T, DbError> + Send + 'static,
    ) -> Result<T, ServerError> {
        let stopped = || ServerError::Storage("the database thread stopped".into());
        let fence = self.fence.clone();
        let statements = move |db: &mut dyn Backend| {
            if let Some(fence) = &fence {
                db.check_fence(fence)?;
            }
            statements(db)
        };
        let (reply, answer) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(Pending {
            statements,
            locks,
            result: None,
            reply,
        });
        self.jobs.send(job).map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?
    }

    /// Stores a new table in the lobby.
    pub async fn create_table(
        &self,
        invite: String,
        settings: &TableSettings,
        host_hash: TokenHash,
    ) -> Result<(), ServerError> {
        let settings = serde_json::to_string(settings).expect("settings serialise");
        let created = unix_now();
        self.run(move |db| db.create_table(&invite, created, &settings, &host_hash))
            .await
    }

    /// Stores a new lobby unless its creator is over one of `caps`
    /// (PostgreSQL; see [`Caps`]): then nothing is stored, and the answer
    /// says which.
    pub(crate) async fn create_counted(
        &self,
        invite: String,
        settings: &TableSettings,
        host_hash: TokenHash,
        caps: Caps,
    ) -> Result<Option<Over>, ServerError> {
        let settings = serde_json::to_string(settings).expect("settings serialise");
        let created = unix_now();
        self.run_locking(Some(caps.address.clone()), move |db| {
            db.create_counted(&invite, created, &settings, &host_hash, &caps)
        })
        .await
    }

    /// Stores a claimed seat.
    pub async fn sit(
        &self,
        invite: String,
        seat: u8,
        name: String,
        hash: TokenHash,
    ) -> Result<(), ServerError> {
        self.run(move |db| db.sit(&invite, seat, &name, &hash))
            .await
    }

    /// Frees a claimed seat (the host's doing): its token holds it no more.
    pub async fn free_seat(&self, invite: String, seat: u8) -> Result<(), ServerError> {
        self.run(move |db| db.free_seat(&invite, seat)).await
    }

    /// Replaces a lobby table's settings (the host chose a seat's bot).
    pub async fn set_settings(
        &self,
        invite: String,
        settings: &TableSettings,
    ) -> Result<(), ServerError> {
        let settings = serde_json::to_string(settings).expect("settings serialise");
        self.run(move |db| db.set_settings(&invite, &settings))
            .await
    }

    /// Marks the game started with these names.
    pub async fn start(&self, invite: String, names: &[String]) -> Result<(), ServerError> {
        let names = serde_json::to_string(names).expect("names serialise");
        self.run(move |db| db.start(&invite, &names)).await
    }

    /// Appends step `idx` (0 for the first) of a table's record.
    pub async fn append_step<S: Serialize>(
        &self,
        invite: String,
        idx: usize,
        step: &S,
    ) -> Result<(), ServerError> {
        let text = serde_json::to_string(step).expect("steps serialise");
        let idx = i64::try_from(idx).unwrap_or(i64::MAX);
        self.run(move |db| db.append_step(&invite, idx, &text))
            .await
    }

    /// Marks the game over.
    pub async fn finish(&self, invite: String) -> Result<(), ServerError> {
        self.run(move |db| db.set_status(&invite, "finished")).await
    }

    /// Removes a table: its settings, seats and steps (an expired table).
    pub async fn forget(&self, invite: String) -> Result<(), ServerError> {
        self.run(move |db| db.forget(&invite)).await
    }

    /// Removes finished games created more than `keep` ago and, when
    /// `lobby` is given, lobby tables created more than that ago (only at
    /// startup: no lobby is in memory then). Returns how many went.
    pub async fn forget_old(
        &self,
        keep: Duration,
        lobby: Option<Duration>,
    ) -> Result<usize, ServerError> {
        let now = unix_now();
        let before =
            |d: Duration| now.saturating_sub(i64::try_from(d.as_secs()).unwrap_or(i64::MAX));
        let finished = before(keep);
        // A lobby cutoff before every table keeps them all.
        let lobby = lobby.map_or(i64::MIN, before);
        self.run(move |db| db.forget_old(finished, lobby)).await
    }

    /// Sets a table aside that may not run (its stored rules are no longer
    /// allowed, or its steps no longer replay): kept for its owner to look
    /// at, never loaded again.
    pub(crate) async fn refuse(&self, invite: String) -> Result<(), ServerError> {
        self.run(move |db| db.set_status(&invite, "refused")).await
    }

    /// The share id of the finished game `invite`, made if `make` and it
    /// has none (128 random bits, nothing of the invite or a token).
    pub(crate) async fn share(
        &self,
        invite: String,
        make: bool,
    ) -> Result<Option<String>, ServerError> {
        let fresh = make.then(crate::secret::new_token);
        self.run(move |db| db.share(&invite, fresh.as_deref()))
            .await
    }

    /// The invite of the game shared as `share`, if any.
    pub(crate) async fn shared(&self, share: String) -> Result<Option<String>, ServerError> {
        self.run(move |db| db.shared(&share)).await
    }

    /// Keeps a finished game's analysis of `seat`'s decisions (none:
    /// everyone's); the first one kept stays (they are all the same).
    pub(crate) async fn keep_analysis(
        &self,
        invite: String,
        seat: Option<u8>,
        body: String,
    ) -> Result<(), ServerError> {
        self.run(move |db| db.keep_analysis(&invite, seat.map_or(-1, i64::from), &body))
            .await
    }

    /// A kept analysis of a finished game.
    pub(crate) async fn analysis(
        &self,
        invite: String,
        seat: Option<u8>,
    ) -> Result<Option<String>, ServerError> {
        self.run(move |db| db.analysis(&invite, seat.map_or(-1, i64::from)))
            .await
    }

    /// Invites of the games in progress, to resume at startup.
    pub async fn playing(&self) -> Result<Vec<String>, ServerError> {
        self.run(|db| db.invites_in("playing")).await
    }

    /// Invites of the tables waiting for players, to list the public ones
    /// again at startup.
    pub async fn lobbies(&self) -> Result<Vec<String>, ServerError> {
        self.run(|db| db.invites_in("lobby")).await
    }

    /// A stored table, if there is one with this invite and its settings
    /// are still allowed. A table stored with rules that the limits now
    /// refuse (from before they existed) is set aside, not run: its game
    /// could overflow or never end.
    pub async fn load(&self, invite: String) -> Result<Option<StoredTable>, ServerError> {
        let Some(table) = self.load_any(invite.clone()).await? else {
            return Ok(None);
        };
        if table.settings.check().is_err() {
            self.refuse(invite).await?;
            return Ok(None);
        }
        Ok(Some(table))
    }

    /// A stored table, if there is one with this invite (not set aside).
    async fn load_any(&self, invite: String) -> Result<Option<StoredTable>, ServerError> {
        let Some(row) = self.run(move |db| db.load(&invite)).await? else {
            return Ok(None);
        };
        let Row {
            settings,
            host_hash,
            status,
            names,
            seats,
            steps,
        } = row;
        let seats = seats
            .into_iter()
            .map(|(seat, name, hash)| (seat, name, hash_from(&hash)))
            .collect();
        let bad =
            |what: &str, e: serde_json::Error| ServerError::Unreadable(format!("{what}: {e}"));
        let settings: TableSettings =
            serde_json::from_str(&settings).map_err(|e| bad("settings", e))?;
        let status = match status.as_str() {
            "lobby" => TableStatus::Lobby,
            "playing" => TableStatus::Playing,
            _ => TableStatus::Finished,
        };
        let names = names
            .map(|n| serde_json::from_str(&n))
            .transpose()
            .map_err(|e| bad("names", e))?;
        let steps = match settings.game {
            GameKind::Tripoley => StoredSteps::Tripoley(
                steps
                    .iter()
                    .map(|s| serde_json::from_str(s))
                    .collect::<Result<Vec<Step>, _>>()
                    .map_err(|e| bad("steps", e))?,
            ),
            GameKind::Napalm => StoredSteps::Napalm(
                steps
                    .iter()
                    .map(|s| serde_json::from_str(s))
                    .collect::<Result<Vec<NapalmStep>, _>>()
                    .map_err(|e| bad("steps", e))?,
            ),
        };
        Ok(Some(StoredTable {
            settings,
            host_hash: hash_from(&host_hash),
            status,
            seats,
            names,
            steps,
        }))
    }
}
