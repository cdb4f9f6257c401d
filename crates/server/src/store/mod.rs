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

mod backend;
mod database;
mod groups;
mod postgres;
#[cfg(test)]
pub(crate) mod relay;
mod sqlite;
#[cfg(test)]
pub(crate) mod testpg;
#[cfg(test)]
pub(crate) mod tests;

pub(crate) use postgres::Bounds;

pub(crate) use backend::{Backend, Cell, DbError, Row, Value, pending};
pub use database::Database;
pub(crate) use groups::IN_DOUBT;
use groups::{Job, Pending, commit_groups};
#[cfg(test)]
use {
    database::without_password,
    groups::{Failure, Request, run_group},
};

use std::sync::{Arc, mpsc};
use std::time::Duration;

use serde::Serialize;
use tripoley_engine::Step;
use tripoley_napalm::NapalmStep;

use crate::ServerError;
use crate::protocol::{GameKind, TableSettings, TableStatus};

/// A token's SHA-256 digest: all the server keeps of a secret.
pub(crate) type TokenHash = [u8; 32];

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
