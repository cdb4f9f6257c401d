//! The leak test: every frame sent to every client over several games is
//! recorded, then checked against the game's true state at that frame's
//! event number (rebuilt from the stored record). A frame may name a card
//! only if its viewer may know it: a card the viewer held this deal, or one
//! shown to everyone. Spectators see public cards only. The check uses its
//! own list of revealing events, not the engine's audiences.

mod common;

use std::collections::{HashMap, VecDeque};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::{WAIT, join, table};
use serde_json::Value;
use tokio::sync::mpsc;
use tripoley_bots::{Bot, BotKind};
use tripoley_cards::{Card, CardSet, Deck, GameRng, seeded_rng};
use tripoley_engine::{
    Action, DealChance, Event, Game, Misplays, Pending, Preset, Record, Rules, Seat, Step, View,
};
use tripoley_server::ServerConfig;
use tripoley_server::client::{self, Socket};
use tripoley_server::protocol::CreateTable;

/// Who received a frame: a seat, or a spectator.
type Viewer = Option<Seat>;

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

// ----- pairs of games that differ only in a hidden fact (issue 31, point 1) -----

/// The server's pause for a held stop, and the scripted people's thinking
/// time under penalised misplays (where a withhold is timed like a bot's).
const PAUSE: Duration = Duration::from_millis(120);

/// A person who answers with the actions given, in order.
struct Script(VecDeque<Action>);

impl Bot for Script {
    fn name(&self) -> &'static str {
        "script"
    }

    fn act(&mut self, _: &View, _: &mut GameRng) -> Action {
        self.0.pop_front().expect("a scripted action is left")
    }
}

/// `start` (its first chance steps) played out offline by random bots
/// that withhold (M9b) whenever they may, so that the withheld cards stay
/// in their hands and a twin without them can take the same decisions.
fn play_out(start: &Record, seed: u64) -> Record {
    let mut record = start.clone();
    let mut ev = Vec::new();
    let mut game = record.start(&mut ev).unwrap();
    for step in &record.steps {
        game.step(step, &mut ev).unwrap();
    }
    let mut rng = seeded_rng(seed);
    let mut bots: Vec<_> = (0..record.names.len())
        .map(|_| BotKind::Random.make(game.rules()))
        .collect();
    loop {
        let step = match game.pending() {
            Pending::Chance(_) => Step::Chance(DealChance::random(game.rules(), &mut rng)),
            Pending::Decide { seat, .. } if game.check(seat, Action::Withhold).is_ok() => {
                Step::Act {
                    seat,
                    action: Action::Withhold,
                }
            }
            Pending::Decide { seat, .. } => Step::Act {
                seat,
                action: bots[usize::from(seat)].act(&game.view(Some(seat)), &mut rng),
            },
            Pending::GameOver => return record,
        };
        game.step(&step, &mut ev).unwrap();
        record.steps.push(step);
    }
}

/// Where a card's place becomes known: unlike `revealed`, a run's stop
/// names its next card without saying who holds it.
fn placed(e: &Event) -> CardSet {
    match e {
        Event::RunStopped { .. } => CardSet::EMPTY,
        _ => revealed(e),
    }
}

/// Game `a` with `c1` and `c2` swapped in the deck of its step `deal`,
/// taking `a`'s decisions while they fit: `a`'s withholds of `c1` are
/// dropped (`c1` is where nobody holds it, and its run stops by itself),
/// and where a run reaches `c2` its holder withholds it. From the first
/// decision that does not fit, the twin is played out by random bots.
/// Returns the twin and the number of its log entries before it parts
/// from `a`.
fn twin(a: &Record, deal: usize, c1: Card, c2: Card, seed: u64) -> (Record, usize) {
    let mut b = a.clone();
    b.steps.truncate(deal + 1);
    let Step::Chance(chance) = &mut b.steps[deal] else {
        panic!("step {deal} deals")
    };
    let mut cards = chance.deck.cards().to_vec();
    let at = |card: Card| cards.iter().position(|&x| x == card).unwrap();
    let (first, second) = (at(c1), at(c2));
    cards.swap(first, second);
    chance.deck = Deck::from_cards(&cards).unwrap();
    let mut ev = Vec::new();
    let mut game = b.start(&mut ev).unwrap();
    for step in &b.steps {
        game.step(step, &mut ev).unwrap();
    }
    let mut game_a = a.start(&mut ev).unwrap();
    for step in &a.steps[..=deal] {
        game_a.step(step, &mut ev).unwrap();
    }
    let withheld = |ev: &[Event]| -> Vec<Card> {
        ev.iter()
            .filter_map(|e| match e {
                Event::Withheld { card, .. } => Some(*card),
                _ => None,
            })
            .collect()
    };
    'steps: for step in &a.steps[deal + 1..] {
        let mut ev_a = Vec::new();
        game_a.step(step, &mut ev_a).unwrap();
        let mut wanted = withheld(&ev_a);
        wanted.retain(|&c| c != c1);
        if let Pending::Decide { seat, .. } = game.pending()
            && game.check(seat, Action::Withhold).is_ok()
            && !matches!(
                step,
                Step::Act {
                    action: Action::Withhold,
                    ..
                }
            )
        {
            // A run reaches `c2`, where `a` has nobody holding it.
            let w = Step::Act {
                seat,
                action: Action::Withhold,
            };
            game.step(&w, &mut ev).unwrap();
            b.steps.push(w);
        }
        let mut next = game.clone();
        let mut ev_b = Vec::new();
        let skip = wanted.is_empty() && withheld(&ev_a).contains(&c1);
        if skip {
            continue 'steps;
        }
        if next.step(step, &mut ev_b).is_err() || withheld(&ev_b) != wanted {
            break;
        }
        game = next;
        b.steps.push(step.clone());
    }
    let parted = log(&b).len();
    (play_out(&b, seed), parted)
}

