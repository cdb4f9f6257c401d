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
const INDEX: &[u8] = include_bytes!("../../../../../web/index.html");

/// `(name, type, bytes)` of a file of `web/`, embedded.
macro_rules! web {
    ($name:literal, $kind:expr) => {
        (
            $name,
            $kind,
            include_bytes!(concat!("../../../../../web/", $name)) as &[u8],
        )
    };
}

/// Every file of the page but the page, by the path it is written under:
/// its modules and style, the offline app's worker, service worker,
/// manifest and icons, and the vendored libraries (each with its licence in
/// its folder: `qrcode-generator`, served as `/qrcode.mjs` and imported by
/// qr.js; `@fluent/bundle`'s ES modules unchanged, which import one another
/// by relative paths).
const FILES: &[(&str, &str, &[u8])] = &[
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
        include_bytes!("../../../../../web/vendor/qrcode-generator/qrcode.mjs"),
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
const SERVICE_WORKER: &str = include_str!("../../../../../web/sw.js");

/// A file of the web app as it is published, under `/<path>`.
pub struct File {
    /// Where it is served, from the app's root.
    pub path: String,
    /// Its media type.
    pub kind: &'static str,
    /// Its bytes.
    pub body: &'static [u8],
    /// Whether its name holds a digest of its bytes: that name never names
    /// other bytes, so a browser keeps the file without asking again.
    pub immutable: bool,
}

/// The app's own files as written, `(path, type, bytes)`: the page's
/// modules, style and libraries, the worker, its WebAssembly, the icons and
/// each language's catalogue (not the page itself nor the service worker,
/// which are made from these).
fn sources() -> &'static [(String, &'static str, &'static [u8])] {
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
        all
    });
    &ALL
}

/// Whether a file is published under a name with its digest. Not those
/// asked for by a fixed name: the worker (made from offline.js's address),
/// the WebAssembly and its glue (loaded by the worker, where the page's
/// import map does not reach), the manifest and the icons (read by the
/// browser and the device, which keep them themselves).
fn fingerprinted(path: &str) -> bool {
    !(path == "worker.js"
        || path == "manifest.webmanifest"
        || path.starts_with("icons/")
        || path.starts_with("pkg/"))
}

/// `dir/name.ext` as `dir/name.<digest>.ext`, the digest of its bytes.
fn fingerprint(path: &str, body: &[u8]) -> String {
    let digest = sha2::Sha256::digest(body);
    let head: [u8; 8] = digest[..8]
        .try_into()
        .expect("a SHA-256 digest has 32 bytes");
    // Twelve hex digits (48 bits): two versions of a file never meet.
    let tag = format!("{:012x}", u64::from_be_bytes(head) >> 16);
    let file = path.rfind('/').map_or(0, |i| i + 1);
    match path[file..].rfind('.') {
        Some(dot) => format!("{}.{tag}{}", &path[..file + dot], &path[file + dot..]),
        None => format!("{path}.{tag}"),
    }
}

/// Each fingerprinted file's plain path and the path it is published under.
fn renamed() -> &'static [(String, String)] {
    static ALL: LazyLock<Vec<(String, String)>> = LazyLock::new(|| {
        sources()
            .iter()
            .filter(|(path, ..)| fingerprinted(path))
            .map(|(path, _, body)| (path.clone(), fingerprint(path, body)))
            .collect()
    });
    &ALL
}

/// The page's import map: each module's plain address to its fingerprinted
/// one, so that the modules keep importing one another by their plain
/// names (no build step rewrites them) and still load the published files.
/// Keys are relative to the page's base, which holds for a server's root
/// and a static copy's folder alike.
static IMPORT_MAP: LazyLock<String> = LazyLock::new(|| {
    let imports: serde_json::Map<String, serde_json::Value> = renamed()
        .iter()
        .map(|(plain, named)| (format!("./{plain}"), format!("./{named}").into()))
        .collect();
    serde_json::json!({ "imports": imports }).to_string()
});

/// The page, its files called by their published names and the import
/// map written in after its base; `serverless` for a static copy, which says
/// it has no server and takes its base from its own folder (a static copy
/// is only written by a build with the engine: `tripoley site` checks).
fn page(serverless: bool) -> String {
    let mut html = String::from_utf8_lossy(INDEX).into_owned();
    for (plain, named) in renamed() {
        for attr in ["href", "src"] {
            html = html.replace(
                &format!("{attr}=\"{plain}\""),
                &format!("{attr}=\"{named}\""),
            );
        }
    }
    let base = if serverless { "./" } else { "/" };
    html = html.replacen(
        "<base href=\"/\">",
        &format!(
            "<base href=\"{base}\">\n  <script type=\"importmap\">{}</script>",
            *IMPORT_MAP
        ),
        1,
    );
    // Whether this build carries the offline app's engine, and whether
    // the page has no server: the page reads both from its root element.
    let root = match (HAS_WASM, serverless) {
        (true, true) => "<html lang=\"en\" data-engine data-serverless>",
        (true, false) => "<html lang=\"en\" data-engine>",
        (false, _) => "<html lang=\"en\">",
    };
    html.replacen("<html lang=\"en\">", root, 1)
}

