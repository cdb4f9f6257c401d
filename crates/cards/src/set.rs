//! [`CardSet`]: any set of cards as one `u64`.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Sub, SubAssign};
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::card::{Card, ParseCardError, Rank, Suit};

/// The 13 rank bits of one suit lane.
pub(crate) const LANE: u64 = 0x1FFF;
/// The lowest bit of each of the four 16-bit suit lanes.
const LANE_ONES: u64 = 0x0001_0001_0001_0001;
/// The top bit of each lane (above its 13 rank bits, so never a card).
const LANE_TOPS: u64 = 0x8000_8000_8000_8000;

/// A set of cards as a bitset: suit `s` occupies bits `16*s .. 16*s+13`, rank
/// `r` of that suit is bit `16*s + r`. Every set operation is one instruction,
/// and a suit's ranks come out as a 13-bit mask with a shift, which is what
/// poker evaluation and Michigan runs need.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CardSet(u64);

impl CardSet {
    /// No cards.
    pub const EMPTY: CardSet = CardSet(0);
    /// All 52 cards.
    pub const FULL: CardSet = CardSet(LANE | LANE << 16 | LANE << 32 | LANE << 48);

    /// The set whose bits are `bits`. Bits that hold no card (13..16 of each
    /// lane) are dropped.
    pub const fn from_bits(bits: u64) -> CardSet {
        CardSet(bits & CardSet::FULL.0)
    }

    /// The raw bits.
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// The set holding just `card`.
    pub const fn single(card: Card) -> CardSet {
        CardSet(1 << card.bit())
    }

    /// Every card of `suit`.
    pub const fn suit(suit: Suit) -> CardSet {
        CardSet(LANE << (16 * suit as u32))
    }

    /// Every card of `rank` (one per suit).
    pub const fn rank(rank: Rank) -> CardSet {
        CardSet(LANE_ONES << rank as u32)
    }

    /// The cards of every suit whose ranks are the bits of `mask` (bit 0 = two).
    pub const fn of_ranks(mask: u16) -> CardSet {
        CardSet(((mask as u64) & LANE) * LANE_ONES)
    }

    /// The cards of `suit` whose ranks are the bits of `mask` (bit 0 = two).
    pub const fn from_suit_mask(suit: Suit, mask: u16) -> CardSet {
        CardSet(((mask as u64) & LANE) << (16 * suit as u32))
    }

    /// The ranks held in `suit`, as a 13-bit mask (bit 0 = two, bit 12 = ace).
    #[inline]
    pub const fn suit_mask(self, suit: Suit) -> u16 {
        ((self.0 >> (16 * suit as u32)) & LANE) as u16
    }

    /// The ranks held in any suit, as a 13-bit mask.
    #[inline]
    pub const fn rank_mask(self) -> u16 {
        let b = self.0;
        ((b | b >> 16 | b >> 32 | b >> 48) & LANE) as u16
    }

    /// Number of cards.
    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// True if there are no cards.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True if `card` is in the set.
    #[inline]
    pub const fn contains(self, card: Card) -> bool {
        self.0 >> card.bit() & 1 == 1
    }

    /// True if every card of `other` is in the set.
    #[inline]
    pub const fn contains_all(self, other: CardSet) -> bool {
        self.0 & other.0 == other.0
    }

    /// Adds `card`; true if it was not there before.
    #[inline]
    pub fn insert(&mut self, card: Card) -> bool {
        let had = self.contains(card);
        self.0 |= 1 << card.bit();
        !had
    }

    /// Removes `card`; true if it was there.
    #[inline]
    pub fn remove(&mut self, card: Card) -> bool {
        let had = self.contains(card);
        self.0 &= !(1 << card.bit());
        had
    }

    /// Number of cards of `suit`.
    #[inline]
    pub const fn count_suit(self, suit: Suit) -> u32 {
        self.suit_mask(suit).count_ones()
    }

    /// Number of cards of `rank`.
    #[inline]
    pub const fn count_rank(self, rank: Rank) -> u32 {
        (self.0 & CardSet::rank(rank).0).count_ones()
    }

