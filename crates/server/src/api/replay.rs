//! A finished game's frames, for the browser's replay viewer:
//! `GET /api/tables/{invite}/replay[?seat=N]` (a table's players),
//! `POST /api/tables/{invite}/share` (its share id, made by a player or the
//! host), `GET /api/tables/{invite}/share` (the link, once made) and
//! `GET /api/replays/{share}[?seat=N]` (anyone with the link, the page
//! being `/replay/{share}`), and `POST /api/replays[?seat=N]` (a record file
//! uploaded: its frames, nothing stored); `GET /api/tables/{invite}/record`
//! and `GET /api/replays/{share}/record`, the finished game's record. Napalm games (a table's or a
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

use super::RequestBody;
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;
use tokio::sync::Semaphore;
use tripoley_engine::{RECORD_VERSION, Record, Seat};
use tripoley_napalm::NapalmRecord;

use crate::App;
use crate::api::budget::{PerAddress, Slot};
use crate::api::refuse;
use crate::auth::{hash_token, same_hash};
use crate::protocol::{Detail, ErrorBody, ErrorCode, RecordProblem, StartRequest, TableStatus};
use crate::store::{StoredSteps, StoredTable};
pub(crate) use tripoley_table::replay::{Failure, Refused, Replayed, frames};
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

/// The routes' state: the app and fresh budgets.
pub(super) fn state(app: Arc<App>) -> Arc<Replays> {
    Arc::new(Replays {
        app,
        running: Semaphore::new(RUNNING),
        queue: Arc::new(Semaphore::new(QUEUE)),
        addresses: PerAddress::new(PER_ADDRESS),
    })
}

#[derive(Deserialize)]
pub(super) struct Viewer {
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

pub(super) async fn by_invite(
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
pub(super) async fn share(
    State(replays): State<Arc<Replays>>,
    Path(invite): Path<String>,
    headers: HeaderMap,
    RequestBody(body): RequestBody,
) -> Response {
    if let Err(e) = crate::api::json_request(&replays.app, &headers) {
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
pub(super) async fn share_made(
    State(replays): State<Arc<Replays>>,
    Path(invite): Path<String>,
) -> Response {
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
        Err(e) => return Err(crate::api_error::ApiError::from(e.answer()).into_response()),
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
    if let Err((status, e)) = finished(app, &invite).await {
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

pub(super) async fn by_share(
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
    let record = match finished_record(&replays.app, invite).await {
        Ok(r) => r,
        Err(answer) => return answer,
    };
    built(replays, record, seat, share, admitted, false).await
}

/// A finished game of this server's tables as its record, or the answer
/// to give (none before the end: it tells every hand).
async fn finished_record(app: &App, invite: &str) -> Result<Replayed, Response> {
    let stored = match finished(app, invite).await {
        Ok(s) => s,
        Err((status, e)) => return Err((status, axum::Json(e)).into_response()),
    };
    let names = stored.names.unwrap_or_default();
    Ok(match stored.steps {
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
    })
}

/// `GET /api/tables/{invite}/record`: the finished game's record, as
/// `tripoley play --save` writes one (without its `play` field): what
/// "Try it yourself" plays on from in the browser, and a file `tripoley
/// replay` and `analyse` read. Anyone who may see its replay face up may
/// have it; nothing is built, so no budget is taken.
pub(super) async fn record_by_invite(
    State(replays): State<Arc<Replays>>,
    Path(invite): Path<String>,
) -> Response {
    record_answer(&replays.app, &invite).await
}

/// `GET /api/replays/{share}/record`: the same by the game's share link.
pub(super) async fn record_by_share(
    State(replays): State<Arc<Replays>>,
    Path(share): Path<String>,
) -> Response {
    match shared(&replays.app, &share).await {
        Ok(invite) => record_answer(&replays.app, &invite).await,
        Err((status, e)) => (status, axum::Json(e)).into_response(),
    }
}

async fn record_answer(app: &App, invite: &str) -> Response {
    match finished_record(app, invite).await {
        Ok(Replayed::Tripoley(record)) => axum::Json(record).into_response(),
        Ok(Replayed::Napalm(record)) => axum::Json(record).into_response(),
        Err(answer) => answer,
    }
}

/// `POST /api/replays`: a record file's frames (nothing stored). The file
/// is read as `tripoley analyse` reads it (bounded, checked); what is wrong
/// with it is said in `detail` (`record`, its `problem`).
pub(super) async fn upload(
    State(replays): State<Arc<Replays>>,
    Query(q): Query<Viewer>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    RequestBody(body): RequestBody,
) -> Response {
    if let Err(e) = crate::api::json_request(&replays.app, &headers) {
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

/// An uploaded record file read as `tripoley analyse` reads it (a Napalm
/// one as `tripoley replay` does, within the same bounds; either game's
/// names held to the rule for names, issue 49), or why not.
pub(crate) fn read_upload(body: &[u8]) -> Result<Replayed, Refused> {
    let record = tripoley_table::replay::read_upload(body)?;
    let names = match &record {
        Replayed::Tripoley(r) => &r.names,
        Replayed::Napalm(r) => &r.names,
    };
    if let Some(name) = names
        .iter()
        .find(|n| tripoley_i18n::names::problem(n).is_some())
    {
        return Err((
            RecordProblem::NotARecord,
            format!(
                "the name {:?} breaks the rule for names",
                name.escape_debug().to_string()
            ),
        ));
    }
    Ok(record)
}

/// A finished game of this server (either kind), from storage.
pub(crate) async fn finished(
    app: &App,
    invite: &str,
) -> Result<StoredTable, (StatusCode, ErrorBody)> {
    let none = || {
        (
            StatusCode::NOT_FOUND,
            ErrorBody::new(ErrorCode::NoTable, "there is no table with this code"),
        )
    };
    if !crate::auth::valid_invite(invite) {
        return Err(none());
    }
    let stored = app
        .store
        .load(invite.to_owned())
        .await
        .map_err(|e| {
            (
                StatusCode::SERVICE_UNAVAILABLE,
                ErrorBody::new(ErrorCode::Storage, e.to_string()),
            )
        })?
        .ok_or_else(none)?;
    if !matches!(stored.status, TableStatus::Finished) {
        return Err((
            StatusCode::CONFLICT,
            ErrorBody::new(
                ErrorCode::NotStarted,
                "the game is not over: it is replayed and analysed once it has ended",
            ),
        ));
    }
    Ok(stored)
}
