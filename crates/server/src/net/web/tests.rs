//! The published names: every fingerprinted file is served under a name
//! that holds its digest, and the page, its import map, its policy, the
//! service worker and a static copy all agree on them.

use super::*;
use base64::Engine;

#[test]
fn a_fingerprint_goes_before_the_extension() {
    let named = fingerprint("vendor/fluent-bundle/index.js", b"x");
    let (stem, rest) = named.split_at("vendor/fluent-bundle/index.".len());
    assert_eq!(stem, "vendor/fluent-bundle/index.");
    assert_eq!(rest.len(), 12 + ".js".len(), "{named}");
    assert!(rest[..12].bytes().all(|b| b.is_ascii_hexdigit()), "{named}");
    assert_ne!(named, fingerprint("vendor/fluent-bundle/index.js", b"y"));
}

#[test]
fn the_page_asks_for_every_module_by_its_published_name() {
    let page = page(false);
    let served: HashMap<&str, &File> = files().iter().map(|f| (f.path.as_str(), f)).collect();
    let map_text = page
        .split("<script type=\"importmap\">")
        .nth(1)
        .and_then(|rest| rest.split("</script>").next())
        .expect("the page has an import map");
    let map: serde_json::Value = serde_json::from_str(map_text).expect("the map is JSON");
    let imports = map["imports"].as_object().expect("an imports object");
    assert!(imports.len() >= 30, "{} entries", imports.len());
    for (plain, named) in imports {
        let named = named.as_str().expect("a path");
        let (plain, named) = (&plain[2..], &named[2..]);
        let file = served[named];
        assert!(file.immutable, "{named}");
        assert_eq!(file.body, served[plain].body, "{named}");
        assert!(!served[plain].immutable, "{plain}");
    }
    for plain in ["main.js", "style.css", "favicon.svg", "locales/es.ftl"] {
        assert!(imports.contains_key(&format!("./{plain}")), "{plain}");
    }
    for fixed in ["worker.js", "sw.js", "manifest.webmanifest"] {
        assert!(!imports.contains_key(&format!("./{fixed}")), "{fixed}");
    }
    // The page names no fingerprinted file by its plain name.
    for (plain, _) in renamed() {
        assert!(!page.contains(&format!("=\"{plain}\"")), "{plain}");
    }
    // Its policy allows the import map, and no other inline script.
    let digest = base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(map_text));
    assert!(CSP.contains(&format!("'sha256-{digest}'")), "{}", *CSP);
    assert_eq!(
        page.matches("<script").count(),
        2,
        "the import map and main.js"
    );
}

#[test]
fn a_static_copy_holds_what_its_page_and_service_worker_ask_for() {
    let site: HashMap<String, &[u8]> = site_files().into_iter().collect();
    let index = String::from_utf8_lossy(site["index.html"]);
    assert!(index.contains("<base href=\"./\">"));
    // A build without the WebAssembly (a contributor's, before
    // scripts/build-wasm) marks neither: `tripoley site` refuses to write it.
    assert_eq!(index.contains("data-serverless"), HAS_WASM);
    assert_eq!(index.contains("data-engine"), HAS_WASM);
    let worker = String::from_utf8_lossy(site["sw.js"]);
    let list = worker
        .split("const FILES = ")
        .nth(1)
        .and_then(|rest| rest.split(";\n").next())
        .expect("the worker lists its files");
    let kept: Vec<String> = serde_json::from_str(list).expect("a JSON list");
    for path in kept.iter().filter(|p| *p != "./") {
        assert!(site.contains_key(path), "{path}");
    }
    for (plain, named) in renamed() {
        assert!(site.contains_key(named), "{named}");
        assert!(
            !site.contains_key(plain),
            "{plain}: only its published name"
        );
        // The invite's QR code needs a server anyway: not kept.
        assert_eq!(
            kept.contains(named),
            !named.starts_with("qrcode."),
            "{named}"
        );
    }
}

/// Each file's answer names one type, its own, however it is encoded: the
/// body's `application/octet-stream` before it made WebKit refuse the style
/// sheet (`nosniff`).
#[test]
fn every_file_is_answered_with_one_content_type() {
    for encoding in ["br", "gzip", "identity"] {
        let mut request = HeaderMap::new();
        request.insert(header::ACCEPT_ENCODING, encoding.parse().unwrap());
        for (path, file) in SERVED.iter() {
            let answer = file.respond(&request);
            let types: Vec<_> = answer
                .headers()
                .get_all(header::CONTENT_TYPE)
                .iter()
                .collect();
            assert_eq!(types, [file.kind], "{path} with {encoding}");
        }
    }
}
