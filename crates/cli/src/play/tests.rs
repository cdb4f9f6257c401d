//! `tripoley play` without a terminal: screen snapshots of every decision
//! (ratatui's `TestBackend`, insta), and whole games driven through the keys.
//!
//! The snapshots start from records built here with a simple seeded policy
//! for every seat, so they depend on the engine and the deck, not on the
//! bots' play.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use rand_core::Rng;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::style::Color;
use tripoley_bots::BotKind;
use tripoley_cards::{CardSet, GameRng, seeded_rng};
use tripoley_engine::{
    Account, Action, DealChance, Decision, Event, Game, PaySuitRule, Pending, Preset, Reason,
    Record, Rules, Seat, Space, Step, Transfer,
};

use super::app::{App, HUMAN, Screen, Table};
use super::text::{Context, Words};
use super::{parse_saved, saved_json, ui};
use tripoley_i18n::Lang;

/// The screen as text, 80x24 unless said.
fn screen(app: &App, w: u16, h: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).expect("a test terminal");
    terminal.draw(|f| ui::draw(f, app)).expect("draws");
    terminal.backend().to_string()
}

fn key(app: &mut App, code: KeyCode) {
    app.key(KeyEvent::new(code, KeyModifiers::NONE));
}

fn ch(app: &mut App, c: char) {
    key(app, KeyCode::Char(c));
}

fn below(rng: &mut GameRng, n: u32) -> u32 {
    ((u64::from(rng.next_u32()) * u64::from(n)) >> 32) as u32
}

/// A seeded, simple answer for any seat: keeps the tests apart from the bots.
fn policy(decision: Decision, rng: &mut GameRng) -> Action {
    match decision {
        Decision::SpareOption {
            can_auction: true, ..
        } if below(rng, 2) == 0 => Action::AuctionSpare,
        Decision::SpareOption { .. } => Action::Keep,
        Decision::AuctionBid { min, max, .. } | Decision::PaySuitBid { min, max } => {
            if min <= max && below(rng, 3) == 0 {
                Action::Bid(min)
            } else {
                Action::Pass
            }
        }
        Decision::NamePaySuit => Action::NameSuit(tripoley_cards::Suit::Spades),
        Decision::Open { max_bet } if max_bet > 0 && below(rng, 2) == 0 => {
            Action::Bet(2.min(max_bet))
        }
        Decision::Open { .. } => Action::Check,
        Decision::Respond { .. } => Action::Call,
        Decision::ChooseFive { from } => Action::Choose(from.iter().take(5).collect()),
        Decision::Lead { cards } => Action::Lead(cards.lowest().expect("a card to lead")),
        Decision::Follow { .. } => Action::Play,
    }
}

fn names(players: usize) -> Vec<String> {
    let mut v = vec!["Ann".to_owned()];
    v.extend((1..players).map(|i| format!("Bot {i}")));
    v
}

/// The first seed's game, played by [`policy`], stopped at the human's
/// first decision that `want` accepts (after `skip` of them).
fn reach(rules: &Rules, players: usize, want: fn(&Decision) -> bool, skip: usize) -> App {
    for seed in 1..300 {
        let mut game = Game::new(rules.clone(), players).expect("a table");
        let mut record = Record::new(rules.clone(), names(players));
        let mut rng = seeded_rng(seed);
        let mut seen = 0;
        loop {
            let step = match game.pending() {
                Pending::GameOver => break,
                Pending::Chance(_) => Step::Chance(DealChance::random(rules, &mut rng)),
                Pending::Decide { seat, decision } => {
                    if seat == HUMAN && want(&decision) {
                        if seen == skip {
                            return table_app(record, seed);
                        }
                        seen += 1;
                    }
                    Step::Act {
                        seat,
                        action: policy(decision, &mut rng),
                    }
                }
            };
            game.step(&step, &mut Vec::new()).expect("legal");
            record.steps.push(step);
        }
    }
    panic!("no seed reaches the decision");
}

fn table_app(record: Record, seed: u64) -> App {
    let players = record.names.len();
    let mut bots = vec![None];
    bots.extend((1..players).map(|_| Some(BotKind::Heuristic)));
    let mut app = App::new(Table {
        record,
        bots,
        seed,
        label: "test".to_owned(),
        lang: Lang::En,
    })
    .expect("replays");
    app.set_save_path("./tripoley-test.json".to_owned());
    app
}

fn pagat() -> Rules {
    Rules::preset(Preset::Pagat)
}

#[test]
fn snapshot_spare_option() {
    let app = reach(
        &pagat(),
        4,
        |d| matches!(d, Decision::SpareOption { .. }),
        0,
    );
    insta::assert_snapshot!(screen(&app, 80, 24));
}

#[test]
fn snapshot_auction_bid() {
    let mut app = reach(&pagat(), 4, |d| matches!(d, Decision::AuctionBid { .. }), 0);
    // Raise the bid with the arrows, then type one.
    key(&mut app, KeyCode::Right);
    key(&mut app, KeyCode::Right);
    insta::assert_snapshot!(screen(&app, 80, 24));
}

#[test]
fn snapshot_poker_open() {
    let app = reach(&pagat(), 4, |d| matches!(d, Decision::Open { .. }), 0);
    insta::assert_snapshot!(screen(&app, 80, 24));
}

/// A name as wide as the rule allows (16 columns of CJK) keeps the players'
/// table's columns: every row's chips and cards end at the same column.
#[test]
fn a_wide_name_keeps_the_players_table_whole() {
    let app = reach(&pagat(), 4, |d| matches!(d, Decision::Open { .. }), 0);
    let mut record = app.record().clone();
    record.names[usize::from(HUMAN)] = "漢字漢字漢字漢字".to_owned();
    let app = App::new(Table {
        record,
        bots: app.bot_kinds().to_vec(),
        seed: app.seed(),
        label: "test".to_owned(),
        lang: Lang::En,
    })
    .expect("replays");
    let shown = screen(&app, 80, 24);
    let me = usize::from(HUMAN);
    let row = shown
        .lines()
        .find(|l| l.contains("漢字漢字漢字漢字"))
        .expect("the name in full");
    let inside = row.split('│').nth(1).expect("a row of the players' box");
    let after: Vec<&str> = inside
        .split("漢字漢字漢字漢字")
        .nth(1)
        .expect("after the name")
        .split_whitespace()
        .collect();
    let (chips, cards) = (app.shown.stacks[me], app.shown.hand_sizes[me]);
    assert_eq!(
        after[..2],
        [chips.to_string(), cards.to_string()],
        "{shown}"
    );
    // Every row of the box is as wide as the others.
    let widths: Vec<usize> = shown
        .lines()
        .skip(2)
        .take(4)
        .map(|l| tripoley_i18n::names::width(l.split('│').nth(1).unwrap_or("")))
        .collect();
    assert!(
        widths.iter().all(|&w| w == widths[0]),
        "{widths:?}\n{shown}"
    );
}

