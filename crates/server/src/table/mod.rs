//! A table as an actor: one tokio task owns the table's [`Game`] and is its
//! only writer. Connections and HTTP handlers talk to it through a channel
//! ([`Cmd`]); it answers through each connection's outbox.
//!
//! The order of every step is: check it, append it to storage, apply it,
//! then send each viewer a frame built from that viewer's own view and the
//! events whose audience includes them.
//!
//! A table plays Tripoley or Napalm through one [`Played`] (the game, its
//! record, its log and journal, shared with the device's offline table);
//! the seats, connections, lobby, timers and frames are the server's.

mod frames;
mod hold;
pub(crate) mod lobbies;
mod lobby;
mod napalm;
mod news;
pub mod public;
mod social;
mod think;

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use axum::extract::ws::Utf8Bytes;
use tokio::sync::{Notify, mpsc, oneshot, watch};
use tripoley_bots::Bot;
use tripoley_cards::{GameRng, seeded_rng};
use tripoley_engine::{Action, Record, Seat};
use tripoley_table::{Due, Played, TableStep};

/// What the expert bot may spend on a hint: 2000 playouts (a few
/// milliseconds at a family's stakes), and never more than a quarter of a
/// second of the clock, whatever the stacks (at a million chips a playout's
/// betting runs long: issue 31, finding 5).
const HINT_BUDGET: tripoley_bots::Budget = tripoley_bots::Budget {
    playouts: 2000,
    time: Some(Duration::from_millis(250)),
};

use crate::auth::{RateLimit, hash_token, same_hash};
use crate::protocol::{
    Detail, ErrorBody, ErrorCode, GameKind, SeatInfo, SeatKind, Seated, TableInfo, TableSettings,
    TableStatus, clean_name, name_taken,
};
use crate::secret::new_token;
use crate::store::{Store, StoredSteps, StoredTable, TokenHash};
use crate::table::public::{Directory, PublicTable};

/// How long a finished table with nobody watching stays in memory.
const LINGER: Duration = Duration::from_secs(10);

/// At most one `table` message in this time for spectators coming and
/// going, so that a flood of hellos does not make the table write to every
/// connection for each (issue 31, finding 4).
const TABLE_EVERY: Duration = Duration::from_millis(200);

/// A connection's id, unique in the process.
pub(crate) type ConnId = u64;

/// What a table sends a connection's writer.
#[derive(Clone, Debug)]
pub(crate) enum Out {
    /// A JSON message (shared, not copied, by the connections that get it).
    Text(Utf8Bytes),
    /// Messages the writer writes itself from the table's journal: what a
    /// returning connection missed, or the full state.
    Journal(Box<tripoley_table::journal::Catch>),
}

/// A request to a table.
pub(crate) enum Cmd {
    /// A websocket connection says hello.
    Join {
        conn: ConnId,
        /// The client's address (its network, for IPv6).
        from: IpAddr,
        token: Option<String>,
        last: Option<u64>,
        tx: mpsc::Sender<Out>,
        kill: Arc<Notify>,
        reply: oneshot::Sender<bool>,
    },
    /// A connection closed.
    Leave { conn: ConnId },
    /// A seated connection acts.
    Act {
        conn: ConnId,
        action: Action,
        id: Option<u64>,
        seat: Option<Seat>,
        n: Option<u64>,
    },
    /// A seated connection asks what the expert bot would do.
    Hint { conn: ConnId, id: Option<u64> },
    /// A connection says something in the table's chat.
    Chat {
        conn: ConnId,
        text: String,
        id: Option<u64>,
    },
    /// The host gives a lobby seat a bot of a level, or opens it again.
    SeatBot {
        conn: ConnId,
        seat: Seat,
        bot: Option<tripoley_bots::BotKind>,
        id: Option<u64>,
    },
    /// The host frees the seat of a player who left.
    FreeSeat {
        conn: ConnId,
        seat: Seat,
        id: Option<u64>,
    },
    /// The host starts the game (by connection or by token).
    Start {
        conn: Option<ConnId>,
        token: Option<String>,
        id: Option<u64>,
        reply: oneshot::Sender<Result<(), ErrorBody>>,
    },
    /// Take a seat in the lobby.
    Sit {
        seat: Option<Seat>,
        name: String,
        reply: oneshot::Sender<Result<Seated, ErrorBody>>,
    },
    /// The table as everyone sees it.
    Info { reply: oneshot::Sender<TableInfo> },
    /// The game's record so far (for tests and tools; holds hidden cards).
    Record {
        reply: oneshot::Sender<Option<Record>>,
    },
    /// A seated connection acts at a Napalm table.
    NapalmAct {
        conn: ConnId,
        action: tripoley_napalm::Action,
        id: Option<u64>,
        seat: Option<Seat>,
        n: Option<u64>,
    },
    /// A Napalm game's record so far (for tests and tools; holds hidden cards).
    NapalmRecord {
        reply: oneshot::Sender<Option<tripoley_napalm::NapalmRecord>>,
    },
    /// A rematch of this finished table was made at `invite`, asked for by
    /// the player `by` (`None`: the host, without a seat).
    Rematch { invite: String, by: Option<String> },
    /// The table's phase.
    Status { reply: oneshot::Sender<TableStatus> },
    /// The server is full: a lobby nobody is in, or a game of bots alone
    /// that nobody watches, removes itself.
    Reclaim {
        /// Made less than `lobbies::JOINING` ago: a lobby where a person
        /// holds a seat is kept, its people are on the way.
        young: bool,
        reply: oneshot::Sender<Reclaim>,
    },
}

