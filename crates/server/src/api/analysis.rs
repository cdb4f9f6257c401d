//! `GET /api/tables/{invite}/analysis[?seat=N]` (and
//! `GET /api/replays/{share}/analysis[?seat=N]`, by the game's share id):
//! the expert's verdict on every decision of a finished game of this
//! server's tables (`tripoley-analysis`), as JSON; and
//! `POST /api/replays/analysis[?seat=N]`, the same for a record file sent
//! in the body.
//!
//! The work is long (seconds of a core) and asked for from outside, so it
//! is bounded everywhere: one analysis runs at a time on the blocking pool
//! (live tables keep the other cores and the runtime), a few wait in a
//! queue and more are refused as busy; one table has at most
//! [`PER_TABLE`] analyses queued or running (askers of the same one share
//! it), one address waits for at most [`PER_ADDRESS`]. The request waits
//! for the result; when every asker of an analysis has gone (closed the
//! connection), it is cancelled between two decisions. Results are kept
//! with the game in the store (the game is finished: they never change),
//! so a restarted server answers from there without searching again, and
//! cached in memory, the oldest dropped first.
//!
//! Uploaded records cannot crowd out the server's own games (issue 49): an
//! upload has at most [`UPLOAD_STEPS`] steps and [`UPLOAD_TIME`] of the
//! expert's time (a game of this server [`GAME_TIME`]), uploads hold at
//! most [`UPLOADS`] places of the queue, and the one slot goes to a
//! finished game of this server's first (an upload's analysis running
//! gives it up, answered `busy`, when one waits), then to the waiting
//! address served least lately ([`Turns`]), so no address holds it twice
//! in a row while another waits.
//!
//! An uploaded record is not stored: it is read, analysed and forgotten
//! (keeping it would let anyone fill the disk with files nobody asks for
//! again). Its analysis is cached in memory only, by the SHA-256 of the
//! record as read (so the same game asked again, or from another viewer,
//! costs nothing), and one file counts as one "table" in the budgets.

use std::collections::{HashMap, VecDeque};
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::RequestBody;
use axum::body::Bytes;
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use sha2::{Digest, Sha256};
use tokio::sync::{oneshot, watch};
use tripoley_analysis::{AnalysisError, Options};
use tripoley_engine::{RECORD_VERSION, Record, Seat};

use crate::App;
use crate::api::budget::{PerAddress, Slot};
use crate::api::refuse;
use crate::api::replay::Replayed;
use crate::protocol::{ErrorBody, ErrorCode, RecordProblem};
use crate::store::StoredSteps;

/// Analyses queued or running for one table.
pub const PER_TABLE: usize = 2;
/// Analyses one address may wait for at once.
pub const PER_ADDRESS: usize = 2;
/// Analyses queued or running on the whole server.
pub const QUEUE: usize = 8;
/// Analyses kept in memory.
pub const CACHED: usize = 64;
/// Analyses of uploaded records queued or running: the rest of the queue
/// is kept for the server's own games.
pub const UPLOADS: usize = QUEUE / 2;
/// The most steps of an uploaded record analysed (a long evening's game
/// has about 2,000).
pub const UPLOAD_STEPS: usize = 5_000;
/// The expert's time for one uploaded record's analysis.
pub const UPLOAD_TIME: Duration = Duration::from_secs(20);
/// The expert's time for one game of this server's.
pub const GAME_TIME: Duration = Duration::from_secs(120);

/// Whose game: a table of this server (its invite) or an uploaded record
/// (its hash).
#[derive(Clone, PartialEq, Eq, Hash)]
enum Game {
    Table(String),
    File([u8; 32]),
}

/// Which analysis: a game and whose decisions.
type Key = (Game, Option<Seat>);
/// A finished analysis (its JSON text) or why there is none.
type Outcome = Result<Bytes, ErrorBody>;

/// The analyses: cached, running, and who waits for what.
pub(crate) struct Analyst {
    app: Arc<App>,
    /// One analysis at a time, taken in turns.
    turns: Arc<Turns>,
    state: Mutex<Book>,
    addresses: Arc<PerAddress>,
}

#[derive(Default)]
struct Book {
    cache: HashMap<Key, Bytes>,
    /// Cached keys, oldest first.
    order: VecDeque<Key>,
    jobs: HashMap<Key, Job>,
}

/// An analysis queued or running: how many wait for it, and its outcome.
#[derive(Clone)]
struct Job {
    waiters: Arc<AtomicUsize>,
    done: watch::Receiver<Option<Outcome>>,
}

/// The routes' state: the app, an empty cache and fresh budgets.
pub(super) fn state(app: Arc<App>) -> Arc<Analyst> {
    Arc::new(Analyst {
        app,
        turns: Arc::default(),
        state: Mutex::new(Book::default()),
        addresses: PerAddress::new(PER_ADDRESS),
    })
}

