//! A finished game's frames, for the browser's replay viewer:
//! `GET /api/tables/{invite}/replay[?seat=N]` (a table's players),
//! `POST /api/tables/{invite}/share` (its share id, made by a player or the
//! host), `GET /api/tables/{invite}/share` (the link, once made) and
//! `GET /api/replays/{share}[?seat=N]` (anyone with the link, the page
//! being `/replay/{share}`), and `POST /api/replays[?seat=N]` (a record file
//! uploaded: its frames, nothing stored). Napalm games (a table's or a
//! file) replay the same way, their frames being what a Napalm table sends.
//!
//! The game is rebuilt from storage and each entry of its event log (the
//! live table's, held parts of a run's stop included, so `n` is the event
//! number the live table sent) becomes one `update` frame, as a returning
//! connection is sent them: the events that viewer may see and its view
//! after them. With a seat, exactly what that seat saw; without one, a
//! spectator's frames with every hand face up (the game is over: nothing is
//! hidden any more). Only finished games: before the end this would tell
//! anyone every hand, so a share id is made only for a finished game.
//!
//! Building frames costs a core for a moment, so it is bounded like the
//! analysis: [`RUNNING`] at a time on the blocking pool, [`QUEUE`] in
//! progress on the server, [`PER_ADDRESS`] for one address; more are
//! refused as busy.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::Semaphore;
use tripoley_analysis::{AnalysisError, MAX_RECORD_BYTES};
use tripoley_engine::{Event, Game, RECORD_VERSION, Record, Seat, View};
use tripoley_napalm::{NapalmGame, NapalmRecord, NapalmStep};

use crate::App;
use crate::analysis::refuse;
use crate::auth::{hash_token, same_hash};
use crate::budget::{PerAddress, Slot};
use crate::protocol::{
    Detail, ErrorBody, ErrorCode, PROTOCOL_VERSION, RecordProblem, StartRequest,
};
use crate::store::StoredSteps;
use crate::table::hold;

/// The largest answer: a long game's frames are a few hundred kilobytes.
pub const MAX_BYTES: usize = 4 << 20;
/// Replays built at once.
pub const RUNNING: usize = 2;
/// Replays in progress (built or waiting) on the server.
pub const QUEUE: usize = 8;
/// Replays one address may have in progress at once.
pub const PER_ADDRESS: usize = 2;

/// The routes' state: the app and the budgets.
pub(crate) struct Replays {
    app: Arc<App>,
    running: Semaphore,
    queue: Arc<Semaphore>,
    addresses: Arc<PerAddress>,
}

pub(crate) fn router(app: Arc<App>) -> Router {
    let replays = Arc::new(Replays {
        app,
        running: Semaphore::new(RUNNING),
        queue: Arc::new(Semaphore::new(QUEUE)),
        addresses: PerAddress::new(PER_ADDRESS),
    });
    Router::new()
        .route("/api/tables/{invite}/replay", get(by_invite))
        .route("/api/tables/{invite}/share", post(share).get(share_made))
        .route("/api/replays/{share}", get(by_share))
        .route(
            "/api/replays",
            // The file, with room for a request's headers.
            post(upload).layer(DefaultBodyLimit::max(MAX_RECORD_BYTES + 1024)),
        )
        .route("/replay/{share}", get(crate::web::index))
        .with_state(replays)
}

#[derive(Deserialize)]
struct Viewer {
    seat: Option<Seat>,
}

/// A request's places in the budgets, held while its frames are built.
struct Admitted {
    _slot: Slot,
    _queued: tokio::sync::OwnedSemaphorePermit,
}

fn busy(why: &str) -> Response {
    refuse(ErrorCode::Busy, StatusCode::SERVICE_UNAVAILABLE, why)
}

/// A place in the budgets for `client`, or why not (in words).
fn admit(replays: &Replays, client: SocketAddr) -> Result<Admitted, &'static str> {
    let slot = replays
        .addresses
        .take(client.ip())
        .ok_or("you are already waiting for replays: ask again when they are done")?;
    let queued = Arc::clone(&replays.queue)
        .try_acquire_owned()
        .map_err(|_| "the server is busy building replays: ask again in a moment")?;
    Ok(Admitted {
        _slot: slot,
        _queued: queued,
    })
}