/// The same game at the same point, in Spanish.
fn spanish(app: &App) -> App {
    App::new(Table {
        record: app.record().clone(),
        bots: app.bot_kinds().to_vec(),
        seed: app.seed(),
        label: "test".to_owned(),
        lang: Lang::Es,
    })
    .expect("replays")
}

/// Numbers in Spanish mark decimals with a comma and group thousands from
/// five digits on, as the browser does: "3000 repartos de muestra", "98,5
/// fichas esperadas".
#[test]
fn the_spanish_hint_writes_numbers_the_spanish_way() {
    let mut app = spanish(&reach(
        &pagat(),
        4,
        |d| matches!(d, Decision::Open { .. }),
        0,
    ));
    ch(&mut app, '?');
    let hint = app.hint.clone().expect("a hint");
    assert!(hint.contains("(3000 repartos de muestra"), "{hint}");
    let decimals: Vec<&str> = hint
        .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == ','))
        .filter(|w| w.trim_end_matches(['.', ',']).contains([',', '.']))
        .collect();
    assert!(decimals.len() >= 2, "{hint}");
    for d in decimals {
        let d = d.trim_end_matches(['.', ',']);
        assert!(d.contains(',') && !d.contains('.'), "{d} in {hint}");
    }
}

/// In Spanish at 80x24 the header and the keys are whole, the keys named
/// in Spanish ("Espacio", "Intro", "RePág/AvPág"), and "salir" means only
/// leading a card: quitting says it saves ("guardar y parar").
#[test]
fn spanish_header_and_keys_are_whole_at_80_columns() {
    type Wanted = fn(&Decision) -> bool;
    let stages: [(Wanted, usize); 3] = [
        (|d| matches!(d, Decision::Lead { .. }), 1),
        (|d| matches!(d, Decision::ChooseFive { .. }), 0),
        (|d| matches!(d, Decision::Respond { .. }), 0),
    ];
    for (want, skip) in stages {
        let app = spanish(&reach(&pagat(), 4, want, skip));
        let shown = screen(&app, 80, 24);
        let lines: Vec<&str> = shown.lines().collect();
        let header = lines[0];
        for part in ["Tripoley", "reparto ", "pago ", "Secuencia "] {
            assert!(header.contains(part), "{part}:\n{shown}");
        }
        // The header ends in a whole word, not cut at the edge.
        assert!(header.trim_end_matches('"').ends_with(' '), "{shown}");
        let footer = lines[lines.len() - 1];
        for part in [
            "[?] pista",
            "[l] historial",
            "[RePág/AvPág] mover",
            "[Espacio] saltar",
            "[q] guardar y parar",
        ] {
            assert!(footer.contains(part), "{part}:\n{shown}");
        }
        // "salir" is leading a card, never quitting (issue 50).
        assert!(!footer.contains("salir"), "{shown}");
        for english in ["[Space]", "[Enter]", "PgUp"] {
            assert!(!shown.contains(english), "{english}:\n{shown}");
        }
        assert!(shown.matches("salir").count() <= 2, "{shown}");
    }
}

/// The same table in Spanish (`--lang es`): the log, the stage and the
/// spaces come from the catalogue the browser reads too.
#[test]
fn snapshot_poker_open_in_spanish() {
    let app = spanish(&reach(
        &pagat(),
        4,
        |d| matches!(d, Decision::Open { .. }),
        0,
    ));
    let shown = screen(&app, 80, 24);
    for spanish in [
        "reparto 1/4 · reparte",
        "Tu mano: ",
        "Póquer: nadie ha apostado",
    ] {
        assert!(shown.contains(spanish), "{spanish}:\n{shown}");
    }
    insta::assert_snapshot!(shown);
}

#[test]
fn snapshot_poker_respond() {
    let mut app = reach(&pagat(), 4, |d| matches!(d, Decision::Respond { .. }), 0);
    ch(&mut app, '3');
    insta::assert_snapshot!(screen(&app, 80, 24));
}

#[test]
fn snapshot_choose_five() {
    let mut app = reach(&pagat(), 4, |d| matches!(d, Decision::ChooseFive { .. }), 0);
    // Move right and drop a card of the best five.
    key(&mut app, KeyCode::Right);
    insta::assert_snapshot!("choose_five_best", screen(&app, 80, 24));
    let five = app.input.five;
    for _ in 0..20 {
        if five.len() == 5
            && five.contains(super::text::sorted_hand(app.shown.hand)[app.input.cursor])
        {
            break;
        }
        key(&mut app, KeyCode::Right);
    }
    ch(&mut app, ' ');
    assert_eq!(app.input.five.len(), 4);
    key(&mut app, KeyCode::Enter);
    assert!(
        app.message
            .as_deref()
            .unwrap_or("")
            .contains("exactly five")
    );
    insta::assert_snapshot!("choose_five_four", screen(&app, 80, 24));
}

#[test]
fn snapshot_michigan_lead() {
    let app = reach(&pagat(), 4, |d| matches!(d, Decision::Lead { .. }), 1);
    insta::assert_snapshot!(screen(&app, 80, 24));
}

#[test]
fn snapshot_misplay_lead_and_follow() {
    let rules = Rules::preset(Preset::MichiganCasino);
    // A lead where some card is not the lowest of its suit: a misplay.
    let mut app = reach(
        &rules,
        4,
        |d| matches!(d, Decision::Lead { cards } if cards.len() > 4),
        0,
    );
    let hand = super::text::sorted_hand(app.shown.hand);
    for _ in 0..hand.len() {
        if app.is_misplay(hand[app.input.cursor]) {
            break;
        }
        key(&mut app, KeyCode::Right);
    }
    insta::assert_snapshot!("misplay_lead", screen(&app, 80, 24));
    let app = reach(&rules, 4, |d| matches!(d, Decision::Follow { .. }), 0);
    insta::assert_snapshot!("follow", screen(&app, 80, 24));
}

