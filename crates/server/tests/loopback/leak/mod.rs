//! The leak test: every frame sent to every client over several games is
//! recorded, then checked against the game's true state at that frame's
//! event number (rebuilt from the stored record). A frame may name a card
//! only if its viewer may know it: a card the viewer held this deal, or one
//! shown to everyone. Spectators see public cards only. The check uses its
//! own list of revealing events, not the engine's audiences.

use crate::common;
mod pairs;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use common::{WAIT, join, table};
use serde_json::Value;
use tokio::sync::mpsc;
use tripoley_bots::BotKind;
use tripoley_cards::{Card, CardSet, seeded_rng};
use tripoley_engine::{
    Action, Decision, Event, Game, Misplays, PayCards, Preset, Record, Rules, Seat, Space, Stage,
    Step,
};
use tripoley_loadtest::client::{self, Socket};
use tripoley_server::{Database, RunningServer, ServerConfig};

/// Who received a frame: a seat, or a spectator.
type Viewer = Option<Seat>;

/// The two tests, one at a time: the pairs test tells a pause from none by
/// when its viewers read each frame, and the other's games beside it (five
/// presets of bots on the same two cores) delayed reads enough to make a
/// held stop's pause look like none (CI met it).
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

fn is_card_text(s: &str) -> bool {
    let Some(suit) = s.chars().last() else {
        return false;
    };
    let rank = &s[..s.len() - suit.len_utf8()];
    "CDHS".contains(suit)
        && [
            "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A",
        ]
        .contains(&rank)
}

/// Every card named anywhere in a JSON message.
fn cards_in(v: &Value, out: &mut CardSet) {
    match v {
        Value::String(s) if is_card_text(s) => {
            out.insert(s.parse::<Card>().expect("a card"));
        }
        Value::Array(a) => a.iter().for_each(|x| cards_in(x, out)),
        Value::Object(o) => o.values().for_each(|x| cards_in(x, out)),
        _ => {}
    }
}

/// For each event number, the cards each viewer must not see.
struct Truth {
    /// `hidden[k][seat]`, and `[players]` for spectators.
    hidden: Vec<Vec<CardSet>>,
    players: usize,
}

fn revealed(e: &Event) -> CardSet {
    match e {
        Event::PayCardsShown { cards, .. }
        | Event::Showed { cards, .. }
        | Event::FaceUp { cards, .. } => *cards,
        Event::Led { card, .. } | Event::Played { card, .. } => CardSet::from(*card),
        Event::RunStopped { next, .. } => next.map(CardSet::from).unwrap_or_default(),
        Event::DrewForDealer { draws } => draws.iter().map(|(_, c)| *c).collect(),
        _ => CardSet::EMPTY,
    }
}

/// The game's log as the server numbers it: for each event number, its
/// events and the game its viewers see then. A run's stop at a card nobody
/// holds (M9b) starts its own event number: the events before it are seen
/// with the game held short.
fn log(record: &Record) -> Vec<(Vec<Event>, Game)> {
    let mut ev = Vec::new();
    let mut game = record.start(&mut ev).expect("the record starts");
    let mut log = vec![(ev, game.clone())];
    for step in &record.steps {
        let penalised = game.rules().misplays == Misplays::Penalised;
        let held: Vec<_> = (0..)
            .map_while(|k| {
                penalised
                    .then(|| game.step_to_unheld_stop(step, k))
                    .flatten()
            })
            .collect();
        let mut ev = Vec::new();
        game.step(step, &mut ev).expect("the record replays");
        let mut from = 0;
        for (short, at) in held {
            log.push((ev[from..at].to_vec(), short));
            from = at;
        }
        log.push((ev[from..].to_vec(), game.clone()));
    }
    log
}

/// H1, H4: once stage 1 is over, everyone knows that a pay card nobody
/// took lies in the spare (the whole deck is dealt, D1), so a frame may
/// name it there.
fn pay_cards_nobody_took(game: &Game, spare: CardSet) -> CardSet {
    let after_stage1 = matches!(
        game.view(None).stage,
        Stage::ChooseFive | Stage::Betting | Stage::Michigan
    );
    match game.pay_suit() {
        Some(pay) if after_stage1 && game.rules().pay_cards == PayCards::Stage1 => Space::PAY_CARDS
            .iter()
            .filter_map(|space| space.pay_card(pay))
            .filter(|&card| spare.contains(card))
            .collect(),
        _ => CardSet::EMPTY,
    }
}

