//! Helpers shared by the server's loopback tests.

use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpSocket;
use tripoley_bots::BotKind;
use tripoley_engine::{Preset, Rules, View};
use tripoley_loadtest::client::{self, Socket};
use tripoley_server::protocol::{ClientMsg, CreateTable};
use tripoley_server::{RunningServer, ServerConfig};

pub const WAIT: Duration = Duration::from_secs(20);

pub async fn server() -> RunningServer {
    tripoley_server::start(ServerConfig::ephemeral())
        .await
        .expect("the server starts")
}

/// A fresh database file path in the temp directory.
pub fn temp_db(name: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    std::env::temp_dir().join(format!("tripoley-{name}-{}-{nanos}.db", std::process::id()))
}

pub fn remove_db(path: &Path) {
    for suffix in ["", "-wal", "-shm"] {
        let mut p = path.as_os_str().to_owned();
        p.push(suffix);
        let _ = std::fs::remove_file(p);
    }
}

/// A table whose seats `humans` are taken by people; returns the invite,
/// the host token and each human seat's token.
pub struct Table {
    pub invite: String,
    pub host_token: String,
    pub tokens: Vec<(u8, String)>,
}

pub async fn table(
    addr: SocketAddr,
    preset: Preset,
    seats: u8,
    humans: &[u8],
    turn_seconds: u32,
) -> Table {
    let request = CreateTable {
        preset: Some(preset),
        seats: Some(seats),
        turn_seconds: Some(turn_seconds),
        bot: Some(BotKind::Heuristic),
        ..CreateTable::default()
    };
    table_from(addr, &request, humans).await
}

/// A one-deal table of three heuristic bots (a whole game in a moment).
pub fn one_deal_of_bots() -> CreateTable {
    CreateTable {
        preset: Some(Preset::Pagat),
        seats: Some(3),
        deals: Some(1),
        bot: Some(BotKind::Heuristic),
        ..CreateTable::default()
    }
}

/// The table `request` asks for, with people in the seats `humans`.
pub async fn table_from(addr: SocketAddr, request: &CreateTable, humans: &[u8]) -> Table {
    let created = client::create_table(addr, request)
        .await
        .expect("the table is created");
    let mut tokens = Vec::new();
    for &s in humans {
        let seated = client::sit(addr, &created.invite, Some(s), &format!("Human {s}"))
            .await
            .expect("the seat is free");
        assert_eq!(seated.seat, s);
        tokens.push((s, seated.token));
    }
    Table {
        invite: created.invite,
        host_token: created.host_token,
        tokens,
    }
}

/// Connects and says hello; waits for the welcome.
pub async fn join(
    addr: SocketAddr,
    invite: &str,
    token: Option<&str>,
    last: Option<u64>,
) -> (Socket, Value) {
    let mut sock = Socket::connect(addr, invite).await.expect("connects");
    sock.hello(token, last).await.expect("sends hello");
    let welcome = sock.recv_type("welcome", WAIT).await.expect("a welcome");
    (sock, welcome)
}

/// Reads until a view whose decision is set, or the game ends.
pub async fn until_decision(sock: &mut Socket) -> (u64, View) {
    loop {
        let msg = sock.recv_timeout(WAIT).await.expect("a message");
        if let Some(view) = client::view_of(&msg) {
            if view.decision.is_some() || view.standings.is_some() {
                return (msg["n"].as_u64().unwrap(), view);
            }
        }
    }
}

/// A seated player of a Pagat game plays up to `actions` decisions with
/// the heuristic (to the game's end at most); each action's latency (sent
/// to `ack`), an action unanswered in 10 s counting 10 s and ending the
/// count. `next` keeps a decision seen while
/// waiting for the last ack; `tables` counts the `table` messages seen
/// while waiting for acks.
pub async fn latencies(
    sock: &mut Socket,
    next: &mut Option<(u64, tripoley_engine::View)>,
    actions: usize,
    tables: &mut usize,
) -> Vec<Duration> {
    const STALLED: Duration = Duration::from_secs(10);
    let mut bot = BotKind::Heuristic.make(&Rules::preset(Preset::Pagat));
    let mut rng = tripoley_cards::seeded_rng(1);
    let mut latencies = Vec::new();
    while latencies.len() < actions {
        let (n, view) = if let Some(seen) = next.take() {
            seen
        } else {
            let Ok(seen) = tokio::time::timeout(STALLED, until_decision(sock)).await else {
                latencies.push(STALLED);
                break;
            };
            seen
        };
        if view.decision.is_none() {
            break;
        }
        let id = latencies.len() as u64;
        let sent = Instant::now();
        let action = bot.act(&view, &mut rng);
        sock.send(&ClientMsg::Act {
            action,
            id: Some(id),
            seat: None,
            n: Some(n),
        })
        .await
        .unwrap();
        loop {
            let Ok(msg) = sock
                .recv_timeout(STALLED.saturating_sub(sent.elapsed()))
                .await
            else {
                latencies.push(STALLED);
                return latencies;
            };
            *tables += usize::from(msg["type"] == "table");
            if let Some(v) = client::view_of(&msg)
                && (v.decision.is_some() || v.standings.is_some())
            {
                *next = Some((msg["n"].as_u64().unwrap(), v));
            }
            if msg["id"] == id && (msg["type"] == "ack" || msg["type"] == "error") {
                assert_eq!(msg["type"], "ack", "{msg}");
                break;
            }
        }
        latencies.push(sent.elapsed());
    }
    latencies
}