#[derive(Deserialize)]
pub(super) struct Query1 {
    seat: Option<Seat>,
}

fn json(body: Bytes) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}

fn busy(why: &str) -> Response {
    refuse(ErrorCode::Busy, StatusCode::SERVICE_UNAVAILABLE, why)
}

/// Counts a waiter (of an address, of a job) for as long as it lives.
struct Waiting {
    _slot: Slot,
    job: Option<Arc<AtomicUsize>>,
}

impl Drop for Waiting {
    fn drop(&mut self) {
        if let Some(w) = &self.job {
            w.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

pub(super) async fn by_invite(
    State(analyst): State<Arc<Analyst>>,
    Path(invite): Path<String>,
    Query(q): Query<Query1>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
) -> Response {
    analysis(analyst, (Game::Table(invite), q.seat), client, None).await
}

pub(super) async fn by_share(
    State(analyst): State<Arc<Analyst>>,
    Path(share): Path<String>,
    Query(q): Query<Query1>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
) -> Response {
    match crate::api::replay::shared(&analyst.app, &share).await {
        Ok(invite) => analysis(analyst, (Game::Table(invite), q.seat), client, None).await,
        Err((status, e)) => (status, axum::Json(e)).into_response(),
    }
}

/// `POST /api/replays/analysis`: a record file's analysis, the file read
/// as an uploaded replay is (refused in the same words).
pub(super) async fn uploaded(
    State(analyst): State<Arc<Analyst>>,
    Query(q): Query<Query1>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    headers: axum::http::HeaderMap,
    RequestBody(body): RequestBody,
) -> Response {
    if let Err(e) = crate::api::json_request(&analyst.app, &headers) {
        return e.into_response();
    }
    // Reading the file is work too: within the address's budget.
    let Some(slot) = analyst.addresses.take(client.ip()) else {
        return busy(WAITING);
    };
    let record = match crate::api::replay::read_upload(&body) {
        Ok(Replayed::Tripoley(r)) => r,
        Ok(Replayed::Napalm(_)) => {
            let why = AnalysisError::Napalm.to_string();
            return crate::api::replay::refused_file(RecordProblem::Napalm, why);
        }
        Err((problem, why)) => return crate::api::replay::refused_file(problem, why),
    };
    if record.steps.len() > UPLOAD_STEPS {
        let why = format!(
            "this record has {} steps: the server analyses uploaded records of at most \
             {UPLOAD_STEPS}",
            record.steps.len()
        );
        return crate::api::replay::refused_file(RecordProblem::TooLongToAnalyse, why);
    }
    // The record as read, not the bytes sent: the same game with other
    // spaces is the same analysis.
    let read = serde_json::to_vec(&record).expect("a record serialises");
    let hash = Sha256::digest(&read).into();
    let file = Upload { record, slot };
    analysis(analyst, (Game::File(hash), q.seat), client, Some(file)).await
}

/// An uploaded record, read within its asker's budget.
struct Upload {
    record: Record,
    slot: Slot,
}

const WAITING: &str = "you are already waiting for analyses: ask again when they are done";

/// The analysis `key` (of `file`, if it is an uploaded record): cached,
/// kept, or searched within the budgets while the asker waits.
async fn analysis(
    analyst: Arc<Analyst>,
    key: Key,
    client: SocketAddr,
    file: Option<Upload>,
) -> Response {
    let (slot, file) = match file {
        Some(Upload { record, slot }) => (Some(slot), Some(record)),
        None => (None, None),
    };
    let mut waiting = {
        let book = analyst.state.lock().expect("the analysis book");
        if let Some(done) = book.cache.get(&key) {
            return json(done.clone());
        }
        let Some(slot) = slot.or_else(|| analyst.addresses.take(client.ip())) else {
            return busy(WAITING);
        };
        Waiting {
            _slot: slot,
            job: None,
        }
    };
    let kept = match &key.0 {
        Game::Table(invite) => analyst.app.store.analysis(invite.clone(), key.1).await,
        Game::File(_) => Ok(None),
    };
    match kept {
        Ok(Some(kept)) => {
            let kept = Bytes::from(kept);
            remember(&analyst, key, kept.clone());
            return json(kept);
        }
        Ok(None) => {}
        Err(e) => {
            return refuse(
                ErrorCode::Storage,
                StatusCode::SERVICE_UNAVAILABLE,
                &e.to_string(),
            );
        }
    }
    let job = match job(&analyst, &key, client.ip(), file).await {
        Ok(job) => job,
        Err(refused) => return refused,
    };
    waiting.job = Some(Arc::clone(&job.waiters));
    let mut done = job.done;
    let outcome = match done.wait_for(Option::is_some).await {
        Ok(o) => o.clone().expect("waited for it"),
        Err(_) => Err(ErrorBody::new(ErrorCode::Busy, "the analysis stopped")),
    };
    drop(waiting);
    match outcome {
        Ok(body) => json(body),
        Err(e) => {
            let status = match e.code {
                ErrorCode::NoTable => StatusCode::NOT_FOUND,
                ErrorCode::Busy | ErrorCode::Storage => StatusCode::SERVICE_UNAVAILABLE,
                ErrorCode::NotStarted => StatusCode::CONFLICT,
                _ => StatusCode::BAD_REQUEST,
            };
            (status, axum::Json(e)).into_response()
        }
    }
}

/// Caches a finished analysis in memory, the oldest dropped first.
fn remember(analyst: &Analyst, key: Key, body: Bytes) {
    let mut book = analyst.state.lock().expect("the analysis book");
    if book.cache.insert(key.clone(), body).is_none() {
        book.order.push_back(key);
    }
    while book.order.len() > CACHED {
        let old = book.order.pop_front().expect("over the bound");
        book.cache.remove(&old);
    }
}

/// The job computing `key`, with the asker counted among its waiters: the
/// one already queued or running, or a new one if the budgets allow.
async fn job(
    analyst: &Arc<Analyst>,
    key: &Key,
    from: IpAddr,
    file: Option<Record>,
) -> Result<Job, Response> {
    {
        let book = analyst.state.lock().expect("the analysis book");
        if let Some(job) = book.jobs.get(key) {
            job.waiters.fetch_add(1, Ordering::SeqCst);
            return Ok(job.clone());
        }
        let uploads = book
            .jobs
            .keys()
            .filter(|(g, _)| matches!(g, Game::File(_)))
            .count();
        let file = matches!(key.0, Game::File(_));
        if book.jobs.len() >= QUEUE || (file && uploads >= UPLOADS) {
            return Err(busy(
                "the server is busy analysing games: ask again in a moment",
            ));
        }
        if book.jobs.keys().filter(|(t, _)| *t == key.0).count() >= PER_TABLE {
            return Err(busy(
                "this game is being analysed: ask again when it is done",
            ));
        }
    }
    let record = match (&key.0, file) {
        (_, Some(record)) => record,
        (Game::Table(invite), None) => load(&analyst.app, invite)
            .await
            .map_err(|(status, e)| (status, axum::Json(e)).into_response())?,
        (Game::File(_), None) => unreachable!("a file's analysis is asked with its record"),
    };
    let (tx, rx) = watch::channel(None);
    let job = Job {
        waiters: Arc::new(AtomicUsize::new(1)),
        done: rx,
    };
    {
        let mut book = analyst.state.lock().expect("the analysis book");
        if let Some(other) = book.jobs.get(key) {
            // Another asker started it while the record was read.
            other.waiters.fetch_add(1, Ordering::SeqCst);
            return Ok(other.clone());
        }
        book.jobs.insert(key.clone(), job.clone());
    }
    tokio::spawn(run(
        Arc::clone(analyst),
        key.clone(),
        from,
        record,
        job.waiters.clone(),
        tx,
    ));
    Ok(job)
}

/// Waits for its turn, analyses (unless nobody waits any more), caches and
/// tells the waiters.
async fn run(
    analyst: Arc<Analyst>,
    key: Key,
    from: IpAddr,
    record: Record,
    waiters: Arc<AtomicUsize>,
    tx: watch::Sender<Option<Outcome>>,
) {
    let game = matches!(key.0, Game::Table(_));
    let permit = analyst.turns.wait(game, from).await;
    let options = Options {
        seat: key.1,
        ..Options::default()
    };
    let watching = Arc::clone(&waiters);
    let time = if game { GAME_TIME } else { UPLOAD_TIME };
    let began = Instant::now();
    let timed_out = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let late = Arc::clone(&timed_out);
    let turns = Arc::clone(&analyst.turns);
    let yielded = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let gave_way = Arc::clone(&yielded);
    let work = tokio::task::spawn_blocking(move || {
        tripoley_analysis::analyse(&record, &options, &mut |_, _| {
            if began.elapsed() > time {
                late.store(true, Ordering::SeqCst);
                return false;
            }
            // An upload gives the slot up to a game of this server's.
            if !game && turns.games_waiting.load(Ordering::SeqCst) > 0 {
                gave_way.store(true, Ordering::SeqCst);
                return false;
            }
            watching.load(Ordering::SeqCst) > 0
        })
    });
    let outcome: Outcome = match work.await {
        Ok(Ok(a)) => Ok(Bytes::from(
            serde_json::to_vec(&a).expect("an analysis serialises"),
        )),
        Ok(Err(AnalysisError::Cancelled)) if timed_out.load(Ordering::SeqCst) => {
            Err(ErrorBody::new(
                ErrorCode::Busy,
                format!(
                    "this game takes the expert more than the {} s the server gives an \
                     analysis: analyse it on your own device",
                    time.as_secs()
                ),
            ))
        }
        Ok(Err(AnalysisError::Cancelled)) if yielded.load(Ordering::SeqCst) => Err(ErrorBody::new(
            ErrorCode::Busy,
            "the server is analysing a game of its own players: ask again in a moment",
        )),
        Ok(Err(AnalysisError::Cancelled)) => Err(ErrorBody::new(
            ErrorCode::Busy,
            "the analysis was cancelled: nobody was waiting for it",
        )),
        Ok(Err(e)) => Err(ErrorBody::new(ErrorCode::Invalid, e.to_string())),
        Err(_) => Err(ErrorBody::new(ErrorCode::Busy, "the analysis failed")),
    };
    drop(permit);
    if let Ok(json) = &outcome {
        // Kept with a table's game; if the store fails, the memory cache
        // still answers until this server stops.
        if let Game::Table(invite) = &key.0 {
            let text = String::from_utf8_lossy(json).into_owned();
            if let Err(e) = analyst
                .app
                .store
                .keep_analysis(invite.clone(), key.1, text)
                .await
            {
                eprintln!("tripoley serve: the analysis of {invite} is not kept: {e}");
            }
        }
        remember(&analyst, key.clone(), json.clone());
    }
    analyst
        .state
        .lock()
        .expect("the analysis book")
        .jobs
        .remove(&key);
    let _ = tx.send(Some(outcome));
}

/// The one analysis slot, given in turns: to a game of this server's
/// before any upload, then to the waiting address served least lately
/// (ties: the first to ask), so a few addresses' uploads cannot keep it
/// between them while another address waits (issue 49).
#[derive(Default)]
struct Turns {
    state: Mutex<TurnState>,
    /// Games of this server's waiting: an upload's analysis running gives
    /// the slot up to them at its next decision.
    games_waiting: AtomicUsize,
}

#[derive(Default)]
struct TurnState {
    busy: bool,
    /// Turns given so far: the clock of `served`.
    given: u64,
    /// When each address waiting was last given a turn.
    served: HashMap<IpAddr, u64>,
    waiting: Vec<Waiter>,
}

struct Waiter {
    game: bool,
    from: IpAddr,
    go: oneshot::Sender<()>,
}

/// The slot, while held; given to the next waiter on drop.
struct Turn {
    turns: Arc<Turns>,
}

impl Turns {
    /// Waits for the slot: `game` for a game of this server's.
    async fn wait(self: &Arc<Self>, game: bool, from: IpAddr) -> Turn {
        let go = {
            let mut state = self.state.lock().expect("the turns");
            if state.busy {
                let (go, ready) = oneshot::channel();
                state.waiting.push(Waiter { game, from, go });
                if game {
                    self.games_waiting.fetch_add(1, Ordering::SeqCst);
                }
                Some(ready)
            } else {
                state.busy = true;
                state.give(from);
                None
            }
        };
        if let Some(ready) = go {
            // The sender is dropped only with the `Turns` themselves.
            let _ = ready.await;
        }
        Turn {
            turns: Arc::clone(self),
        }
    }
}

impl TurnState {
    fn give(&mut self, to: IpAddr) {
        self.given += 1;
        self.served.insert(to, self.given);
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        let mut state = self.turns.state.lock().expect("the turns");
        loop {
            let next = (0..state.waiting.len()).min_by_key(|&i| {
                let w = &state.waiting[i];
                (!w.game, state.served.get(&w.from).copied().unwrap_or(0), i)
            });
            let Some(next) = next else {
                state.busy = false;
                break;
            };
            let w = state.waiting.remove(next);
            if w.game {
                self.turns.games_waiting.fetch_sub(1, Ordering::SeqCst);
            }
            if w.go.send(()).is_ok() {
                state.give(w.from);
                break;
            }
        }
        // Only the last turns are remembered: the map stays small.
        let recent = state.given.saturating_sub(64);
        state.served.retain(|_, at| *at > recent);
    }
}

/// The record of a finished Tripoley game of this server, from storage.
pub(crate) async fn load(app: &App, invite: &str) -> Result<Record, (StatusCode, ErrorBody)> {
    let stored = crate::api::replay::finished(app, invite).await?;
    let StoredSteps::Tripoley(steps) = stored.steps else {
        return Err((
            StatusCode::BAD_REQUEST,
            ErrorBody::new(ErrorCode::Invalid, AnalysisError::Napalm.to_string()),
        ));
    };
    Ok(Record {
        version: RECORD_VERSION,
        rules: stored.settings.rules,
        names: stored.names.unwrap_or_default(),
        steps,
    })
}
