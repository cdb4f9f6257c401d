//! Rematch: `POST /api/tables/<invite>/rematch` seats the same people at a
//! new game with the same settings.
//!
//! Any player (or the host) of a finished table may ask, with their token;
//! the first asker creates the new table and everyone after gets the same
//! one. The new table keeps each person's seat, name and token digest, and
//! the host's, so the tokens the players' browsers already hold work there:
//! no secret has to be handed out again. Seats of bots stay open (bots
//! again when the host starts). Which table follows which is kept in memory
//! only: after a server restart a rematch makes a new table once more; and
//! only as long as the finished table is kept (`keep_finished`).

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::RequestBody;
use axum::extract::{ConnectInfo, Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::App;
use crate::auth::{hash_token, same_hash, valid_invite};
use crate::protocol::{ErrorBody, ErrorCode, StartRequest, TableStatus};
use crate::table::Cmd;

/// Finished table's invite -> its rematch's invite, and when it was made.
pub(crate) type Rematches = tokio::sync::Mutex<HashMap<String, (String, Instant)>>;

/// Remembers `next` as the rematch of `invite`, and forgets rematches made
/// longer than `keep` ago: their finished tables have been deleted by then
/// (a table is kept `keep` after it finished, and its rematch came later),
/// so nobody can ask for them again and the map does not grow over a
/// server's life.
fn remember(
    rematches: &mut HashMap<String, (String, Instant)>,
    invite: String,
    next: String,
    keep: Duration,
) {
    rematches.retain(|_, (_, made)| made.elapsed() <= keep);
    rematches.insert(invite, (next, Instant::now()));
}

fn refuse(status: StatusCode, code: ErrorCode, message: &str) -> Response {
    (status, axum::Json(ErrorBody::new(code, message))).into_response()
}

/// The handler: body `{"token": "..."}`, answer `{"invite", "path"}`.
pub(crate) async fn rematch(
    State(app): State<Arc<App>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    Path(invite): Path<String>,
    headers: HeaderMap,
    RequestBody(body): RequestBody,
) -> Response {
    if let Err(refused) = crate::api::json_request(&app, &headers) {
        return refused.into_response();
    }
    let Ok(req) = serde_json::from_slice::<StartRequest>(&body) else {
        return refuse(
            StatusCode::BAD_REQUEST,
            ErrorCode::BadMessage,
            "bad request: expected {\"token\": \"...\"}",
        );
    };
    let no_table = || {
        refuse(
            StatusCode::NOT_FOUND,
            ErrorCode::NoTable,
            "there is no table with this code",
        )
    };
    // 503 `storage` with Retry-After, as every other request answers a
    // store out of reach; the store's text goes to the log only.
    let storage = |e: crate::ServerError| {
        eprintln!("tripoley serve: a rematch of {invite} could not be stored: {e}");
        crate::api_error::ApiError::from(e.answer()).into_response()
    };
    if !valid_invite(&invite) {
        return no_table();
    }
    let old = match app.store.load(invite.clone()).await {
        Ok(Some(t)) => t,
        Ok(None) => return no_table(),
        Err(e) => return storage(e),
    };
    let hash = hash_token(&req.token);
    let asker = old.seats.iter().find(|s| same_hash(&hash, &s.2));
    let by = asker.map(|(_, name, _)| name.clone());
    if asker.is_none() && !same_hash(&hash, &old.host_hash) {
        return refuse(
            StatusCode::FORBIDDEN,
            ErrorCode::Unauthorized,
            "only the players of this table can ask for a rematch",
        );
    }
    if old.status != TableStatus::Finished {
        return refuse(
            StatusCode::CONFLICT,
            ErrorCode::AlreadyStarted,
            "the game is not over yet",
        );
    }
    // Held while the new table is written, so two askers get one table.
    let mut rematches = app.rematches.lock().await;
    if let Some((next, _)) = rematches.get(&invite) {
        return created(next);
    }
    // A rematch makes a table as a create does: it counts towards the
    // asker's caps, and at the server's cap the oldest lobby nobody has
    // opened makes room (issue 31, finding 3).
    let next = match crate::api::tables::new_lobby(
        &app,
        client.ip(),
        &old.settings,
        old.host_hash,
        old.seats,
    )
    .await
    {
        Ok(next) => next,
        Err(refused) => return refused.into_response(),
    };
    let answer = created(&next);
    announce(&app, &invite, &next, by).await;
    remember(&mut rematches, invite, next, app.config.keep_finished);
    answer
}

/// Tells the finished table, if it is running on this server, that its
/// rematch is at `next`: its screens say so at once (issue 26, point 7).
/// A table not in memory has nobody watching. In a cluster this request was
/// forwarded to the server running the table, so that is this one.
async fn announce(app: &App, invite: &str, next: &str, by: Option<String>) {
    let handle = app.tables.lock().await.get(invite).cloned();
    if let Some(h) = handle {
        let _ = h.tx.try_send(Cmd::Rematch {
            invite: next.to_owned(),
            by,
        });
    }
}

fn created(invite: &str) -> Response {
    (
        StatusCode::OK,
        axum::Json(json!({"invite": invite, "path": format!("/t/{invite}")})),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::time::{Duration, Instant};

    use super::remember;

    #[test]
    fn rematches_older_than_their_finished_tables_are_forgotten() {
        let keep = Duration::from_secs(60);
        let mut map = HashMap::new();
        let long_ago = Instant::now()
            .checked_sub(Duration::from_secs(61))
            .expect("the clock goes back a minute");
        map.insert("OLD1".to_owned(), ("NEW1".to_owned(), long_ago));
        map.insert("OLD2".to_owned(), ("NEW2".to_owned(), Instant::now()));
        remember(&mut map, "OLD3".into(), "NEW3".into(), keep);
        let mut kept: Vec<&str> = map.keys().map(String::as_str).collect();
        kept.sort_unstable();
        assert_eq!(kept, ["OLD2", "OLD3"]);
        assert_eq!(map["OLD3"].0, "NEW3");
    }
}
