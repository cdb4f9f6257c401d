//! Napalm on the command line.

mod common;

use common::tripoley;

#[test]
fn n1_rules_of_napalm_in_words() {
    let o = tripoley(&["rules", "--game", "napalm"]);
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    for id in ["(N1)", "(N2)", "(N3)", "(N4)", "(N5)", "(N6)", "(N7)"] {
        assert!(text.contains(id), "{id} missing:\n{text}");
    }
    assert_eq!(
        tripoley(&["rules", "--game", "napalm", "--preset", "pagat"])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn n6_sim_napalm_reports_every_seat_and_conserves_chips() {
    let o = tripoley(&[
        "sim",
        "--game",
        "napalm",
        "--players",
        "3",
        "--bots",
        "heuristic,random,random",
        "--deals",
        "200",
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["game"], "napalm");
    let seats = v["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 3);
    // Chips only move between players (and the pot, which the winner takes):
    // the per-hand means add up to zero.
    let total: f64 = seats
        .iter()
        .map(|s| s["chips_per_hand"]["mean"].as_f64().unwrap())
        .sum();
    assert!(total.abs() < 1e-6, "{total}");
    let wins: f64 = seats.iter().map(|s| s["games_won"].as_f64().unwrap()).sum();
    assert!((wins - 1.0).abs() < 1e-9, "every game has a winner: {wins}");
}
