//! The HTTP API, its routes in one place ([`router`]): the embedded web
//! client's pages and files, the JSON API (tables: create, look, sit,
//! start, rematch, their rules; the public list; replays and shares; the
//! analysis) and the websocket upgrade. Every refusal is the one JSON error
//! shape ([`json_errors`]).

use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, FailedToBufferBody};
use axum::extract::{DefaultBodyLimit, FromRequest, Request};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};

use crate::App;
use crate::api_error::ApiError;
use crate::auth::origin_allowed;
use crate::net::web;
use crate::protocol::{ErrorBody, ErrorCode};
use crate::table::public;

pub(crate) mod analysis;
pub(crate) mod budget;
pub(crate) mod rematch;
pub(crate) mod replay;
pub(crate) mod rules_text;
pub(crate) mod tables;

/// The routes: every path the server answers.
pub(crate) fn router(app: Arc<App>) -> Router {
    let tables = Router::new()
        .route("/", get(web::index))
        .route("/t/{invite}", get(web::index))
        .route("/{file}", get(web::file))
        .route("/vendor/fluent-bundle/{file}", get(web::fluent))
        .route("/locales/{file}", get(web::locale))
        .route("/pkg/{file}", get(web::pkg))
        .route("/icons/{file}", get(web::icon))
        .route("/api/health", get(tables::health))
        .route("/api/presets", get(tables::presets))
        .route("/api/tables", get(public::list).post(tables::create))
        .route("/api/tables/{invite}", get(tables::info))
        .route("/api/tables/{invite}/sit", post(tables::sit))
        .route("/api/tables/{invite}/start", post(tables::start))
        .route("/api/tables/{invite}/rematch", post(rematch::rematch))
        .route("/api/tables/{invite}/rules", get(rules_text::rules))
        .route("/ws/{invite}", get(tables::upgrade))
        .layer(DefaultBodyLimit::max(16 * 1024))
        .with_state(Arc::clone(&app));
    // Building a replay's frames and an analysis are bounded by budgets of
    // their own, kept in each one's state.
    let replays = Router::new()
        .route("/api/tables/{invite}/replay", get(replay::by_invite))
        .route(
            "/api/tables/{invite}/share",
            post(replay::share).get(replay::share_made),
        )
        .route("/api/replays/{share}", get(replay::by_share))
        .route("/api/tables/{invite}/record", get(replay::record_by_invite))
        .route("/api/replays/{share}/record", get(replay::record_by_share))
        .route(
            "/api/replays",
            // The file, with room for a request's headers.
            post(replay::upload).layer(DefaultBodyLimit::max(
                tripoley_analysis::MAX_RECORD_BYTES + 1024,
            )),
        )
        .route("/replay/{share}", get(web::index))
        .with_state(replay::state(Arc::clone(&app)));
    let analyses = Router::new()
        .route("/api/tables/{invite}/analysis", get(analysis::by_invite))
        .route("/api/replays/{share}/analysis", get(analysis::by_share))
        .route(
            "/api/replays/analysis",
            post(analysis::uploaded).layer(DefaultBodyLimit::max(
                tripoley_analysis::MAX_RECORD_BYTES + 1024,
            )),
        )
        .with_state(analysis::state(app));
    tables.merge(replays).merge(analyses)
}

/// Every refusal in the one JSON error shape (issue 49): the framework's
/// own (a query or path that does not parse, a body over its limit, an
/// upgrade without its headers, a method or an address the routes do not
/// have) are plain text, which no client words; each becomes an
/// [`ErrorBody`] with the code its status means and no parser's text.
pub(crate) async fn json_errors(response: Response) -> Response {
    let status = response.status();
    let json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if json || !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let (code, message) = match status {
        StatusCode::PAYLOAD_TOO_LARGE => (ErrorCode::TooLarge, "the request is too large"),
        StatusCode::NOT_FOUND => (ErrorCode::NoTable, "there is nothing at this address"),
        StatusCode::FORBIDDEN => (ErrorCode::Forbidden, "this request is not allowed"),
        StatusCode::TOO_MANY_REQUESTS => (ErrorCode::RateLimited, "too many requests: slow down"),
        s if s.is_server_error() => (ErrorCode::Busy, "the server could not answer: try again"),
        _ => (
            ErrorCode::BadMessage,
            "bad request: this is not a request the server takes (docs/protocol.md)",
        ),
    };
    let mut answer = (status, axum::Json(ErrorBody::new(code, message))).into_response();
    // What the framework said of itself stays (Allow, Retry-After, ...),
    // but not the length of the body it replaced.
    for (name, value) in response.headers() {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            answer.headers_mut().insert(name, value.clone());
        }
    }
    answer
}

/// A request's body, read whole. One whose connection failed while it came
/// (the client gone, or the connection shed by the server at its cap:
/// `net::limits`) is no bad request: it is told to try again (the
/// framework's answer, "bad request", blamed the request).
pub(crate) struct RequestBody(pub(crate) Bytes);

impl<S: Send + Sync> FromRequest<S> for RequestBody {
    type Rejection = Response;

    async fn from_request(req: Request, state: &S) -> Result<RequestBody, Response> {
        Bytes::from_request(req, state)
            .await
            .map(RequestBody)
            .map_err(|rejected| match rejected {
                BytesRejection::FailedToBufferBody(FailedToBufferBody::UnknownBodyError(_)) => {
                    ApiError(ErrorBody::new(
                        ErrorCode::Busy,
                        "the request did not arrive whole: try again",
                    ))
                    .into_response()
                }
                other => other.into_response(),
            })
    }
}

/// Checks a POST to the JSON API before its body is read: it must say it is
/// JSON (`application/json`, which a page of another site cannot send
/// without the browser asking this server first) and, when a browser sends
/// an Origin, come from this server's own pages or an allowed origin. So
/// another website cannot make its visitors' browsers create tables or take
/// seats here.
pub(crate) fn json_request(app: &App, headers: &HeaderMap) -> Result<(), ApiError> {
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"));
    if !json {
        return Err(ApiError(ErrorBody::new(
            ErrorCode::Forbidden,
            "requests to this API are JSON: send Content-Type: application/json",
        )));
    }
    if !origin_allowed(headers, &app.config.allowed_origins) {
        return Err(ApiError(ErrorBody::new(
            ErrorCode::Forbidden,
            "this page's origin may not use this server",
        )));
    }
    Ok(())
}

/// A refusal: `status` with the one JSON error shape.
pub(crate) fn refuse(code: ErrorCode, status: StatusCode, why: &str) -> Response {
    (status, axum::Json(ErrorBody::new(code, why))).into_response()
}
