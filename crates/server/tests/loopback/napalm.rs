//! Napalm tables over websockets: a whole game with people, bots and a
//! spectator; a killed server resuming a game from its database; and no
//! frame showing a viewer cards it may not see (N7).

use crate::common;

use std::collections::HashMap;
use std::str::FromStr;
use std::time::{Duration, Instant};

use common::{WAIT, join};
use serde_json::{Value, json};
use tripoley_bots::BotKind;
use tripoley_cards::{Card, CardSet, seeded_rng};
use tripoley_game::Bot;
use tripoley_loadtest::client::{self, Socket};
use tripoley_napalm::{
    Event, HeuristicNapalmBot, NapalmGame, NapalmRecord, NapalmStep, RandomNapalmBot, Seat,
};
use tripoley_server::ServerConfig;
use tripoley_server::protocol::{CreateTable, GameKind, NapalmClientMsg};

/// Creates a Napalm table; seats `humans` are taken by people.
async fn napalm_table(
    addr: std::net::SocketAddr,
    seats: u8,
    humans: &[u8],
    bot: BotKind,
    tokens_to_win: u32,
) -> common::Table {
    let request = CreateTable {
        game: Some(GameKind::Napalm),
        seats: Some(seats),
        turn_seconds: Some(0),
        bot: Some(bot),
        starting_chips: Some(40),
        tokens_to_win: Some(tokens_to_win),
        rules: Some(
            json!({"max_hands": 12})
                .as_object()
                .expect("an object")
                .clone(),
        ),
        ..CreateTable::default()
    };
    common::table_from(addr, &request, humans).await
}

/// Every card named anywhere in a frame.
fn cards_in(v: &Value, out: &mut Vec<Card>) {
    match v {
        Value::String(s) => {
            if let Ok(c) = Card::from_str(s) {
                out.push(c);
            }
        }
        Value::Array(l) => l.iter().for_each(|x| cards_in(x, out)),
        Value::Object(m) => m.values().for_each(|x| cards_in(x, out)),
        _ => {}
    }
}

/// What viewers may know after `n` steps: who holds each card (before or
/// after step `n`), and the cards each seat saw in a comparison this hand.
struct Truth {
    owner: HashMap<Card, Seat>,
    compared: Vec<CardSet>,
}

fn truths(record: &NapalmRecord) -> Vec<Truth> {
    let players = record.names.len();
    let mut ev = Vec::new();
    let mut game = NapalmGame::start(record.rules.clone(), players, &mut ev).unwrap();
    let owners = |g: &NapalmGame, into: &mut HashMap<Card, Seat>| {
        for (s, cs) in g.cards().iter().enumerate() {
            for c in *cs {
                into.insert(c, s as Seat);
            }
        }
    };
    let mut compared = vec![CardSet::EMPTY; players];
    let mut owner = HashMap::new();
    owners(&game, &mut owner);
    let mut out = vec![Truth {
        owner,
        compared: compared.clone(),
    }];
    for step in &record.steps {
        let mut owner = HashMap::new();
        owners(&game, &mut owner);
        let ev = match step {
            NapalmStep::Deck(d) => {
                compared = vec![CardSet::EMPTY; players];
                game.deal(d)
            }
            NapalmStep::Act { seat, action } => game.apply(*seat, *action),
        }
        .unwrap();
        for e in &ev {
            if let Event::Compared { seats, hands, .. } = e {
                for (v, seen) in compared.iter_mut().enumerate() {
                    if seats >> v & 1 == 1 {
                        for (_, cs) in hands {
                            *seen |= *cs;
                        }
                    }
                }
            }
        }
        owners(&game, &mut owner);
        out.push(Truth {
            owner,
            compared: compared.clone(),
        });
    }
    out
}

/// N7: every card in a frame to `viewer` is the viewer's own, or one it saw
/// in a comparison it took part in; a spectator sees no card at all.
fn assert_no_leak(record: &NapalmRecord, frames: &[(Option<Seat>, Value)]) {
    let truth = truths(record);
    for (viewer, msg) in frames {
        let Some(n) = msg["n"].as_u64() else { continue };
        let mut cards = Vec::new();
        cards_in(msg, &mut cards);
        let t = &truth[n as usize];
        for c in cards {
            let ok = viewer.is_some_and(|v| {
                t.owner.get(&c) == Some(&v) || t.compared[usize::from(v)].contains(c)
            });
            assert!(ok, "{c} reached {viewer:?} at event {n}: {msg}");
        }
    }
}

/// Compared events in the record that include `seat`.
fn comparisons_of(record: &NapalmRecord, seat: Seat) -> usize {
    let (_, events) = record.replay().unwrap();
    events
        .iter()
        .filter(|e| matches!(e, Event::Compared { seats, .. } if seats >> seat & 1 == 1))
        .count()
}