/// A table's answer to [`Cmd::Reclaim`].
pub(crate) enum Reclaim {
    /// Removed from storage; the actor stops.
    Reclaimed,
    /// Someone is connected, or a person plays (or watched a moment ago):
    /// kept.
    InUse,
    /// The game is over: it holds no place for long.
    Finished,
}

/// How long a game of bots alone stays after its last watcher left before
/// a full server may reclaim it (a reload comes back within this); one
/// nobody ever watched may go at once.
const UNWATCHED: Duration = Duration::from_secs(3);

/// How a table reaches its actor.
#[derive(Clone)]
pub(crate) struct TableHandle {
    pub tx: mpsc::Sender<Cmd>,
    /// The table's event number, for connections' error replies.
    pub n: Arc<AtomicU64>,
    /// The signal that closes the table's connections when it stops (the
    /// server stopping, or its lease lost). They watch it themselves: an
    /// actor waiting for a database cut off from this server cannot close
    /// them, and its players must go where the table runs now at once.
    pub stop: watch::Receiver<bool>,
}

impl TableHandle {
    /// Whether the table still runs here: its actor is there, and no
    /// signal has stopped it (the actor may not have seen it yet).
    pub(crate) fn runs(&self) -> bool {
        !self.tx.is_closed() && self.stop.has_changed().is_ok() && !*self.stop.borrow()
    }
}

/// The limits and timings a table runs with.
#[derive(Clone, Debug)]
pub(crate) struct TableConfig {
    pub grace: Duration,
    pub bot_delay: Duration,
    /// How long a run waits at a card a person might hold (M9b); zero: no
    /// window.
    pub withhold_window: Duration,
    pub max_spectators: usize,
    pub max_spectators_per_address: usize,
    pub resume_window: u64,
    pub max_connections_per_seat: usize,
    /// How long the table is kept with nobody connected.
    pub idle: Duration,
    /// The server-wide budget of hint searches.
    pub hints: Arc<tokio::sync::Semaphore>,
    /// The server-wide budget of expert bots' searches.
    pub experts: Arc<tokio::sync::Semaphore>,
    /// How the table's bots are made (an expert's search budget).
    pub bots: tripoley_bots::BotOptions,
    /// The list of public tables, where a public table shows itself.
    pub directory: Arc<Directory>,
}

struct SeatState {
    name: Option<String>,
    hash: Option<TokenHash>,
    conns: u32,
    away_since: Instant,
    /// The seat's bot; `None` while it thinks on the blocking pool.
    bot: Option<Box<dyn Bot>>,
    /// Whether everyone was told this away player's grace time ended.
    told_away: bool,
}

struct Conn {
    /// The client's address (its network, for IPv6).
    from: IpAddr,
    seat: Option<Seat>,
    host: bool,
    tx: mpsc::Sender<Out>,
    kill: Arc<Notify>,
    /// This connection's chat allowance.
    chat: RateLimit,
}

struct Table {
    invite: String,
    settings: TableSettings,
    status: TableStatus,
    host_hash: TokenHash,
    seats: Vec<SeatState>,
    /// The game, once started.
    played: Option<Played>,
    conns: HashMap<ConnId, Conn>,
    store: Store,
    cfg: TableConfig,
    n: Arc<AtomicU64>,
    rng: GameRng,
    turn_started: Instant,
    retry_at: Option<Instant>,
    /// Whether a bot is thinking on the blocking pool (nothing else is due
    /// until it answers).
    thinking: bool,
    /// Where thinking bots and hint searches send their answers.
    answers: mpsc::UnboundedSender<think::Thought>,
    /// Hints searched and being searched.
    hints: think::Hints,
    /// When the table last had a connection or a request: a table left
    /// alone longer than its `idle` time is removed.
    last_seen: Instant,
    /// When its last connection ended; `None` while nobody has ever
    /// connected.
    unwatched_since: Option<Instant>,
    /// The chat and the freed seats.
    social: social::Social,
    /// When the next part of a step held back (a run's stop that must look
    /// like a withhold, M9b) is shown.
    held_until: Option<Instant>,
    /// When a stop at the card a run waits at (M9b) is shown.
    window: Option<hold::Window>,
    /// A bot's answer waiting for its moment.
    parked: Option<hold::Parked>,
    /// The `rematch` message, once a rematch of this table was made.
    rematch: Option<String>,
    /// When the last `table` message went out.
    shown_at: Instant,
    /// When a `table` message held back by [`TABLE_EVERY`] is due.
    show_due: Option<Instant>,
    /// Whether a change's answer from the database was lost: the table
    /// stops and is loaded again from what is stored.
    read_back: bool,
}

