//! The web client (`web/` in the repository), embedded in the binary: plain
//! HTML, CSS and JavaScript modules with no build step, the vendored Fluent
//! formatter (`web/vendor/`) and each language's catalogue.

use std::collections::HashMap;
use std::sync::LazyLock;

use axum::extract::Path;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use sha2::Digest;

const JS: &str = "text/javascript; charset=utf-8";

/// The page.
const INDEX: &[u8] = include_bytes!("../../../web/index.html");

/// `(name, type, bytes)` of a file of `web/`, embedded.
macro_rules! web {
    ($name:literal, $kind:expr) => {
        (
            $name,
            $kind,
            include_bytes!(concat!("../../../web/", $name)) as &[u8],
        )
    };
}

/// Every file of the page, by the path it is served under (`/<path>`):
/// the page, its modules and style, the offline app's worker, service worker,
/// manifest and icons, and the vendored libraries (each with its licence in
/// its folder: `qrcode-generator`, served as `/qrcode.mjs` and imported by
/// qr.js; `@fluent/bundle`'s ES modules unchanged, which import one another
/// by relative paths).
const FILES: &[(&str, &str, &[u8])] = &[
    ("index.html", "text/html; charset=utf-8", INDEX),
    web!("favicon.svg", "image/svg+xml"),
    web!("app.js", JS),
    web!("board.js", JS),
    web!("cards.js", JS),
    web!("chat.js", JS),
    web!("coach.js", JS),
    web!("dom.js", JS),
    web!("games.js", JS),
    web!("home.js", JS),
    web!("install.js", JS),
    web!("i18n.js", JS),
    web!("main.js", JS),
    web!("motion.js", JS),
    web!("napalm.js", JS),
    web!("notify.js", JS),
    web!("offline.js", JS),
    web!("passplay.js", JS),
    web!("qr.js", JS),
    web!("render.js", JS),
    web!("replay.js", JS),
    web!("rules.js", JS),
    web!("seats.js", JS),
    web!("sounds.js", JS),
    web!("state.js", JS),
    web!("summary.js", JS),
    web!("table.js", JS),
    web!("tables.js", JS),
    web!("words.js", JS),
    web!("worker.js", JS),
    web!("style.css", "text/css; charset=utf-8"),
    web!("manifest.webmanifest", "application/manifest+json"),
    web!("icons/icon-180.png", "image/png"),
    web!("icons/icon-192.png", "image/png"),
    web!("icons/icon-512.png", "image/png"),
    web!("icons/maskable-512.png", "image/png"),
    (
        "qrcode.mjs",
        JS,
        include_bytes!("../../../web/vendor/qrcode-generator/qrcode.mjs"),
    ),
    web!("vendor/fluent-bundle/builtins.js", JS),
    web!("vendor/fluent-bundle/bundle.js", JS),
    web!("vendor/fluent-bundle/index.js", JS),
    web!("vendor/fluent-bundle/memoizer.js", JS),
    web!("vendor/fluent-bundle/resolver.js", JS),
    web!("vendor/fluent-bundle/resource.js", JS),
    web!("vendor/fluent-bundle/scope.js", JS),
    web!("vendor/fluent-bundle/types.js", JS),
];

/// The offline app's WebAssembly and its glue (`scripts/build-wasm`), when
/// it was built before the server (`build.rs`).
#[cfg(tripoley_wasm)]
const WASM: &[(&str, &str, &[u8])] = &[
    (
        "pkg/tripoley_web.js",
        JS,
        include_bytes!(concat!(env!("TRIPOLEY_WASM_DIR"), "/tripoley_web.js")),
    ),
    (
        "pkg/tripoley_web_bg.wasm",
        "application/wasm",
        include_bytes!(concat!(env!("TRIPOLEY_WASM_DIR"), "/tripoley_web_bg.wasm")),
    ),
];
#[cfg(not(tripoley_wasm))]
const WASM: &[(&str, &str, &[u8])] = &[];

/// Whether this build carries the offline app's WebAssembly.
pub const HAS_WASM: bool = !WASM.is_empty();

/// The service worker's template: its version and the files it keeps are
/// written in by [`files`].
const SERVICE_WORKER: &str = include_str!("../../../web/sw.js");

/// Every file of the web app, `(path, type, bytes)`: what `tripoley serve`
/// serves and `tripoley site` writes, each language's catalogue included,
/// and the service worker that keeps them all for offline use.
pub fn files() -> &'static [(String, &'static str, &'static [u8])] {
    static ALL: LazyLock<Vec<(String, &'static str, &'static [u8])>> = LazyLock::new(|| {
        let mut all: Vec<_> = FILES
            .iter()
            .chain(WASM)
            .map(|&(name, kind, body)| (name.to_owned(), kind, body))
            .collect();
        for lang in tripoley_i18n::Lang::ALL {
            all.push((
                format!("locales/{}.ftl", lang.code()),
                "text/plain; charset=utf-8",
                lang.browser_source().as_bytes(),
            ));
        }
        let worker: &'static str = service_worker(&all).leak();
        all.push(("sw.js".to_owned(), JS, worker.as_bytes()));
        all
    });
    &ALL
}