fn compared_events(frames: &[(Option<Seat>, Value)]) -> usize {
    frames
        .iter()
        .flat_map(|(_, m)| m["events"].as_array().cloned().unwrap_or_default())
        .filter(|e| e["event"] == "compared")
        .count()
}

/// Plays a seat with `bot`, keeping every frame it receives.
async fn play(
    mut sock: Socket,
    seat: Seat,
    mut bot: Box<dyn Bot<NapalmGame>>,
    seed: u64,
) -> (
    bool,
    Option<tripoley_napalm::NapalmView>,
    Vec<(Option<Seat>, Value)>,
) {
    let mut frames = Vec::new();
    let mut rng = seeded_rng(seed);
    let until = Some(Instant::now() + WAIT);
    let (finished, view) =
        client::play_napalm_seat(&mut sock, bot.as_mut(), &mut rng, until, |m| {
            frames.push((Some(seat), m.clone()));
        })
        .await
        .unwrap();
    (finished, view, frames)
}

/// Reads a spectator's frames until the game is over.
async fn watch(sock: &mut Socket, frames: &mut Vec<(Option<Seat>, Value)>) {
    loop {
        let msg = sock.recv_timeout(WAIT).await.expect("a frame");
        let over = client::shows_game_over(&msg);
        frames.push((None, msg));
        if over {
            return;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_napalm_game_with_people_bots_and_a_spectator() {
    let server = common::server().await;
    let addr = server.addr();
    let t = napalm_table(addr, 5, &[0, 1], BotKind::Heuristic, 3).await;
    let info = client::table_info(addr, &t.invite).await.unwrap();
    assert_eq!(info.settings.game, GameKind::Napalm);
    assert_eq!(info.settings.napalm.as_ref().unwrap().tokens_to_win, 3);
    let (a, wa) = join(addr, &t.invite, Some(&t.tokens[0].1), None).await;
    let (b, _) = join(addr, &t.invite, Some(&t.tokens[1].1), None).await;
    let (mut spectator, _) = join(addr, &t.invite, None, None).await;
    assert_eq!(wa["table"]["settings"]["game"], "napalm");
    // A Tripoley action is refused at a Napalm table.
    let (mut again, _) = join(addr, &t.invite, Some(&t.tokens[0].1), None).await;
    client::start_table(addr, &t.invite, &t.host_token)
        .await
        .unwrap();
    again
        .send_text(r#"{"type":"act","action":"check","id":9}"#)
        .await
        .unwrap();
    let e = again.recv_type("error", WAIT).await.unwrap();
    assert!(
        e["code"] == "illegal" || e["code"] == "not_your_turn",
        "{e}"
    );
    // A spectator cannot act.
    spectator
        .send_napalm(&NapalmClientMsg::Act {
            action: tripoley_napalm::Action::Yes,
            id: Some(4),
            seat: None,
            n: None,
        })
        .await
        .unwrap();
    again.close().await;

    let pa = tokio::spawn(play(a, 0, Box::new(HeuristicNapalmBot), 1));
    let pb = tokio::spawn(play(b, 1, Box::new(HeuristicNapalmBot), 2));
    let mut frames = Vec::new();
    watch(&mut spectator, &mut frames).await;
    let unauthorized = frames
        .iter()
        .any(|(_, m)| m["type"] == "error" && m["code"] == "unauthorized");
    assert!(unauthorized, "the spectator's act is refused");
    let (fa, va, frames_a) = pa.await.unwrap();
    let (fb, _, frames_b) = pb.await.unwrap();
    assert!(fa && fb, "both players see the end");
    let view = va.unwrap();
    assert_eq!(view.stacks.iter().sum::<u32>() + view.pot, 5 * 40);

    let record = server.napalm_record(&t.invite).await.unwrap();
    assert!(server.record(&t.invite).await.is_none());
    let (game, events) = record.replay().unwrap();
    assert!(game.is_over());
    assert_eq!(game.chips_in_play(), 5 * 40);
    assert!(events.iter().any(|e| matches!(e, Event::GameOver { .. })));
    assert!(frames_a.iter().any(|(_, m)| {
        m["events"]
            .as_array()
            .is_some_and(|l| l.iter().any(|e| e["event"] == "game_over"))
    }));
    let info = client::table_info(addr, &t.invite).await.unwrap();
    assert_eq!(
        info.status,
        tripoley_server::protocol::TableStatus::Finished
    );

    // Every comparison reaches exactly the players in it, never the spectator.
    assert_eq!(compared_events(&frames_a), comparisons_of(&record, 0));
    assert_eq!(compared_events(&frames_b), comparisons_of(&record, 1));
    assert_eq!(compared_events(&frames), 0);
    let mut all = frames;
    all.extend(frames_a);
    all.extend(frames_b);
    assert_no_leak(&record, &all);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_frame_shows_cards_the_viewer_was_not_shown() {
    let server = common::server().await;
    let addr = server.addr();
    // Random players say Yes often: many private comparisons.
    let t = napalm_table(addr, 4, &[0, 1], BotKind::Random, 5).await;
    let (a, _) = join(addr, &t.invite, Some(&t.tokens[0].1), None).await;
    let (mut b, _) = join(addr, &t.invite, Some(&t.tokens[1].1), None).await;
    let (mut spectator, _) = join(addr, &t.invite, None, None).await;
    client::start_table(addr, &t.invite, &t.host_token)
        .await
        .unwrap();
    let pa = tokio::spawn(play(a, 0, Box::new(RandomNapalmBot), 3));
    // Seat 1 plays a while, leaves, and comes back for a full state.
    let mut frames_b = Vec::new();
    let mut rng = seeded_rng(4);
    let mut bot = RandomNapalmBot;
    let mut acted = 0;
    while acted < 4 {
        let msg = b.recv_timeout(WAIT).await.unwrap();
        frames_b.push((Some(1), msg.clone()));
        if let Some(view) = client::napalm_view_of(&msg)
            && view.decision.is_some()
        {
            let n = msg["n"].as_u64().unwrap();
            b.send_napalm(&NapalmClientMsg::Act {
                action: bot.act(&view, &mut rng),
                id: None,
                seat: Some(1),
                n: Some(n),
            })
            .await
            .unwrap();
            acted += 1;
        }
        if client::shows_game_over(&msg) {
            break;
        }
    }
    b.close().await;
    let (b, _) = join(addr, &t.invite, Some(&t.tokens[1].1), None).await;
    let pb = tokio::spawn(play(b, 1, Box::new(RandomNapalmBot), 5));
    let mut frames = Vec::new();
    watch(&mut spectator, &mut frames).await;
    // A late spectator gets a full state.
    let (mut late, _) = join(addr, &t.invite, None, None).await;
    let state = late.recv_type("state", WAIT).await.unwrap();
    frames.push((None, state));
    let (fa, _, frames_a) = pa.await.unwrap();
    let (fb, _, more_b) = pb.await.unwrap();
    assert!(fa && fb);
    frames_b.extend(more_b);
    assert!(
        frames_b.iter().any(|(_, m)| m["type"] == "state"),
        "the returning player got a full state"
    );
    let record = server.napalm_record(&t.invite).await.unwrap();
    assert_eq!(compared_events(&frames), 0, "spectators see no comparison");
    assert_eq!(compared_events(&frames_a), comparisons_of(&record, 0));
    let mut all = frames;
    all.extend(frames_a);
    all.extend(frames_b);
    assert_no_leak(&record, &all);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_server_resumes_a_napalm_game_from_its_database() {
    let db = common::temp_db("napalm-restart");
    let config = ServerConfig {
        db: db.clone().into(),
        bot_delay: Duration::from_millis(3),
        ..ServerConfig::ephemeral()
    };
    let server = tripoley_server::start(config.clone()).await.unwrap();
    let addr = server.addr();
    let t = napalm_table(addr, 3, &[], BotKind::Heuristic, 5).await;
    let (mut spectator, _) = join(addr, &t.invite, None, None).await;
    client::start_table(addr, &t.invite, &t.host_token)
        .await
        .unwrap();
    loop {
        let msg = spectator.recv_timeout(WAIT).await.unwrap();
        assert!(!client::shows_game_over(&msg), "the game ended too soon");
        if msg["n"].as_u64().unwrap_or(0) >= 12 {
            break;
        }
    }
    let before = server.napalm_record(&t.invite).await.unwrap();
    let last = spectator.last;
    server.kill().await;

    let server = tripoley_server::start(config).await.unwrap();
    let addr = server.addr();
    let after = server.napalm_record(&t.invite).await.unwrap();
    assert_eq!(after.steps[..before.steps.len()], before.steps[..]);
    let (game, _) = after.replay().unwrap();
    assert_eq!(game.chips_in_play(), 3 * 40);
    let (mut spectator, welcome) = join(addr, &t.invite, None, last).await;
    assert_eq!(welcome["table"]["settings"]["game"], "napalm");
    let mut frames = Vec::new();
    watch(&mut spectator, &mut frames).await;
    let record = server.napalm_record(&t.invite).await.unwrap();
    let (game, _) = record.replay().unwrap();
    assert!(game.is_over());
    assert_eq!(game.chips_in_play(), 3 * 40);
    assert_eq!(game.stacks().iter().sum::<u32>() + game.pot(), 3 * 40);
    assert_no_leak(&record, &frames);
    server.shutdown().await;
    common::remove_db(&db);
}
