//! `tripoley eval` as a user runs it.

use crate::common::{stdout, tripoley};

#[test]
fn names_the_best_five() {
    let o = tripoley(&["eval", "KH", "KS", "KD", "5C", "5H", "2D", "9S"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o), "K♠ K♥ K♦ 5♥ 5♣: full house, kings over fives\n");
}

#[test]
fn json_has_cards_category_name_and_rank() {
    let o = tripoley(&["eval", "--json", "AH", "2C", "3D", "4S", "5H", "9C"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        v["cards"],
        serde_json::json!(["5H", "4S", "3D", "2C", "AH"])
    );
    assert_eq!(v["category"], "straight");
    assert_eq!(v["name"], "straight, five high");
    let wheel = v["rank"].as_u64().unwrap();
    let o = tripoley(&["eval", "--json", "10H", "JH", "QH", "KH", "AH"]);
    let royal: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(royal["rank"], 7462);
    assert_eq!(royal["name"], "royal flush");
    assert!(wheel < 7462);
}

#[test]
fn p2_ace_high_flag_removes_the_wheel() {
    let o = tripoley(&["eval", "--ace-high", "--json", "AH,2C,3D,4S,5H"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["category"], "high_card");
    assert_eq!(v["name"], "high card, ace high");
}

#[test]
fn bad_input_is_a_clear_error_with_exit_code_2() {
    for (args, want) in [
        (vec!["eval", "AH", "KH"], "at least five cards, 2 given"),
        (
            vec!["eval", "AH", "KH", "QH", "JH", "1Z"],
            "\"1Z\" is not a card",
        ),
        (
            vec!["eval", "AH", "AH", "QH", "JH", "10H"],
            "AH appears twice",
        ),
    ] {
        let o = tripoley(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(o.stdout.is_empty());
    }
    assert_eq!(tripoley(&["eval"]).status.code(), Some(2));
    assert_eq!(tripoley(&["eval", "--bogus", "AH"]).status.code(), Some(2));
}

#[test]
fn bench_eval_json_lines() {
    // Only the shape: figures are for release builds and notes, not tests.
    let o = tripoley(&["bench", "eval", "--json", "--quick"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let sizes: Vec<u64> = stdout(&o)
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            assert_eq!(v["bench"], "eval");
            assert!(v["evals_per_sec"].as_f64().unwrap() > 0.0);
            v["cards"].as_u64().unwrap()
        })
        .collect();
    assert_eq!(sizes, [5, 7, 13, 18, 26]);
}

#[test]
fn one_is_read_as_the_ace_as_the_help_says() {
    let o = tripoley(&["eval", "1H", "2C", "3D", "4S", "5H"]);
    assert!(o.status.success());
    assert!(stdout(&o).contains("A♥"), "{}", stdout(&o));
    let help = stdout(&tripoley(&["eval", "--help"]));
    assert!(help.contains("`1H` for the ace"), "{help}");
}

#[test]
fn bench_positions_json_lines_name_every_position() {
    // A cheap budget: the shape, not the expert's strength (the bots
    // crate's tests/positions.rs holds that at the default budget).
    let o = tripoley(&[
        "bench",
        "positions",
        "--json",
        "--fast",
        "--playouts",
        "40",
        "--seeds",
        "1",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        lines.len(),
        tripoley_bots::positions::all()
            .iter()
            .filter(|p| p.fast)
            .count()
    );
    for v in &lines {
        assert_eq!(v["bench"], "positions");
        assert!(v["name"].is_string() && v["hint"].is_string());
        // Measured in worlds of its own, a cost may come out below 0.
        assert!(v["verdict_cost"].as_f64().unwrap().is_finite());
    }
}

/// One preset, continued by the verdict's own playout players: the check
/// of the verdict's machinery (issue 47).
#[test]
fn bench_consistency_continues_one_preset_with_the_playout_players() {
    let o = tripoley(&[
        "bench",
        "consistency",
        "--preset",
        "rummoli",
        "--continue-with",
        "playouts",
        "--decisions",
        "2",
        "--continuations",
        "2",
        "--verdict-playouts",
        "40",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = stdout(&o);
    assert!(out.contains("rummoli"), "{out}");
    assert!(!out.contains("pagat"), "{out}");
    assert!(out.contains("by the verdicts' playout players"), "{out}");
}

#[test]
fn bench_consistency_prints_its_table() {
    let o = tripoley(&[
        "bench",
        "consistency",
        "--decisions",
        "1",
        "--continuations",
        "2",
        "--verdict-playouts",
        "40",
        "--players-playouts",
        "2",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = stdout(&o);
    for row in [
        "pagat",
        "tripoley",
        "rummoli",
        "michigan-casino",
        "all",
        "strong fives",
    ] {
        assert!(out.contains(row), "{row}: {out}");
    }
}