/// The screen's words, lines joined and spaces collapsed: a text wrapped
/// over lines reads whole.
fn words_of(shown: &str) -> String {
    shown
        .lines()
        .map(|l| l.trim_matches('"').trim_matches(|c| "│┌┐└┘─ ".contains(c)))
        .collect::<Vec<_>>()
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Issue 28 pt 6: at 80x24 in Spanish under michigan-casino nothing a
/// player needs is cut: the header keeps the game's name with the deal's
/// facts, the withhold key says its whole warning, and the line saying
/// why a run stopped fits the layout panel in both languages (the widest
/// card, every reason).
#[test]
fn m9b_michigan_casino_in_spanish_cuts_nothing_at_80x24() {
    let rules = Rules::preset(Preset::MichiganCasino);
    let english = reach(&rules, 4, |d| matches!(d, Decision::Follow { .. }), 0);
    for lang in [Lang::Es, Lang::En] {
        let mut app = App::new(Table {
            record: english.record().clone(),
            bots: english.bot_kinds().to_vec(),
            seed: english.seed(),
            label: "michigan-casino".to_owned(),
            lang,
        })
        .expect("replays");
        let shown = screen(&app, 80, 24);
        let words = words_of(&shown);
        let head: String = shown.lines().take_while(|l| !l.contains('┌')).collect();
        for part in [
            "Tripoley · michigan-casino".to_owned(),
            lang.t("term-head-deal", &[("n", 1.into()), ("total", 4.into())]),
            lang.t("term-head-pay", &[("symbol", "♥".into())]),
            "7-8-9".to_owned(),
        ] {
            assert!(head.contains(&part), "{part}:\n{shown}");
        }
        let withhold = lang.t("term-key-withhold", &[]);
        assert!(
            words.contains(&format!("[w] {withhold}")),
            "{withhold}:\n{shown}"
        );
        let footer = shown.lines().last().unwrap_or("").to_owned();
        assert!(footer.contains(&lang.t("term-key-quit", &[])), "{shown}");
        let ten = tripoley_cards::Card::new(tripoley_cards::Rank::Ten, tripoley_cards::Suit::Clubs);
        for reason in [
            tripoley_engine::StopReason::Ace,
            tripoley_engine::StopReason::AlreadyPlayed,
            tripoley_engine::StopReason::NotPlayed,
        ] {
            app.stop = Some((Some(ten), reason));
            let shown = screen(&app, 80, 24);
            let status = format!(
                "{} {}",
                lang.t("term-stopped", &[]),
                super::text::stop_reason(Some(ten), reason, &app.context(), lang)
            );
            assert!(shown.contains(&status), "{status}:\n{shown}");
        }
    }
}

#[test]
fn d5_a_bidder_with_a_bonus_card_sees_a_lone_pass_and_enter_passes() {
    let rules = Rules::preset(Preset::MichiganCasino);
    let mut app = reach(
        &rules,
        4,
        |d| matches!(d, Decision::AuctionBid { min, max, .. } if min > max),
        0,
    );
    let text = screen(&app, 80, 24);
    assert!(text.contains("You hold a bonus card"), "{text}");
    assert!(!text.contains('◀'), "no amount to choose: {text}");
    let before = app.record.steps.len();
    key(&mut app, KeyCode::Enter);
    assert_eq!(
        app.record.steps.get(before),
        Some(&Step::Act {
            seat: HUMAN,
            action: Action::Pass
        })
    );
}

#[test]
fn m9b_a_withhold_waits_for_a_second_w_and_any_other_key_cancels_it() {
    let rules = Rules::preset(Preset::MichiganCasino);
    let mut app = reach(&rules, 4, |d| matches!(d, Decision::Follow { .. }), 0);
    let before = app.record.steps.len();
    ch(&mut app, 'w');
    assert_eq!(app.record.steps.len(), before, "one w withholds nothing");
    let text = screen(&app, 80, 24);
    assert!(text.contains("Press w again to withhold it"), "{text}");
    // Another key takes the question back: the next w asks again.
    key(&mut app, KeyCode::Left);
    assert!(!screen(&app, 80, 24).contains("Press w again"));
    ch(&mut app, 'w');
    assert_eq!(app.record.steps.len(), before);
    ch(&mut app, 'w');
    assert_eq!(
        app.record.steps.get(before),
        Some(&Step::Act {
            seat: HUMAN,
            action: Action::Withhold
        })
    );
}

#[test]
fn d5_a_dealer_not_offered_the_swap_hears_which_bonus_card_forbids_it() {
    let rules = Rules::preset(Preset::MichiganCasino);
    let app = reach(
        &rules,
        4,
        |d| {
            matches!(
                d,
                Decision::SpareOption {
                    can_swap: false,
                    ..
                }
            )
        },
        0,
    );
    let text = screen(&app, 80, 24);
    let bonus = app.game.bonus_cards(app.shown.hand);
    assert!(!bonus.is_empty());
    let first = super::text::card(bonus.iter().next().unwrap());
    assert!(text.contains("you may not swap"), "{text}");
    assert!(text.contains(&first), "{first}: {text}");
}

#[test]
fn d5_an_auction_closed_before_you_were_asked_says_your_bonus_card_forbade_a_bid() {
    // Nobody may bid (D5): the auction closes unsold at once, no question
    // asked, so the log says why the human was not asked.
    let rules = Rules::preset(Preset::MichiganCasino);
    for seed in 1..400 {
        let mut game = Game::new(rules.clone(), 4).expect("a table");
        let mut record = Record::new(rules.clone(), names(4));
        let mut rng = seeded_rng(seed);
        let mut closed_at_once = false;
        loop {
            let step = match game.pending() {
                Pending::GameOver => break,
                Pending::Chance(_) => Step::Chance(DealChance::random(&rules, &mut rng)),
                Pending::Decide { seat, decision } => {
                    if seat == HUMAN && closed_at_once {
                        let app = table_app(record, seed);
                        let said: Vec<_> = app
                            .log
                            .iter()
                            .filter(|l| l.contains("so you may not bid for this hand"))
                            .collect();
                        assert_eq!(said.len(), 1, "{:#?}", app.log);
                        return;
                    }
                    Step::Act {
                        seat,
                        action: policy(decision, &mut rng),
                    }
                }
            };
            let hand = game.view(Some(HUMAN)).hand;
            let mut events = Vec::new();
            game.step(&step, &mut events).expect("legal");
            record.steps.push(step);
            closed_at_once |= game.view(Some(HUMAN)).dealer != HUMAN
                && events
                    .windows(2)
                    .any(|w| matches!(w, [Event::AuctionOpened { .. }, Event::AuctionUnsold]))
                && !game.bonus_cards(hand).is_empty();
        }
    }
    panic!("no seed closes an auction before the human is asked");
}

#[test]
fn a_deal_that_asks_you_nothing_says_why_when_it_ends() {
    // Cosmo has no poker: with every Michigan play forced, a deal can pass
    // without a question; the log and the deal's end say so, the others not.
    for seed in 1..40 {
        let app = finish(new_game(
            Rules::preset(Preset::Cosmo),
            3,
            seed,
            BotKind::Heuristic,
        ));
        // The record's deals, each from its chance step (the last ones: the
        // first chance step may be the draw for the first dealer), and
        // those with no act of the human's.
        let chunks: Vec<&[Step]> = app
            .record()
            .steps
            .split(|s| matches!(s, Step::Chance(_)))
            .collect();
        let deals = app
            .log
            .iter()
            .filter(|l| l.starts_with("Deal ") && l.ends_with(" is over."))
            .count();
        assert!(deals > 0);
        let quiet = chunks[chunks.len() - deals..]
            .iter()
            .filter(|d| !d.iter().any(|s| matches!(s, Step::Act { seat: HUMAN, .. })))
            .count();
        let said = app
            .log
            .iter()
            .filter(|l| l.starts_with("Nothing to decide this deal: no poker"))
            .count();
        assert_eq!(said, quiet, "seed {seed}: {:#?}", app.log);
        if quiet > 0 {
            return;
        }
    }
    panic!("no seed gives a deal without a question");
}

fn pay_suit_auction() -> Rules {
    let mut rules = Rules::preset(Preset::Rummoli);
    rules.pay_suit = PaySuitRule::Auction;
    rules.validate().expect("valid house rules");
    rules
}

#[test]
fn snapshot_pay_suit_auction_and_naming() {
    let rules = pay_suit_auction();
    let app = reach(&rules, 3, |d| matches!(d, Decision::PaySuitBid { .. }), 0);
    insta::assert_snapshot!("pay_suit_bid", screen(&app, 80, 24));
    let app = reach(&rules, 3, |d| matches!(d, Decision::NamePaySuit), 0);
    insta::assert_snapshot!("name_pay_suit", screen(&app, 80, 24));
}

#[test]
fn snapshot_nine_players_fit() {
    let app = reach(
        &pagat(),
        9,
        |d| matches!(d, Decision::Open { .. } | Decision::Respond { .. }),
        0,
    );
    insta::assert_snapshot!(screen(&app, 80, 24));
}

/// The game played on through the keys to the end of its deal.
fn to_deal_over(mut app: App) -> App {
    let mut guard = 0;
    while app.screen() != Screen::DealOver {
        guard += 1;
        assert!(guard < 10_000, "the deal ends");
        if app.my_decision().is_some() {
            key(&mut app, KeyCode::Enter);
            ch(&mut app, 'p');
        } else {
            app.tick();
        }
    }
    app
}

#[test]
fn snapshot_deal_over_and_standings() {
    let app = to_deal_over(reach(
        &pagat(),
        3,
        |d| matches!(d, Decision::Lead { .. }),
        0,
    ));
    insta::assert_snapshot!("deal_over", screen(&app, 80, 24));
    let app = finish(app);
    insta::assert_snapshot!("standings", screen(&app, 80, 24));
}

/// Issue 50: at 80x24 the deal's ledger keeps its whole title in both
/// languages, with the widest name beside it ("…y por q┐" was cut), and a
/// name of joined emoji keeps the chips' columns.
#[test]
fn the_ledger_title_fits_80_columns_with_the_widest_names() {
    let start = reach(&pagat(), 3, |d| matches!(d, Decision::Lead { .. }), 0);
    let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467} Ana";
    for (name, lang) in [
        ("Maximiliano Ruiz", Lang::Es),
        ("Maximiliano Ruiz", Lang::En),
        (family, Lang::Es),
    ] {
        let mut record = start.record().clone();
        record.names[usize::from(HUMAN)] = name.to_owned();
        let app = to_deal_over(
            App::new(Table {
                record,
                bots: start.bot_kinds().to_vec(),
                seed: start.seed(),
                label: "test".to_owned(),
                lang,
            })
            .expect("replays"),
        );
        let shown = screen(&app, 80, 24);
        let title = app.words.lang.t(
            "term-deal-over",
            &[("n", 1.into()), ("total", app.shown.deals_total.into())],
        );
        assert!(shown.contains(&format!(" {title} ")), "{title}:\n{shown}");
        // The chips' box: every row's numbers end at the same column.
        let ends: Vec<usize> = shown
            .lines()
            .skip(2)
            .take(3)
            .map(|l| {
                // The row as drawn: between the quotes (a wide picture's
                // hidden cell is listed after them).
                let drawn = l.split('"').nth(1).expect("a quoted row");
                let row = drawn.rsplit("││").next().expect("the chips' box");
                tripoley_i18n::names::width(row.trim_end_matches(['│', ' ']))
            })
            .collect();
        assert!(ends.iter().all(|&e| e == ends[0]), "{ends:?}\n{shown}");
    }
}