/// Chips on the table in a view: every stack plus the layout.
pub fn chips(view: &View) -> u32 {
    view.stacks.iter().sum::<u32>() + view.layout.iter().map(|(_, c)| c).sum::<u32>()
}

pub fn starting_total(preset: Preset, seats: u8) -> u32 {
    Rules::preset(preset).starting_chips * u32::from(seats)
}

/// A throwaway PostgreSQL server (the crate's own test harness).
#[path = "../../../src/store/testpg.rs"]
pub mod pg;

/// One HTTP POST from the loopback address `from`, with the headers given
/// (and `Host: addr` unless they name one); returns the status and the JSON
/// body.
pub async fn http_from(
    from: IpAddr,
    addr: SocketAddr,
    path: &str,
    headers: &[(&str, &str)],
    body: &Value,
) -> (u16, Value) {
    request_from(from, addr, "POST", path, headers, &body.to_string()).await
}

/// One HTTP request from the loopback address `from` (see [`http_from`]).
pub async fn request_from(
    from: IpAddr,
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, Value) {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::new(from, 0)).unwrap();
    let mut stream = socket.connect(addr).await.expect("connects");
    let mut lines = headers
        .iter()
        .map(|(k, v)| format!("{k}: {v}\r\n"))
        .collect::<Vec<_>>()
        .concat();
    let named = |name: &str| headers.iter().any(|(k, _)| k.eq_ignore_ascii_case(name));
    if !named("host") {
        lines += "Host: ";
        lines += &addr.to_string();
        lines += "\r\n";
    }
    if !named("connection") {
        lines.push_str("Connection: close\r\n");
    }
    let head = format!(
        "{method} {path} HTTP/1.1\r\n{lines}Content-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(body.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    // An upgrade that is let through keeps the connection: its head is
    // enough. Otherwise the server closes it once it has answered, which
    // may take a while (an analysis, in a debug build, on a busy machine).
    let wait = Duration::from_secs(if named("connection") { 2 } else { 60 });
    let _ = tokio::time::timeout(wait, stream.read_to_end(&mut answer)).await;
    let text = String::from_utf8_lossy(&answer);
    let (head, body) = text.split_once("\r\n\r\n").expect("an HTTP answer");
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

/// Plays every human seat of the started table `t` (of `preset`) with a
/// random bot to the game's end, and waits until the table says it is
/// finished; returns the seats' sockets, still connected.
pub async fn play_to_the_end(addr: SocketAddr, t: &Table, preset: Preset) -> Vec<Socket> {
    let mut seats = tokio::task::JoinSet::new();
    for (seat, token) in t.tokens.clone() {
        let invite = t.invite.clone();
        seats.spawn(async move {
            let (mut sock, _) = join(addr, &invite, Some(&token), None).await;
            let mut bot = BotKind::Random.make(&Rules::preset(preset));
            let mut rng = tripoley_cards::seeded_rng(u64::from(seat));
            let stats = client::play_seat(&mut sock, bot.as_mut(), &mut rng, Duration::ZERO, None)
                .await
                .unwrap();
            assert!(stats.finished, "the game ends");
            sock
        });
    }
    let mut socks = Vec::new();
    while let Some(sock) = seats.join_next().await {
        socks.push(sock.unwrap());
    }
    let deadline = tokio::time::Instant::now() + WAIT;
    while client::table_info(addr, &t.invite).await.unwrap().status
        != tripoley_server::protocol::TableStatus::Finished
    {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the table is marked finished"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    socks
}
