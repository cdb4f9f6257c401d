//! A small client of the server: the HTTP API, a websocket [`Socket`] that
//! speaks the protocol, and [`play_seat`], which plays a seat with a bot the
//! way a person's browser would. The tests and the load generator use it;
//! so can tools.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use std::borrow::Cow;

use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Message, Utf8Bytes};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use tripoley_bots::Bot;
use tripoley_cards::GameRng;
use tripoley_engine::{Seat, Stage, View};

use tripoley_server::protocol::{
    ClientMsg, CreateTable, Created, ErrorBody, NapalmClientMsg, PROTOCOL_VERSION, Seated,
    SitRequest, StartRequest, TableInfo,
};

/// Why a client call failed.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The connection failed.
    #[error("connection: {0}")]
    Io(String),
    /// The server refused the request.
    #[error("HTTP {status}: {body}")]
    Refused {
        /// The HTTP status.
        status: u16,
        /// The server's explanation.
        body: ErrorBody,
    },
    /// The server answered something this client does not understand.
    #[error("protocol: {0}")]
    Protocol(String),
    /// The connection closed: a websocket, or an HTTP answer before its head ended.
    #[error("the connection closed")]
    Closed,
    /// Nothing arrived in time.
    #[error("timed out")]
    Timeout,
    /// The game at a table failed so (the load generator names each game
    /// that failed in its report).
    #[error("table {invite}: {why}")]
    Game {
        /// The table's invite.
        invite: String,
        /// How it failed.
        why: Box<ClientError>,
    },
}

/// The websocket settings of every client: a smaller read buffer than the
/// default 128 KiB, which is zeroed for every read.
fn ws_config() -> WebSocketConfig {
    WebSocketConfig::default().read_buffer_size(READ_BUFFER)
}

fn io(e: impl std::fmt::Display) -> ClientError {
    ClientError::Io(e.to_string())
}

fn protocol(e: impl std::fmt::Display) -> ClientError {
    ClientError::Protocol(e.to_string())
}

/// Bytes a client's websocket reads at once. An update is about 1.4 KiB
/// (measured under load), so one read takes almost every frame, and a
/// larger one (a `state`) takes a few.
const READ_BUFFER: usize = 4 * 1024;

/// What [`play_seat`] reads of every server message: its type, event
/// number, the head of its view and error code, in one pass over the text
/// (the events, the rest of the view, turn and table are skipped without
/// being built). Three frames in four are another seat's turn, and a whole
/// view is most of a client's work (the load generator reads thousands a
/// second), so the view itself is read only when this seat acts
/// ([`WithView`]).
#[derive(Deserialize)]
struct Frame<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    #[serde(default)]
    n: Option<u64>,
    #[serde(default)]
    view: Option<ViewHead>,
    #[serde(default, borrow)]
    code: Option<Cow<'a, str>>,
}

/// What a player reads of every view to know whether to read it all.
#[derive(Deserialize)]
struct ViewHead {
    stage: Stage,
    #[serde(default)]
    decision: Option<serde::de::IgnoredAny>,
}

/// A server message's whole view, read when the seat acts or the game ends.
#[derive(Deserialize)]
struct WithView {
    view: View,
}

/// How long a request or a websocket handshake may wait for the server: a
/// port that accepts and never answers (a stopped process, or a loopback
/// port with nothing behind it, which the kernel may connect to itself)
/// must fail the call, not hang it.
pub const ANSWER_WAIT: Duration = Duration::from_secs(30);

/// One HTTP/1.1 request with an optional JSON body; returns the status and
/// the JSON answer (`null` when the body is not JSON). Fails with
/// [`ClientError::Timeout`] when the whole answer takes over [`ANSWER_WAIT`].
pub async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> Result<(u16, Value), ClientError> {
    tokio::time::timeout(ANSWER_WAIT, exchange(addr, method, path, body))
        .await
        .map_err(|_| ClientError::Timeout)?
}

/// [`request`] without its time limit.
async fn exchange(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> Result<(u16, Value), ClientError> {
    let mut stream = TcpStream::connect(addr).await.map_err(io)?;
    let body = body.map(Value::to_string).unwrap_or_default();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.map_err(io)?;
    stream.write_all(body.as_bytes()).await.map_err(io)?;
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.map_err(io)?;
    let text = String::from_utf8_lossy(&answer);
    // Closed before the head's end: the answer was lost on its way (a
    // proxy whose server died mid-request), like any dropped connection.
    let (head, body) = text.split_once("\r\n\r\n").ok_or(ClientError::Closed)?;
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| ClientError::Protocol(format!("bad status line: {head}")))?;
    Ok((status, serde_json::from_str(body).unwrap_or(Value::Null)))
}

