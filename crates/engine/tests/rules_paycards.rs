//! Pay cards: stage 1 (H1-H4), in play (H5, H6), the Sequence (H7), the
//! paying-suit auction (H8) and cosmo's draws (H9).

mod common;

use common::*;
use tripoley_cards::{Deck, Rank, Suit};
use tripoley_engine::{
    Account, Action, DealChance, Decision, Event, FinalPot, IllegalAction, MichiganLeader,
    PayCards, PaySuitRule, Pending, PokerRule, Preset, Reason, Rules, SequenceRule, Space, Stage,
    Transfer,
};

fn claim(to: u8, space: Space, amount: u32, reason: Reason) -> Transfer {
    Transfer {
        from: Account::Space(space),
        to: Account::Stack(to),
        amount,
        reason,
    }
}

/// Tripoley with 3 players, seat 0 dealing: stage 1 runs as the cards are dealt.
fn tripoley3() -> tripoley_engine::Game {
    table(Rules::preset(Preset::Tripoley), 3, 0)
}

#[test]
fn h1_holders_take_pay_spaces_and_show_the_cards() {
    let mut game = tripoley3();
    let ev = deal(&mut game, &["AH", "QH JH", "10H"], "KH");
    let t = transfers(&ev);
    assert!(t.contains(&claim(0, Space::Ace, 3, Reason::PayCard)));
    assert!(t.contains(&claim(1, Space::Queen, 3, Reason::PayCard)));
    assert!(t.contains(&claim(1, Space::Jack, 3, Reason::PayCard)));
    assert!(t.contains(&claim(2, Space::Ten, 3, Reason::PayCard)));
    assert!(ev.iter().any(|e| matches!(e, Event::PayCardsShown { seat: 1, cards: c } if c.contains_all(cards("JH QH")))));
    // Shown cards are public: seat 2 knows seat 1 holds them.
    assert!(game.view(Some(2)).known_cards[1].contains_all(cards("JH QH")));
    assert!(game.view(None).known_cards[0].contains_all(cards("AH")));
}

#[test]
fn h2_king_and_queen_together_take_king_queen() {
    let mut game = tripoley3();
    let ev = deal(&mut game, &["", "KH QH", ""], "");
    let t = transfers(&ev);
    assert!(t.contains(&claim(1, Space::KingQueen, 3, Reason::KingQueen)));
    assert!(t.contains(&claim(1, Space::King, 3, Reason::PayCard)));
    let mut game = tripoley3();
    let ev = deal(&mut game, &["KH", "QH", ""], "");
    assert!(!transfers(&ev).iter().any(|t| t.reason == Reason::KingQueen));
    assert_eq!(game.layout().get(Space::KingQueen), 3);
}

#[test]
fn h3_sequence_holders_share_remainder_stays() {
    let mut game = tripoley3();
    let ev = deal(&mut game, &["8C 9C 10C", "", "8S 9S 10S"], "8D 8H");
    let t = transfers(&ev);
    assert!(t.contains(&claim(0, Space::Sequence, 1, Reason::Sequence)));
    assert!(t.contains(&claim(2, Space::Sequence, 1, Reason::Sequence)));
    assert!(ev.contains(&Event::SequenceShared {
        claimants: 0b101,
        remainder: 1
    }));
    assert_eq!(game.layout().get(Space::Sequence), 1);
    assert!(game.view(Some(1)).known_cards[0].contains_all(cards("8C 9C 10C")));
}

#[test]
fn h3_sequence_in_two_suits_is_one_claimant() {
    let mut game = tripoley3();
    let ev = deal(&mut game, &["", "8D 9D 10D 8S 9S 10S", ""], "8C 8H");
    let t: Vec<Transfer> = transfers(&ev)
        .into_iter()
        .filter(|t| t.reason == Reason::Sequence)
        .collect();
    assert_eq!(t, vec![claim(1, Space::Sequence, 3, Reason::Sequence)]);
}

#[test]
fn h4_unclaimed_spaces_keep_their_chips_kitty_and_pot_untouched() {
    let mut game = tripoley3();
    deal(&mut game, &["", "", ""], "AH KH QH JH 10H 8C 8D 8H 8S");
    for space in Space::ALL {
        assert_eq!(game.layout().get(space), 3, "{space}");
    }
    assert_eq!(game.stage(), Stage::ChooseFive);
}

