//! The web client (`web/` in the repository), embedded in the binary: plain
//! HTML, CSS and JavaScript modules with no build step, the vendored Fluent
//! formatter (`web/vendor/`) and each language's catalogue.

use axum::extract::Path;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

const INDEX: &str = include_str!("../../../web/index.html");

const JS: &str = "text/javascript; charset=utf-8";

/// Every file the page loads, by the name it is served under (`/<name>`).
const FILES: &[(&str, &str, &str)] = &[
    ("app.js", JS, include_str!("../../../web/app.js")),
    ("board.js", JS, include_str!("../../../web/board.js")),
    ("cards.js", JS, include_str!("../../../web/cards.js")),
    ("chat.js", JS, include_str!("../../../web/chat.js")),
    ("coach.js", JS, include_str!("../../../web/coach.js")),
    ("dom.js", JS, include_str!("../../../web/dom.js")),
    ("i18n.js", JS, include_str!("../../../web/i18n.js")),
    ("motion.js", JS, include_str!("../../../web/motion.js")),
    ("napalm.js", JS, include_str!("../../../web/napalm.js")),
    ("qr.js", JS, include_str!("../../../web/qr.js")),
    // Vendored (MIT, web/vendor/qrcode-generator/LICENSE), imported by qr.js.
    (
        "qrcode.mjs",
        JS,
        include_str!("../../../web/vendor/qrcode-generator/qrcode.mjs"),
    ),
    ("seats.js", JS, include_str!("../../../web/seats.js")),
    ("state.js", JS, include_str!("../../../web/state.js")),
    ("summary.js", JS, include_str!("../../../web/summary.js")),
    ("tables.js", JS, include_str!("../../../web/tables.js")),
    ("words.js", JS, include_str!("../../../web/words.js")),
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("../../../web/style.css"),
    ),
];

/// `@fluent/bundle`'s ES modules (npm, vendored unchanged with its licence),
/// served as `/vendor/fluent-bundle/<name>`: they import one another by
/// relative paths.
const FLUENT: &[(&str, &str)] = &[
    (
        "builtins.js",
        include_str!("../../../web/vendor/fluent-bundle/builtins.js"),
    ),
    (
        "bundle.js",
        include_str!("../../../web/vendor/fluent-bundle/bundle.js"),
    ),
    (
        "index.js",
        include_str!("../../../web/vendor/fluent-bundle/index.js"),
    ),
    (
        "memoizer.js",
        include_str!("../../../web/vendor/fluent-bundle/memoizer.js"),
    ),
    (
        "resolver.js",
        include_str!("../../../web/vendor/fluent-bundle/resolver.js"),
    ),
    (
        "resource.js",
        include_str!("../../../web/vendor/fluent-bundle/resource.js"),
    ),
    (
        "scope.js",
        include_str!("../../../web/vendor/fluent-bundle/scope.js"),
    ),
    (
        "types.js",
        include_str!("../../../web/vendor/fluent-bundle/types.js"),
    ),
];

const CSP: &str = "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; \
                   object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

fn asset(kind: &'static str, body: &'static str) -> Response {
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
        .into_response()
}

/// `/` and `/t/<invite>`: the page.
pub(crate) async fn index() -> Response {
    asset("text/html; charset=utf-8", INDEX)
}

/// `/<name>`: one of the page's scripts or its style sheet.
pub(crate) async fn file(Path(name): Path<String>) -> Response {
    match FILES.iter().find(|(n, _, _)| *n == name) {
        Some(&(_, kind, body)) => asset(kind, body),
        None => (StatusCode::NOT_FOUND, "no such file").into_response(),
    }
}

/// `/vendor/fluent-bundle/<name>`: the Fluent formatter `i18n.js` imports.
pub(crate) async fn fluent(Path(name): Path<String>) -> Response {
    match FLUENT.iter().find(|(n, _)| *n == name) {
        Some(&(_, body)) => asset(JS, body),
        None => (StatusCode::NOT_FOUND, "no such file").into_response(),
    }
}

/// `/locales/<code>.ftl`: a language's catalogue for the browser (every
/// `.ftl` file of `locales/<code>/` but the Rust-only ones), which the page
/// loads before it starts.
pub(crate) async fn locale(Path(name): Path<String>) -> Response {
    match name.strip_suffix(".ftl").and_then(|code| {
        tripoley_i18n::Lang::ALL
            .into_iter()
            .find(|l| l.code() == code)
    }) {
        Some(lang) => asset("text/plain; charset=utf-8", lang.browser_source()),
        None => (StatusCode::NOT_FOUND, "no such language").into_response(),
    }
}