async fn api<T: DeserializeOwned>(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> Result<T, ClientError> {
    let (status, value) = request(addr, method, path, body).await?;
    if !(200..300).contains(&status) {
        let body = serde_json::from_value(value.clone()).unwrap_or_else(|_| {
            ErrorBody::new(
                tripoley_server::protocol::ErrorCode::BadMessage,
                value.to_string(),
            )
        });
        return Err(ClientError::Refused { status, body });
    }
    serde_json::from_value(value).map_err(|e| ClientError::Protocol(e.to_string()))
}

/// `POST /api/tables`.
pub async fn create_table(addr: SocketAddr, req: &CreateTable) -> Result<Created, ClientError> {
    let body = serde_json::to_value(req).map_err(|e| ClientError::Protocol(e.to_string()))?;
    api(addr, "POST", "/api/tables", Some(&body)).await
}

/// `POST /api/tables/<invite>/sit`.
pub async fn sit(
    addr: SocketAddr,
    invite: &str,
    seat: Option<Seat>,
    name: &str,
) -> Result<Seated, ClientError> {
    let body = serde_json::to_value(SitRequest {
        seat,
        name: name.to_owned(),
    })
    .map_err(|e| ClientError::Protocol(e.to_string()))?;
    api(
        addr,
        "POST",
        &format!("/api/tables/{invite}/sit"),
        Some(&body),
    )
    .await
}

/// `POST /api/tables/<invite>/start` with the host's token.
pub async fn start_table(addr: SocketAddr, invite: &str, token: &str) -> Result<(), ClientError> {
    let body = serde_json::to_value(StartRequest {
        token: token.to_owned(),
    })
    .map_err(|e| ClientError::Protocol(e.to_string()))?;
    api::<Value>(
        addr,
        "POST",
        &format!("/api/tables/{invite}/start"),
        Some(&body),
    )
    .await
    .map(drop)
}

/// `GET /api/tables?page=N`: a page of the public tables.
pub async fn public_tables(
    addr: SocketAddr,
    page: usize,
) -> Result<tripoley_server::public::PublicPage, ClientError> {
    api(addr, "GET", &format!("/api/tables?page={page}"), None).await
}

/// `GET /api/tables/<invite>`.
pub async fn table_info(addr: SocketAddr, invite: &str) -> Result<TableInfo, ClientError> {
    api(addr, "GET", &format!("/api/tables/{invite}"), None).await
}

/// A websocket to one table.
pub struct Socket {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// The last event number seen in an `update` or `state` message.
    pub last: Option<u64>,
}

impl Socket {
    /// Opens `/ws/<invite>` (sending no Origin, as programs do).
    pub async fn connect(addr: SocketAddr, invite: &str) -> Result<Socket, ClientError> {
        Socket::connect_with_origin(addr, invite, None).await
    }

    /// Opens `/ws/<invite>` with an `Origin` header, as a browser would.
    pub async fn connect_with_origin(
        addr: SocketAddr,
        invite: &str,
        origin: Option<&str>,
    ) -> Result<Socket, ClientError> {
        let mut req = format!("ws://{addr}/ws/{invite}")
            .into_client_request()
            .map_err(io)?;
        if let Some(o) = origin {
            req.headers_mut().insert(
                "origin",
                o.parse()
                    .map_err(|_| ClientError::Protocol("bad origin".into()))?,
            );
        }
        // No Nagle delay on the small messages a client sends.
        let handshake = tokio_tungstenite::connect_async_with_config(req, Some(ws_config()), true);
        let (ws, _) = tokio::time::timeout(ANSWER_WAIT, handshake)
            .await
            .map_err(|_| ClientError::Timeout)?
            .map_err(io)?;
        Ok(Socket { ws, last: None })
    }

    /// Opens `/ws/<invite>` over a TCP socket whose kernel receive buffer is
    /// fixed at `bytes`. Left alone, the kernel grows a receive buffer to
    /// tens of MiB, so a client that stops reading would take a whole long
    /// game before the server noticed; with a small fixed one it behaves
    /// like a slow phone, which is what tests of slow clients need.
    pub async fn connect_with_receive_buffer(
        addr: SocketAddr,
        invite: &str,
        bytes: u32,
    ) -> Result<Socket, ClientError> {
        let socket = tcp_socket(addr)?;
        socket.set_recv_buffer_size(bytes).map_err(io)?;
        Socket::connect_over(socket, addr, invite).await
    }

    /// Opens `/ws/<invite>` from the local address `from` (tests act as
    /// many clients with sockets bound to many loopback addresses).
    pub async fn connect_from(
        addr: SocketAddr,
        invite: &str,
        from: std::net::IpAddr,
    ) -> Result<Socket, ClientError> {
        let socket = tcp_socket(addr)?;
        socket.bind(SocketAddr::new(from, 0)).map_err(io)?;
        Socket::connect_over(socket, addr, invite).await
    }

    /// Opens `/ws/<invite>` over `socket`.
    async fn connect_over(
        socket: TcpSocket,
        addr: SocketAddr,
        invite: &str,
    ) -> Result<Socket, ClientError> {
        let stream = socket.connect(addr).await.map_err(io)?;
        let req = format!("ws://{addr}/ws/{invite}")
            .into_client_request()
            .map_err(io)?;
        let handshake = tokio_tungstenite::client_async_with_config(
            req,
            MaybeTlsStream::Plain(stream),
            Some(ws_config()),
        );
        let (ws, _) = tokio::time::timeout(ANSWER_WAIT, handshake)
            .await
            .map_err(|_| ClientError::Timeout)?
            .map_err(io)?;
        Ok(Socket { ws, last: None })
    }

    /// Sends raw text (tests send malformed messages this way).
    pub async fn send_text(&mut self, text: &str) -> Result<(), ClientError> {
        self.ws
            .send(Message::Text(text.into()))
            .await
            .map_err(|_| ClientError::Closed)
    }

    /// Sends a protocol message.
    pub async fn send(&mut self, msg: &ClientMsg) -> Result<(), ClientError> {
        let text = serde_json::to_string(msg).map_err(|e| ClientError::Protocol(e.to_string()))?;
        self.send_text(&text).await
    }

    /// Sends an `act` with a Napalm action.
    pub async fn send_napalm(&mut self, msg: &NapalmClientMsg) -> Result<(), ClientError> {
        let text = serde_json::to_string(msg).map_err(|e| ClientError::Protocol(e.to_string()))?;
        self.send_text(&text).await
    }

    /// Says hello: a seat token (or none to watch) and the last event seen.
    pub async fn hello(
        &mut self,
        token: Option<&str>,
        last: Option<u64>,
    ) -> Result<(), ClientError> {
        self.send(&ClientMsg::Hello {
            v: PROTOCOL_VERSION,
            token: token.map(str::to_owned),
            last,
        })
        .await
    }

    /// The next message from the server, as JSON.
    pub async fn recv(&mut self) -> Result<Value, ClientError> {
        let text = self.recv_text().await?;
        let v: Value = serde_json::from_str(text.as_str()).map_err(protocol)?;
        self.saw(v["type"].as_str(), v["n"].as_u64());
        Ok(v)
    }

    /// The next text message, unparsed.
    async fn recv_text(&mut self) -> Result<Utf8Bytes, ClientError> {
        loop {
            match self.ws.next().await {
                Some(Ok(Message::Text(t))) => return Ok(t),
                Some(Ok(Message::Close(_)) | Err(_)) | None => return Err(ClientError::Closed),
                Some(Ok(_)) => {}
            }
        }
    }

    /// Keeps the event number of an `update` or `state` message.
    fn saw(&mut self, kind: Option<&str>, n: Option<u64>) {
        if matches!(kind, Some("update" | "state"))
            && let Some(n) = n
        {
            self.last = Some(self.last.map_or(n, |l| l.max(n)));
        }
    }

    /// [`Socket::recv`], giving up after `wait`.
    pub async fn recv_timeout(&mut self, wait: Duration) -> Result<Value, ClientError> {
        tokio::time::timeout(wait, self.recv())
            .await
            .map_err(|_| ClientError::Timeout)?
    }

    /// Waits for a message of type `kind`, skipping others.
    pub async fn recv_type(&mut self, kind: &str, wait: Duration) -> Result<Value, ClientError> {
        let end = Instant::now() + wait;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            let v = self.recv_timeout(left).await?;
            if v["type"] == kind {
                return Ok(v);
            }
        }
    }

    /// Closes the socket.
    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}

