//! The SQLite back end: one file (the default), in WAL mode with
//! `synchronous=NORMAL` and a busy timeout, all set explicitly.
//!
//! The write-ahead log is copied into the database file by a thread of its
//! own ([`Checkpointer`]), not by the commit that happens to fill it: a
//! checkpoint writes and syncs hundreds of pages, and every table waiting
//! on that commit would wait for it too. What the commit path still waits
//! for is the flush that lets the log start over (see [`BACKSTOP_BYTES`]):
//! under heavy load it sets the p99 (docs/hosting.md, "the machine, not the code").

use std::path::Path;
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Duration;

use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::{Connection, TransactionBehavior, params_from_iter};

use super::{Backend, Cell, DbError, Value, pending};

impl From<rusqlite::Error> for DbError {
    fn from(e: rusqlite::Error) -> DbError {
        DbError(e.to_string())
    }
}

/// The schema's migrations: `MIGRATIONS[k]` brings version `k` to `k + 1`.
/// Version 1 is the schema from before versioning, written so that a
/// database from then (version 0, its tables already there) is adopted
/// unchanged.
pub(super) const MIGRATIONS: &[&str] = &[
    "
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
",
    "
CREATE TABLE shares (
    share  TEXT PRIMARY KEY,
    invite TEXT NOT NULL UNIQUE
);
CREATE TABLE analyses (
    invite TEXT NOT NULL,
    seat   INTEGER NOT NULL,
    body   TEXT NOT NULL,
    PRIMARY KEY (invite, seat)
);
",
    "
-- A lobby's creator's address, which PostgreSQL's caps count (store/backend.rs,
-- create_counted); a server on SQLite counts in memory and leaves it empty.
ALTER TABLE tables ADD COLUMN address TEXT;
",
];

/// A SQLite database, owned by the database thread.
pub(super) struct Sqlite {
    conn: Connection,
    /// Checkpoints the log while the database is open (none in memory);
    /// held to be stopped when the database is closed.
    _checkpointer: Option<Checkpointer>,
}

/// The page cache of the committing connection, in KiB: some 6,800 pages
/// of 1 KiB, room for the leaves that thousands of tables append to (and
/// the tree above them), not for the whole file. A commit that splits a
/// leaf has SQLite scan the whole cache at its end (its page-number swap
/// parks a page at the lock page's number, far past the file's end, and
/// `pcache1TruncateUnsafe` then walks every slot): with 32 MiB that scan
/// was 6% of the server's time at 1,000 tables, and it grows with the
/// cache, not with the work.
const CACHE_KIB: i64 = 8 * 1024;

/// How often the checkpointer copies the log into the database file. A
/// table's leaf changes at each of its steps, several times in half a
/// second, and a pass copies it once (each copy a read of the log and a
/// write of the file): passes every 50 ms made 15% more writes, 50% more
/// reads and nine times the syncs at 1,000 tables (issue 53). When the log
/// reaches the backstop the committing connection still has at most half a
/// second of pages to copy.
const CHECKPOINT_EVERY: Duration = Duration::from_millis(500);

/// The page size of a new database file (an existing one keeps its own).
/// A step is some sixty bytes and each table appends to its own leaf of the
/// steps' tree, so every action rewrites a whole leaf into the log: SQLite's
/// default 4 KiB pages wrote about 10 KB per action, 1 KiB pages half that,
/// and a fuller log resets half as often.
const PAGE_SIZE: i64 = 1024;

/// The log's size, in bytes, at which the committing connection checkpoints
/// by itself. Under steady load the log never empties between the
/// checkpointer's passes (a commit lands during nearly every one), so this
/// backstop is what lets it start over: the commit that reaches it, and
/// every table queued behind it, waits for two flushes of the disk (10 to
/// 30 ms on this machine's). A larger log makes that wait rarer; an idle
/// server's log still starts over at once.
const BACKSTOP_BYTES: i64 = 64 << 20;

