//! `GET /api/tables/<invite>/rules`: the table's own rules (its preset
//! changed by its house rules) in plain words, from the engine's
//! `describe`, for the rules view at the table.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::App;
use crate::protocol::GameKind;
use crate::table::Cmd;

/// Answers `{"text": "..."}`: section titles on lines of their own, each
/// rule on an indented line ending with its id in RULES.md, such as "(T5)"
/// (the web client drops the ids: players read rules, not references).
pub(crate) async fn rules(State(app): State<Arc<App>>, Path(invite): Path<String>) -> Response {
    match app.ask(&invite, |reply| Cmd::Info { reply }).await {
        Ok(info) => {
            let s = &info.settings;
            let text = match (s.game, &s.napalm) {
                (GameKind::Napalm, Some(napalm)) => napalm.describe(),
                _ => s.rules.describe(),
            };
            axum::Json(json!({ "text": text })).into_response()
        }
        Err(e) => (StatusCode::NOT_FOUND, axum::Json(e)).into_response(),
    }
}
