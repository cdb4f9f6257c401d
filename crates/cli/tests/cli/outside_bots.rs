//! Outside bots (`exec:COMMAND`) from the command line: whatever they start
//! is killed (on a failure, at the end, on Ctrl-C), a failure is reported
//! once and the program is not started again, results say how many
//! decisions the fallback made, and a program that cannot play is refused.
//! Linux only: processes are counted in `/proc`.
#![cfg(target_os = "linux")]

use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::{Scratch, stderr, stdout, tripoley};

/// A bot in Python that appends its process id and that of a child it
/// starts (`sleep 300`, standing for whatever a bot may start) to
/// `NAME.pids`, answers `answers` requests legally (the first legal answer,
/// the first five cards when choosing five), then marks that it failed
/// (`NAME.failed`) and does `then` (Python code). A copy started after a
/// copy failed writes its process id to `NAME.late` too.
fn bot(scratch: &Scratch, name: &str, answers: u32, then: &str) -> String {
    // As Python string literals (the scratch paths are plain ASCII).
    let path = |ext: &str| format!("{:?}", format!("{}/{name}.{ext}", scratch.0.display()));
    let (pids, failed, late) = (path("pids"), path("failed"), path("late"));
    let script = format!(
        r#"import json, os, subprocess, sys, time
child = subprocess.Popen(["sleep", "300"])
with open({pids}, "a") as f:
    f.write(f"{{os.getpid()}} {{child.pid}}\n")
if os.path.exists({failed}):
    with open({late}, "a") as f:
        f.write(f"{{os.getpid()}}\n")
for i, line in enumerate(sys.stdin):
    if i >= {answers}:
        open({failed}, "w").close()
        {then}
    request = json.loads(line)
    if "legal" in request:
        answer = request["legal"][0]
    else:
        answer = {{"choose": request["decision"]["choose_five"]["from"][:5]}}
    print(json.dumps(answer), flush=True)
"#
    );
    let path = scratch.file(&format!("{name}.py"), &script);
    format!("exec:python3 {path}")
}

/// `tripoley COMMAND --players 3 --bots BOTS --deals DEALS EXTRA...`.
fn three_players(command: &str, bots: &str, deals: &str, extra: &[&str]) -> Output {
    let mut args = vec![command, "--players", "3", "--bots", bots, "--deals", deals];
    args.extend(extra);
    tripoley(&args)
}

/// The process ids a bot wrote (two per copy started).
fn pids(scratch: &Scratch, name: &str) -> Vec<u32> {
    std::fs::read_to_string(scratch.0.join(format!("{name}.pids")))
        .unwrap_or_default()
        .split_whitespace()
        .map(|p| p.parse().unwrap())
        .collect()
}

/// Whether a process is still running (a zombie is not: it has ended and
/// waits to be reaped).
fn running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        let state = stat.rsplit(") ").next().and_then(|s| s.chars().next());
        !matches!(state, Some('Z' | 'X'))
    })
}

