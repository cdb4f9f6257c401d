//! Refusals: a wrong token, a wrong seat, out of turn, a spectator acting,
//! an illegal action, oversized, malformed and binary frames, a flood, a bad
//! Origin. Each gets an error reply and changes nothing.

use crate::common;

use std::time::Duration;

use common::{WAIT, join, table};
use serde_json::{Value, json};
use tripoley_cards::Suit;
use tripoley_engine::{Action, Decision, Preset};
use tripoley_loadtest::client::{self, Socket};
use tripoley_server::ServerConfig;
use tripoley_server::protocol::ClientMsg;

/// Reads a spectator's messages until someone must decide: the event
/// number and the seat.
async fn until_turn(sock: &mut Socket) -> (u64, u8) {
    loop {
        let msg = sock.recv_timeout(WAIT).await.unwrap();
        if let Some(v) = client::view_of(&msg)
            && let Some(seat) = v.to_act
        {
            return (msg["n"].as_u64().unwrap(), seat);
        }
    }
}

/// Reads until the view at event `n`.
async fn view_at(sock: &mut Socket, n: u64) -> tripoley_engine::View {
    loop {
        let msg = sock.recv_timeout(WAIT).await.unwrap();
        if msg["n"].as_u64() == Some(n)
            && let Some(v) = client::view_of(&msg)
        {
            return v;
        }
    }
}

/// The next `error` reply, skipping other messages.
async fn error(sock: &mut Socket) -> Value {
    sock.recv_type("error", WAIT).await.expect("an error reply")
}

fn act(action: Action, seat: Option<u8>) -> ClientMsg {
    ClientMsg::Act {
        action,
        id: Some(7),
        seat,
        n: None,
    }
}

