//! `tripoley analyse` as a user runs it: on records saved by `sim`, in
//! words and as JSON, and on files that are not Tripoley records.

use std::path::PathBuf;

use crate::common::{Scratch, stderr, stdout, tripoley, tripoley_in};
use serde_json::Value;

/// The first record of seeded games of three heuristic bots (`deals` deals
/// of Tripoley or hands of Napalm), saved by `sim` into `dir`.
fn record(dir: &Scratch, game: &str, deals: &str) -> PathBuf {
    let records = dir.0.join(game);
    let o = tripoley(&[
        "sim",
        "--game",
        game,
        "--players",
        "3",
        "--deals",
        deals,
        "--seed",
        "3",
        "--save-records",
        records.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let first = if game == "napalm" {
        "napalm-game-000000.json"
    } else {
        "game-000000.json"
    };
    records.join(first)
}

#[test]
fn a_saved_game_is_judged_in_words_and_as_json_the_costliest_first() {
    let dir = Scratch::new("analyse-words");
    let file = record(&dir, "tripoley", "1");
    let file = file.to_str().unwrap();
    let o = tripoley(&["analyse", "--json", "--budget", "60", file]);
    assert!(o.status.success(), "{}", stderr(&o));
    let a: Value = serde_json::from_str(&stdout(&o)).expect("one JSON object");
    let decisions = a["decisions"].as_array().expect("decisions");
    assert!(decisions.len() > 10, "{a}");
    let costs: Vec<f64> = decisions
        .iter()
        .map(|d| d["cost"].as_f64().unwrap())
        .collect();
    assert!(costs.windows(2).all(|w| w[0] >= w[1]), "{costs:?}");
    assert!(costs.iter().all(|&c| c >= 0.0));
    assert_eq!(a["chips"][0]["stacks"], serde_json::json!([100, 100, 100]));
    assert_eq!(a["names"].as_array().unwrap().len(), 3);
    // Reproducible: the same file, the same verdicts.
    let again = tripoley(&["analyse", "--json", "--budget", "60", file]);
    assert_eq!(stdout(&again), stdout(&o));

    let seat = tripoley(&["analyse", "--json", "--budget", "60", "--seat", "1", file]);
    let one: Value = serde_json::from_str(&stdout(&seat)).unwrap();
    assert!(
        one["decisions"]
            .as_array()
            .unwrap()
            .iter()
            .all(|d| d["seat"] == 1),
        "{one}"
    );

    let text = stdout(&tripoley(&["analyse", "--budget", "60", file]));
    assert!(text.starts_with("The expert judged"), "{text}");
    assert!(text.contains("Chips over the game:"), "{text}");
    // Each player's chips lost by part of the deal, and the expert's line
    // after the costliest mistakes.
    assert_eq!(
        text.matches("Lost to mistakes: spare hand and bids ")
            .count(),
        3,
        "{text}"
    );
    assert!(text.contains("The expert's line: "), "{text}");
    assert!(a["cost_by_part"][0]["poker"].is_number(), "{a}");
    // Every listed mistake says why, in the search's numbers: its reason
    // is the line under it ("The expert's choice wins about ...").
    let listed = text.matches("” cost ").count();
    // A cost the same in every sample game says so (this record's costliest
    // call), where it said "about 4.0 chips (± 0.00)".
    assert!(
        text.contains("“call” cost 4.0 chips in every sample game; the expert would fold."),
        "{text}"
    );
    assert!(!text.contains("(± 0.00)"), "{text}");
    let said = reasons(
        &text,
        &[
            "The expert's choice ",
            "Folding ",
            "This puts ",
            "You paid ",
            "Buying ",
        ],
    );
    assert!(
        listed > 0 && said == listed,
        "{listed} mistakes, {said} reasons: {text}"
    );
    let why = decisions
        .iter()
        .find(|d| d["cost"].as_f64().unwrap() >= 1.0)
        .map(|d| &d["why"])
        .expect("a mistake");
    assert!(
        why["kind"].is_string() && why["chips"].as_f64().unwrap() > 0.0,
        "{why}"
    );
    let es = stdout(&tripoley_in(
        Some("es_ES.UTF-8"),
        &["analyse", "--budget", "60", file],
    ));
    assert!(es.starts_with("El experto juzgó"), "{es}");
    let starts = [
        "La jugada del experto ",
        "Al retirarte ",
        "Así pones ",
        "Pagaste ",
        "Comprarla ",
    ];
    assert_eq!(reasons(&es, &starts), listed, "{es}");
}

/// Lines of `text` that start (after their indent) with one of `starts`.
fn reasons(text: &str, starts: &[&str]) -> usize {
    text.lines()
        .filter(|l| starts.iter().any(|s| l.trim_start().starts_with(s)))
        .count()
}

#[test]
fn napalm_corrupt_and_hostile_files_get_a_clear_message() {
    let dir = Scratch::new("analyse-refused");
    let napalm = record(&dir, "napalm", "30");
    let tripoley_file = record(&dir, "tripoley", "1");
    let text = std::fs::read_to_string(&tripoley_file).unwrap();
    let cut = dir.file("cut.json", &text[..text.len() / 2]);
    let big = dir.file("big.json", &" ".repeat(5 << 20));
    let wrong_step = dir.file(
        "wrong.json",
        &text.replacen("\"seat\": 0", "\"seat\": 2", 1),
    );
    let cases = [
        (napalm.to_str().unwrap().to_owned(), "Napalm"),
        (cut, "not JSON"),
        (big, "at most"),
        (wrong_step, "step"),
        (dir.file("rules.json", "[1, 2]"), "not a game record"),
    ];
    for (file, why) in cases {
        let o = tripoley(&["analyse", &file]);
        assert_eq!(o.status.code(), Some(2), "{file}");
        assert!(stderr(&o).contains(why), "{file}: {}", stderr(&o));
        assert!(stdout(&o).is_empty());
    }
    let file = tripoley_file.to_str().unwrap();
    for (args, why) in [(["--seat", "5"], "no seat 5"), (["--budget", "0"], "1 to")] {
        let o = tripoley(&[&["analyse", file][..], &args[..]].concat());
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains(why), "{}", stderr(&o));
    }
}

/// Issue 50: a game saved by `tripoley play` (a record with its `"play"`
/// field) is analysed for the human who played it: their moves are "tus
/// jugadas" / "your moves", the bots' "sus jugadas".
#[test]
fn the_player_of_a_saved_game_is_told_of_their_own_moves() {
    let dir = Scratch::new("analyse-you");
    let file = record(&dir, "tripoley", "1");
    let mut game: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    game["names"][0] = "Tú".into();
    game["play"] = serde_json::json!({
        "seed": 3, "human": 0, "bots": [null, "heuristic", "heuristic"], "label": "pagat"
    });
    let saved = dir.file("saved.json", &game.to_string());
    let es = stdout(&tripoley(&[
        "analyse", "--lang", "es", "--budget", "40", &saved,
    ]));
    let mine: Vec<&str> = es
        .lines()
        .filter(|l| l.trim_start().starts_with("Tú:"))
        .collect();
    assert_eq!(mine.len(), 1, "{es}");
    assert!(mine[0].contains("; tus jugadas costaron"), "{es}");
    assert_eq!(es.matches("sus jugadas").count(), 2, "{es}");
    let en = stdout(&tripoley(&[
        "analyse", "--lang", "en", "--budget", "40", &saved,
    ]));
    assert_eq!(en.matches("; your moves cost").count(), 1, "{en}");
    assert_eq!(en.matches("; their moves cost").count(), 2, "{en}");
    // The expert's line names the player inside its sentence: "tú", not "Tú".
    let yours = stdout(&tripoley(&[
        "analyse", "--lang", "es", "--budget", "40", "--seat", "0", &saved,
    ]));
    let lines: Vec<&str> = yours
        .lines()
        .filter(|l| l.contains("La línea del experto: "))
        .collect();
    assert!(!lines.is_empty(), "{yours}");
    for l in lines {
        assert!(l.contains("La línea del experto: tú: "), "{l}");
        assert!(!l.contains("Tú"), "{l}");
    }
    // A record from elsewhere (no "play") speaks of everyone in the third person.
    let sim = stdout(&tripoley(&[
        "analyse",
        "--lang",
        "es",
        "--budget",
        "40",
        file.to_str().unwrap(),
    ]));
    assert_eq!(sim.matches("sus jugadas").count(), 3, "{sim}");
    // Moves are said as they were made, by whoever made them, as the
    // browser says them: not in the hint's words to the player
    // ("retirarte", said of the expert's and everyone's moves before).
    assert!(
        sim.contains("el experto habría elegido «retirarse»"),
        "{sim}"
    );
    assert!(!sim.contains("retirarte"), "{sim}");
}
