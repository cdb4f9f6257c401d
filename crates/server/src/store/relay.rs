//! A relay between a server and PostgreSQL that can lose a commit's answer:
//! armed, it passes the next `COMMIT` to the database, then cuts both
//! sides before the answer comes back, as a network that fails at that
//! moment does. The database has the commit; the server cannot know.

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

/// A relay on a loopback port to a database's port.
pub(crate) struct Relay {
    port: u16,
    armed: Arc<AtomicBool>,
    cuts: Arc<AtomicU32>,
}

/// PostgreSQL's simple query message of `COMMIT`: `Q`, its length, the
/// text and its terminating zero.
const COMMIT: &[u8] = b"Q\0\0\0\x0bCOMMIT\0";

impl Relay {
    /// Relays every connection made to it to `to` (a port on loopback).
    pub(crate) fn start(to: u16) -> Relay {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
        let port = listener.local_addr().expect("bound").port();
        let armed = Arc::new(AtomicBool::new(false));
        let cuts = Arc::new(AtomicU32::new(0));
        let (a, c) = (Arc::clone(&armed), Arc::clone(&cuts));
        std::thread::spawn(move || {
            for client in listener.incoming().flatten() {
                let Ok(server) = TcpStream::connect(("127.0.0.1", to)) else {
                    continue;
                };
                relay(client, server, Arc::clone(&a), Arc::clone(&c));
            }
        });
        Relay { port, armed, cuts }
    }

    /// Its port.
    pub(crate) fn port(&self) -> u16 {
        self.port
    }

    /// The next `COMMIT` loses its answer.
    pub(crate) fn arm(&self) {
        self.armed.store(true, Ordering::SeqCst);
    }

    /// How many commits lost their answer.
    pub(crate) fn cuts(&self) -> u32 {
        self.cuts.load(Ordering::SeqCst)
    }
}

/// Copies both ways; the client's side watches for the armed `COMMIT`.
fn relay(client: TcpStream, server: TcpStream, armed: Arc<AtomicBool>, cuts: Arc<AtomicU32>) {
    let (mut from_client, mut to_server) = (
        client.try_clone().expect("a socket"),
        server.try_clone().expect("a socket"),
    );
    let (mut from_server, mut to_client) = (server, client);
    let cut = Arc::new(AtomicBool::new(false));
    let cut_up = Arc::clone(&cut);
    let (client_end, server_end) = (
        to_client.try_clone().expect("a socket"),
        to_server.try_clone().expect("a socket"),
    );
    std::thread::spawn(move || {
        let mut buf = [0u8; 16384];
        while let Ok(n) = from_client.read(&mut buf) {
            if n == 0 || to_server.write_all(&buf[..n]).is_err() {
                break;
            }
            let commit = buf[..n].windows(COMMIT.len()).any(|w| w == COMMIT);
            if commit && armed.swap(false, Ordering::SeqCst) {
                // The database has the COMMIT; its answer never arrives.
                cut_up.store(true, Ordering::SeqCst);
                cuts.fetch_add(1, Ordering::SeqCst);
                std::thread::sleep(std::time::Duration::from_millis(200));
                let _ = client_end.shutdown(Shutdown::Both);
                let _ = server_end.shutdown(Shutdown::Both);
                break;
            }
        }
    });
    std::thread::spawn(move || {
        let mut buf = [0u8; 16384];
        while let Ok(n) = from_server.read(&mut buf) {
            if n == 0 || cut.load(Ordering::SeqCst) || to_client.write_all(&buf[..n]).is_err() {
                break;
            }
        }
    });
}