#[test]
fn too_small_a_terminal_says_so() {
    let app = reach(&pagat(), 4, |d| matches!(d, Decision::Open { .. }), 0);
    let text = screen(&app, 60, 20);
    assert!(text.contains("at least 80x24"), "{text}");
}

#[test]
fn no_color_means_no_colours() {
    let mut app = reach(&pagat(), 4, |d| matches!(d, Decision::Lead { .. }), 0);
    let colours = |app: &App| {
        let mut terminal = Terminal::new(TestBackend::new(80, 24)).expect("a test terminal");
        terminal.draw(|f| ui::draw(f, app)).expect("draws");
        terminal
            .backend()
            .buffer()
            .content()
            .iter()
            .filter(|c| c.fg != Color::Reset || c.bg != Color::Reset)
            .count()
    };
    assert!(colours(&app) > 0);
    app.set_color(false);
    assert_eq!(colours(&app), 0);
}

#[test]
fn hint_shows_and_presets_the_heuristic_move() {
    let mut app = reach(&pagat(), 4, |d| matches!(d, Decision::ChooseFive { .. }), 0);
    app.input.five = CardSet::EMPTY;
    ch(&mut app, '?');
    let hint = app.hint.clone().expect("a hint");
    assert!(
        hint.starts_with("Hint from the expert bot (3,000 sample deals played out): set apart"),
        "{hint}"
    );
    assert_eq!(app.input.five.len(), 5);
    assert!(screen(&app, 80, 24).contains("Hint from the expert bot"));
}

#[test]
fn the_hint_says_why_in_expected_chips() {
    let mut app = reach(&pagat(), 4, |d| matches!(d, Decision::Open { .. }), 0);
    ch(&mut app, '?');
    let hint = app.hint.clone().expect("a hint");
    // The best answer's worth at the deal's end, then the next best's, lower.
    let worths: Vec<f64> = hint
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .filter(|w| w.contains('.') && w.len() > 2)
        .filter_map(|w| w.trim_end_matches('.').parse().ok())
        .collect();
    assert!(
        hint.contains("chips expected at the deal's end; next best, "),
        "{hint}"
    );
    assert!(worths.len() >= 2 && worths[0] >= worths[1], "{hint}");
}

