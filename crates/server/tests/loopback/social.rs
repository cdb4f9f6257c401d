//! Around the table, with hostile input: chat (over-long, control, bidi and
//! invisible characters, a flood, a spectator or a stranger writing, the
//! history a returning player sees), the host freeing a seat (refused to
//! others and for a player who is here; the freed token holds nothing, even
//! after a restart) and the public list (private tables never on it, full
//! or started ones gone, pages bounded, listed again after a restart).

use crate::common;

use std::net::SocketAddr;
use std::time::Duration;

use common::{WAIT, join};
use serde_json::Value;
use tripoley_engine::Preset;
use tripoley_loadtest::client::{self, Socket};
use tripoley_server::ServerConfig;
use tripoley_server::protocol::{ClientMsg, CreateTable, Created, SeatKind, TableStatus};
use tripoley_server::public::PAGE_SIZE;

fn chat(text: &str, id: u64) -> ClientMsg {
    ClientMsg::Chat {
        text: text.to_owned(),
        id: Some(id),
    }
}

/// The reply to message `id`: its `ack` or `error`, skipping the rest.
async fn reply(sock: &mut Socket, id: u64) -> Value {
    loop {
        let m = sock.recv_timeout(WAIT).await.expect("a reply");
        if matches!(m["type"].as_str(), Some("ack" | "error")) && m["id"] == id {
            return m;
        }
    }
}

/// Asks to free `seat`; the reply.
async fn free(sock: &mut Socket, seat: u8, id: u64) -> Value {
    sock.send(&ClientMsg::FreeSeat { seat, id: Some(id) })
        .await
        .unwrap();
    reply(sock, id).await
}