/// An `error` message.
pub(crate) fn error_frame(n: u64, id: Option<u64>, err: &ErrorBody) -> Out {
    Out::Text(tripoley_table::frames::error(n, id, err).into())
}

impl Table {
    /// A step or a seat that could not be stored, as the player is told
    /// it; the store's own text goes to the server's log, never to a player
    /// (issue 30). A change the database may have taken after all (its
    /// answer lost, [`crate::ServerError::InDoubt`]) leaves this table
    /// unsure of its own state: it stops, and is read back from the
    /// database at the next request (its connections come back to it).
    fn storage(&mut self, e: &crate::ServerError) -> ErrorBody {
        eprintln!(
            "tripoley serve: could not store a change of table {}: {e}",
            self.invite
        );
        if matches!(e, crate::ServerError::InDoubt) {
            self.read_back = true;
        }
        e.answer()
    }
}

/// Starts the actor of a stored table; returns its handle and task. The
/// actor alone holds `stop`, the signal that ends it; `cut`, the one that
/// closes its connections, goes with its handle (see
/// [`TableHandle::stop`]).
pub(crate) fn spawn(
    invite: String,
    stored: StoredTable,
    store: Store,
    cfg: TableConfig,
    (shutdown, cut): (watch::Receiver<bool>, watch::Receiver<bool>),
    tasks: &mut tokio::task::JoinSet<()>,
) -> Result<TableHandle, crate::ServerError> {
    let now = Instant::now();
    let rules = stored.settings.rules.clone();
    let seats = (0..stored.settings.seats)
        .map(|s| {
            let claimed = stored.seats.iter().find(|(seat, ..)| *seat == s);
            SeatState {
                name: claimed.map(|(_, name, _)| name.clone()),
                hash: claimed.map(|(.., h)| *h),
                conns: 0,
                away_since: now,
                bot: Some(
                    stored
                        .settings
                        .seat_bots
                        .get(&s)
                        .unwrap_or(&stored.settings.bot)
                        .make_with(&rules, &cfg.bots),
                ),
                told_away: false,
            }
        })
        .collect();
    let (answers, answers_rx) = mpsc::unbounded_channel();
    let mut seed = [0u8; 8];
    getrandom::fill(&mut seed).map_err(|e| crate::ServerError::Io(e.to_string()))?;
    let mut table = Table {
        social: social::Social::new(usize::from(stored.settings.seats)),
        invite,
        settings: stored.settings,
        status: stored.status,
        host_hash: stored.host_hash,
        seats,
        played: None,
        conns: HashMap::new(),
        store,
        cfg,
        n: Arc::new(AtomicU64::new(0)),
        rng: seeded_rng(u64::from_le_bytes(seed)),
        turn_started: now,
        retry_at: None,
        thinking: false,
        answers,
        hints: think::Hints::default(),
        last_seen: now,
        unwatched_since: None,
        held_until: None,
        window: None,
        parked: None,
        rematch: None,
        shown_at: now,
        show_due: None,
        read_back: false,
    };
    if stored.status != TableStatus::Lobby {
        let names = stored.names.unwrap_or_else(|| table.default_names());
        let steps: Vec<TableStep> = match stored.steps {
            StoredSteps::Tripoley(steps) => steps.into_iter().map(TableStep::Tripoley).collect(),
            StoredSteps::Napalm(steps) => steps.into_iter().map(TableStep::Napalm).collect(),
        };
        table.replay(names, steps)?;
        table.open_window();
    }
    table.publish();
    let (tx, rx) = mpsc::channel(1024);
    let handle = TableHandle {
        tx,
        n: Arc::clone(&table.n),
        stop: cut,
    };
    tasks.spawn(table.run(rx, answers_rx, shutdown));
    Ok(handle)
}

impl Table {
    fn default_names(&self) -> Vec<String> {
        self.seats
            .iter()
            .enumerate()
            .map(|(i, s)| s.name.clone().unwrap_or_else(|| format!("Bot {}", i + 1)))
            .collect()
    }

