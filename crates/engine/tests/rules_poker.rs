//! Stage 2, poker: P1-P9.

mod common;

use common::*;
use tripoley_cards::{CardSet, Category};
use tripoley_engine::{
    Account, Action, Decision, Event, Game, Pending, Preset, Reason, Rules, Space, Stage, Transfer,
};

/// Tripoley, 3 players, seat 0 deals and opens (P3).
fn tripoley3(rules: Rules) -> Game {
    table(rules, 3, 0)
}

fn showed(ev: &[Event]) -> Vec<(u8, CardSet)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Showed { seat, cards, .. } => Some((*seat, *cards)),
            _ => None,
        })
        .collect()
}

fn won(to: u8, amount: u32) -> Transfer {
    won_as(to, amount, Reason::PotWon)
}

fn won_as(to: u8, amount: u32, reason: Reason) -> Transfer {
    Transfer {
        from: Account::Space(Space::Pot),
        to: Account::Stack(to),
        amount,
        reason,
    }
}

const HANDS: [&str; 3] = [
    "2C 3D 4H 6S 8C 9D",
    "5C 6D 7H 8S 9C 10D",
    "5D 6C 7S 8D 9H 10C",
];

#[test]
fn p1_a_player_may_show_any_five_not_only_the_best() {
    let mut game = tripoley3(Rules::preset(Preset::Tripoley));
    deal(&mut game, &HANDS, "");
    for seat in [0, 1, 2] {
        act(&mut game, seat, Action::Check);
    }
    assert_eq!(game.stage(), Stage::Showdown);
    let (seat, decision) = turn(&game);
    assert_eq!(seat, 0);
    let Decision::ChooseFive { from } = decision else {
        panic!("{decision:?}")
    };
    assert_eq!(from.len(), 13);
    assert!(
        game.apply(0, Action::Show(cards("2C 3D 4H 6S"))).is_err(),
        "exactly five"
    );
    assert!(
        game.apply(0, Action::Show(cards("2C 3D 4H 6S AS")))
            .is_err(),
        "of one's own hand"
    );
    act(&mut game, 0, Action::Show(cards("2C 3D 4H 6S 8C")));
    // Seat 1 holds a straight but shows a weaker hand; seat 2 shows its straight.
    act(&mut game, 1, Action::Show(cards("5C 6D 7H 8S 10D")));
    let ev = act(&mut game, 2, Action::Show(cards("6C 7S 8D 9H 10C")));
    assert!(transfers(&ev).contains(&won(2, 3)));
}

#[test]
fn p3_opener_left_of_dealer_or_dealer() {
    let mut game = table(Rules::preset(Preset::Pagat), 3, 0);
    deal(&mut game, &["", "", ""], "");
    act(&mut game, 0, Action::Keep);
    assert_eq!(turn(&game), (1, Decision::Open { max_bet: 10 }));
    let mut game = tripoley3(Rules::preset(Preset::Tripoley));
    deal(&mut game, &["", "", ""], "");
    assert_eq!(turn(&game).0, 0);
    // Clockwise from the opener.
    act(&mut game, 0, Action::Check);
    assert_eq!(turn(&game).0, 1);
}

#[test]
fn p4_bet_limit_and_raises() {
    let mut game = tripoley3(Rules::preset(Preset::Tripoley));
    deal(&mut game, &["", "", ""], "");
    assert!(game.apply(0, Action::Bet(11)).is_err());
    assert!(game.apply(0, Action::Bet(0)).is_err());
    assert!(game.apply(0, Action::Call).is_err(), "nothing to call");
    act(&mut game, 0, Action::Bet(10));
    assert_eq!(
        turn(&game),
        (
            1,
            Decision::Respond {
                to_call: 10,
                max_raise: 10
            }
        )
    );
    assert!(
        game.apply(1, Action::Check).is_err(),
        "no check after a bet"
    );
    let ev = act(&mut game, 1, Action::Raise(4));
    assert!(ev.contains(&Event::Raised {
        seat: 1,
        amount: 14,
        by: 4
    }));
    assert_eq!(
        turn(&game),
        (
            2,
            Decision::Respond {
                to_call: 14,
                max_raise: 10
            }
        )
    );
}

