//! `tripoley replay` as a user runs it, on records of seeded random games
//! played through the engine here.

use crate::common::{Scratch, stderr, stdout, tripoley};

use std::process::Output;

use serde_json::Value;
use tripoley_engine::{Preset, Rules, Space, Step};
use tripoley_testkit::play_random;

/// The chips of a JSON stacks array plus a JSON layout object.
fn chips_of(line: &Value) -> u64 {
    let stacks: u64 = line["stacks"]
        .as_array()
        .expect("stacks")
        .iter()
        .map(|v| v.as_u64().expect("a count"))
        .sum();
    let layout: u64 = line["layout"]
        .as_object()
        .expect("layout")
        .values()
        .map(|v| v.as_u64().expect("a count"))
        .sum();
    stacks + layout
}

/// Where a JSON transfer account is: a stack index or a layout key.
fn account(v: &Value) -> (Option<usize>, Option<String>) {
    if let Some(s) = v.get("stack") {
        (Some(s.as_u64().expect("seat") as usize), None)
    } else {
        (None, Some(v["space"].as_str().expect("space").to_owned()))
    }
}

fn json_lines(o: &Output) -> Vec<Value> {
    stdout(o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// T7 and E3: every section's chips add up to the start, each section's
/// transfers lead from the previous section's state to its own, and the
/// standings are the replayed game's.
#[test]
fn t7_e3_json_ledger_adds_up_and_standings_match_the_game() {
    let dir = Scratch::new("json");
    for (i, preset) in Preset::ALL.into_iter().enumerate() {
        for (players, seed) in [(3, 11 + i as u64), (5, 40 + i as u64)] {
            let rules = Rules::preset(preset);
            let (record, game, _) = play_random(&rules, players, seed, |_, _| {});
            let file = dir.file(&format!("{preset}-{players}.json"), &record.to_json());
            let o = tripoley(&["replay", &file, "--json"]);
            assert!(o.status.success(), "{preset}: {}", stderr(&o));
            let lines = json_lines(&o);
            let (end, sections) = lines.split_last().expect("at least the standings");

            let total = u64::from(rules.starting_chips) * players as u64;
            let mut stacks = vec![i64::from(rules.starting_chips); players];
            let mut layout = std::collections::BTreeMap::<String, i64>::new();
            let mut deals = 0;
            for line in sections {
                assert_eq!(chips_of(line), total, "{preset}: {line}");
                for t in line["transfers"].as_array().expect("transfers") {
                    let amount = t["amount"].as_i64().expect("amount");
                    assert!(amount > 0);
                    assert!(t["reason"].is_string());
                    for (side, sign) in [(&t["from"], -1), (&t["to"], 1)] {
                        match account(side) {
                            (Some(seat), _) => stacks[seat] += sign * amount,
                            (_, Some(space)) => *layout.entry(space).or_default() += sign * amount,
                            _ => unreachable!(),
                        }
                    }
                }
                let want: Vec<i64> = line["stacks"]
                    .as_array()
                    .expect("stacks")
                    .iter()
                    .map(|v| v.as_i64().expect("chips"))
                    .collect();
                assert_eq!(stacks, want, "{preset}: {line}");
                let spaces = line["layout"].as_object().expect("layout");
                let keys: Vec<&str> = spaces.keys().map(String::as_str).collect();
                assert_eq!(keys.contains(&"pot"), preset != Preset::Cosmo);
                for space in Space::ALL {
                    let on = layout.get(space.key()).copied().unwrap_or(0);
                    assert_eq!(
                        spaces
                            .get(space.key())
                            .map_or(0, |v| v.as_i64().expect("chips")),
                        on,
                        "{preset}: {space}"
                    );
                }
                if line["section"] == "deal" {
                    deals += 1;
                    assert_eq!(line["deal"], deals, "{preset}");
                }
            }
            assert_eq!(deals, u64::from(game.deals_done()), "{preset}");
            let last = sections.last().expect("a deal");
            assert_eq!(
                last["stacks"],
                serde_json::to_value(game.stacks()).expect("json"),
                "{preset}"
            );
            let standings = game.standings().expect("the game is over");
            assert_eq!(
                end["standings"],
                serde_json::to_value(&standings).expect("json"),
                "{preset}"
            );
            assert!(standings.iter().any(|s| s.winner));
        }
    }
}

#[test]
fn text_ledger_names_transfers_stacks_and_standings() {
    let dir = Scratch::new("text");
    let rules = Rules::preset(Preset::Pagat);
    let (record, game, _) = play_random(&rules, 4, 3, |_, _| {});
    let file = dir.file("pagat.json", &record.to_json());
    let o = tripoley(&["replay", &file]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.starts_with("4 players, preset pagat: seat 0 (P0), seat 1 (P1)"));
    assert!(text.contains("\nDeal 1: dealer seat "));
    assert!(text.contains(" -> the Ace: 1 (ante)\n"));
    assert!(text.contains("  Stacks:\n    seat 0 (P0): "));
    assert!(text.contains("  Layout: Ace "));
    assert!(text.contains("\nStandings\n"));
    // No rule ids on a player's screen.
    assert!(!text.contains("(E2)") && !text.contains("(T6)") && !text.contains("(E3)"));
    for s in game.standings().expect("over") {
        let line = format!(
            "  seat {} (P{}): {} chips{}\n",
            s.seat,
            s.seat,
            s.chips,
            if s.winner { ", winner" } else { "" }
        );
        assert!(text.contains(&line), "{line}");
    }
    let deals = text.matches("\nDeal ").count();
    assert_eq!(deals, game.deals_done() as usize);
}

#[test]
fn an_unfinished_record_replays_without_standings() {
    let dir = Scratch::new("unfinished");
    let rules = Rules::preset(Preset::Tripoley);
    let (mut record, _, _) = play_random(&rules, 3, 5, |_, _| {});
    record.steps.truncate(record.steps.len() / 2);
    let file = dir.file("half.json", &record.to_json());
    let o = tripoley(&["replay", &file, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines = json_lines(&o);
    let (end, sections) = lines.split_last().expect("lines");
    assert_eq!(end["standings"], Value::Null);
    for line in sections {
        assert_eq!(chips_of(line), 300);
    }
    let o = tripoley(&["replay", &file]);
    assert!(stdout(&o).contains("no standings yet"));
}

#[test]
fn bad_records_are_clear_errors_with_exit_code_2() {
    let dir = Scratch::new("bad");
    let rules = Rules::preset(Preset::Rummoli);
    let (record, _, _) = play_random(&rules, 3, 9, |_, _| {});

    // A step the engine refuses: an action by the wrong seat.
    let mut wrong = record.clone();
    let index = wrong
        .steps
        .iter()
        .position(|s| matches!(s, Step::Act { .. }))
        .expect("someone acts");
    if let Step::Act { seat, .. } = &mut wrong.steps[index] {
        *seat = (*seat + 1) % 3;
    }
    let refused = dir.file("refused.json", &wrong.to_json());

    let mut newer = record.clone();
    newer.version += 1;
    let newer = dir.file("newer.json", &newer.to_json());

    let mut escapes = record.clone();
    escapes.names[1] = "\u{1b}[2J\u{1b}[31mEve".to_owned();
    let escapes = dir.file("escapes.json", &escapes.to_json());

    let mut empty = record;
    empty.names.truncate(1);
    let one_player = dir.file("one.json", &empty.to_json());

    let not_json = dir.file("notes.json", "this is not a record\n");
    let not_record = dir.file("other.json", "{\"deals\": []}\n");
    let missing = dir.0.join("missing.json");
    let missing = missing.to_str().expect("utf-8").to_owned();

    let step_words = format!("step {index} of ");
    for (file, want) in [
        (&refused, step_words.as_str()),
        (&refused, "refused by the engine"),
        (&newer, "is not supported"),
        (&one_player, "cannot be played"),
        (&escapes, "holds control characters"),
        (&not_json, "not a game record"),
        (&not_record, "not a game record"),
        (&missing, "cannot read the game record"),
    ] {
        for json in [false, true] {
            let mut args = vec!["replay", file.as_str()];
            if json {
                args.push("--json");
            }
            let o = tripoley(&args);
            assert_eq!(o.status.code(), Some(2), "{file}: {}", stdout(&o));
            let err = stderr(&o);
            assert!(err.contains(want), "{file}: {err}");
            assert!(err.contains(file.as_str()), "{file}: {err}");
            assert!(o.stdout.is_empty(), "{file}");
        }
    }
    assert_eq!(tripoley(&["replay"]).status.code(), Some(2));
}

/// `replay` speaks the language asked for, else the one the game was played
/// in; a preset played with other deals keeps its name ("pagat, 2 deals").
#[test]
fn replay_in_spanish_and_a_preset_with_its_deals() {
    let dir = Scratch::new("spanish");
    let mut rules = Rules::preset(Preset::Pagat);
    rules.deals = Some(2);
    let (record, _, _) = play_random(&rules, 3, 9, |_, _| {});
    let file = dir.file("two.json", &record.to_json());
    let o = tripoley(&["replay", &file, "--lang", "en"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("3 players, preset pagat, 2 deals: seat 0 (P0)"),
        "{}",
        stdout(&o)
    );
    let mut saved: Value = serde_json::from_str(&record.to_json()).unwrap();
    saved["play"] = serde_json::json!({"lang": "es"});
    let saved = dir.file("es.json", &saved.to_string());
    for args in [
        vec!["replay", &file, "--lang", "es"],
        vec!["replay", &saved],
    ] {
        let o = tripoley(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        let text = stdout(&o);
        assert!(
            text.starts_with("3 jugadores, reglas pagat, 2 repartos: asiento 0 (P0)"),
            "{text}"
        );
        for said in [
            "\nReparto 1: reparte asiento ",
            " -> el As: 1 (apuesta inicial)\n",
        ] {
            assert!(text.contains(said), "{said}: {text}");
        }
        for said in [
            "\n  Fichas:\n",
            "  Tablero: As ",
            "\nClasificación\n",
            " fichas",
        ] {
            assert!(text.contains(said), "{said}: {text}");
        }
        for english in [
            "Deal",
            "Stacks",
            "Standings",
            "chips",
            "seat",
            "dealer",
            "(ante)",
        ] {
            assert!(!text.contains(english), "{english}: {text}");
        }
    }
}

/// A record saved by an editor that starts files with a byte-order mark
/// (issue 50, item 4) is read by `replay` and `analyse` as it is without
/// one; a house-rule file too.
#[test]
fn a_byte_order_mark_is_no_reason_to_refuse_a_file() {
    let dir = Scratch::new("bom");
    let rules = Rules {
        deals: Some(1),
        ..Rules::preset(Preset::Pagat)
    };
    let (record, _, _) = play_random(&rules, 3, 5, |_, _| {});
    let plain = dir.file("plain.json", &record.to_json());
    let marked = dir.file("marked.json", &format!("\u{feff}{}", record.to_json()));
    for command in [
        &["replay", "--json"][..],
        &["analyse", "--json", "--budget", "50"][..],
    ] {
        let run = |file: &str| {
            let mut args = vec![command[0], file];
            args.extend_from_slice(&command[1..]);
            tripoley(&args)
        };
        let (a, b) = (run(&plain), run(&marked));
        assert!(b.status.success(), "{}: {}", command[0], stderr(&b));
        assert_eq!(stdout(&a), stdout(&b), "{}", command[0]);
    }
    let house = dir.file("house.toml", "\u{feff}preset = \"pagat\"\nante = 2\n");
    let o = tripoley(&["rules", "--check", &house]);
    assert!(o.status.success(), "{}", stderr(&o));
}