/// The log file's size kept on disk once it has been checkpointed: the
/// backstop's, so a busy log is not cut back and grown again each time.
const LOG_KEPT_BYTES: i64 = BACKSTOP_BYTES;

/// The thread that checkpoints the log (passive: it never blocks the
/// writer) through a connection of its own; it stops when dropped.
struct Checkpointer {
    stop: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Checkpointer {
    fn start(path: &Path) -> Result<Checkpointer, DbError> {
        let conn = Connection::open(path)?;
        conn.busy_timeout(Duration::from_secs(5))?;
        let (stop, stopped) = mpsc::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("tripoley-checkpoint".into())
            .spawn(move || {
                while let Err(mpsc::RecvTimeoutError::Timeout) =
                    stopped.recv_timeout(CHECKPOINT_EVERY)
                {
                    // A busy or failed checkpoint is tried again at the next
                    // tick; the backstop bounds the log meanwhile.
                    let _ = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()));
                }
            })
            .map_err(|e| DbError(format!("cannot start the checkpoint thread: {e}")))?;
        Ok(Checkpointer {
            stop: Some(stop),
            thread: Some(thread),
        })
    }
}

impl Drop for Checkpointer {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
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
        // Only a file not yet written takes the page size; it must come
        // before WAL mode, which writes the file's first page.
        conn.pragma_update(None, "page_size", PAGE_SIZE)?;
        let mode: String = conn.query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))?;
        if !mode.eq_ignore_ascii_case("wal") && !mode.eq_ignore_ascii_case("memory") {
            return Err(DbError(format!(
                "the database refused WAL mode (it is in {mode} mode)"
            )));
        }
        conn.execute_batch("PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;")?;
        // Every table appends to its own leaf of the steps' tree: with
        // SQLite's default 2 MiB cache, thousands of tables at once read
        // their leaves back from the file at each commit.
        conn.pragma_update(None, "cache_size", -CACHE_KIB)?;
        migrate(&mut conn)?;
        let checkpointer = if mode.eq_ignore_ascii_case("wal") {
            let page: i64 = conn.query_row("PRAGMA page_size", [], |r| r.get(0))?;
            conn.pragma_update(None, "wal_autocheckpoint", BACKSTOP_BYTES / page)?;
            // A log that a burst grew past the backstop is cut back to it
            // once checkpointed.
            conn.pragma_update(None, "journal_size_limit", LOG_KEPT_BYTES)?;
            Some(Checkpointer::start(path)?)
        } else {
            None
        };
        Ok(Sqlite {
            conn,
            _checkpointer: checkpointer,
        })
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

/// `sql` with SQLite's numbered parameters (`?1`) for the shared `$1`.
fn numbered(sql: &str) -> String {
    sql.replace('$', "?")
}

fn param<'a>(v: &Value<'a>) -> ToSqlOutput<'a> {
    ToSqlOutput::Borrowed(match *v {
        Value::Int(i) => ValueRef::Integer(i),
        Value::Text(s) => ValueRef::Text(s.as_bytes()),
        Value::Blob(b) => ValueRef::Blob(b),
    })
}

fn cell(v: ValueRef<'_>) -> Result<Cell, DbError> {
    Ok(match v {
        ValueRef::Null => Cell::Null,
        ValueRef::Integer(i) => Cell::Int(i),
        ValueRef::Text(t) => Cell::Text(
            String::from_utf8(t.to_vec()).map_err(|e| DbError(format!("stored text: {e}")))?,
        ),
        ValueRef::Blob(b) => Cell::Blob(b.to_vec()),
        ValueRef::Real(r) => {
            return Err(DbError(format!(
                "the database holds {r} where no fraction belongs"
            )));
        }
    })
}

impl Backend for Sqlite {
    fn batch(&mut self, sql: &str) -> Result<(), DbError> {
        Ok(self.conn.execute_batch(sql)?)
    }