async fn by_invite(
    State(replays): State<Arc<Replays>>,
    Path(invite): Path<String>,
    Query(q): Query<Viewer>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
) -> Response {
    stored(&replays, client, &invite, q.seat, None).await
}

/// `POST /api/tables/{invite}/share` with `{"token"}`: `{"share",
/// "path"}`, the finished game's link, the same at every ask. Only a
/// player's or the host's token makes it: publishing the game to whoever
/// gets the link is theirs to decide, not a spectator's. The link shows the
/// game and nothing else of the table.
async fn share(
    State(replays): State<Arc<Replays>>,
    Path(invite): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    if let Err(e) = crate::http::json_request(&replays.app, &headers) {
        return e.into_response();
    }
    let Ok(StartRequest { token }) = serde_json::from_slice(&body) else {
        return refuse(
            ErrorCode::BadMessage,
            StatusCode::BAD_REQUEST,
            "bad request: expected {\"token\": \"...\"}",
        );
    };
    if let Err(refused) = player_or_host(&replays.app, &invite, &token).await {
        return refused;
    }
    link(&replays.app, invite, true).await
}

/// `GET /api/tables/{invite}/share`: the link a player or the host made,
/// for anyone with the invite (a spectator keeps the game in My games
/// with it); 404 until it is made.
async fn share_made(State(replays): State<Arc<Replays>>, Path(invite): Path<String>) -> Response {
    link(&replays.app, invite, false).await
}

/// Whether `token` is a seat's or the host's at the table `invite`.
async fn player_or_host(app: &App, invite: &str, token: &str) -> Result<(), Response> {
    let none = || {
        refuse(
            ErrorCode::NoTable,
            StatusCode::NOT_FOUND,
            "there is no table with this code",
        )
    };
    if !crate::auth::valid_invite(invite) {
        return Err(none());
    }
    let table = match app.store.load(invite.to_owned()).await {
        Ok(Some(t)) => t,
        Ok(None) => return Err(none()),
        Err(e) => return Err(crate::http::ApiError::from(e.answer()).into_response()),
    };
    let hash = hash_token(token);
    let known = table.seats.iter().any(|s| same_hash(&hash, &s.2));
    if known || same_hash(&hash, &table.host_hash) {
        return Ok(());
    }
    Err(refuse(
        ErrorCode::Unauthorized,
        StatusCode::FORBIDDEN,
        "only the players and the host of this table can make its link",
    ))
}

/// The finished game's link as `{"share", "path"}`, made if `make`.
async fn link(app: &App, invite: String, make: bool) -> Response {
    if let Err((status, e)) = crate::analysis::finished(app, &invite).await {
        return (status, axum::Json(e)).into_response();
    }
    match app.store.share(invite, make).await {
        Ok(Some(share)) => {
            axum::Json(json!({"path": format!("/replay/{share}"), "share": share})).into_response()
        }
        Ok(None) => refuse(
            ErrorCode::NoTable,
            StatusCode::NOT_FOUND,
            "this game has no link: a player or the host makes it",
        ),
        Err(e) => refuse(
            ErrorCode::Storage,
            StatusCode::SERVICE_UNAVAILABLE,
            &e.to_string(),
        ),
    }
}

/// The invite a share id stands for, or the answer to give.
pub(crate) async fn shared(app: &App, share: &str) -> Result<String, (StatusCode, ErrorBody)> {
    let none = || {
        (
            StatusCode::NOT_FOUND,
            ErrorBody::new(ErrorCode::NoTable, "there is no shared game with this link"),
        )
    };
    // 32 hex digits: anything else is not asked of the database.
    if share.len() != 32 || !share.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(none());
    }
    app.store
        .shared(share.to_owned())
        .await
        .map_err(|e| {
            (
                StatusCode::SERVICE_UNAVAILABLE,
                ErrorBody::new(ErrorCode::Storage, e.to_string()),
            )
        })?
        .ok_or_else(none)
}

