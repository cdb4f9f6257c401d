//! Storage: each table's settings, seats and record steps in SQLite.
//!
//! Every applied step is appended here before its events go out, so a
//! restarted server (even after `kill -9`) rebuilds each table by replaying
//! its steps. The database runs in WAL mode with `synchronous=NORMAL` and a
//! busy timeout, all set explicitly.
//!
//! One thread owns the connection and commits in groups: it takes every
//! request waiting when it wakes, runs them all in one transaction, commits,
//! and only then answers each one. A table waits for that answer before its
//! step's effects go out, so thousands of tables acting at once cost one
//! commit per group, not one each, and nothing is reported stored that is
//! not committed.

use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, params};
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
}

/// A request to the database thread: given the connection in the group's
/// open transaction (or why the transaction could not begin), it runs its
/// statements and returns how to answer once the commit is known.
type Job = Box<dyn FnOnce(Result<&Connection, &str>) -> Answer + Send>;

/// Answers a request, given the commit's error if it failed.
type Answer = Box<dyn FnOnce(Option<&str>) + Send>;

/// Requests committed together at most.
const MAX_GROUP: usize = 1024;

/// The database thread: takes the waiting requests, runs them in one
/// transaction, commits, answers them; until every [`Store`] is dropped.
fn commit_groups(conn: &Connection, jobs: &mpsc::Receiver<Job>) {
    while let Ok(first) = jobs.recv() {
        let mut group = vec![first];
        while group.len() < MAX_GROUP {
            match jobs.try_recv() {
                Ok(job) => group.push(job),
                Err(_) => break,
            }
        }
        let begun = conn.execute_batch("BEGIN");
        let answers: Vec<Answer> = match &begun {
            Ok(()) => group.into_iter().map(|job| job(Ok(conn))).collect(),
            Err(e) => {
                let e = e.to_string();
                group.into_iter().map(|job| job(Err(&e))).collect()
            }
        };
        let failed = match begun {
            // Each request already holds the reason.
            Err(_) => None,
            // Some errors (a full disk, for one) roll the whole group back.
            Ok(()) if conn.is_autocommit() => Some("the transaction was rolled back".to_owned()),
            Ok(()) => conn.execute_batch("COMMIT").err().map(|e| {
                let _ = conn.execute_batch("ROLLBACK");
                e.to_string()
            }),
        };
        for answer in answers {
            answer(failed.as_deref());
        }
    }
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

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS tables (
    invite    TEXT PRIMARY KEY,
    created   INTEGER NOT NULL,
    settings  TEXT NOT NULL,
    host_hash BLOB NOT NULL,
    status    TEXT NOT NULL,
    names     TEXT
);
CREATE TABLE IF NOT EXISTS seats (
    invite     TEXT NOT NULL,
    seat       INTEGER NOT NULL,
    name       TEXT NOT NULL,
    token_hash BLOB NOT NULL,
    PRIMARY KEY (invite, seat)
);
CREATE TABLE IF NOT EXISTS steps (
    invite TEXT NOT NULL,
    idx    INTEGER NOT NULL,
    step   TEXT NOT NULL,
    PRIMARY KEY (invite, idx)
) WITHOUT ROWID;
";

fn hash_from(blob: &[u8]) -> TokenHash {
    let mut h = [0; 32];
    if blob.len() == 32 {
        h.copy_from_slice(blob);
    }
    h
}

/// Seconds since 1970, the `created` column's clock.
fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

impl Store {
    /// Opens (creating if needed) the database at `path`; `:memory:` keeps
    /// it in memory.
    pub fn open(path: &Path) -> Result<Store, ServerError> {
        let conn = Connection::open(path).map_err(|e| ServerError::Storage(e.to_string()))?;
        conn.busy_timeout(Duration::from_secs(5))
            .map_err(|e| ServerError::Storage(e.to_string()))?;
        // WAL survives `kill -9` with every committed transaction; NORMAL
        // syncs at checkpoints, which in WAL mode loses nothing committed
        // on a process crash (only, at worst, the last ones on power loss).
        let mode: String = conn
            .query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))
            .map_err(|e| ServerError::Storage(e.to_string()))?;
        if !mode.eq_ignore_ascii_case("wal") && !mode.eq_ignore_ascii_case("memory") {
            return Err(ServerError::Storage(format!(
                "the database refused WAL mode (it is in {mode} mode)"
            )));
        }
        conn.execute_batch("PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;")
            .map_err(|e| ServerError::Storage(e.to_string()))?;
        conn.execute_batch(SCHEMA)
            .map_err(|e| ServerError::Storage(e.to_string()))?;
        let (jobs, queue) = mpsc::channel();
        std::thread::Builder::new()
            .name("tripoley-store".into())
            .spawn(move || commit_groups(&conn, &queue))
            .map_err(|e| ServerError::Storage(format!("cannot start the database thread: {e}")))?;
        Ok(Store { jobs })
    }

    /// Runs `f` on the database thread in the next group; answers once the
    /// group is committed.
    async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> rusqlite::Result<T> + Send + 'static,
    ) -> Result<T, ServerError> {
        let stopped = || ServerError::Storage("the database thread stopped".into());
        let (tx, rx) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move |conn| {
            let result = match conn {
                Ok(c) => f(c).map_err(|e| ServerError::Storage(e.to_string())),
                Err(e) => Err(ServerError::Storage(e.to_owned())),
            };
            Box::new(move |failed: Option<&str>| {
                let answer = match failed {
                    Some(e) => Err(ServerError::Storage(format!("commit: {e}"))),
                    None => result,
                };
                let _ = tx.send(answer);
            })
        });
        self.jobs.send(job).map_err(|_| stopped())?;
        rx.await.map_err(|_| stopped())?
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
        self.run(move |c| {
            c.prepare_cached("INSERT INTO tables (invite, created, settings, host_hash, status) VALUES (?1, ?2, ?3, ?4, 'lobby')")?
                .execute(
                params![invite, created, settings, host_hash.as_slice()],
            )
            .map(drop)
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
        self.run(move |c| {
            c.prepare_cached(
                "INSERT INTO seats (invite, seat, name, token_hash) VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(params![invite, seat, name, hash.as_slice()])
            .map(drop)
        })
        .await
    }

    /// Frees a claimed seat (the host's doing): its token holds it no more.
    pub async fn free_seat(&self, invite: String, seat: u8) -> Result<(), ServerError> {
        self.run(move |c| {
            c.prepare_cached("DELETE FROM seats WHERE invite = ?1 AND seat = ?2")?
                .execute(params![invite, seat])
                .map(drop)
        })
        .await
    }

    /// Marks the game started with these names.
    pub async fn start(&self, invite: String, names: &[String]) -> Result<(), ServerError> {
        let names = serde_json::to_string(names).expect("names serialise");
        self.run(move |c| {
            c.prepare_cached("UPDATE tables SET status = 'playing', names = ?2 WHERE invite = ?1")?
                .execute(params![invite, names])
                .map(drop)
        })
        .await
    }

    /// Appends step `idx` (0 for the first) of a table's record.
    pub async fn append_step<S: Serialize>(
        &self,
        invite: String,
        idx: usize,
        step: &S,
    ) -> Result<(), ServerError> {
        let text = serde_json::to_string(step).expect("steps serialise");
        self.run(move |c| {
            c.prepare_cached("INSERT INTO steps (invite, idx, step) VALUES (?1, ?2, ?3)")?
                .execute(params![
                    invite,
                    i64::try_from(idx).unwrap_or(i64::MAX),
                    text
                ])
                .map(drop)
        })
        .await
    }

    /// Marks the game over.
    pub async fn finish(&self, invite: String) -> Result<(), ServerError> {
        self.run(move |c| {
            c.prepare_cached("UPDATE tables SET status = 'finished' WHERE invite = ?1")?
                .execute(params![invite])
                .map(drop)
        })
        .await
    }

    /// Removes a table: its settings, seats and steps (an expired table).
    pub async fn forget(&self, invite: String) -> Result<(), ServerError> {
        self.run(move |c| {
            for sql in [
                "DELETE FROM steps WHERE invite = ?1",
                "DELETE FROM seats WHERE invite = ?1",
                "DELETE FROM tables WHERE invite = ?1",
            ] {
                c.prepare_cached(sql)?.execute(params![invite])?;
            }
            Ok(())
        })
        .await
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
        self.run(move |c| {
            let old = "SELECT invite FROM tables WHERE (status = 'finished' AND created < ?1) \
                       OR (status = 'lobby' AND created < ?2)";
            for sql in [
                format!("DELETE FROM steps WHERE invite IN ({old})"),
                format!("DELETE FROM seats WHERE invite IN ({old})"),
            ] {
                c.prepare_cached(&sql)?.execute(params![finished, lobby])?;
            }
            c.prepare_cached(&format!("DELETE FROM tables WHERE invite IN ({old})"))?
                .execute(params![finished, lobby])
        })
        .await
    }

    /// Sets a table aside that may not run (its stored rules are no longer
    /// allowed, or its steps no longer replay): kept for its owner to look
    /// at, never loaded again.
    pub(crate) async fn refuse(&self, invite: String) -> Result<(), ServerError> {
        self.run(move |c| {
            c.prepare_cached("UPDATE tables SET status = 'refused' WHERE invite = ?1")?
                .execute(params![invite])
                .map(drop)
        })
        .await
    }

    /// Invites of the games in progress, to resume at startup.
    pub async fn playing(&self) -> Result<Vec<String>, ServerError> {
        self.invites_in("playing").await
    }

    /// Invites of the tables waiting for players, to list the public ones
    /// again at startup.
    pub async fn lobbies(&self) -> Result<Vec<String>, ServerError> {
        self.invites_in("lobby").await
    }

    /// Invites of the tables with this status.
    async fn invites_in(&self, status: &'static str) -> Result<Vec<String>, ServerError> {
        self.run(move |c| {
            let mut q = c.prepare_cached("SELECT invite FROM tables WHERE status = ?1")?;
            let rows = q.query_map(params![status], |r| r.get::<_, String>(0))?;
            rows.collect()
        })
        .await
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
        let loaded = self
            .run(move |c| {
                let row = c
                    .query_row(
                        "SELECT settings, host_hash, status, names FROM tables \
                         WHERE invite = ?1 AND status != 'refused'",
                        params![invite],
                        |r| {
                            Ok((
                                r.get::<_, String>(0)?,
                                r.get::<_, Vec<u8>>(1)?,
                                r.get::<_, String>(2)?,
                                r.get::<_, Option<String>>(3)?,
                            ))
                        },
                    )
                    .optional()?;
                let Some(row) = row else { return Ok(None) };
                let seats = {
                    let mut q = c.prepare(
                        "SELECT seat, name, token_hash FROM seats WHERE invite = ?1 ORDER BY seat",
                    )?;
                    q.query_map(params![invite], |r| {
                        Ok((
                            r.get::<_, u8>(0)?,
                            r.get::<_, String>(1)?,
                            hash_from(&r.get::<_, Vec<u8>>(2)?),
                        ))
                    })?
                    .collect::<rusqlite::Result<Vec<_>>>()?
                };
                let steps = {
                    let mut q =
                        c.prepare("SELECT step FROM steps WHERE invite = ?1 ORDER BY idx")?;
                    q.query_map(params![invite], |r| r.get::<_, String>(0))?
                        .collect::<rusqlite::Result<Vec<_>>>()?
                };
                Ok(Some((row, seats, steps)))
            })
            .await?;
        let Some(((settings, host_hash, status, names), seats, steps)) = loaded else {
            return Ok(None);
        };
        let bad = |what: &str, e: serde_json::Error| ServerError::Storage(format!("{what}: {e}"));
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
