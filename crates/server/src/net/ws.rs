//! Websocket connections: the transport only. A connection checks sizes and
//! rates, parses messages and forwards them to its table's actor; it never
//! touches a game. Frames from the table go out through its outbox.

use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::stream::SplitSink;
use futures_util::{SinkExt, StreamExt};
use tokio::sync::{Notify, mpsc, oneshot, watch};

use crate::App;
use crate::auth::RateLimit;
use crate::protocol::{ClientMsg, ErrorBody, ErrorCode, NapalmClientMsg, PROTOCOL_VERSION};
use crate::table::{Cmd, ConnId, Out, TableHandle, error_frame};

/// Refused messages a connection may send before it is closed.
const MAX_STRIKES: u32 = 200;

/// One connection's side of the conversation.
struct Connection {
    app: Arc<App>,
    /// The client's address (its network, for IPv6).
    from: IpAddr,
    invite: String,
    table: TableHandle,
    conn: ConnId,
    tx: mpsc::Sender<Out>,
    kill: Arc<Notify>,
    joined: bool,
    strikes: u32,
    rate: RateLimit,
}

/// What to do after a message.
enum Next {
    Continue,
    Close,
}

/// Runs one websocket connection to the table `invite` until it closes.
pub(crate) async fn run(
    socket: WebSocket,
    app: Arc<App>,
    from: IpAddr,
    invite: String,
    table: TableHandle,
) {
    let (sink, mut stream) = socket.split();
    let (tx, rx) = mpsc::channel::<Out>(app.config.outbox);
    // The server pings three times within the idle time: a browser answers
    // by itself, and an answer counts as the client speaking.
    let mut pings = tokio::time::interval(app.config.idle_timeout / 3);
    pings.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    pings.reset();
    // The table's own signal beside the server's: a table stopped by its
    // lost lease may be stuck in a database call it cannot leave, and its
    // connections close without it (their players come back to wherever
    // it runs now, with the last event they saw).
    let mut stop = Stop::new(&app, &table);
    let mut writer = tokio::spawn(write(sink, rx, pings, Stop::new(&app, &table)));
    let mut c = Connection {
        conn: app.next_conn.fetch_add(1, Ordering::Relaxed),
        rate: RateLimit::new(app.config.rate_burst, app.config.rate_per_second),
        app,
        from,
        invite,
        table,
        tx,
        kill: Arc::new(Notify::new()),
        joined: false,
        strikes: 0,
    };
    let kill = Arc::clone(&c.kill);
    let hello_by = tokio::time::Instant::now() + c.app.config.hello_timeout;
    loop {
        let msg = tokio::select! {
            biased;
            () = stop.said() => break,
            () = kill.notified() => break,
            msg = stream.next() => msg,
            () = tokio::time::sleep_until(hello_by), if !c.joined => {
                let late = ErrorBody::new(
                    ErrorCode::BadMessage,
                    "no hello came in time: reconnect and say hello first",
                );
                c.reply(&late, None);
                break;
            }
        };
        let next = match msg {
            Some(Ok(Message::Text(t))) => c.on_text(t.as_str()).await,
            Some(Ok(Message::Binary(b))) => {
                let code = if b.len() > c.app.config.max_message_bytes {
                    ErrorCode::TooLarge
                } else {
                    ErrorCode::BadMessage
                };
                c.refuse(
                    ErrorBody::new(code, "messages are JSON text, not binary"),
                    None,
                )
            }
            Some(Ok(Message::Ping(_) | Message::Pong(_))) => Next::Continue,
            Some(Ok(Message::Close(_)) | Err(_)) | None => Next::Close,
        };
        if let Next::Close = next {
            break;
        }
    }
    if c.joined {
        let _ = c.table.tx.send(Cmd::Leave { conn: c.conn }).await;
    }
    drop(c);
    if tokio::time::timeout(Duration::from_secs(2), &mut writer)
        .await
        .is_err()
    {
        writer.abort();
    }
}