/// Rummoli-like rules that go straight to Michigan: the dealer leads.
fn in_play_rules() -> Rules {
    Rules {
        poker: PokerRule::None,
        final_pot: FinalPot::Keep,
        michigan_leader: MichiganLeader::Dealer,
        spare: tripoley_engine::SpareRule::Unused,
        deals: Some(1),
        ..Rules::preset(Preset::Rummoli)
    }
}

#[test]
fn h5_no_stage_1_pay_card_taken_when_played() {
    let mut game = table(in_play_rules(), 3, 0);
    // Seat 0 (dealer) leads 9H; 10H (seat 1) and JH (seat 2) follow; QH is in the spare.
    let ev = deal(
        &mut game,
        &[
            "9H 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC",
            "10H 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD",
            "JH 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS",
        ],
        "QH",
    );
    assert!(
        transfers(&ev).iter().all(|t| t.reason == Reason::Ante),
        "nothing collected before play"
    );
    let ev = act(&mut game, 0, Action::Lead("9H".parse().unwrap()));
    let t = transfers(&ev);
    assert_eq!(t[0], claim(1, Space::Ten, 3, Reason::PayCard));
    assert_eq!(t[1], claim(2, Space::Jack, 3, Reason::PayCard));
    assert!(ev.contains(&Event::RunStopped {
        next: Some("QH".parse().unwrap()),
        reason: tripoley_engine::StopReason::NotPlayed
    }));
}

#[test]
fn h6_queen_then_king_consecutively_take_king_queen() {
    let mut game = table(in_play_rules(), 3, 0);
    deal(
        &mut game,
        &[
            "JH QH KH 2C 3C 4C 5C 6C 7C 8C 9C 10C JC",
            "AH 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD",
            "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS",
        ],
        "2H 3H 4H 5H 6H 7H 8H 9H 10H QC KC AC AD",
    );
    let ev = act(&mut game, 0, Action::Lead("JH".parse().unwrap()));
    let t = transfers(&ev);
    assert_eq!(
        t[..5],
        vec![
            claim(0, Space::Jack, 3, Reason::PayCard),
            claim(0, Space::Queen, 3, Reason::PayCard),
            claim(0, Space::King, 3, Reason::PayCard),
            claim(0, Space::KingQueen, 3, Reason::KingQueen),
            claim(1, Space::Ace, 3, Reason::PayCard),
        ]
    );
}

#[test]
fn h6_sequence_played_by_one_player_consecutively() {
    let mut game = table(in_play_rules(), 3, 0);
    deal(
        &mut game,
        &[
            "8C 9C 10C 2H 3H 4H 5H 6H 7H 8H 9H 10H JH",
            "JC 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD",
            "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS",
        ],
        "2C 3C 4C 5C 6C 7C QC KC AC AD QH KH AH",
    );
    let ev = act(&mut game, 0, Action::Lead("8C".parse().unwrap()));
    assert!(transfers(&ev).contains(&claim(0, Space::Sequence, 3, Reason::Sequence)));
}

#[test]
fn h6_sequence_split_between_players_takes_nothing() {
    let mut game = table(in_play_rules(), 3, 0);
    deal(
        &mut game,
        &[
            "8C 10C 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH",
            "9C 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD",
            "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS",
        ],
        "2C 3C 4C 5C 6C 7C JC QC KC AC AD KH AH",
    );
    let ev = act(&mut game, 0, Action::Lead("8C".parse().unwrap()));
    let first_run = ev
        .iter()
        .position(|e| matches!(e, Event::RunStopped { .. }))
        .unwrap();
    assert!(
        !transfers(&ev[..first_run])
            .iter()
            .any(|t| t.reason == Reason::Sequence)
    );
    // Seat 0 then leads hearts and plays 8-9-10 of hearts in a row: that counts.
    assert!(transfers(&ev[first_run..]).contains(&claim(0, Space::Sequence, 3, Reason::Sequence)));
}

#[test]
fn h7_sequence_ranks_are_an_option() {
    assert_eq!(
        Rules::preset(Preset::MichiganCasino).sequence,
        SequenceRule::From(Rank::Seven)
    );
    assert_eq!(
        Rules::preset(Preset::Pagat).sequence,
        SequenceRule::From(Rank::Eight)
    );
    let mut rules = Rules::preset(Preset::Tripoley);
    rules.sequence = SequenceRule::From(Rank::Six);
    let mut game = table(rules, 3, 0);
    let ev = deal(&mut game, &["", "6D 7D 8D", ""], "6C 6H 6S");
    assert!(transfers(&ev).contains(&claim(1, Space::Sequence, 3, Reason::Sequence)));
    let mut bad = Rules::preset(Preset::Pagat);
    bad.sequence = SequenceRule::From(Rank::King);
    assert!(bad.validate().is_err());
}

