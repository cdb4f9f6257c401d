//! Napalm, rule by rule (N1-N7), on explicit decks.

use tripoley_cards::{Card, CardSet, Deck};
use tripoley_napalm::{
    Account, Action, Audience, Decision, Event, NapalmGame, NapalmRules, Pending, Reason, Round,
    Transfer, two_card_value,
};

fn cards(t: &str) -> CardSet {
    t.parse().unwrap()
}

/// A deck dealing each seat (by seat number) its round-1, round-2 and
/// round-3 cards, one at a time from the dealer's left; the rest follows.
#[allow(clippy::needless_range_loop)] // r indexes the inner arrays
fn deck(dealer: u8, rounds: &[[&str; 3]]) -> Deck {
    let n = rounds.len();
    let order: Vec<usize> = (1..=n).map(|i| (usize::from(dealer) + i) % n).collect();
    let mut out: Vec<Card> = Vec::new();
    for r in 0..3 {
        let lists: Vec<Vec<Card>> = order
            .iter()
            .map(|&s| cards(rounds[s][r]).to_vec())
            .collect();
        for k in 0..lists[0].len() {
            for l in &lists {
                out.push(l[k]);
            }
        }
    }
    let used: CardSet = out.iter().copied().collect();
    out.extend((CardSet::FULL - used).iter());
    Deck::from_cards(&out).unwrap()
}

/// Three players, seat 0 deals: seat 1 declares first, the dealer last.
fn three(rounds: &[[&str; 3]]) -> NapalmGame {
    let mut g = NapalmGame::new(NapalmRules::default(), 3).unwrap();
    g.deal(&deck(0, rounds)).unwrap();
    g
}

const R: [[&str; 3]; 3] = [
    ["2C 7D", "3H 4S 6C", "KD KH"],
    ["AS AH", "9C 10C JC", "AC AD"],
    ["KS QS", "2D 3D 5D", "8H 9H"],
];

fn say(g: &mut NapalmGame, seat: u8, a: Action) -> Vec<Event> {
    g.apply(seat, a)
        .unwrap_or_else(|e| panic!("seat {seat}: {e}"))
}

fn transfers(ev: &[Event]) -> Vec<Transfer> {
    ev.iter()
        .filter_map(|e| {
            if let Event::Transfer(t) = e {
                Some(*t)
            } else {
                None
            }
        })
        .collect()
}

fn side_bet(from: u8, to: u8, amount: u32) -> Transfer {
    Transfer {
        from: Account::Stack(from),
        to: Account::Stack(to),
        amount,
        reason: Reason::SideBet,
    }
}

#[test]
fn n1_everyone_antes_and_the_deal_passes_left() {
    let mut g = three(&R);
    assert_eq!(g.pot(), 3);
    assert_eq!(g.stacks(), &[99, 99, 99]);
    for _ in 0..3 {
        for seat in [1, 2, 0] {
            say(&mut g, seat, Action::No);
        }
    }
    assert_eq!(g.pending(), Pending::Deck);
    assert_eq!(g.dealer(), 1);
    assert_eq!(g.pot(), 6);
}

#[test]
fn n1_tokens_to_win_takes_the_pot() {
    let rules = NapalmRules {
        tokens_to_win: 2,
        ..NapalmRules::default()
    };
    let mut g = NapalmGame::new(rules, 2).unwrap();
    g.deal(&Deck::ordered()).unwrap();
    // Seat 1 declares first (left of dealer 0): a lone Yes twice.
    say(&mut g, 1, Action::Yes);
    let ev = say(&mut g, 0, Action::No);
    assert!(ev.contains(&Event::Token { seat: 1, tokens: 1 }));
    say(&mut g, 1, Action::Yes);
    let ev = say(&mut g, 0, Action::No);
    assert!(ev.contains(&Event::Transfer(Transfer {
        from: Account::Pot,
        to: Account::Stack(1),
        amount: 2,
        reason: Reason::PotWon
    })));
    assert!(ev.contains(&Event::GameOver { winners: vec![1] }));
    assert!(g.is_over());
    assert_eq!(g.stacks(), &[99, 101]);
}

#[test]
fn n2_declarations_from_dealers_left_dealer_last() {
    let mut g = three(&R);
    assert_eq!(
        g.pending(),
        Pending::Decide {
            seat: 1,
            decision: Decision::Declare {
                round: Round::BestTwo
            }
        }
    );
    assert!(
        g.apply(0, Action::Yes).is_err(),
        "not the dealer's turn yet"
    );
    say(&mut g, 1, Action::No);
    say(&mut g, 2, Action::No);
    assert!(matches!(g.pending(), Pending::Decide { seat: 0, .. }));
}

#[test]
fn n2_a_lone_yes_from_the_dealer_can_be_challenged() {
    let mut g = three(&R);
    say(&mut g, 1, Action::No);
    say(&mut g, 2, Action::No);
    say(&mut g, 0, Action::Yes);
    assert_eq!(
        g.pending(),
        Pending::Decide {
            seat: 1,
            decision: Decision::Challenge {
                round: Round::BestTwo
            }
        }
    );
    let ev = say(&mut g, 1, Action::Challenge);
    assert!(ev.contains(&Event::Challenged { seat: 1, yes: true }));
    let ev = say(&mut g, 2, Action::Decline);
    // Seat 1's pair of aces beats the dealer's 7-2: the dealer pays the pot (3).
    assert_eq!(transfers(&ev), vec![side_bet(0, 1, 3)]);
}

#[test]
fn n2_no_challenge_when_another_player_said_yes() {
    let mut g = three(&R);
    say(&mut g, 1, Action::Yes);
    say(&mut g, 2, Action::No);
    say(&mut g, 0, Action::Yes);
    assert!(matches!(
        g.pending(),
        Pending::Decide {
            decision: Decision::Declare {
                round: Round::LowestFive
            },
            ..
        }
    ));
}

