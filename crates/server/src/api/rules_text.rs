//! `GET /api/tables/<invite>/rules?lang=es`: the table's own rules (its
//! preset changed by its house rules) in plain words, in English or
//! Spanish, for the rules view at the table.

use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;
use tripoley_i18n::{Lang, rules};

use crate::App;
use crate::protocol::GameKind;
use crate::table::Cmd;

/// The query: `lang`, a language tag (`es`, `es-MX`); English when it is
/// missing or names a language the catalogue does not have.
#[derive(Deserialize)]
pub(crate) struct RulesQuery {
    lang: Option<String>,
}

/// Answers `{"text": "...", "lang": "es"}`: section titles on lines of their
/// own, each rule on an indented line ending with its id in RULES.md, such
/// as "(T5)" (the web client drops the ids: players read rules, not
/// references); options that change nothing at this table are left out.
pub(crate) async fn rules(
    State(app): State<Arc<App>>,
    Path(invite): Path<String>,
    Query(query): Query<RulesQuery>,
) -> Response {
    let lang = query
        .lang
        .as_deref()
        .and_then(Lang::parse)
        .unwrap_or_default();
    match app.ask(&invite, |reply| Cmd::Info { reply }).await {
        Ok(info) => {
            let s = &info.settings;
            let text = match (s.game, &s.napalm) {
                (GameKind::Napalm, Some(napalm)) => rules::describe_napalm(napalm, lang),
                _ => rules::describe_for_players(&s.rules, lang),
            };
            axum::Json(json!({ "text": text, "lang": lang.code() })).into_response()
        }
        Err(e) => (StatusCode::NOT_FOUND, axum::Json(e)).into_response(),
    }
}