#[test]
fn the_whole_hint_shows_at_80_and_100_columns() {
    let mut app = reach(&pagat(), 4, |d| matches!(d, Decision::Open { .. }), 0);
    ch(&mut app, '?');
    let hint = app.hint.clone().expect("a hint");
    for (w, h) in [(80, 24), (100, 30)] {
        let text = screen(&app, w, h);
        // Every word of the hint is on the screen, its end included (the
        // screen's rows are quoted).
        let rows = text.replace('"', " ");
        let shown: String = rows.split_whitespace().collect::<Vec<_>>().join(" ");
        let words: String = hint.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(shown.contains(&words), "{w}x{h}: {hint}\n{text}");
    }
}

#[test]
fn amounts_follow_arrows_and_digits() {
    let mut app = reach(
        &pagat(),
        4,
        |d| matches!(d, Decision::Open { max_bet } if *max_bet >= 10),
        0,
    );
    assert_eq!(app.input.amount, 1);
    key(&mut app, KeyCode::Up);
    assert_eq!(app.input.amount, 6);
    key(&mut app, KeyCode::End);
    assert_eq!(app.input.amount, 10);
    ch(&mut app, '4');
    assert_eq!(app.input.amount, 4);
    ch(&mut app, '2');
    assert_eq!(app.input.amount, 2, "42 is over the limit: a fresh 2");
    key(&mut app, KeyCode::Left);
    key(&mut app, KeyCode::Left);
    assert_eq!(app.input.amount, 1, "never below the minimum");
    let steps = app.record().steps.len();
    ch(&mut app, 'b');
    assert_eq!(
        app.record().steps[steps],
        Step::Act {
            seat: HUMAN,
            action: Action::Bet(1)
        }
    );
}

/// Plays the human's decision with keys only, choosing by the decision and
/// the record's length (so that a resumed game is played the same way).
fn play_keys(app: &mut App) {
    let Some(decision) = app.my_decision() else {
        return;
    };
    let k = app.record().steps.len();
    if k % 7 == 0 {
        ch(app, '?');
    }
    match decision {
        Decision::SpareOption { can_auction, .. } => {
            ch(app, if can_auction && k % 2 == 0 { 'a' } else { 'k' });
        }
        Decision::AuctionBid { min, max, .. } | Decision::PaySuitBid { min, max } => {
            // With nothing to bid (too few chips, a bonus card), a pass.
            ch(app, if k % 3 == 0 && min <= max { 'b' } else { 'p' });
        }
        Decision::NamePaySuit => ch(app, 'h'),
        Decision::Open { .. } => {
            key(app, KeyCode::Right);
            ch(app, if k % 2 == 0 { 'b' } else { 'c' });
        }
        Decision::Respond { .. } => ch(app, if k % 5 == 0 { 'f' } else { 'c' }),
        Decision::ChooseFive { .. } => {
            key(app, KeyCode::Left);
            ch(app, ' ');
            ch(app, ' ');
            key(app, KeyCode::Enter);
        }
        Decision::Lead { .. } => {
            if k % 2 == 0 {
                key(app, KeyCode::Right);
            }
            key(app, KeyCode::Enter);
        }
        Decision::Follow { .. } => ch(app, 'p'),
    }
    assert!(
        app.my_decision().is_none() || app.record().steps.len() > k,
        "the keys answered {decision:?}"
    );
}

/// Plays on to the final standings, through the keys and ticks.
fn finish(app: App) -> App {
    finish_watching(app, |_| {})
}

/// [`finish`], showing `watch` the app before every key or tick.
fn finish_watching(mut app: App, mut watch: impl FnMut(&App)) -> App {
    for _ in 0..200_000 {
        watch(&app);
        match app.screen() {
            Screen::Standings => return app,
            Screen::DealOver => key(&mut app, KeyCode::Enter),
            Screen::Table if app.my_decision().is_some() => play_keys(&mut app),
            Screen::Table => {
                if app.record().steps.len() % 3 == 0 {
                    ch(&mut app, ' ');
                } else {
                    app.tick();
                }
            }
        }
    }
    panic!("the game did not end");
}

fn new_game(rules: Rules, players: usize, seed: u64, bots: BotKind) -> App {
    let mut kinds = vec![None];
    kinds.extend((1..players).map(|_| Some(bots)));
    App::new(Table {
        record: Record::new(rules, names(players)),
        bots: kinds,
        seed,
        label: "test".to_owned(),
        lang: Lang::En,
    })
    .expect("a table")
}

/// Whole games in Spanish through the keys, under presets that between
/// them reach every stage (a missing message or argument fails the ci
/// profile's debug assertions); the log has no English line left.
#[test]
fn whole_games_in_spanish() {
    for (preset, players) in [
        (Preset::Pagat, 4),
        (Preset::MichiganCasino, 3),
        (Preset::Cosmo, 3),
    ] {
        let mut kinds = vec![None];
        kinds.extend((1..players).map(|_| Some(BotKind::Heuristic)));
        let app = finish(
            App::new(Table {
                record: Record::new(Rules::preset(preset), names(players)),
                bots: kinds,
                seed: 5,
                label: "prueba".to_owned(),
                lang: Lang::Es,
            })
            .expect("a table"),
        );
        assert!(app.is_over(), "{preset}");
        for english in ["You ", " the ", "Deal ", "chips"] {
            let found: Vec<_> = app.log.iter().filter(|l| l.contains(english)).collect();
            assert!(found.is_empty(), "{preset}: {english:?} in {found:?}");
        }
        // "tú" inside a sentence is lowercase (issue 50): "Sorteo del
        // primer repartidor: tú 2♠, Bot 1 4♠".
        let capital: Vec<_> = app
            .log
            .iter()
            .filter(|l| l.trim_start().match_indices("Tú").any(|(at, _)| at > 0))
            .collect();
        assert!(capital.is_empty(), "{preset}: {capital:?}");
        let shown = screen(&app, 80, 24);
        assert!(shown.contains("fichas"), "{preset}:\n{shown}");
    }
}

#[test]
fn a_whole_game_through_the_keys() {
    for (preset, players, bots) in [
        (Preset::Pagat, 4, BotKind::Heuristic),
        (Preset::Tripoley, 3, BotKind::Random),
        (Preset::MichiganCasino, 4, BotKind::Heuristic),
        (Preset::Cosmo, 5, BotKind::Random),
        (Preset::Rummoli, 2, BotKind::Heuristic),
    ] {
        let app = finish(new_game(Rules::preset(preset), players, 3, bots));
        assert!(app.is_over());
        let text = screen(&app, 80, 24);
        assert!(text.contains("Final standings"), "{preset}: {text}");
        assert!(text.contains("★ winner"), "{preset}: {text}");
        // The record replays to the same end, every chip accounted for.
        let (game, _) = app.record().replay().expect("the record replays");
        assert_eq!(game.pending(), Pending::GameOver);
        assert_eq!(game.chips_in_play(), game.total_chips());
        assert_eq!(app.shown.stacks.as_slice(), game.stacks(), "{preset}");
    }
}

