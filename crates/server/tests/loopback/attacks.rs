//! The attacks of issue 15, each reproduced over loopback and shown refused,
//! bounded or harmless. Where an attack loads the server, a normal table's
//! action latency (act sent, ack received) is measured meanwhile and held to
//! a generous bound: the tests share the machine with everything else, so
//! they check that the attack does not starve the table, not a benchmark.

use crate::common;

use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};

use common::{WAIT, http_from, join, table, table_from};
use serde_json::{Value, json};
use tokio::io::AsyncReadExt;
use tokio::net::{TcpSocket, TcpStream};
use tripoley_bots::BotKind;
use tripoley_cards::seeded_rng;
use tripoley_engine::{Action, Preset, Rules, Step};
use tripoley_loadtest::client::{self, ClientError, Socket};
use tripoley_server::protocol::{ClientMsg, CreateTable};
use tripoley_server::{RunningServer, ServerConfig};

/// The bound on a normal table's median action latency during an attack:
/// far above the real figures (a few milliseconds, which the load test
/// measures), far below a starved table's (seconds), so that a loaded
/// machine running other tests at once does not fail it.
const GENEROUS: Duration = Duration::from_secs(1);

async fn server_with(config: ServerConfig) -> RunningServer {
    tripoley_server::start(config)
        .await
        .expect("the server starts")
}

const JSON: (&str, &str) = ("Content-Type", "application/json");
const LOCAL: IpAddr = IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);

/// Plays seat 0 of a fresh two-player table (a bot in seat 1) for up to
/// `actions` decisions and returns each action's latency: from sending it
/// to its `ack`.
async fn action_latencies(addr: SocketAddr, actions: usize) -> Vec<Duration> {
    let t = table(addr, Preset::Pagat, 2, &[0], 0).await;
    let (mut sock, _) = join(addr, &t.invite, Some(&t.tokens[0].1), None).await;
    client::start_table(addr, &t.invite, &t.host_token)
        .await
        .unwrap();
    common::latencies(&mut sock, &mut None, actions, &mut 0).await
}

fn median(mut xs: Vec<Duration>) -> Duration {
    assert!(!xs.is_empty(), "some actions were measured");
    xs.sort();
    xs[xs.len() / 2]
}

/// Findings 1 and 2: rules that would loop forever or wrap the chip count
/// are refused wherever they are given, top-level or nested, and the server
/// says which option and what range.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finding_1_2_unbounded_house_rules_are_refused() {
    let server = common::server().await;
    let addr = server.addr();
    for (body, says) in [
        (
            json!({"rules": {"final_pot_rounds": 4_294_967_295u32}}),
            "final_pot_rounds",
        ),
        (
            json!({"rules": {"starting_chips": 4_294_967_295u32}}),
            "starting_chips",
        ),
        (
            json!({"rules": {"bet_limit": 4_294_967_295u32}}),
            "bet_limit",
        ),
        (json!({"rules": {"deals": 1_000_000_000}}), "deals"),
        (json!({"rules": {"ante": 4_294_967_295u32}}), "ante"),
        (
            json!({"game": "napalm", "rules": {"tokens_to_win": 1_000_000}}),
            "tokens_to_win",
        ),
    ] {
        let (status, answer) = client::request(addr, "POST", "/api/tables", Some(&body))
            .await
            .unwrap();
        assert_eq!(status, 400, "{body}: {answer}");
        assert_eq!(answer["code"], "invalid", "{body}");
        let message = answer["message"].as_str().unwrap();
        assert!(message.contains(says), "{body}: {message}");
    }
    server.shutdown().await;
}

