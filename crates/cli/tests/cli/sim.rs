//! `tripoley sim` and `tripoley arena` output: exact deal counts, tables
//! that fit 100 columns, readable rates.

use crate::common::{Scratch, replay_json, stderr, stdout, tripoley};

#[test]
fn sim_plays_exactly_the_deals_asked() {
    // 3 is fewer than a game's deals; 997 is cut mid-game after rounds of
    // whole games; cosmo games end early when players go broke.
    for (deals, preset) in [("3", "pagat"), ("997", "pagat"), ("1001", "cosmo")] {
        for threads in ["1", "2"] {
            let out = tripoley(&[
                "sim",
                "--deals",
                deals,
                "--preset",
                preset,
                "--bots",
                "random",
                "--seed",
                "5",
                "--threads",
                threads,
                "--json",
            ]);
            assert!(out.status.success(), "{}", stderr(&out));
            let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
            assert_eq!(v["deals"].to_string(), deals, "{preset}");
            let samples = &v["seats"][0]["chips_per_deal"]["samples"];
            assert_eq!(samples.to_string(), deals, "{preset}");
        }
    }
}

#[test]
fn sim_and_arena_tables_fit_100_columns() {
    let sim = tripoley(&[
        "sim",
        "--deals",
        "400",
        "--bots",
        "heuristic,heuristic,random,random",
    ]);
    let arena = tripoley(&[
        "arena",
        "--deals",
        "20",
        "--bots",
        "exec:python3 ../../examples/lowest_card_bot.py,heuristic,random",
    ]);
    for out in [sim, arena] {
        assert!(out.status.success(), "{}", stderr(&out));
        let text = stdout(&out);
        for line in text.lines() {
            assert!(line.chars().count() <= 100, "{} wide: {line}", line.len());
            // Cells are apart: no "2.930+17.300".
            assert!(
                !line.contains(|c: char| c.is_ascii_digit()) || !line.contains("0+"),
                "{line}"
            );
        }
        assert!(!text.contains(".0000"), "{text}");
    }
}

#[test]
fn help_lists_every_bot_the_parser_accepts() {
    for (command, kinds) in [
        ("play", &["random", "heuristic", "expert"][..]),
        (
            "sim",
            &["random", "heuristic", "expert", "exec:COMMAND"][..],
        ),
        (
            "arena",
            &["random", "heuristic", "expert", "exec:COMMAND"][..],
        ),
    ] {
        let help = stdout(&tripoley(&[command, "--help"]));
        let bots = help.split("--bots").nth(1).unwrap_or_default();
        let bots: String = bots.split("\n      --").next().unwrap_or_default().into();
        for kind in kinds {
            assert!(
                bots.contains(kind),
                "{command} --help: {kind} missing from {bots}"
            );
        }
        // And the parser takes each of them.
        for kind in kinds.iter().filter(|k| !k.starts_with("exec")) {
            assert!(kind.parse::<tripoley_bots::BotKind>().is_ok());
        }
    }
}

#[test]
fn sim_napalm_refuses_tripoley_rules_like_play() {
    for flags in [&["--preset", "pagat"][..], &["--house-rules", "x.toml"][..]] {
        let mut args = vec!["sim", "--game", "napalm", "--deals", "3"];
        args.extend(flags);
        let o = tripoley(&args);
        assert_eq!(o.status.code(), Some(2), "{flags:?}");
        assert!(stderr(&o).contains("takes no --preset or --house-rules"));
    }
}

/// The stage a transfer of a deal's section belongs to, by its reason (the
/// stages of docs/commands.md); everything in the final pot's section is the final
/// pot's, the bets placed in it included.
fn stage_of(reason: &str) -> usize {
    match reason {
        "ante" => 0,
        "auction_price" | "pay_suit_bid" => 1,
        "pay_card" | "king_queen" | "sequence" => 2,
        "bet" | "pot_won" | "unmatched" | "poker_pool" => 3,
        "blocked" | "went_out" | "cards_left" | "misled" | "withheld" => 4,
        "final_pot_gathered" | "final_pot" => 5,
        other => panic!("unknown reason {other}"),
    }
}

