//! The embedded web client and the HTTP API's refusals.

use crate::common;

use serde_json::json;
use tripoley_loadtest::client;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_web_client_is_served_and_bad_requests_are_refused() {
    let server = common::server().await;
    let addr = server.addr();
    // The page and every module it imports.
    let files = [
        "app.js",
        "board.js",
        "cards.js",
        "chat.js",
        "coach.js",
        "dom.js",
        "home.js",
        "i18n.js",
        "main.js",
        "motion.js",
        "napalm.js",
        "notify.js",
        "passplay.js",
        "qr.js",
        "qrcode.mjs",
        "rules.js",
        "seats.js",
        "state.js",
        "summary.js",
        "tables.js",
        "words.js",
        "style.css",
        "favicon.svg",
        "vendor/fluent-bundle/index.js",
        "locales/en.ftl",
        "locales/es.ftl",
    ];
    let pages = ["/", "/t/abcdefgh", "/api/presets"];
    for path in files
        .iter()
        .map(|f| format!("/{f}"))
        .chain(pages.map(String::from))
    {
        let (status, _) = client::request(addr, "GET", &path, None).await.unwrap();
        assert_eq!(status, 200, "{path}");
    }
    for missing in [
        "/secret.db",
        "/locales/fr.ftl",
        "/locales/es",
        "/vendor/fluent-bundle/x.js",
    ] {
        let (status, _) = client::request(addr, "GET", missing, None).await.unwrap();
        assert_eq!(status, 404, "{missing}");
    }
    let (status, presets) = client::request(addr, "GET", "/api/presets", None)
        .await
        .unwrap();
    assert_eq!(status, 200);
    assert_eq!(presets.as_array().unwrap().len(), 5);
    for (body, want) in [
        (json!({"seats": 12}), 400),
        (json!({"preset": "poker"}), 400),
        (json!({"rules": {"bet_limt": 3}}), 400),
        (json!({"host_name": ""}), 400),
        (json!({"surprise": true}), 400),
        (json!({"seats": 3, "host_name": "Ann"}), 201),
    ] {
        let (status, answer) = client::request(addr, "POST", "/api/tables", Some(&body))
            .await
            .unwrap();
        assert_eq!(status, want, "{body}: {answer}");
        if want == 201 {
            // The table's rules in plain words, for the rules view.
            let path = format!("/api/tables/{}/rules", answer["invite"].as_str().unwrap());
            let (status, rules) = client::request(addr, "GET", &path, None).await.unwrap();
            assert_eq!(status, 200);
            let text = rules["text"].as_str().unwrap();
            assert!(text.contains("\nPoker\n"), "{rules}");
            // Options that change nothing here are for house-rule authors.
            assert!(!text.contains("Without effect"), "{rules}");
            // In Spanish when asked, English for a language we do not have.
            let (status, es) = client::request(addr, "GET", &format!("{path}?lang=es-MX"), None)
                .await
                .unwrap();
            assert_eq!(status, 200);
            assert_eq!(es["lang"], "es");
            assert!(es["text"].as_str().unwrap().contains("\nPóquer\n"), "{es}");
            let (_, fr) = client::request(addr, "GET", &format!("{path}?lang=fr"), None)
                .await
                .unwrap();
            assert_eq!(fr["text"], rules["text"]);
        } else {
            assert!(answer["message"].is_string(), "{answer}");
        }
    }
    let (status, _) = client::request(addr, "GET", "/api/tables/nosuchtable", None)
        .await
        .unwrap();
    assert_eq!(status, 404);
    server.shutdown().await;
}
