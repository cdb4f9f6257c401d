//! `tripoley sim` and `tripoley arena` output: exact deal counts, tables
//! that fit 100 columns, readable rates.

mod common;

use common::{stderr, stdout, tripoley};

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