    /// The lowest card (twos first, then clubs before diamonds before hearts
    /// before spades within a rank), or `None` when empty.
    pub fn lowest(self) -> Option<Card> {
        let mut best: Option<Card> = None;
        for suit in Suit::ALL {
            let m = self.suit_mask(suit);
            if m != 0 {
                let c = Card::new(Rank::from_index(m.trailing_zeros() as u8), suit);
                if best.is_none_or(|b| c.rank() < b.rank()) {
                    best = Some(c);
                }
            }
        }
        best
    }

    /// The lowest card of `suit` in the set, the card a Michigan lead plays (M3).
    pub fn lowest_of(self, suit: Suit) -> Option<Card> {
        let m = self.suit_mask(suit);
        (m != 0).then(|| Card::new(Rank::from_index(m.trailing_zeros() as u8), suit))
    }

    /// The lowest card of each suit in the set: the cards a Michigan lead may
    /// play (M3), found for all four suits at once without branches.
    #[inline]
    #[must_use]
    pub const fn lowest_of_each_suit(self) -> CardSet {
        // Each suit's 16-bit lane holds at most 13 cards, so with its top
        // bit set it stays positive when one is subtracted from every lane
        // at once (no borrow crosses lanes), and `b & !(lane - 1)` keeps
        // each lane's lowest card.
        let b = self.0;
        CardSet(b & !((b | LANE_TOPS) - LANE_ONES))
    }

    /// Every card of each suit this set holds a card of: one mask for all
    /// four lanes at once, as [`CardSet::lowest_of_each_suit`] finds them.
    #[inline]
    #[must_use]
    pub const fn whole_suits(self) -> CardSet {
        // A lane's top bit survives the subtraction of one exactly when the
        // lane holds a card; moved to the lane's lowest bit, it times the
        // full lane fills that lane alone.
        let held = ((self.0 | LANE_TOPS) - LANE_ONES) & LANE_TOPS;
        CardSet((held >> 15) * LANE)
    }

    /// The first card in iteration order (clubs two up to spades ace).
    #[inline]
    pub fn first(self) -> Option<Card> {
        (self.0 != 0).then(|| Card::from_bit(self.0.trailing_zeros() as u8).expect("valid bit"))
    }

    /// The `i`-th card in iteration order (`None` past the end), found
    /// without a loop whose length depends on `i`: a random bot picks a card
    /// this way at most of its decisions, and a loop that exits at a random
    /// count is a branch the CPU mispredicts. Up to the fourth card the
    /// answer is read from the set with its lowest cards cleared; beyond it a
    /// binary search on the bit counts of halves finds it.
    #[inline]
    pub fn nth(self, i: u32) -> Option<Card> {
        let b0 = self.0;
        if i < 4 {
            // The lowest card cleared once for each step below `i`, by masks
            // (all ones where the step is skipped), not by indexing a table
            // of the four sets built on the stack.
            let keep = |step: u32| u64::from(i < step).wrapping_neg();
            let b1 = b0 & (b0.wrapping_sub(1) | keep(1));
            let b2 = b1 & (b1.wrapping_sub(1) | keep(2));
            let b3 = b2 & (b2.wrapping_sub(1) | keep(3));
            return CardSet(b3).first();
        }
        if i >= self.len() {
            return None;
        }
        let (mut bits, mut i, mut bit) = (b0, i, 0);
        for width in [32u32, 16, 8, 4, 2, 1] {
            let below = (bits & ((1u64 << width) - 1)).count_ones();
            let upper = u32::from(i >= below).wrapping_neg();
            i -= below & upper;
            bit += width & upper;
            bits >>= width & upper;
        }
        Card::from_bit(bit as u8)
    }

    /// The cards in order: clubs two .. clubs ace, diamonds, hearts, spades.
    #[inline]
    pub const fn iter(self) -> CardSetIter {
        CardSetIter(self.0)
    }

