//! The web client (`web/` in the repository), embedded in the binary: plain
//! HTML, CSS and JavaScript modules with no build step, the vendored Fluent
//! formatter (`web/vendor/`) and each language's catalogue.

use std::collections::HashMap;
use std::sync::LazyLock;

use axum::extract::Path;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use sha2::Digest;

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
    ("games.js", JS, include_str!("../../../web/games.js")),
    ("home.js", JS, include_str!("../../../web/home.js")),
    ("i18n.js", JS, include_str!("../../../web/i18n.js")),
    ("main.js", JS, include_str!("../../../web/main.js")),
    ("motion.js", JS, include_str!("../../../web/motion.js")),
    ("napalm.js", JS, include_str!("../../../web/napalm.js")),
    ("qr.js", JS, include_str!("../../../web/qr.js")),
    ("replay.js", JS, include_str!("../../../web/replay.js")),
    ("rules.js", JS, include_str!("../../../web/rules.js")),
    // Vendored (MIT, web/vendor/qrcode-generator/LICENSE), imported by qr.js.
    (
        "qrcode.mjs",
        JS,
        include_str!("../../../web/vendor/qrcode-generator/qrcode.mjs"),
    ),
    ("notify.js", JS, include_str!("../../../web/notify.js")),
    ("passplay.js", JS, include_str!("../../../web/passplay.js")),
    ("seats.js", JS, include_str!("../../../web/seats.js")),
    ("sounds.js", JS, include_str!("../../../web/sounds.js")),
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

/// The tab's icon: a card's corner on the felt.
const FAVICON: &str = include_str!("../../../web/favicon.svg");

/// A file as it is served: its bytes, the same compressed with Brotli and
/// with gzip once at the first request, and its ETag (a digest of the
/// bytes), so a browser that has it gets `304 Not Modified` and one that has
/// not gets it compressed (Brotli when it accepts it: a fifth smaller).
struct Served {
    kind: &'static str,
    plain: &'static str,
    brotli: Vec<u8>,
    gzip: Vec<u8>,
    etag: String,
}

/// Brotli at its best quality and a 4 MiB window (every file is smaller):
/// done once per file, so the slow setting costs nothing per request.
fn brotli(plain: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let params = brotli::enc::BrotliEncoderParams {
        quality: 11,
        lgwin: 22,
        ..Default::default()
    };
    brotli::BrotliCompress(&mut plain.as_bytes(), &mut out, &params)
        .expect("Brotli into memory cannot fail");
    out
}

impl Served {
    fn new(kind: &'static str, plain: &'static str) -> Served {
        use std::io::Write;
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        let gzip = gz
            .write_all(plain.as_bytes())
            .and_then(|()| gz.finish())
            .expect("gzip into memory cannot fail");
        let digest = sha2::Sha256::digest(plain.as_bytes());
        let head: [u8; 16] = digest[..16]
            .try_into()
            .expect("a SHA-256 digest has 32 bytes");
        let etag = format!("\"{:032x}\"", u128::from_be_bytes(head));
        Served {
            kind,
            plain,
            brotli: brotli(plain),
            gzip,
            etag,
        }
    }

    /// The answer to a GET with these request headers.
    fn respond(&self, request: &HeaderMap) -> Response {
        let headers = [
            (header::CONTENT_TYPE, self.kind.to_string()),
            // Asked again each time, answered 304 while it has not changed.
            (header::CACHE_CONTROL, "no-cache".to_string()),
            (header::ETAG, self.etag.clone()),
            (header::VARY, "Accept-Encoding".to_string()),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff".to_string()),
            (header::CONTENT_SECURITY_POLICY, CSP.to_string()),
            (header::REFERRER_POLICY, "no-referrer".to_string()),
        ];
        let has = |name: header::HeaderName, want: &str| {
            request
                .get_all(name)
                .iter()
                .filter_map(|v| v.to_str().ok())
                .flat_map(|v| v.split(','))
                .any(|v| v.trim().split(';').next() == Some(want))
        };
        if has(header::IF_NONE_MATCH, &self.etag) {
            // Only what a cache needs: a reload is some twenty of these.
            let short = [
                (header::CACHE_CONTROL, "no-cache".to_string()),
                (header::ETAG, self.etag.clone()),
                (header::VARY, "Accept-Encoding".to_string()),
            ];
            return (StatusCode::NOT_MODIFIED, short).into_response();
        }
        if has(header::ACCEPT_ENCODING, "br") {
            return (
                headers,
                [(header::CONTENT_ENCODING, "br")],
                self.brotli.clone(),
            )
                .into_response();
        }
        if has(header::ACCEPT_ENCODING, "gzip") {
            return (
                headers,
                [(header::CONTENT_ENCODING, "gzip")],
                self.gzip.clone(),
            )
                .into_response();
        }
        (headers, self.plain).into_response()
    }
}

/// Every file served, by its path without the leading `/` (the page is
/// `index.html`), prepared at the first request.
static SERVED: LazyLock<HashMap<String, Served>> = LazyLock::new(|| {
    let mut all = HashMap::new();
    all.insert(
        "index.html".to_string(),
        Served::new("text/html; charset=utf-8", INDEX),
    );
    all.insert(
        "favicon.svg".to_string(),
        Served::new("image/svg+xml", FAVICON),
    );
    for &(name, kind, body) in FILES {
        all.insert(name.to_string(), Served::new(kind, body));
    }
    for &(name, body) in FLUENT {
        all.insert(
            format!("vendor/fluent-bundle/{name}"),
            Served::new(JS, body),
        );
    }
    for lang in tripoley_i18n::Lang::ALL {
        all.insert(
            format!("locales/{}.ftl", lang.code()),
            Served::new("text/plain; charset=utf-8", lang.browser_source()),
        );
    }
    all
});

fn serve(path: &str, request: &HeaderMap, missing: &'static str) -> Response {
    match SERVED.get(path) {
        Some(file) => file.respond(request),
        None => (StatusCode::NOT_FOUND, missing).into_response(),
    }
}

/// `/` and `/t/<invite>`: the page.
pub(crate) async fn index(request: HeaderMap) -> Response {
    serve("index.html", &request, "no page")
}

/// `/<name>`: one of the page's scripts, its style sheet or its icon.
pub(crate) async fn file(Path(name): Path<String>, request: HeaderMap) -> Response {
    serve(&name, &request, "no such file")
}

/// `/vendor/fluent-bundle/<name>`: the Fluent formatter `i18n.js` imports.
pub(crate) async fn fluent(Path(name): Path<String>, request: HeaderMap) -> Response {
    serve(
        &format!("vendor/fluent-bundle/{name}"),
        &request,
        "no such file",
    )
}

/// `/locales/<code>.ftl`: a language's catalogue for the browser (every
/// `.ftl` file of `locales/<code>/` but the Rust-only ones), which the page
/// loads before it starts.
pub(crate) async fn locale(Path(name): Path<String>, request: HeaderMap) -> Response {
    serve(&format!("locales/{name}"), &request, "no such language")
}