    fn execute(&mut self, sql: &'static str, params: &[Value<'_>]) -> Result<u64, DbError> {
        let changed = self
            .conn
            .prepare_cached(&numbered(sql))?
            .execute(params_from_iter(params.iter().map(param)))?;
        Ok(changed as u64)
    }

    fn query(
        &mut self,
        sql: &'static str,
        params: &[Value<'_>],
    ) -> Result<Vec<Vec<Cell>>, DbError> {
        let mut q = self.conn.prepare_cached(&numbered(sql))?;
        let columns = q.column_count();
        let mut rows = q.query(params_from_iter(params.iter().map(param)))?;
        let mut all = Vec::new();
        while let Some(row) = rows.next()? {
            all.push(
                (0..columns)
                    .map(|i| cell(row.get_ref(i)?))
                    .collect::<Result<_, DbError>>()?,
            );
        }
        Ok(all)
    }

    fn commit(&mut self) -> Result<(), DbError> {
        // Some errors (a full disk, for one) roll the whole transaction back.
        if self.conn.is_autocommit() {
            return Err(DbError("the transaction was rolled back".into()));
        }
        self.batch("COMMIT")
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::{Backend, PAGE_SIZE, Sqlite};

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("tripoley-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        dir
    }

    fn page_size(db: &mut Sqlite) -> i64 {
        match db.query("PRAGMA page_size", &[]).unwrap()[0][0] {
            super::Cell::Int(size) => size,
            ref other => panic!("page_size answered {other:?}"),
        }
    }

    /// A new file takes the small pages that keep the log short; a file
    /// written before (SQLite's default 4 KiB pages) keeps its own, and its
    /// steps, and the backstop is counted in its pages.
    #[test]
    fn new_files_take_small_pages_and_old_files_keep_theirs() {
        let dir = scratch("pages");
        let new = dir.join("new.db");
        let mut db = Sqlite::open(&new).expect("opens");
        assert_eq!(page_size(&mut db), PAGE_SIZE);
        drop(db);

        let old = dir.join("old.db");
        let conn = rusqlite::Connection::open(&old).unwrap();
        conn.execute_batch("PRAGMA page_size=4096; CREATE TABLE kept (x TEXT); INSERT INTO kept VALUES ('a step');")
            .unwrap();
        drop(conn);
        let mut db = Sqlite::open(&old).expect("opens an older file");
        assert_eq!(page_size(&mut db), 4096);
        let backstop = db.query("PRAGMA wal_autocheckpoint", &[]).unwrap();
        assert_eq!(
            backstop[0][0],
            super::Cell::Int(super::BACKSTOP_BYTES / 4096)
        );
        let kept = db.query("SELECT x FROM kept", &[]).unwrap();
        assert_eq!(kept, vec![vec![super::Cell::Text("a step".into())]]);
        drop(db);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Committed pages reach the database file within moments, though the
    /// log holds far fewer than the committing connection's backstop: the
    /// checkpointer copied them, off the commit path.
    #[test]
    fn the_log_is_checkpointed_by_a_thread_of_its_own() {
        let dir = scratch("wal");
        let path = dir.join("t.db");
        let mut db = Sqlite::open(&path).expect("opens");
        db.batch("BEGIN; CREATE TABLE filler (x BLOB);").unwrap();
        for _ in 0..200 {
            db.batch("INSERT INTO filler VALUES (zeroblob(4000))")
                .unwrap();
        }
        db.commit().unwrap();
        let size = || std::fs::metadata(&path).map_or(0, |m| m.len());
        let start = Instant::now();
        while size() < 200 * 4000 && start.elapsed().as_secs() < 10 {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let checkpointed = size();
        drop(db);
        let _ = std::fs::remove_dir_all(&dir);
        assert!(
            checkpointed >= 200 * 4000,
            "the database file holds {checkpointed} bytes: the log was not checkpointed"
        );
    }
}
