//! The attacks of issue 31 ("the server against a determined attacker"),
//! each reproduced over loopback and shown refused. Finding 1 (the shape of
//! a run's stop under penalised misplays) is checked by the leak test.

mod common;

use std::net::{IpAddr, Ipv4Addr};

use common::{http_from, request_from, table};
use serde_json::json;
use tripoley_engine::Preset;
use tripoley_server::ServerConfig;

const JSON: (&str, &str) = ("Content-Type", "application/json");
const LOCAL: IpAddr = IpAddr::V4(Ipv4Addr::LOCALHOST);

/// Finding 6: a rematch is a POST like the others: JSON only, and only from
/// an allowed origin (it answered 200 where `/start` gave 403).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finding_6_a_rematch_checks_json_and_origin() {
    let server = common::server().await;
    let addr = server.addr();
    let t = table(addr, Preset::Pagat, 2, &[], 0).await;
    let path = format!("/api/tables/{}/rematch", t.invite);
    let body = json!({"token": t.host_token});
    let plain = [("Content-Type", "text/plain")];
    let evil = [JSON, ("Origin", "http://evil.example")];
    for headers in [&plain[..], &evil[..]] {
        let (status, answer) = http_from(LOCAL, addr, &path, headers, &body).await;
        assert_eq!(
            (status, answer["code"].as_str()),
            (403, Some("forbidden")),
            "{headers:?}"
        );
    }
    server.shutdown().await;
}

/// Finding 7: a page of another site whose name resolves here (DNS
/// rebinding) sends its own name as both Origin and Host: refused, for the
/// API and for websockets. Loopback names (local play) and the configured
/// public origins (`--allow-origin`) are let through whatever the Host says.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finding_7_the_origin_check_does_not_trust_the_host_header() {
    let mut config = ServerConfig::ephemeral();
    config.allowed_origins = vec!["https://tripoley.example".into()];
    let server = tripoley_server::start(config).await.expect("starts");
    let addr = server.addr();
    let create = |origin: &'static str, host: &'static str| async move {
        let headers = [JSON, ("Origin", origin), ("Host", host)];
        http_from(LOCAL, addr, "/api/tables", &headers, &json!({}))
            .await
            .0
    };
    assert_eq!(
        create("http://rebound.example", "rebound.example").await,
        403
    );
    assert_eq!(
        create("http://localhost:8080", "rebound.example").await,
        201
    );
    assert_eq!(create("http://127.0.0.1:9", "rebound.example").await, 201);
    assert_eq!(create("http://[::1]:9", "rebound.example").await, 201);
    assert_eq!(
        create("https://tripoley.example", "rebound.example").await,
        201
    );
    assert_eq!(create("http://localhost.rebound.example", "x").await, 403);
    let t = table(addr, Preset::Pagat, 2, &[], 0).await;
    let upgrade = |origin: &'static str| {
        let path = format!("/ws/{}", t.invite);
        async move {
            let headers = [
                ("Origin", origin),
                ("Host", "rebound.example"),
                ("Upgrade", "websocket"),
                ("Connection", "Upgrade"),
                ("Sec-WebSocket-Version", "13"),
                ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
            ];
            request_from(LOCAL, addr, "GET", &path, &headers, "")
                .await
                .0
        }
    };
    assert_eq!(upgrade("http://rebound.example").await, 403);
    assert_eq!(upgrade("https://tripoley.example").await, 101);
    server.shutdown().await;
}