#[test]
fn t5_a_whole_game_with_chips_of_different_values() {
    let mut rules = Rules::preset(Preset::MichiganCasino);
    rules.space_antes = [(Space::Pot, 2), (Space::Kitty, 2)].into();
    let app = finish(new_game(rules, 4, 7, BotKind::Heuristic));
    assert!(screen(&app, 80, 24).contains("Final standings"));
    // The first antes: 11 from each player, 20 from the dealer (one more
    // on each of 9 spaces).
    let (game, events) = app.record().replay().expect("the record replays");
    let first: u32 = events
        .iter()
        .take_while(|e| !matches!(e, Event::DealStarted { .. }))
        .filter_map(|e| match e {
            Event::Transfer(t) if t.reason == Reason::Ante => Some(t.amount),
            _ => None,
        })
        .sum();
    assert_eq!(first, 3 * 11 + 20);
    assert_eq!(game.chips_in_play(), game.total_chips());
    assert_eq!(app.shown.stacks.as_slice(), game.stacks());
}

#[test]
fn final_standings_say_when_lines_are_below_and_scroll_to_them() {
    // Nine players and a long final pot ledger: some game overflows 80x24.
    for seed in 0..30 {
        let mut app = finish(new_game(pagat(), 9, seed, BotKind::Heuristic));
        let text = screen(&app, 80, 24);
        if !text.contains("below") {
            continue;
        }
        assert!(text.contains("more line"), "{text}");
        for _ in 0..60 {
            key(&mut app, KeyCode::Down);
        }
        let text = screen(&app, 80, 24);
        assert!(!text.contains("below"), "{text}");
        assert!(
            text.contains("won the final pot"),
            "the last lines show: {text}"
        );
        return;
    }
    panic!("no final standings overflowed 80x24");
}

#[test]
fn a_whole_game_with_the_pay_suit_auction() {
    let app = finish(new_game(pay_suit_auction(), 3, 5, BotKind::Heuristic));
    assert!(screen(&app, 80, 24).contains("Final standings"));
}

#[test]
fn a_saved_game_resumes_exactly() {
    let whole = finish(new_game(pagat(), 4, 11, BotKind::Random));
    // The same game, saved in the middle of the second deal, then resumed.
    let mut app = new_game(pagat(), 4, 11, BotKind::Random);
    while app.shown.deal_number < 2 || app.my_decision().is_none() {
        match app.screen() {
            Screen::DealOver => key(&mut app, KeyCode::Enter),
            _ if app.my_decision().is_some() => play_keys(&mut app),
            _ => {
                app.tick();
            }
        }
    }
    let json = saved_json(&app);
    let (record, meta) = parse_saved(&json).expect("reads back");
    assert_eq!(meta.seed, 11);
    assert_eq!(&record, app.record());
    // `tripoley replay` reads the file as a plain record.
    assert_eq!(Record::from_json(&json).expect("a record"), record);
    let resumed = App::new(Table {
        record,
        bots: meta.bots,
        seed: meta.seed,
        label: meta.label,
        lang: Lang::En,
    })
    .expect("resumes");
    assert!(resumed.log.iter().any(|l| l.contains("resumed")));
    let resumed = finish(resumed);
    assert_eq!(resumed.record(), whole.record());
}

#[test]
fn quitting_asks_first() {
    let mut app = reach(&pagat(), 4, |d| matches!(d, Decision::Open { .. }), 0);
    ch(&mut app, 'q');
    assert!(screen(&app, 80, 24).contains("Save and quit?"));
    ch(&mut app, 'n');
    assert!(!app.wants_quit());
    ch(&mut app, 'q');
    ch(&mut app, 'y');
    assert!(app.wants_quit());
}

#[test]
fn the_ledger_panel_shows_who_paid_whom() {
    let mut app = reach(&pagat(), 4, |d| matches!(d, Decision::Lead { .. }), 0);
    ch(&mut app, 'l');
    let text = screen(&app, 80, 24);
    assert!(text.contains("Ledger of deal"), "{text}");
    assert!(text.contains("poker bets"), "{text}");
    // The ledger reads back from its newest line: the antes are further up.
    key(&mut app, KeyCode::PageUp);
    key(&mut app, KeyCode::PageUp);
    let text = screen(&app, 80, 24);
    assert!(text.contains("Antes: you 9, Bot 1 9"), "{text}");
}

#[test]
fn a_finished_game_resumes_on_its_standings() {
    let app = finish(new_game(
        Rules::preset(Preset::Tripoley),
        3,
        2,
        BotKind::Random,
    ));
    let (record, meta) = parse_saved(&saved_json(&app)).expect("reads back");
    let again = App::new(Table {
        record,
        bots: meta.bots,
        seed: meta.seed,
        label: meta.label,
        lang: Lang::En,
    })
    .expect("resumes");
    assert_eq!(again.screen(), Screen::Standings);
    assert!(!again.busy());
}

#[test]
fn a_save_file_with_escape_sequences_in_a_name_is_refused() {
    let app = new_game(pagat(), 3, 2, BotKind::Random);
    let mut value: serde_json::Value = serde_json::from_str(&saved_json(&app)).unwrap();
    value["names"][1] = "\u{1b}]0;owned\u{7}Bob".into();
    let why = parse_saved(&value.to_string()).expect_err("refused");
    assert!(why.contains("control characters"), "{why}");
    let mut value: serde_json::Value = serde_json::from_str(&saved_json(&app)).unwrap();
    value["play"]["label"] = "\u{1b}[2Jpagat".into();
    let why = parse_saved(&value.to_string()).expect_err("refused");
    assert!(why.contains("control characters"), "{why}");
}

#[test]
fn no_screen_shows_a_rule_id_or_a_wrong_plural() {
    let rule_id = |text: &str| {
        let chars: Vec<char> = text.chars().collect();
        chars.windows(4).any(|w| {
            w[0] == '('
                && "TDHPMEN".contains(w[1])
                && w[2].is_ascii_digit()
                && (w[3] == ')' || w[3].is_ascii_digit() || w[3] == 'a' || w[3] == 'b')
        })
    };
    for preset in [Preset::MichiganCasino, Preset::Pagat, Preset::Cosmo] {
        let mut last = String::new();
        finish_watching(
            new_game(Rules::preset(preset), 3, 4, BotKind::Random),
            |app| {
                let shown = screen(app, 80, 24);
                if shown != last {
                    assert!(!rule_id(&shown), "{preset}:\n{shown}");
                    for wrong in [" 1 cards", " 1 chips", "card(s)", "chip(s)"] {
                        assert!(!shown.contains(wrong), "{preset}: {wrong}\n{shown}");
                    }
                    last = shown;
                }
            },
        );
    }
}

