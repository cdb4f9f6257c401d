//! Limits per client address, enforced where a connection is accepted: open
//! connections per address (every TCP connection, HTTP or websocket, holds
//! a slot until it closes), a deadline for each request's whole head and
//! body and the same for an answered connection's next request (keep-alive),
//! a silence deadline for websockets and requests being answered, and
//! tables created per address per hour. And one limit for the whole server:
//! connections open at once, kept well below the file limit; at the cap a
//! new connection sheds the oldest one still sending a request, else the
//! one silent longest.
//!
//! A refused connection is closed at once, before it costs a task or a
//! buffer; a silent one is closed when its deadline passes, so neither can
//! fill the server's file table (issue 15, finding 4), and neither can a
//! request trickled a byte at a time from many addresses (issue 31,
//! finding 2).

use std::collections::{BTreeMap, HashMap};
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::{Instant, Sleep};

/// How long a trusted proxy has for its PROXY header.
const PROXY_WAIT: Duration = Duration::from_millis(500);

/// Counters per client address, shared by the listener and the handlers.
#[derive(Default)]
pub(crate) struct AddressBook {
    /// Open connections per address.
    open: Mutex<HashMap<IpAddr, usize>>,
    /// Tables created per address in the current window: the window's start
    /// and the count.
    created: Mutex<HashMap<IpAddr, (Instant, u32)>>,
}

impl AddressBook {
    /// A connection slot for `ip` if it has fewer than `cap` open (with
    /// no cap: one that takes the place of a connection being shed).
    fn open(self: &Arc<Self>, ip: IpAddr, cap: Option<usize>) -> Option<Slot> {
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        let n = open.entry(ip).or_insert(0);
        if cap.is_some_and(|cap| *n >= cap) {
            return None;
        }
        *n += 1;
        Some(Slot {
            book: Arc::clone(self),
            ip,
        })
    }

    /// Connections open from `ip`.
    #[cfg(test)]
    fn open_from(&self, ip: IpAddr) -> usize {
        let open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        open.get(&ip).copied().unwrap_or(0)
    }

    /// Counts a table created by `ip`, unless it has created `cap` in this
    /// `window` (the server's own count: with SQLite, the whole truth).
    pub(crate) fn create_table(&self, ip: IpAddr, cap: u32, window: Duration) -> bool {
        let now = Instant::now();
        let mut created = self.created.lock().unwrap_or_else(PoisonError::into_inner);
        // Old windows are forgotten, so the map holds this hour's addresses only.
        if created.len() > 1024 {
            created.retain(|_, (start, _)| now.duration_since(*start) < window);
        }
        let entry = created.entry(ip).or_insert((now, 0));
        if now.duration_since(entry.0) >= window {
            *entry = (now, 0);
        }
        if entry.1 >= cap {
            return false;
        }
        entry.1 += 1;
        true
    }
}

/// The network `ip` counts as for the limits per address: an IPv4 address
/// (one written IPv4-mapped, as a dual-stack listener sees it, included) is
/// its own; an IPv6 address is its first `prefix` bits.
pub(crate) fn network(ip: IpAddr, prefix: u8) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return IpAddr::V4(v4);
            }
            let keep = match prefix {
                0 => 0,
                p if p >= 128 => u128::MAX,
                p => u128::MAX << (128 - u32::from(p)),
            };
            IpAddr::V6(std::net::Ipv6Addr::from(u128::from(v6) & keep))
        }
    }
}

/// One open connection's place in its address's count; freed on drop.
pub(crate) struct Slot {
    book: Arc<AddressBook>,
    ip: IpAddr,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut open = self
            .book
            .open
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(n) = open.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.ip);
            }
        }
    }
}

/// The listener's limits.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ConnLimits {
    /// Connections open at once from one address.
    pub per_address: usize,
    /// Connections open at once in the whole server.
    pub total: usize,
    /// Time from accepting a connection to the end of its first request
    /// head.
    pub first_request: Duration,
    /// Time a connection may stay silent once it has sent its first head.
    pub silence: Duration,
    /// The IPv6 prefix that is one client for every limit per address.
    pub ipv6_prefix: u8,
}

impl ConnLimits {
    pub(crate) fn of(config: &crate::ServerConfig) -> Self {
        ConnLimits {
            per_address: config.max_connections_per_address,
            total: config.max_connections,
            first_request: config.hello_timeout,
            silence: config.idle_timeout,
            ipv6_prefix: config.ipv6_prefix,
        }
    }
}