/// Every process in `pids` has ended (they are given a moment to die).
fn all_gone(pids: &[u32]) -> bool {
    let deadline = Instant::now() + Duration::from_secs(5);
    while Instant::now() < deadline {
        if pids.iter().all(|&p| !running(p)) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

#[test]
fn a_bot_that_hangs_is_killed_with_its_children_reported_once_and_not_restarted() {
    let scratch = Scratch::new("hang");
    // Answers three requests, then hangs; another writes no newline.
    for (name, then) in [
        ("sleeper", "time.sleep(300)"),
        (
            "no_newline",
            "print('\"pass\"', end='', flush=True); time.sleep(300)",
        ),
    ] {
        let exec = bot(&scratch, name, 3, then);
        let out = three_players(
            "arena",
            &format!("{exec},heuristic"),
            "10",
            // Far above a normal answer's time on a loaded machine, far
            // below the stall's.
            &["--exec-timeout", "2000", "--threads", "1", "--json"],
        );
        assert!(out.status.success(), "{}", stderr(&out));
        let warnings = stderr(&out).matches("warning: outside bot").count();
        assert_eq!(warnings, 1, "{name}: {}", stderr(&out));
        let pids = pids(&scratch, name);
        // On one thread, no copy is started after one failed.
        assert!(pids.len() >= 4, "{name}: {pids:?}");
        assert!(scratch.0.join(format!("{name}.failed")).exists());
        assert!(!scratch.0.join(format!("{name}.late")).exists(), "{name}");
        assert!(all_gone(&pids), "{name}: left running: {pids:?}");
        let summary: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        let outside = &summary["bots"][0]["outside"];
        let fallback = outside["fallback_decisions"].as_u64().unwrap();
        let decisions = outside["decisions"].as_u64().unwrap();
        assert!(fallback > 0 && fallback < decisions, "{name}: {outside}");
        assert!(
            outside["failure"]
                .as_str()
                .unwrap()
                .contains("no answer within 2000 ms"),
            "{outside}"
        );
    }
}

#[test]
fn results_where_the_fallback_played_are_marked() {
    let scratch = Scratch::new("marked");
    let exec = bot(&scratch, "quits", 2, "sys.exit(0)");
    let out = three_players("arena", &format!("{exec},heuristic"), "4", &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains(" x2 *"), "{text}");
    assert!(
        text.contains("the heuristic bot made") && text.contains("after it failed"),
        "{text}"
    );
    assert!(all_gone(&pids(&scratch, "quits")));
}

#[test]
fn ctrl_c_kills_the_outside_bots() {
    let scratch = Scratch::new("ctrl-c");
    let exec = bot(&scratch, "patient", u32::MAX, "pass");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tripoley"))
        .args([
            "sim",
            "--players",
            "3",
            "--bots",
            &format!("{exec},heuristic,heuristic"),
            "--deals",
            "1000000",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Wait until copies are playing (the check before the run, then games).
    let deadline = Instant::now() + Duration::from_secs(20);
    while pids(&scratch, "patient").len() < 4 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let exit = child.wait().unwrap();
    assert_eq!(exit.code(), Some(130));
    let pids = pids(&scratch, "patient");
    assert!(pids.len() >= 4, "{pids:?}");
    assert!(all_gone(&pids), "left running: {pids:?}");
}

#[test]
fn a_command_that_cannot_play_is_refused() {
    for command in ["sim", "arena"] {
        let bots = "exec:/nonexistent/tripoley-bot,heuristic,heuristic";
        let out = three_players(command, bots, "3", &[]);
        assert_eq!(out.status.code(), Some(2), "{command}");
        let err = stderr(&out);
        assert!(
            err.contains("the outside bot `/nonexistent/tripoley-bot` cannot play")
                && err.contains("no such command"),
            "{err}"
        );
    }
}

#[test]
fn exec_timeout_is_at_least_one_millisecond_in_sim_and_arena() {
    for command in ["sim", "arena"] {
        let out = tripoley(&[command, "--deals", "3", "--exec-timeout", "0"]);
        assert_eq!(out.status.code(), Some(2), "{command}");
        assert!(stderr(&out).contains("at least 1"), "{}", stderr(&out));
    }
    let scratch = Scratch::new("sim-timeout");
    let exec = bot(&scratch, "slow", 1, "time.sleep(300)");
    let start = Instant::now();
    let out = three_players(
        "sim",
        &format!("{exec},heuristic,heuristic"),
        "6",
        &["--exec-timeout", "200", "--threads", "1"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("no answer within 200 ms"));
    assert!(start.elapsed() < Duration::from_secs(30));
    assert!(all_gone(&pids(&scratch, "slow")));
}

#[test]
fn an_illegal_answer_is_quoted_as_the_protocol_writes_it() {
    let scratch = Scratch::new("illegal");
    let exec = bot(
        &scratch,
        "bets",
        2,
        "print('{\"bet\": 999}', flush=True); continue",
    );
    let out = three_players("sim", &format!("{exec},heuristic,heuristic"), "3", &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains(r#"its answer {"bet":999}"#), "{err}");
    assert!(!err.contains("Bet("), "{err}");
}
