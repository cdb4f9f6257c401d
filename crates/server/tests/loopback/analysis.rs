//! `GET /api/tables/{invite}/analysis`: a finished game's analysis, refused
//! before the end, cached, and bounded: a flood of requests gets "busy"
//! answers while a live table keeps answering at once.

use crate::common;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::{Duration, Instant};

use common::table_from;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpSocket;
use tripoley_loadtest::client;

/// `GET path` from the loopback address `from`: the status and the body.
async fn get(from: IpAddr, addr: SocketAddr, path: &str) -> (u16, Value) {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::new(from, 0)).unwrap();
    let mut stream = socket.connect(addr).await.expect("connects");
    let head = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(60), stream.read_to_end(&mut answer))
        .await
        .expect("an answer within a minute")
        .unwrap();
    let text = String::from_utf8_lossy(&answer);
    let (head, body) = text.split_once("\r\n\r\n").expect("an HTTP answer");
    let status = head[9..12].parse().unwrap();
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

/// A started one-deal table of three heuristic bots; its invite.
async fn bots_game(addr: SocketAddr) -> String {
    bots_table(addr).await.invite
}

/// A started one-deal table of three heuristic bots.
async fn bots_table(addr: SocketAddr) -> common::Table {
    let t = table_from(addr, &common::one_deal_of_bots(), &[]).await;
    client::start_table(addr, &t.invite, &t.host_token)
        .await
        .unwrap();
    t
}