/// What the listener knows of an open connection, shared with it.
#[derive(Default)]
struct Watch {
    /// Its client's address (network, for IPv6).
    from: Option<IpAddr>,
    /// Whether it has finished sending its request (head and body); false
    /// while a request is coming in, the first one from the accept.
    received: AtomicBool,
    /// When it last sent bytes, in milliseconds since the listener began.
    last_read: AtomicU64,
    /// Set when the listener sheds it; its next read fails.
    shed: AtomicBool,
    /// Its pending read, to wake when it is shed.
    waker: Mutex<Option<Waker>>,
}

/// The open connections by age (ids grow), for shedding.
#[derive(Default)]
struct Connections {
    open: Mutex<BTreeMap<u64, Arc<Watch>>>,
}

impl Connections {
    /// Sheds the oldest connection from `ip` still sending a request, if
    /// it has one: at its address's cap, a new connection takes the place
    /// of such a one, so one trickler behind a NAT does not lock its
    /// neighbours out (issue 49); a connection that has sent its request
    /// (a websocket, one being answered) is never shed for it.
    fn shed_from(&self, ip: IpAddr) -> bool {
        let open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        let victim = open.values().find(|w| {
            w.from == Some(ip)
                && !w.received.load(Ordering::Relaxed)
                && !w.shed.load(Ordering::Relaxed)
        });
        match victim {
            Some(w) => {
                shed(w);
                true
            }
            None => false,
        }
    }

    /// Sheds one connection to make room: the oldest still sending a
    /// request, else the one silent longest.
    fn shed_one(&self) {
        let open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        // One shed and not yet gone is passed over: each new connection
        // makes its own room.
        let live = open.values().filter(|w| !w.shed.load(Ordering::Relaxed));
        let victim = live
            .clone()
            .find(|w| !w.received.load(Ordering::Relaxed))
            .or_else(|| live.min_by_key(|w| w.last_read.load(Ordering::Relaxed)));
        if let Some(w) = victim {
            shed(w);
        }
    }
}

/// Marks `w` shed and wakes its pending read, which then fails.
fn shed(w: &Watch) {
    w.shed.store(true, Ordering::Relaxed);
    if let Some(waker) = w
        .waker
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take()
    {
        waker.wake();
    }
}

/// A connection's place in the server's count; freed on drop.
struct Registered {
    connections: Arc<Connections>,
    id: u64,
}

impl Drop for Registered {
    fn drop(&mut self) {
        let mut open = self
            .connections
            .open
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        open.remove(&self.id);
    }
}

/// A TCP listener that keeps each address under its connection cap and the
/// server under its own, and gives each connection its deadlines.
pub(crate) struct LimitedListener {
    listener: TcpListener,
    book: Arc<AddressBook>,
    limits: ConnLimits,
    connections: Arc<Connections>,
    /// When the listener began (the clock of [`Watch::last_read`]).
    began: Instant,
    /// The next connection's id.
    next_id: u64,
    /// Proxies whose connections name their client ([`crate::net::proxy`]).
    proxies: Vec<IpAddr>,
}

impl LimitedListener {
    pub(crate) fn new(listener: TcpListener, book: Arc<AddressBook>, limits: ConnLimits) -> Self {
        LimitedListener {
            listener,
            book,
            limits,
            connections: Arc::default(),
            began: Instant::now(),
            next_id: 0,
            proxies: Vec::new(),
        }
    }

    /// Trusts the PROXY headers of connections from `proxies`.
    pub(crate) fn behind(self, proxies: Vec<IpAddr>) -> Self {
        LimitedListener { proxies, ..self }
    }
}

impl axum::serve::Listener for LimitedListener {
    type Io = Limited;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Limited, SocketAddr) {
        loop {
            let Ok((mut stream, addr)) = self.listener.accept().await else {
                // Out of file descriptors, most likely: wait for some to
                // close rather than spin (as axum's own listener does).
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            };
            // A proxy sends its header at once: a short wait, and only
            // proxies can make the listener wait.
            let addr = if self.proxies.contains(&addr.ip()) {
                match crate::net::proxy::client_address(&mut stream, addr, PROXY_WAIT).await {
                    Some(client) => client,
                    None => continue,
                }
            } else {
                addr
            };
            // Every limit per address counts the client's network: an IPv6
            // subscriber holds a /64 and names any address of it (issue
            // 49). The handlers see it as the client's address.
            let addr = SocketAddr::new(network(addr.ip(), self.limits.ipv6_prefix), addr.port());
            // At the cap it takes the place of the address's oldest
            // connection still sending a request; with none, it is dropped
            // here, which closes the socket.
            let ip = addr.ip();
            let slot = match self.book.open(ip, Some(self.limits.per_address)) {
                Some(slot) => slot,
                None if self.connections.shed_from(ip) => self.book.open(ip, None).expect("no cap"),
                None => continue,
            };
            let watch = Arc::new(Watch {
                from: Some(ip),
                ..Watch::default()
            });
            let now = Instant::now();
            watch
                .last_read
                .store(millis(now - self.began), Ordering::Relaxed);
            let full = {
                let mut open = self
                    .connections
                    .open
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner);
                open.insert(self.next_id, Arc::clone(&watch));
                open.len() > self.limits.total
            };
            if full {
                self.connections.shed_one();
            }
            let limited = Limited {
                stream,
                _slot: slot,
                _registered: Registered {
                    connections: Arc::clone(&self.connections),
                    id: self.next_id,
                },
                watch,
                began: self.began,
                phase: Phase::Head {
                    since: now,
                    head: Vec::new(),
                },
                last_read: now,
                limits: self.limits,
                deadline: Box::pin(tokio::time::sleep(self.limits.first_request)),
            };
            self.next_id += 1;
            return (limited, addr);
        }
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }
}

