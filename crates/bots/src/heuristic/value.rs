//! What a hand is worth before the play: pay cards and poker strength. Used to
//! decide about the spare hand (D3), to bid for it (D4) and for the pay suit (H8).

use tripoley_cards::{Card, CardSet, Rank, Suit};
use tripoley_engine::{PayCards, Space, View};

use super::odds::OddsTable;

/// Chips on `space` in the view.
pub(crate) fn chips(view: &View, space: Space) -> u32 {
    view.layout
        .iter()
        .find(|(s, _)| *s == space)
        .map_or(0, |(_, c)| *c)
}

/// The pay suit as the view knows it (hearts until named).
pub(crate) fn pay_suit(view: &View) -> Suit {
    view.pay_suit.unwrap_or(Suit::Hearts)
}

/// The pay cards whose spaces hold chips.
pub(crate) fn live_pay_cards(view: &View) -> CardSet {
    let suit = pay_suit(view);
    Space::PAY_CARDS
        .into_iter()
        .filter(|&s| chips(view, s) > 0)
        .filter_map(|s| s.pay_card(suit))
        .collect()
}

/// The chips `hand` would collect as pay cards, and the chance-weighted
/// value of poker, for a table of `players`.
pub(crate) fn hand_value(view: &View, hand: CardSet, odds: &OddsTable, pay_cards: PayCards) -> f32 {
    let suit = pay_suit(view);
    let mut pay = 0.0;
    for space in Space::PAY_CARDS {
        if space.pay_card(suit).is_some_and(|c| hand.contains(c)) {
            pay += chips(view, space) as f32;
        }
    }
    let king_queen: CardSet = [Card::new(Rank::King, suit), Card::new(Rank::Queen, suit)]
        .into_iter()
        .collect();
    if hand.contains_all(king_queen) {
        pay += chips(view, Space::KingQueen) as f32;
    }
    let low = view.sequence.unwrap_or(Rank::Eight).index();
    if Suit::ALL
        .into_iter()
        .any(|s| hand.contains_all(CardSet::from_suit_mask(s, 0b111 << low)))
    {
        pay += chips(view, Space::Sequence) as f32 * 0.7;
    }
    if pay_cards == PayCards::InPlay {
        // Collected only if played before the deal ends.
        pay *= 0.5;
    }
    let opponents = view
        .hand_sizes
        .iter()
        .enumerate()
        .filter(|&(s, &n)| Some(s as u8) != view.seat && n > 0);
    let poker = if hand.len() >= 5 {
        odds.win_chance(hand, opponents.map(|(_, &n)| n)) * chips(view, Space::Pot) as f32
    } else {
        0.0
    };
    pay + poker
}

/// The value an unseen hand of `size` cards is expected to have.
pub(crate) fn expected_value(view: &View, size: u32, pay_cards: PayCards) -> f32 {
    let share = size as f32 / 52.0;
    let pay: f32 = Space::PAY_CARDS
        .into_iter()
        .map(|s| chips(view, s) as f32 * share)
        .sum::<f32>()
        + chips(view, Space::KingQueen) as f32 * share * share
        + chips(view, Space::Sequence) as f32 * 4.0 * share * share * share;
    let pay = if pay_cards == PayCards::InPlay {
        pay * 0.5
    } else {
        pay
    };
    let players = view.hand_sizes.iter().filter(|&&n| n > 0).count().max(1);
    pay + chips(view, Space::Pot) as f32 / players as f32
}

/// The suit whose pay cards `hand` holds the most of, and how many (H8).
pub(crate) fn best_pay_suit(hand: CardSet) -> (Suit, u32) {
    Suit::ALL
        .into_iter()
        .map(|s| {
            (
                s,
                (hand & CardSet::suit(s) & CardSet::from_suit_mask(s, 0b1_1111_0000_0000)).len(),
            )
        })
        .max_by_key(|&(s, n)| (n, s))
        .expect("four suits")
}