/// An action that answers no decision of this shape.
fn illegal_for(decision: &Decision) -> Action {
    match decision {
        Decision::NamePaySuit => Action::Bid(u32::MAX),
        _ => Action::NameSuit(Suit::Hearts),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[allow(clippy::too_many_lines, clippy::many_single_char_names)] // one scenario
async fn refused_messages_get_an_error_and_change_nothing() {
    let server = common::server().await;
    let addr = server.addr();
    let t = table(addr, Preset::Pagat, 2, &[0, 1], 0).await;
    // A wrong token is refused, and the socket is closed: it cannot act.
    let mut intruder = Socket::connect(addr, &t.invite).await.unwrap();
    intruder
        .hello(Some("00000000000000000000000000000000"), None)
        .await
        .unwrap();
    assert_eq!(error(&mut intruder).await["code"], "unauthorized");
    let _ = intruder.send(&act(Action::Check, Some(0))).await;
    assert!(matches!(
        intruder.recv_timeout(WAIT).await,
        Err(client::ClientError::Closed)
    ));
    // Only the host starts.
    let (mut a, _) = join(addr, &t.invite, Some(&t.tokens[0].1), None).await;
    let (mut b, _) = join(addr, &t.invite, Some(&t.tokens[1].1), None).await;
    b.send(&ClientMsg::Start { id: Some(1) }).await.unwrap();
    assert_eq!(error(&mut b).await["code"], "unauthorized");
    let refused = client::start_table(addr, &t.invite, &t.tokens[1].1).await;
    assert!(refused.is_err());
    // Acting before the start.
    a.send(&act(Action::Check, None)).await.unwrap();
    assert_eq!(error(&mut a).await["code"], "not_started");
    client::start_table(addr, &t.invite, &t.host_token)
        .await
        .unwrap();
    assert!(client::sit(addr, &t.invite, None, "Late").await.is_err());
    let (mut watcher, _) = join(addr, &t.invite, None, None).await;

    // Find who must decide; the game now waits for them (no turn timer).
    let (n, turn) = until_turn(&mut watcher).await;
    let va = view_at(&mut a, n).await;
    let vb = view_at(&mut b, n).await;
    let (mover, waiter, view, mover_seat, waiter_seat) = if turn == 0 {
        (&mut a, &mut b, va, 0u8, 1u8)
    } else {
        (&mut b, &mut a, vb, 1u8, 0u8)
    };
    let decision = view.decision.expect("someone decides");
    let steps = server.record(&t.invite).await.unwrap().steps.len();

    waiter
        .send(&act(illegal_for(&decision), None))
        .await
        .unwrap();
    assert_eq!(error(waiter).await["code"], "not_your_turn");
    let legal = decision.actions()[0];
    waiter.send(&act(legal, None)).await.unwrap();
    assert_eq!(error(waiter).await["code"], "not_your_turn");
    mover.send(&act(legal, Some(waiter_seat))).await.unwrap();
    let e = error(mover).await;
    assert_eq!(e["code"], "wrong_seat");
    assert_eq!(e["id"], 7);
    assert_eq!(e["n"], n);
    mover
        .send(&act(illegal_for(&decision), Some(mover_seat)))
        .await
        .unwrap();
    assert_eq!(error(mover).await["code"], "illegal");
    mover
        .send(&ClientMsg::Act {
            action: legal,
            id: None,
            seat: None,
            n: Some(n + 5),
        })
        .await
        .unwrap();
    assert_eq!(error(mover).await["code"], "stale");
    watcher.send(&act(legal, Some(mover_seat))).await.unwrap();
    assert_eq!(error(&mut watcher).await["code"], "unauthorized");
    watcher.send(&act(legal, None)).await.unwrap();
    assert_eq!(error(&mut watcher).await["code"], "unauthorized");

    // Malformed, unknown, oversized and binary frames; a second hello; an
    // unknown protocol version.
    for (text, code) in [
        ("{not json", "bad_message"),
        (r#"{"type":"act","action":"teleport"}"#, "bad_message"),
        (
            r#"{"type":"act","action":"check","seat":0,"cards":["AS"]}"#,
            "bad_message",
        ),
        (r#"{"type":"overwrite_state","state":{}}"#, "bad_message"),
        (r#"{"type":"hello","v":1}"#, "bad_message"),
    ] {
        mover.send_text(text).await.unwrap();
        assert_eq!(error(mover).await["code"], code, "{text}");
    }
    let big = json!({"type": "ping", "pad": "x".repeat(6000)}).to_string();
    mover.send_text(&big).await.unwrap();
    assert_eq!(error(mover).await["code"], "too_large");
    let mut other = Socket::connect(addr, &t.invite).await.unwrap();
    other.send_text(r#"{"type":"hello","v":99}"#).await.unwrap();
    assert_eq!(error(&mut other).await["code"], "version");

    // Nothing changed: same event number, same record, same decision.
    let steps_after = server.record(&t.invite).await.unwrap().steps.len();
    assert_eq!(steps, steps_after);
    mover.send(&ClientMsg::Ping { id: Some(1) }).await.unwrap();
    let pong = mover.recv_type("pong", WAIT).await.unwrap();
    assert_eq!(pong["n"], n);

    // The legal move still works afterwards.
    mover
        .send(&ClientMsg::Act {
            action: legal,
            id: Some(99),
            seat: Some(mover_seat),
            n: Some(n),
        })
        .await
        .unwrap();
    let ack = mover.recv_type("ack", WAIT).await.unwrap();
    assert_eq!(ack["id"], 99);
    assert!(ack["n"].as_u64().unwrap() > n);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_is_rate_limited_and_changes_nothing() {
    let server = tripoley_server::start(ServerConfig {
        rate_burst: 10,
        rate_per_second: 5,
        ..ServerConfig::ephemeral()
    })
    .await
    .unwrap();
    let addr = server.addr();
    let t = table(addr, Preset::Tripoley, 2, &[0, 1], 0).await;
    let (mut a, _) = join(addr, &t.invite, Some(&t.tokens[0].1), None).await;
    let (_b, _) = join(addr, &t.invite, Some(&t.tokens[1].1), None).await;
    client::start_table(addr, &t.invite, &t.host_token)
        .await
        .unwrap();
    let (mut watcher, _) = join(addr, &t.invite, None, None).await;
    let (n, _) = until_turn(&mut watcher).await;
    view_at(&mut a, n).await;
    let steps = server.record(&t.invite).await.unwrap().steps.len();
    for _ in 0..100 {
        a.send(&act(Action::Fold, Some(0))).await.unwrap();
    }
    let mut limited = 0;
    let mut others = 0;
    while let Ok(msg) = a.recv_timeout(Duration::from_millis(500)).await {
        if msg["type"] == "error" {
            if msg["code"] == "rate_limited" {
                limited += 1;
            } else {
                others += 1;
            }
            assert_eq!(msg["n"], n, "nothing moved");
        }
    }
    assert!(limited >= 80, "{limited} rate-limited replies");
    assert_eq!(limited + others, 100, "every message got a reply");
    assert_eq!(server.record(&t.invite).await.unwrap().steps.len(), steps);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_websocket_from_another_origin_is_refused() {
    let server = common::server().await;
    let addr = server.addr();
    let t = table(addr, Preset::Pagat, 2, &[], 0).await;
    let refused = Socket::connect_with_origin(addr, &t.invite, Some("http://evil.example")).await;
    assert!(refused.is_err());
    let own = format!("http://{addr}");
    assert!(
        Socket::connect_with_origin(addr, &t.invite, Some(&own))
            .await
            .is_ok()
    );
    assert!(Socket::connect(addr, "nosuchtable").await.is_err());
    server.shutdown().await;
}