fn truth(record: &Record) -> Truth {
    let players = record.names.len();
    let mut public = CardSet::EMPTY;
    let mut held = vec![CardSet::EMPTY; players];
    let mut hidden = Vec::new();
    for (ev, game) in log(record) {
        for e in &ev {
            if matches!(e, Event::DealStarted { .. } | Event::FinalPotRound { .. }) {
                public = CardSet::EMPTY;
                held.fill(CardSet::EMPTY);
            }
            public |= revealed(e);
        }
        let (hands, spare, _) = game.card_locations();
        public |= pay_cards_nobody_took(&game, spare);
        for (h, hand) in held.iter_mut().zip(&hands) {
            *h |= *hand;
        }
        let all = hands.iter().fold(spare, |a, h| a | *h);
        let mut row: Vec<CardSet> = (0..players)
            .map(|v| (all - hands[v]) - public - held[v])
            .collect();
        row.push(all - public);
        hidden.push(row);
    }
    Truth { hidden, players }
}

/// The leaks in `frames`: (viewer, event number, cards it must not see).
/// A `state` message's log entries are checked at their own event numbers;
/// a view's `cannot_hold` (cards everyone can tell a seat does not hold, a
/// deduction from public events) names no card's place and is skipped.
fn leaks(truth: &Truth, frames: &[(Viewer, Value)]) -> Vec<(Viewer, u64, CardSet)> {
    let mut found = Vec::new();
    let mut check = |viewer: Viewer, n: u64, part: &Value| {
        let mut named = CardSet::EMPTY;
        cards_in(part, &mut named);
        let row = &truth.hidden[usize::try_from(n).unwrap()];
        let hidden = row[viewer.map_or(truth.players, usize::from)];
        if !(named & hidden).is_empty() {
            found.push((viewer, n, named & hidden));
        }
    };
    for (viewer, msg) in frames {
        let Some(n) = msg["n"].as_u64() else {
            panic!("a message without an event number: {msg}")
        };
        let mut msg = msg.clone();
        if let Some(log) = msg.as_object_mut().and_then(|m| m.remove("log")) {
            for entry in log.as_array().expect("a log is a list") {
                check(
                    *viewer,
                    entry["n"].as_u64().expect("numbered"),
                    &entry["events"],
                );
            }
        }
        if let Some(view) = msg.get_mut("view").and_then(Value::as_object_mut) {
            view.remove("cannot_hold");
        }
        check(*viewer, n, &msg);
    }
    found
}

/// M9b: frames in which a run's stop at a card not played tells whether
/// it was withheld. A withhold is its own step, so everyone but the
/// withholder sees that stop open an update; a stop at a card nobody holds
/// must look the same (issue 31, finding 1: a spectator named 22 of 24
/// withheld cards from how updates were split). Returns (viewer, event
/// number) of each frame where such a stop follows another event the viewer
/// saw, other than the withhold itself.
fn stops_that_tell(frames: &[(Viewer, Value)]) -> Vec<(Viewer, u64)> {
    let mut told = Vec::new();
    let mut check = |viewer: Viewer, n: u64, events: &Value| {
        let events = events.as_array().expect("a list of events");
        for pair in events.windows(2) {
            if pair[1]["event"] == "run_stopped"
                && pair[1]["reason"] == "not_played"
                && pair[0]["event"] != "withheld"
            {
                told.push((viewer, n));
            }
        }
    };
    for (viewer, msg) in frames {
        if let Some(log) = msg["log"].as_array() {
            for entry in log {
                check(*viewer, entry["n"].as_u64().unwrap(), &entry["events"]);
            }
        }
        if msg["type"] == "update" {
            check(*viewer, msg["n"].as_u64().unwrap(), &msg["events"]);
        }
    }
    told
}

