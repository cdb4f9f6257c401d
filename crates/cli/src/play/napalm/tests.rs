//! `tripoley play --game napalm` without a terminal: screen snapshots of the
//! declare, challenge and game-over screens (ratatui's `TestBackend`,
//! insta), whole seeded games driven through the keys, and saved games
//! resumed.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use tripoley_bots::BotKind;
use tripoley_napalm::{Decision, NapalmRules};

use super::app::{NapalmApp, NapalmTable};
use super::{parse_saved, saved_json, ui};
use tripoley_i18n::Lang;

/// The screen as text, 80x24.
fn screen(app: &NapalmApp) -> String {
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).expect("a test terminal");
    terminal.draw(|f| ui::draw(f, app)).expect("draws");
    terminal.backend().to_string()
}

fn ch(app: &mut NapalmApp, c: char) {
    app.key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
}

fn new_app(players: usize, bot: BotKind, seed: u64) -> NapalmApp {
    new_app_in(players, bot, seed, Lang::En)
}

fn new_app_in(players: usize, bot: BotKind, seed: u64, lang: Lang) -> NapalmApp {
    let bots = vec![bot; players - 1];
    let table = NapalmTable::new_game(NapalmRules::default(), "Ann".to_owned(), &bots, seed);
    let mut app = NapalmApp::new(table, lang).expect("a table");
    app.color = false;
    app
}

/// Space until the human must decide or the game is over.
fn to_decision(app: &mut NapalmApp) {
    for _ in 0..10_000 {
        if app.my_decision().is_some() || app.is_over() {
            return;
        }
        ch(app, ' ');
    }
    panic!("the game does not reach a decision");
}

/// The human's simple answers, by keys: Yes to every third declaration,
/// a challenge every other time.
fn answer(app: &mut NapalmApp, k: usize) {
    match app.my_decision() {
        Some(Decision::Declare { .. }) => ch(app, if k % 3 == 0 { 'y' } else { 'n' }),
        Some(Decision::Challenge { .. }) => ch(app, if k % 2 == 0 { 'c' } else { 'd' }),
        None => {}
    }
}

/// Plays the whole game through the keys; returns the number of answers given.
fn play_out(app: &mut NapalmApp) -> usize {
    let mut k = 0;
    while !app.is_over() {
        to_decision(app);
        if app.is_over() {
            break;
        }
        answer(app, k);
        k += 1;
        assert!(k < 5_000, "the game ends");
    }
    k
}

#[test]
fn snapshot_declare() {
    let mut app = new_app(4, BotKind::Heuristic, 7);
    to_decision(&mut app);
    assert!(matches!(app.my_decision(), Some(Decision::Declare { .. })));
    ch(&mut app, '?');
    let text = screen(&app);
    assert!(text.contains("[y] Yes"), "{text}");
    assert!(text.contains("Hint: the heuristic bot would"), "{text}");
    assert!(text.contains("5 tokens win"), "{text}");
    assert!(text.contains("0/5"), "{text}");
    insta::assert_snapshot!(text);
}

/// The first seed (random bots, the human always No) that reaches a
/// challenge of the dealer's lone Yes.
fn reach_challenge() -> NapalmApp {
    for seed in 1..500 {
        let mut app = new_app(3, BotKind::Random, seed);
        for _ in 0..200 {
            to_decision(&mut app);
            match app.my_decision() {
                Some(Decision::Challenge { .. }) => return app,
                Some(Decision::Declare { .. }) => ch(&mut app, 'n'),
                None => break,
            }
        }
    }
    panic!("no seed reaches a challenge");
}

#[test]
fn snapshot_challenge() {
    let app = reach_challenge();
    let text = screen(&app);
    assert!(text.contains("[c] Challenge"), "{text}");
    assert!(text.contains("alone said Yes"), "{text}");
    insta::assert_snapshot!(text);
}

/// The same game in Spanish (`--lang es`): the same moves, every line in
/// the catalogue's Spanish (a missing message or argument fails the ci
/// profile's debug assertions).
#[test]
fn a_whole_game_in_spanish() {
    let mut app = new_app_in(4, BotKind::Heuristic, 11, Lang::Es);
    let mut english = new_app(4, BotKind::Heuristic, 11);
    assert_eq!(play_out(&mut app), play_out(&mut english));
    assert_eq!(app.log.len(), english.log.len());
    let result = app.result_words().expect("a result");
    assert!(result.starts_with("Fin de la partida:"), "{result}");
    let text = screen(&app);
    for spanish in ["Póquer Napalm", "Mesa", "jugador", "puntos", "Resultado"] {
        assert!(text.contains(spanish), "{spanish}:\n{text}");
    }
    assert!(
        app.log
            .iter()
            .any(|l| l.starts_with("Ronda 1: un Sí dice tener las dos mejores cartas."))
    );
    assert!(
        !app.log.iter().any(|l| l.contains('{') || l.contains("tn-")),
        "{:?}",
        app.log
    );
}

