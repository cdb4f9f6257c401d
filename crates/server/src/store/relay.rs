//! A relay between a server and PostgreSQL that fails as a network does:
//! armed, it passes the next `COMMIT` to the database, then cuts both
//! sides before the answer comes back (the database has the commit; the
//! server cannot know); held, it passes nothing either way and closes
//! nothing, as a partition does, until it is let go.
//!
//! The storage tests use it, and so does the chaos test
//! (`crates/cli/tests/cli/cluster/chaos.rs` includes this file), between one
//! server and the database.

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::Duration;

/// A relay on a loopback port to a database's port.
pub(crate) struct Relay {
    port: u16,
    to: u16,
    faults: Arc<Faults>,
}

/// What the relay's connections are to do.
#[derive(Default)]
struct Faults {
    /// The next `COMMIT` loses its answer.
    armed: AtomicBool,
    /// Commits that lost their answer.
    cuts: AtomicU32,
    /// Nothing passes.
    held: AtomicBool,
}

/// PostgreSQL's simple query message of `COMMIT`: `Q`, its length, the
/// text and its terminating zero.
const COMMIT: &[u8] = b"Q\0\0\0\x0bCOMMIT\0";

/// How often a held connection looks whether it was let go.
const HELD_POLL: Duration = Duration::from_millis(10);

impl Relay {
    /// Relays every connection made to it to `to` (a port on loopback).
    pub(crate) fn start(to: u16) -> Relay {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
        let port = listener.local_addr().expect("bound").port();
        let faults = Arc::new(Faults::default());
        let shared = Arc::clone(&faults);
        std::thread::spawn(move || {
            for client in listener.incoming().flatten() {
                let Ok(server) = TcpStream::connect(("127.0.0.1", to)) else {
                    continue;
                };
                relay(client, server, &shared);
            }
        });
        Relay { port, to, faults }
    }

    /// The database URL `url` (of the database's port) through the relay.
    pub(crate) fn through(&self, url: &str) -> String {
        url.replacen(&format!(":{}/", self.to), &format!(":{}/", self.port), 1)
    }

    /// The next `COMMIT` loses its answer.
    pub(crate) fn arm(&self) {
        self.faults.armed.store(true, Ordering::SeqCst);
    }

    /// How many commits lost their answer.
    pub(crate) fn cuts(&self) -> u32 {
        self.faults.cuts.load(Ordering::SeqCst)
    }

    /// Cuts the network (`true`: every byte either way, and every new
    /// connection's, waits) or heals it (`false`: what waited goes on).
    pub(crate) fn hold(&self, held: bool) {
        self.faults.held.store(held, Ordering::SeqCst);
    }
}

/// Copies both ways; the client's side watches for the armed `COMMIT`.
/// When either side closes, or the armed `COMMIT` goes through, both are
/// closed, as the end of a connection reaches its other end.
fn relay(client: TcpStream, server: TcpStream, faults: &Arc<Faults>) {
    let clone = |s: &TcpStream| s.try_clone().expect("a socket");
    let ends = Arc::new([clone(&client), clone(&server)]);
    let close = move || {
        for end in ends.iter() {
            let _ = end.shutdown(Shutdown::Both);
        }
    };
    let (mut from_client, mut to_server) = (clone(&client), clone(&server));
    let (mut from_server, mut to_client) = (server, client);
    let cut = Arc::new(AtomicBool::new(false));
    let cut_up = Arc::clone(&cut);
    let (up, down) = (Arc::clone(faults), Arc::clone(faults));
    let close_up = close.clone();
    std::thread::spawn(move || {
        let mut buf = [0u8; 16384];
        while let Ok(n) = from_client.read(&mut buf) {
            up.wait_while_held();
            if n == 0 || to_server.write_all(&buf[..n]).is_err() {
                break;
            }
            let commit = buf[..n].windows(COMMIT.len()).any(|w| w == COMMIT);
            if commit && up.armed.swap(false, Ordering::SeqCst) {
                // The database has the COMMIT; its answer never arrives.
                cut_up.store(true, Ordering::SeqCst);
                up.cuts.fetch_add(1, Ordering::SeqCst);
                std::thread::sleep(Duration::from_millis(200));
                break;
            }
        }
        close_up();
    });
    std::thread::spawn(move || {
        let mut buf = [0u8; 16384];
        while let Ok(n) = from_server.read(&mut buf) {
            down.wait_while_held();
            if n == 0 || cut.load(Ordering::SeqCst) || to_client.write_all(&buf[..n]).is_err() {
                break;
            }
        }
        close();
    });
}

impl Faults {
    /// Returns once the network is not (or no longer) cut.
    fn wait_while_held(&self) {
        while self.held.load(Ordering::SeqCst) {
            std::thread::sleep(HELD_POLL);
        }
    }
}
