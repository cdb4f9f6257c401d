//! A throwaway PostgreSQL server for tests: Debian's `postgresql` package,
//! a cluster made by `initdb` in a fresh temporary directory, listening on a
//! free loopback port (and its own socket directory), with `fsync` off.
//! Stopped and removed when dropped, a failed test's unwinding included.
//!
//! PostgreSQL refuses to run as root, and CI runs as root: then the server
//! programs run as Debian's `postgres` user (through `setpriv`), in a
//! directory given to that user. Without the programs the tests fail and
//! say what to install; on a system other than Linux they are skipped.
//!
//! One file used by the crate's unit tests (`crate::store::testpg`) and,
//! through `#[path]`, by the integration tests of this crate and the CLI.
//! It needs only the standard library and the PostgreSQL programs.
// PostgreSQL is a name here, not code; each including test uses part of it.
#![allow(dead_code, clippy::doc_markdown)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// The database user the tests connect as (no password: trusted on
/// loopback only).
const USER: &str = "tripoley";

/// How long the server has to start or stop.
const PATIENCE: Duration = Duration::from_secs(30);

/// A running throwaway PostgreSQL server.
pub struct TestPostgres {
    dir: PathBuf,
    bin: PathBuf,
    /// The `postgres` process itself (`setpriv` runs it in its own place).
    server: Child,
    port: u16,
    as_postgres: bool,
    databases: AtomicU32,
}

impl TestPostgres {
    /// Starts a server, or returns `None` (having said why) where the
    /// tests cannot run one: on a system other than Linux.
    ///
    /// # Panics
    ///
    /// When the PostgreSQL programs are missing (with the package to
    /// install) or the server does not start (with its log).
    pub fn start() -> Option<TestPostgres> {
        if !cfg!(target_os = "linux") {
            eprintln!("skipped: the PostgreSQL tests run on Linux only");
            return None;
        }
        let bin = bin_dir().unwrap_or_else(|| {
            panic!(
                "the PostgreSQL tests need PostgreSQL's programs (initdb, postgres): \
                 apt-get install postgresql"
            )
        });
        let as_postgres =
            run_output(Command::new("id").arg("-u")).is_some_and(|uid| uid.trim() == "0");
        let dir =
            std::env::temp_dir().join(format!("tripoley-pg-{}-{}", std::process::id(), unique()));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        if as_postgres {
            give_to_postgres(&dir);
        }
        let data = dir.join("data");
        let init = program(&bin, "initdb", as_postgres)
            .arg("-D")
            .arg(&data)
            .args(["-U", USER, "-A", "trust", "-E", "UTF8", "--no-sync"])
            .output()
            .expect("initdb runs");
        if !init.status.success() {
            let _ = std::fs::remove_dir_all(&dir);
            panic!("initdb failed: {}", String::from_utf8_lossy(&init.stderr));
        }
        // A port found free may be taken before the server binds it: try
        // a few.
        let mut last_log = String::new();
        for _ in 0..5 {
            let port = free_port();
            let mut server = launch(&bin, &dir, port, as_postgres);
            if wait_ready(&mut server, &bin, port) {
                return Some(TestPostgres {
                    dir,
                    bin,
                    server,
                    port,
                    as_postgres,
                    databases: AtomicU32::new(0),
                });
            }
            stop(&mut server);
            last_log = std::fs::read_to_string(dir.join("log")).unwrap_or_default();
        }
        let _ = std::fs::remove_dir_all(&dir);
        panic!("PostgreSQL did not start; its log:\n{last_log}");
    }

    /// Restarts the server as an administrator would (a fast shutdown:
    /// every connection is closed), down for `down`, on the same port and
    /// data.
    ///
    /// # Panics
    ///
    /// When it does not start again (with its log).
    pub fn restart(&mut self, down: Duration) {
        stop(&mut self.server);
        std::thread::sleep(down);
        self.server = launch(&self.bin, &self.dir, self.port, self.as_postgres);
        assert!(
            wait_ready(&mut self.server, &self.bin, self.port),
            "PostgreSQL did not start again; its log:\n{}",
            std::fs::read_to_string(self.dir.join("log")).unwrap_or_default()
        );
    }

    /// The port it listens on (loopback).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The URL of database `name` on it.
    pub fn url(&self, name: &str) -> String {
        format!("postgres://{USER}@127.0.0.1:{}/{name}", self.port)
    }

    /// A new empty database on it; returns its URL.
    pub fn new_database(&self) -> String {
        let name = format!("t{}", self.databases.fetch_add(1, Ordering::Relaxed));
        let made = Command::new(self.bin.join("createdb"))
            .args(["-h", "127.0.0.1", "-p", &self.port.to_string(), "-U", USER])
            .arg(&name)
            .output()
            .expect("createdb runs");
        assert!(
            made.status.success(),
            "createdb failed: {}",
            String::from_utf8_lossy(&made.stderr)
        );
        self.url(&name)
    }