#[test]
fn whole_game_through_keys_to_the_result() {
    let mut app = new_app(4, BotKind::Heuristic, 11);
    let answers = play_out(&mut app);
    assert!(answers > 0);
    assert!(app.is_over());
    let result = app.result_words().expect("a result");
    assert!(result.starts_with("Game over:"), "{result}");
    // Every chip is still somewhere: the pot went to the winner(s).
    assert_eq!(app.shown.pot, 0);
    assert_eq!(app.shown.stacks.iter().sum::<u32>(), 400);
    let text = screen(&app);
    assert!(text.contains(&result[..40.min(result.len())]), "{text}");
    insta::assert_snapshot!(text);
    // The same seed and keys give the same game.
    let mut again = new_app(4, BotKind::Heuristic, 11);
    assert_eq!(play_out(&mut again), answers);
    assert_eq!(again.log, app.log);
    // Leaving the final screen.
    ch(&mut app, 'q');
    assert!(app.wants_quit());
}

#[test]
fn comparisons_show_cards_only_to_those_in_them() {
    // Random bots say Yes often: plenty of comparisons, with and without the human.
    let mut app = new_app(5, BotKind::Random, 3);
    play_out(&mut app);
    let with_me = app
        .log
        .iter()
        .filter(|l| l.starts_with("Compared privately"))
        .count();
    let without_me = app
        .log
        .iter()
        .filter(|l| l.contains("compare their hands privately"))
        .count();
    assert!(with_me > 0 && without_me > 0, "{:#?}", app.log);
    for l in &app.log {
        // "you" inside a sentence is lowercase (issue 50).
        if l.starts_with("Compared privately") {
            assert!(l.contains("between you"), "{l}");
            assert!(!l.contains("You"), "{l}");
        }
        if l.contains("compare their hands privately") {
            assert!(!l.contains('♠') && !l.contains('♥'), "{l}");
        }
    }
}

/// Issue 50: in Spanish the human is "tú" inside a sentence ("entre tú y
/// Bot 3"), never a capital "Tú" after the sentence's start.
#[test]
fn comparisons_in_spanish_say_tu_in_lowercase() {
    let mut app = new_app_in(5, BotKind::Random, 3, Lang::Es);
    play_out(&mut app);
    let compared: Vec<&String> = app
        .log
        .iter()
        .filter(|l| l.starts_with("Comparación en privado entre tú"))
        .collect();
    assert!(!compared.is_empty(), "{:#?}", app.log);
    for l in &app.log {
        assert!(!l[1..].contains("Tú"), "{l}");
    }
}

/// The players' table of a game named by a person: the human, here
/// `name`, drawn at 80x24 (the game at its first decision).
fn table_of(name: &str, lang: Lang) -> String {
    let table = NapalmTable::new_game(
        NapalmRules::default(),
        name.to_owned(),
        &[BotKind::Heuristic; 3],
        4,
    );
    let mut app = NapalmApp::new(table, lang).expect("a table");
    app.color = false;
    to_decision(&mut app);
    screen(&app)
}

/// Issue 50: the human who gave no name is "Tú" / "You" in the players'
/// table, not "Tú (tú)"; a named human is "Ann (you)".
#[test]
fn the_unnamed_human_is_not_you_you() {
    for (name, lang, want, not) in [
        ("Tú", Lang::Es, "Tú ", "Tú (tú)"),
        ("You", Lang::En, "You ", "You (you)"),
        ("Ann", Lang::En, "Ann (you)", "Ann (you) (you)"),
        ("You", Lang::Es, "You ", "You (tú)"),
    ] {
        let shown = table_of(name, lang);
        assert!(shown.contains(want), "{want}:\n{shown}");
        assert!(!shown.contains(not), "{not}:\n{shown}");
    }
}

