//! An API error as an HTTP response: its status and the one JSON error
//! shape. A leaf: the routes and the cluster's forwarding both answer with
//! it.

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::protocol::{ErrorBody, ErrorCode};

/// Seconds a client waits before trying again after a storage failure.
pub(crate) const RETRY_AFTER: &str = "2";

/// An API error as a response: a status and the JSON [`ErrorBody`].
pub(crate) struct ApiError(pub(crate) ErrorBody);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = match self.0.code {
            ErrorCode::NoTable => StatusCode::NOT_FOUND,
            ErrorCode::Unauthorized | ErrorCode::Forbidden => StatusCode::FORBIDDEN,
            ErrorCode::SeatTaken | ErrorCode::AlreadyStarted | ErrorCode::GameOver => {
                StatusCode::CONFLICT
            }
            ErrorCode::Full | ErrorCode::Busy => StatusCode::SERVICE_UNAVAILABLE,
            ErrorCode::RateLimited => StatusCode::TOO_MANY_REQUESTS,
            // Nothing changed, and the database is back within seconds (a
            // restart, a table moving): the client tries again.
            ErrorCode::Storage => {
                return (
                    StatusCode::SERVICE_UNAVAILABLE,
                    [(header::RETRY_AFTER, RETRY_AFTER)],
                    axum::Json(self.0),
                )
                    .into_response();
            }
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
