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
fn p1_every_player_chooses_five_before_any_bet_from_the_dealers_left() {
    let mut game = tripoley3(Rules::preset(Preset::Tripoley));
    deal(&mut game, &HANDS, "");
    assert_eq!(game.stage(), Stage::ChooseFive);
    // Seat 0 deals: seat 1 chooses first, then 2, then the dealer.
    let (seat, decision) = turn(&game);
    assert_eq!(seat, 1);
    let Decision::ChooseFive { from } = decision else {
        panic!("{decision:?}")
    };
    assert_eq!(from.len(), 13);
    assert!(
        game.apply(1, Action::Check).is_err(),
        "no bet before the fives are chosen"
    );
    assert!(
        game.apply(1, Action::Choose(cards("5C 6D 7H 8S"))).is_err(),
        "exactly five"
    );
    assert!(
        game.apply(1, Action::Choose(cards("5C 6D 7H 8S AS")))
            .is_err(),
        "of one's own hand"
    );
    // Seat 1 holds a straight but chooses a weaker five.
    let ev = act(&mut game, 1, Action::Choose(cards("5C 6D 7H 8S 10D")));
    assert_eq!(
        ev,
        vec![
            Event::ChoseFive {
                seat: 1,
                cards: cards("5C 6D 7H 8S 10D")
            },
            Event::SetFiveApart { seat: 1 }
        ]
    );
    assert_eq!(turn(&game).0, 2);
    act(&mut game, 2, Action::Choose(cards("6C 7S 8D 9H 10C")));
    act(&mut game, 0, Action::Choose(cards("2C 3D 4H 6S 8C")));
    // Now the betting: the dealer opens (P3, `tripoley`).
    assert_eq!(game.stage(), Stage::Betting);
    assert_eq!(turn(&game), (0, Decision::Open { max_bet: 10 }));
    for seat in [0, 1, 2] {
        act(&mut game, seat, Action::Check);
    }
    // The showdown shows exactly the chosen fives; seat 2's straight wins.
    assert_eq!(
        game.stage(),
        Stage::Michigan,
        "the showdown needs no decision"
    );
}

#[test]
fn p1_the_bets_are_on_the_chosen_five_and_the_showdown_shows_it() {
    let mut game = tripoley3(Rules::preset(Preset::Tripoley));
    deal(&mut game, &HANDS, "");
    choose_fives(
        &mut game,
        &["2C 3D 4H 6S 8C", "5C 6D 7H 8S 10D", "6C 7S 8D 9H 10C"],
    );
    let mut ev = Vec::new();
    for seat in [0, 1, 2] {
        ev.extend(act(&mut game, seat, Action::Check));
    }
    // Nobody bet: shown from the opener (the dealer), clockwise.
    assert_eq!(
        showed(&ev),
        vec![
            (0, cards("2C 3D 4H 6S 8C")),
            (1, cards("5C 6D 7H 8S 10D")),
            (2, cards("6C 7S 8D 9H 10C"))
        ]
    );
    assert!(transfers(&ev).contains(&won(2, 3)));
}

#[test]
fn p1_a_five_is_private_until_shown_and_a_folded_five_never_shown() {
    let mut game = tripoley3(Rules::preset(Preset::Tripoley));
    deal(&mut game, &HANDS, "");
    let ev = choose_fives(
        &mut game,
        &["2C 3D 4H 6S 8C", "5C 6D 7H 8S 9C", "5D 6C 7S 8D 9H"],
    );
    // Each choice is seen only by its chooser; the table sees that it was made.
    for e in &ev {
        match e {
            Event::ChoseFive { seat, .. } => {
                assert!(e.audience().includes(Some(*seat)));
                assert!(!e.audience().includes(None));
                assert!(!e.audience().includes(Some((*seat + 1) % 3)));
            }
            Event::SetFiveApart { .. } => assert!(e.audience().includes(None)),
            other => panic!("unexpected {other:?}"),
        }
    }
    let mine = game.view(Some(1));
    assert_eq!(mine.my_five, Some(cards("5C 6D 7H 8S 9C")));
    assert_eq!(mine.chose_five.to_vec(), vec![true, true, true]);
    for viewer in [Some(0), Some(2), None] {
        let v = game.view(viewer);
        assert!(
            !v.known_cards[1].contains_all(cards("5C 6D 7H 8S 9C")),
            "{viewer:?} does not learn seat 1's five"
        );
        assert_ne!(v.my_five, Some(cards("5C 6D 7H 8S 9C")));
    }
    assert_eq!(game.view(None).my_five, None);
    // Seat 0 bets, seat 1 folds, seat 2 calls: seat 1's five is never shown.
    let mut ev = act(&mut game, 0, Action::Bet(1));
    ev.extend(act(&mut game, 1, Action::Fold));
    ev.extend(act(&mut game, 2, Action::Call));
    assert_eq!(
        showed(&ev),
        vec![(0, cards("2C 3D 4H 6S 8C")), (2, cards("5D 6C 7S 8D 9H"))]
    );
    for viewer in [Some(0), Some(2), None] {
        let known = game.view(viewer).known_cards[1];
        assert!(known.is_empty() || viewer == Some(1), "{viewer:?}: {known}");
    }
}