/// A TCP socket of `addr`'s family.
fn tcp_socket(addr: SocketAddr) -> Result<TcpSocket, ClientError> {
    if addr.is_ipv4() {
        TcpSocket::new_v4()
    } else {
        TcpSocket::new_v6()
    }
    .map_err(io)
}

/// The view in an `update` or `state` message, if it has one.
pub fn view_of(msg: &Value) -> Option<View> {
    let v = msg.get("view")?;
    if v.is_null() {
        return None;
    }
    serde_json::from_value(v.clone()).ok()
}

/// One action answered.
#[derive(Clone, Copy, Debug)]
pub struct Answer {
    /// When it was sent.
    pub sent: Instant,
    /// Microseconds until the frame that showed its result.
    pub micros: u64,
}

/// What [`play_seat`] saw.
#[derive(Clone, Debug, Default)]
pub struct PlayStats {
    /// Actions sent.
    pub actions: u64,
    /// Each action answered: when it was sent, and how long until the frame
    /// that showed its result.
    pub answers: Vec<Answer>,
    /// Messages received.
    pub frames: u64,
    /// Error replies received (stale answers after a timeout, for example),
    /// besides the refusals counted in `rate_limited`.
    pub errors: u64,
    /// Actions the server's rate limit refused and this client sent again:
    /// a refused action changes nothing and no frame follows it, so a client
    /// that did not resend it would wait for its own turn forever.
    pub rate_limited: u64,
    /// Actions the server could not store (its database out of reach:
    /// nothing changed) and this client sent again, as a person would.
    pub storage_retried: u64,
    /// The longest time the game went without a new event while this
    /// connection played (error frames are no news): a game that stalls
    /// shows here, even if the test ends before it would have.
    pub longest_silence: Duration,
    /// The view of the last decision this seat answered, or the game's end
    /// (other views are not read whole).
    pub last_view: Option<View>,
    /// Whether the game ended.
    pub finished: bool,
}

