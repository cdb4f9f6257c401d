//! The tables' JSON API (create a table, look at it, take a seat, start
//! it), the server's health and presets, and the websocket upgrade.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use super::RequestBody;
use axum::body::Bytes;
use axum::extract::{ConnectInfo, Path, State, WebSocketUpgrade};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use serde_json::json;

use super::json_request;
use crate::App;
use crate::api_error::ApiError;
use crate::auth::{hash_token, new_invite, origin_allowed, valid_invite};
use crate::protocol::{
    CreateTable, Created, ErrorBody, ErrorCode, SitRequest, StartRequest, TableSettings, clean_name,
};
use crate::secret::new_token;
use crate::store::{Caps, Over, TokenHash};
use crate::table::Cmd;
use crate::table::lobbies::Crowded;

/// Bytes a websocket reads at once.
const READ_BUFFER: usize = 4096;

/// A POST's body, once [`json_request`] lets it through.
fn json_body<T: DeserializeOwned>(
    app: &App,
    headers: &HeaderMap,
    body: &Bytes,
) -> Result<T, ApiError> {
    json_request(app, headers)?;
    // The parser's text (field lists, positions) is no player's business.
    serde_json::from_slice(body).map_err(|_| {
        ApiError(ErrorBody::new(
            ErrorCode::BadMessage,
            "bad request: the body is not the JSON this request takes (docs/protocol.md)",
        ))
    })
}

fn no_table() -> ApiError {
    ApiError(ErrorBody::new(
        ErrorCode::NoTable,
        "there is no table with this code",
    ))
}

pub(super) async fn presets() -> impl IntoResponse {
    axum::Json(crate::protocol::presets())
}

/// `GET /api/health`: the server answers, and its limits.
pub(super) async fn health(State(app): State<Arc<App>>) -> Response {
    let c = &app.config;
    axum::Json(json!({
        "ok": true,
        "tables": app.live_tables().await,
        "limits": {
            "max_tables": c.max_tables,
            "max_tables_per_address_per_hour": c.max_tables_per_address,
            "max_lobbies_per_address": c.max_lobbies_per_address,
            "max_games_per_address": c.max_games_per_address,
            "max_connections_per_address": c.max_connections_per_address,
            "max_connections": c.max_connections,
            "max_connections_per_seat": c.max_connections_per_seat,
            "max_spectators": c.max_spectators,
            "max_spectators_per_address": c.max_spectators_per_address,
            "max_message_bytes": c.max_message_bytes,
            "rate_burst": c.rate_burst,
            "rate_per_second": c.rate_per_second,
            "max_hint_searches": c.max_hint_searches,
            "max_expert_searches": c.max_expert_searches,
            "expert_ms": c.expert_ms,
            "hello_timeout_ms": c.hello_timeout.as_millis() as u64,
            "idle_timeout_ms": c.idle_timeout.as_millis() as u64,
            "table_idle_ms": c.table_idle.as_millis() as u64,
            "keep_finished_ms": c.keep_finished.as_millis() as u64,
        },
    }))
    .into_response()
}

/// A create refused for the lobbies its address holds open.
pub(crate) const TOO_MANY_LOBBIES: &str =
    "you have several tables waiting for players: start one, or wait until one expires";

/// A create refused for the tables its address has going (issue 49).
pub(crate) const TOO_MANY_GAMES: &str =
    "you have several tables going: finish or leave one, or wait until one expires";

/// A create refused for the tables its address created this hour.
pub(crate) const TOO_MANY_TABLES: &str =
    "you have created many tables this hour: use one of them, or try again later";

/// A create refused for one of its address's caps.
/// Too many lobbies open is the server being full for that creator
/// (`busy`, 503); too many tables this hour is a rate (`rate_limited`,
/// 429), which a client does not retry at once.
fn over(cap: Over) -> ApiError {
    let (code, message) = match cap {
        Over::Lobbies => (ErrorCode::Busy, TOO_MANY_LOBBIES),
        Over::Tables => (ErrorCode::RateLimited, TOO_MANY_TABLES),
    };
    ApiError(ErrorBody::new(code, message))
}

pub(super) async fn create(
    State(app): State<Arc<App>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    RequestBody(body): RequestBody,
) -> Result<Response, ApiError> {
    let req: CreateTable = json_body(&app, &headers, &body)?;
    let settings = req.settings()?;
    // A bad name is refused before anything is stored or counted.
    let host_name = req.host_name.as_deref().map(clean_name).transpose()?;
    let token = new_token();
    let hash = hash_token(&token);
    let seat = host_name.as_ref().map(|_| 0);
    let host = host_name.map(|name| (0, name, hash));
    let invite = new_lobby(&app, client.ip(), &settings, hash, host).await?;
    let created = Created {
        path: format!("/t/{invite}"),
        invite,
        host_token: token,
        seat,
    };
    Ok((StatusCode::CREATED, axum::Json(created)).into_response())
}