fn suit_auction_rules() -> Rules {
    Rules {
        pay_suit: PaySuitRule::Auction,
        pay_cards: PayCards::InPlay,
        spare: tripoley_engine::SpareRule::Unused,
        ..Rules::preset(Preset::Rummoli)
    }
}

#[test]
fn h8_pay_suit_auction_from_the_dealer_bid_into_kitty() {
    let mut game = table(suit_auction_rules(), 3, 1);
    deal(&mut game, &["", "", ""], "");
    assert_eq!(game.stage(), Stage::PaySuit);
    assert!(
        matches!(turn(&game), (1, Decision::PaySuitBid { min: 1, .. })),
        "the dealer bids first"
    );
    act(&mut game, 1, Action::Bid(2));
    act(&mut game, 2, Action::Bid(3));
    act(&mut game, 0, Action::Pass);
    act(&mut game, 1, Action::Bid(5));
    let ev = act(&mut game, 2, Action::Pass);
    assert_eq!(
        transfers(&ev),
        vec![Transfer {
            from: Account::Stack(1),
            to: Account::Space(Space::Kitty),
            amount: 5,
            reason: Reason::PaySuitBid
        }]
    );
    assert_eq!(turn(&game), (1, Decision::NamePaySuit));
    let ev = act(&mut game, 1, Action::NameSuit(Suit::Spades));
    assert!(ev.contains(&Event::PaySuitNamed {
        seat: Some(1),
        suit: Suit::Spades
    }));
    assert_eq!(game.pay_suit(), Some(Suit::Spades));
    assert_eq!(game.stage(), Stage::ChooseFive);
}

#[test]
fn h8_everybody_passes_hearts() {
    let mut game = table(suit_auction_rules(), 3, 0);
    deal(&mut game, &["", "", ""], "");
    act(&mut game, 0, Action::Pass);
    act(&mut game, 1, Action::Pass);
    let ev = act(&mut game, 2, Action::Pass);
    assert!(ev.contains(&Event::PaySuitNamed {
        seat: None,
        suit: Suit::Hearts
    }));
}

#[test]
fn h8_auction_needs_pay_cards_in_play() {
    let mut r = suit_auction_rules();
    r.pay_cards = PayCards::Stage1;
    assert!(r.validate().unwrap_err().to_string().contains("H8"));
}

#[test]
fn h9_cosmo_draws_pay_suit_and_sequence_each_deal() {
    let mut game = table(Rules::preset(Preset::Cosmo), 3, 0);
    let deck = Deck::shuffled(&mut tripoley_cards::seeded_rng(4));
    // Without the draws the chance is refused, and nothing changes.
    let before = game.clone();
    assert!(matches!(
        game.chance(DealChance::deck(deck.clone())),
        Err(IllegalAction::Chance(_))
    ));
    assert_eq!(game, before);
    let ev = game
        .chance(DealChance {
            deck,
            pay_suit: Some(Suit::Clubs),
            sequence: Some(Rank::Four),
        })
        .unwrap();
    assert!(matches!(
        ev[0],
        Event::DealStarted {
            pay_suit: Some(Suit::Clubs),
            sequence: Rank::Four,
            ..
        }
    ));
    assert_eq!(game.pay_suit(), Some(Suit::Clubs));
    assert_eq!(game.view(Some(2)).sequence, Some(Rank::Four));
    assert!(matches!(game.pending(), Pending::Decide { .. }));
}

#[test]
fn t8_sequence_claimants_are_paid_from_the_dealers_left() {
    let mut game = table(Rules::preset(Preset::Tripoley), 3, 0);
    // Seats 0 and 2 hold a Sequence; no other 8 is in a hand.
    let ev = deal(&mut game, &["8C 9C 10C", "", "8D 9D 10D"], "8H 8S");
    let paid: Vec<Transfer> = transfers(&ev)
        .into_iter()
        .filter(|t| t.reason == Reason::Sequence)
        .collect();
    // Seat 0 deals: seat 2 is paid before seat 0; one chip each, one stays.
    assert_eq!(
        paid,
        vec![
            Transfer {
                from: Account::Space(Space::Sequence),
                to: Account::Stack(2),
                amount: 1,
                reason: Reason::Sequence
            },
            Transfer {
                from: Account::Space(Space::Sequence),
                to: Account::Stack(0),
                amount: 1,
                reason: Reason::Sequence
            },
        ]
    );
}
