//! The HTTP side: the embedded web client, the JSON API (create a table,
//! look at it, take a seat, start it) and the websocket upgrade.

use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, State, WebSocketUpgrade};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::de::DeserializeOwned;
use serde_json::json;
use tripoley_engine::{Preset, Rules};

use crate::App;
use crate::auth::{hash_token, new_invite, new_token, origin_allowed, valid_invite};
use crate::protocol::{
    CreateTable, Created, ErrorBody, ErrorCode, SitRequest, StartRequest, clean_name,
};
use crate::table::Cmd;
use crate::web;

/// Bytes a websocket reads at once.
const READ_BUFFER: usize = 4096;

/// The routes.
pub(crate) fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(web::index))
        .route("/t/{invite}", get(web::index))
        .route("/{file}", get(web::file))
        .route(
            "/api/health",
            get(|| async { axum::Json(json!({"ok": true})) }),
        )
        .route("/api/presets", get(presets))
        .route("/api/tables", post(create))
        .route("/api/tables/{invite}", get(info))
        .route("/api/tables/{invite}/sit", post(sit))
        .route("/api/tables/{invite}/start", post(start))
        .route(
            "/api/tables/{invite}/rematch",
            post(crate::rematch::rematch),
        )
        .route("/api/tables/{invite}/rules", get(crate::rules_text::rules))
        .route("/ws/{invite}", get(upgrade))
        .layer(DefaultBodyLimit::max(16 * 1024))
        .with_state(app)
}

/// An API error as a response: a status and the JSON [`ErrorBody`].
struct ApiError(ErrorBody);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = match self.0.code {
            ErrorCode::NoTable => StatusCode::NOT_FOUND,
            ErrorCode::Unauthorized => StatusCode::FORBIDDEN,
            ErrorCode::SeatTaken | ErrorCode::AlreadyStarted | ErrorCode::GameOver => {
                StatusCode::CONFLICT
            }
            ErrorCode::Full => StatusCode::SERVICE_UNAVAILABLE,
            ErrorCode::Storage => StatusCode::INTERNAL_SERVER_ERROR,
            _ => StatusCode::BAD_REQUEST,
        };
        (status, axum::Json(self.0)).into_response()
    }
}

impl From<ErrorBody> for ApiError {
    fn from(e: ErrorBody) -> ApiError {
        ApiError(e)
    }
}

fn parse<T: DeserializeOwned>(body: &Bytes) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|e| {
        ApiError(ErrorBody::new(
            ErrorCode::BadMessage,
            format!("bad request: {e}"),
        ))
    })
}

fn no_table() -> ApiError {
    ApiError(ErrorBody::new(
        ErrorCode::NoTable,
        "there is no table with this code",
    ))
}

async fn presets() -> impl IntoResponse {
    let list: Vec<_> = Preset::ALL
        .iter()
        .map(|&p| json!({"name": p.name(), "rules": Rules::preset(p)}))
        .collect();
    axum::Json(list)
}

async fn create(State(app): State<Arc<App>>, body: Bytes) -> Result<Response, ApiError> {
    let req: CreateTable = parse(&body)?;
    let settings = req.settings()?;
    if app.live_tables().await >= app.config.max_tables {
        return Err(ApiError(ErrorBody::new(
            ErrorCode::Full,
            "the server has too many tables; try again later",
        )));
    }
    let storage =
        |e: crate::ServerError| ApiError(ErrorBody::new(ErrorCode::Storage, e.to_string()));
    let invite = new_invite();
    let token = new_token();
    let hash = hash_token(&token);
    app.store
        .create_table(invite.clone(), &settings, hash)
        .await
        .map_err(storage)?;
    let seat = match &req.host_name {
        Some(name) => {
            let name = clean_name(name)?;
            app.store
                .sit(invite.clone(), 0, name, hash)
                .await
                .map_err(storage)?;
            Some(0)
        }
        None => None,
    };
    let created = Created {
        path: format!("/t/{invite}"),
        invite,
        host_token: token,
        seat,
    };
    Ok((StatusCode::CREATED, axum::Json(created)).into_response())
}

async fn info(
    State(app): State<Arc<App>>,
    Path(invite): Path<String>,
) -> Result<Response, ApiError> {
    let info = app.ask(&invite, |reply| Cmd::Info { reply }).await?;
    Ok(axum::Json(info).into_response())
}

async fn sit(
    State(app): State<Arc<App>>,
    Path(invite): Path<String>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let req: SitRequest = parse(&body)?;
    let seated = app
        .ask(&invite, |reply| Cmd::Sit {
            seat: req.seat,
            name: req.name.clone(),
            reply,
        })
        .await??;
    Ok(axum::Json(seated).into_response())
}

async fn start(
    State(app): State<Arc<App>>,
    Path(invite): Path<String>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let req: StartRequest = parse(&body)?;
    app.ask(&invite, |reply| Cmd::Start {
        conn: None,
        token: Some(req.token.clone()),
        id: None,
        reply,
    })
    .await??;
    Ok(axum::Json(json!({"ok": true})).into_response())
}

async fn upgrade(
    State(app): State<Arc<App>>,
    Path(invite): Path<String>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    if !origin_allowed(&headers, &app.config.allowed_origins) {
        return (
            StatusCode::FORBIDDEN,
            [(header::CONTENT_TYPE, "text/plain")],
            "websocket refused: this page's origin may not connect",
        )
            .into_response();
    }
    if !valid_invite(&invite) {
        return no_table().into_response();
    }
    let table = match app.table(&invite).await {
        Ok(Some(t)) => t,
        Ok(None) => return no_table().into_response(),
        Err(e) => {
            return ApiError(ErrorBody::new(ErrorCode::Storage, e.to_string())).into_response();
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
        .on_upgrade(move |socket| crate::ws::run(socket, app, invite, table))
}
