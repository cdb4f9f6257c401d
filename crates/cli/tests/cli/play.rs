//! `tripoley play` as a user runs it without a terminal: it must refuse
//! clearly (exit code 2), and bad arguments must be told apart first.
//! The game itself is tested through its state machine, in `src/play/tests.rs`.

use std::process::{Command, Output, Stdio};

fn tripoley(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tripoley"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn play_without_a_terminal_refuses_with_code_2() {
    let out = tripoley(&["play", "--seed", "3"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("needs an interactive terminal"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn play_checks_its_arguments_first() {
    let out = tripoley(&["play", "--players", "4", "--bots", "random,heuristic"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("3 bot seats"), "{}", stderr(&out));

    let out = tripoley(&["play", "--players", "12"]);
    assert_eq!(out.status.code(), Some(2));

    let out = tripoley(&["play", "--deals", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--deals"), "{}", stderr(&out));

    let out = tripoley(&["play", "--name", "  "]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--name"), "{}", stderr(&out));
}

#[test]
fn resume_needs_a_readable_record() {
    let out = tripoley(&["play", "--resume", "/nonexistent/tripoley-1.json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cannot read"), "{}", stderr(&out));

    let dir = std::env::temp_dir().join(format!("tripoley-cli-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("bad.json");
    std::fs::write(&file, "{\"not\": \"a record\"}").expect("write");
    let out = tripoley(&["play", "--resume", file.to_str().expect("utf-8 path")]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("not a game record"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn resume_conflicts_with_a_new_table() {
    let out = tripoley(&["play", "--resume", "x.json", "--preset", "cosmo"]);
    assert_eq!(out.status.code(), Some(2));
}

/// Issue 50, points 1 and 2: a `--save` file that cannot be written is
/// refused before the first deal (it was found only when the game ended,
/// and the record was lost), and one that exists is never overwritten
/// (an unfinished saved game was lost that way). Both games.
#[test]
fn a_save_file_is_checked_before_the_first_deal() {
    for game in ["tripoley", "napalm"] {
        let out = tripoley(&["play", "--game", game, "--save", "/nonexistent/dir/x.json"]);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        let said = stderr(&out);
        assert!(
            said.contains("/nonexistent/dir/x.json: cannot write there"),
            "{said}"
        );
        assert_eq!(said.trim().lines().count(), 1, "{said}");
    }

    let dir = std::env::temp_dir().join(format!("tripoley-cli-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("unfinished.json");
    std::fs::write(&file, "{\"a\": \"saved game\"}").expect("write");
    let path = file.to_str().expect("utf-8 path");
    let out = tripoley(&["play", "--save", path]);
    let kept = std::fs::read_to_string(&file).expect("still there");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("already exists"), "{}", stderr(&out));
    assert_eq!(kept, "{\"a\": \"saved game\"}");
    // A new file in a folder that can be written goes on (to the terminal
    // check, here where there is none), leaving nothing behind.
    let fresh = dir.join("new.json");
    let out = tripoley(&["play", "--save", fresh.to_str().expect("utf-8 path")]);
    assert!(
        stderr(&out).contains("needs an interactive terminal"),
        "{}",
        stderr(&out)
    );
    assert!(!fresh.exists() && !dir.join("new.json.tmp").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
