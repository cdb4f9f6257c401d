//! Napalm on the command line.

use std::path::PathBuf;

use crate::common::{Scratch, replay_json, stderr, stdout, tripoley};

#[test]
fn n1_rules_of_napalm_in_words() {
    let o = tripoley(&["rules", "--game", "napalm"]);
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    for id in [
        "(N1)", "(N2)", "(N3)", "(N4)", "(N5)", "(N6)", "(N7)", "(N8)",
    ] {
        assert!(text.contains(id), "{id} missing:\n{text}");
    }
    for words in [
        "last player still in takes the pot",
        "After 100 hands",
        "odd chip",
    ] {
        assert!(text.contains(words), "{words} missing:\n{text}");
    }
    assert_eq!(
        tripoley(&["rules", "--game", "napalm", "--preset", "pagat"])
            .status
            .code(),
        Some(2)
    );
}

/// `sim --game napalm` with `extra` flags, as JSON.
fn sim_json(extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["sim", "--game", "napalm", "--json"];
    args.extend_from_slice(extra);
    let o = tripoley(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn n6_sim_napalm_plays_exactly_the_hands_asked_and_conserves_chips() {
    for hands in ["1", "37", "250"] {
        let v = sim_json(&[
            "--players",
            "3",
            "--bots",
            "heuristic,random,random",
            "--deals",
            hands,
            "--seed",
            "5",
        ]);
        assert_eq!(v["game"], "napalm");
        let want: u64 = hands.parse().unwrap();
        assert_eq!(v["hands"], want);
        let seats = v["seats"].as_array().unwrap();
        assert_eq!(seats.len(), 3);
        // Chips only move between players and the pot: what the seats won
        // per hand, times the hands, plus what is left in pots is zero.
        let won: f64 = seats
            .iter()
            .map(|s| {
                assert_eq!(s["chips_per_hand"]["samples"], want, "every hand counted");
                s["chips_per_hand"]["mean"].as_f64().unwrap() * want as f64
            })
            .sum();
        let unclaimed = v["unclaimed_chips"].as_f64().unwrap();
        assert!((won + unclaimed).abs() < 1e-6, "{won} + {unclaimed}");
        let wins: f64 = seats.iter().map(|s| s["games_won"].as_f64().unwrap()).sum();
        assert!(wins <= 1.0 + 1e-9, "at most one pot a game: {wins}");
    }
}

#[test]
fn n6_sim_napalm_does_not_depend_on_threads() {
    let run = |threads: &str| {
        let mut v = sim_json(&[
            "--players",
            "4",
            "--deals",
            "300",
            "--seed",
            "9",
            "--threads",
            threads,
        ]);
        v.as_object_mut().unwrap().remove("elapsed_secs");
        v
    };
    assert_eq!(run("1"), run("2"));
    let o = tripoley(&["sim", "--game", "napalm", "--threads", "0"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn n6_sim_napalm_refuses_what_does_not_fit() {
    for args in [
        &["--preset", "pagat"][..],
        &["--bots", "expert"],
        &["--players", "8"],
        &["--deals", "0"],
    ] {
        let mut all = vec!["sim", "--game", "napalm"];
        all.extend_from_slice(args);
        let o = tripoley(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).is_empty());
    }
}

/// Runs `sim --game napalm` for three players saving `limit` records into
/// `dir/records`, with `extra` flags; returns the records' paths in order.
fn sim_records(dir: &Scratch, hands: &str, limit: &str, extra: &[&str]) -> Vec<PathBuf> {
    let records = dir.0.join("records");
    let mut args = vec!["sim", "--game", "napalm", "--players", "3", "--seed", "2"];
    args.extend_from_slice(&["--deals", hands, "--save-limit", limit, "--save-records"]);
    args.push(records.to_str().unwrap());
    args.extend_from_slice(extra);
    let o = tripoley(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let mut files: Vec<_> = std::fs::read_dir(&records)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
}

#[test]
fn napalm_replay_names_seats_without_verbs_that_disagree() {
    // A record saved by the terminal names the human "You": no "You takes".
    let dir = Scratch::new("napalm-you");
    let files = sim_records(&dir, "40", "1", &[]);
    let mut record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&files[0]).unwrap()).unwrap();
    record["names"][0] = "You".into();
    let file = dir.file("you.json", &record.to_string());
    let o = tripoley(&["replay", &file]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("seat 0 (You)"), "{text}");
    for slip in ["You takes", "You is", "You deals"] {
        assert!(!text.contains(slip), "{slip}: {text}");
    }
}

#[test]
fn n8_sim_napalm_records_replay_and_out_writes_csv() {
    let dir = Scratch::new("napalm-records");
    let out = dir.0.join("out");
    let files = sim_records(&dir, "200", "4", &["--out", out.to_str().unwrap()]);
    let csv = std::fs::read_to_string(out.join("napalm-seats.csv")).unwrap();
    assert_eq!(csv.lines().count(), 4, "{csv}");
    assert_eq!(files.len(), 4);
    for f in &files {
        let o = tripoley(&["replay", f.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
        let text = stdout(&o);
        assert!(
            text.contains("Hand 1, dealt by seat 0 (heuristic 0)"),
            "{text}"
        );
        assert!(text.contains("Game over"), "{text}");
        let lines = replay_json(f.to_str().unwrap());
        let last = lines.last().unwrap();
        // Every chip is accounted for at the end, and someone took the pot
        // (N8), or the pot is left in a game the run cut short.
        let chips: u64 = last["stacks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_u64().unwrap())
            .sum();
        assert_eq!(chips + last["pot"].as_u64().unwrap(), 300);
        assert!(last["winners"].is_array());
    }
}

#[test]
fn replay_tells_a_napalm_record_from_neither() {
    let dir = Scratch::new("napalm-neither");
    for (text, want) in [
        (r#"{"foo": 1}"#, "neither a Tripoley record"),
        ("[1, 2]", "neither a Tripoley record"),
        ("not json", "not a game record"),
        (
            r#"{"game": "napalm", "rules": {}, "names": ["A"], "steps": []}"#,
            "does not replay",
        ),
        (
            r#"{"game": "napalm", "rules": {}, "names": ["A\u001b[2J", "B"], "steps": []}"#,
            "control characters",
        ),
    ] {
        let f = dir.file("r.json", text);
        let o = tripoley(&["replay", &f]);
        assert_eq!(o.status.code(), Some(2), "{text}");
        assert!(stderr(&o).contains(want), "{text}: {}", stderr(&o));
    }
}

#[test]
fn play_napalm_resumes_a_napalm_record_and_refuses_what_does_not_fit() {
    let dir = Scratch::new("napalm-play");
    let files = sim_records(&dir, "5", "1", &[]);
    let record = files[0].to_str().unwrap();
    // Known as Napalm by its content, with or without --game: it gets as far
    // as asking for a terminal (the tests have none).
    for args in [
        &["play", "--resume", record][..],
        &["play", "--game", "napalm", "--resume", record],
    ] {
        let o = tripoley(args);
        assert_eq!(o.status.code(), Some(2));
        assert!(
            stderr(&o).contains("interactive terminal"),
            "{}",
            stderr(&o)
        );
    }
    for (args, want) in [
        (
            &["play", "--game", "napalm", "--deals", "3"][..],
            "no --deals",
        ),
        (
            &["play", "--game", "napalm", "--preset", "cosmo"],
            "one rule set",
        ),
        (
            &["play", "--game", "napalm", "--bots", "expert"],
            "random and heuristic",
        ),
    ] {
        let o = tripoley(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn replay_of_a_napalm_record_cut_mid_game_says_so() {
    let dir = Scratch::new("napalm-cut");
    let files = sim_records(&dir, "40", "1", &[]);
    let text = std::fs::read_to_string(&files[0]).unwrap();
    let mut record: serde_json::Value = serde_json::from_str(&text).unwrap();
    let steps = record["steps"].as_array_mut().unwrap();
    steps.truncate(steps.len() / 2);
    let cut = dir.file("cut.json", &record.to_string());
    let o = tripoley(&["replay", &cut]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("The record stops before the end of the game."),
        "{text}"
    );
    assert!(!text.contains("Game over"), "{text}");
    // A step the game refuses is named.
    let steps = record["steps"].as_array_mut().unwrap();
    let act = steps.iter_mut().find(|s| s.get("act").is_some()).unwrap();
    act["act"]["seat"] = serde_json::json!(6);
    let bad = dir.file("bad.json", &record.to_string());
    let o = tripoley(&["replay", &bad]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("does not replay: step"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn napalm_replay_speaks_spanish_when_asked_or_saved_so() {
    // Like Tripoley's replay: `--lang`, else the language the game was
    // played in (the `"play"` field of a save), else the environment's.
    let dir = Scratch::new("napalm-es");
    let files = sim_records(&dir, "40", "1", &[]);
    let file = files[0].to_str().unwrap();
    let mut saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    saved["play"] = serde_json::json!({"seed": 2, "human": 0, "bots": [null, "heuristic", "heuristic"], "label": "napalm", "lang": "es"});
    let saved = dir.file("es.json", &saved.to_string());
    for args in [vec!["replay", file, "--lang", "es"], vec!["replay", &saved]] {
        let o = tripoley(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        let text = stdout(&o);
        assert!(
            text.starts_with("Napalm: 3 jugadores, gana quien llegue a "),
            "{text}"
        );
        for said in [
            "\nMano 1, reparte asiento ",
            " -> el bote (apuesta inicial)\n",
            "  fichas: ",
        ] {
            assert!(text.contains(said), "{said}: {text}");
        }
        for english in ["Hand ", "dealt by", "the pot", "chips:", "token"] {
            assert!(!text.contains(english), "{english}: {text}");
        }
    }
    // `--lang en` wins over the saved language.
    let o = tripoley(&["replay", &saved, "--lang", "en"]);
    assert!(
        stdout(&o).contains("\nHand 1, dealt by seat "),
        "{}",
        stdout(&o)
    );
}

/// `arena --game napalm` with `extra` flags, as JSON without its time.
fn arena_json(extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["arena", "--game", "napalm", "--json"];
    args.extend_from_slice(extra);
    let o = tripoley(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let mut v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    v.as_object_mut().unwrap().remove("elapsed_secs");
    v
}

#[test]
fn arena_napalm_the_heuristic_beats_random_over_the_same_decks() {
    let v = arena_json(&["--bots", "heuristic,random", "--deals", "300"]);
    assert_eq!(v["game"], "napalm");
    assert_eq!(v["deals"], 300);
    // Four seats, two bots: the line-ups that differ are H,R,H,R and R,H,R,H.
    assert_eq!(v["games"], 600);
    let d = &v["differences"][0];
    assert_eq!(
        (d["bot"].as_str(), d["other"].as_str()),
        (Some("heuristic"), Some("random"))
    );
    let (mean, ci) = (
        d["chips_per_game"]["mean"].as_f64().unwrap(),
        d["chips_per_game"]["ci95"].as_f64().unwrap(),
    );
    assert!(mean - ci > 0.0, "heuristic - random: {mean} ± {ci}");
    // Chips are conserved: what the bots won per seat, over their seats,
    // adds up to nothing.
    let won: f64 = v["bots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["chips_per_game"]["mean"].as_f64().unwrap() * b["seats"].as_f64().unwrap())
        .sum();
    assert!(won.abs() < 1e-9, "{won}");
}

#[test]
fn arena_napalm_does_not_depend_on_threads() {
    let run = |threads: &str| {
        arena_json(&[
            "--players",
            "3",
            "--bots",
            "heuristic,random",
            "--deals",
            "90",
            "--seed",
            "4",
            "--threads",
            threads,
        ])
    };
    assert_eq!(run("1"), run("2"));
}

#[test]
fn arena_napalm_refuses_what_does_not_fit() {
    for (args, want) in [
        (&["--preset", "pagat"][..], "one rule set"),
        (&["--bots", "expert,random"], "random and heuristic"),
        (
            &["--bots", "heuristic,random,random", "--players", "2"],
            "bots for 2 players",
        ),
        (&["--players", "8", "--bots", "random"], "players"),
        (&["--bots", "random", "--deals", "0"], "--deals"),
    ] {
        let mut all = vec!["arena", "--game", "napalm"];
        all.extend_from_slice(args);
        let o = tripoley(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
    }
}