/// Issue 50: a name of joined emoji (one picture, two columns) keeps the
/// players' table's columns: each row's chips end at the same column.
#[test]
fn an_emoji_name_keeps_the_players_table_in_columns() {
    let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467} Ana";
    let shown = table_of(family, Lang::En);
    let rows: Vec<&str> = shown
        .lines()
        .filter(|l| l.contains(" 0/") || l.contains(family))
        .collect();
    assert_eq!(rows.len(), 4, "{shown}");
    // The columns as a terminal draws them: each picture one cell of two.
    let ends: Vec<usize> = rows
        .iter()
        .map(|l| {
            let at = l.find(" 0/").expect("a row's points");
            tripoley_i18n::names::width(&l[..at])
        })
        .collect();
    assert!(ends.iter().all(|&e| e == ends[0]), "{ends:?}\n{shown}");
}

#[test]
fn quitting_asks_first() {
    let mut app = new_app(3, BotKind::Heuristic, 5);
    to_decision(&mut app);
    ch(&mut app, 'q');
    assert!(app.confirm_quit);
    ch(&mut app, 'n');
    assert!(!app.wants_quit() && !app.confirm_quit);
    // The `n` answered the quit question, not the declaration.
    assert!(app.my_decision().is_some());
    ch(&mut app, 'q');
    ch(&mut app, 'y');
    assert!(app.wants_quit());
}

#[test]
fn keys_of_the_other_decision_do_nothing() {
    let mut app = new_app(3, BotKind::Heuristic, 5);
    to_decision(&mut app);
    let before = app.log.len();
    ch(&mut app, 'c');
    ch(&mut app, 'd');
    assert_eq!(app.log.len(), before);
    ch(&mut app, 'n');
    assert!(app.log.len() > before);
    assert!(app.log.iter().any(|l| l == "You say No."), "{:#?}", app.log);
}

/// Plays `app` on through the keys, the `k`-th answer as [`answer`] gives it,
/// until `stop` answers were given or the game is over; returns the next `k`.
fn play_until(app: &mut NapalmApp, mut k: usize, stop: usize) -> usize {
    while k < stop && !app.is_over() {
        to_decision(app);
        answer(app, k);
        k += 1;
    }
    k
}

#[test]
fn a_saved_game_resumes_exactly_where_it_stopped() {
    let mut whole = new_app(4, BotKind::Random, 21);
    play_until(&mut whole, 0, usize::MAX);
    assert!(whole.is_over());
    for stop in [0, 1, 7, 20] {
        let mut first = new_app(4, BotKind::Random, 21);
        let k = play_until(&mut first, 0, stop);
        let json = saved_json(&first);
        // The saved file is a record `tripoley replay` reads, plus "play".
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(
            (v["game"].as_str(), v["play"]["seed"].as_u64()),
            (Some("napalm"), Some(21))
        );
        let mut resumed =
            NapalmApp::new(parse_saved(&json, "saved.json").unwrap().0, Lang::En).unwrap();
        resumed.color = false;
        if stop > 0 {
            assert!(
                resumed
                    .log
                    .last()
                    .unwrap()
                    .starts_with("Game resumed after")
            );
            assert_eq!(resumed.shown, first.game_view());
        }
        play_until(&mut resumed, k, usize::MAX);
        assert_eq!(resumed.record(), whole.record(), "resumed at answer {stop}");
        assert_eq!(resumed.result_words(), whole.result_words());
    }
}

#[test]
fn saved_games_that_cannot_resume_are_refused() {
    let app = new_app(3, BotKind::Heuristic, 4);
    let json = saved_json(&app);
    let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
    v["play"]["bots"] = serde_json::json!([null, "heuristic"]);
    let err = parse_saved(&v.to_string(), "f.json").err().unwrap();
    assert!(
        err.message.contains("does not match its seats"),
        "{}",
        err.message
    );
    v["play"]["bots"] = serde_json::json!([null, "expert", "random"]);
    let err = parse_saved(&v.to_string(), "f.json").err().unwrap();
    assert!(
        err.message.contains("random and heuristic"),
        "{}",
        err.message
    );
    let tripoley = r#"{"version": 1, "rules": {}, "names": [], "steps": []}"#;
    let err = parse_saved(tripoley, "t.json").err().unwrap();
    assert!(
        err.message.contains("is a Tripoley game"),
        "{}",
        err.message
    );
    // A record from `tripoley sim` resumes with heuristic bots.
    v.as_object_mut().unwrap().remove("play");
    let table = parse_saved(&v.to_string(), "f.json").unwrap().0;
    assert_eq!(
        table.bots,
        vec![None, Some(BotKind::Heuristic), Some(BotKind::Heuristic)]
    );
}