/// Stores a new lobby with `settings`, its host's token digest and the
/// people in `seats` (seat, name, token digest), made by `ip`, starts its
/// actor (so that its idle time runs from now: a lobby nobody joins
/// expires) and lists it among `ip`'s open lobbies; answers its invite.
/// Refused when `ip` is over its caps (open lobbies, tables this hour) or
/// the server holds too many tables. A create and a rematch both make a
/// table, so both count.
pub(crate) async fn new_lobby(
    app: &App,
    ip: IpAddr,
    settings: &TableSettings,
    host_hash: TokenHash,
    seats: impl IntoIterator<Item = (u8, String, TokenHash)>,
) -> Result<String, ApiError> {
    let config = &app.config;
    // With SQLite this server is the only one: its own counts are the
    // whole truth. With PostgreSQL the database counts, for every server.
    let shared = app.cluster.is_some();
    // The tables not finished are this server's own count either way (like
    // `max_tables`, they hold this server's memory and cores).
    let lobbies = (!shared).then_some(config.max_lobbies_per_address);
    match app
        .lobbies
        .crowded(ip, lobbies, config.max_games_per_address)
        .await
    {
        Some(Crowded::Lobbies) => return Err(over(Over::Lobbies)),
        Some(Crowded::Games) => {
            return Err(ApiError(ErrorBody::new(ErrorCode::Busy, TOO_MANY_GAMES)));
        }
        None => {}
    }
    if !app.room_for_a_table().await {
        return Err(ApiError(ErrorBody::new(
            ErrorCode::Full,
            "the server has too many tables; try again later",
        )));
    }
    if !shared
        && !app
            .addresses
            .create_table(ip, config.max_tables_per_address, config.table_window)
    {
        return Err(over(Over::Tables));
    }
    let storage = |e: crate::ServerError| ApiError(e.answer());
    let invite = new_invite();
    if shared {
        let caps = Caps {
            address: ip.to_string(),
            lobbies: i64::try_from(config.max_lobbies_per_address).unwrap_or(i64::MAX),
            tables: config.max_tables_per_address.into(),
            window_ms: i64::try_from(config.table_window.as_millis()).unwrap_or(i64::MAX),
        };
        if let Some(cap) = app
            .store
            .create_counted(invite.clone(), settings, host_hash, caps)
            .await
            .map_err(storage)?
        {
            return Err(over(cap));
        }
    } else {
        app.store
            .create_table(invite.clone(), settings, host_hash)
            .await
            .map_err(storage)?;
    }
    for (seat, name, token) in seats {
        app.store
            .sit(invite.clone(), seat, name, token)
            .await
            .map_err(storage)?;
    }
    if let Some(table) = app.table(&invite).await.map_err(storage)? {
        app.lobbies.add(invite.clone(), ip, table.tx);
    }
    Ok(invite)
}

pub(super) async fn info(
    State(app): State<Arc<App>>,
    Path(invite): Path<String>,
) -> Result<Response, ApiError> {
    let info = app.ask(&invite, |reply| Cmd::Info { reply }).await?;
    Ok(axum::Json(info).into_response())
}

pub(super) async fn sit(
    State(app): State<Arc<App>>,
    Path(invite): Path<String>,
    headers: HeaderMap,
    RequestBody(body): RequestBody,
) -> Result<Response, ApiError> {
    let req: SitRequest = json_body(&app, &headers, &body)?;
    let seated = app
        .ask(&invite, |reply| Cmd::Sit {
            seat: req.seat,
            name: req.name.clone(),
            reply,
        })
        .await??;
    Ok(axum::Json(seated).into_response())
}

pub(super) async fn start(
    State(app): State<Arc<App>>,
    Path(invite): Path<String>,
    headers: HeaderMap,
    RequestBody(body): RequestBody,
) -> Result<Response, ApiError> {
    let req: StartRequest = json_body(&app, &headers, &body)?;
    app.ask(&invite, |reply| Cmd::Start {
        conn: None,
        token: Some(req.token.clone()),
        id: None,
        reply,
    })
    .await??;
    Ok(axum::Json(json!({"ok": true})).into_response())
}

pub(super) async fn upgrade(
    State(app): State<Arc<App>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    Path(invite): Path<String>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    if !origin_allowed(&headers, &app.config.allowed_origins) {
        return ApiError(ErrorBody::new(
            ErrorCode::Forbidden,
            "websocket refused: this page's origin may not connect",
        ))
        .into_response();
    }
    if !valid_invite(&invite) {
        return no_table().into_response();
    }
    let table = match app.table(&invite).await {
        Ok(Some(t)) => t,
        Ok(None) => return no_table().into_response(),
        Err(e) => {
            return ApiError(e.answer()).into_response();
        }
    };
    // Transport caps a little above the message cap, so that a message
    // slightly too large gets an error reply rather than a dropped socket.
    let cap = app.config.max_message_bytes * 4;
    // Client messages are small: a read buffer of the default 128 KiB
    // would be zeroed and reallocated for every message.
    ws.max_message_size(cap)
        .max_frame_size(cap)
        .read_buffer_size(READ_BUFFER)
        .on_upgrade(move |socket| crate::net::ws::run(socket, app, client.ip(), invite, table))
}