/// For a game's log: the first event number at which `cards`' place is
/// shown, and the seats that held one of them before then.
fn hidden_until(log: &[(Vec<Event>, Game)], cards: CardSet) -> (usize, Vec<bool>) {
    let mut knew = vec![false; log[0].1.players()];
    for (k, (ev, game)) in log.iter().enumerate() {
        if ev.iter().any(|e| !(placed(e) & cards).is_empty()) {
            return (k, knew);
        }
        for (seat, hand) in game.card_locations().0.iter().enumerate() {
            knew[seat] |= !(*hand & cards).is_empty();
        }
    }
    (usize::MAX, knew)
}

/// A pair for game `a`: its twin with two cards swapped between a hand and
/// the spare, chosen so the swap stays hidden longest (under penalised
/// misplays, among the swaps of a withheld card, if any); with the event
/// numbers (in `a`, in the twin) before which the swap is hidden, and the
/// seats that may know it.
struct Pair {
    b: Record,
    cards: (Card, Card),
    cut: usize,
    knew: Vec<bool>,
    /// Whether `a` withholds the card the twin has where nobody holds it.
    withheld: bool,
}

fn pair(a: &Record) -> Option<Pair> {
    let deal = a
        .steps
        .iter()
        .position(|s| matches!(s, Step::Act { .. }))?
        .checked_sub(1)?;
    let mut ev = Vec::new();
    let mut game = a.start(&mut ev).unwrap();
    for step in &a.steps[..=deal] {
        game.step(step, &mut ev).unwrap();
    }
    let (hands, spare, _) = game.card_locations();
    let log_a = log(a);
    let first_withhold = |c: Card| {
        log_a.iter().position(|(ev, _)| {
            ev.iter()
                .any(|e| matches!(e, Event::Withheld { card, .. } if *card == c))
        })
    };
    // Under M9b the cards withheld; otherwise every card in a hand.
    let withheld: CardSet = log_a
        .iter()
        .flat_map(|(ev, _)| ev)
        .filter_map(|e| match e {
            Event::Withheld { card, .. } => Some(*card),
            _ => None,
        })
        .collect();
    let held = hands.iter().fold(CardSet::EMPTY, |a, h| a | *h);
    let candidates = if withheld.is_empty() {
        held
    } else {
        withheld & held
    };
    let mut best: Option<(bool, usize, Pair)> = None;
    {
        for c1 in candidates {
            for c2 in spare.into_iter().step_by(3) {
                let (b, parted) = twin(a, deal, c1, c2, c1.index() as u64);
                let cards = CardSet::from(c1) | CardSet::from(c2);
                let (cut_a, knew_a) = hidden_until(&log_a, cards);
                let (cut_b, knew_b) = hidden_until(&log(&b), cards);
                let cut = cut_a.min(cut_b).min(parted);
                let score = (first_withhold(c1).is_some_and(|k| k < cut), cut);
                if best.as_ref().is_some_and(|(w, c, _)| (*w, *c) >= score) {
                    continue;
                }
                let knew = knew_a.iter().zip(&knew_b).map(|(x, y)| x | y).collect();
                let p = Pair {
                    b,
                    cards: (c1, c2),
                    cut,
                    knew,
                    withheld: score.0,
                };
                best = Some((score.0, score.1, p));
            }
        }
    }
    best.map(|(.., p)| p)
}