    /// Runs SQL on database `name` with `psql`; returns what it printed
    /// (unaligned, tuples only).
    pub fn psql(&self, name: &str, sql: &str) -> String {
        let out = Command::new(self.bin.join("psql"))
            .args(["-h", "127.0.0.1", "-p", &self.port.to_string(), "-U", USER])
            .args([
                "-d",
                name,
                "-X",
                "-A",
                "-t",
                "-v",
                "ON_ERROR_STOP=1",
                "-c",
                sql,
            ])
            .output()
            .expect("psql runs");
        assert!(
            out.status.success(),
            "psql failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }
}

impl Drop for TestPostgres {
    fn drop(&mut self) {
        stop(&mut self.server);
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Starts the server of the cluster in `dir` on `port`, logging to
/// `dir/log`.
fn launch(bin: &Path, dir: &Path, port: u16, as_postgres: bool) -> Child {
    let log = std::fs::File::create(dir.join("log")).expect("a log file");
    if as_postgres {
        give_to_postgres(&dir.join("log"));
    }
    program(bin, "postgres", as_postgres)
        .arg("-D")
        .arg(dir.join("data"))
        .args(["-p", &port.to_string()])
        .args(["-c", "listen_addresses=127.0.0.1"])
        .arg("-c")
        .arg(format!("unix_socket_directories={}", dir.display()))
        .args(["-c", "fsync=off", "-c", "full_page_writes=off"])
        .stdin(Stdio::null())
        .stdout(log.try_clone().expect("the log file"))
        .stderr(log)
        .spawn()
        .expect("postgres starts")
}

/// Waits until the server accepts connections; false if it stopped.
fn wait_ready(server: &mut Child, bin: &Path, port: u16) -> bool {
    let started = Instant::now();
    while started.elapsed() < PATIENCE {
        if server.try_wait().ok().flatten().is_some() {
            return false;
        }
        let ready = Command::new(bin.join("pg_isready"))
            .args(["-h", "127.0.0.1", "-p", &port.to_string(), "-U", USER])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if ready {
            return true;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    false
}

/// Stops a server: a fast shutdown (SIGINT: connections are closed, the
/// cluster is left consistent), then SIGKILL if it lingers.
fn stop(server: &mut Child) {
    if server.try_wait().ok().flatten().is_some() {
        return;
    }
    let _ = Command::new("kill")
        .args(["-INT", &server.id().to_string()])
        .status();
    let asked = Instant::now();
    while asked.elapsed() < PATIENCE {
        if server.try_wait().ok().flatten().is_some() {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = server.kill();
    let _ = server.wait();
}

/// Where Debian keeps the newest installed PostgreSQL's server programs,
/// else where `pg_config` says they are.
fn bin_dir() -> Option<PathBuf> {
    let debian = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let version: u32 = e.file_name().to_str()?.parse().ok()?;
            let bin = e.path().join("bin");
            bin.join("initdb").exists().then_some((version, bin))
        })
        .max()
        .map(|(_, bin)| bin);
    debian.or_else(|| {
        let dir = PathBuf::from(run_output(Command::new("pg_config").arg("--bindir"))?.trim());
        dir.join("initdb").exists().then_some(dir)
    })
}

/// A server program, run as the `postgres` user when we are root.
fn program(bin: &Path, name: &str, as_postgres: bool) -> Command {
    if as_postgres {
        let mut c = Command::new("setpriv");
        c.args([
            "--reuid=postgres",
            "--regid=postgres",
            "--clear-groups",
            "--",
        ])
        .arg(bin.join(name));
        c
    } else {
        Command::new(bin.join(name))
    }
}

/// Gives `path` to the `postgres` user.
fn give_to_postgres(path: &Path) {
    let id = |flag: &str| -> u32 {
        run_output(Command::new("id").args([flag, "postgres"]))
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or_else(|| {
                panic!(
                    "running as root, the PostgreSQL tests need the `postgres` user \
                     that Debian's package makes: apt-get install postgresql"
                )
            })
    };
    std::os::unix::fs::chown(path, Some(id("-u")), Some(id("-g")))
        .expect("the temporary directory can be given to the postgres user");
}

/// What a command printed, if it ran and succeeded.
fn run_output(command: &mut Command) -> Option<String> {
    let Output { status, stdout, .. } = command.stderr(Stdio::null()).output().ok()?;
    status
        .success()
        .then(|| String::from_utf8_lossy(&stdout).into_owned())
}

/// A free loopback port (bound, then released for the server).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

/// A number no other server of this process uses.
fn unique() -> u32 {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}
