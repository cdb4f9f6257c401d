//! Embeds the offline app's WebAssembly (`scripts/build-wasm` writes it to
//! `target/wasm-pkg/`, or `TRIPOLEY_WASM_PKG` names another folder) when it
//! has been built: the server then serves the app that plays with no server,
//! and `tripoley site` writes it out. Without it the server serves the online
//! table alone, and the page offers no offline game.

use std::path::PathBuf;

const FILES: [&str; 2] = ["tripoley_web.js", "tripoley_web_bg.wasm"];

fn main() {
    println!("cargo::rustc-check-cfg=cfg(tripoley_wasm)");
    println!("cargo::rerun-if-env-changed=TRIPOLEY_WASM_PKG");
    let pkg = std::env::var_os("TRIPOLEY_WASM_PKG").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/wasm-pkg"),
        PathBuf::from,
    );
    // Files that do not exist yet cannot be watched (cargo would run this
    // again at every build): scripts/build-wasm touches this file instead.
    println!("cargo::rerun-if-changed=build.rs");
    if pkg.is_dir() {
        for f in FILES {
            println!("cargo::rerun-if-changed={}", pkg.join(f).display());
        }
    }
    if FILES.iter().all(|f| pkg.join(f).is_file()) {
        let dir = pkg.canonicalize().expect("an existing folder");
        println!("cargo::rustc-cfg=tripoley_wasm");
        println!("cargo::rustc-env=TRIPOLEY_WASM_DIR={}", dir.display());
    }
}