/// The signals that close a connection: its table's (stopped by its lost
/// lease, [`TableHandle::stop`]) and the server's (stopping, or killed
/// with its tables' tasks, whose lease switches then outlive them).
struct Stop {
    table: watch::Receiver<bool>,
    server: watch::Receiver<bool>,
}

impl Stop {
    fn new(app: &App, table: &TableHandle) -> Stop {
        Stop {
            table: table.stop.clone(),
            server: app.shutdown.clone(),
        }
    }

    /// Resolves once either says stop.
    async fn said(&mut self) {
        tokio::select! {
            _ = self.table.changed() => {}
            _ = self.server.changed() => {}
        }
    }
}

/// Writes the table's frames and the pings to the socket until the table
/// or the socket is done, or `stop` says so; then closes it.
async fn write(
    mut sink: SplitSink<WebSocket, Message>,
    mut rx: mpsc::Receiver<Out>,
    mut pings: tokio::time::Interval,
    mut stop: Stop,
) {
    // Frames queued together (an update and the ack of the action that
    // caused it, say) go out in one write.
    loop {
        let out = tokio::select! {
            () = stop.said() => {
                // What the table queued was stored: it goes out first.
                while let Ok(out) = rx.try_recv() {
                    if !feed(&mut sink, out).await {
                        break;
                    }
                }
                let _ = sink.flush().await;
                break;
            }
            out = rx.recv() => match out {
                Some(out) => out,
                None => break,
            },
            _ = pings.tick() => {
                if sink.send(Message::Ping(axum::body::Bytes::new())).await.is_err() {
                    break;
                }
                continue;
            }
        };
        let mut next = Some(out);
        let mut fed = true;
        while let Some(out) = next.take()
            && fed
        {
            fed = feed(&mut sink, out).await;
            next = rx.try_recv().ok();
        }
        if !fed || sink.flush().await.is_err() {
            break;
        }
    }
    let _ = sink
        .send(Message::Close(Some(CloseFrame {
            code: 1001,
            reason: "closed".into(),
        })))
        .await;
}

/// Queues a table's message on the socket (a message from the journal is
/// written here, on the connection's task); false once the socket failed.
async fn feed(sink: &mut SplitSink<WebSocket, Message>, out: Out) -> bool {
    match out {
        Out::Text(text) => sink.feed(Message::Text(text)).await.is_ok(),
        Out::Journal(catch) => {
            for text in catch.frames() {
                if sink.feed(Message::Text(text.into())).await.is_err() {
                    return false;
                }
            }
            true
        }
    }
}

/// What a joined connection's message asks of its table; `None` for the
/// messages the connection answers itself (`hello`, `ping`).
fn table_command(conn: ConnId, msg: ClientMsg) -> Option<Cmd> {
    Some(match msg {
        ClientMsg::Hello { .. } | ClientMsg::Ping { .. } => return None,
        ClientMsg::Chat { text, id } => Cmd::Chat { conn, text, id },
        ClientMsg::FreeSeat { seat, id } => Cmd::FreeSeat { conn, seat, id },
        ClientMsg::SeatBot { seat, bot, id } => Cmd::SeatBot {
            conn,
            seat,
            bot,
            id,
        },
        ClientMsg::Act {
            action,
            id,
            seat,
            n,
        } => Cmd::Act {
            conn,
            action,
            id,
            seat,
            n,
        },
        ClientMsg::Hint { id } => Cmd::Hint { conn, id },
        ClientMsg::Start { id } => {
            let (reply, _) = oneshot::channel();
            Cmd::Start {
                conn: Some(conn),
                token: None,
                id,
                reply,
            }
        }
    })
}

impl Connection {
    /// Sends an error reply and counts a strike.
    #[allow(clippy::needless_pass_by_value)] // every caller builds the error in place
    fn refuse(&mut self, err: ErrorBody, id: Option<u64>) -> Next {
        self.strikes += 1;
        self.reply(&err, id);
        if self.strikes > MAX_STRIKES {
            Next::Close
        } else {
            Next::Continue
        }
    }