/// How long a client waits before sending again a message the server's rate
/// limit refused (the default limit frees a message every 100 ms).
const RATE_RETRY: Duration = Duration::from_millis(100);

/// How long a client waits before sending again an action the server
/// could not store (its database restarting): the `Retry-After` of the
/// HTTP API's storage failures.
const STORAGE_RETRY: Duration = Duration::from_secs(2);

/// Plays the seat this socket said hello for: whenever its view holds a
/// decision, waits `think`, asks `bot`, and sends the action; an action the
/// rate limit refused, or the server could not store, is sent again after
/// a pause. Returns when the game is
/// over, the socket closes, or `until` passes.
pub async fn play_seat(
    sock: &mut Socket,
    bot: &mut dyn Bot,
    rng: &mut GameRng,
    think: Duration,
    until: Option<Instant>,
) -> Result<PlayStats, ClientError> {
    play(sock, bot, rng, think, until, None::<fn(&Value)>).await
}

/// [`play_seat`], showing every message received to `observe` first.
pub async fn play_seat_observed(
    sock: &mut Socket,
    bot: &mut dyn Bot,
    rng: &mut GameRng,
    think: Duration,
    until: Option<Instant>,
    observe: impl FnMut(&Value),
) -> Result<PlayStats, ClientError> {
    play(sock, bot, rng, think, until, Some(observe)).await
}

/// [`play_seat_observed`]; without an observer no message is built as a
/// JSON value (the load generator's clients read thousands a second).
async fn play<O: FnMut(&Value)>(
    sock: &mut Socket,
    bot: &mut dyn Bot,
    rng: &mut GameRng,
    think: Duration,
    until: Option<Instant>,
    mut observe: Option<O>,
) -> Result<PlayStats, ClientError> {
    let mut stats = PlayStats::default();
    let mut acted_at: Option<u64> = None;
    // The action awaiting its result: the event it answers, when it was
    // first sent, and the message (to send again if the rate limit refuses it).
    let mut sent: Option<(u64, Instant, ClientMsg)> = None;
    // When the game last moved on (a new event), and the last event: the
    // silence is the game's, so an error frame (a table that cannot store
    // its step says so at every try) is no news.
    let mut moved = Instant::now();
    let mut newest: Option<u64> = None;
    loop {
        let wait = until.map_or(Duration::from_secs(3600), |u| {
            u.saturating_duration_since(Instant::now())
        });
        let received = tokio::time::timeout(wait, sock.recv_text()).await;
        stats.longest_silence = stats.longest_silence.max(moved.elapsed());
        let text = match received {
            Ok(t) => t?,
            Err(_) => return Ok(stats),
        };
        stats.frames += 1;
        if let Some(observe) = observe.as_mut() {
            observe(&serde_json::from_str(text.as_str()).map_err(protocol)?);
        }
        let frame: Frame<'_> = serde_json::from_str(text.as_str()).map_err(protocol)?;
        sock.saw(Some(&frame.kind), frame.n);
        match frame.kind.as_ref() {
            "error" => {
                match &sent {
                    Some((.., act)) if frame.code.as_deref() == Some("rate_limited") => {
                        stats.rate_limited += 1;
                        tokio::time::sleep(RATE_RETRY).await;
                        sock.send(act).await?;
                    }
                    Some((.., act)) if frame.code.as_deref() == Some("storage") => {
                        stats.storage_retried += 1;
                        tokio::time::sleep(STORAGE_RETRY).await;
                        sock.send(act).await?;
                    }
                    _ => stats.errors += 1,
                }
                continue;
            }
            "update" | "state" => {}
            _ => continue,
        }
        let n = frame.n.unwrap_or(0);
        if newest.is_none_or(|k| n > k) {
            newest = Some(n);
            moved = Instant::now();
        }
        if let Some((at, t0, _)) = &sent
            && n > *at
        {
            stats.answers.push(Answer {
                sent: *t0,
                micros: t0.elapsed().as_micros() as u64,
            });
            sent = None;
        }
        let Some(head) = frame.view else { continue };
        let over = head.stage == Stage::GameOver;
        if !over && (head.decision.is_none() || acted_at == Some(n)) {
            continue;
        }
        let WithView { view } = serde_json::from_str(text.as_str()).map_err(protocol)?;
        if over {
            stats.finished = true;
            stats.last_view = Some(view);
            return Ok(stats);
        }
        if !think.is_zero() {
            tokio::time::sleep(think).await;
        }
        let action = bot.act(&view, rng);
        acted_at = Some(n);
        let act = ClientMsg::Act {
            action,
            id: Some(n),
            seat: view.seat,
            n: Some(n),
        };
        sock.send(&act).await?;
        sent = Some((n, Instant::now(), act));
        stats.actions += 1;
        stats.last_view = Some(view);
    }
}