/// Every file the server serves: the page, each source under its plain
/// name (revalidated, for whatever asks for it by that name) and, when it
/// is fingerprinted, under its published name too, and the service worker
/// that keeps what the page loads for offline use.
pub fn files() -> &'static [File] {
    static ALL: LazyLock<Vec<File>> = LazyLock::new(|| {
        let index: &'static str = page(false).leak();
        let mut all = vec![File {
            path: "index.html".to_owned(),
            kind: "text/html; charset=utf-8",
            body: index.as_bytes(),
            immutable: false,
        }];
        for &(ref path, kind, body) in sources() {
            all.push(File {
                path: path.clone(),
                kind,
                body,
                immutable: false,
            });
        }
        for ((_, kind, body), (_, named)) in sources()
            .iter()
            .filter(|(path, ..)| fingerprinted(path))
            .zip(renamed())
        {
            all.push(File {
                path: named.clone(),
                kind,
                body,
                immutable: true,
            });
        }
        let worker: &'static str = service_worker().leak();
        all.push(File {
            path: "sw.js".to_owned(),
            kind: JS,
            body: worker.as_bytes(),
            immutable: false,
        });
        all
    });
    &ALL
}

/// Each source by the name the page asks for it.
fn published() -> impl Iterator<Item = (&'static str, &'static [u8])> {
    sources().iter().map(|(path, _, body)| {
        let named = renamed()
            .iter()
            .find(|(plain, _)| plain == path)
            .map_or(path, |(_, named)| named);
        (named.as_str(), *body)
    })
}

/// The service worker: its version is a digest of every file it keeps, so
/// any change makes a new worker (and the page offers the update).
fn service_worker() -> String {
    let mut digest = sha2::Sha256::new();
    digest.update(page(false).as_bytes());
    for (path, body) in published() {
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
            published()
                .map(|(path, _)| path)
                .filter(|p| !p.starts_with("qrcode.") && !p.starts_with("icons/"))
                .map(str::to_owned),
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
/// The one inline script, the page's import map, is allowed by its digest.
static CSP: LazyLock<String> = LazyLock::new(|| {
    use base64::Engine;
    let map = base64::engine::general_purpose::STANDARD
        .encode(sha2::Sha256::digest(IMPORT_MAP.as_bytes()));
    format!(
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval' 'sha256-{map}'; \
         connect-src 'self' ws: wss:; img-src 'self' data:; \
         object-src 'none'; base-uri 'self'; frame-ancestors 'none'"
    )
});

/// A file as it is served: its bytes, the same compressed with Brotli and
/// with gzip once at the first request, and its ETag (a digest of the
/// bytes), so a browser that has it gets `304 Not Modified` and one that has
/// not gets it compressed (Brotli when it accepts it: a fifth smaller).
struct Served {
    kind: &'static str,
    /// Whether it carries the content security policy (a page or a worker).
    policy: bool,
    /// Whether its name holds its digest (kept a year without asking).
    immutable: bool,
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
    fn new(file: &File) -> Served {
        use std::io::Write;
        let (path, kind, plain) = (file.path.as_str(), file.kind, file.body);
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
            immutable: file.immutable,
            plain,
            brotli: brotli(plain),
            gzip,
            etag,
        }
    }

    /// The answer to a GET with these request headers.
    fn respond(&self, request: &HeaderMap) -> Response {
        // A fingerprinted name is kept for a year and never asked again (a
        // new version is a new name); any other is asked again each time,
        // answered 304 while it has not changed.
        let cache = if self.immutable {
            "public, max-age=31536000, immutable"
        } else {
            "no-cache"
        };
        let mut headers = vec![
            (header::CACHE_CONTROL, cache.to_string()),
            (header::VARY, "Accept-Encoding".to_string()),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff".to_string()),
            (header::REFERRER_POLICY, "no-referrer".to_string()),
        ];
        // A file never asked again needs no tag to be asked by (50 bytes a
        // file of the offline app's first load).
        if !self.immutable {
            headers.push((header::ETAG, self.etag.clone()));
        }
        // The policy governs a document or a worker (from its own script's
        // answer); on any other file it is ignored, and would only cost
        // the first load some 200 bytes a file.
        if self.policy {
            headers.push((header::CONTENT_SECURITY_POLICY, CSP.clone()));
        }
        // The body's own type (application/octet-stream, from the bytes) is
        // replaced, not followed by a second: WebKit read the first of two
        // and, told `nosniff`, took no style sheet.
        let headers = (
            axum::response::AppendHeaders(headers),
            [(header::CONTENT_TYPE, self.kind)],
        );
        let has = |name: header::HeaderName, want: &str| {
            request
                .get_all(name)
                .iter()
                .filter_map(|v| v.to_str().ok())
                .flat_map(|v| v.split(','))
                .any(|v| v.trim().split(';').next() == Some(want))
        };
        if !self.immutable && has(header::IF_NONE_MATCH, &self.etag) {
            // Only what a cache needs: a reload is some twenty of these.
            let short = [
                (header::CACHE_CONTROL, cache.to_string()),
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

/// The files of a static copy of the app (`tripoley site`): each by the
/// name the page asks for it, the service worker, and the page, which says
/// it has no server (`data-serverless`), so it asks none.
pub fn site_files() -> Vec<(String, &'static [u8])> {
    static SITE_INDEX: LazyLock<String> = LazyLock::new(|| page(true));
    let worker = files()
        .iter()
        .find(|f| f.path == "sw.js")
        .expect("the service worker is among the files");
    std::iter::once(("index.html".to_owned(), SITE_INDEX.as_bytes()))
        .chain(published().map(|(path, body)| (path.to_owned(), body)))
        .chain(std::iter::once((worker.path.clone(), worker.body)))
        .collect()
}

static SERVED: LazyLock<HashMap<String, Served>> = LazyLock::new(|| {
    files()
        .iter()
        .map(|file| (file.path.clone(), Served::new(file)))
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

#[cfg(test)]
mod tests;