#[test]
fn p4_max_raises_caps_the_round() {
    let mut rules = Rules::preset(Preset::Tripoley);
    rules.max_raises = Some(1);
    let mut game = tripoley3(rules);
    deal(&mut game, &["", "", ""], "");
    act(&mut game, 0, Action::Bet(1));
    act(&mut game, 1, Action::Raise(1));
    assert_eq!(
        turn(&game),
        (
            2,
            Decision::Respond {
                to_call: 2,
                max_raise: 0
            }
        )
    );
    assert!(game.apply(2, Action::Raise(1)).is_err());
}

#[test]
fn p5_all_fold_to_one_who_takes_the_whole_pot_unseen() {
    let mut game = tripoley3(Rules::preset(Preset::Tripoley));
    deal(&mut game, &HANDS, "");
    act(&mut game, 0, Action::Bet(5));
    act(&mut game, 1, Action::Fold);
    let ev = act(&mut game, 2, Action::Fold);
    assert_eq!(transfers(&ev), vec![won(0, 8)]);
    assert!(showed(&ev).is_empty(), "nobody shows");
    assert_eq!(game.stage(), Stage::Michigan);
}

#[test]
fn p5_everyone_checks_everyone_shows() {
    let mut game = tripoley3(Rules::preset(Preset::Tripoley));
    deal(&mut game, &HANDS, "");
    for seat in [0, 1, 2] {
        act(&mut game, seat, Action::Check);
    }
    assert!(matches!(turn(&game), (0, Decision::ChooseFive { .. })));
}

#[test]
fn p5_round_ends_when_all_matched_and_acted() {
    let mut game = tripoley3(Rules::preset(Preset::Tripoley));
    deal(&mut game, &HANDS, "");
    act(&mut game, 0, Action::Check);
    act(&mut game, 1, Action::Bet(2));
    act(&mut game, 2, Action::Call);
    assert_eq!(turn(&game).0, 0, "seat 0 has not acted since the bet");
    act(&mut game, 0, Action::Call);
    assert_eq!(game.stage(), Stage::Showdown);
}

#[test]
fn p6_show_order_from_last_raiser_split_remainder_stays() {
    let mut game = tripoley3(Rules::preset(Preset::Tripoley));
    deal(&mut game, &HANDS, "");
    act(&mut game, 0, Action::Check);
    act(&mut game, 1, Action::Bet(2));
    act(&mut game, 2, Action::Call);
    act(&mut game, 0, Action::Call);
    // Pot: 3 antes + 6 = 9. Seat 1 bet last: it shows first, then clockwise.
    assert_eq!(turn(&game).0, 1);
    act(&mut game, 1, Action::Show(cards("5C 6D 7H 8S 9C")));
    assert_eq!(turn(&game).0, 2);
    act(&mut game, 2, Action::Show(cards("5D 6C 7S 8D 9H")));
    let ev = act(&mut game, 0, Action::Show(cards("2C 3D 4H 6S 8C")));
    assert_eq!(transfers(&ev)[..2], [won(1, 4), won(2, 4)]);
    assert_eq!(
        game.layout().get(Space::Pot),
        1,
        "the odd chip stays on the Pot"
    );
}