/// The service worker for these files: its version is a digest of them all,
/// so any change makes a new worker (and the page offers the update).
fn service_worker(files: &[(String, &'static str, &'static [u8])]) -> String {
    let mut digest = sha2::Sha256::new();
    for (path, _, body) in files {
        digest.update(path.as_bytes());
        digest.update(body);
    }
    let head: [u8; 8] = digest.finalize()[..8]
        .try_into()
        .expect("a SHA-256 digest has 32 bytes");
    let version = format!("{:016x}", u64::from_be_bytes(head));
    // The page is kept as "./" (every address of the app is that page);
    // not kept: what needs a server anyway (the invite's QR code) and the
    // icons (an installed app's are kept by the device).
    let kept: Vec<String> = std::iter::once("./".to_owned())
        .chain(
            files
                .iter()
                .map(|(path, ..)| path.clone())
                .filter(|p| p != "index.html" && p != "qrcode.mjs" && !p.starts_with("icons/")),
        )
        .collect();
    let list = serde_json::to_string(&kept).expect("paths serialise");
    SERVICE_WORKER
        .replacen(
            "const VERSION = \"dev\";",
            &format!("const VERSION = \"{version}\";"),
            1,
        )
        .replacen("const FILES = [];", &format!("const FILES = {list};"), 1)
}

/// WebAssembly is compiled only from the page's own files (the offline
/// app's worker): `'wasm-unsafe-eval'` allows that and no `eval` of text.
const CSP: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; \
                   connect-src 'self' ws: wss:; img-src 'self' data:; \
                   object-src 'none'; base-uri 'self'; frame-ancestors 'none'";

/// A file as it is served: its bytes, the same compressed with Brotli and
/// with gzip once at the first request, and its ETag (a digest of the
/// bytes), so a browser that has it gets `304 Not Modified` and one that has
/// not gets it compressed (Brotli when it accepts it: a fifth smaller).
struct Served {
    kind: &'static str,
    /// Whether it carries the content security policy (a page or a worker).
    policy: bool,
    plain: &'static [u8],
    brotli: Vec<u8>,
    gzip: Vec<u8>,
    etag: String,
}

/// Brotli at its best quality and a 4 MiB window (every file is smaller):
/// done once per file, so the slow setting costs nothing per request.
fn brotli(plain: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let params = brotli::enc::BrotliEncoderParams {
        quality: 11,
        lgwin: 22,
        ..Default::default()
    };
    brotli::BrotliCompress(&mut &plain[..], &mut out, &params)
        .expect("Brotli into memory cannot fail");
    out
}

impl Served {
    fn new(path: &str, kind: &'static str, plain: &'static [u8]) -> Served {
        use std::io::Write;
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        let gzip = gz
            .write_all(plain)
            .and_then(|()| gz.finish())
            .expect("gzip into memory cannot fail");
        let digest = sha2::Sha256::digest(plain);
        let head: [u8; 16] = digest[..16]
            .try_into()
            .expect("a SHA-256 digest has 32 bytes");
        let etag = format!("\"{:032x}\"", u128::from_be_bytes(head));
        Served {
            kind,
            policy: kind.starts_with("text/html") || path == "worker.js" || path == "sw.js",
            plain,
            brotli: brotli(plain),
            gzip,
            etag,
        }
    }

    /// The answer to a GET with these request headers.
    fn respond(&self, request: &HeaderMap) -> Response {
        let mut headers = vec![
            (header::CONTENT_TYPE, self.kind.to_string()),
            // Asked again each time, answered 304 while it has not changed.
            (header::CACHE_CONTROL, "no-cache".to_string()),
            (header::ETAG, self.etag.clone()),
            (header::VARY, "Accept-Encoding".to_string()),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff".to_string()),
            (header::REFERRER_POLICY, "no-referrer".to_string()),
        ];
        // The policy governs a document or a worker (from its own script's
        // answer); on any other file it is ignored, and would only cost
        // the first load some 200 bytes a file.
        if self.policy {
            headers.push((header::CONTENT_SECURITY_POLICY, CSP.to_string()));
        }
        let headers = axum::response::AppendHeaders(headers);
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

/// The files of a static copy of the app (`tripoley site`): the page says
/// it has no server (`data-serverless`), so it asks none.
pub fn site_files() -> Vec<(String, &'static [u8])> {
    files()
        .iter()
        .map(|&(ref path, _, body)| {
            let body: &'static [u8] = if path == "index.html" {
                static SITE_INDEX: LazyLock<String> = LazyLock::new(|| {
                    String::from_utf8_lossy(INDEX)
                        .replacen(
                            "<html lang=\"en\">",
                            "<html lang=\"en\" data-serverless>",
                            1,
                        )
                        .replacen("<base href=\"/\">", "<base href=\"./\">", 1)
                });
                SITE_INDEX.as_bytes()
            } else {
                body
            };
            (path.clone(), body)
        })
        .collect()
}

static SERVED: LazyLock<HashMap<String, Served>> = LazyLock::new(|| {
    files()
        .iter()
        .map(|(path, kind, body)| (path.clone(), Served::new(path, kind, body)))
        .collect()
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

/// `/icons/<name>`: the installed app's icons.
pub(crate) async fn icon(Path(name): Path<String>, request: HeaderMap) -> Response {
    serve(&format!("icons/{name}"), &request, "no such file")
}

/// `/pkg/<name>`: the offline app's WebAssembly and its glue, which the
/// worker loads.
pub(crate) async fn pkg(Path(name): Path<String>, request: HeaderMap) -> Response {
    serve(&format!("pkg/{name}"), &request, "no such file")
}

/// `/locales/<code>.ftl`: a language's catalogue for the browser (every
/// `.ftl` file of `locales/<code>/` but the Rust-only ones), which the page
/// loads before it starts.
pub(crate) async fn locale(Path(name): Path<String>, request: HeaderMap) -> Response {
    serve(&format!("locales/{name}"), &request, "no such language")
}