#[test]
fn p1_a_hand_of_exactly_five_is_its_own_five() {
    // Nine players and the spare: hands of five or six (D1).
    let mut game = table(Rules::preset(Preset::Tripoley), 9, 0);
    deal(&mut game, &[""; 9], "");
    let ev = choose_fives(&mut game, &[]);
    let view = game.view(Some(0));
    // Whoever holds five cards was never asked: their choice was made for them.
    for seat in 0..9u8 {
        let size = game.view(Some(seat)).hand.len();
        assert!(size == 5 || size == 6);
        assert!(view.chose_five[usize::from(seat)]);
        let asked = ev
            .iter()
            .any(|e| matches!(e, Event::ChoseFive { seat: s, .. } if *s == seat));
        assert!(asked, "seat {seat}'s choice is recorded");
    }
    assert_eq!(game.stage(), Stage::Betting);
}

#[test]
fn p3_opener_left_of_dealer_or_dealer() {
    let mut game = table(Rules::preset(Preset::Pagat), 3, 0);
    deal(&mut game, &["", "", ""], "");
    act(&mut game, 0, Action::Keep);
    choose_fives(&mut game, &[]);
    assert_eq!(turn(&game), (1, Decision::Open { max_bet: 10 }));
    let mut game = tripoley3(Rules::preset(Preset::Tripoley));
    deal(&mut game, &["", "", ""], "");
    choose_fives(&mut game, &[]);
    assert_eq!(turn(&game).0, 0);
    // Clockwise from the opener.
    act(&mut game, 0, Action::Check);
    assert_eq!(turn(&game).0, 1);
}

#[test]
fn p4_bet_limit_and_raises() {
    let mut game = tripoley3(Rules::preset(Preset::Tripoley));
    deal(&mut game, &["", "", ""], "");
    choose_fives(&mut game, &[]);
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
    choose_fives(&mut game, &[]);
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
    choose_fives(&mut game, &[]);
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
    choose_fives(&mut game, &[]);
    let mut ev = Vec::new();
    for seat in [0, 1, 2] {
        ev.extend(act(&mut game, seat, Action::Check));
    }
    assert_eq!(showed(&ev).len(), 3);
}

#[test]
fn p5_round_ends_when_all_matched_and_acted() {
    let mut game = tripoley3(Rules::preset(Preset::Tripoley));
    deal(&mut game, &HANDS, "");
    choose_fives(&mut game, &[]);
    act(&mut game, 0, Action::Check);
    act(&mut game, 1, Action::Bet(2));
    act(&mut game, 2, Action::Call);
    assert_eq!(turn(&game).0, 0, "seat 0 has not acted since the bet");
    let ev = act(&mut game, 0, Action::Call);
    assert_eq!(showed(&ev).len(), 3, "the round ended in a showdown");
    assert_eq!(game.stage(), Stage::Michigan);
}