/// Issue 28 pt 8: a saved Napalm game's names follow the one rule for
/// names, as Tripoley's do: 20 letters (17 columns) or 16 CJK characters
/// (32 columns) are refused, as `--name` would be, and a 16-column name is
/// taken.
#[test]
fn a_saved_napalm_games_names_follow_the_one_rule() {
    let app = new_app(3, BotKind::Heuristic, 4);
    let mut v: serde_json::Value = serde_json::from_str(&saved_json(&app)).unwrap();
    for wide in [
        "abcdefghijklmnopqrst",
        "漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢",
        "Ann\u{2028}",
    ] {
        v["names"][1] = wide.into();
        let err = parse_saved(&v.to_string(), "f.json").err().expect(wide);
        assert!(err.message.contains("the name"), "{}", err.message);
    }
    v["names"][1] = "漢漢漢漢漢漢漢漢".into();
    assert!(parse_saved(&v.to_string(), "f.json").is_ok());
}

/// A whole game in which the human always says Yes and challenges
/// (`yes`), or always says No and declines.
fn game_saying(rules: NapalmRules, bots: &[BotKind], seed: u64, yes: bool) -> NapalmApp {
    let table = NapalmTable::new_game(rules, "Ann".to_owned(), bots, seed);
    let mut app = NapalmApp::new(table, Lang::En).unwrap();
    let (declare, challenge) = if yes { ('y', 'c') } else { ('n', 'd') };
    while !app.is_over() {
        to_decision(&mut app);
        match app.my_decision() {
            Some(Decision::Declare { .. }) => ch(&mut app, declare),
            Some(Decision::Challenge { .. }) => ch(&mut app, challenge),
            None => {}
        }
    }
    app
}

#[test]
fn n8_when_nobody_can_ante_those_who_went_out_share_the_pot() {
    // One chip each, two players: both ante hand 1 with all they have. The
    // human never says Yes, so no side bet moves a chip, and nobody can
    // ante hand 2.
    let rules = NapalmRules {
        starting_chips: 1,
        ..NapalmRules::default()
    };
    let app = game_saying(rules, &[BotKind::Random], 3, false);
    assert_eq!(
        app.result_words().unwrap(),
        "Game over: you and Bot 1 share the pot of 2 chips."
    );
    assert_eq!(app.log.last().unwrap(), "Game over: you and Bot 1 won.");
}

#[test]
fn n8_after_you_go_out_no_hand_of_yours_is_dealt_again() {
    // Few chips, the human says Yes to every claim: some game sends the
    // human out while two bots play on.
    let rules = NapalmRules {
        starting_chips: 6,
        ..NapalmRules::default()
    };
    let mut checked = 0;
    for seed in 0..40 {
        let bots = [BotKind::Heuristic, BotKind::Heuristic];
        let app = game_saying(rules.clone(), &bots, seed, true);
        let Some(out) = app.log.iter().position(|l| l.starts_with("You leave")) else {
            continue;
        };
        let after = &app.log[out..];
        if after.iter().any(|l| l.starts_with("Round")) {
            checked += 1;
            for l in after {
                assert!(!l.contains("You get"), "seed {seed}: {l}");
            }
        }
    }
    assert!(checked > 0, "no game played on after the human went out");
}

/// N8: when the human is among tied winners, the line says so in the second
/// person ("ganasteis tú y Bot 1"), never "ganaron Tú y Bot 1".
#[test]
fn n8_tied_winners_with_you_are_said_in_the_second_person() {
    for (lang, want) in [
        (Lang::En, "Game over: you and Bot 1 won."),
        (Lang::Es, "Fin de la partida: ganasteis tú y Bot 1."),
    ] {
        let app = new_app_in(3, BotKind::Heuristic, 1, lang);
        let line = app.line(&tripoley_napalm::Event::GameOver {
            winners: vec![0, 1],
        });
        assert_eq!(line.as_deref(), Some(want));
    }
}

/// A saved Napalm game remembers its language.
#[test]
fn a_saved_napalm_game_remembers_its_language() {
    let app = new_app_in(3, BotKind::Heuristic, 2, Lang::Es);
    let (_, lang) = parse_saved(&saved_json(&app), "f.json").unwrap();
    assert_eq!(lang, Some(Lang::Es));
}
