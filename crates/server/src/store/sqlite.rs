//! The SQLite back end: one file (the default), in WAL mode with
//! `synchronous=NORMAL` and a busy timeout, all set explicitly.

use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};

use super::{Backend, DbError, Row, pending};

impl From<rusqlite::Error> for DbError {
    fn from(e: rusqlite::Error) -> DbError {
        DbError(e.to_string())
    }
}

/// The schema's migrations: `MIGRATIONS[k]` brings version `k` to `k + 1`.
/// Version 1 is the schema from before versioning, written so that a
/// database from then (version 0, its tables already there) is adopted
/// unchanged.
pub(super) const MIGRATIONS: &[&str] = &["
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
"];

/// A SQLite database, owned by the database thread.
pub(super) struct Sqlite {
    conn: Connection,
}

impl Sqlite {
    /// Opens (creating if needed) the database at `path`, and brings its
    /// schema up to date; `:memory:` keeps it in memory.
    pub(super) fn open(path: &Path) -> Result<Sqlite, DbError> {
        let mut conn = Connection::open(path)?;
        conn.busy_timeout(Duration::from_secs(5))?;
        // WAL survives `kill -9` with every committed transaction; NORMAL
        // syncs at checkpoints, which in WAL mode loses nothing committed
        // on a process crash (only, at worst, the last ones on power loss).
        let mode: String = conn.query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))?;
        if !mode.eq_ignore_ascii_case("wal") && !mode.eq_ignore_ascii_case("memory") {
            return Err(DbError(format!(
                "the database refused WAL mode (it is in {mode} mode)"
            )));
        }
        conn.execute_batch("PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;")?;
        migrate(&mut conn)?;
        Ok(Sqlite { conn })
    }
}

/// Runs the migrations this database lacks, in one transaction that holds
/// the write lock from its start (two servers opening one file at once
/// migrate it once).
fn migrate(conn: &mut Connection) -> Result<(), DbError> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    tx.execute_batch("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")?;
    let version: Option<i64> =
        tx.query_row("SELECT max(version) FROM schema_version", [], |r| r.get(0))?;
    let mut reached = None;
    for (to, sql) in pending(version.unwrap_or(0), MIGRATIONS)? {
        tx.execute_batch(sql)
            .map_err(|e| DbError(format!("migrating the schema to version {to}: {e}")))?;
        reached = Some(to);
    }
    if let Some(to) = reached {
        tx.execute("DELETE FROM schema_version", [])?;
        tx.execute("INSERT INTO schema_version (version) VALUES (?1)", [to])?;
    }
    tx.commit()?;
    Ok(())
}

impl Backend for Sqlite {
    fn batch(&mut self, sql: &str) -> Result<(), DbError> {
        Ok(self.conn.execute_batch(sql)?)
    }

    fn commit(&mut self) -> Result<(), DbError> {
        // Some errors (a full disk, for one) roll the whole transaction back.
        if self.conn.is_autocommit() {
            return Err(DbError("the transaction was rolled back".into()));
        }
        self.batch("COMMIT")
    }

    fn create_table(
        &mut self,
        invite: &str,
        created: i64,
        settings: &str,
        host_hash: &[u8],
    ) -> Result<(), DbError> {
        self.conn
            .prepare_cached(
                "INSERT INTO tables (invite, created, settings, host_hash, status) \
                 VALUES (?1, ?2, ?3, ?4, 'lobby')",
            )?
            .execute(params![invite, created, settings, host_hash])?;
        Ok(())
    }

    fn sit(&mut self, invite: &str, seat: u8, name: &str, hash: &[u8]) -> Result<(), DbError> {
        self.conn
            .prepare_cached(
                "INSERT INTO seats (invite, seat, name, token_hash) VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(params![invite, seat, name, hash])?;
        Ok(())
    }

    fn start(&mut self, invite: &str, names: &str) -> Result<(), DbError> {
        self.conn
            .prepare_cached("UPDATE tables SET status = 'playing', names = ?2 WHERE invite = ?1")?
            .execute(params![invite, names])?;
        Ok(())
    }

    fn append_step(&mut self, invite: &str, idx: i64, step: &str) -> Result<(), DbError> {
        self.conn
            .prepare_cached("INSERT INTO steps (invite, idx, step) VALUES (?1, ?2, ?3)")?
            .execute(params![invite, idx, step])?;
        Ok(())
    }

    fn set_status(&mut self, invite: &str, status: &str) -> Result<(), DbError> {
        self.conn
            .prepare_cached("UPDATE tables SET status = ?2 WHERE invite = ?1")?
            .execute(params![invite, status])?;
        Ok(())
    }

    fn forget(&mut self, invite: &str) -> Result<(), DbError> {
        for sql in [
            "DELETE FROM steps WHERE invite = ?1",
            "DELETE FROM seats WHERE invite = ?1",
            "DELETE FROM tables WHERE invite = ?1",
        ] {
            self.conn.prepare_cached(sql)?.execute(params![invite])?;
        }
        Ok(())
    }

    fn forget_old(&mut self, finished_before: i64, lobby_before: i64) -> Result<usize, DbError> {
        let old = "SELECT invite FROM tables WHERE (status = 'finished' AND created < ?1) \
                   OR (status = 'lobby' AND created < ?2)";
        for sql in [
            format!("DELETE FROM steps WHERE invite IN ({old})"),
            format!("DELETE FROM seats WHERE invite IN ({old})"),
        ] {
            self.conn
                .prepare_cached(&sql)?
                .execute(params![finished_before, lobby_before])?;
        }
        Ok(self
            .conn
            .prepare_cached(&format!("DELETE FROM tables WHERE invite IN ({old})"))?
            .execute(params![finished_before, lobby_before])?)
    }

    fn playing(&mut self) -> Result<Vec<String>, DbError> {
        let mut q = self
            .conn
            .prepare_cached("SELECT invite FROM tables WHERE status = 'playing'")?;
        let rows = q.query_map([], |r| r.get::<_, String>(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn load(&mut self, invite: &str) -> Result<Option<Row>, DbError> {
        let c = &self.conn;
        let row = c
            .prepare_cached(
                "SELECT settings, host_hash, status, names FROM tables \
                 WHERE invite = ?1 AND status != 'refused'",
            )?
            .query_row(params![invite], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
            })
            .optional()?;
        let Some((settings, host_hash, status, names)) = row else {
            return Ok(None);
        };
        let seats = c
            .prepare_cached(
                "SELECT seat, name, token_hash FROM seats WHERE invite = ?1 ORDER BY seat",
            )?
            .query_map(params![invite], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
            .collect::<rusqlite::Result<_>>()?;
        let steps = c
            .prepare_cached("SELECT step FROM steps WHERE invite = ?1 ORDER BY idx")?
            .query_map(params![invite], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        Ok(Some(Row {
            settings,
            host_hash,
            status,
            names,
            seats,
            steps,
        }))
    }
}
