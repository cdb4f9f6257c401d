//! `tripoley rules` as a user runs it: presets in words, house-rule files
//! checked, presets as TOML.

use crate::common::{Scratch, stderr, stdout, tripoley};

/// The description of a preset, checked to have run cleanly.
fn described(preset: &str) -> String {
    let o = tripoley(&["rules", "--preset", preset]);
    assert!(o.status.success(), "{preset}: {}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.starts_with(&format!("The rules of the {preset} preset.\n")),
        "{text}"
    );
    for heading in [
        "Table and setup",
        "Spare hand",
        "Pay cards",
        "Poker",
        "Michigan",
        "End of the game",
    ] {
        assert!(
            text.contains(&format!("\n{heading}\n")),
            "{preset}: {heading}"
        );
    }
    text
}

#[test]
fn t2_t5_pagat_is_the_default() {
    let o = tripoley(&["rules"]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert_eq!(text, described("pagat"));
    assert!(text.contains("Players: 2 to 9. Each starts with 100 chips. (T2)"));
    assert!(text.contains("every player puts 1 chip on each of the 9 spaces. (T5)"));
    assert!(text.contains("auction the spare, unseen"));
    assert!(text.contains("Betting starts with the player left of the dealer"));
    assert!(text.contains("The winner of the poker pot leads first"));
    assert!(text.contains("a betting round as in stage 2"));
}

#[test]
fn t2_t5_michigan_casino_three_to_eight_and_double_ante() {
    let text = described("michigan-casino");
    assert!(text.contains("Players: 3 to 8. Each starts with 100 chips. (T2)"));
    assert!(text.contains("every player puts 1 chip on each of the 9 spaces (the dealer puts 2)"));
    assert!(text.contains("only players whose hand holds no bonus card may bid. "));
    assert!(text.contains("The Sequence is 7-8-9 of any one suit. (H7)"));
    assert!(text.contains("A-2-3-4-5 is not a straight"));
    assert!(text.contains("the Poker Pool"));
    assert!(text.contains("(M9a)") && text.contains("(M9b)"));
    assert!(text.contains("the stop player leads again with any suit"));
}

#[test]
fn d2_p3_m3_tripoley_dealer_opens_and_leads() {
    let text = described("tripoley");
    assert!(text.contains("nobody ever sees it. (D2)"));
    assert!(text.contains("Betting starts with the dealer and goes clockwise. (P3)"));
    assert!(text.contains("The dealer leads first. (M2)"));
    assert!(text.contains("the lowest card in the leader's hand"));
    assert!(text.contains("five cards face up"));
}

#[test]
fn h5_rummoli_collects_pay_cards_in_play() {
    let text = described("rummoli");
    assert!(text.contains("There is no stage 1"));
    assert!(text.contains("takes its space at once. (H5)"));
    assert!(!text.contains("Stage 1: whoever holds"));
    assert!(text.contains("Betting starts with the player left of the dealer"));
}

#[test]
fn h9_t4_cosmo_has_no_poker_and_eight_spaces() {
    let text = described("cosmo");
    assert!(text.contains("The layout has 8 spaces"));
    assert!(text.contains("every player puts 1 chip on each of the 8 spaces. (T5)"));
    assert!(text.contains("The pay suit is drawn at random before each deal"));
    assert!(text.contains("There is no poker"));
    assert!(text.contains("the leader's lowest black card"));
    assert!(text.contains("stay there and count for nobody. (E2)"));
}

/// Issue 50: a preset's rules are for players, who never read a TOML key;
/// a checked house-rule file still names the keys that change nothing at
/// its table, since those are what its author wrote.
#[test]
fn a_preset_s_rules_name_no_toml_keys() {
    for preset in ["pagat", "tripoley", "michigan-casino", "rummoli", "cosmo"] {
        let text = described(preset);
        assert!(!text.contains("Without effect here"), "{preset}: {text}");
        assert!(
            !text.split_whitespace().any(|w| w.contains('_')),
            "{preset}: {text}"
        );
    }
    let dir = Scratch::new("keys");
    let file = dir.file("cosmo.toml", "preset = \"cosmo\"\n");
    let o = tripoley(&["rules", "--check", &file]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("Without effect here (nobody bets at this table): poker_opener"));
}

#[test]
fn unknown_preset_is_a_usage_error() {
    let o = tripoley(&["rules", "--preset", "poker"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unknown preset \"poker\""),
        "{}",
        stderr(&o)
    );
    assert!(o.stdout.is_empty());
}

#[test]
fn preset_as_toml_reads_back_as_the_same_rules() {
    let dir = Scratch::new("toml");
    for preset in ["pagat", "tripoley", "michigan-casino", "rummoli", "cosmo"] {
        let o = tripoley(&["rules", "--preset", preset, "--toml"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let toml = stdout(&o);
        assert!(toml.contains("starting_chips = 100"), "{toml}");
        let file = dir.file(&format!("{preset}.toml"), &toml);
        let o = tripoley(&["rules", "--check", &file]);
        assert!(o.status.success(), "{preset}: {}", stderr(&o));
        let text = stdout(&o);
        assert!(
            text.starts_with(&format!("ok: {file} is valid\n")),
            "{text}"
        );
        // The full file names every option, so it is the preset itself
        // (its author also reads the options that change nothing here).
        let mut for_players = String::new();
        for line in text.lines() {
            if !line.trim_start().starts_with("Without effect here") {
                for_players.push_str(line);
                for_players.push('\n');
            }
        }
        assert!(for_players.ends_with(&described(preset)), "{preset}");
    }
}

#[test]
fn check_accepts_a_house_rule_file_and_describes_it() {
    let dir = Scratch::new("good");
    let file = dir.file(
        "house.toml",
        "# our table\npreset = \"tripoley\"\nstarting_chips = 250\nante = 2\ndealer_ante = 3\n\
         deals = 6\nauction_pays = \"kitty\"\nspare = \"dealer_swap_or_auction\"\n",
    );
    let o = tripoley(&["rules", "--check", &file]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.starts_with(&format!("ok: {file} is valid\n")));
    assert!(text.contains("House rules"));
    assert!(text.contains("Each starts with 250 chips"));
    assert!(text.contains("every player puts 2 chips on each of the 9 spaces (the dealer puts 3)"));
    assert!(text.contains("pays the price into the Kitty"));
    assert!(text.contains("A game is 6 deals"));
    // Still tripoley where the file says nothing.
    assert!(text.contains("Betting starts with the dealer"));

    // --toml: the whole rule set, ready to save; the verdict goes to stderr.
    let o = tripoley(&["rules", "--check", &file, "--toml"]);
    assert!(o.status.success());
    assert!(stderr(&o).contains("is valid"));
    let toml = stdout(&o);
    assert!(toml.contains("starting_chips = 250") && toml.contains("deals = 6"));
}

#[test]
fn check_refuses_bad_files_with_exit_code_2() {
    let dir = Scratch::new("bad");
    let cases = [
        (
            "syntax.toml",
            "starting_chips = = 3\n",
            "not a valid house-rule file",
        ),
        ("unknown.toml", "starting_chip = 100\n", "unknown field"),
        (
            "type.toml",
            "ante = \"one\"\n",
            "not a valid house-rule file",
        ),
        (
            "preset.toml",
            "preset = \"poker\"\n",
            "unknown preset \"poker\"",
        ),
        (
            "players.toml",
            "min_players = 1\n",
            "players must be between 2 and 9",
        ),
        (
            "h8.toml",
            "pay_suit = \"auction\"\npay_cards = \"stage1\"\n",
            "paying-suit auction implies pay cards collected in play",
        ),
        (
            "m2.toml",
            "poker = \"none\"\nfinal_pot = \"keep\"\n",
            "michigan_leader = poker_winner needs poker with betting",
        ),
        (
            "e2.toml",
            "final_pot_rounds = 0\n",
            "final_pot_rounds must be at least 1",
        ),
        (
            "t5.toml",
            "ante = 50\nstarting_chips = 10\n",
            "nobody can pay the first ante: each player puts 50 on each of the 9 spaces, 450 chips, but players start with 10",
        ),
        (
            "t5-casino.toml",
            "preset = \"michigan-casino\"\nstarting_chips = 17\n",
            "the dealer puts 2 on each of the 9 spaces, 18 chips",
        ),
    ];
    for (name, text, want) in cases {
        let file = dir.file(name, text);
        let o = tripoley(&["rules", "--check", &file]);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", stdout(&o));
        let err = stderr(&o);
        assert!(err.contains(want), "{name}: {err}");
        assert!(err.contains(&file), "{name}: {err}");
        assert!(o.stdout.is_empty(), "{name}");
    }
    let missing = dir.0.join("missing.toml");
    let missing = missing.to_str().expect("utf-8");
    let o = tripoley(&["rules", "--check", missing]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot read the house-rule file"));
    assert!(stderr(&o).contains("missing.toml"));
}

#[test]
fn t5_t6_rules_whose_first_ante_nobody_pays_are_refused_by_every_command() {
    let dir = Scratch::new("ante");
    let file = dir.file("t5.toml", "ante = 50\nstarting_chips = 10\n");
    for command in ["sim", "arena"] {
        let o = tripoley(&[
            command,
            "--house-rules",
            &file,
            "--deals",
            "5",
            "--bots",
            "random",
        ]);
        assert_eq!(o.status.code(), Some(2), "{command}");
        assert!(
            stderr(&o).contains("nobody can pay the first ante"),
            "{command}"
        );
    }
    // Exactly enough is fine: 9 spaces of 1 chip.
    let file = dir.file("ok.toml", "starting_chips = 9\n");
    let o = tripoley(&["rules", "--check", &file]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn preset_and_check_together_is_a_usage_error() {
    let o = tripoley(&["rules", "--preset", "pagat", "--check", "x.toml"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn docs_rules_md_is_the_rule_book_of_this_build() {
    let o = tripoley(&["rules", "--markdown"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/rules.md");
    let stored = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        stored == stdout(&o),
        "docs/rules.md is out of date: run `cargo run --release -- rules --markdown > docs/rules.md`"
    );
    for id in ["(P1)", "(T8)", "(E2)", "(M9a)", "(N8)"] {
        assert!(stored.contains(id), "the rule book names {id}");
    }
}

#[test]
fn the_rules_in_spanish_by_flag_or_by_lang() {
    let o = tripoley(&["rules", "--lang", "es"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.starts_with("Las reglas de la variante pagat.\n"),
        "{text}"
    );
    assert!(text.contains("\nPóquer\n"));
    assert!(text.contains("Jugadores: de 2 a 9. Cada uno empieza con 100 fichas. (T2)"));
    assert!(!text.contains("{$") && !text.contains("rules-"), "{text}");
    let by_env = crate::common::tripoley_in(Some("es_ES.UTF-8"), &["rules"]);
    assert_eq!(stdout(&by_env), text);
    let napalm = stdout(&tripoley(&["rules", "--game", "napalm", "--lang", "es"]));
    assert!(napalm.starts_with("Póquer Napalm\n"), "{napalm}");
    // The flag wins over the environment, and an unknown language is refused.
    let english = crate::common::tripoley_in(Some("es_ES.UTF-8"), &["rules", "--lang", "en"]);
    assert_eq!(stdout(&english), stdout(&tripoley(&["rules"])));
    let o = tripoley(&["rules", "--lang", "klingon"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("the languages are en, es"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn t5_space_antes_in_words_checked_and_refused_by_every_command() {
    let dir = Scratch::new("space-antes");
    let file = dir.file(
        "chips.toml",
        "preset = \"tripoley\"\n[space_antes]\npot = 2\nkitty = 2\n",
    );
    let o = tripoley(&["rules", "--house-rules", &file]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains(
            "every player puts 2 chips on the Kitty, 2 chips on the Pot, and 1 chip on each \
             other space"
        ),
        "{text}"
    );
    assert!(
        text.contains("(11 chips a deal, 11 chips when dealing)"),
        "{text}"
    );
    let o = tripoley(&["rules", "--house-rules", &file, "--lang", "es"]);
    assert!(
        stdout(&o).contains("2 fichas en el Pozo, 2 fichas en el Bote"),
        "{}",
        stdout(&o)
    );
    let o = tripoley(&["rules", "--house-rules", &file, "--toml"]);
    assert!(
        stdout(&o).contains("[space_antes]\nkitty = 2\npot = 2\n"),
        "{}",
        stdout(&o)
    );
    // An unknown space is refused with the names; an unpayable first ante too.
    let typo = dir.file("typo.toml", "[space_antes]\npott = 2\n");
    let broke = dir.file(
        "broke.toml",
        "starting_chips = 20\n[space_antes]\npot = 20\n",
    );
    for (file, why) in [
        (&typo, "`king_queen`, `sequence`, `kitty`, `pot`"),
        (&broke, "nobody can pay the first ante"),
    ] {
        for command in [
            &["rules", "--check"][..],
            &["sim", "--deals", "3", "--house-rules"],
            &["play", "--house-rules"],
        ] {
            let mut args = command.to_vec();
            args.push(file);
            let o = tripoley(&args);
            assert_eq!(o.status.code(), Some(2), "{args:?}");
            assert!(stderr(&o).contains(why), "{args:?}: {}", stderr(&o));
        }
    }
}

/// Issue 50, point 4: every refusal in one style. Clap's errors were
/// several lines (`error: …`, a tip, the usage, "For more information") and
/// a TOML syntax error six (an excerpt with a caret): now each is one line
/// `tripoley: …` saying what is wrong, then at most the usage, exit code 2.
#[test]
fn every_refusal_is_one_line_then_at_most_the_usage() {
    let dir = Scratch::new("one-style");
    let broken = dir.file("broken.toml", "preset = \"pagat\"\nante = \n");
    let broken = broken.as_str();
    let cases: &[&[&str]] = &[
        &["play", "--sed", "3"],
        &["sim", "--players", "x"],
        &["arena", "--bots"],
        &["frobnicate"],
        &["serve", "--port", "8080"],
        &["sim", "--deals", "-3"],
        &["analyse"],
        &["rules", "--house-rules", broken],
        &["sim", "--house-rules", broken],
    ];
    for args in cases {
        let o = tripoley(args);
        let said = stderr(&o);
        let lines: Vec<&str> = said.lines().collect();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {said}");
        assert!(
            lines.first().is_some_and(|l| l.starts_with("tripoley: ")),
            "{args:?}: {said}"
        );
        assert!(
            lines.len() == 1 || (lines.len() == 2 && lines[1].starts_with("Usage: tripoley")),
            "{args:?}: {said}"
        );
    }
    let o = tripoley(&["play", "--sed", "3"]);
    assert!(
        stderr(&o).contains("a similar argument exists: '--seed'"),
        "{}",
        stderr(&o)
    );
    let o = tripoley(&["rules", "--house-rules", broken]);
    assert!(stderr(&o).contains("line 2, column 8: "), "{}", stderr(&o));
    // Help and the version are not refusals.
    assert!(tripoley(&["play", "--help"]).status.success());
    assert!(stdout(&tripoley(&["--version"])).starts_with("tripoley "));
}
