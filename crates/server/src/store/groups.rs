//! The database thread: it commits requests in groups, rides out a
//! database out of reach, and answers each request once its group is
//! committed (see the module `store`).

use std::sync::mpsc;
use std::time::Duration;

use crate::ServerError;

use super::{Backend, DbError, Value, unix_now};

/// A request to the database thread.
pub(super) type Job = Box<dyn Request>;

/// A request: its statements, and how to answer it.
pub(super) trait Request: Send {
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
pub(super) struct Pending<T, F> {
    pub(super) statements: F,
    pub(super) locks: Option<String>,
    pub(super) result: Option<Result<T, ServerError>>,
    pub(super) reply: tokio::sync::oneshot::Sender<Result<T, ServerError>>,
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
pub(super) struct Failure {
    pub(super) why: String,
    pub(super) in_doubt: bool,
}

/// The database thread: takes the waiting requests, runs them in one
/// transaction, commits, answers them; until every [`Store`] is dropped.
pub(super) fn commit_groups(db: &mut dyn Backend, jobs: &mpsc::Receiver<Job>) {
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
/// First without savepoints (each costs PostgreSQL a round trip), its
/// steps and fence checks pipelined (sent without waiting for the answers
/// before them: a round trip each was PostgreSQL's limit, issue 53); if the
/// database refuses a request, the transaction is rolled back and the
/// group run again with each request in a savepoint of its own, so that
/// the refused one fails alone and leaves nothing (PostgreSQL aborts the
/// whole transaction at a failed statement; a request of several
/// statements may fail halfway). A failure means nothing was stored, but
/// one in doubt.
pub(super) fn run_group(
    db: &mut dyn Backend,
    group: &mut [Job],
    mark: &str,
) -> Result<(), Failure> {
    let plain = |e: DbError| Failure {
        why: e.0,
        in_doubt: false,
    };
    begin_group(db, group).map_err(plain)?;
    db.pipeline(true).map_err(plain)?;
    let ran = group.iter_mut().all(|request| request.run(db));
    // A statement sent ahead that was refused fails the pass as a request
    // refused at once does (a lost connection then fails the rollback).
    let answered = db.pipeline(false);
    if !ran || answered.is_err() {
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
