//! Poker hand evaluation: the best (or the lowest) five cards of any 5 to 52
//! cards (P2, N4).
//!
//! The evaluator works on the four 13-bit suit masks of a [`CardSet`] and
//! never loops over cards, so a 26-card hand costs about what a 7-card one
//! does. From the suit masks it derives, with a few AND/OR operations, the
//! masks of ranks held at least once, twice, three and four times; small
//! tables indexed by a rank mask give the best straight and the top five
//! ranks. Every suit is checked for a flush: with ten or more cards two suits
//! can both hold five.

mod lowest;
mod rank;
mod small;
mod tables;

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use rank::PRIMARY_SHIFT;
pub use rank::{Category, HandRank, Shape};
use tables::{STRAIGHT_TOP, TOP_FIVE, straight_mask};

use crate::card::{Rank, Suit};
use crate::set::CardSet;

/// How hands are ranked: the one rule that differs between the games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Evaluator {
    /// When true A-2-3-4-5 is no straight: the ace only ranks high (P2,
    /// preset `michigan-casino`; Napalm N5).
    pub ace_always_high: bool,
}

/// Index of the highest set bit of a non-zero mask (`ilog2` without its
/// zero check, which every caller has already made).
#[inline(always)]
#[allow(clippy::manual_ilog2)]
fn top(mask: u32) -> u32 {
    31 - mask.leading_zeros()
}

/// The `n` highest set bits of `mask` (which holds at least `n`).
#[inline(always)]
fn top_bits(mut mask: u32, n: u32) -> u32 {
    let mut out = 0;
    for _ in 0..n {
        let b = 1 << top(mask);
        out |= b;
        mask ^= b;
    }
    out
}

impl Evaluator {
    /// Ordinary poker: A-2-3-4-5 is the lowest straight.
    pub const STANDARD: Evaluator = Evaluator {
        ace_always_high: false,
    };
    /// Ace high only: no A-2-3-4-5 straight.
    pub const ACE_HIGH: Evaluator = Evaluator {
        ace_always_high: true,
    };

    /// `1 + top card` of the best straight in a rank mask, or 0.
    #[inline(always)]
    fn straight_top(self, mask: u32) -> u32 {
        let t = u32::from(STRAIGHT_TOP[mask as usize & 8191]);
        // The wheel is the lowest straight, so when it is the best one there
        // is no other: under ace-high rules there is then none at all.
        if self.ace_always_high && t == 4 { 0 } else { t }
    }

    /// The value of the best flush (or straight flush) in one suit's rank
    /// mask, 0 if the suit has fewer than five cards.
    #[inline(always)]
    fn flush_in(self, suit_mask: u32) -> u32 {
        if suit_mask.count_ones() < 5 {
            return 0;
        }
        let st = self.straight_top(suit_mask);
        if st != 0 {
            HandRank::new(Category::StraightFlush, st - 1).0
        } else {
            HandRank::new(
                Category::Flush,
                u32::from(TOP_FIVE[suit_mask as usize & 8191]),
            )
            .0
        }
    }

    /// The value of the best five cards among `cards` (at least five).
    #[inline]
    pub fn best(self, cards: CardSet) -> HandRank {
        debug_assert!(cards.len() >= 5, "a poker hand needs five cards");
        let suits = Suit::ALL.map(|s| u32::from(cards.suit_mask(s)));
        if cards.len() <= 7 {
            // At most one suit can hold five, and then the flush is the best hand.
            let flush = self.flush_in(suits[0])
                | self.flush_in(suits[1])
                | self.flush_in(suits[2])
                | self.flush_in(suits[3]);
            if flush != 0 {
                return HandRank(flush);
            }
            return HandRank(small::SmallTable::get(self).lookup(small::key(suits)));
        }
        self.general(suits)
    }