const STAGES: [&str; 6] = [
    "ante",
    "spare",
    "pay_cards",
    "poker",
    "michigan",
    "final_pot",
];

/// Chips each seat won in one section of `replay --json`, per stage.
fn section_won(line: &serde_json::Value, players: usize) -> Vec<[i64; 6]> {
    let final_pot = line["section"] == "final_pot";
    let mut won = vec![[0i64; 6]; players];
    for t in line["transfers"].as_array().unwrap() {
        let stage = if final_pot {
            5
        } else {
            stage_of(t["reason"].as_str().unwrap())
        };
        let amount = t["amount"].as_i64().unwrap();
        for (side, sign) in [("from", -1), ("to", 1)] {
            if let Some(seat) = t[side]["stack"].as_u64() {
                won[seat as usize][stage] += sign * amount;
            }
        }
    }
    won
}

/// Chips per seat and stage over the first `deals` deals of the records
/// in `dir`, and each deal's row (chips won per seat); the last game may
/// be cut after the deals asked for, its final pot then not counted.
fn from_records(dir: &std::path::Path, deals: u64) -> ([[i64; 6]; 4], Vec<Vec<i64>>) {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let mut totals = [[0i64; 6]; 4];
    let mut rows: Vec<Vec<i64>> = Vec::new();
    for file in &files {
        let lines = replay_json(file.to_str().unwrap());
        let game_deals = lines.iter().filter(|l| l["section"] == "deal").count();
        let whole = rows.len() + game_deals <= deals as usize;
        for line in &lines {
            let won = match line["section"].as_str() {
                Some("deal") if (rows.len() as u64) < deals => section_won(line, 4),
                Some("final_pot") if whole => section_won(line, 4),
                _ => continue,
            };
            if line["section"] == "deal" {
                rows.push(vec![0; 4]);
            }
            let row = rows.last_mut().unwrap();
            for (seat, stages) in won.iter().enumerate() {
                row[seat] += stages.iter().sum::<i64>();
                for (t, w) in totals[seat].iter_mut().zip(stages) {
                    *t += w;
                }
            }
        }
    }
    (totals, rows)
}