    /// The cards as a vector, in iteration order.
    pub fn to_vec(self) -> Vec<Card> {
        self.iter().collect()
    }

    /// The cards sorted for a player's eye: by suit, high ranks first in each.
    pub fn sorted_for_display(self) -> Vec<Card> {
        let mut v = self.to_vec();
        v.sort_by_key(|c| (c.suit(), std::cmp::Reverse(c.rank())));
        v
    }
}

impl fmt::Debug for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CardSet[{self}]")
    }
}

impl fmt::Display for CardSet {
    /// Cards separated by spaces: "2C 10H AS". `{:#}` uses suit symbols.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            fmt::Display::fmt(&c, f)?;
        }
        Ok(())
    }
}

/// Why a text is not a set of cards.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseCardSetError {
    /// One of the cards is malformed.
    #[error(transparent)]
    Card(#[from] ParseCardError),
    /// The same card appears twice.
    #[error("{0} appears twice")]
    Duplicate(Card),
}

impl CardSet {
    /// Builds a set from cards, refusing a card given twice.
    pub fn try_from_cards(
        cards: impl IntoIterator<Item = Card>,
    ) -> Result<CardSet, ParseCardSetError> {
        let mut set = CardSet::EMPTY;
        for c in cards {
            if !set.insert(c) {
                return Err(ParseCardSetError::Duplicate(c));
            }
        }
        Ok(set)
    }
}

impl FromStr for CardSet {
    type Err = ParseCardSetError;

    /// Reads cards separated by spaces or commas: "AH KH 10C" or "AH,KH,TC".
    fn from_str(text: &str) -> Result<CardSet, ParseCardSetError> {
        let cards = text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .map(str::parse::<Card>)
            .collect::<Result<Vec<_>, _>>()?;
        CardSet::try_from_cards(cards)
    }
}

impl FromIterator<Card> for CardSet {
    /// Collects cards; a card given twice is simply in the set once.
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> CardSet {
        let mut s = CardSet::EMPTY;
        for c in iter {
            s.insert(c);
        }
        s
    }
}

impl IntoIterator for CardSet {
    type Item = Card;
    type IntoIter = CardSetIter;
    fn into_iter(self) -> CardSetIter {
        self.iter()
    }
}

impl From<Card> for CardSet {
    fn from(c: Card) -> CardSet {
        CardSet::single(c)
    }
}

/// Iterates the cards of a [`CardSet`] from the lowest bit up.
#[derive(Clone, Debug)]
pub struct CardSetIter(u64);

impl Iterator for CardSetIter {
    type Item = Card;
    #[inline]
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let bit = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Card::from_bit(bit)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CardSetIter {}

impl DoubleEndedIterator for CardSetIter {
    fn next_back(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let bit = 63 - self.0.leading_zeros() as u8;
        self.0 &= !(1 << bit);
        Card::from_bit(bit)
    }
}

macro_rules! set_op {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl $tr for CardSet {
            type Output = CardSet;
            #[inline]
            fn $f(self, o: CardSet) -> CardSet {
                CardSet(self.0 $op o.0)
            }
        }
        impl $atr for CardSet {
            #[inline]
            fn $af(&mut self, o: CardSet) {
                self.0 = self.0 $op o.0;
            }
        }
    };
}
set_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
set_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);

impl BitXor for CardSet {
    type Output = CardSet;
    #[inline]
    fn bitxor(self, o: CardSet) -> CardSet {
        CardSet(self.0 ^ o.0)
    }
}

impl Sub for CardSet {
    type Output = CardSet;
    /// The cards of `self` that are not in `o`.
    #[inline]
    fn sub(self, o: CardSet) -> CardSet {
        CardSet(self.0 & !o.0)
    }
}

impl SubAssign for CardSet {
    #[inline]
    fn sub_assign(&mut self, o: CardSet) {
        self.0 &= !o.0;
    }
}

impl Not for CardSet {
    type Output = CardSet;
    /// The complement within the 52 cards.
    #[inline]
    fn not(self) -> CardSet {
        CardSet(!self.0 & CardSet::FULL.0)
    }
}