    /// Rebuilds the game from its stored steps, each logged as it was
    /// shown live.
    fn replay(
        &mut self,
        names: Vec<String>,
        steps: Vec<TableStep>,
    ) -> Result<(), crate::ServerError> {
        let bad = |e: String| {
            crate::ServerError::Unreadable(format!("table {} does not replay: {e}", self.invite))
        };
        let mut played = Played::start(&self.settings, names).map_err(|e| bad(e.message))?;
        played.replay(steps).map_err(bad)?;
        self.status = if played.due() == Due::Over {
            TableStatus::Finished
        } else {
            TableStatus::Playing
        };
        self.n.store(played.n(), Ordering::Release);
        self.played = Some(played);
        Ok(())
    }

    fn n(&self) -> u64 {
        self.n.load(Ordering::Acquire)
    }

    async fn run(
        mut self,
        mut rx: mpsc::Receiver<Cmd>,
        mut answers: mpsc::UnboundedReceiver<think::Thought>,
        mut shutdown: watch::Receiver<bool>,
    ) {
        loop {
            self.advance().await;
            if self.read_back {
                eprintln!(
                    "tripoley serve: table {} is read back from the database",
                    self.invite
                );
                break;
            }
            // Nobody watches a finished game: after a while, free it. The
            // registry reloads it from storage if someone comes back. A
            // table nobody has connected to for its idle time (a lobby never
            // started, a game everyone left) is removed for good.
            let idle = self.conns.is_empty().then(|| {
                if self.status == TableStatus::Finished {
                    Instant::now() + LINGER
                } else {
                    self.last_seen + self.cfg.idle
                }
            });
            let due = [idle, self.due(), self.next_grace_end(), self.show_due]
                .into_iter()
                .flatten()
                .min();
            tokio::select! {
                biased;
                _ = shutdown.changed() => break,
                cmd = rx.recv() => match cmd {
                    Some(Cmd::Reclaim { young, reply }) => {
                        if self.reclaim(young, reply).await {
                            break;
                        }
                    }
                    Some(cmd) => {
                        self.last_seen = Instant::now();
                        self.handle(cmd).await;
                    }
                    None => break,
                },
                Some(thought) = answers.recv() => self.on_thought(thought).await,
                () = tokio::time::sleep_until(due.unwrap_or_else(Instant::now).into()), if due.is_some() => {
                    if idle.is_some_and(|t| Instant::now() >= t) {
                        if self.status != TableStatus::Finished {
                            // Removed whatever the outcome: if the store
                            // failed, the table is reloaded on request and
                            // expires again.
                            let _ = self.store.forget(self.invite.clone()).await;
                        }
                        break;
                    }
                    if self.show_due.is_some_and(|t| Instant::now() >= t) {
                        self.broadcast_table();
                    }
                    self.tell_grace_ends();
                    self.on_due().await;
                }
            }
        }
        self.cfg.directory.withdraw(&self.invite);
        for conn in self.conns.values() {
            conn.kill.notify_one();
        }
    }

    /// Answers [`Cmd::Reclaim`]: a lobby nobody is in (unless `young` and a
    /// person holds a seat), or a game of bots
    /// alone that nobody has watched for [`UNWATCHED`] (it serves no
    /// person, issue 49), is removed from storage (whatever the outcome, as
    /// when it expires); true if the actor should stop.
    async fn reclaim(&mut self, young: bool, reply: oneshot::Sender<Reclaim>) -> bool {
        let people = self.seats.iter().any(|s| s.hash.is_some());
        let bots_alone = !people
            && self
                .unwatched_since
                .is_none_or(|left| left.elapsed() >= UNWATCHED);
        let answer = if self.status == TableStatus::Finished {
            Reclaim::Finished
        } else if !self.conns.is_empty()
            || (self.status == TableStatus::Playing && !bots_alone)
            || (self.status == TableStatus::Lobby && young && people)
        {
            Reclaim::InUse
        } else {
            let _ = self.store.forget(self.invite.clone()).await;
            Reclaim::Reclaimed
        };
        let stop = matches!(answer, Reclaim::Reclaimed);
        let _ = reply.send(answer);
        stop
    }

