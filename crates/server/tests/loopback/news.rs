//! What reaches every screen live without a move of the game (issue 26,
//! point 7): an away player's grace time running out, and a rematch.

use crate::common;

use std::time::Duration;

use common::{WAIT, join};
use serde_json::json;
use tripoley_engine::Preset;
use tripoley_loadtest::client::{self, Socket};
use tripoley_server::ServerConfig;
use tripoley_server::protocol::CreateTable;

/// Reads until a `table` message for which `test` holds.
async fn until_table(sock: &mut Socket, test: impl Fn(&serde_json::Value) -> bool) {
    loop {
        let m = sock.recv_timeout(WAIT).await.expect("a table message");
        if m["type"] == "table" && test(&m["table"]) {
            return;
        }
    }
}

/// Bob leaves mid-game while the host, whose turn it may be, does nothing:
/// when Bob's grace time ends, the host is told at once that a bot plays
/// for him (the "free this seat" control depends on it).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_end_of_an_away_players_grace_reaches_everyone_live() {
    let config = ServerConfig {
        grace: Duration::from_millis(500),
        ..ServerConfig::ephemeral()
    };
    let server = tripoley_server::start(config).await.unwrap();
    let addr = server.addr();
    let created = client::create_table(
        addr,
        &CreateTable {
            seats: Some(3),
            turn_seconds: Some(0),
            host_name: Some("Ann".into()),
            ..CreateTable::default()
        },
    )
    .await
    .unwrap();
    let invite = created.invite;
    let bob = client::sit(addr, &invite, Some(1), "Bob").await.unwrap();
    let (mut ann, _) = join(addr, &invite, Some(&created.host_token), None).await;
    let (bob_ws, _) = join(addr, &invite, Some(&bob.token), None).await;
    client::start_table(addr, &invite, &created.host_token)
        .await
        .unwrap();
    bob_ws.close().await;
    until_table(&mut ann, |t| t["seats"][1]["connected"] == false).await;
    until_table(&mut ann, |t| t["seats"][1]["bot_playing"] == true).await;
    server.shutdown().await;
}

/// Ann asks for a rematch: Bob, still at the finished table, is told where
/// the next game is and who started it; so is whoever comes later.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_is_announced_at_the_finished_table() {
    let server = common::server().await;
    let addr = server.addr();
    let t = common::table(addr, Preset::Cosmo, 3, &[1, 2], 0).await;
    let (mut watcher, _) = join(addr, &t.invite, None, None).await;
    client::start_table(addr, &t.invite, &t.host_token)
        .await
        .unwrap();
    let mut players = common::play_to_the_end(addr, &t, Preset::Cosmo).await;
    let (status, made) = client::request(
        addr,
        "POST",
        &format!("/api/tables/{}/rematch", t.invite),
        Some(&json!({ "token": t.tokens[0].1 })),
    )
    .await
    .unwrap();
    assert_eq!(status, 200, "{made}");
    for sock in players.iter_mut().chain([&mut watcher]) {
        let news = sock.recv_type("rematch", WAIT).await.unwrap();
        assert_eq!(news["invite"], made["invite"]);
        assert_eq!(news["path"], made["path"]);
        assert_eq!(news["by"], "Human 1");
    }
    let mut late = Socket::connect(addr, &t.invite).await.unwrap();
    late.hello(None, None).await.unwrap();
    let news = late.recv_type("rematch", WAIT).await.unwrap();
    assert_eq!(news["invite"], made["invite"]);
    server.shutdown().await;
}

/// Issue 26, point 14: a refusal reaches a client as a code and a detail
/// it can word in its player's language, never as a parser's text.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_are_codes_with_details_never_parser_text() {
    let server = common::server().await;
    let addr = server.addr();
    let create = |body: serde_json::Value| async move {
        client::request(addr, "POST", "/api/tables", Some(&body))
            .await
            .unwrap()
    };
    let parser_words = ["expected", "unknown field", "invalid type", "line ", "`"];
    let no_parser_text = |e: &serde_json::Value| {
        let m = e["message"].as_str().unwrap();
        for w in parser_words {
            assert!(!m.contains(w), "parser text in {e}");
        }
    };
    for (body, detail) in [
        (
            json!({"rules": {"ante": "lots"}}),
            json!({"reason": "house_rule", "field": "ante"}),
        ),
        (
            json!({"rules": {"ante": 1, "no_such_rule": true}}),
            json!({"reason": "house_rule", "field": "no_such_rule"}),
        ),
        (
            json!({"seats": 12}),
            json!({"reason": "seats", "min": 2, "max": 9}),
        ),
        (
            json!({"starting_chips": 0}),
            json!({"reason": "starting_chips", "max": 1_000_000}),
        ),
        (
            json!({"turn_seconds": 5000}),
            json!({"reason": "turn_seconds", "max": 3600}),
        ),
        (
            json!({"tokens_to_win": 3}),
            json!({"reason": "other_game", "field": "tokens_to_win"}),
        ),
        (
            json!({"host_name": "A".repeat(25)}),
            json!({"reason": "name", "problem": "too_long"}),
        ),
        (
            json!({"host_name": "Ann (tú)"}),
            json!({"reason": "name", "problem": "you"}),
        ),
        (
            json!({"host_name": "\u{200B}"}),
            json!({"reason": "name", "problem": "invisible"}),
        ),
    ] {
        let (status, e) = create(body.clone()).await;
        assert_eq!(status, 400, "{body}: {e}");
        assert_eq!(e["code"], "invalid", "{body}: {e}");
        assert_eq!(e["detail"], detail, "{body}: {e}");
        no_parser_text(&e);
    }
    let (status, e) = create(json!({"seats": "four"})).await;
    assert_eq!((status, e["code"].as_str()), (400, Some("bad_message")));
    no_parser_text(&e);
    let t = common::table(addr, Preset::Pagat, 3, &[0], 0).await;
    let (mut me, _) = join(addr, &t.invite, Some(&t.tokens[0].1), None).await;
    me.send_text(r#"{"type":"act","action":{"bid":"ten"}}"#)
        .await
        .unwrap();
    let e = me.recv_type("error", WAIT).await.unwrap();
    assert_eq!(e["code"], "bad_message");
    no_parser_text(&e);
    // A chat line and a seat to free: refused with what a client words.
    me.send_text(r#"{"type":"chat","text":"one\ntwo","id":7}"#)
        .await
        .unwrap();
    let e = me.recv_type("error", WAIT).await.unwrap();
    assert_eq!(e["detail"], json!({"reason": "chat", "problem": "control"}));
    let (mut host, _) = join(addr, &t.invite, Some(&t.host_token), None).await;
    host.send_text(r#"{"type":"free_seat","seat":9,"id":8}"#)
        .await
        .unwrap();
    let e = host.recv_type("error", WAIT).await.unwrap();
    assert_eq!(
        e["detail"],
        json!({"reason": "free_seat", "problem": "no_such_seat"})
    );
    server.shutdown().await;
}