#[test]
fn a_scrolled_log_says_so_jumps_back_at_a_decision_and_grows_with_the_terminal() {
    let mut app = new_game(pagat(), 4, 3, BotKind::Random);
    // On to a decision of the human's with a few lines of log.
    while app.my_decision().is_none() || app.log.len() < 12 {
        match app.screen() {
            Screen::DealOver => key(&mut app, KeyCode::Enter),
            _ if app.my_decision().is_some() => play_keys(&mut app),
            _ => {
                app.tick();
            }
        }
    }
    assert!(!screen(&app, 80, 24).contains("newer hidden"));
    key(&mut app, KeyCode::PageUp);
    let shown = screen(&app, 80, 24);
    assert!(shown.contains("▼ 5 newer lines hidden: PgDn"), "{shown}");
    // A taller terminal shows more of the log.
    key(&mut app, KeyCode::PageDown);
    let log_lines = |app: &App, h: u16| {
        let shown = screen(app, 80, h);
        app.log
            .iter()
            .filter(|l| shown.contains(l.as_str()))
            .count()
    };
    let (short, tall) = (log_lines(&app, 24), log_lines(&app, 40));
    assert!(tall >= short + 10, "{short} vs {tall}");
    // Scrolled back again, the next decision brings the newest lines back.
    key(&mut app, KeyCode::PageUp);
    let step = app.record().steps.len();
    while app.record().steps.len() == step || app.my_decision().is_none() {
        match app.screen() {
            Screen::DealOver => key(&mut app, KeyCode::Enter),
            _ if app.my_decision().is_some() => play_keys(&mut app),
            _ => {
                app.tick();
            }
        }
    }
    assert_eq!(app.scroll, 0);
    assert!(!screen(&app, 80, 24).contains("newer hidden"));
}

#[test]
fn card_counts_shown_add_up_to_the_deck_fresh_and_after_a_resume() {
    // Every card is in a hand, the spare, or played: what the players panel
    // shows must add up to 52 at every moment of stage 3, never counting a
    // card played after what is shown (cosmo plays forced leads at once).
    let check = |app: &App| {
        let v = &app.shown;
        if v.stage == tripoley_engine::Stage::Michigan {
            let held: u32 = v.hand_sizes.iter().sum();
            let played: u32 = v.played.iter().map(|p| p.len()).sum();
            assert_eq!(held + v.spare_size + played, 52, "deal {}", v.deal_number);
        }
    };
    let cosmo = Rules::preset(Preset::Cosmo);
    finish_watching(new_game(cosmo.clone(), 4, 9, BotKind::Heuristic), check);
    // Saved after the first deal's first lead, then resumed.
    let mut app = new_game(cosmo, 4, 9, BotKind::Heuristic);
    while app.shown.stage != tripoley_engine::Stage::Michigan {
        match app.screen() {
            _ if app.my_decision().is_some() => play_keys(&mut app),
            _ => {
                app.tick();
            }
        }
    }
    let (record, meta) = parse_saved(&saved_json(&app)).expect("reads back");
    let resumed = App::new(Table {
        record,
        bots: meta.bots,
        seed: meta.seed,
        label: meta.label,
        lang: Lang::En,
    })
    .expect("resumes");
    finish_watching(resumed, check);
}

#[test]
fn deal_ends_say_how_michigan_ended_and_the_game_end_what_stays_on_the_layout() {
    for preset in [Preset::Cosmo, Preset::Pagat] {
        let mut endings = 0;
        let app = finish_watching(
            new_game(Rules::preset(preset), 4, 9, BotKind::Heuristic),
            |app| {
                if app.screen() == Screen::DealOver {
                    let shown = screen(app, 80, 24);
                    let michigan = shown.contains("Michigan: ") && shown.contains(" went out on ")
                        || shown.contains("Michigan ended blocked");
                    assert!(michigan, "{preset}:\n{shown}");
                    endings += 1;
                }
            },
        );
        assert!(endings > 0);
        let left: u32 = app.shown.layout.iter().map(|l| l.1).sum();
        let shown = screen(&app, 80, 40);
        assert_eq!(
            shown.contains("on the layout nobody won"),
            left > 0,
            "{preset}: {left}\n{shown}"
        );
        if preset == Preset::Pagat {
            assert!(shown.contains("Final pot: "), "{shown}");
        }
    }
}

#[test]
fn sixteen_character_names_are_shown_whole() {
    let mut record = Record::new(pagat(), names(4));
    record.names[0] = "Bartholomew Long".to_owned();
    record.names[2] = "Maximilianus 2nd".to_owned();
    let mut app = table_app(record, 5);
    app.skip();
    let shown = screen(&app, 80, 24);
    assert!(
        shown.contains("Bartholomew Long") && shown.contains("Maximilianus 2nd"),
        "{shown}"
    );
    let app = finish_watching(app, |app| {
        if app.screen() == Screen::DealOver {
            let shown = screen(app, 80, 24);
            assert!(shown.contains("Maximilianus 2nd "), "{shown}");
        }
    });
    assert!(screen(&app, 80, 24).contains("Maximilianus 2nd"));
}

/// `--name` and the names of a saved file follow one rule, by columns:
/// 16 columns of CJK pass, 17 do not; invisible names and bidi overrides
/// are refused; a file's 20-character name is refused as `--name` would be.
#[test]
fn names_follow_one_rule_by_display_width() {
    assert!(super::player_name("漢字漢字漢字漢字").is_ok());
    assert!(super::player_name("漢字漢字漢字漢字漢").is_err());
    assert!(super::player_name("\u{200B}\u{200B}").is_err());
    assert!(super::player_name("Ann\u{202E}toB").is_err());
    let long = "abcdefghijklmnopqrst".to_owned();
    assert!(crate::setup::check_names(&["Ann".to_owned(), long]).is_err());
    assert!(crate::setup::check_names(&["Ann".to_owned(), "Bot 1".to_owned()]).is_ok());
    // Issue 31 pt 8: by Unicode properties and by looks, as at the web table.
    for bad in [
        "Ann\u{2028}",
        "\u{1D173}",
        "B\u{043E}t 1",
        "Ann (y\u{043E}u)",
        "Bot 2",
    ] {
        assert!(super::player_name(bad).is_err(), "{bad:?}");
    }
    let tower = format!("a{}", "\u{0301}".repeat(23));
    assert!(crate::setup::check_names(&[tower]).is_err());
}

