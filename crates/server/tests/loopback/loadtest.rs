//! The load generator plays tables of client bots and reports.

use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_short_load_test_plays_and_conserves_chips() {
    let report = tripoley_loadtest::loadtest(2, 0, Duration::from_secs(3), None)
        .await
        .expect("the load test runs");
    assert_eq!(report.tables, 2);
    assert_eq!(report.clients, 8, "four client bots per table");
    assert!(report.actions > 0);
    assert!(report.actions_per_second > 0.0);
    assert!(
        report.latency_p50_ms > 0.0 && report.latency_p50_ms <= report.latency_max_ms,
        "{report}"
    );
    assert!(report.latency_p99_ms <= report.latency_max_ms);
    let steady = report.steady.as_ref().expect("both tables played");
    assert!(steady.from_seconds < report.seconds - 1.0, "{steady:?}");
    assert!(steady.actions_per_second > 0.0, "{steady:?}");
    let steady_actions = steady.actions_per_second * (report.seconds - steady.from_seconds);
    assert!(steady_actions < report.actions as f64 + 0.5, "{steady:?}");
    assert!(steady.latency_max_ms <= report.latency_max_ms, "{steady:?}");
    assert!(report.memory_kib.is_some_and(|k| k > 0));
    assert!(report.chips_conserved);
    assert_eq!(report.failures, 0, "{:?}", report.failure_causes);
    let text = report.to_string();
    assert!(text.contains("chips conserved    yes"), "{text}");
    assert!(text.contains("once all played    from "), "{text}");
}

#[tokio::test]
async fn a_load_test_stays_on_this_machine_and_within_bounds() {
    let far = "192.0.2.1:8080".parse().unwrap();
    assert!(
        tripoley_loadtest::loadtest(1, 0, Duration::from_secs(1), Some(far))
            .await
            .is_err()
    );
    assert!(
        tripoley_loadtest::loadtest(0, 0, Duration::from_secs(1), None)
            .await
            .is_err()
    );
    assert!(
        tripoley_loadtest::loadtest(1, 0, Duration::from_secs(100_000), None)
            .await
            .is_err()
    );
}