#[test]
fn p7_all_in_call_and_side_pot() {
    let mut rules = Rules::preset(Preset::Tripoley);
    rules.starting_chips = 20;
    let mut game = tripoley3(rules);
    // Seat 2 collects Ace, King, Queen and King-Queen in stage 1: 11 + 12 = 23 chips.
    deal(
        &mut game,
        &[
            "2C 3D 4H 6S 8C AS AD AC",
            "5C 6D 7H 8S 9C 10D",
            "AH KH QH 2S 3S",
        ],
        "",
    );
    assert_eq!(game.stacks(), &[11, 11, 23]);
    act(&mut game, 0, Action::Bet(10));
    act(&mut game, 1, Action::Call);
    act(&mut game, 2, Action::Raise(10));
    let ev = act(&mut game, 0, Action::Call);
    assert!(ev.contains(&Event::Called {
        seat: 0,
        amount: 1,
        all_in: true
    }));
    assert_eq!(
        turn(&game),
        (
            1,
            Decision::Respond {
                to_call: 10,
                max_raise: 0
            }
        )
    );
    act(&mut game, 1, Action::Call);
    // Showdown from the raiser: seat 2, then 0, 1. Seat 0 shows trip aces.
    act(&mut game, 2, Action::Show(cards("AH KH QH 2S 3S")));
    act(&mut game, 0, Action::Show(cards("AS AD AC 2C 3D")));
    let ev = act(&mut game, 1, Action::Show(cards("5C 6D 7H 8S 10D")));
    // Main pot: 3 antes + 11 x 3 = 36 to seat 0; the side pot, seat 2's 9 extra, back to seat 2.
    assert_eq!(transfers(&ev), vec![won(0, 36), won(2, 9)]);
    assert_eq!(game.stacks()[0], 36);
}

#[test]
fn p8_shown_cards_are_public() {
    let mut game = tripoley3(Rules::preset(Preset::Tripoley));
    deal(&mut game, &HANDS, "");
    for seat in [0, 1, 2] {
        act(&mut game, seat, Action::Check);
    }
    act(&mut game, 0, Action::Show(cards("2C 3D 4H 6S 8C")));
    act(&mut game, 1, Action::Show(cards("5C 6D 7H 8S 9C")));
    act(&mut game, 2, Action::Show(cards("5D 6C 7S 8D 9H")));
    assert_eq!(game.stage(), Stage::Michigan);
    for viewer in [Some(2), None] {
        assert!(
            game.view(viewer).known_cards[1].contains_all(cards("5C 6D 7H 8S 9C"))
                || !game.view(viewer).played[1].is_empty()
        );
    }
}

#[test]
fn p9_casino_poker_pool_after_michigan() {
    let mut game = table(Rules::preset(Preset::MichiganCasino), 3, 0);
    deal(
        &mut game,
        &[
            "2C 3D 4H 6S 8C 10C QC 2D 5D 7D 9D JD 3S",
            "AS AD AC AH 2H 3C 5H 7C 9H JH 4S 8S 10S",
            "KS KD KC KH 3H 6C 8D 10D QD 4C 6D 6H 7S",
        ],
        "",
    );
    // Dealer keeps; then play stage 3 out: proper leads, always follow.
    act(&mut game, 0, Action::Keep);
    let mut events = Vec::new();
    while game.stage() == Stage::Michigan {
        let (seat, decision) = turn(&game);
        let action = match decision {
            Decision::Lead { cards } => {
                let hand = game.view(Some(seat)).hand;
                Action::Lead(
                    cards
                        .iter()
                        .find(|c| hand.lowest_of(c.suit()) == Some(*c))
                        .unwrap(),
                )
            }
            Decision::Follow { .. } => Action::Play,
            other => panic!("{other:?}"),
        };
        events.extend(act(&mut game, seat, action));
    }
    let shown = showed(&events);
    assert_eq!(shown.len(), 3, "every hand is compared: {shown:?}");
    let pool: Vec<Transfer> = transfers(&events)
        .into_iter()
        .filter(|t| t.reason == Reason::PokerPool)
        .collect();
    // Pot: the dealer's 2 and 1 from each other player (T5).
    assert_eq!(
        pool,
        vec![won_as(1, 4, Reason::PokerPool)],
        "quad aces take the Poker Pool"
    );
    let rank = events
        .iter()
        .find_map(|e| match e {
            Event::Showed { seat: 1, rank, .. } => Some(*rank),
            _ => None,
        })
        .unwrap();
    assert_eq!(rank.category(), Category::FourOfAKind);
    assert!(matches!(
        game.pending(),
        Pending::Chance(_) | Pending::GameOver
    ));
}
