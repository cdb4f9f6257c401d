//! The browser's build against the native one (issue 46): the same games
//! played through the offline table's API in WebAssembly (in Node, by
//! `wasm.mjs`) and natively give the same records (so the bots, searching a
//! fixed number of playouts, and the hints made the same moves) and the same
//! replay frames (events, transfers and views, for every seat and face up),
//! byte for byte, for every preset, Napalm and house-rule mixes.
//!
//! Needs the WebAssembly built (`scripts/build-wasm`, which `scripts/test`
//! runs first) and Node.js. Without them the test says so and passes, except
//! under CI (`CI` set), where it fails.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use serde_json::{Value, json};
use tripoley_table::Local;
use tripoley_table::local::Next;
use tripoley_table::protocol::CreateTable;

/// The games: every preset (three seats, one deal), house-rule mixes and
/// Napalm, each with one person (seat 0) and bots of every level.
fn games() -> Vec<Value> {
    let bots = json!([null, "expert", "heuristic"]);
    let mut games: Vec<Value> = ["pagat", "tripoley", "michigan-casino", "rummoli", "cosmo"]
        .iter()
        .enumerate()
        .map(|(i, preset)| {
            json!({"create": {"preset": preset, "seats": 3, "deals": 1},
                   "names": ["Ann", "Bot 2", "Bot 3"], "bots": bots, "seed": (1000 + i).to_string()})
        })
        .collect();
    for (i, rules) in [
        json!({"misplays": "penalised", "ante": 2}),
        json!({"bet_limit": 5, "space_antes": {"pot": 3, "kitty": 2}}),
    ]
    .into_iter()
    .enumerate()
    {
        games.push(json!({"create": {"preset": "pagat", "seats": 4, "deals": 1, "rules": rules},
            "names": ["Ann", "Bot 2", "Bot 3", "Bot 4"], "bots": [null, "random", "expert", "heuristic"],
            "seed": (2000 + i).to_string()}));
    }
    games.push(
        json!({"create": {"game": "napalm", "seats": 3, "starting_chips": 20, "tokens_to_win": 2},
        "names": ["Ann", "Bot 2", "Bot 3"], "bots": [null, "heuristic", "random"], "seed": "3000"}),
    );
    games
}

/// The same as `wasm.mjs`, natively.
fn native(game: &Value) -> Value {
    let create: CreateTable = serde_json::from_value(game["create"].clone()).unwrap();
    let names: Vec<String> = serde_json::from_value(game["names"].clone()).unwrap();
    let bots = serde_json::from_value(game["bots"].clone()).unwrap();
    let seed = game["seed"].as_str().unwrap().parse().unwrap();
    let mut table = Local::new(
        create.game_settings().unwrap(),
        names.clone(),
        bots,
        seed,
        None,
    )
    .unwrap();
    loop {
        match table.next() {
            Next::Over => break,
            Next::Bot(_) => assert!(table.bot_acts()),
            Next::Held => assert!(table.release()),
            Next::Person(seat) => {
                let hint = table.hint(seat).unwrap();
                table.act(seat, &hint, Some(table.n())).unwrap();
            }
        }
    }
    let saved = table.saved();
    let record = tripoley_table::replay::read_upload(saved.as_bytes()).unwrap();
    let replays: Vec<String> = std::iter::once(None)
        .chain((0..names.len()).map(|s| Some(s as u8)))
        .map(|seat| {
            let frames = tripoley_table::replay::frames(&record, seat, None)
                .ok()
                .unwrap();
            String::from_utf8(frames).unwrap()
        })
        .collect();
    json!({"saved": saved, "replays": replays, "state": table.state(Some(0))})
}

#[test]
fn the_browser_build_plays_and_replays_as_the_native_one_byte_for_byte() {
    let pkg = std::env::var_os("TRIPOLEY_WASM_PKG").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/wasm-pkg"),
        PathBuf::from,
    );
    let built = pkg.join("tripoley_web_bg.wasm").is_file();
    let node = Command::new("node").arg("--version").output().is_ok();
    if !built || !node {
        let why = "needs the WebAssembly (scripts/build-wasm) and Node.js";
        assert!(std::env::var_os("CI").is_none(), "{why}");
        eprintln!("skipped: {why}");
        return;
    }
    let games = games();
    let mut child = Command::new("node")
        .arg(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/wasm.mjs"))
        .arg(&pkg)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("node runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(serde_json::to_string(&games).unwrap().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "the WebAssembly side failed");
    let wasm: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(wasm.len(), games.len());
    for (game, got) in games.iter().zip(&wasm) {
        let want = native(game);
        let what = &game["create"];
        assert_eq!(got["saved"], want["saved"], "{what}: the same moves");
        assert_eq!(got["state"], want["state"], "{what}: the same last frame");
        assert_eq!(got["replays"], want["replays"], "{what}: the same replays");
        // The game was played to its end, every step replayed.
        let steps =
            serde_json::from_str::<Value>(want["saved"].as_str().unwrap()).unwrap()["steps"]
                .as_array()
                .map_or(0, Vec::len);
        assert!(steps > 10, "{what}: {steps} steps");
    }
}
