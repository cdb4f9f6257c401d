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
fn deck(dealer: u8, rounds: &[[&str; 3]]) -> Deck {
    let seats: Vec<(u8, [&str; 3])> = (0..).zip(rounds.iter().copied()).collect();
    deck_among(dealer, rounds.len() as u8, &seats)
}

/// [`deck`] for a table of `players` where only the seats listed are still
/// in (the others are skipped in the deal).
fn deck_among(dealer: u8, players: u8, hands: &[(u8, [&str; 3])]) -> Deck {
    let order: Vec<[&str; 3]> = (1..=players)
        .map(|i| (dealer + i) % players)
        .filter_map(|s| hands.iter().find(|h| h.0 == s).map(|h| h.1))
        .collect();
    let mut out: Vec<Card> = Vec::new();
    for r in 0..3 {
        let lists: Vec<Vec<Card>> = order.iter().map(|h| cards(h[r]).to_vec()).collect();
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
    let mut ev = Vec::new();
    for _ in 0..3 {
        for seat in [1, 2, 0] {
            ev.extend(say(&mut g, seat, Action::No));
        }
    }
    assert_eq!(g.pending(), Pending::Deck);
    assert_eq!(g.dealer(), 1);
    assert_eq!(g.pot(), 6);
    // N8, T8: the antes of hand 2 clockwise from its dealer's left.
    let antes: Vec<Account> = transfers(&ev).iter().map(|t| t.from).collect();
    assert_eq!(antes, [2, 0, 1].map(Account::Stack));
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
    // Payers in turn from the dealer's left (T8): seat 2, then the dealer.
    assert_eq!(transfers(&ev)[..2], [side_bet(2, 1, 3), side_bet(0, 1, 3)]);
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

/// Plays a whole hand from an ordered deck: `yes` says Yes alone in round 1
/// (and takes a token), everyone else says No, a challenge is declined.
fn hand_with_token(g: &mut NapalmGame, yes: Option<u8>) -> Vec<Event> {
    let mut ev = g.deal(&Deck::ordered()).unwrap();
    let hand = g.hands_played();
    while g.hands_played() == hand && !g.is_over() {
        let Pending::Decide { seat, decision } = g.pending() else {
            panic!("a decision is due");
        };
        let action = match decision {
            Decision::Declare { round } if round == Round::BestTwo && Some(seat) == yes => {
                Action::Yes
            }
            Decision::Declare { .. } => Action::No,
            Decision::Challenge { .. } => Action::Decline,
        };
        ev.extend(say(g, seat, action));
    }
    ev
}

fn pot_won(to: u8, amount: u32) -> Transfer {
    Transfer {
        from: Account::Pot,
        to: Account::Stack(to),
        amount,
        reason: Reason::PotWon,
    }
}

/// Three players with 3 chips each: in hand 1 seat 2 takes two tokens, then
/// loses a side bet to seat 1 and is left with nothing. Returns the game
/// waiting for hand 2's deck (dealer 1, seat 2 out).
fn seat_two_tokens_then_broke(max_hands: u32) -> NapalmGame {
    let rules = NapalmRules {
        starting_chips: 3,
        max_hands,
        ..NapalmRules::default()
    };
    let mut g = NapalmGame::new(rules, 3).unwrap();
    g.deal(&deck(
        0,
        &[
            ["2C 7D", "3H 4S 6C", "5C 8D"],
            ["3C 8C", "9C 10C JC", "AC AD"],
            ["4D 9D", "KS KH QD", "2S 3S"],
        ],
    ))
    .unwrap();
    for _ in 0..2 {
        say(&mut g, 1, Action::No);
        say(&mut g, 2, Action::Yes);
        say(&mut g, 0, Action::No);
    }
    // Round 3: seat 1's club flush beats seat 2's kings; seat 2 pays all it has.
    say(&mut g, 1, Action::Yes);
    say(&mut g, 2, Action::Yes);
    let ev = say(&mut g, 0, Action::No);
    assert!(transfers(&ev).contains(&side_bet(2, 1, 2)));
    assert!(ev.contains(&Event::PlayerOut { seat: 2, chips: 0 }));
    assert_eq!(
        (g.tokens(), g.stacks(), g.dealer()),
        (&[0, 0, 2][..], &[1, 3, 0][..], 1)
    );
    g
}

#[test]
fn n8_last_player_still_in_takes_the_pot_not_the_most_tokens() {
    let mut g = seat_two_tokens_then_broke(100);
    // Hand 2, dealer 1, seat 2 out: seat 0 then the dealer declare; seat 1's
    // aces beat seat 0, who pays its last chip and cannot ante hand 3.
    let hands = [
        (0, ["2C 3D", "4C 5D 7H", "9S JD"]),
        (1, ["AS AH", "6S 8S 10S", "QH QC"]),
    ];
    g.deal(&deck_among(1, 3, &hands)).unwrap();
    say(&mut g, 0, Action::Yes);
    let ev = say(&mut g, 1, Action::Yes);
    assert_eq!(transfers(&ev), vec![side_bet(0, 1, 1)]);
    let mut ev = Vec::new();
    for _ in 0..2 {
        ev.extend(say(&mut g, 0, Action::No));
        ev.extend(say(&mut g, 1, Action::No));
    }
    assert!(ev.contains(&Event::PlayerOut { seat: 0, chips: 0 }));
    assert_eq!(transfers(&ev), vec![pot_won(1, 5)]);
    assert_eq!(ev.last(), Some(&Event::GameOver { winners: vec![1] }));
    assert_eq!(g.stacks(), &[0, 9, 0]);
    assert_eq!(
        g.tokens(),
        &[0, 0, 2],
        "seat 2 had the most tokens but was out"
    );
}

#[test]
fn n8_all_out_at_once_share_the_pot_as_tied_winners() {
    let rules = NapalmRules {
        starting_chips: 1,
        ..NapalmRules::default()
    };
    let mut g = NapalmGame::new(rules, 2).unwrap();
    let ev = hand_with_token(&mut g, Some(1));
    assert_eq!(g.tokens(), &[0, 1]);
    assert!(ev.contains(&Event::PlayerOut { seat: 0, chips: 0 }));
    assert!(ev.contains(&Event::PlayerOut { seat: 1, chips: 0 }));
    // Dealer 0's left first (T8); no odd chip with two.
    let won: Vec<Transfer> = transfers(&ev)
        .into_iter()
        .filter(|t| t.reason == Reason::PotWon)
        .collect();
    assert_eq!(won, vec![pot_won(1, 1), pot_won(0, 1)]);
    assert_eq!(
        ev.last(),
        Some(&Event::GameOver {
            winners: vec![0, 1]
        })
    );
    assert!(g.is_over());
    assert_eq!((g.pot(), g.stacks()), (0, &[1, 1][..]));
}

#[test]
fn n8_hand_limit_counts_only_players_still_in() {
    let mut g = seat_two_tokens_then_broke(2);
    // Hand 2: seat 0 is the lone Yes of round 1; after it the limit is reached.
    let ev = hand_with_token(&mut g, Some(0));
    assert_eq!(g.tokens(), &[1, 0, 2]);
    assert!(
        !ev.iter().any(|e| matches!(e, Event::PlayerOut { .. })),
        "no ante is due at the limit"
    );
    assert_eq!(transfers(&ev).last(), Some(&pot_won(0, 5)));
    assert_eq!(ev.last(), Some(&Event::GameOver { winners: vec![0] }));
    assert_eq!(g.hands_played(), 2);
}

#[test]
fn n8_hand_limit_split_odd_chip_left_of_the_last_hands_dealer() {
    let rules = NapalmRules {
        max_hands: 5,
        ..NapalmRules::default()
    };
    let mut g = NapalmGame::new(rules, 3).unwrap();
    hand_with_token(&mut g, Some(0));
    hand_with_token(&mut g, Some(2));
    for _ in 0..2 {
        hand_with_token(&mut g, None);
    }
    // Hand 5 is dealt by seat 1: of the tied seats 0 and 2, seat 2 sits first
    // on its left and takes the odd chip of the 15.
    assert_eq!(g.dealer(), 1);
    let ev = hand_with_token(&mut g, None);
    assert_eq!(transfers(&ev), vec![pot_won(2, 8), pot_won(0, 7)]);
    assert_eq!(
        ev.last(),
        Some(&Event::GameOver {
            winners: vec![0, 2]
        })
    );
    assert_eq!(g.stacks(), &[102, 95, 103]);
}

#[test]
fn n8_short_yes_pays_tied_winners_clockwise_from_dealers_left() {
    let rules = NapalmRules {
        starting_chips: 10,
        ..NapalmRules::default()
    };
    let mut g = NapalmGame::new(rules, 3).unwrap();
    hand_with_token(&mut g, None);
    // Hand 2, dealer 1: seats 2 and 0 tie with ace-king; the dealer (8 chips)
    // owes each the pot of 6 and pays seat 2, on its left, first.
    assert_eq!((g.dealer(), g.pot(), g.stacks()), (1, 6, &[8, 8, 8][..]));
    g.deal(&deck(
        1,
        &[
            ["AS KH", "3H 4S 6C", "5C 8D"],
            ["2C 7D", "9C 10C JC", "AC AD"],
            ["AH KS", "2D 3D 5D", "8H 9H"],
        ],
    ))
    .unwrap();
    say(&mut g, 2, Action::Yes);
    say(&mut g, 0, Action::Yes);
    let ev = say(&mut g, 1, Action::Yes);
    assert_eq!(transfers(&ev), vec![side_bet(1, 2, 6), side_bet(1, 0, 2)]);
    assert_eq!(g.stacks(), &[10, 0, 14]);
}

#[test]
fn n8_a_player_out_holds_no_cards_while_the_others_play_on() {
    // Seat 2 went out at the start of hand 2: its hand-1 cards are gone.
    let g = seat_two_tokens_then_broke(100);
    assert_eq!(g.pending(), Pending::Deck);
    assert!(g.cards()[2].is_empty());
    assert!(g.view(Some(2)).cards.is_empty());
}
