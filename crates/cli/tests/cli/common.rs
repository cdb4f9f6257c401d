//! Helpers shared by the command-line tests: run the binary, read its
//! output, and scratch files.

use std::path::PathBuf;
use std::process::{Command, Output};

/// Runs `tripoley` with these arguments, in English whatever the
/// language of the machine running the tests.
pub fn tripoley(args: &[&str]) -> Output {
    tripoley_in(None, args)
}

/// Runs `tripoley` with these arguments and `LANG` set to `lang` (none
/// of the locale variables when `None`).
pub fn tripoley_in(lang: Option<&str>, args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tripoley"));
    command
        .args(args)
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env_remove("LANG");
    if let Some(lang) = lang {
        command.env("LANG", lang);
    }
    command.output().expect("runs")
}

/// `tripoley replay --json FILE`, checked to succeed: one value a line.
pub fn replay_json(file: &str) -> Vec<serde_json::Value> {
    let o = tripoley(&["replay", "--json", file]);
    assert!(o.status.success(), "{file}: {}", stderr(&o));
    stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// What it printed on standard output.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// What it printed on standard error.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A scratch directory of this test process, removed when dropped.
pub struct Scratch(pub PathBuf);

impl Scratch {
    /// A fresh directory named after the test.
    pub fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("tripoley-cli-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        Scratch(dir)
    }

    /// Writes a file in it; returns its path.
    pub fn file(&self, name: &str, text: &str) -> String {
        let path = self.0.join(name);
        std::fs::write(&path, text).expect("write temp file");
        path.to_str().expect("utf-8 temp path").to_owned()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A table of three people at the server at `addr` (Ann, the host, in
/// seat 0, Bea and Cy), not started yet; returns its invite, the host's
/// token and each seat's token.
pub async fn three_seated(
    addr: std::net::SocketAddr,
    preset: tripoley_engine::Preset,
    deals: u32,
) -> (String, String, Vec<String>) {
    use tripoley_loadtest::client;
    let created = client::create_table(
        addr,
        &tripoley_server::protocol::CreateTable {
            preset: Some(preset),
            seats: Some(3),
            deals: Some(deals),
            turn_seconds: Some(0),
            host_name: Some("Ann".into()),
            ..Default::default()
        },
    )
    .await
    .expect("a table");
    let mut tokens = vec![created.host_token.clone()];
    for (seat, name) in [(1, "Bea"), (2, "Cy")] {
        let seated = client::sit(addr, &created.invite, Some(seat), name)
            .await
            .expect("a seat");
        tokens.push(seated.token);
    }
    (created.invite, created.host_token, tokens)
}

/// A throwaway PostgreSQL server (the server crate's test harness).
#[path = "../../../server/src/store/testpg.rs"]
pub mod pg;
