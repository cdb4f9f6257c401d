//! A client that stops reading never holds a table up: once its outbox is
//! full it is disconnected (it resumes by reconnecting), and everyone else
//! goes on receiving every step.

use crate::common;

use common::{WAIT, join};
use tripoley_bots::BotKind;
use tripoley_engine::Preset;
use tripoley_loadtest::client::{self, ClientError, Socket};
use tripoley_server::ServerConfig;
use tripoley_server::protocol::CreateTable;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_who_stops_reading_is_dropped_and_the_game_goes_on() {
    let server = tripoley_server::start(ServerConfig {
        outbox: 4,
        ..ServerConfig::ephemeral()
    })
    .await
    .unwrap();
    let addr = server.addr();
    // A long game of bots only: about 10 MB of frames to each spectator,
    // more than the socket buffers between the server and a client that
    // does not read can hold (the server's send buffer grows to 4 MiB at
    // most here; the lazy client's receive buffer is fixed at 16 KiB).
    let created = client::create_table(
        addr,
        &CreateTable {
            preset: Some(Preset::MichiganCasino),
            seats: Some(4),
            deals: Some(300),
            // Deep stacks: nobody goes out, so all 300 deals are played.
            starting_chips: Some(5000),
            bot: Some(BotKind::Heuristic),
            ..CreateTable::default()
        },
    )
    .await
    .unwrap();
    let mut lazy = Socket::connect_with_receive_buffer(addr, &created.invite, 16 * 1024)
        .await
        .unwrap();
    lazy.hello(None, None).await.unwrap();
    lazy.recv_type("welcome", WAIT).await.unwrap();
    let (mut watcher, _) = join(addr, &created.invite, None, None).await;
    client::start_table(addr, &created.invite, &created.host_token)
        .await
        .unwrap();
    let mut steps = 0;
    loop {
        let msg = watcher.recv_timeout(WAIT).await.unwrap();
        if msg["type"] == "update" {
            steps += 1;
        }
        if client::view_of(&msg).is_some_and(|v| v.standings.is_some()) {
            break;
        }
    }
    let info = client::table_info(addr, &created.invite).await.unwrap();
    assert_eq!(
        info.spectators, 1,
        "the spectator who did not read was let go"
    );
    // What the lazy spectator still finds in its socket ends with the close.
    let mut got = 0;
    let closed = loop {
        match lazy.recv_timeout(WAIT).await {
            Ok(_) => got += 1,
            Err(e) => break e,
        }
    };
    assert!(matches!(closed, ClientError::Closed), "{closed}");
    assert!(
        got < steps,
        "it got {got} of {steps} frames before being dropped"
    );
    server.shutdown().await;
}