/// E2, T6, T7: every figure `sim` prints per seat and per stage, and every
/// row of `deals.csv`, is rebuilt from the records it saved, replayed with
/// `replay --json`: the presets, and house rules where players go out
/// (the last one takes the final pot alone), with several final pots.
#[test]
fn sim_figures_reconcile_with_the_saved_records_e2_t6() {
    let scratch = Scratch::new("reconcile");
    let mixes: [(&str, &[&str]); 9] = [
        ("pagat", &["--preset", "pagat"]),
        ("tripoley", &["--preset", "tripoley"]),
        ("casino", &["--preset", "michigan-casino"]),
        ("rummoli", &["--preset", "rummoli"]),
        ("cosmo", &["--preset", "cosmo"]),
        ("ante5", &["--house-rules", "ante5.toml"]),
        ("rounds", &["--house-rules", "rounds.toml"]),
        ("broke", &["--house-rules", "broke.toml"]),
        ("spaces", &["--house-rules", "spaces.toml"]),
    ];
    let files = [
        ("ante5.toml", "ante = 5\n"),
        (
            "rounds.toml",
            "preset = \"tripoley\"\nfinal_pot_rounds = 3\nante = 3\ndeals = 6\n",
        ),
        (
            "broke.toml",
            "preset = \"michigan-casino\"\nstarting_chips = 40\ndeals = 12\n",
        ),
        // T5's chips of different values, on the preset whose dealer puts more.
        (
            "spaces.toml",
            "preset = \"michigan-casino\"\n[space_antes]\npot = 3\nkitty = 2\n",
        ),
    ];
    let mut paths = std::collections::HashMap::new();
    for (name, text) in files {
        paths.insert(name, scratch.file(name, text));
    }
    let deals = 40u64;
    for (name, table) in mixes {
        let records = scratch.0.join(format!("{name}-records"));
        let out = scratch.0.join(format!("{name}-out"));
        let mut args = vec![
            "sim",
            "--deals",
            "40",
            "--players",
            "4",
            "--bots",
            "random,heuristic,random,heuristic",
            "--seed",
            "11",
            "--json",
            "--save-limit",
            "1000",
        ];
        args.extend(
            table
                .iter()
                .map(|a| paths.get(a).map_or(*a, String::as_str)),
        );
        let (records_s, out_s) = (records.to_str().unwrap(), out.to_str().unwrap());
        args.extend(["--save-records", records_s, "--out", out_s]);
        let run = tripoley(&args);
        assert!(run.status.success(), "{name}: {}", stderr(&run));
        let summary: serde_json::Value = serde_json::from_str(&stdout(&run)).unwrap();
        let (totals, rows) = from_records(&records, deals);
        assert_eq!(
            rows.len() as u64,
            deals,
            "{name}: every deal is in a record"
        );
        for (seat, stages) in totals.iter().enumerate() {
            let report = &summary["seats"][seat];
            let figure = |e: &serde_json::Value| {
                assert_eq!(e["samples"].as_u64(), Some(deals), "{name}");
                e["mean"].as_f64().unwrap() * deals as f64
            };
            let total: i64 = stages.iter().sum();
            let sim_total = figure(&report["chips_per_deal"]);
            assert!(
                (sim_total - total as f64).abs() < 1e-6,
                "{name} seat {seat}: {sim_total} against {total}"
            );
            for (stage, &won) in STAGES.iter().zip(stages) {
                let sim_won = figure(&report["by_stage"][stage]);
                assert!(
                    (sim_won - won as f64).abs() < 1e-6,
                    "{name} seat {seat} {stage}: sim {sim_won}, records {won}"
                );
            }
        }
        // What each stage moves over the seats: antes only take, poker and
        // the final pot only hand out what is on the layout.
        let moved = |stage: usize| totals.iter().map(|s| s[stage]).sum::<i64>();
        assert!(moved(0) < 0, "{name}: the antes take chips");
        assert!(
            moved(3) >= 0,
            "{name}: poker moved {} out of the stacks",
            moved(3)
        );
        assert!(moved(5) >= 0, "{name}: the final pot moved {}", moved(5));
        let csv = std::fs::read_to_string(out.join("deals.csv")).unwrap();
        for (i, (line, row)) in csv.lines().skip(1).zip(&rows).enumerate() {
            let cells: Vec<i64> = line.split(',').map(|c| c.parse().unwrap()).collect();
            assert_eq!(&cells[1..5], row.as_slice(), "{name}: deals.csv row {i}");
        }
        assert_eq!(csv.lines().count(), rows.len() + 1, "{name}");
    }
}

#[test]
fn sim_checks_its_outputs_and_threads_before_playing() {
    let scratch = Scratch::new("outputs");
    let file = scratch.file("taken", "not a folder");
    for game in ["tripoley", "napalm"] {
        for flag in ["--out", "--save-records"] {
            let started = std::time::Instant::now();
            let o = tripoley(&["sim", "--game", game, "--deals", "2000000", flag, &file]);
            assert_eq!(o.status.code(), Some(2), "{game} {flag}");
            let err = stderr(&o);
            assert!(
                err.contains(&format!("{flag} {file}: that is a file")),
                "{err}"
            );
            assert!(
                started.elapsed().as_secs() < 5,
                "{game} {flag}: refused after playing"
            );
        }
    }
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "not a folder");
    let o = tripoley(&["sim", "--deals", "10", "--threads", "10000"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--threads must be between 1 and"),
        "{}",
        stderr(&o)
    );
}