async fn watch(mut sock: Socket, viewer: Viewer, out: mpsc::UnboundedSender<(Viewer, Value)>) {
    while let Ok(msg) = sock.recv_timeout(WAIT).await {
        let over = client::view_of(&msg).is_some_and(|v| v.standings.is_some());
        let _ = out.send((viewer, msg));
        if over {
            break;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[allow(clippy::too_many_lines)] // one scenario, read top to bottom
async fn no_frame_holds_a_card_its_viewer_may_not_see() {
    let _alone = ONE_AT_A_TIME.lock().await;
    let server = common::server().await;
    let addr = server.addr();
    let mut checked = 0usize;
    for (g, preset) in Preset::ALL.into_iter().enumerate() {
        let seats = 4;
        // Seats 0-2 are clients driven by bots; seat 3 is the server's bot.
        let t = table(addr, preset, seats, &[0, 1, 2], 0).await;
        let (tx, mut rx) = mpsc::unbounded_channel();
        let (spectator, _) = join(addr, &t.invite, None, None).await;
        let spectator_task = tokio::spawn(watch(spectator, None, tx.clone()));
        let mut players = Vec::new();
        for (seat, token) in t.tokens.clone() {
            let (sock, welcome) = join(addr, &t.invite, Some(&token), None).await;
            tx.send((Some(seat), welcome)).unwrap();
            let tx = tx.clone();
            let invite = t.invite.clone();
            players.push(tokio::spawn(async move {
                let rules = Rules::preset(preset);
                let mut bot = BotKind::Random.make(&rules);
                let mut rng = seeded_rng(g as u64 * 10 + u64::from(seat));
                let mut sock = sock;
                let record = |m: &Value| {
                    let _ = tx.send((Some(seat), m.clone()));
                };
                // Seat 0 drops out early and comes back with its last
                // event number (catch-up frames), seat 1 later with none
                // (a full state).
                let cut = match seat {
                    0 => Some((Duration::from_millis(150), true)),
                    1 => Some((Duration::from_millis(400), false)),
                    _ => None,
                };
                if let Some((after, resume)) = cut {
                    let until = Some(Instant::now() + after);
                    let stats = client::play_seat_observed(
                        &mut sock,
                        bot.as_mut(),
                        &mut rng,
                        Duration::ZERO,
                        until,
                        record,
                    )
                    .await
                    .unwrap();
                    if stats.finished {
                        return;
                    }
                    let last = sock.last;
                    sock.close().await;
                    let (s, welcome) =
                        join(addr, &invite, Some(&token), last.filter(|_| resume)).await;
                    let _ = tx.send((Some(seat), welcome));
                    sock = s;
                }
                let record = |m: &Value| {
                    let _ = tx.send((Some(seat), m.clone()));
                };
                // A view with a decision may have arrived before the drop
                // and been answered by nobody: the catch-up repeats it.
                let stats = client::play_seat_observed(
                    &mut sock,
                    bot.as_mut(),
                    &mut rng,
                    Duration::ZERO,
                    None,
                    record,
                )
                .await
                .unwrap();
                assert!(stats.finished);
            }));
        }
        client::start_table(addr, &t.invite, &t.host_token)
            .await
            .unwrap();
        // A spectator who arrives mid-game gets a full state.
        tokio::time::sleep(Duration::from_millis(200)).await;
        let (late, welcome) = join(addr, &t.invite, None, None).await;
        tx.send((None, welcome)).unwrap();
        let late_task = tokio::spawn(watch(late, None, tx.clone()));
        for p in players {
            p.await.unwrap();
        }
        spectator_task.await.unwrap();
        late_task.await.unwrap();
        drop(tx);
        let mut frames = Vec::new();
        while let Some(f) = rx.recv().await {
            frames.push(f);
        }
        let record = server.record(&t.invite).await.expect("a record");
        let truth = truth(&record);
        let found = leaks(&truth, &frames);
        assert!(found.is_empty(), "{preset}: leaked {found:?}");
        if Rules::preset(preset).misplays == Misplays::Penalised {
            let told = stops_that_tell(&frames);
            assert!(told.is_empty(), "{preset}: stops that tell {told:?}");
        }
        let mut per_viewer: HashMap<Viewer, usize> = HashMap::new();
        for (v, _) in &frames {
            *per_viewer.entry(*v).or_default() += 1;
        }
        assert_eq!(per_viewer.len(), 4, "{preset}: three seats and spectators");
        checked += frames.len();

        // The check catches a leak: another seat's card in seat 0's frame.
        let k = truth
            .hidden
            .iter()
            .position(|row| !row[0].is_empty())
            .unwrap();
        let card = truth.hidden[k][0].first().unwrap();
        let fake = serde_json::json!({"n": k, "events": [{"event": "played", "card": card}]});
        assert_eq!(leaks(&truth, &[(Some(0), fake)]).len(), 1);
    }
    assert!(checked > 1000, "{checked} frames checked");
    server.shutdown().await;
}

/// A server of `config` and a four-seat michigan-casino table on it,
/// started, whose seat 0 is a person: the server, the table, and seat 0's
/// connection.
async fn casino_for_one(config: ServerConfig) -> (RunningServer, common::Table, Socket) {
    let server = tripoley_server::start(config).await.unwrap();
    let addr = server.addr();
    let t = table(addr, Preset::MichiganCasino, 4, &[0], 0).await;
    let (sock, _) = join(addr, &t.invite, Some(&t.tokens[0].1), None).await;
    client::start_table(addr, &t.invite, &t.host_token)
        .await
        .unwrap();
    (server, t, sock)
}

/// The next `update` and when it came.
async fn next_update(sock: &mut Socket) -> (Instant, Value) {
    loop {
        let msg = sock.recv_timeout(WAIT).await.expect("the run goes on");
        if msg["type"] == "update" {
            return (Instant::now(), msg);
        }
    }
}

/// Issue 49, defect 1: under penalised misplays (M9b) a person's secret
/// follow-or-withhold is time-boxed to the server's window, on a clock only
/// they see (their turn's `ms`), and a stop is shown when the window ends:
/// a withhold sent at once still comes the window after the update that
/// asked (as a stop at a card in the spare does), and with no answer by the
/// window's end the card is played for them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn m9b_a_withhold_waits_for_the_window_and_no_answer_plays_at_its_end() {
    const WINDOW: Duration = Duration::from_millis(600);
    /// Timers and the loopback's jitter.
    const SLACK: Duration = Duration::from_millis(50);
    let _alone = ONE_AT_A_TIME.lock().await;
    let (server, _, mut sock) = casino_for_one(ServerConfig {
        withhold_window: WINDOW,
        ..ServerConfig::ephemeral()
    })
    .await;
    let mut bot = BotKind::Random.make(&Rules::preset(Preset::MichiganCasino));
    let mut rng = seeded_rng(49);
    let (mut withheld, mut let_run) = (false, false);
    // An update read while timing a stop, which may ask for more.
    let mut read: Option<(Instant, Value)> = None;
    while !(withheld && let_run) {
        let (asked, msg) = if let Some(read) = read.take() {
            read
        } else {
            let msg = sock.recv_timeout(WAIT).await.expect("the game goes on");
            (Instant::now(), msg)
        };
        let Some(view) = client::view_of(&msg) else {
            continue;
        };
        let Some(decision) = view.decision else {
            continue;
        };
        let n = msg["n"].as_u64().unwrap();
        let action = match decision {
            tripoley_engine::Decision::Follow { card } => {
                let ms = msg["turn"]["ms"].as_u64();
                assert!(
                    ms.is_some_and(|ms| {
                        let w = WINDOW.as_millis() as u64;
                        ms <= w && ms + 200 >= w
                    }),
                    "the holder sees the window's clock: {}",
                    msg["turn"]
                );
                if withheld {
                    let_run = true;
                    let (at, update) = next_update(&mut sock).await;
                    let gap = at.duration_since(asked);
                    assert!(
                        gap + SLACK >= WINDOW && gap <= WINDOW + Duration::from_millis(500),
                        "with no answer the card is played when the window ends, not after {gap:?}"
                    );
                    let played = update["events"].as_array().unwrap().iter().any(|e| {
                        e["event"] == "played" && e["seat"] == 0 && e["card"] == card.to_string()
                    });
                    assert!(played, "the stand-in plays {card}: {update}");
                    read = Some((at, update));
                } else {
                    withheld = true;
                    let act =
                        serde_json::json!({"type": "act", "action": "withhold", "id": n, "n": n});
                    sock.send_text(&act.to_string()).await.unwrap();
                    let (at, update) = next_update(&mut sock).await;
                    let gap = at.duration_since(asked);
                    assert!(
                        gap + SLACK >= WINDOW,
                        "a withhold sent at once is shown when the window ends, not after {gap:?}"
                    );
                    read = Some((at, update));
                }
                continue;
            }
            _ => bot.act(&view, &mut rng),
        };
        let act = serde_json::json!({"type": "act", "action": action, "id": n, "n": n});
        sock.send_text(&act.to_string()).await.unwrap();
    }
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn m9b_a_withhold_given_in_the_window_outlives_a_restart() {
    let db = common::temp_db("withhold-restart");
    withhold_outlives_a_restart(db.clone().into()).await;
    common::remove_db(&db);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn m9b_a_withhold_given_in_the_window_outlives_a_restart_on_postgresql() {
    let Some(pg) = common::pg::TestPostgres::start() else {
        return;
    };
    withhold_outlives_a_restart(Database::Postgres(pg.new_database())).await;
}

/// Issue 49: a person's withhold given inside the window (M9b) is stored
/// when given, with the table's steps. A server killed inside the window
/// and started again on its database shows the stop a window later, and
/// before then nobody else sees the answer: the spectator's first state
/// after the restart still has the run waiting.
async fn withhold_outlives_a_restart(db: Database) {
    const WINDOW: Duration = Duration::from_secs(2);
    let config = ServerConfig {
        db,
        withhold_window: WINDOW,
        grace: Duration::from_secs(120),
        ..ServerConfig::ephemeral()
    };
    let (server, t, mut sock) = casino_for_one(config.clone()).await;
    let addr = server.addr();
    let mut bot = BotKind::Random.make(&Rules::preset(Preset::MichiganCasino));
    let mut rng = seeded_rng(49);
    let (n, card) = loop {
        let msg = sock.recv_timeout(WAIT).await.expect("the game goes on");
        let Some(view) = client::view_of(&msg) else {
            continue;
        };
        let Some(decision) = view.decision else {
            continue;
        };
        let n = msg["n"].as_u64().unwrap();
        if let Decision::Follow { card } = decision {
            break (n, card);
        }
        let action = bot.act(&view, &mut rng);
        let act = serde_json::json!({"type": "act", "action": action, "id": n, "n": n});
        sock.send_text(&act.to_string()).await.unwrap();
    };
    let act = serde_json::json!({"type": "act", "action": "withhold", "id": n, "n": n});
    sock.send_text(&act.to_string()).await.unwrap();
    // The ack of the answer before it may still be on its way: it goes
    // out after that step's update, which asked for this one.
    loop {
        let ack = sock
            .recv_type("ack", WAIT)
            .await
            .expect("the answer is taken");
        if ack["id"] == n {
            break;
        }
        assert!(
            ack["id"].as_u64() < Some(n),
            "an ack from the future: {ack}"
        );
    }
    server.kill().await;

    // At the same address: on PostgreSQL that tells the database the
    // killed server is gone, so its tables need not wait out its lease.
    let server = tripoley_server::start(ServerConfig { addr, ..config })
        .await
        .unwrap();
    let (mut spectator, _) = join(addr, &t.invite, None, None).await;
    let joined = Instant::now();
    let state = spectator.recv_type("state", WAIT).await.expect("a state");
    assert_eq!(state["n"], n, "nothing more is shown at once: {state}");
    let (at, update) = next_update(&mut spectator).await;
    let stopped = update["events"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["event"] == "run_stopped" && e["next"] == card.to_string());
    assert!(stopped, "the run stops at the withheld {card}: {update}");
    assert!(
        at.duration_since(joined) + Duration::from_millis(100) >= WINDOW,
        "the stop is shown a window after the restart, not after {:?}",
        at.duration_since(joined)
    );
    let record = server.record(&t.invite).await.unwrap();
    let withheld = record.steps.iter().any(|s| {
        *s == Step::Act {
            seat: 0,
            action: Action::Withhold,
        }
    });
    assert!(withheld, "the withhold is in the record");
    server.shutdown().await;
}
