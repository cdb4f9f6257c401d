//! The layout's spaces (T4) and the accounts chips move between (T7).

use std::fmt;

use serde::{Deserialize, Serialize};
use tripoley_cards::{Card, Rank, Suit};

/// A seat at the table, 0..n clockwise (section 0).
pub type Seat = u8;

/// A space of the layout, in the order of T4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Space {
    /// Ace of the pay suit.
    Ace,
    /// King of the pay suit.
    King,
    /// Queen of the pay suit.
    Queen,
    /// Jack of the pay suit.
    Jack,
    /// Ten of the pay suit.
    Ten,
    /// King and queen of the pay suit together (H2, H6).
    KingQueen,
    /// The Sequence, 8-9-10 of one suit by default (H3, H7).
    Sequence,
    /// The Kitty: Michigan's prize (M7), fed by blocked play (M5).
    Kitty,
    /// The Pot: the poker pot (P5).
    Pot,
}

impl Space {
    /// All nine spaces in layout order.
    pub const ALL: [Space; 9] = [
        Space::Ace,
        Space::King,
        Space::Queen,
        Space::Jack,
        Space::Ten,
        Space::KingQueen,
        Space::Sequence,
        Space::Kitty,
        Space::Pot,
    ];

    /// The five single-card pay spaces (A, K, Q, J, 10 of the pay suit).
    pub const PAY_CARDS: [Space; 5] = [
        Space::Ace,
        Space::King,
        Space::Queen,
        Space::Jack,
        Space::Ten,
    ];

    /// The space's name as in RULES.md T4: `king_queen`.
    pub const fn key(self) -> &'static str {
        match self {
            Space::Ace => "ace",
            Space::King => "king",
            Space::Queen => "queen",
            Space::Jack => "jack",
            Space::Ten => "ten",
            Space::KingQueen => "king_queen",
            Space::Sequence => "sequence",
            Space::Kitty => "kitty",
            Space::Pot => "pot",
        }
    }

    /// The card a single-card pay space pays for, given the pay suit.
    pub fn pay_card(self, pay_suit: Suit) -> Option<Card> {
        let rank = match self {
            Space::Ace => Rank::Ace,
            Space::King => Rank::King,
            Space::Queen => Rank::Queen,
            Space::Jack => Rank::Jack,
            Space::Ten => Rank::Ten,
            _ => return None,
        };
        Some(Card::new(rank, pay_suit))
    }

    /// The single-card pay space of `card`, if it is a pay card.
    pub fn of_pay_card(card: Card, pay_suit: Suit) -> Option<Space> {
        Space::PAY_CARDS
            .into_iter()
            .find(|s| s.pay_card(pay_suit) == Some(card))
    }

    pub(crate) const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Space {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Space::Ace => "Ace",
            Space::King => "King",
            Space::Queen => "Queen",
            Space::Jack => "Jack",
            Space::Ten => "Ten",
            Space::KingQueen => "King-Queen",
            Space::Sequence => "Sequence",
            Space::Kitty => "Kitty",
            Space::Pot => "Pot",
        })
    }
}

/// Where chips can be: a seat's stack or a layout space. Poker bets go
/// straight onto the Pot space (P5), so every chip is always in one of these.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Account {
    /// A player's chips.
    Stack(Seat),
    /// Chips on a layout space.
    Space(Space),
}

impl fmt::Display for Account {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Account::Stack(s) => write!(f, "seat {s}"),
            Account::Space(sp) => write!(f, "the {sp}"),
        }
    }
}

/// Chips on each space.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Layout {
    chips: [u32; 9],
}

impl Layout {
    /// Chips on `space`.
    pub fn get(&self, space: Space) -> u32 {
        self.chips[space.index()]
    }

    pub(crate) fn get_mut(&mut self, space: Space) -> &mut u32 {
        &mut self.chips[space.index()]
    }

    /// Chips on the whole layout.
    pub fn total(&self) -> u32 {
        self.chips.iter().sum()
    }
}