async fn by_share(
    State(replays): State<Arc<Replays>>,
    Path(share): Path<String>,
    Query(q): Query<Viewer>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
) -> Response {
    let invite = match shared(&replays.app, &share).await {
        Ok(i) => i,
        Err((status, e)) => return (status, axum::Json(e)).into_response(),
    };
    stored(&replays, client, &invite, q.seat, Some(share)).await
}

/// The frames of a stored finished game, within `client`'s budget.
async fn stored(
    replays: &Replays,
    client: SocketAddr,
    invite: &str,
    seat: Option<Seat>,
    share: Option<String>,
) -> Response {
    let admitted = match admit(replays, client) {
        Ok(a) => a,
        Err(why) => return busy(why),
    };
    let stored = match crate::analysis::finished(&replays.app, invite).await {
        Ok(s) => s,
        Err((status, e)) => return (status, axum::Json(e)).into_response(),
    };
    let names = stored.names.unwrap_or_default();
    let record = match stored.steps {
        StoredSteps::Tripoley(steps) => Replayed::Tripoley(Record {
            version: RECORD_VERSION,
            rules: stored.settings.rules,
            names,
            steps,
        }),
        StoredSteps::Napalm(steps) => Replayed::Napalm(NapalmRecord {
            steps,
            ..NapalmRecord::new(stored.settings.napalm.unwrap_or_default(), names)
        }),
    };
    built(replays, record, seat, share, admitted, false).await
}

/// A finished game to replay, of either kind.
pub(crate) enum Replayed {
    Tripoley(Record),
    Napalm(NapalmRecord),
}

/// `POST /api/replays`: a record file's frames (nothing stored). The file
/// is read as `tripoley analyse` reads it (bounded, checked); what is wrong
/// with it is said in `detail` (`record`, its `problem`).
async fn upload(
    State(replays): State<Arc<Replays>>,
    Query(q): Query<Viewer>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    if let Err(e) = crate::http::json_request(&replays.app, &headers) {
        return e.into_response();
    }
    let admitted = match admit(&replays, client) {
        Ok(a) => a,
        Err(why) => return busy(why),
    };
    match read_upload(&body) {
        Ok(record) => built(&replays, record, q.seat, None, admitted, true).await,
        Err((problem, why)) => refused_file(problem, why),
    }
}

/// Why a file is refused: what is wrong and where, in words.
pub(crate) type Refused = (RecordProblem, String);

/// An uploaded record file read as `tripoley analyse` reads it (a Napalm
/// one as `tripoley replay` does, within the same bounds), or why not.
pub(crate) fn read_upload(body: &[u8]) -> Result<Replayed, Refused> {
    let text = std::str::from_utf8(body)
        .map_err(|_| (RecordProblem::NotARecord, "the file is not text".into()))?;
    match tripoley_analysis::read(text) {
        Ok(record) => Ok(Replayed::Tripoley(record)),
        Err(AnalysisError::Napalm) => read_napalm(text).map(Replayed::Napalm),
        Err(e) => {
            let problem = match e {
                AnalysisError::TooBig(_) => RecordProblem::TooBig,
                AnalysisError::TooLong(_) => RecordProblem::TooLong,
                _ => RecordProblem::NotARecord,
            };
            Err((problem, e.to_string()))
        }
    }
}

/// A Napalm record (its size already bounded): at most
/// [`tripoley_analysis::MAX_STEPS`] steps, names that follow the one rule.
fn read_napalm(text: &str) -> Result<NapalmRecord, Refused> {
    let not = |why: String| (RecordProblem::NotARecord, why);
    let record: NapalmRecord =
        serde_json::from_str(text).map_err(|e| not(format!("not a Napalm game record: {e}")))?;
    if record.steps.len() > tripoley_analysis::MAX_STEPS {
        let e = AnalysisError::TooLong(record.steps.len());
        return Err((RecordProblem::TooLong, e.to_string()));
    }
    if let Some(name) = record
        .names
        .iter()
        .find(|n| tripoley_i18n::names::problem(n).is_some())
    {
        return Err(not(format!(
            "the name {:?} breaks the rule for names",
            name.escape_debug().to_string()
        )));
    }
    Ok(record)
}