#[test]
fn n3_pair_beats_any_two_different_cards_then_high_then_low() {
    assert!(two_card_value(cards("2C 2D")) > two_card_value(cards("AC KD")));
    assert!(two_card_value(cards("3C 3D")) > two_card_value(cards("2C 2D")));
    assert!(two_card_value(cards("AC 3D")) > two_card_value(cards("KC QD")));
    assert!(two_card_value(cards("KC 9D")) > two_card_value(cards("KD 8S")));
    assert_eq!(
        two_card_value(cards("KC 9D")),
        two_card_value(cards("KH 9S")),
        "suits never count"
    );
}

#[test]
fn n4_lowest_five_straights_and_flushes_count() {
    let mut g = three(&R);
    for seat in [1, 2, 0] {
        say(&mut g, seat, Action::No);
    }
    // Round 2 hands: seat 0 2C 7D 3H 4S 6C (7 high), seat 2 KS QS 2D 3D 5D (K high),
    // seat 1 AS AH 9C 10C JC (pair). Seats 1 and 0 say Yes: seat 0 is lower.
    say(&mut g, 1, Action::Yes);
    say(&mut g, 2, Action::No);
    let ev = say(&mut g, 0, Action::Yes);
    assert_eq!(transfers(&ev), vec![side_bet(1, 0, 3)]);
    // A straight is not low: 2-3-4-5-6 loses to K-high.
    let straight = tripoley_napalm::hand_strength(Round::LowestFive, cards("2C 3D 4H 5S 6C"));
    let king_high = tripoley_napalm::hand_strength(Round::LowestFive, cards("KC 3D 4H 5S 6C"));
    assert!(king_high > straight);
    let flush = tripoley_napalm::hand_strength(Round::LowestFive, cards("2C 3C 4C 5C 7C"));
    assert!(king_high > flush, "a flush counts against the holder");
}

#[test]
fn n5_best_five_of_seven_ace_high_only() {
    let wheel = tripoley_napalm::hand_strength(Round::BestOfSeven, cards("AC 2D 3H 4S 5C 9D JH"));
    let pair = tripoley_napalm::hand_strength(Round::BestOfSeven, cards("2C 2D 7H 8S 9C JD QH"));
    assert!(pair > wheel, "A-2-3-4-5 is no straight in Napalm");
}

#[test]
fn n6_single_yes_takes_a_token_no_yes_nothing() {
    let mut g = three(&R);
    say(&mut g, 1, Action::No);
    say(&mut g, 2, Action::Yes);
    let ev = say(&mut g, 0, Action::No);
    assert!(ev.contains(&Event::Token { seat: 2, tokens: 1 }));
    assert_eq!(g.tokens(), &[0, 0, 1]);
    let before = g.stacks().to_vec();
    for seat in [1, 2, 0] {
        say(&mut g, seat, Action::No);
    }
    assert_eq!(g.stacks(), before.as_slice());
    assert_eq!(g.tokens(), &[0, 0, 1]);
}

#[test]
fn n6_best_takes_a_side_bet_equal_to_the_pot_from_each_other_yes() {
    let mut g = three(&R);
    for seat in [1, 2, 0] {
        say(&mut g, seat, Action::No);
    }
    for seat in [1, 2, 0] {
        say(&mut g, seat, Action::No);
    }
    // Round 3: seat 1 holds four aces, seat 0 a pair of kings, seat 2 K-Q high.
    say(&mut g, 1, Action::Yes);
    say(&mut g, 2, Action::Yes);
    let ev = say(&mut g, 0, Action::Yes);
    assert_eq!(transfers(&ev)[..2], [side_bet(0, 1, 3), side_bet(2, 1, 3)]);
}

#[test]
fn n6_tie_for_best_nobody_pays_but_lower_yes_pays_each() {
    // Seats 1 and 2 hold equal two-card hands (A-K), seat 0 a lower one.
    let r: [[&str; 3]; 3] = [
        ["2C 7D", "3H 4S 6C", "KD QC"],
        ["AS KH", "9C 10C JC", "AC AD"],
        ["AH KS", "2D 3D 5D", "8H 9H"],
    ];
    let mut g = three(&r);
    say(&mut g, 1, Action::Yes);
    say(&mut g, 2, Action::Yes);
    let ev = say(&mut g, 0, Action::Yes);
    assert_eq!(transfers(&ev), vec![side_bet(0, 1, 3), side_bet(0, 2, 3)]);
    let mut g = three(&r);
    say(&mut g, 1, Action::Yes);
    say(&mut g, 2, Action::Yes);
    let ev = say(&mut g, 0, Action::No);
    assert!(
        transfers(&ev).is_empty(),
        "a tie with nobody below: nobody pays"
    );
}

#[test]
fn n7_compared_hands_are_seen_only_by_the_comparers() {
    let mut g = three(&R);
    say(&mut g, 1, Action::Yes);
    say(&mut g, 2, Action::No);
    let ev = say(&mut g, 0, Action::Yes);
    let compared = ev
        .iter()
        .find(|e| matches!(e, Event::Compared { .. }))
        .unwrap();
    assert_eq!(compared.audience(), Audience::Seats(0b011));
    assert!(compared.audience().includes(Some(0)) && compared.audience().includes(Some(1)));
    assert!(!compared.audience().includes(Some(2)) && !compared.audience().includes(None));
    assert_eq!(g.view(Some(0)).seen[1], cards("AS AH"));
    assert!(g.view(Some(2)).seen.iter().all(|s| s.is_empty()));
    assert!(g.view(None).seen.iter().all(|s| s.is_empty()));
}
