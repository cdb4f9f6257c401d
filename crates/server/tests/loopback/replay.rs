//! `GET /api/tables/{invite}/replay`: a finished game's frames, refused
//! before the end, equal to what the live table sent, and one seat's frames
//! holding only what that seat saw; the same by a share link; bounded per
//! address; and a record file uploaded, or refused in words.

use crate::common;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::{Duration, Instant};

use common::{http_from, request_from, table_from};
use serde_json::{Value, json};
use tripoley_loadtest::client::{self, Socket};
use tripoley_server::protocol::{CreateTable, GameKind};

async fn get(addr: SocketAddr, path: &str) -> (u16, Value) {
    client::request(addr, "GET", path, None).await.unwrap()
}

/// Every `update` a spectator is sent until the game is over.
async fn watch(sock: &mut Socket) -> Vec<Value> {
    let mut seen = Vec::new();
    loop {
        let m = sock.recv_type("update", common::WAIT).await.unwrap();
        let over = !m["view"]["standings"].is_null();
        seen.push(m);
        if over {
            return seen;
        }
    }
}

/// The replay at `path`, asked until the game is stored as finished
/// (409 before: a moment after its last frame), within `within`.
async fn once_over(addr: SocketAddr, path: &str, within: Duration) -> Value {
    let start = Instant::now();
    loop {
        let (status, body) = get(addr, path).await;
        match status {
            200 => return body,
            409 => assert!(start.elapsed() < within, "{body}"),
            _ => panic!("{status}: {body}"),
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn frames(replay: &Value) -> &Vec<Value> {
    replay["frames"].as_array().expect("frames")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_replays_as_the_live_table_sent_it() {
    let server = common::server().await;
    let addr = server.addr();
    assert_eq!(get(addr, "/api/tables/abcdefghijkl/replay").await.0, 404);
    let t = table_from(addr, &common::one_deal_of_bots(), &[]).await;
    let path = format!("/api/tables/{}/replay", t.invite);
    // Not before the game has ended: it would show every hand.
    assert_eq!(get(addr, &path).await.0, 409);
    let mut spectator = Socket::connect(addr, &t.invite).await.unwrap();
    spectator.hello(None, None).await.unwrap();
    spectator.recv_type("welcome", common::WAIT).await.unwrap();
    client::start_table(addr, &t.invite, &t.host_token)
        .await
        .unwrap();
    let live = watch(&mut spectator).await;
    assert!(live.len() > 10, "a whole deal: {}", live.len());
    let all = once_over(addr, &path, Duration::from_secs(10)).await;
    assert_eq!(all["type"], "replay");
    let every = frames(&all);
    let last = every.last().unwrap();
    assert_eq!(last["n"], live.last().unwrap()["n"]);
    assert!(!last["view"]["standings"].is_null());
    // Each frame names the record's step that made it (the analysis's
    // `step`), in order; the deal's start none.
    assert!(every[0]["step"].is_null());
    let steps: Vec<u64> = every[1..]
        .iter()
        .map(|f| f["step"].as_u64().unwrap())
        .collect();
    assert!(steps.windows(2).all(|w| w[0] <= w[1]), "{steps:?}");
    // Each live frame is the replay's frame of the same number: the same
    // events and board; the replay's hands are all face up.
    for sent in &live {
        let n = sent["n"].as_u64().unwrap() as usize;
        let again = &every[n];
        assert_eq!(again["n"], sent["n"]);
        assert_eq!(again["events"], sent["events"], "frame {n}");
        let (a, b) = (&again["view"], &sent["view"]);
        for field in [
            "stage",
            "stacks",
            "layout",
            "deal_number",
            "hand_sizes",
            "played",
            "to_act",
        ] {
            assert_eq!(a[field], b[field], "frame {n}: {field}");
        }
        for (known, size) in a["known_cards"]
            .as_array()
            .unwrap()
            .iter()
            .zip(a["hand_sizes"].as_array().unwrap())
        {
            assert_eq!(
                known.as_array().unwrap().len() as u64,
                size.as_u64().unwrap(),
                "frame {n}"
            );
        }
    }
    // Seat 0's frames: its own hand (the one face up in the full replay),
    // and nothing of the others' hands at the deal.
    let (status, mine) = get(addr, &format!("{path}?seat=0")).await;
    assert_eq!(status, 200, "{mine}");
    assert_eq!(frames(&mine).len(), every.len());
    for (f, g) in frames(&mine).iter().zip(every) {
        assert_eq!(f["view"]["seat"], 0);
        assert_eq!(f["view"]["hand"], g["view"]["known_cards"][0]);
    }
    let dealt = &frames(&mine)[0]["view"];
    assert_eq!(dealt["known_cards"][1], Value::Array(Vec::new()));
    assert_eq!(dealt["known_cards"][2], Value::Array(Vec::new()));
    // A seat that is not at the table, or not a seat at all: refused.
    assert_eq!(get(addr, &format!("{path}?seat=3")).await.0, 400);
    assert_eq!(get(addr, &format!("{path}?seat=x")).await.0, 400);
}

/// `GET /api/tables/{invite}/record` and `/api/replays/{share}/record`: the
/// finished game's record ("Try it yourself" plays on from it), refused
/// before the end like the replay; it replays to the game's end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_gives_its_record_by_its_invite_and_its_link_and_none_before() {
    let server = common::server().await;
    let addr = server.addr();
    assert_eq!(get(addr, "/api/tables/abcdefghijkl/record").await.0, 404);
    assert_eq!(
        get(addr, &format!("/api/replays/{}/record", "0".repeat(32)))
            .await
            .0,
        404
    );
    let t = table_from(addr, &common::one_deal_of_bots(), &[]).await;
    let path = format!("/api/tables/{}/record", t.invite);
    assert_eq!(get(addr, &path).await.0, 409, "not before the end");
    client::start_table(addr, &t.invite, &t.host_token)
        .await
        .unwrap();
    once_over(
        addr,
        &format!("/api/tables/{}/replay", t.invite),
        Duration::from_secs(30),
    )
    .await;
    let (status, record) = get(addr, &path).await;
    assert_eq!(status, 200, "{record}");
    let read = tripoley_engine::Record::from_json(&record.to_string()).expect("a record");
    let (game, _) = read.replay().expect("it replays");
    assert!(matches!(game.pending(), tripoley_engine::Pending::GameOver));
    assert_eq!(read.names.len(), 3);
    let (status, share) = http_from(
        HERE,
        addr,
        &format!("/api/tables/{}/share", t.invite),
        &JSON,
        &json!({"token": t.host_token}),
    )
    .await;
    assert_eq!(status, 200, "{share}");
    let by_link = get(
        addr,
        &format!("/api/replays/{}/record", share["share"].as_str().unwrap()),
    )
    .await;
    assert_eq!(by_link, (200, record));
}

const HERE: IpAddr = IpAddr::V4(Ipv4Addr::LOCALHOST);
const JSON: [(&str, &str); 1] = [("Content-Type", "application/json")];

/// A started one-deal table of three bots, waited for until it is over.
async fn finished_game(addr: SocketAddr) -> common::Table {
    let t = table_from(addr, &common::one_deal_of_bots(), &[]).await;
    client::start_table(addr, &t.invite, &t.host_token)
        .await
        .unwrap();
    let path = format!("/api/tables/{}/replay", t.invite);
    once_over(addr, &path, Duration::from_secs(30)).await;
    t
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_is_shared_by_a_link_that_is_neither_its_invite_nor_a_token_made_by_a_player_or_the_host()
 {
    let server = common::server().await;
    let addr = server.addr();
    // Not before the end: the link would show every hand.
    let early = table_from(addr, &common::one_deal_of_bots(), &[]).await;
    let share_path = |invite: &str| format!("/api/tables/{invite}/share");
    let host = |t: &common::Table| json!({"token": t.host_token});
    let (status, _) = http_from(HERE, addr, &share_path(&early.invite), &JSON, &host(&early)).await;
    assert_eq!(status, 409);
    let t = finished_game(addr).await;
    // Only a player or the host makes the link; anyone with the invite
    // (a spectator) gets it once it is made, to keep in My games.
    let p = share_path(&t.invite);
    assert_eq!(get(addr, &p).await.0, 404, "no link yet");
    for stranger in [json!({}), json!({"token": "x".repeat(32)})] {
        let (status, e) = http_from(HERE, addr, &p, &JSON, &stranger).await;
        assert_eq!(
            status,
            if stranger["token"].is_null() {
                400
            } else {
                403
            },
            "{e}"
        );
    }
    assert_eq!(get(addr, &p).await.0, 404, "still none");
    let (status, shared) = http_from(HERE, addr, &p, &JSON, &host(&t)).await;
    assert_eq!(status, 200, "{shared}");
    assert_eq!(get(addr, &p).await, (200, shared.clone()));
    let share = shared["share"].as_str().unwrap().to_owned();
    assert_eq!(shared["path"], format!("/replay/{share}"));
    assert_eq!(share.len(), 32);
    assert!(!share.contains(&t.invite) && share != t.host_token);
    // The same link at every ask; a page of another site may not ask.
    let (_, again) = http_from(HERE, addr, &p, &JSON, &host(&t)).await;
    assert_eq!(again["share"], share.as_str());
    let foreign = [JSON[0], ("Origin", "https://elsewhere.example")];
    let (status, _) = http_from(HERE, addr, &p, &foreign, &host(&t)).await;
    assert_eq!(status, 403);
    // Anyone with the link sees the game face up, as the table's own
    // replay shows it, and the page opens at the link.
    let (status, by_link) = get(addr, &format!("/api/replays/{share}")).await;
    assert_eq!(status, 200, "{by_link}");
    let (_, by_invite) = get(addr, &format!("/api/tables/{}/replay", t.invite)).await;
    assert_eq!(frames(&by_link), frames(&by_invite));
    assert_eq!(by_link["share"], share.as_str());
    assert_eq!(by_link["names"].as_array().unwrap().len(), 3);
    let (status, seat1) = get(addr, &format!("/api/replays/{share}?seat=1")).await;
    assert_eq!(status, 200);
    assert_eq!(seat1["seat"], 1);
    let page = request_from(HERE, addr, "GET", &format!("/replay/{share}"), &[], "").await;
    assert_eq!(page.0, 200);
    // A link that was never made, or not a link at all: nothing.
    let mut wrong = share.clone().into_bytes();
    wrong[0] = if wrong[0] == b'a' { b'b' } else { b'a' };
    let wrong = String::from_utf8(wrong).unwrap();
    for bad in [wrong.as_str(), t.invite.as_str(), "..", "x"] {
        assert_eq!(
            get(addr, &format!("/api/replays/{bad}")).await.0,
            404,
            "{bad}"
        );
    }
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_replays_from_one_address_is_refused_as_busy_and_others_are_served() {
    let server = common::server().await;
    let addr = server.addr();
    let t = finished_game(addr).await;
    let path = format!("/api/tables/{}/replay", t.invite);
    let flood: Vec<_> = (0..24)
        .map(|_| {
            let path = path.clone();
            tokio::spawn(async move { request_from(HERE, addr, "GET", &path, &[], "").await.0 })
        })
        .collect();
    let other = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 9));
    let mut statuses = Vec::new();
    for f in flood {
        statuses.push(f.await.unwrap());
    }
    assert!(statuses.contains(&503), "some refused: {statuses:?}");
    assert!(statuses.contains(&200), "some served: {statuses:?}");
    assert!(
        statuses.iter().all(|s| [200, 503].contains(s)),
        "{statuses:?}"
    );
    // Once they are done, the address may ask again; another one was never held.
    assert_eq!(request_from(HERE, addr, "GET", &path, &[], "").await.0, 200);
    assert_eq!(
        request_from(other, addr, "GET", &path, &[], "").await.0,
        200
    );
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_uploaded_record_replays_and_a_hostile_file_is_refused_in_words() {
    let server = common::server().await;
    let addr = server.addr();
    let record = include_str!("../../../engine/tests/golden/pagat.json");
    let upload = |body: String, query: &'static str| async move {
        request_from(
            HERE,
            addr,
            "POST",
            &format!("/api/replays{query}"),
            &JSON,
            &body,
        )
        .await
    };
    let (status, all) = upload(record.to_owned(), "").await;
    assert_eq!(status, 200, "{all}");
    let every = frames(&all);
    assert!(every.len() > 20);
    assert!(
        !every.last().unwrap()["view"]["standings"].is_null(),
        "to the end"
    );
    let (status, seat0) = upload(record.to_owned(), "?seat=0").await;
    assert_eq!(status, 200);
    assert_eq!(frames(&seat0).len(), every.len());
    assert_eq!(frames(&seat0)[0]["view"]["known_cards"][1], json!([]));
    assert_eq!(upload(record.to_owned(), "?seat=9").await.0, 400);
    // Each hostile or foreign file: refused, with what is wrong.
    let mut broken: Value = serde_json::from_str(record).unwrap();
    broken["steps"][3] = json!({"bid": 99999});
    // Well formed, but the rules refuse it: its steps in the wrong order.
    let mut reversed: Value = serde_json::from_str(record).unwrap();
    reversed["steps"].as_array_mut().unwrap().reverse();
    let cases = [
        (
            " ".repeat(tripoley_analysis::MAX_RECORD_BYTES + 10),
            "too_big",
        ),
        (
            r#"{"game": "napalm", "names": ["A", "B"]}"#.to_owned(),
            "not_a_record",
        ),
        ("not json".to_owned(), "not_a_record"),
        (r#"{"version": 99}"#.to_owned(), "not_a_record"),
        (broken.to_string(), "not_a_record"),
        (reversed.to_string(), "not_a_record"),
    ];
    for (body, problem) in cases {
        let (status, e) = upload(body, "").await;
        assert_eq!(status, 400, "{problem}: {e}");
        assert_eq!(e["detail"]["reason"], "record", "{e}");
        assert_eq!(e["detail"]["problem"], problem, "{e}");
        assert!(!e["message"].as_str().unwrap().is_empty());
    }
    // Without the JSON type (a form of another site): refused unread.
    let (status, _) = request_from(HERE, addr, "POST", "/api/replays", &[], record).await;
    assert_eq!(status, 403);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_napalm_game_replays_step_by_step_face_up_or_as_a_seat_saw_it_and_so_does_its_file() {
    let server = common::server().await;
    let addr = server.addr();
    let request = CreateTable {
        game: Some(GameKind::Napalm),
        seats: Some(3),
        turn_seconds: Some(0),
        bot: Some(tripoley_bots::BotKind::Heuristic),
        tokens_to_win: Some(1),
        ..CreateTable::default()
    };
    let t = table_from(addr, &request, &[]).await;
    client::start_table(addr, &t.invite, &t.host_token)
        .await
        .unwrap();
    let path = format!("/api/tables/{}/replay", t.invite);
    let all = once_over(addr, &path, Duration::from_secs(30)).await;
    assert_eq!(all["game"], "napalm");
    let record = server.napalm_record(&t.invite).await.expect("a record");
    let every = frames(&all);
    // One frame a step, numbered as the table numbered them, to the end.
    assert_eq!(every.len(), record.steps.len() + 1);
    assert!(every.iter().enumerate().all(|(i, f)| f["n"] == i));
    let ended = |f: &Value| {
        f["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["event"] == "game_over")
    };
    assert!(ended(every.last().unwrap()));
    // Face up: every hand dealt among the cards seen; as seat 0 saw it:
    // its own cards only, until a comparison shows it another's.
    let (status, seat0) = get(addr, &format!("{path}?seat=0")).await;
    assert_eq!(status, 200);
    let dealt = every
        .iter()
        .position(|f| f["view"]["card_counts"][1].as_u64() > Some(0))
        .expect("a deal");
    let face_up = &every[dealt]["view"];
    assert!(
        face_up["seen"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| !s.as_array().unwrap().is_empty()),
        "{face_up}"
    );
    let mine = &frames(&seat0)[dealt]["view"];
    assert_eq!(mine["cards"], face_up["seen"][0]);
    assert_eq!(mine["seen"][1], json!([]));
    assert!(face_up["cards"].as_array().unwrap().is_empty());
    // Shared by a link like a Tripoley game.
    let token = json!({"token": t.host_token});
    let share_path = format!("/api/tables/{}/share", t.invite);
    let (status, shared) = http_from(HERE, addr, &share_path, &JSON, &token).await;
    assert_eq!(status, 200, "{shared}");
    let (status, by_link) = get(
        addr,
        shared["path"]
            .as_str()
            .unwrap()
            .replace("/replay/", "/api/replays/")
            .as_str(),
    )
    .await;
    assert_eq!((status, frames(&by_link)), (200, every));
    // The same game as a file: the same frames; its analysis is refused
    // in words (the expert plays only Tripoley).
    let file = serde_json::to_string(&record).unwrap();
    let (status, uploaded) = request_from(HERE, addr, "POST", "/api/replays", &JSON, &file).await;
    assert_eq!(status, 200, "{uploaded}");
    assert_eq!(frames(&uploaded), every);
    let (status, e) = request_from(HERE, addr, "POST", "/api/replays/analysis", &JSON, &file).await;
    assert_eq!(
        (status, &e["detail"]["problem"]),
        (400, &json!("napalm")),
        "{e}"
    );
    assert!(e["message"].as_str().unwrap().contains("Napalm"));
    // A hostile Napalm file: refused in words.
    let mut bad: Value = serde_json::from_str(&file).unwrap();
    bad["names"][0] = json!("\u{1b}[31mX");
    let (status, e) =
        request_from(HERE, addr, "POST", "/api/replays", &JSON, &bad.to_string()).await;
    assert_eq!(
        (status, &e["detail"]["problem"]),
        (400, &json!("not_a_record")),
        "{e}"
    );
    server.shutdown().await;
}