/// Each viewer's frames with when they came: seats 0.., then the spectator.
type Seen = Vec<Vec<(Instant, Value)>>;

/// Plays `record`'s actions at the table `t` (already dealt its first
/// deal), each seat a scripted person; returns every viewer's frames.
async fn play_scripted(
    addr: SocketAddr,
    t: &common::Table,
    record: &Record,
    think: Duration,
) -> Seen {
    let (spectator, welcome) = join(addr, &t.invite, None, None).await;
    let spectator = tokio::spawn(async move {
        let mut seen = vec![(Instant::now(), welcome)];
        let mut sock = spectator;
        while let Ok(msg) = sock.recv_timeout(WAIT).await {
            let over = client::view_of(&msg).is_some_and(|v| v.standings.is_some());
            seen.push((Instant::now(), msg));
            if over {
                break;
            }
        }
        seen
    });
    let mut seats = Vec::new();
    for (seat, token) in t.tokens.clone() {
        let script: VecDeque<Action> = record
            .steps
            .iter()
            .filter_map(|s| match s {
                Step::Act { seat: s, action } if *s == seat => Some(*action),
                _ => None,
            })
            .collect();
        let (mut sock, welcome) = join(addr, &t.invite, Some(&token), None).await;
        seats.push(tokio::spawn(async move {
            let mut seen = vec![(Instant::now(), welcome)];
            let mut bot = Script(script);
            let stats = client::play_seat_observed(
                &mut sock,
                &mut bot,
                &mut seeded_rng(0),
                think,
                Some(Instant::now() + WAIT),
                |m: &Value| seen.push((Instant::now(), m.clone())),
            )
            .await
            .unwrap();
            assert!(
                stats.finished && bot.0.is_empty() && stats.errors == 0,
                "seat {seat} played its script: {stats:?} {:?}",
                seen.last()
            );
            seen
        }));
    }
    let mut all = Vec::new();
    for s in seats {
        all.push(s.await.unwrap());
    }
    all.push(spectator.await.unwrap());
    all
}

/// A viewer's frames before event number `cut`, as text with the swapped
/// cards masked, each with its timing class: after a pause (at least
/// `PAUSE` since the frame before), at once (under half of it), or unclear.
fn shape(
    seen: &[(Instant, Value)],
    cut: usize,
    cards: (Card, Card),
) -> Vec<(String, Option<bool>)> {
    let mask = |v: &Value| {
        let mut v = v.clone();
        if let Some(m) = v.as_object_mut() {
            m.remove("table");
        }
        let mut text = v.to_string();
        for c in [cards.0, cards.1] {
            text = text.replace(&format!("\"{c}\""), "\"??\"");
        }
        text
    };
    let mut out = Vec::new();
    for (i, (at, msg)) in seen.iter().enumerate() {
        let n = msg["n"].as_u64().map_or(0, |n| n as usize);
        // Who is connected (`table`) is no card's business.
        if matches!(msg["type"].as_str(), Some("welcome" | "table")) || n >= cut {
            continue;
        }
        let gap = i.checked_sub(1).map(|p| at.duration_since(seen[p].0));
        let class = match gap {
            Some(g) if g >= PAUSE => Some(true),
            Some(g) if g < PAUSE / 2 => Some(false),
            None => Some(false),
            Some(_) => None,
        };
        out.push((mask(msg), class));
    }
    out
}

