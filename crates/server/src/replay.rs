//! `GET /api/tables/{invite}/replay[?seat=N]`: a finished game's frames,
//! for the browser's replay viewer.
//!
//! The game is rebuilt from storage and each entry of its event log (the
//! live table's, held parts of a run's stop included, so `n` is the event
//! number the live table sent) becomes one `update` frame, as a returning
//! connection is sent them: the events that viewer may see and its view
//! after them. With a seat, exactly what that seat saw; without one, a
//! spectator's frames with every hand face up (the game is over: nothing is
//! hidden any more). Only finished games: before the end this would tell
//! anyone every hand.

use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Deserialize;
use serde_json::{Value, json};
use tripoley_engine::{Event, Game, Record, Seat, View};

use crate::App;
use crate::analysis::refuse;
use crate::protocol::{ErrorCode, PROTOCOL_VERSION};
use crate::table::hold;

/// The largest answer: a long game's frames are a few hundred kilobytes.
pub const MAX_BYTES: usize = 4 << 20;

pub(crate) fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/api/tables/{invite}/replay", get(replay))
        .with_state(app)
}

#[derive(Deserialize)]
struct Viewer {
    seat: Option<Seat>,
}

async fn replay(
    State(app): State<Arc<App>>,
    Path(invite): Path<String>,
    Query(q): Query<Viewer>,
) -> Response {
    let record = match crate::analysis::load(&app, &invite).await {
        Ok(r) => r,
        Err((status, e)) => return (status, axum::Json(e)).into_response(),
    };
    let built = tokio::task::spawn_blocking(move || frames(&record, q.seat)).await;
    match built {
        Ok(Ok(body)) if body.len() <= MAX_BYTES => {
            ([(header::CONTENT_TYPE, "application/json")], body).into_response()
        }
        Ok(Ok(_)) => refuse(
            ErrorCode::Invalid,
            StatusCode::PAYLOAD_TOO_LARGE,
            "this game is too long to replay here",
        ),
        Ok(Err(Failure::NoSeat)) => refuse(
            ErrorCode::Invalid,
            StatusCode::BAD_REQUEST,
            "there is no such seat at this table",
        ),
        Ok(Err(Failure::Broken(why))) => {
            refuse(ErrorCode::Storage, StatusCode::SERVICE_UNAVAILABLE, &why)
        }
        Err(_) => refuse(
            ErrorCode::Busy,
            StatusCode::SERVICE_UNAVAILABLE,
            "the replay failed",
        ),
    }
}

/// Why there are no frames.
enum Failure {
    /// The asked seat is not at the table.
    NoSeat,
    /// The stored game does not replay.
    Broken(String),
}

/// The replay's JSON: `{"v", "type": "replay", "seat", "frames": [update…]}`.
fn frames(record: &Record, seat: Option<Seat>) -> Result<Vec<u8>, Failure> {
    let mut frames = Vec::new();
    let mut ev = Vec::new();
    let mut game = record
        .start(&mut ev)
        .map_err(|e| Failure::Broken(e.to_string()))?;
    if seat.is_some_and(|s| s >= game.view(None).players) {
        return Err(Failure::NoSeat);
    }
    frames.push(frame(0, None, &ev, &game, seat));
    for (i, step) in record.steps.iter().enumerate() {
        let stops = hold::stops(&game, step);
        let mut ev = Vec::new();
        game.step(step, &mut ev)
            .map_err(|e| Failure::Broken(format!("step {i} does not replay: {e}")))?;
        for (shown, part) in hold::parts(ev, stops, game.clone()) {
            frames.push(frame(frames.len(), Some(i), &part, &shown, seat));
        }
    }
    let body = json!({"v": PROTOCOL_VERSION, "type": "replay", "seat": seat, "frames": frames});
    serde_json::to_vec(&body).map_err(|e| Failure::Broken(e.to_string()))
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