/// The Napalm view in an `update` or `state` message, if it has one.
pub fn napalm_view_of(msg: &Value) -> Option<tripoley_napalm::NapalmView> {
    let v = msg.get("view")?;
    if v.is_null() {
        return None;
    }
    serde_json::from_value(v.clone()).ok()
}

/// Whether an `update` or `state` message shows a finished game: a
/// `game_over` event, or a table whose status is finished.
pub fn shows_game_over(msg: &Value) -> bool {
    let over = |events: &Value| {
        events
            .as_array()
            .is_some_and(|l| l.iter().any(|e| e["event"] == "game_over"))
    };
    over(&msg["events"])
        || msg["log"]
            .as_array()
            .is_some_and(|l| l.iter().any(|entry| over(&entry["events"])))
        || msg["table"]["status"] == "finished"
}

/// [`play_seat_observed`] at a Napalm table: whenever this socket's view
/// holds a decision, asks `bot` and sends the action. Returns the last view
/// when the game is over, the socket closes, or `until` passes.
pub async fn play_napalm_seat(
    sock: &mut Socket,
    bot: &mut dyn tripoley_game::Bot<tripoley_napalm::NapalmGame>,
    rng: &mut GameRng,
    until: Option<Instant>,
    mut observe: impl FnMut(&Value),
) -> Result<(bool, Option<tripoley_napalm::NapalmView>), ClientError> {
    let mut acted_at: Option<u64> = None;
    // The action awaiting its result, to send again if the rate limit
    // refuses it (see [`PlayStats::rate_limited`]).
    let mut sent: Option<NapalmClientMsg> = None;
    let mut last_view = None;
    loop {
        let wait = until.map_or(Duration::from_secs(3600), |u| {
            u.saturating_duration_since(Instant::now())
        });
        let msg = match sock.recv_timeout(wait).await {
            Ok(m) => m,
            Err(ClientError::Timeout) => return Ok((false, last_view)),
            Err(e) => return Err(e),
        };
        observe(&msg);
        if msg["type"] == "error"
            && msg["code"] == "rate_limited"
            && let Some(act) = &sent
        {
            tokio::time::sleep(RATE_RETRY).await;
            sock.send_napalm(act).await?;
            continue;
        }
        if !matches!(msg["type"].as_str(), Some("update" | "state")) {
            continue;
        }
        let n = msg["n"].as_u64().unwrap_or(0);
        if acted_at.is_some_and(|at| n > at) {
            sent = None;
        }
        let over = shows_game_over(&msg);
        let Some(view) = napalm_view_of(&msg) else {
            if over {
                return Ok((true, last_view));
            }
            continue;
        };
        if over {
            return Ok((true, Some(view)));
        }
        if view.decision.is_some() && acted_at != Some(n) {
            let action = bot.act(&view, rng);
            acted_at = Some(n);
            let act = NapalmClientMsg::Act {
                action,
                id: Some(n),
                seat: view.seat,
                n: Some(n),
            };
            sock.send_napalm(&act).await?;
            sent = Some(act);
        }
        last_view = Some(view);
    }
}

#[cfg(test)]
mod tests;
