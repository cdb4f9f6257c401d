//! `tripoley loadtest`: by default it starts its own `tripoley serve` as a
//! child process, loads it over loopback websockets, reports the server's
//! own memory, and leaves neither the process nor its database behind.

use crate::common::{stderr, stdout, tripoley};

#[test]
fn loadtest_plays_tables_against_its_own_server_process() {
    let out = tripoley(&[
        "loadtest",
        "--tables",
        "3",
        "--think-ms",
        "5",
        "--duration",
        "2",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report: serde_json::Value =
        serde_json::from_str(stdout(&out).trim()).expect("one JSON object");
    assert_eq!(report["tables"], 3);
    assert_eq!(report["clients"], 12, "four clients per table");
    assert!(report["actions"].as_u64().unwrap() > 0, "{report}");
    assert_eq!(report["failures"], 0, "{report}");
    assert_eq!(report["chips_conserved"], true);
    let memory = report["memory_kib"]
        .as_u64()
        .expect("the server's memory is measured");
    assert!(
        memory > 1024,
        "a server holds more than 1 MiB: {memory} KiB"
    );
    // Its work: some CPU time, and no more than the two seconds on every
    // core (a misread field of /proc would be far off either way).
    let cpu = report["server_cpu_seconds"]
        .as_f64()
        .expect("the server's CPU time is measured");
    let cores = std::thread::available_parallelism().map_or(1, usize::from) as f64;
    let seconds = report["seconds"].as_f64().unwrap();
    assert!(cpu > 0.0 && cpu <= seconds * cores, "{report}");
    assert!(
        report["load_cpu_seconds"].as_f64().unwrap() > 0.0,
        "{report}"
    );
    // The child server is gone with its port.
    let addr = report["addr"].as_str().expect("the server's address");
    assert!(
        std::net::TcpStream::connect(addr).is_err(),
        "the load test's server at {addr} is still listening"
    );
}

/// A load test that could not play (here: nothing listens at the address)
/// prints its report and fails, so a script or CI notices.
#[test]
fn loadtest_fails_when_its_games_fail() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let addr = format!("127.0.0.1:{port}");
    let out = tripoley(&[
        "loadtest",
        "--addr",
        &addr,
        "--tables",
        "2",
        "--duration",
        "1",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("could not be played"),
        "{}",
        stderr(&out)
    );
    let report: serde_json::Value =
        serde_json::from_str(stdout(&out).trim()).expect("the report is still printed");
    assert!(report["failures"].as_u64() > Some(0), "{report}");
    assert_eq!(report["actions"], 0, "{report}");
}

#[test]
fn loadtest_refuses_a_server_address_with_in_process() {
    let out = tripoley(&["loadtest", "--in-process", "--addr", "127.0.0.1:9"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--in-process"), "{}", stderr(&out));
}

#[test]
fn loadtest_refuses_a_duration_of_zero() {
    let out = tripoley(&["loadtest", "--duration", "0"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--duration"), "{}", stderr(&out));
}

#[test]
fn serve_that_cannot_bind_or_open_its_database_exits_2_with_the_cause() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let addr = taken.local_addr().expect("its address").to_string();
    let dir = std::env::temp_dir().join(format!("tripoley-serve-fail-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let db = dir.join("t.db");
    let db = db.to_str().expect("a UTF-8 path");
    let out = tripoley(&["serve", "--addr", &addr, "--db", db]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("cannot listen on"),
        "{}",
        stderr(&out)
    );
    // A database in a directory that does not exist.
    let missing = dir.join("no-such-dir").join("t.db");
    let out = tripoley(&[
        "serve",
        "--addr",
        "127.0.0.1:0",
        "--db",
        missing.to_str().expect("a UTF-8 path"),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("storage"), "{}", stderr(&out));
    // Settings out of their bounds, each with the reason.
    for (flag, value, reason) in [
        ("--idle-timeout", "0", "idle_timeout"),
        ("--lease-ms", "5", "lease at least 100 ms"),
        (
            "--advertise",
            "0.0.0.0:7000",
            "advertise must name an address",
        ),
        (
            "--advertise",
            "10.0.0.1:7000",
            "sharing a PostgreSQL database",
        ),
    ] {
        let out = tripoley(&["serve", "--addr", "127.0.0.1:0", "--db", db, flag, value]);
        assert_eq!(out.status.code(), Some(2), "{flag}: {}", stderr(&out));
        assert!(stderr(&out).contains(reason), "{flag}: {}", stderr(&out));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