/// Finding 1, after a restart: a table stored with such rules by an older
/// server is set aside, not replayed into its endless loop.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finding_1_a_stored_table_with_unbounded_rules_does_not_run_again() {
    let db = common::temp_db("unbounded");
    let config = ServerConfig {
        db: db.clone().into(),
        ..ServerConfig::ephemeral()
    };
    let server = server_with(config.clone()).await;
    let t = table(server.addr(), Preset::Pagat, 2, &[], 0).await;
    client::start_table(server.addr(), &t.invite, &t.host_token)
        .await
        .unwrap();
    server.shutdown().await;
    // What an older server stored: the same table with the rule of finding 1.
    let conn = rusqlite::Connection::open(&db).unwrap();
    let settings: String = conn
        .query_row(
            "SELECT settings FROM tables WHERE invite = ?1",
            [&t.invite],
            |r| r.get(0),
        )
        .unwrap();
    let mut settings: Value = serde_json::from_str(&settings).unwrap();
    settings["rules"]["final_pot_rounds"] = json!(4_294_967_295u32);
    conn.execute(
        "UPDATE tables SET settings = ?1 WHERE invite = ?2",
        [settings.to_string(), t.invite.clone()],
    )
    .unwrap();
    drop(conn);
    let server = server_with(config).await;
    let info = client::table_info(server.addr(), &t.invite).await;
    assert!(
        matches!(info, Err(ClientError::Refused { status: 404, .. })),
        "{info:?}"
    );
    assert!(server.record(&t.invite).await.is_none());
    server.shutdown().await;
    common::remove_db(&db);
}

/// Finding 3: a hundred connections with one seat token asking for hints.
/// Only a few connect; their hints for one position are searched once and
/// the server runs few searches at once; another table's actions stay fast.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finding_3_hint_floods_do_not_starve_other_tables() {
    let server = server_with(ServerConfig {
        max_connections_per_seat: 4,
        max_hint_searches: 1,
        ..ServerConfig::ephemeral()
    })
    .await;
    let addr = server.addr();
    let t = table(addr, Preset::Pagat, 2, &[0], 0).await;
    client::start_table(addr, &t.invite, &t.host_token)
        .await
        .unwrap();
    let token = &t.tokens[0].1;
    let mut flooders = Vec::new();
    let mut refused = 0;
    for _ in 0..100 {
        let mut sock = Socket::connect(addr, &t.invite).await.unwrap();
        sock.hello(Some(token), None).await.unwrap();
        loop {
            let msg = sock.recv_timeout(WAIT).await.unwrap();
            if msg["type"] == "welcome" {
                flooders.push(sock);
                break;
            }
            if msg["type"] == "error" {
                assert_eq!(msg["code"], "full", "{msg}");
                refused += 1;
                break;
            }
        }
    }
    assert_eq!((flooders.len(), refused), (4, 96));
    // Each connection asks for hints as fast as its rate limit allows.
    let flood = tokio::spawn(async move {
        let mut hints = 0;
        let end = Instant::now() + Duration::from_secs(3);
        while Instant::now() < end {
            for sock in &mut flooders {
                let _ = sock.send(&ClientMsg::Hint { id: Some(1) }).await;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
            for sock in &mut flooders {
                while let Ok(Ok(msg)) =
                    tokio::time::timeout(Duration::from_millis(1), sock.recv()).await
                {
                    hints += usize::from(msg["type"] == "hint");
                }
            }
        }
        hints
    });
    let latencies = action_latencies(addr, 15).await;
    let hints = flood.await.unwrap();
    assert!(hints > 0, "the flooders got hints");
    let m = median(latencies);
    assert!(
        m < GENEROUS,
        "median action latency {m:?} during the hint flood"
    );
    server.shutdown().await;
}

