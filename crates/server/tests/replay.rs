//! `GET /api/tables/{invite}/replay`: a finished game's frames, refused
//! before the end, equal to what the live table sent, and one seat's frames
//! holding only what that seat saw.

mod common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::table_from;
use serde_json::Value;
use tripoley_server::client::{self, Socket};

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
    // The game is stored as finished a moment after its last frame.
    let start = Instant::now();
    let all = loop {
        let (status, body) = get(addr, &path).await;
        match status {
            200 => break body,
            409 => assert!(start.elapsed() < Duration::from_secs(10), "{body}"),
            _ => panic!("{status}: {body}"),
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
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
