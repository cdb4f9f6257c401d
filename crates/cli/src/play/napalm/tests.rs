//! `tripoley play --game napalm` without a terminal: screen snapshots of the
//! declare, challenge and game-over screens (ratatui's `TestBackend`,
//! insta), and whole seeded games driven through the keys.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use tripoley_bots::BotKind;
use tripoley_napalm::{Decision, NapalmRules};

use super::app::NapalmApp;
use super::ui;

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
    let bots = vec![bot; players - 1];
    let mut app =
        NapalmApp::new(NapalmRules::default(), "Ann".to_owned(), &bots, seed).expect("a table");
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
        if l.starts_with("Compared privately") {
            assert!(l.contains("between You"), "{l}");
        }
        if l.contains("compare their hands privately") {
            assert!(!l.contains('♠') && !l.contains('♥'), "{l}");
        }
    }
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