    /// The evaluator for any number of cards, from the four suit masks.
    #[inline]
    fn general(self, suits: [u32; 4]) -> HandRank {
        let [s0, s1, s2, s3] = suits;

        let flush = self
            .flush_in(s0)
            .max(self.flush_in(s1))
            .max(self.flush_in(s2))
            .max(self.flush_in(s3));
        if flush >= HandRank::new(Category::StraightFlush, 0).0 {
            return HandRank(flush);
        }

        let present = s0 | s1 | s2 | s3;
        let fours = s0 & s1 & s2 & s3;
        if fours != 0 {
            let q = top(fours);
            let kicker = top_bits(present ^ 1 << q, 1);
            return HandRank::new(Category::FourOfAKind, q << PRIMARY_SHIFT | kicker);
        }
        let twos = (s0 & s1) | (s2 & s3) | ((s0 | s1) & (s2 | s3));
        let threes = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1));
        if threes != 0 {
            let t = top(threes);
            let pairs = twos ^ 1 << t;
            if pairs != 0 {
                return HandRank::new(Category::FullHouse, t << PRIMARY_SHIFT | top(pairs));
            }
        }
        if flush != 0 {
            return HandRank(flush);
        }
        let st = self.straight_top(present);
        if st != 0 {
            return HandRank::new(Category::Straight, st - 1);
        }
        if threes != 0 {
            let t = top(threes);
            return HandRank::new(
                Category::ThreeOfAKind,
                t << PRIMARY_SHIFT | top_bits(present ^ 1 << t, 2),
            );
        }
        if twos != 0 {
            let p = top(twos);
            let others = twos ^ 1 << p;
            if others != 0 {
                let pair_bits = 1 << p | 1 << top(others);
                let kicker = top_bits(present ^ pair_bits, 1);
                return HandRank::new(Category::TwoPair, pair_bits << PRIMARY_SHIFT | kicker);
            }
            return HandRank::new(
                Category::Pair,
                p << PRIMARY_SHIFT | top_bits(present ^ 1 << p, 3),
            );
        }
        HandRank::new(Category::HighCard, u32::from(TOP_FIVE[present as usize]))
    }

    /// The best five cards among `cards` (at least five) and their value.
    /// Among equal choices it takes the higher suits.
    pub fn best_five(self, cards: CardSet) -> (HandRank, CardSet) {
        let rank = self.best(cards);
        (rank, self.cards_for(rank, cards))
    }

    /// The lowest-ranking five cards among `cards` (at least five) and their
    /// value: Napalm's round 2 (N4), where straights and flushes count against
    /// the holder.
    pub fn lowest_five(self, cards: CardSet) -> (HandRank, CardSet) {
        lowest::lowest_five(self, cards)
    }

    /// Five cards out of `cards` that make a hand of value `rank`.
    fn cards_for(self, rank: HandRank, cards: CardSet) -> CardSet {
        let d = rank.detail();
        match rank.category() {
            Category::Flush | Category::StraightFlush => {
                let suit = Suit::ALL
                    .into_iter()
                    .rev()
                    .find(|&s| self.flush_in(u32::from(cards.suit_mask(s))) == rank.0)
                    .expect("the flush suit is in the hand");
                let ranks = if rank.category() == Category::Flush {
                    d
                } else {
                    straight_mask(d)
                };
                CardSet::from_suit_mask(suit, ranks as u16)
            }
            Category::Straight => take_each(cards, straight_mask(d), 1),
            Category::HighCard => take_each(cards, d, 1),
            Category::Pair | Category::ThreeOfAKind | Category::FourOfAKind => {
                let n = match rank.category() {
                    Category::Pair => 2,
                    Category::ThreeOfAKind => 3,
                    _ => 4,
                };
                take_each(cards, 1 << (d >> PRIMARY_SHIFT), n) | take_each(cards, d & 0x1FFF, 1)
            }
            Category::TwoPair => {
                take_each(cards, d >> PRIMARY_SHIFT, 2) | take_each(cards, d & 0x1FFF, 1)
            }
            Category::FullHouse => {
                take_each(cards, 1 << (d >> PRIMARY_SHIFT), 3) | take_each(cards, 1 << (d & 15), 2)
            }
        }
    }

    /// The position of `rank` among every distinct five-card value under
    /// these rules, 1 for the weakest (7-5-4-3-2 of mixed suits) up to 7,462
    /// for a royal flush.
    pub fn ordinal(self, rank: HandRank) -> u32 {
        let table = self.all_values();
        match table.binary_search(&rank) {
            Ok(i) => i as u32 + 1,
            Err(_) => 0,
        }
    }

    /// Every distinct value a five-card hand can have, weakest first (7,462).
    pub fn all_values(self) -> &'static [HandRank] {
        static TABLES: [OnceLock<Vec<HandRank>>; 2] = [OnceLock::new(), OnceLock::new()];
        TABLES[usize::from(self.ace_always_high)].get_or_init(|| {
            let mut values: Vec<HandRank> = five_card_shapes().map(|h| self.best(h)).collect();
            values.sort_unstable();
            values.dedup();
            values
        })
    }
}

/// One five-card hand for every multiset of ranks, plus a one-suited hand for
/// every set of five distinct ranks: together they reach every hand value.
fn five_card_shapes() -> impl Iterator<Item = CardSet> {
    // Non-decreasing rank indices r[0] <= .. <= r[4], no rank five times.
    let multisets = (0..13u8).flat_map(|a| {
        (a..13).flat_map(move |b| {
            (b..13)
                .flat_map(move |c| (c..13).flat_map(move |d| (d..13).map(move |e| [a, b, c, d, e])))
        })
    });
    multisets.filter(|r| r[0] != r[4]).flat_map(|r| {
        // Suits cycle, so equal ranks get different suits and no flush forms.
        let mixed: CardSet = (0..5u8)
            .map(|i| crate::Card::new(Rank::from_index(r[i as usize]), Suit::from_index(i)))
            .collect();
        let distinct = r.iter().fold(0u16, |m, &x| m | 1 << x);
        let flush =
            (distinct.count_ones() == 5).then(|| CardSet::from_suit_mask(Suit::Spades, distinct));
        std::iter::once(mixed).chain(flush)
    })
}

/// For each rank in `ranks`, `n` cards of that rank from `cards`, highest suits first.
fn take_each(cards: CardSet, ranks: u32, n: u32) -> CardSet {
    let mut out = CardSet::EMPTY;
    for r in 0..13u8 {
        if ranks >> r & 1 == 1 {
            let of_rank = cards & CardSet::rank(Rank::from_index(r));
            out |= of_rank.iter().rev().take(n as usize).collect();
        }
    }
    out
}

impl CardSet {
    /// The best poker hand in this set under ordinary rules (P2).
    pub fn poker_rank(self) -> HandRank {
        Evaluator::STANDARD.best(self)
    }
}

#[cfg(test)]
mod tests;
