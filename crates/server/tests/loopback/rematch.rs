//! Rematch: the players of a finished table ask for the next game and all
//! land at one new table, in their seats, with the tokens they hold.

use crate::common;

use common::join;
use serde_json::json;
use tripoley_engine::Preset;
use tripoley_loadtest::client;
use tripoley_server::protocol::{SeatKind, TableStatus};

async fn rematch(
    addr: std::net::SocketAddr,
    invite: &str,
    token: &str,
) -> (u16, serde_json::Value) {
    client::request(
        addr,
        "POST",
        &format!("/api/tables/{invite}/rematch"),
        Some(&json!({ "token": token })),
    )
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_of_a_finished_table_get_one_rematch_with_their_seats() {
    let server = common::server().await;
    let addr = server.addr();
    let t = common::table(addr, Preset::Cosmo, 3, &[1, 2], 0).await;
    let (_, early) = rematch(addr, &t.invite, &t.host_token).await;
    assert_eq!(
        early["code"], "already_started",
        "no rematch before the game is over: {early}"
    );
    client::start_table(addr, &t.invite, &t.host_token)
        .await
        .unwrap();
    common::play_to_the_end(addr, &t, Preset::Cosmo).await;

    // A stranger gets nothing; a bad body is refused.
    let (status, _) = rematch(addr, &t.invite, "00000000000000000000000000000000").await;
    assert_eq!(status, 403);
    let (status, _) = client::request(
        addr,
        "POST",
        &format!("/api/tables/{}/rematch", t.invite),
        Some(&json!({"seat": 1})),
    )
    .await
    .unwrap();
    assert_eq!(status, 400);

    // Both players (in either order) and the host get the same new table.
    let (status, first) = rematch(addr, &t.invite, &t.tokens[1].1).await;
    assert_eq!(status, 200, "{first}");
    let next = first["invite"].as_str().unwrap().to_owned();
    assert_ne!(next, t.invite);
    assert_eq!(first["path"], format!("/t/{next}"));
    for token in [&t.tokens[0].1, &t.host_token] {
        let (status, again) = rematch(addr, &t.invite, token).await;
        assert_eq!(status, 200);
        assert_eq!(again["invite"], next.as_str());
    }
    let info = client::table_info(addr, &next).await.unwrap();
    assert_eq!(info.status, TableStatus::Lobby);
    assert_eq!(
        info.settings,
        client::table_info(addr, &t.invite).await.unwrap().settings
    );
    let kinds: Vec<_> = info
        .seats
        .iter()
        .map(|s| (s.kind, s.name.clone()))
        .collect();
    assert_eq!(
        kinds,
        [
            (SeatKind::Open, None),
            (SeatKind::Human, Some("Human 1".to_owned())),
            (SeatKind::Human, Some("Human 2".to_owned())),
        ]
    );
    // The old tokens play their seats, and the host's starts the game.
    let (_, welcome) = join(addr, &next, Some(&t.tokens[0].1), None).await;
    assert_eq!(welcome["role"], "player");
    assert_eq!(welcome["seat"], 1);
    client::start_table(addr, &next, &t.host_token)
        .await
        .unwrap();
    server.shutdown().await;
}
