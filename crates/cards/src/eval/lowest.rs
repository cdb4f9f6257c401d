//! The lowest five cards of a set (Napalm's round 2, N4).

use super::{Evaluator, HandRank};
use crate::card::{Card, Rank, Suit};
use crate::set::CardSet;

/// The next larger integer with the same number of set bits (Gosper's hack).
fn next_same_popcount(v: u32) -> u32 {
    let c = v & v.wrapping_neg();
    let r = v + c;
    (((r ^ v) >> 2) / c) | r
}

/// The weakest five-card hand in `cards`.
///
/// Nearly always that is a high-card hand, and high-card hands compare by
/// their rank mask as an integer, so the masks of five distinct ranks are
/// tried in increasing order: the first that is no straight and can be held
/// in at least two suits wins. When none can (few distinct ranks, or only
/// straights and forced flushes) the set is small, at most 20 cards, and
/// every five-card subset is tried.
pub(super) fn lowest_five(eval: Evaluator, cards: CardSet) -> (HandRank, CardSet) {
    debug_assert!(cards.len() >= 5, "a poker hand needs five cards");
    let present = u32::from(cards.rank_mask());
    if present.count_ones() >= 5 {
        let mut mask = 0b11111u32;
        while mask < 1 << 13 {
            if mask & present == mask
                && eval.straight_top(mask) == 0
                && let Some(five) = rainbow(cards, mask)
            {
                return (eval.best(five), five);
            }
            mask = next_same_popcount(mask);
        }
    }
    exhaustive_lowest(eval, cards)
}

/// Cards of the ranks in `mask`, one each, not all of one suit, if possible.
fn rainbow(cards: CardSet, mask: u32) -> Option<CardSet> {
    let mut five = CardSet::EMPTY;
    let mut swap = None;
    for r in 0..13u8 {
        if mask >> r & 1 == 1 {
            let of_rank = cards & CardSet::rank(Rank::from_index(r));
            let first = of_rank.first().expect("rank is present");
            five.insert(first);
            if swap.is_none() && of_rank.len() > 1 {
                swap = Some((
                    first,
                    (of_rank - CardSet::single(first))
                        .first()
                        .expect("a second card"),
                ));
            }
        }
    }
    if Suit::ALL.iter().all(|&s| five.count_suit(s) < 5) {
        return Some(five);
    }
    let (out, into) = swap?;
    five.remove(out);
    five.insert(into);
    Some(five)
}

/// Tries every five-card subset: for the rare small sets with no high-card hand.
fn exhaustive_lowest(eval: Evaluator, cards: CardSet) -> (HandRank, CardSet) {
    let list: Vec<Card> = cards.to_vec();
    let n = list.len();
    let mut best: Option<(HandRank, CardSet)> = None;
    let mut idx = [0usize, 1, 2, 3, 4];
    loop {
        let five: CardSet = idx.iter().map(|&i| list[i]).collect();
        let r = eval.best(five);
        if best.is_none_or(|(b, _)| r < b) {
            best = Some((r, five));
        }
        // Next combination in lexicographic order.
        let Some(i) = (0..5).rev().find(|&i| idx[i] < n - 5 + i) else {
            break;
        };
        idx[i] += 1;
        for j in i + 1..5 {
            idx[j] = idx[j - 1] + 1;
        }
    }
    best.expect("at least one five-card subset")
}
