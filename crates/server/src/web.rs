//! The web client (`web/` in the repository), embedded in the binary: plain
//! HTML, CSS and JavaScript modules with no build step.

use axum::http::header;
use axum::response::IntoResponse;

const INDEX: &str = include_str!("../../../web/index.html");
const APP_JS: &str = include_str!("../../../web/app.js");
const STYLE: &str = include_str!("../../../web/style.css");

const CSP: &str = "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; \
                   object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

fn asset(kind: &'static str, body: &'static str) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-cache"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (header::CONTENT_SECURITY_POLICY, CSP),
            (header::REFERRER_POLICY, "no-referrer"),
        ],
        body,
    )
}

/// `/` and `/t/<invite>`: the page.
pub(crate) async fn index() -> impl IntoResponse {
    asset("text/html; charset=utf-8", INDEX)
}

/// `/app.js`.
pub(crate) async fn app_js() -> impl IntoResponse {
    asset("text/javascript; charset=utf-8", APP_JS)
}

/// `/style.css`.
pub(crate) async fn style_css() -> impl IntoResponse {
    asset("text/css; charset=utf-8", STYLE)
}
