//! The hint: the expert bot's move, for a seated player on their own turn.

use crate::common;

use common::{WAIT, join, table};
use tripoley_engine::{Action, Preset};
use tripoley_loadtest::client::{self, Socket};
use tripoley_server::protocol::ClientMsg;

/// Reads until this socket's own decision; returns its view.
async fn my_turn(sock: &mut Socket) -> tripoley_engine::View {
    loop {
        let msg = sock.recv_timeout(WAIT).await.unwrap();
        if let Some(v) = client::view_of(&msg)
            && v.decision.is_some()
        {
            return v;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_is_a_legal_move_for_the_asker_only() {
    let server = common::server().await;
    let addr = server.addr();
    let t = table(addr, Preset::Tripoley, 3, &[0], 0).await;
    let (mut me, _) = join(addr, &t.invite, Some(&t.tokens[0].1), None).await;
    let (mut watcher, _) = join(addr, &t.invite, None, None).await;
    // Before the start: no hint.
    me.send(&ClientMsg::Hint { id: Some(1) }).await.unwrap();
    let e = me.recv_type("error", WAIT).await.unwrap();
    assert_eq!(e["code"], "not_started");
    client::start_table(addr, &t.invite, &t.host_token)
        .await
        .unwrap();
    let view = my_turn(&mut me).await;
    let decision = view.decision.unwrap();
    me.send(&ClientMsg::Hint { id: Some(2) }).await.unwrap();
    let hint = me.recv_type("hint", WAIT).await.unwrap();
    assert_eq!(hint["id"], 2);
    let action: Action = serde_json::from_value(hint["action"].clone()).unwrap();
    assert!(
        decision.check(action).is_ok(),
        "{action:?} answers {decision:?}"
    );
    // The same position gets the same hint.
    me.send(&ClientMsg::Hint { id: Some(3) }).await.unwrap();
    let again = me.recv_type("hint", WAIT).await.unwrap();
    assert_eq!(again["action"], hint["action"]);
    // A spectator gets none.
    watcher
        .send(&ClientMsg::Hint { id: Some(4) })
        .await
        .unwrap();
    let e = watcher.recv_type("error", WAIT).await.unwrap();
    assert!(e["code"] == "unauthorized", "{e}");
    server.shutdown().await;
}

/// Issue 31, finding 5: with a million chips in every stack, the expert's
/// playouts run long betting rounds, yet every hint answers within the
/// server's hint time (a few tenths of a second), not after seconds.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_is_bounded_by_time_not_by_the_stacks() {
    let server = common::server().await;
    let addr = server.addr();
    let request = tripoley_server::protocol::CreateTable {
        preset: Some(Preset::Pagat),
        seats: Some(4),
        turn_seconds: Some(0),
        starting_chips: Some(1_000_000),
        bot: Some(tripoley_bots::BotKind::Heuristic),
        ..Default::default()
    };
    let t = common::table_from(addr, &request, &[0]).await;
    let (mut me, _) = join(addr, &t.invite, Some(&t.tokens[0].1), None).await;
    client::start_table(addr, &t.invite, &t.host_token)
        .await
        .unwrap();
    let mut slowest = std::time::Duration::ZERO;
    for id in 0..12 {
        let (n, view) = common::until_decision(&mut me).await;
        if view.decision.is_none() {
            break;
        }
        let asked = std::time::Instant::now();
        me.send(&ClientMsg::Hint { id: Some(id) }).await.unwrap();
        let hint = me.recv_type("hint", WAIT).await.unwrap();
        slowest = slowest.max(asked.elapsed());
        let action: Action = serde_json::from_value(hint["action"].clone()).unwrap();
        me.send(&ClientMsg::Act {
            action,
            id: None,
            seat: None,
            n: Some(n),
        })
        .await
        .unwrap();
    }
    eprintln!("the slowest hint took {slowest:?}");
    assert!(
        slowest < std::time::Duration::from_secs(1),
        "a hint took {slowest:?}"
    );
    server.shutdown().await;
}