impl CardSet {
    /// Appends the set's JSON text, `["2C","10H"]`, byte for byte what its
    /// `Serialize` writes through `serde_json`, for a fraction of the cost: a
    /// card's name never needs escaping, and a server writes hundreds of
    /// cards a move into its frames (issue 53).
    pub fn write_json(self, out: &mut Vec<u8>) {
        out.push(b'[');
        for (i, card) in self.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.push(b'"');
            out.extend_from_slice(card.ascii().as_bytes());
            out.push(b'"');
        }
        out.push(b']');
    }
}

impl Serialize for CardSet {
    /// A list of card texts: `["2C", "10H"]`.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for CardSet {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<CardSet, D::Error> {
        let cards = Vec::<Card>::deserialize(d)?;
        CardSet::try_from_cards(cards).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `count` pseudo-random sets from `seed` (a linear congruential
    /// sequence): about half the deck each when `sparse` is false, about a
    /// quarter (so some suits empty) when it is true.
    fn random_sets(seed: u64, count: usize, sparse: bool) -> impl Iterator<Item = CardSet> {
        let mut state = seed;
        std::iter::repeat_with(move || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            let bits = if sparse { state & (state >> 7) } else { state };
            CardSet::from_bits(bits & CardSet::FULL.bits())
        })
        .take(count)
    }

    #[test]
    fn a_set_s_json_text_is_serde_s() {
        for sparse in [false, true] {
            for cards in random_sets(7, 2_000, sparse).chain([CardSet::EMPTY, CardSet::FULL]) {
                let mut out = Vec::new();
                cards.write_json(&mut out);
                assert_eq!(
                    String::from_utf8(out).unwrap(),
                    serde_json::to_string(&cards).unwrap()
                );
            }
        }
    }

    #[test]
    fn nth_is_the_nth_card_of_the_iteration() {
        for cards in random_sets(0x9e37_79b9_7f4a_7c15, 2_000, false) {
            let listed: Vec<Card> = cards.iter().collect();
            for i in 0..=listed.len() as u32 + 2 {
                assert_eq!(cards.nth(i), listed.get(i as usize).copied(), "{cards} {i}");
            }
        }
    }

    #[test]
    fn lowest_of_each_suit_is_the_lowest_card_of_every_suit() {
        let sets = random_sets(0x2545_f491_4f6c_dd1d, 2_500, true);
        for cards in sets.chain(random_sets(0x2545_f491_4f6c_dd1d, 2_500, false)) {
            let expected = Suit::ALL
                .into_iter()
                .filter_map(|suit| cards.lowest_of(suit))
                .collect::<CardSet>();
            assert_eq!(cards.lowest_of_each_suit(), expected, "{cards}");
        }
        assert_eq!(CardSet::EMPTY.lowest_of_each_suit(), CardSet::EMPTY);
        assert_eq!(
            CardSet::FULL.lowest_of_each_suit(),
            CardSet::rank(Rank::Two)
        );
    }

    #[test]
    fn whole_suits_are_the_suits_held_any_card_of() {
        for cards in random_sets(0x51_7cc1_b727_220a, 2_500, true).chain(random_sets(
            0x51_7cc1_b727_220a,
            2_500,
            false,
        )) {
            let expected = Suit::ALL
                .into_iter()
                .filter(|&suit| cards.count_suit(suit) > 0)
                .fold(CardSet::EMPTY, |a, suit| a | CardSet::suit(suit));
            assert_eq!(cards.whole_suits(), expected, "{cards}");
        }
        assert_eq!(CardSet::EMPTY.whole_suits(), CardSet::EMPTY);
        assert_eq!(CardSet::FULL.whole_suits(), CardSet::FULL);
    }