/// Issue 31, point 1: for every preset, two games that differ only in
/// where two cards lie (a card in a hand, or withheld under M9b, against
/// the same card where nobody holds it) reach every viewer who may not know
/// it as the same frames: the same events, grouped into the same updates,
/// in the same order, with the same pauses, until the cards' places are
/// shown.
///
/// Unfinished: the offline search for a pair sometimes does not end (seen
/// under `rummoli`), and no run has yet compared every preset's frames.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "unfinished (issue 31, point 1): the pair search may not end"]
#[allow(clippy::too_many_lines)] // one scenario, read top to bottom
async fn m9b_games_that_differ_in_a_hidden_card_look_the_same_to_those_who_may_not_know() {
    let db = common::temp_db("leak-pairs");
    let config = ServerConfig {
        db: db.clone().into(),
        bot_delay: PAUSE,
        grace: Duration::from_secs(120),
        ..ServerConfig::ephemeral()
    };
    // Each preset's pair of tables, dealt by the server, then rewritten
    // with the pair's deals while it is down.
    let server = tripoley_server::start(config.clone()).await.unwrap();
    let addr = server.addr();
    let mut tables = Vec::new();
    for preset in Preset::ALL {
        let request = CreateTable {
            preset: Some(preset),
            seats: Some(4),
            deals: Some(1),
            turn_seconds: Some(0),
            ..CreateTable::default()
        };
        let ta = common::table_from(addr, &request, &[0, 1, 2, 3]).await;
        let tb = common::table_from(addr, &request, &[0, 1, 2, 3]).await;
        for t in [&ta, &tb] {
            client::start_table(addr, &t.invite, &t.host_token)
                .await
                .unwrap();
        }
        tables.push((preset, ta, tb));
    }
    let mut games = Vec::new();
    for (g, (preset, ta, tb)) in tables.into_iter().enumerate() {
        let dealt = loop {
            if let Some(r) = server.record(&ta.invite).await
                && !r.steps.is_empty()
                && r.replay()
                    .is_ok_and(|(game, _)| matches!(game.pending(), Pending::Decide { .. }))
            {
                break r;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        // Several games, keeping the pair whose swap stays hidden longest.
        let (a, p) = (0..4)
            .filter_map(|k| {
                let a = play_out(&dealt, g as u64 * 100 + k);
                pair(&a).map(|p| (a, p))
            })
            .max_by_key(|(_, p)| (p.withheld, p.cut))
            .expect("a pair");
        games.push((preset, ta, tb, a, p));
    }
    server.kill().await;
    let conn = rusqlite::Connection::open(&db).unwrap();
    for (_, ta, tb, a, p) in &games {
        for (t, r) in [(ta, a), (tb, &p.b)] {
            conn.execute("DELETE FROM steps WHERE invite = ?1", [&t.invite])
                .unwrap();
            let first_act = r
                .steps
                .iter()
                .position(|s| matches!(s, Step::Act { .. }))
                .unwrap();
            for (i, step) in r.steps[..first_act].iter().enumerate() {
                conn.execute(
                    "INSERT INTO steps (invite, idx, step) VALUES (?1, ?2, ?3)",
                    rusqlite::params![t.invite, i, serde_json::to_string(step).unwrap()],
                )
                .unwrap();
            }
        }
    }
    drop(conn);
    let server = tripoley_server::start(config).await.unwrap();
    let addr = server.addr();
    let mut runs = Vec::new();
    for (preset, ta, tb, a, p) in games {
        let think = if Rules::preset(preset).misplays == Misplays::Penalised {
            PAUSE
        } else {
            Duration::ZERO
        };
        runs.push(tokio::spawn(async move {
            let (seen_a, seen_b) = tokio::join!(
                play_scripted(addr, &ta, &a, think),
                play_scripted(addr, &tb, &p.b, think)
            );
            (preset, a, p, seen_a, seen_b)
        }));
    }
    let mut compared = 0;
    for run in runs {
        let (preset, _, p, seen_a, seen_b) = run.await.unwrap();
        if Rules::preset(preset).misplays == Misplays::Penalised {
            assert!(
                p.withheld,
                "{preset}: the pair is a withhold against nobody holding it"
            );
        }
        for (v, (fa, fb)) in seen_a.iter().zip(&seen_b).enumerate() {
            if p.knew.get(v).copied().unwrap_or(false) {
                continue;
            }
            let sa = shape(fa, p.cut, p.cards);
            let sb = shape(fb, p.cut, p.cards);
            for (i, ((ta, ca), (tb, cb))) in sa.iter().zip(&sb).enumerate() {
                let at = ta
                    .bytes()
                    .zip(tb.bytes())
                    .take_while(|(x, y)| x == y)
                    .count();
                assert_eq!(
                    ta,
                    tb,
                    "{preset}: viewer {v}'s frame {i} tells {:?} at {:?} against {:?}",
                    p.cards,
                    ta.get(at.saturating_sub(150)..(at + 80).min(ta.len())),
                    tb.get(at.saturating_sub(150)..(at + 80).min(tb.len())),
                );
                if let (Some(ca), Some(cb)) = (ca, cb) {
                    assert_eq!(
                        ca, cb,
                        "{preset}: viewer {v}'s frame {i} ({ta}) comes after a pause in one game only"
                    );
                }
            }
            assert_eq!(
                sa.len(),
                sb.len(),
                "{preset}: viewer {v}'s frames before the cards are shown"
            );
            compared += sa.len();
        }
    }
    assert!(compared > 100, "{compared} frames compared");
    server.shutdown().await;
    common::remove_db(&db);
}