#[test]
fn p6_show_order_from_last_raiser_split_remainder_stays() {
    let mut game = tripoley3(Rules::preset(Preset::Tripoley));
    deal(&mut game, &HANDS, "");
    choose_fives(
        &mut game,
        &["2C 3D 4H 6S 8C", "5C 6D 7H 8S 9C", "5D 6C 7S 8D 9H"],
    );
    act(&mut game, 0, Action::Check);
    act(&mut game, 1, Action::Bet(2));
    act(&mut game, 2, Action::Call);
    let ev = act(&mut game, 0, Action::Call);
    // Pot: 3 antes + 6 = 9. Seat 1 bet last: it shows first, then clockwise.
    let order: Vec<u8> = showed(&ev).iter().map(|&(s, _)| s).collect();
    assert_eq!(order, vec![1, 2, 0]);
    // After seat 0's call: the split, from the dealer's left (T8).
    assert_eq!(transfers(&ev)[1..3], [won(1, 4), won(2, 4)]);
    assert_eq!(
        game.layout().get(Space::Pot),
        1,
        "the odd chip stays on the Pot"
    );
}

/// Three players at 20 chips where seat 2 collects Ace, King, Queen and
/// King-Queen in stage 1 (11 + 12 = 23 chips) and seat 0 holds trip aces:
/// the fives chosen, the betting about to open.
fn all_in_table() -> Game {
    let mut rules = Rules::preset(Preset::Tripoley);
    rules.starting_chips = 20;
    let mut game = tripoley3(rules);
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
    choose_fives(
        &mut game,
        &["AS AD AC 2C 3D", "5C 6D 7H 8S 10D", "AH KH QH 2S 3S"],
    );
    game
}

#[test]
fn p7_all_in_call_and_side_pot() {
    let mut game = all_in_table();
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
    // Showdown from the raiser: seat 2, then 0, 1. Seat 0 shows trip aces.
    let ev = act(&mut game, 1, Action::Call);
    let order: Vec<u8> = showed(&ev).iter().map(|&(s, _)| s).collect();
    assert_eq!(order, vec![2, 0, 1]);
    // Seat 2's 9 chips above the others' were never matched: they go back
    // to seat 2 (not a pot won); main pot: 3 antes + 11 x 3 = 36 to seat 0.
    assert_eq!(
        transfers(&ev)[1..],
        [won_as(2, 9, Reason::Unmatched), won(0, 36)]
    );
    assert_eq!(game.stacks()[0], 36);
}

#[test]
fn p7_unmatched_chips_return_after_an_all_in_and_a_fold() {
    let mut game = all_in_table();
    // Seat 0 bets 5; seat 1 raises 5 (10 in); seat 2 raises 10 (20 in);
    // seat 0 goes all in (11 in); seat 1 folds having put in 10.
    act(&mut game, 0, Action::Bet(5));
    act(&mut game, 1, Action::Raise(5));
    act(&mut game, 2, Action::Raise(10));
    act(&mut game, 0, Action::Call);
    let ev = act(&mut game, 1, Action::Fold);
    // Seat 2 put in 20, the most anyone else did is 11: 9 go back. The main
    // pot (3 + 11 + 10 + 11 = 35) goes to seat 0's aces; nothing else remains.
    assert_eq!(
        transfers(&ev),
        [won_as(2, 9, Reason::Unmatched), won(0, 35)]
    );
}

#[test]
fn p8_shown_cards_are_public() {
    let mut game = tripoley3(Rules::preset(Preset::Tripoley));
    deal(&mut game, &HANDS, "");
    choose_fives(
        &mut game,
        &["2C 3D 4H 6S 8C", "5C 6D 7H 8S 9C", "5D 6C 7S 8D 9H"],
    );
    for seat in [0, 1, 2] {
        act(&mut game, seat, Action::Check);
    }
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

#[test]
fn p5_a_lone_player_with_chips_who_has_matched_is_not_asked() {
    let mut rules = Rules::preset(Preset::Tripoley);
    // Everyone antes all they have; only seat 2 collects in stage 1.
    rules.starting_chips = 9;
    let mut game = tripoley3(rules);
    deal(
        &mut game,
        &["2C 3D 4H 6S 8C", "5C 6D 7H 8S 9C", "AH KH 2S 3S 4S"],
        "",
    );
    assert_eq!(game.stacks()[..2], [0, 0]);
    assert!(game.stacks()[2] > 0);
    let ev = choose_fives(&mut game, &[]);
    // Nobody could answer a bet of seat 2's: no betting decision at all,
    // straight to the showdown.
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::Checked { .. } | Event::Bet { .. }))
    );
    assert_eq!(showed(&ev).len(), 3);
    assert_eq!(game.stage(), Stage::Michigan);
}