/// A three-seat table with the host, Ann, in seat 0.
async fn hosted(addr: SocketAddr, public: bool) -> Created {
    client::create_table(
        addr,
        &CreateTable {
            seats: Some(3),
            turn_seconds: Some(0),
            host_name: Some("Ann".into()),
            public: Some(public),
            ..CreateTable::default()
        },
    )
    .await
    .expect("the table is created")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[allow(clippy::too_many_lines)] // one conversation
async fn chat_reaches_everyone_and_refuses_what_it_must() {
    let server = common::server().await;
    let addr = server.addr();
    let t = hosted(addr, false).await;
    let bob = client::sit(addr, &t.invite, Some(1), "Bob").await.unwrap();
    let (mut ann, _) = join(addr, &t.invite, Some(&t.host_token), None).await;
    let (mut bob_ws, _) = join(addr, &t.invite, Some(&bob.token), None).await;
    let (mut watcher, _) = join(addr, &t.invite, None, None).await;

    // A line goes to every connection, spectators included, with its
    // writer's seat and name.
    ann.send(&chat("  hello \u{202E}everyone  ", 1))
        .await
        .unwrap();
    for sock in [&mut ann, &mut bob_ws, &mut watcher] {
        let line = &sock.recv_type("chat", WAIT).await.unwrap()["line"];
        assert_eq!(
            line["text"], "hello everyone",
            "the bidi control is dropped"
        );
        assert_eq!(
            (line["seat"].as_u64(), line["name"].as_str()),
            (Some(0), Some("Ann"))
        );
    }
    // The writer's ack follows the line.
    assert_eq!(reply(&mut ann, 1).await["type"], "ack");

    // Hostile lines are refused with the reason, and nobody receives them.
    let hostile = [
        "x".repeat(201),
        "line\nbreak".into(),
        "\u{200B}\u{200D}\u{FEFF}".into(),
        "\u{2067}\u{2069}".into(),
        "   ".into(),
        "\u{1b}[31mred".into(),
    ];
    for (i, text) in hostile.iter().enumerate() {
        let id = 10 + i as u64;
        bob_ws.send(&chat(text, id)).await.unwrap();
        let r = reply(&mut bob_ws, id).await;
        assert_eq!(
            (r["type"].as_str(), r["code"].as_str()),
            (Some("error"), Some("invalid")),
            "{text:?}"
        );
    }
    // A spectator reads but may not write.
    watcher.send(&chat("hi", 20)).await.unwrap();
    let r = reply(&mut watcher, 20).await;
    assert_eq!(r["code"], "unauthorized");
    assert!(r["message"].as_str().unwrap().contains("take a seat"));
    // Nor may a connection that has not said hello.
    let mut stranger = Socket::connect(addr, &t.invite).await.unwrap();
    stranger.send(&chat("hi", 21)).await.unwrap();
    assert_eq!(reply(&mut stranger, 21).await["code"], "unauthorized");

    // A flood: five lines pass, the sixth is told to wait.
    for i in 0..5 {
        bob_ws
            .send(&chat(&format!("line {i}"), 30 + i))
            .await
            .unwrap();
        assert_eq!(reply(&mut bob_ws, 30 + i).await["type"], "ack", "line {i}");
    }
    bob_ws.send(&chat("one too many", 40)).await.unwrap();
    let r = reply(&mut bob_ws, 40).await;
    assert_eq!(r["code"], "rate_limited");
    assert!(r["message"].as_str().unwrap().contains("wait"), "{r}");
    // The seat's allowance is shared: a second window of Bob's is no way
    // around it.
    let (mut bob_again, _) = join(addr, &t.invite, Some(&bob.token), None).await;
    bob_again.send(&chat("from my phone", 41)).await.unwrap();
    assert_eq!(reply(&mut bob_again, 41).await["code"], "rate_limited");

    // Everyone saw exactly the lines that passed, in order; someone who
    // comes back gets them as the history.
    let mut seen = Vec::new();
    while seen.len() < 5 {
        let m = watcher.recv_type("chat", WAIT).await.unwrap();
        seen.push(m["line"]["text"].as_str().unwrap().to_owned());
    }
    assert_eq!(seen, ["line 0", "line 1", "line 2", "line 3", "line 4"]);
    let mut back = Socket::connect(addr, &t.invite).await.unwrap();
    back.hello(None, None).await.unwrap();
    let history = back.recv_type("chat_history", WAIT).await.unwrap();
    let texts: Vec<&str> = history["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap())
        .collect();
    assert_eq!(
        texts,
        [
            "hello everyone",
            "line 0",
            "line 1",
            "line 2",
            "line 3",
            "line 4"
        ]
    );
    let ids: Vec<u64> = history["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["id"].as_u64().unwrap())
        .collect();
    assert_eq!(ids, [1, 2, 3, 4, 5, 6]);
    server.shutdown().await;
}

/// Issue 31 pt 8: two seats never hold names that look alike (a Cyrillic
/// "А" for a Latin "A"), nor one that passes for a bot's with a Cyrillic
/// "о"; issue 28 pt 8: the web takes names by the terminal's rule, so 16
/// CJK characters (32 columns) are refused and 8 (16 columns) taken.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seats_never_hold_look_alike_names() {
    let server = common::server().await;
    let addr = server.addr();
    let t = hosted(addr, false).await;
    for (name, problem) in [
        ("\u{0410}nn", "taken"),
        (" ANN ", "taken"),
        ("B\u{043E}t 2", "bot_name"),
        ("漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢", "too_long"),
    ] {
        match client::sit(addr, &t.invite, None, name).await {
            Err(client::ClientError::Refused { status: 400, body }) => assert_eq!(
                serde_json::to_value(body.detail).unwrap(),
                serde_json::json!({"reason": "name", "problem": problem}),
                "{name:?}"
            ),
            other => panic!("{name:?}: {other:?}"),
        }
    }
    assert!(
        client::sit(addr, &t.invite, None, "漢漢漢漢漢漢漢漢")
            .await
            .is_ok()
    );
    assert!(client::sit(addr, &t.invite, None, "Anna").await.is_ok());
    server.shutdown().await;
}

/// Waits until the table shows `seat`'s player gone.
async fn until_away(addr: SocketAddr, invite: &str, seat: usize) {
    let end = tokio::time::Instant::now() + WAIT;
    while client::table_info(addr, invite).await.unwrap().seats[seat].connected {
        assert!(tokio::time::Instant::now() < end, "seat {seat} never left");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[allow(clippy::too_many_lines)] // one story, restart included
async fn the_host_frees_the_seat_of_a_player_who_left() {
    let db = common::temp_db("free-seat");
    let config = ServerConfig {
        db: db.clone().into(),
        // Long enough that the early free below reaches the server inside
        // it on a loaded machine.
        grace: Duration::from_secs(2),
        ..ServerConfig::ephemeral()
    };
    let server = tripoley_server::start(config.clone()).await.unwrap();
    let addr = server.addr();
    let t = hosted(addr, false).await;
    let bob = client::sit(addr, &t.invite, Some(1), "Bob").await.unwrap();
    let cy = client::sit(addr, &t.invite, Some(2), "Cy").await.unwrap();
    let (mut host, _) = join(addr, &t.invite, Some(&t.host_token), None).await;
    let (bob_ws, _) = join(addr, &t.invite, Some(&bob.token), None).await;
    let (mut cy_ws, _) = join(addr, &t.invite, Some(&cy.token), None).await;

    // Nobody but the host frees a seat, and not the host's own.
    assert_eq!(free(&mut cy_ws, 1, 1).await["code"], "unauthorized");
    for (seat, id) in [(0, 3), (7, 4)] {
        assert_eq!(
            free(&mut host, seat, id).await["code"],
            "invalid",
            "seat {seat}"
        );
    }
    // Bob leaves; the host frees his seat, which opens.
    bob_ws.close().await;
    until_away(addr, &t.invite, 1).await;
    assert_eq!(free(&mut host, 1, 5).await["type"], "ack");
    let info = client::table_info(addr, &t.invite).await.unwrap();
    assert_eq!(
        (info.seats[1].kind, info.seats[1].name.as_deref()),
        (SeatKind::Open, None)
    );
    // Bob's token holds nothing now, and he is told why.
    let mut bob_back = Socket::connect(addr, &t.invite).await.unwrap();
    bob_back.hello(Some(&bob.token), None).await.unwrap();
    let refused = bob_back.recv_type("error", WAIT).await.unwrap();
    assert_eq!(refused["code"], "seat_freed");
    assert_eq!(refused["detail"]["cause"], "removed", "{refused}");
    // Someone else takes the seat.
    let dee = client::sit(addr, &t.invite, Some(1), "Dee").await.unwrap();

    // During the game: Cy leaves; freed only once a bot plays for her.
    client::start_table(addr, &t.invite, &t.host_token)
        .await
        .unwrap();
    cy_ws.close().await;
    until_away(addr, &t.invite, 2).await;
    let early = free(&mut host, 2, 6).await;
    assert_eq!(early["code"], "invalid", "{early}");
    // Once the grace is over a bot plays for her, and her seat is freed.
    let end = tokio::time::Instant::now() + WAIT;
    let mut id = 7;
    while free(&mut host, 2, id).await["type"] != "ack" {
        assert!(
            tokio::time::Instant::now() < end,
            "Cy's seat was never freed"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
        id += 1;
    }
    let info = client::table_info(addr, &t.invite).await.unwrap();
    assert_eq!(info.seats[2].kind, SeatKind::Bot);
    assert!(info.seats[2].bot_playing);
    // Cy is told her seat went while she was away (not that she was removed).
    let mut cy_back = Socket::connect(addr, &t.invite).await.unwrap();
    cy_back.hello(Some(&cy.token), None).await.unwrap();
    let refused = cy_back.recv_type("error", WAIT).await.unwrap();
    assert_eq!(
        (&refused["code"], &refused["detail"]["cause"]),
        (&"seat_freed".into(), &"away".into()),
        "{refused}"
    );
    server.shutdown().await;

    // A restart keeps it: Cy's token holds no seat, Dee's does.
    let server = tripoley_server::start(config).await.unwrap();
    let addr = server.addr();
    let info = client::table_info(addr, &t.invite).await.unwrap();
    assert_eq!(info.status, TableStatus::Playing);
    assert_eq!(info.seats[2].kind, SeatKind::Bot);
    assert_eq!(info.seats[1].name.as_deref(), Some("Dee"));
    let mut cy_back = Socket::connect(addr, &t.invite).await.unwrap();
    cy_back.hello(Some(&cy.token), None).await.unwrap();
    assert_eq!(
        cy_back.recv_type("error", WAIT).await.unwrap()["code"],
        "unauthorized"
    );
    let (_, welcome) = join(addr, &t.invite, Some(&dee.token), None).await;
    assert_eq!(welcome["seat"], 1);
    server.shutdown().await;
    common::remove_db(&db);
}

/// Issue 31, point 9: a stranger who sat in the lobby and keeps a socket
/// open is removed by the host (the seat opens, the socket closes, the token
/// holds nothing); once the game has started, someone here keeps the seat.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_31_9_the_host_removes_a_player_who_is_still_here_from_the_lobby() {
    let server = common::server().await;
    let addr = server.addr();
    let t = hosted(addr, true).await;
    let eve = client::sit(addr, &t.invite, Some(1), "Eve").await.unwrap();
    let cy = client::sit(addr, &t.invite, Some(2), "Cy").await.unwrap();
    let (mut host, _) = join(addr, &t.invite, Some(&t.host_token), None).await;
    let (mut eve_ws, _) = join(addr, &t.invite, Some(&eve.token), None).await;
    let (_cy_ws, _) = join(addr, &t.invite, Some(&cy.token), None).await;

    let removed = free(&mut host, 1, 1).await;
    assert_eq!(removed["type"], "ack", "{removed}");
    // Eve's socket is closed; her seat is open again.
    let end = tokio::time::Instant::now() + WAIT;
    while eve_ws.recv_timeout(WAIT).await.is_ok() {
        assert!(tokio::time::Instant::now() < end, "Eve's socket stays open");
    }
    let info = client::table_info(addr, &t.invite).await.unwrap();
    assert_eq!(
        (info.seats[1].kind, info.seats[1].connected),
        (SeatKind::Open, false)
    );
    let mut eve_back = Socket::connect(addr, &t.invite).await.unwrap();
    eve_back.hello(Some(&eve.token), None).await.unwrap();
    let refused = eve_back.recv_type("error", WAIT).await.unwrap();
    assert_eq!(
        (&refused["code"], &refused["detail"]["cause"]),
        (&"seat_freed".into(), &"removed".into()),
        "{refused}"
    );
    // During the game a player who is here keeps the seat.
    client::start_table(addr, &t.invite, &t.host_token)
        .await
        .unwrap();
    assert_eq!(free(&mut host, 2, 2).await["code"], "invalid");
    server.shutdown().await;
}

/// The invites on a page of the public list.
async fn listed(addr: SocketAddr, page: usize) -> Vec<String> {
    client::public_tables(addr, page)
        .await
        .unwrap()
        .tables
        .into_iter()
        .map(|t| t.invite)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_public_tables_waiting_for_players_are_listed() {
    let db = common::temp_db("public");
    let config = ServerConfig {
        db: db.clone().into(),
        ..ServerConfig::ephemeral()
    };
    let server = tripoley_server::start(config.clone()).await.unwrap();
    let addr = server.addr();
    let private = hosted(addr, false).await;
    let open = hosted(addr, true).await;
    let filled = hosted(addr, true).await;
    let started = hosted(addr, true).await;
    let house = client::create_table(
        addr,
        &CreateTable {
            preset: Some(Preset::MichiganCasino),
            seats: Some(4),
            starting_chips: Some(40),
            rules: Some(serde_json::from_str(r#"{"bet_limit": 3}"#).unwrap()),
            public: Some(true),
            ..CreateTable::default()
        },
    )
    .await
    .unwrap();
    for seat in [1, 2] {
        client::sit(addr, &filled.invite, Some(seat), &format!("Guest {seat}"))
            .await
            .unwrap();
    }
    client::start_table(addr, &started.invite, &started.host_token)
        .await
        .unwrap();
    let page = client::public_tables(addr, 0).await.unwrap();
    let invites: Vec<&str> = page.tables.iter().map(|t| t.invite.as_str()).collect();
    assert_eq!(
        invites,
        [house.invite.as_str(), open.invite.as_str()],
        "newest first"
    );
    assert!(!invites.contains(&private.invite.as_str()));
    let entry = &page.tables[0];
    assert_eq!(
        (entry.preset, entry.seats, entry.taken),
        (Some(Preset::MichiganCasino), 4, 0)
    );
    assert_eq!(entry.starting_chips, 40);
    assert_eq!(entry.house_rules.len(), 1);
    assert_eq!(entry.house_rules[0].rule, "bet_limit");
    assert_eq!(page.tables[1].taken, 1, "the host holds a seat");

    // The list is paged.
    let mut many = Vec::new();
    for _ in 0..PAGE_SIZE + 3 {
        many.push(hosted(addr, true).await.invite);
    }
    let first = listed(addr, 0).await;
    assert_eq!(first.len(), PAGE_SIZE);
    assert_eq!(first[0], *many.last().unwrap());
    let second = listed(addr, 1).await;
    assert_eq!(second.len(), 5);
    assert!(listed(addr, 1_000_000_000).await.is_empty());
    let (status, _) = client::request(addr, "GET", "/api/tables?page=-1", None)
        .await
        .unwrap();
    assert_eq!(status, 400);
    server.shutdown().await;

    // After a restart the public lobbies are listed again.
    let server = tripoley_server::start(config).await.unwrap();
    let again = client::public_tables(server.addr(), 0).await.unwrap();
    assert_eq!(again.total, PAGE_SIZE + 5);
    assert!(!again.tables.iter().any(|t| t.invite == private.invite));
    server.shutdown().await;
    common::remove_db(&db);
}