    #[test]
    fn of_ranks_is_those_ranks_in_every_suit() {
        for mask in [0u16, 1, 0b1011, 0x1FFF, 0xFFFF] {
            let expected = Rank::ALL
                .into_iter()
                .filter(|r| mask >> r.index() & 1 == 1)
                .fold(CardSet::EMPTY, |a, r| a | CardSet::rank(r));
            assert_eq!(CardSet::of_ranks(mask), expected, "{mask:#x}");
        }
    }

    fn set(text: &str) -> CardSet {
        text.parse().unwrap()
    }

    #[test]
    fn full_deck_has_52_cards_13_per_suit_4_per_rank() {
        assert_eq!(CardSet::FULL.len(), 52);
        for s in Suit::ALL {
            assert_eq!(CardSet::FULL.count_suit(s), 13);
            assert_eq!(CardSet::suit(s).len(), 13);
        }
        for r in Rank::ALL {
            assert_eq!(CardSet::FULL.count_rank(r), 4);
            assert_eq!(CardSet::rank(r).len(), 4);
        }
        assert_eq!(!CardSet::FULL, CardSet::EMPTY);
        assert_eq!(CardSet::from_bits(u64::MAX), CardSet::FULL);
    }

    #[test]
    fn set_operations() {
        let a = set("AH KH 2C");
        let b = set("KH 3D");
        assert_eq!(a | b, set("AH KH 2C 3D"));
        assert_eq!(a & b, set("KH"));
        assert_eq!(a - b, set("AH 2C"));
        assert_eq!(a ^ b, set("AH 2C 3D"));
        assert!(a.contains_all(set("AH 2C")));
        assert!(!a.contains_all(b));
        let mut c = a;
        assert!(c.remove("AH".parse().unwrap()));
        assert!(!c.remove("AH".parse().unwrap()));
        assert!(c.insert("AH".parse().unwrap()));
        assert_eq!(c, a);
    }

    #[test]
    fn per_suit_and_per_rank_queries() {
        let s = set("2H 5H AH 5C 5S");
        assert_eq!(s.suit_mask(Suit::Hearts), 0b1_0000_0000_1001);
        assert_eq!(s.rank_mask(), 0b1_0000_0000_1001);
        assert_eq!(s.count_rank(Rank::Five), 3);
        assert_eq!(s.count_suit(Suit::Diamonds), 0);
        assert_eq!(s.lowest(), Some("2H".parse().unwrap()));
        assert_eq!(s.lowest_of(Suit::Spades), Some("5S".parse().unwrap()));
        assert_eq!(s.lowest_of(Suit::Diamonds), None);
        assert_eq!(
            CardSet::from_suit_mask(Suit::Hearts, 0b1_0000_0000_1001),
            set("2H 5H AH")
        );
    }

    #[test]
    fn iterates_in_order_both_ways() {
        let s = set("AS 2C 10H");
        assert_eq!(
            s.to_vec(),
            vec![
                "2C".parse().unwrap(),
                "10H".parse().unwrap(),
                "AS".parse().unwrap()
            ]
        );
        assert_eq!(s.iter().next_back(), Some("AS".parse().unwrap()));
        assert_eq!(s.iter().len(), 3);
        assert_eq!(s.to_string(), "2C 10H AS");
        assert_eq!(format!("{s:#}"), "2♣ 10♥ A♠");
    }

    #[test]
    fn parse_refuses_duplicates_and_bad_cards() {
        assert_eq!(
            "AH ah".parse::<CardSet>(),
            Err(ParseCardSetError::Duplicate("AH".parse().unwrap()))
        );
        assert!(matches!(
            "AH XX".parse::<CardSet>(),
            Err(ParseCardSetError::Card(_))
        ));
        assert_eq!("AH, KH,QH".parse::<CardSet>().unwrap().len(), 3);
    }

    #[test]
    fn serde_round_trip() {
        let s = set("AS 2C 10H");
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(json, r#"["2C","10H","AS"]"#);
        assert_eq!(serde_json::from_str::<CardSet>(&json).unwrap(), s);
        assert!(serde_json::from_str::<CardSet>(r#"["2C","2C"]"#).is_err());
    }
}