/// A record file refused: 400 with what is wrong (`detail`) and where
/// (`message`).
pub(crate) fn refused_file(problem: RecordProblem, why: String) -> Response {
    (
        StatusCode::BAD_REQUEST,
        axum::Json(ErrorBody {
            code: ErrorCode::Invalid,
            message: why,
            detail: Some(Detail::Record { problem }),
        }),
    )
        .into_response()
}

/// The frames built on the blocking pool, in turn, as the answer; a step
/// that does not replay is the file's fault if `uploaded`, else the store's.
async fn built(
    replays: &Replays,
    record: Replayed,
    seat: Option<Seat>,
    share: Option<String>,
    admitted: Admitted,
    uploaded: bool,
) -> Response {
    let Ok(_running) = replays.running.acquire().await else {
        return busy("the replay failed");
    };
    let built = tokio::task::spawn_blocking(move || frames(&record, seat, share.as_deref())).await;
    drop(admitted);
    match built {
        Ok(Ok(body)) => ([(header::CONTENT_TYPE, "application/json")], body).into_response(),
        Ok(Err(Failure::TooLong)) => refuse(
            ErrorCode::Invalid,
            StatusCode::PAYLOAD_TOO_LARGE,
            "this game is too long to replay here",
        ),
        Ok(Err(Failure::NoSeat)) => refuse(
            ErrorCode::Invalid,
            StatusCode::BAD_REQUEST,
            "there is no such seat at this table",
        ),
        // A file's step the rules refuse: the file is wrong.
        Ok(Err(Failure::Broken(why))) if uploaded => refused_file(RecordProblem::NotARecord, why),
        Ok(Err(Failure::Broken(why))) => {
            refuse(ErrorCode::Storage, StatusCode::SERVICE_UNAVAILABLE, &why)
        }
        Err(_) => busy("the replay failed"),
    }
}

/// Why there are no frames.
enum Failure {
    /// Longer than [`MAX_BYTES`].
    TooLong,
    /// The asked seat is not at the table.
    NoSeat,
    /// The stored game does not replay.
    Broken(String),
}

/// The replay's JSON: `{"v", "type": "replay", "game", "seat", "names",
/// "share", "frames": [update…]}` (`game`: "tripoley" or "napalm";
/// `share` when asked by the share id, so the page can offer the link
/// again).
fn frames(record: &Replayed, seat: Option<Seat>, share: Option<&str>) -> Result<Vec<u8>, Failure> {
    let (game, names) = match record {
        Replayed::Tripoley(r) => ("tripoley", &r.names),
        Replayed::Napalm(r) => ("napalm", &r.names),
    };
    let head = json!({"v": PROTOCOL_VERSION, "type": "replay", "game": game, "seat": seat,
        "names": names, "share": share});
    let mut out = Frames::new(&head)?;
    match record {
        Replayed::Tripoley(r) => tripoley_frames(r, seat, &mut out)?,
        Replayed::Napalm(r) => napalm_frames(r, seat, &mut out)?,
    }
    Ok(out.end())
}

/// The frames written as they are made, the whole bounded by
/// [`MAX_BYTES`] as it grows: a long record (an uploaded one may hold
/// 200,000 steps) is refused before it fills the memory.
struct Frames {
    out: Vec<u8>,
    written: usize,
}

