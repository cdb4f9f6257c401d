//! The client against servers that misbehave: a stalled game, a lost answer.

use std::time::{Duration, Instant};

use futures_util::SinkExt;
use tokio::net::TcpListener;
use tokio_tungstenite::tungstenite::Message;
use tripoley_bots::BotKind;
use tripoley_cards::seeded_rng;
use tripoley_engine::Rules;

use super::{ClientError, Socket, play_seat, request};

/// A table that cannot store its step answers every try with an error
/// frame and never moves on: its silence is the game's whole wait, not
/// the gap between two error frames (issue 48, defect 2).
#[tokio::test]
async fn error_frames_are_no_news_of_a_stalled_game() {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let addr = listener.local_addr().expect("bound");
    tokio::spawn(async move {
        let (tcp, _) = listener.accept().await.expect("a client");
        let mut ws = tokio_tungstenite::accept_async(tcp)
            .await
            .expect("a websocket");
        let state = r#"{"type":"state","n":5,"view":null}"#;
        ws.send(Message::text(state)).await.expect("sent");
        loop {
            tokio::time::sleep(Duration::from_millis(200)).await;
            let error = r#"{"type":"error","n":5,"code":"storage","message":"try again"}"#;
            if ws.send(Message::text(error)).await.is_err() {
                return;
            }
        }
    });
    let mut sock = Socket::connect(addr, "abcdefgh").await.expect("connects");
    let mut bot = BotKind::Heuristic.make(&Rules::default());
    let until = Instant::now() + Duration::from_millis(2500);
    let stats = play_seat(
        &mut sock,
        bot.as_mut(),
        &mut seeded_rng(1),
        Duration::ZERO,
        Some(until),
    )
    .await
    .expect("plays");
    assert!(stats.frames > 5, "{} frames", stats.frames);
    assert!(
        stats.longest_silence >= Duration::from_secs(2),
        "the game stood still for {:?}",
        stats.longest_silence
    );
}

/// A connection that closes before the whole answer's head arrived (a
/// proxy whose server died mid-request) is a dropped connection, which a
/// client tries again, not an answer it failed to understand: the load
/// test through the proxy failed a game on it when one server was killed.
#[tokio::test]
async fn an_answer_cut_off_before_its_head_is_a_dropped_connection() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let addr = listener.local_addr().expect("bound");
    tokio::spawn(async move {
        for cut in [&b""[..], b"HTTP/1.1 200 OK\r\nContent-"] {
            let (mut tcp, _) = listener.accept().await.expect("a client");
            let mut buf = [0u8; 512];
            let _ = tcp.read(&mut buf).await;
            tcp.write_all(cut).await.expect("written");
        }
    });
    for _ in 0..2 {
        let answer = request(addr, "POST", "/api/tables", None).await;
        assert!(matches!(answer, Err(ClientError::Closed)), "{answer:?}");
    }
}