/// An accepted connection: reads fail with `TimedOut` once its deadline
/// passes, which ends the connection (HTTP or websocket alike).
pub(crate) struct Limited {
    stream: TcpStream,
    _slot: Slot,
    _registered: Registered,
    watch: Arc<Watch>,
    began: Instant,
    phase: Phase,
    last_read: Instant,
    limits: ConnLimits,
    /// Wakes a pending read to check the deadline; moved on lazily, so a
    /// read costs a clock reading, not a timer update.
    deadline: Pin<Box<Sleep>>,
}

/// Where a connection is in its exchange of requests and answers, which
/// sets its deadline. Bytes trickled are no progress: a request's whole
/// head and body are due within `first_request` of its first byte (of the
/// accept, for the first), and an answered connection has as long again
/// to begin its next request.
enum Phase {
    /// Its request head is coming: the bytes so far (up to [`HEAD_SCAN`]).
    Head { since: Instant, head: Vec<u8> },
    /// Its body is coming: the bytes still owed, if its length is known
    /// (a chunked body owes until the answer).
    Body { since: Instant, owed: Option<u64> },
    /// Received, and being answered: only the silence deadline.
    Answering,
    /// Answered, waiting for its next request since `since`.
    Idle { since: Instant },
    /// A websocket: only the silence deadline (the server pings it).
    Upgraded,
}

/// Bytes of a request head read to find its end and its length; a longer
/// head keeps its deadline (and the HTTP parser refuses it anyway).
const HEAD_SCAN: usize = 16 * 1024;

impl Limited {
    /// Frames are small and each is wanted at once: no Nagle delay.
    pub(crate) fn set_nodelay(&mut self) {
        let _ = self.stream.set_nodelay(true);
    }

    fn due(&self) -> Instant {
        match &self.phase {
            Phase::Head { since, .. } | Phase::Body { since, .. } => {
                *since + self.limits.first_request
            }
            Phase::Idle { since } => *since + self.limits.first_request,
            Phase::Answering | Phase::Upgraded => self.last_read + self.limits.silence,
        }
    }

    /// Follows the request's bytes through its head and body.
    fn on_read(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() {
            match &mut self.phase {
                Phase::Idle { .. } => {
                    self.watch.received.store(false, Ordering::Relaxed);
                    self.phase = Phase::Head {
                        since: Instant::now(),
                        head: Vec::new(),
                    };
                }
                Phase::Head { since, head } => {
                    let from = head.len().saturating_sub(3);
                    let take = bytes.len().min(HEAD_SCAN.saturating_sub(head.len()));
                    if take == 0 {
                        return;
                    }
                    head.extend_from_slice(&bytes[..take]);
                    let Some(end) = find(&head[from..], b"\r\n\r\n").map(|i| from + i + 4) else {
                        return;
                    };
                    let rest = head.len() - end;
                    let owed = body_length(&head[..end]);
                    let since = *since;
                    bytes = &bytes[take - rest..];
                    self.phase = Phase::Body { since, owed };
                    self.check_body();
                }
                Phase::Body { owed: Some(n), .. } => {
                    let got = bytes.len() as u64;
                    let used = got.min(*n);
                    *n -= used;
                    bytes = &bytes[usize::try_from(used).unwrap_or(bytes.len())..];
                    self.check_body();
                }
                // A chunked body owes until the answer; bytes after a
                // whole request are the next one's, read when it is
                // answered (pipelining is rare, and bounded by the
                // silence deadline meanwhile).
                Phase::Body { owed: None, .. } | Phase::Answering | Phase::Upgraded => return,
            }
        }
    }

    fn check_body(&mut self) {
        if let Phase::Body { owed: Some(0), .. } = self.phase {
            self.phase = Phase::Answering;
            self.watch.received.store(true, Ordering::Relaxed);
        }
    }