impl Frames {
    /// `{…head}` becomes `{…head,"frames":[` and the frames follow.
    fn new(head: &Value) -> Result<Frames, Failure> {
        let mut out = serde_json::to_vec(head).map_err(|e| Failure::Broken(e.to_string()))?;
        out.pop();
        out.extend_from_slice(br#","frames":["#);
        Ok(Frames { out, written: 0 })
    }

    fn push(&mut self, frame: &Value) -> Result<(), Failure> {
        if self.written > 0 {
            self.out.push(b',');
        }
        serde_json::to_writer(&mut self.out, frame).map_err(|e| Failure::Broken(e.to_string()))?;
        self.written += 1;
        if self.out.len() > MAX_BYTES {
            return Err(Failure::TooLong);
        }
        Ok(())
    }

    fn end(mut self) -> Vec<u8> {
        self.out.extend_from_slice(b"]}");
        self.out
    }
}

fn tripoley_frames(record: &Record, seat: Option<Seat>, out: &mut Frames) -> Result<(), Failure> {
    let mut ev = Vec::new();
    let mut game = record
        .start(&mut ev)
        .map_err(|e| Failure::Broken(e.to_string()))?;
    if seat.is_some_and(|s| s >= game.view(None).players) {
        return Err(Failure::NoSeat);
    }
    out.push(&frame(0, None, &ev, &game, seat))?;
    let mut n = 1;
    for (i, step) in record.steps.iter().enumerate() {
        let stops = hold::stops(&game, step);
        let mut ev = Vec::new();
        game.step(step, &mut ev)
            .map_err(|e| Failure::Broken(format!("step {i} does not replay: {e}")))?;
        for (shown, part) in hold::parts(ev, stops, game.clone()) {
            out.push(&frame(n, Some(i), &part, &shown, seat))?;
            n += 1;
        }
    }
    Ok(())
}

/// A Napalm game's frames: one per step, as a Napalm table sends them
/// (`n` is the step's number); the events a seat may see (N7) and its view,
/// or every hand among the cards seen for the game face up.
fn napalm_frames(
    record: &NapalmRecord,
    seat: Option<Seat>,
    out: &mut Frames,
) -> Result<(), Failure> {
    let mut ev = Vec::new();
    let mut game = NapalmGame::start(record.rules.clone(), record.names.len(), &mut ev)
        .map_err(|e| Failure::Broken(e.to_string()))?;
    if seat.is_some_and(|s| usize::from(s) >= record.names.len()) {
        return Err(Failure::NoSeat);
    }
    let frame = |n: usize,
                 step: Option<usize>,
                 ev: &[tripoley_napalm::Event],
                 game: &NapalmGame| {
        let events: Vec<_> = ev.iter().filter(|e| e.audience().includes(seat)).collect();
        let mut view = game.view(seat);
        if seat.is_none() {
            for (s, seen) in view.seen.iter_mut().enumerate() {
                *seen = game.view(Some(s as Seat)).cards;
            }
        }
        json!({"v": PROTOCOL_VERSION, "type": "update", "n": n, "step": step, "events": events, "view": view})
    };
    out.push(&frame(0, None, &ev, &game))?;
    for (i, step) in record.steps.iter().enumerate() {
        let ev = match step {
            NapalmStep::Deck(d) => game.deal(d),
            NapalmStep::Act { seat, action } => game.apply(*seat, *action),
        }
        .map_err(|e| Failure::Broken(format!("step {i} does not replay: {e}")))?;
        out.push(&frame(i + 1, Some(i), &ev, &game))?;
    }
    Ok(())
}

/// One `update` frame: the log entry `n`'s events and the view after them,
/// with the record's `step` that made it (none for the deal's start), which
/// places an analysed decision (`step` in the analysis) on the frames.
fn frame(
    n: usize,
    step: Option<usize>,
    events: &[Event],
    game: &Game,
    seat: Option<Seat>,
) -> Value {
    let events: Vec<&Event> = events
        .iter()
        .filter(|e| e.audience().includes(seat))
        .collect();
    let view = match seat {
        Some(_) => game.view(seat),
        None => face_up(game),
    };
    json!({"v": PROTOCOL_VERSION, "type": "update", "n": n, "step": step, "events": events, "view": view})
}

/// A spectator's view with every seat's hand among the cards known to be
/// held: how the board draws cards face up.
fn face_up(game: &Game) -> View {
    let mut view = game.view(None);
    for (s, known) in view.known_cards.iter_mut().enumerate() {
        *known = game.view(Some(s as Seat)).hand;
    }
    view
}