/// Finding 4: silent sockets. Connections beyond the per-address cap are
/// closed at once; a socket that says nothing is closed at the hello
/// deadline; `/api/health` answers all along; a refused spectator is closed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finding_4_silent_sockets_are_capped_and_closed() {
    let server = server_with(ServerConfig {
        max_connections_per_address: 20,
        hello_timeout: Duration::from_millis(500),
        max_spectators: 1,
        ..ServerConfig::ephemeral()
    })
    .await;
    let addr = server.addr();
    let from = "127.0.0.3".parse().unwrap();
    let mut silent = Vec::new();
    for _ in 0..200 {
        let socket = TcpSocket::new_v4().unwrap();
        socket.bind(SocketAddr::new(from, 0)).unwrap();
        silent.push(socket.connect(addr).await.unwrap());
    }
    // Health answers (from another address) while they hold their slots.
    let (status, health) = client::request(addr, "GET", "/api/health", None)
        .await
        .unwrap();
    assert_eq!(status, 200);
    assert_eq!(health["limits"]["max_connections_per_address"], 20);
    // 180 were closed at once, the other 20 at the deadline: every read ends.
    let started = Instant::now();
    let mut reads = tokio::task::JoinSet::new();
    for mut sock in silent {
        reads.spawn(async move {
            let mut buf = [0u8; 16];
            let n = tokio::time::timeout(WAIT, sock.read(&mut buf))
                .await
                .expect("the server closes every silent socket");
            assert!(matches!(n, Ok(0) | Err(_)), "{n:?}");
            started.elapsed()
        });
    }
    let mut closed_at_once = 0;
    while let Some(closed) = reads.join_next().await {
        let after = closed.unwrap();
        assert!(after < Duration::from_secs(5), "closed after {after:?}");
        closed_at_once += usize::from(after < Duration::from_millis(300));
    }
    assert!(closed_at_once >= 180, "{closed_at_once} closed at once");
    // A websocket that never says hello is closed too.
    let t = table(addr, Preset::Pagat, 2, &[0], 0).await;
    let mut quiet = Socket::connect(addr, &t.invite).await.unwrap();
    let msg = quiet.recv_timeout(WAIT).await.unwrap();
    assert_eq!(msg["type"], "error", "{msg}");
    assert!(matches!(
        quiet.recv_timeout(WAIT).await,
        Err(ClientError::Closed)
    ));
    // A spectator refused for a full table is closed, not kept.
    let (_watcher, _) = join(addr, &t.invite, None, None).await;
    let mut refused = Socket::connect(addr, &t.invite).await.unwrap();
    refused.hello(None, None).await.unwrap();
    assert_eq!(refused.recv_timeout(WAIT).await.unwrap()["code"], "full");
    assert!(matches!(
        refused.recv_timeout(WAIT).await,
        Err(ClientError::Closed)
    ));
    server.shutdown().await;
}

/// Finding 5: a flood of anonymous creates from one address is capped for
/// that address only; lobby tables expire; text bodies and pages of other
/// sites are refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finding_5_table_creation_cannot_be_locked_out() {
    let server = server_with(ServerConfig {
        max_tables_per_address: 10,
        table_idle: Duration::from_millis(500),
        ..ServerConfig::ephemeral()
    })
    .await;
    let addr = server.addr();
    let attacker: IpAddr = "127.0.0.4".parse().unwrap();
    let mut created = Vec::new();
    let mut busy = 0;
    for _ in 0..50 {
        let (status, answer) = http_from(attacker, addr, "/api/tables", &[JSON], &json!({})).await;
        match status {
            201 => created.push(answer["invite"].as_str().unwrap().to_owned()),
            429 => {
                assert_eq!(answer["code"], "rate_limited");
                busy += 1;
            }
            _ => panic!("{status} {answer}"),
        }
    }
    assert_eq!((created.len(), busy), (10, 40));
    // Someone else still creates a table.
    let (status, _) = http_from(LOCAL, addr, "/api/tables", &[JSON], &json!({})).await;
    assert_eq!(status, 201);
    // Left alone, the attacker's lobby tables expire.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    for invite in &created {
        let info = client::table_info(addr, invite).await;
        assert!(
            matches!(info, Err(ClientError::Refused { status: 404, .. })),
            "{info:?}"
        );
    }
    // Another site's page cannot create tables through its visitors.
    let (status, answer) = http_from(
        LOCAL,
        addr,
        "/api/tables",
        &[("Content-Type", "text/plain")],
        &json!({}),
    )
    .await;
    assert_eq!((status, answer["code"].as_str()), (403, Some("forbidden")));
    let (status, _) = http_from(
        LOCAL,
        addr,
        "/api/tables",
        &[JSON, ("Origin", "http://evil.example")],
        &json!({}),
    )
    .await;
    assert_eq!(status, 403);
    let origin = format!("http://{addr}");
    let (status, _) = http_from(
        LOCAL,
        addr,
        "/api/tables",
        &[JSON, ("Origin", &origin)],
        &json!({}),
    )
    .await;
    assert_eq!(status, 201, "this server's own page may");
    server.shutdown().await;
}