    /// The server wrote `bytes`: an answer (after which the connection
    /// waits for its next request), or the switch to a websocket.
    fn on_write(&mut self, bytes: &[u8]) {
        match self.phase {
            Phase::Answering | Phase::Body { .. } | Phase::Idle { .. } => {
                self.watch.received.store(true, Ordering::Relaxed);
                self.phase = if bytes.starts_with(b"HTTP/1.1 101 ") {
                    Phase::Upgraded
                } else {
                    Phase::Idle {
                        since: Instant::now(),
                    }
                };
            }
            Phase::Head { .. } | Phase::Upgraded => {}
        }
    }
}

/// Where `needle` begins in `hay`.
fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// The body a request head announces: its `Content-Length` (none: 0), or
/// `None` when chunked.
fn body_length(head: &[u8]) -> Option<u64> {
    let text = String::from_utf8_lossy(head);
    let mut length = Some(0);
    for line in text.split("\r\n").skip(1) {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        let name = name.trim();
        if name.eq_ignore_ascii_case("transfer-encoding") {
            return None;
        }
        if name.eq_ignore_ascii_case("content-length") {
            // A bad length is refused by the HTTP parser: nothing owed.
            length = Some(value.trim().parse().unwrap_or(0));
        }
    }
    length
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

impl AsyncRead for Limited {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.watch.shed.load(Ordering::Relaxed) {
            return Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the server is full: the oldest unfinished connection is closed",
            )));
        }
        let before = buf.filled().len();
        match Pin::new(&mut this.stream).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                if buf.filled().len() > before {
                    this.on_read(&buf.filled()[before..]);
                    this.last_read = Instant::now();
                    this.watch
                        .last_read
                        .store(millis(this.last_read - this.began), Ordering::Relaxed);
                }
                Poll::Ready(Ok(()))
            }
            Poll::Pending => loop {
                *this
                    .watch
                    .waker
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner) = Some(cx.waker().clone());
                if this.watch.shed.load(Ordering::Relaxed) {
                    return Poll::Ready(Err(io::Error::other("shed")));
                }
                if this.deadline.as_mut().poll(cx).is_pending() {
                    return Poll::Pending;
                }
                let due = this.due();
                if Instant::now() >= due {
                    return Poll::Ready(Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        "the client was silent too long",
                    )));
                }
                this.deadline.as_mut().reset(due);
            },
            other @ Poll::Ready(Err(_)) => other,
        }
    }
}

impl AsyncWrite for Limited {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let written = Pin::new(&mut this.stream).poll_write(cx, buf);
        if let Poll::Ready(Ok(n)) = written
            && n > 0
        {
            this.on_write(buf);
        }
        written
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let written = Pin::new(&mut this.stream).poll_write_vectored(cx, bufs);
        if let Poll::Ready(Ok(n)) = written
            && n > 0
        {
            let first = bufs
                .iter()
                .find(|b| !b.is_empty())
                .map_or(&[][..], |b| &b[..]);
            this.on_write(first);
        }
        written
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_address_has_its_own_connection_cap_freed_on_close() {
        let book = Arc::new(AddressBook::default());
        let a: IpAddr = [10, 0, 0, 1].into();
        let b: IpAddr = [10, 0, 0, 2].into();
        let slots: Vec<_> = (0..3).map_while(|_| book.open(a, Some(3))).collect();
        assert_eq!(slots.len(), 3);
        assert!(book.open(a, Some(3)).is_none());
        assert!(book.open(b, Some(3)).is_some());
        drop(slots);
        assert_eq!(book.open_from(a), 0);
        assert!(book.open(a, Some(3)).is_some());
    }

    /// Issue 49: an IPv6 /64 is one client; IPv4, IPv4-mapped included,
    /// each address its own.
    #[test]
    fn an_ipv6_network_is_one_address() {
        let net = |s: &str, p| network(s.parse().unwrap(), p).to_string();
        assert_eq!(net("2001:db8:0:49::1", 64), "2001:db8:0:49::");
        assert_eq!(net("2001:db8:0:49:ffff::2", 64), "2001:db8:0:49::");
        assert_eq!(net("2001:db8:0:49::1", 128), "2001:db8:0:49::1");
        assert_eq!(net("2001:db8:0:49::1", 48), "2001:db8::");
        assert_eq!(net("::ffff:10.0.0.7", 64), "10.0.0.7");
        assert_eq!(net("10.0.0.7", 64), "10.0.0.7");
    }

    #[test]
    fn tables_created_per_address_are_capped_per_hour() {
        let book = AddressBook::default();
        let a: IpAddr = [10, 0, 0, 1].into();
        let hour = Duration::from_secs(3600);
        assert_eq!((0..10).filter(|_| book.create_table(a, 4, hour)).count(), 4);
        assert!(book.create_table([10, 0, 0, 2].into(), 4, hour));
    }
}