    fn reply(&self, err: &ErrorBody, id: Option<u64>) {
        let n = self.table.n.load(Ordering::Acquire);
        // A client that does not read its replies loses them, not the server.
        let _ = self.tx.try_send(error_frame(n, id, err));
    }

    async fn on_text(&mut self, text: &str) -> Next {
        if !self.rate.allow() {
            return self.refuse(
                ErrorBody::new(ErrorCode::RateLimited, "too many messages: slow down"),
                None,
            );
        }
        let cap = self.app.config.max_message_bytes;
        if text.len() > cap {
            return self.refuse(
                ErrorBody::new(
                    ErrorCode::TooLarge,
                    format!("a message has at most {cap} bytes"),
                ),
                None,
            );
        }
        let Ok(msg) = serde_json::from_str::<ClientMsg>(text) else {
            // Not a Tripoley message: perhaps an `act` at a Napalm table.
            if let Ok(NapalmClientMsg::Act {
                action,
                id,
                seat,
                n,
            }) = serde_json::from_str(text)
            {
                if !self.joined {
                    return self.refuse(
                        ErrorBody::new(ErrorCode::Unauthorized, "say hello first"),
                        id,
                    );
                }
                let cmd = Cmd::NapalmAct {
                    conn: self.conn,
                    action,
                    id,
                    seat,
                    n,
                };
                if self.table.tx.send(cmd).await.is_err() {
                    return Next::Close;
                }
                return Next::Continue;
            }
            return self.refuse(
                ErrorBody::new(
                    ErrorCode::BadMessage,
                    "not a message of this protocol (docs/protocol.md)",
                ),
                None,
            );
        };
        let not_joined = || ErrorBody::new(ErrorCode::Unauthorized, "say hello first");
        let cmd = match msg {
            ClientMsg::Ping { id } => {
                let n = self.table.n.load(Ordering::Acquire);
                let pong = tripoley_table::message::ServerMsg::Pong { id }.text(n);
                let _ = self.tx.try_send(Out::Text(pong.into()));
                return Next::Continue;
            }
            ClientMsg::Hello { v, token, last } => return self.hello(v, token, last).await,
            ClientMsg::Act { id, .. }
            | ClientMsg::Start { id }
            | ClientMsg::Hint { id }
            | ClientMsg::Chat { id, .. }
            | ClientMsg::FreeSeat { id, .. }
            | ClientMsg::SeatBot { id, .. }
                if !self.joined =>
            {
                return self.refuse(not_joined(), id);
            }
            msg => match table_command(self.conn, msg) {
                Some(cmd) => cmd,
                None => return Next::Continue,
            },
        };
        if self.table.tx.send(cmd).await.is_err() {
            return Next::Close;
        }
        Next::Continue
    }

    async fn hello(&mut self, v: u32, token: Option<String>, last: Option<u64>) -> Next {
        if v != PROTOCOL_VERSION {
            self.reply(
                &ErrorBody::new(
                    ErrorCode::Version,
                    format!("this server speaks protocol version {PROTOCOL_VERSION}"),
                ),
                None,
            );
            return Next::Close;
        }
        if self.joined {
            return self.refuse(
                ErrorBody::new(ErrorCode::BadMessage, "hello was already said"),
                None,
            );
        }
        // A finished table's actor may have just stopped: reload it once.
        for _ in 0..2 {
            let (reply, answer) = oneshot::channel();
            let cmd = Cmd::Join {
                conn: self.conn,
                from: self.from,
                token: token.clone(),
                last,
                tx: self.tx.clone(),
                kill: Arc::clone(&self.kill),
                reply,
            };
            // A hello the actor took but dropped unanswered (it stopped
            // right after) is sent again to the reloaded table.
            if self.table.tx.send(cmd).await.is_ok()
                && let Ok(joined) = answer.await
            {
                self.joined = joined;
                // A refused hello (the table sent the error reply) ends the
                // connection: it holds nothing, so it may hold no socket.
                return if joined { Next::Continue } else { Next::Close };
            }
            match self.app.table(&self.invite).await {
                Ok(Some(t)) => self.table = t,
                _ => break,
            }
        }
        Next::Close
    }
}