/// Finding 6: names that mirror text, show blank, or pass for a bot or for
/// the reader are refused when a seat is taken and when a table is created.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finding_6_spoofing_names_are_refused() {
    let server = common::server().await;
    let addr = server.addr();
    let t = table(addr, Preset::Pagat, 3, &[], 0).await;
    for name in ["\u{202E}Ann", "\u{200B}\u{200B}", "Bot 4", "Ann (you)", " "] {
        let sat = client::sit(addr, &t.invite, None, name).await;
        match sat {
            Err(ClientError::Refused { status: 400, body }) => {
                assert!(!body.message.contains("(T"), "{}", body.message);
            }
            other => panic!("{name:?}: {other:?}"),
        }
        let req = CreateTable {
            host_name: Some(name.to_owned()),
            ..CreateTable::default()
        };
        assert!(client::create_table(addr, &req).await.is_err(), "{name:?}");
    }
    assert!(client::sit(addr, &t.invite, None, "Ann").await.is_ok());
    server.shutdown().await;
}

/// Finding 8: a person whose turn timer runs out never has chips spent for
/// them: their stand-in keeps, passes, checks or folds.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finding_8_the_timers_stand_in_spends_nothing() {
    let server = common::server().await;
    let addr = server.addr();
    let request = CreateTable {
        preset: Some(Preset::Pagat),
        seats: Some(3),
        turn_seconds: Some(1),
        ..CreateTable::default()
    };
    // Seat 0 is the dealer of the first deal: the spare's choice is theirs.
    let request = CreateTable {
        rules: Some(serde_json::from_value(json!({"first_dealer": {"seat": 0}})).unwrap()),
        ..request
    };
    let t = table_from(addr, &request, &[0]).await;
    let (mut sleeper, _) = join(addr, &t.invite, Some(&t.tokens[0].1), None).await;
    client::start_table(addr, &t.invite, &t.host_token)
        .await
        .unwrap();
    // The sleeper is connected (a person, not away) and never acts.
    let mut timed_out = Vec::new();
    let end = Instant::now() + Duration::from_secs(20);
    while timed_out.len() < 3 && Instant::now() < end {
        let _ = sleeper.recv_timeout(Duration::from_millis(200)).await;
        let record = server.record(&t.invite).await.unwrap();
        timed_out = record
            .steps
            .iter()
            .filter_map(|s| match s {
                Step::Act { seat: 0, action } => Some(*action),
                _ => None,
            })
            .collect();
    }
    assert!(
        timed_out.len() >= 3,
        "the timer ran out thrice: {timed_out:?}"
    );
    assert_eq!(timed_out[0], Action::Keep, "the dealer keeps the hand");
    for action in timed_out {
        assert!(
            matches!(
                action,
                Action::Keep
                    | Action::Pass
                    | Action::Check
                    | Action::Fold
                    | Action::Lead(_)
                    | Action::Play
                    | Action::Choose(_)
                    | Action::NameSuit(_)
            ),
            "the stand-in may have spent chips: {action:?}"
        );
    }
    server.shutdown().await;
}

/// Finding 7: under michigan-casino a bidder whom D5 forbids to bid (a bonus
/// card in hand) is asked like any other and passes by itself, so the frame
/// that opens an auction carries no passes and no viewer learns who holds a
/// bonus card from when passes arrive. Three people (random bots) play, so
/// the dealer auctions the spare about every other deal; a forbidden bidder
/// is asked only when the other bidder may bid (about one auction in three),
/// and the server shuffles with the system's randomness, so games are played
/// until one such ask is seen (one game of twelve deals missed it about one
/// time in ten, which failed CI once).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finding_7_passes_forced_by_bonus_cards_are_not_a_tell() {
    let server = common::server().await;
    let mut asked_blocked = 0;
    for game in 0..8 {
        let (telling, asked) = auction_tells(server.addr(), game).await;
        assert_eq!(telling, 0, "no auction opens with passes already made");
        asked_blocked += asked;
        if asked_blocked > 0 {
            break;
        }
    }
    assert!(
        asked_blocked > 0,
        "a bidder holding a bonus card was never asked to pass in eight games of twelve deals"
    );
    server.shutdown().await;
}

