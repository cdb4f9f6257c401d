//! [`HandRank`] and [`Category`]: the value of a five-card poker hand, totally
//! ordered, with its human name.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::card::Rank;

/// Poker hand categories, weakest first (P2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum Category {
    HighCard = 0,
    Pair,
    TwoPair,
    ThreeOfAKind,
    Straight,
    Flush,
    FullHouse,
    FourOfAKind,
    StraightFlush,
}

impl Category {
    /// All categories, weakest first.
    pub const ALL: [Category; 9] = [
        Category::HighCard,
        Category::Pair,
        Category::TwoPair,
        Category::ThreeOfAKind,
        Category::Straight,
        Category::Flush,
        Category::FullHouse,
        Category::FourOfAKind,
        Category::StraightFlush,
    ];

    /// The machine name used in JSON: `"full_house"`.
    pub const fn key(self) -> &'static str {
        match self {
            Category::HighCard => "high_card",
            Category::Pair => "pair",
            Category::TwoPair => "two_pair",
            Category::ThreeOfAKind => "three_of_a_kind",
            Category::Straight => "straight",
            Category::Flush => "flush",
            Category::FullHouse => "full_house",
            Category::FourOfAKind => "four_of_a_kind",
            Category::StraightFlush => "straight_flush",
        }
    }

    /// The English name: "full house".
    pub const fn name(self) -> &'static str {
        match self {
            Category::HighCard => "high card",
            Category::Pair => "pair",
            Category::TwoPair => "two pair",
            Category::ThreeOfAKind => "three of a kind",
            Category::Straight => "straight",
            Category::Flush => "flush",
            Category::FullHouse => "full house",
            Category::FourOfAKind => "four of a kind",
            Category::StraightFlush => "straight flush",
        }
    }
}

/// Bit position of the category inside a [`HandRank`].
pub(crate) const CATEGORY_SHIFT: u32 = 26;
/// Kicker masks and primary ranks are packed above this many bits.
pub(crate) const PRIMARY_SHIFT: u32 = 13;

/// The value of a five-card poker hand: a larger `HandRank` is a better hand,
/// equal values tie (suits never break ties, P2).
///
/// Packed in a `u32` as `category << 26 | detail`, where the detail orders
/// hands inside a category: for hands of distinct ranks (high card, flush) the
/// 13-bit mask of the five ranks, compared as an integer, is exactly the
/// kicker-by-kicker comparison; for paired hands the paired ranks sit above
/// a mask of the kickers; for straights the top rank (the wheel's is the five).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct HandRank(pub(crate) u32);

/// The ranks of a hand with the same value, the way players name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// High card or flush: five distinct ranks, highest first.
    Distinct([Rank; 5]),
    /// Straight or straight flush: its highest card (a five for A-2-3-4-5).
    Run(Rank),
    /// One pair and three kickers, highest first.
    Pair(Rank, [Rank; 3]),
    /// Two pairs (higher first) and a kicker.
    TwoPair(Rank, Rank, Rank),
    /// Three of a kind and two kickers, highest first.
    Trips(Rank, [Rank; 2]),
    /// Three of a kind over a pair.
    FullHouse(Rank, Rank),
    /// Four of a kind and a kicker.
    Quads(Rank, Rank),
}

/// The ranks set in a 13-bit mask, highest first.
fn ranks_desc(mask: u32) -> impl Iterator<Item = Rank> {
    (0..13u8)
        .rev()
        .filter(move |&r| mask >> r & 1 == 1)
        .map(Rank::from_index)
}

fn top_n<const N: usize>(mask: u32) -> [Rank; N] {
    let mut it = ranks_desc(mask);
    std::array::from_fn(|_| it.next().expect("mask has enough ranks"))
}

impl HandRank {
    pub(crate) const fn new(category: Category, detail: u32) -> HandRank {
        HandRank((category as u32) << CATEGORY_SHIFT | detail)
    }

    /// The raw packed value; larger is better.
    pub const fn value(self) -> u32 {
        self.0
    }

    /// The hand's category.
    pub const fn category(self) -> Category {
        Category::ALL[(self.0 >> CATEGORY_SHIFT) as usize]
    }

    pub(crate) const fn detail(self) -> u32 {
        self.0 & ((1 << CATEGORY_SHIFT) - 1)
    }

    /// The ranks that make up the hand.
    pub fn shape(self) -> Shape {
        let d = self.detail();
        let lo = d & 0x1FFF;
        let primary = Rank::from_index((d >> PRIMARY_SHIFT) as u8 & 15);
        match self.category() {
            Category::HighCard | Category::Flush => Shape::Distinct(top_n(lo)),
            Category::Straight | Category::StraightFlush => Shape::Run(Rank::from_index(d as u8)),
            Category::Pair => Shape::Pair(primary, top_n(lo)),
            Category::TwoPair => {
                let [hi, low] = top_n(d >> PRIMARY_SHIFT);
                Shape::TwoPair(hi, low, top_n::<1>(lo)[0])
            }
            Category::ThreeOfAKind => Shape::Trips(primary, top_n(lo)),
            Category::FullHouse => Shape::FullHouse(primary, Rank::from_index(lo as u8)),
            Category::FourOfAKind => Shape::Quads(primary, top_n::<1>(lo)[0]),
        }
    }

    /// The cards of a five-card hand of this value in the order a player lays
    /// them out: the biggest group first, higher ranks before lower, and a
    /// wheel as 5-4-3-2-A.
    pub fn arrange(self, five: crate::CardSet) -> Vec<crate::Card> {
        let wheel = matches!(self.shape(), Shape::Run(Rank::Five));
        let mut cards = five.to_vec();
        cards.sort_by_key(|c| {
            let rank = if wheel && c.rank() == Rank::Ace {
                0
            } else {
                c.rank().index() + 1
            };
            std::cmp::Reverse((five.count_rank(c.rank()), rank, c.suit()))
        });
        cards
    }

    /// The name a player would say: "full house, kings over fives".
    pub fn name(self) -> String {
        match self.shape() {
            Shape::Distinct(r) => format!("{}, {} high", self.category().name(), r[0].name()),
            Shape::Run(Rank::Ace) if self.category() == Category::StraightFlush => {
                "royal flush".to_owned()
            }
            Shape::Run(top) => format!("{}, {} high", self.category().name(), top.name()),
            Shape::Pair(p, _) => format!("pair of {}", p.plural()),
            Shape::TwoPair(a, b, _) => format!("two pair, {} and {}", a.plural(), b.plural()),
            Shape::Trips(t, _) => format!("three of a kind, {}", t.plural()),
            Shape::FullHouse(t, p) => format!("full house, {} over {}", t.plural(), p.plural()),
            Shape::Quads(q, _) => format!("four of a kind, {}", q.plural()),
        }
    }
}

impl fmt::Display for HandRank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl fmt::Debug for HandRank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "HandRank({}: {:?})", self.name(), self.shape())
    }
}