    async fn handle(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Join {
                conn,
                from,
                token,
                last,
                tx,
                kill,
                reply,
            } => {
                let joined = self.join(conn, from, token.as_deref(), last, tx, kill);
                let _ = reply.send(joined);
            }
            Cmd::Leave { conn } => self.leave(conn),
            Cmd::Act {
                conn,
                action,
                id,
                seat,
                n,
            } => {
                let result = self.act(conn, action, seat, n).await;
                self.answer(conn, id, result);
            }
            Cmd::Hint { conn, id } => self.hint(conn, id),
            Cmd::Chat { conn, text, id } => {
                let result = self.chat(conn, &text);
                self.answer(conn, id, result);
            }
            Cmd::SeatBot {
                conn,
                seat,
                bot,
                id,
            } => {
                let result = self.seat_bot(conn, seat, bot).await;
                self.answer(conn, id, result);
            }
            Cmd::FreeSeat { conn, seat, id } => {
                let result = self.free_seat(conn, seat).await;
                self.answer(conn, id, result);
            }
            Cmd::Start {
                conn,
                token,
                id,
                reply,
            } => {
                let result = self.start(conn, token.as_deref()).await;
                if let Some(conn) = conn {
                    let n = self.n();
                    let out = match &result {
                        Ok(()) => Out::Text(tripoley_table::frames::ack(n, id).into()),
                        Err(e) => error_frame(n, id, e),
                    };
                    self.send(conn, out);
                }
                let _ = reply.send(result);
            }
            Cmd::Sit { seat, name, reply } => {
                let _ = reply.send(self.sit(seat, &name).await);
            }
            Cmd::Info { reply } => {
                let _ = reply.send(self.info());
            }
            Cmd::Record { reply } => {
                let record = self.played.as_ref().and_then(Played::tripoley_record);
                let _ = reply.send(record.cloned());
            }
            Cmd::NapalmAct {
                conn,
                action,
                id,
                seat,
                n,
            } => {
                let result = self.napalm_act(conn, action, seat, n).await;
                self.answer(conn, id, result);
            }
            Cmd::NapalmRecord { reply } => {
                let record = self.played.as_ref().and_then(Played::napalm_record);
                let _ = reply.send(record.cloned());
            }
            Cmd::Rematch { invite, by } => self.tell_rematch(&invite, by.as_deref()),
            Cmd::Status { reply } => {
                let _ = reply.send(self.status);
            }
            // `run` answers these itself, as only it can stop the actor.
            Cmd::Reclaim { reply, .. } => {
                let _ = reply.send(Reclaim::InUse);
            }
        }
    }

    // ----- the game moving on -----

    /// Supplies chance whenever the game waits for it.
    async fn advance(&mut self) {
        if self.retry_at.is_some_and(|t| Instant::now() < t) {
            return;
        }
        self.retry_at = None;
        while self.status == TableStatus::Playing {
            let Some(step) = self.played.as_ref().and_then(|p| p.chance(&mut self.rng)) else {
                return;
            };
            if self.take_step(step, false).await.is_err() {
                self.retry_at = Some(Instant::now() + Duration::from_secs(1));
                return;
            }
        }
    }

    /// When the server must act for the seat to decide: a bot's think time,
    /// a person's turn timer, or the end of an absent person's grace time.
    /// Nothing is due while a bot thinks: its answer wakes the table.
    fn due(&self) -> Option<Instant> {
        if let Some(t) = self.retry_at {
            return Some(t);
        }
        if let Some(t) = self.held_until {
            return Some(t);
        }
        if let Some(p) = self.parked {
            return Some(p.at);
        }
        if self.thinking {
            return None;
        }
        if self.status != TableStatus::Playing {
            return None;
        }
        let seat = self.to_decide()?;
        let s = &self.seats[usize::from(seat)];
        // A Tripoley bot is asked at once: its answer is parked until the
        // bot delay has passed ([`Table::decide`]), so how long it thinks
        // tells nothing of its hand. Napalm's bots do not search: they
        // answer at once when the delay has passed.
        let earliest = if self.is_napalm() {
            self.turn_started + self.cfg.bot_delay
        } else {
            self.turn_started
        };
        if s.hash.is_none() {
            return Some(earliest);
        }
        // A person who might hold the card has until the window's end.
        let window = self.secret_window().filter(|w| w.person).map(|w| w.until);
        let timer = (self.settings.turn_seconds > 0).then(|| {
            self.turn_started + Duration::from_secs(u64::from(self.settings.turn_seconds))
        });
        let away = (s.conns == 0).then(|| (s.away_since + self.cfg.grace).max(earliest));
        [timer, away, window].into_iter().flatten().min()
    }

    fn bot_plays(&self, seat: Seat) -> bool {
        let s = &self.seats[usize::from(seat)];
        s.hash.is_none() || (s.conns == 0 && s.away_since.elapsed() >= self.cfg.grace)
    }

    async fn on_due(&mut self) {
        if self.retry_at.is_some() {
            return;
        }
        if self.take_parked().await {
            return;
        }
        let Some(due) = self.due() else { return };
        if Instant::now() < due || self.release().await {
            return;
        }
        let Some(seat) = self.to_decide() else { return };
        if self.is_napalm() {
            self.napalm_bot_acts(seat).await;
            return;
        }
        // A person still here (or within the grace time) whose turn timer
        // ran out gets the stand-in that spends nothing; empty seats and
        // people long gone get the table's bot.
        if self.bot_plays(seat) {
            self.ask_bot(seat, due);
        } else {
            self.stand_in_acts(seat).await;
        }
    }

    /// Replies to an action: its error, or an `ack` when the client gave an id.
    fn answer(&mut self, conn: ConnId, id: Option<u64>, result: Result<(), ErrorBody>) {
        match result {
            Err(e) => self.send(conn, error_frame(self.n(), id, &e)),
            Ok(()) => {
                if id.is_some() {
                    let ack = tripoley_table::frames::ack(self.n(), id);
                    self.send(conn, Out::Text(ack.into()));
                }
            }
        }
    }

    /// Checks, stores, applies and broadcasts one step of either game;
    /// `auto` when the server decided it for a person.
    async fn take_step(&mut self, step: TableStep, auto: bool) -> Result<(), ErrorBody> {
        self.store_step(&step).await?;
        let played = self.played.as_mut().expect("stored");
        // Who follows under M9b is hidden: nobody is told the server
        // decided for them.
        let auto = auto && !played.decision_is_secret();
        // Checked before storing, so this cannot fail; if it did, the stored
        // step would make the table fail to replay, which is reported then.
        played.apply(step)?;
        let (n, due) = (played.n(), played.due());
        self.step_taken(n, due == Due::Over, auto).await;
        Ok(())
    }

    /// Checks a step and stores it, before it is applied.
    async fn store_step(&mut self, step: &TableStep) -> Result<(), ErrorBody> {
        let played = self
            .played
            .as_ref()
            .ok_or_else(|| ErrorBody::new(ErrorCode::NotStarted, "the game has not started"))?;
        played.check(step)?;
        let idx = played.steps();
        self.store
            .append_step(self.invite.clone(), idx, step)
            .await
            .map_err(|e| self.storage(&e))
    }

    /// After a step is stored and applied, in either game: the event number
    /// moves on to `n`, the turn clock restarts, a finished game is marked
    /// so, and everyone gets the update.
    async fn step_taken(&mut self, n: u64, over: bool, auto: bool) {
        self.n.store(n, Ordering::Release);
        self.turn_started = Instant::now();
        self.open_window();
        if over {
            self.status = TableStatus::Finished;
            // The record is complete: replaying it finds the game over, so
            // a failure to mark it is not lost.
            let _ = self.store.finish(self.invite.clone()).await;
        }
        self.broadcast_update(auto);
    }

    async fn act(
        &mut self,
        conn: ConnId,
        action: Action,
        seat_claim: Option<Seat>,
        n_claim: Option<u64>,
    ) -> Result<(), ErrorBody> {
        let seat = self.acting_seat(conn, seat_claim, n_claim)?;
        self.check_parked(seat)?;
        self.decide(seat, action, None, false).await
    }

    /// The seat `conn` acts for, once the claims in its message are checked.
    fn acting_seat(
        &self,
        conn: ConnId,
        seat_claim: Option<Seat>,
        n_claim: Option<u64>,
    ) -> Result<Seat, ErrorBody> {
        let Some(c) = self.conns.get(&conn) else {
            return Err(ErrorBody::new(ErrorCode::Unauthorized, "say hello first"));
        };
        let Some(seat) = c.seat else {
            return Err(ErrorBody::new(
                ErrorCode::Unauthorized,
                "spectators cannot act: take a seat with a seat token",
            ));
        };
        if let Some(claimed) = seat_claim
            && claimed != seat
        {
            return Err(ErrorBody::new(
                ErrorCode::WrongSeat,
                format!("you sit in seat {seat}, not seat {claimed}"),
            ));
        }
        match self.status {
            TableStatus::Lobby => {
                return Err(ErrorBody::new(
                    ErrorCode::NotStarted,
                    "the game has not started",
                ));
            }
            TableStatus::Finished => {
                return Err(ErrorBody::new(ErrorCode::GameOver, "the game is over"));
            }
            TableStatus::Playing => {}
        }
        if let Some(k) = n_claim
            && k != self.n()
        {
            return Err(ErrorBody::stale(k, self.n()));
        }
        Ok(seat)
    }

    // ----- lobby -----

    async fn sit(&mut self, seat: Option<Seat>, name: &str) -> Result<Seated, ErrorBody> {
        if self.status != TableStatus::Lobby {
            return Err(ErrorBody::new(
                ErrorCode::AlreadyStarted,
                "the game has started: you can watch it",
            ));
        }
        let name = clean_name(name)?;
        let seat = match seat {
            Some(s) => s,
            None => self
                .seats
                .iter()
                .enumerate()
                .position(|(i, s)| s.hash.is_none() && !self.has_bot(i as Seat))
                .ok_or_else(|| ErrorBody::new(ErrorCode::SeatTaken, "every seat is taken"))?
                as Seat,
        };
        match self.seats.get(usize::from(seat)) {
            None => {
                let seats = u8::try_from(self.seats.len()).unwrap_or(u8::MAX);
                return Err(ErrorBody::new(
                    ErrorCode::Invalid,
                    format!(
                        "this table has no seat {seat}: its seats are 0 to {}",
                        seats.saturating_sub(1)
                    ),
                )
                .with(Detail::NoSeat { seats }));
            }
            Some(s) if s.hash.is_some() || self.has_bot(seat) => {
                return Err(ErrorBody::new(
                    ErrorCode::SeatTaken,
                    format!("seat {seat} is taken"),
                ));
            }
            Some(_) => {}
        }
        // Checked after the seat, so a sit tried again finds its seat taken.
        let looks = tripoley_i18n::names::look(&name);
        if self
            .seats
            .iter()
            .flat_map(|s| &s.name)
            .any(|n| tripoley_i18n::names::look(n) == looks)
        {
            return Err(name_taken());
        }
        let token = new_token();
        let hash = hash_token(&token);
        self.store
            .sit(self.invite.clone(), seat, name.clone(), hash)
            .await
            .map_err(|e| self.storage(&e))?;
        let s = &mut self.seats[usize::from(seat)];
        s.name = Some(name);
        s.hash = Some(hash);
        s.away_since = Instant::now();
        self.publish();
        self.broadcast_table();
        Ok(Seated { seat, token })
    }

    async fn start(&mut self, conn: Option<ConnId>, token: Option<&str>) -> Result<(), ErrorBody> {
        let host = match (conn, token) {
            (_, Some(t)) => same_hash(&hash_token(t), &self.host_hash),
            (Some(c), None) => self.conns.get(&c).is_some_and(|c| c.host),
            (None, None) => false,
        };
        if !host {
            return Err(ErrorBody::new(
                ErrorCode::Unauthorized,
                "only the host can start the game",
            ));
        }
        if self.status != TableStatus::Lobby {
            return Err(ErrorBody::new(
                ErrorCode::AlreadyStarted,
                "the game has already started",
            ));
        }
        let names = self.default_names();
        let played = Played::start(&self.settings, names.clone())?;
        self.store
            .start(self.invite.clone(), &names)
            .await
            .map_err(|e| self.storage(&e))?;
        self.played = Some(played);
        self.status = TableStatus::Playing;
        self.publish();
        let now = Instant::now();
        self.turn_started = now;
        for s in &mut self.seats {
            if s.conns == 0 {
                s.away_since = now;
            }
        }
        self.broadcast_table();
        let conns: Vec<ConnId> = self.conns.keys().copied().collect();
        for c in conns {
            self.send_state(c);
        }
        Ok(())
    }

    // ----- connections -----

    #[allow(clippy::too_many_arguments)] // the hello's parts, each its own
    fn join(
        &mut self,
        conn: ConnId,
        from: IpAddr,
        token: Option<&str>,
        last: Option<u64>,
        tx: mpsc::Sender<Out>,
        kill: Arc<Notify>,
    ) -> bool {
        let n = self.n();
        let (seat, host) = match token {
            None => (None, false),
            Some(t) => {
                let h = hash_token(t);
                let seat = self
                    .seats
                    .iter()
                    .position(|s| s.hash.is_some_and(|x| same_hash(&x, &h)))
                    .map(|s| s as Seat);
                let host = same_hash(&self.host_hash, &h);
                if seat.is_none() && !host {
                    let err = if let Some(cause) = self.social.freed_how(t) {
                        lobby::freed_error(cause)
                    } else {
                        ErrorBody::new(
                            ErrorCode::Unauthorized,
                            "this token holds no seat at this table",
                        )
                    };
                    let _ = tx.try_send(error_frame(n, None, &err));
                    return false;
                }
                (seat, host)
            }
        };
        if seat.is_none() && self.spectators() >= self.cfg.max_spectators {
            let err = ErrorBody::new(ErrorCode::Full, "too many spectators at this table");
            let _ = tx.try_send(error_frame(n, None, &err));
            return false;
        }
        // One address (a NAT's people, or one attacker's sockets) watches
        // with a few windows, not every place (issue 49).
        if seat.is_none()
            && !host
            && self
                .conns
                .values()
                .filter(|c| c.seat.is_none() && !c.host && c.from == from)
                .count()
                >= self.cfg.max_spectators_per_address
        {
            let err = ErrorBody::new(
                ErrorCode::Full,
                "too many windows from your network watch this table: close one and try again",
            );
            let _ = tx.try_send(error_frame(n, None, &err));
            return false;
        }
        if let Some(s) = seat
            && self.seats[usize::from(s)].conns as usize >= self.cfg.max_connections_per_seat
        {
            let err = ErrorBody::new(
                ErrorCode::Full,
                "this seat is open in too many windows: close one and try again",
            );
            let _ = tx.try_send(error_frame(n, None, &err));
            return false;
        }
        self.conns.insert(
            conn,
            Conn {
                from,
                seat,
                host,
                tx,
                kill,
                chat: social::conn_rate(),
            },
        );
        let welcome = tripoley_table::frames::welcome(n, seat, host, &self.info());
        self.send(conn, Out::Text(welcome.into()));
        if let Some(s) = seat {
            let st = &mut self.seats[usize::from(s)];
            st.conns += 1;
            if st.conns == 1 {
                self.broadcast_table();
            }
        } else {
            self.table_soon();
        }
        if let Some(history) = self.chat_history() {
            self.send(conn, history);
        }
        if let Some(news) = self.rematch_news() {
            let news = Out::Text(news.to_owned().into());
            self.send(conn, news);
        }
        if self.status != TableStatus::Lobby {
            self.catch_up(conn, last);
        }
        true
    }

    fn leave(&mut self, conn: ConnId) {
        let Some(c) = self.conns.remove(&conn) else {
            return;
        };
        if self.conns.is_empty() {
            self.unwatched_since = Some(Instant::now());
        }
        if let Some(s) = c.seat {
            let st = &mut self.seats[usize::from(s)];
            st.conns -= 1;
            if st.conns == 0 {
                st.away_since = Instant::now();
                st.told_away = false;
                self.broadcast_table();
                return;
            }
        }
        self.table_soon();
    }

    fn spectators(&self) -> usize {
        self.conns.values().filter(|c| c.seat.is_none()).count()
    }

    /// The seat that must decide, in either game.
    fn to_decide(&self) -> Option<Seat> {
        match self.played.as_ref()?.due() {
            Due::Decide(seat) => Some(seat),
            _ => None,
        }
    }

    fn is_napalm(&self) -> bool {
        self.played
            .as_ref()
            .is_some_and(|p| p.game_kind() == GameKind::Napalm)
    }

    /// A change only in who watches: the `table` message now, or when
    /// [`TABLE_EVERY`] has passed since the last.
    fn table_soon(&mut self) {
        let at = self.shown_at + TABLE_EVERY;
        if Instant::now() >= at {
            self.broadcast_table();
        } else {
            self.show_due.get_or_insert(at);
        }
    }

    fn broadcast_table(&mut self) {
        self.shown_at = Instant::now();
        self.show_due = None;
        let out = Out::Text(tripoley_table::frames::table(self.n(), &self.info()).into());
        let ids: Vec<ConnId> = self.conns.keys().copied().collect();
        for id in ids {
            self.send(id, out.clone());
        }
    }

    /// Queues a message; a connection too slow to keep up is dropped.
    fn send(&mut self, conn: ConnId, out: Out) {
        let Some(c) = self.conns.get(&conn) else {
            return;
        };
        if c.tx.try_send(out).is_err() {
            c.kill.notify_one();
            self.leave(conn);
        }
    }

    /// Shows the table on the public list while it is public, waits for
    /// players and has a seat open; takes it off otherwise.
    fn publish(&self) {
        // A seat the host gave a bot is no more open than a person's.
        let taken = (0..self.seats.len())
            .filter(|&i| self.seats[i].hash.is_some() || self.has_bot(i as Seat))
            .count();
        let open = taken < self.seats.len();
        if self.settings.public && self.status == TableStatus::Lobby && open {
            let taken = u8::try_from(taken).unwrap_or(u8::MAX);
            let entry = PublicTable::new(&self.invite, &self.settings, taken);
            self.cfg.directory.publish(entry);
        } else {
            self.cfg.directory.withdraw(&self.invite);
        }
    }

    fn info(&self) -> TableInfo {
        TableInfo {
            invite: self.invite.clone(),
            status: self.status,
            settings: self.settings.clone(),
            seats: self
                .seats
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    let kind = match (s.hash, self.status) {
                        (Some(_), _) => SeatKind::Human,
                        (None, TableStatus::Lobby) if !self.has_bot(i as Seat) => SeatKind::Open,
                        (None, _) => SeatKind::Bot,
                    };
                    let name = match kind {
                        SeatKind::Bot => {
                            Some(s.name.clone().unwrap_or_else(|| format!("Bot {}", i + 1)))
                        }
                        _ => s.name.clone(),
                    };
                    SeatInfo {
                        seat: i as Seat,
                        name,
                        kind,
                        connected: s.conns > 0,
                        bot_playing: kind == SeatKind::Bot
                            || (kind == SeatKind::Human
                                && self.status == TableStatus::Playing
                                && self.bot_plays(i as Seat)),
                        bot: (kind == SeatKind::Bot).then(|| self.seat_level(i as Seat)),
                    }
                })
                .collect(),
            spectators: self.spectators(),
        }
    }
}