/// The analysis at `path`, asked until the game is over (409 before).
async fn once_over(addr: SocketAddr, path: &str) -> Value {
    let start = Instant::now();
    loop {
        let (status, body) = get(HERE, addr, path).await;
        match status {
            200 => return body,
            409 => assert!(start.elapsed() < Duration::from_secs(30), "{body}"),
            _ => panic!("{status}: {body}"),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

const HERE: IpAddr = IpAddr::V4(Ipv4Addr::LOCALHOST);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_is_analysed_once_and_a_flood_does_not_slow_live_tables() {
    let server = common::server().await;
    let addr = server.addr();
    let (status, _) = get(HERE, addr, "/api/tables/abcdefghijkl/analysis").await;
    assert_eq!(status, 404);
    let invite = bots_game(addr).await;
    let path = format!("/api/tables/{invite}/analysis");
    // Refused while the game goes on; answered once it is over.
    let analysis = once_over(addr, &path).await;
    let decisions = analysis["decisions"].as_array().expect("decisions");
    assert!(decisions.len() > 10, "{analysis}");
    assert_eq!(analysis["finished"], true);
    // Cached: the same answer at once.
    let asked = Instant::now();
    assert_eq!(get(HERE, addr, &path).await, (200, analysis.clone()));
    assert!(asked.elapsed() < Duration::from_millis(500));

    // A flood of new analyses (another game, every seat) from a few
    // addresses, while a live table is asked about again and again.
    let other = bots_game(addr).await;
    let live = bots_game(addr).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let mut flood = Vec::new();
    for i in 0..24u8 {
        let from = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2 + i % 4));
        let seat = ["", "?seat=0", "?seat=1", "?seat=2"][usize::from(i % 4)];
        let path = format!("/api/tables/{other}/analysis{seat}");
        flood.push(tokio::spawn(async move { get(from, addr, &path).await.0 }));
    }
    let mut slowest = Duration::ZERO;
    for _ in 0..20 {
        let asked = Instant::now();
        client::table_info(addr, &live)
            .await
            .expect("the live table answers");
        slowest = slowest.max(asked.elapsed());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let mut statuses = Vec::new();
    for f in flood {
        statuses.push(f.await.unwrap());
    }
    assert!(
        statuses.contains(&503),
        "some refused as busy: {statuses:?}"
    );
    assert!(
        statuses.iter().all(|s| [200, 503].contains(s)),
        "{statuses:?}"
    );
    assert!(
        slowest < Duration::from_secs(1),
        "the live table took {slowest:?} during the flood"
    );
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_analysis_is_kept_with_the_game_and_a_restarted_server_answers_from_the_store() {
    let db = common::temp_db("analysis-kept");
    let config = tripoley_server::ServerConfig {
        db: db.clone().into(),
        ..tripoley_server::ServerConfig::ephemeral()
    };
    let server = tripoley_server::start(config.clone()).await.unwrap();
    let addr = server.addr();
    let table = bots_table(addr).await;
    let invite = table.invite;
    let path = format!("/api/tables/{invite}/analysis?seat=1");
    let analysis = once_over(addr, &path).await;
    let (_, shared) = common::http_from(
        HERE,
        addr,
        &format!("/api/tables/{invite}/share"),
        &[("Content-Type", "application/json")],
        &json!({"token": table.host_token}),
    )
    .await;
    let share = shared["share"].as_str().expect("a share id").to_owned();
    server.shutdown().await;
    // Kept with the game: marked here, so an answer from the store (and
    // not a new search) is told apart.
    let conn = rusqlite::Connection::open(&db).unwrap();
    let kept: String = conn
        .query_row(
            "SELECT body FROM analyses WHERE invite = ?1 AND seat = 1",
            [&invite],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(serde_json::from_str::<Value>(&kept).unwrap(), analysis);
    conn.execute(
        "UPDATE analyses SET body = '{\"kept\": true}' WHERE invite = ?1",
        [&invite],
    )
    .unwrap();
    drop(conn);
    let server = tripoley_server::start(config).await.unwrap();
    let addr = server.addr();
    let asked = Instant::now();
    assert_eq!(get(HERE, addr, &path).await, (200, json!({"kept": true})));
    assert!(asked.elapsed() < Duration::from_millis(500));
    // The same by the game's share link.
    let by_link = format!("/api/replays/{share}/analysis?seat=1");
    assert_eq!(
        get(HERE, addr, &by_link).await,
        (200, json!({"kept": true}))
    );
    server.shutdown().await;
    common::remove_db(&db);
}

/// `POST path` with a JSON body from the loopback address `from`.
async fn post(from: IpAddr, addr: SocketAddr, path: &str, body: &str) -> (u16, Value) {
    common::request_from(
        from,
        addr,
        "POST",
        path,
        &[("Content-Type", "application/json")],
        body,
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_uploaded_record_is_analysed_within_the_budgets_and_cached_by_its_hash() {
    let server = common::server().await;
    let addr = server.addr();
    let record = include_str!("../../../engine/tests/golden/pagat.json");
    let path = "/api/replays/analysis?seat=0";
    let (status, analysis) = post(HERE, addr, path, record).await;
    assert_eq!(status, 200, "{analysis}");
    let decisions = analysis["decisions"].as_array().expect("decisions");
    assert!(!decisions.is_empty(), "{analysis}");
    assert!(decisions.iter().all(|d| d["seat"] == 0), "{analysis}");
    assert_eq!(analysis["finished"], true);
    // The same game written otherwise (one line) is the same analysis,
    // from the cache at once.
    let one_line = serde_json::from_str::<Value>(record).unwrap().to_string();
    let asked = Instant::now();
    assert_eq!(post(HERE, addr, path, &one_line).await, (200, analysis));
    assert!(asked.elapsed() < Duration::from_millis(500));
    // Refused in words as an uploaded replay is; a seat not at the table.
    let (status, e) = post(HERE, addr, "/api/replays/analysis", "not json").await;
    assert_eq!(
        (status, &e["detail"]["problem"]),
        (400, &json!("not_a_record"))
    );
    let (status, e) = post(HERE, addr, "/api/replays/analysis?seat=7", record).await;
    assert_eq!(status, 400, "{e}");
    // One address waits for at most two analyses: a third is busy. Three
    // that are each searched (none cached, every seat at its table): a
    // refused seat, answered at once, once freed its slot for the others.
    let other = include_str!("../../../engine/tests/golden/tripoley.json");
    let flood: Vec<_> = [(1, record), (2, record), (1, other)]
        .into_iter()
        .map(|(seat, record)| {
            tokio::spawn(async move {
                let path = format!("/api/replays/analysis?seat={seat}");
                post(HERE, addr, &path, record).await.0
            })
        })
        .collect();
    let mut statuses = Vec::new();
    for f in flood {
        statuses.push(f.await.unwrap());
    }
    statuses.sort_unstable();
    assert!(statuses.contains(&503), "{statuses:?}");
    // Without the JSON type (a form of another site): refused unread.
    let (status, _) =
        common::request_from(HERE, addr, "POST", "/api/replays/analysis", &[], record).await;
    assert_eq!(status, 403);
    server.shutdown().await;
}