/// P7: chips nobody matched after an all-in go back to their owner; the log
/// says so, and never as a second pot won.
#[test]
fn p7_unmatched_chips_are_taken_back_not_won() {
    let ctx = Context {
        pay_suit: None,
        deals_total: 1,
        spare_known: CardSet::EMPTY,
        misplays: false,
    };
    let back = |to: Seat| {
        Event::Transfer(Transfer {
            from: Account::Space(Space::Pot),
            to: Account::Stack(to),
            amount: 9,
            reason: Reason::Unmatched,
        })
    };
    for (lang, you, bot) in [
        (
            Lang::En,
            "You take back 9 chips nobody matched.",
            "Bot 1 takes back 9 chips nobody matched.",
        ),
        (
            Lang::Es,
            "Recuperas 9 fichas que nadie igualó.",
            "Bot 1 recupera 9 fichas que nadie igualó.",
        ),
    ] {
        let words = Words {
            names: names(3),
            me: 0,
            lang,
        };
        assert_eq!(words.event(&back(0), &ctx).as_deref(), Some(you));
        assert_eq!(words.event(&back(1), &ctx).as_deref(), Some(bot));
    }
}

/// A game played in Spanish and resumed without `--lang` goes on in
/// Spanish (the save remembers its language); `--lang` still wins.
#[test]
fn a_resumed_spanish_game_keeps_its_language() {
    let app = spanish(&new_game(pagat(), 3, 5, BotKind::Random));
    let json = saved_json(&app);
    let (_, meta) = parse_saved(&json).expect("reads back");
    assert_eq!(meta.language(), Ok(Some(Lang::Es)));
    let file = std::env::temp_dir().join(format!("tripoley-lang-{}.json", std::process::id()));
    std::fs::write(&file, &json).unwrap();
    let kept = super::resume_table(&file, None).map(|(t, _)| t.lang);
    let asked = super::resume_table(&file, Some(Lang::En)).map(|(t, _)| t.lang);
    std::fs::remove_file(&file).unwrap();
    assert_eq!((kept.ok(), asked.ok()), (Some(Lang::Es), Some(Lang::En)));
    // An unknown language is refused, not guessed.
    let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
    v["play"]["lang"] = "xx".into();
    let (_, meta) = parse_saved(&v.to_string()).expect("reads back");
    assert!(meta.language().is_err());
}

/// The bots' levels on the standings are in the game's language.
#[test]
fn bot_levels_are_said_in_spanish() {
    let app = finish(new_game(pagat(), 3, 7, BotKind::Heuristic));
    let shown = screen(&spanish(&app), 80, 24);
    assert!(shown.contains("(heurístico)"), "{shown}");
    assert!(!shown.contains("(heuristic)"), "{shown}");
}

/// M4, M10: a skip-ahead (Enter or Space while the game moves on) stops at
/// each new lead of the human's, even one with a single card: it is asked,
/// so one key never plays a run of yours.
#[test]
fn a_skip_ahead_stops_at_each_lead_of_yours() {
    let (mut most, mut only) = (0, 0);
    for seed in 0..6 {
        let mut app = new_game(pagat(), 3, seed, BotKind::Random);
        for _ in 0..100_000 {
            match app.screen() {
                Screen::Standings => break,
                Screen::DealOver => key(&mut app, KeyCode::Enter),
                Screen::Table if app.my_decision().is_some() => {
                    if let Some(Decision::Lead { cards }) = app.my_decision()
                        && cards.len() == 1
                    {
                        only += 1;
                        let shown = screen(&app, 80, 24);
                        assert!(shown.contains("Your only lead: "), "{shown}");
                    }
                    play_keys(&mut app);
                }
                Screen::Table => {
                    let before = app.log.len();
                    key(&mut app, KeyCode::Enter);
                    let leads = app.log[before.min(app.log.len())..]
                        .iter()
                        .filter(|l| l.starts_with("You lead"))
                        .count();
                    most = most.max(leads);
                }
            }
        }
    }
    assert_eq!(most, 0, "a skip played {most} leads of yours");
    assert!(only > 0, "no lead with one card was asked");
}

/// `?` never silently replaces a five the player chose: it keeps it and
/// says so, and a second `?` picks the expert's; the five picked for the
/// player is replaced, and the hint says that too. Failed before: the
/// first `?` replaced the player's five without a word.
#[test]
fn p1_the_hint_keeps_a_five_you_chose_and_says_so() {
    let mut app = reach(&pagat(), 4, |d| matches!(d, Decision::ChooseFive { .. }), 0);
    let preselected = app.input.five;
    ch(&mut app, '?');
    let hint = app.hint.clone().expect("a hint");
    let expert = app.input.five;
    assert_eq!(expert.len(), 5);
    if expert != preselected {
        assert!(
            hint.ends_with("The expert's five are picked now: Enter sets them apart."),
            "{hint}"
        );
    }
    // A five of the player's own: neither the best nor the expert's.
    let hand = super::text::sorted_hand(app.shown.hand);
    let own: CardSet = hand
        .iter()
        .copied()
        .filter(|&c| !expert.contains(c))
        .chain(hand.iter().copied().filter(|&c| expert.contains(c)))
        .take(5)
        .collect();
    assert!(own != expert && own != preselected);
    app.input.five = own;
    ch(&mut app, '?');
    let hint = app.hint.clone().expect("a hint");
    assert_eq!(app.input.five, own, "the player's five stays");
    assert!(
        hint.ends_with("Your own five stay picked: press ? again to pick the expert's."),
        "{hint}"
    );
    ch(&mut app, '?');
    assert_eq!(app.input.five, expert, "asked again, the expert's five");
}

/// `?` in Michigan moves the cursor to the advised lead and says so.
#[test]
fn the_hint_says_when_it_moves_the_cursor() {
    let lead = |d: &Decision| matches!(d, Decision::Lead { .. });
    let hand = super::text::sorted_hand(reach(&pagat(), 3, lead, 0).shown.hand);
    let mut said = 0;
    for start in 0..hand.len().min(6) {
        let mut app = reach(&pagat(), 3, lead, 0);
        app.input.cursor = start;
        ch(&mut app, '?');
        let hint = app.hint.clone().expect("a hint");
        let at = super::text::card(hand[app.input.cursor]);
        if app.input.cursor == start {
            assert!(!hint.contains("cursor"), "{hint}");
        } else {
            assert!(
                hint.ends_with(&format!("The cursor moved to {at}: Enter leads it.")),
                "{hint}"
            );
            said += 1;
        }
    }
    assert!(said > 0, "the cursor never moved");
}

/// P1: the five's mark shows under the cursor too ("▲•"), so moving onto a
/// chosen card never hides that it is chosen.
#[test]
fn p1_the_chosen_mark_shows_under_the_cursor() {
    let mut app = reach(&pagat(), 3, |d| matches!(d, Decision::ChooseFive { .. }), 0);
    let hand = super::text::sorted_hand(app.shown.hand);
    let chosen = hand
        .iter()
        .position(|&c| app.input.five.contains(c))
        .expect("a preselected card");
    app.input.cursor = chosen;
    let shown = screen(&app, 80, 24);
    assert!(shown.contains("▲•"), "{shown}");
}