/// Plays one michigan-casino game of twelve deals among three random bots and
/// counts, over every seat, the frames opening an auction with a pass already
/// in them and the auction decisions where the seat could only pass.
async fn auction_tells(addr: SocketAddr, game: u64) -> (u32, u32) {
    let request = CreateTable {
        preset: Some(Preset::MichiganCasino),
        seats: Some(3),
        deals: Some(12),
        turn_seconds: Some(0),
        ..CreateTable::default()
    };
    let t = table_from(addr, &request, &[0, 1, 2]).await;
    let mut players = Vec::new();
    for (i, (_, token)) in t.tokens.iter().enumerate() {
        let (sock, _) = join(addr, &t.invite, Some(token), None).await;
        players.push((i as u64, sock));
    }
    client::start_table(addr, &t.invite, &t.host_token)
        .await
        .unwrap();
    let mut seats = Vec::new();
    for (i, mut sock) in players {
        seats.push(tokio::spawn(async move {
            let (mut telling, mut asked_blocked) = (0, 0);
            let mut bot = BotKind::Random.make(&Rules::preset(Preset::MichiganCasino));
            let mut rng = seeded_rng(70 + 3 * game + i);
            let stats = client::play_seat_observed(
                &mut sock,
                bot.as_mut(),
                &mut rng,
                Duration::ZERO,
                Some(Instant::now() + Duration::from_secs(60)),
                |msg| {
                    let kinds: Vec<&str> = msg["events"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(|e| e["event"].as_str())
                        .collect();
                    if kinds.contains(&"auction_opened") && kinds.contains(&"passed") {
                        telling += 1;
                    }
                    let bid = &msg["view"]["decision"]["auction_bid"];
                    if bid["min"].as_u64() > bid["max"].as_u64() {
                        asked_blocked += 1;
                    }
                },
            )
            .await
            .expect("the seat plays");
            assert!(stats.finished, "the game ends");
            (telling, asked_blocked)
        }));
    }
    let (mut telling, mut asked_blocked) = (0, 0);
    for seat in seats {
        let (t, a) = seat.await.unwrap();
        telling += t;
        asked_blocked += a;
    }
    (telling, asked_blocked)
}

/// The soak's slow growth: a table's task stayed in the server's task set,
/// its whole future with it, after the table had ended, until shutdown.
/// Tables that expire must give their memory back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ended_tables_give_their_tasks_back() {
    let server = server_with(ServerConfig {
        table_idle: Duration::from_millis(200),
        ..ServerConfig::ephemeral()
    })
    .await;
    let addr = server.addr();
    for _ in 0..30 {
        client::create_table(addr, &CreateTable::default())
            .await
            .expect("created");
    }
    assert!(server.table_tasks() >= 30);
    // Every lobby expires; the next table created reaps their tasks.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    client::create_table(addr, &CreateTable::default())
        .await
        .expect("created");
    assert!(
        server.table_tasks() <= 2,
        "tasks held after 30 tables ended: {}",
        server.table_tasks()
    );
    server.shutdown().await;
}

/// The baseline of the latency bound: a quiet server's actions.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_quiet_servers_actions_are_fast() {
    let server = common::server().await;
    let m = median(action_latencies(server.addr(), 10).await);
    assert!(m < GENEROUS, "median action latency {m:?}");
    server.shutdown().await;
}

/// A stream that was opened but never spoke keeps its place in the count
/// until closed: after the attacker's sockets close, the address connects
/// again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_address_connects_again_once_its_sockets_close() {
    let server = server_with(ServerConfig {
        max_connections_per_address: 5,
        ..ServerConfig::ephemeral()
    })
    .await;
    let addr = server.addr();
    let held: Vec<TcpStream> = {
        let mut v = Vec::new();
        for _ in 0..5 {
            v.push(TcpStream::connect(addr).await.unwrap());
        }
        v
    };
    // The sixth is closed at once.
    let mut sixth = TcpStream::connect(addr).await.unwrap();
    let mut buf = [0u8; 1];
    let read = tokio::time::timeout(WAIT, sixth.read(&mut buf))
        .await
        .unwrap();
    assert!(matches!(read, Ok(0) | Err(_)));
    drop(held);
    // The server counts the closes as it reads them: ask until it has.
    let until = Instant::now() + WAIT;
    let status = loop {
        match client::request(addr, "GET", "/api/health", None).await {
            Ok((status, _)) => break status,
            Err(e) if Instant::now() > until => panic!("the address stayed refused: {e}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    };
    assert_eq!(status, 200);
    server.shutdown().await;
}
