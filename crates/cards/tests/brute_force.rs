//! Property: for random sets of 6 to 26 cards the evaluator agrees with brute
//! force over every five-card subset, for the best hand and for the lowest.

use proptest::prelude::*;
use tripoley_cards::{Card, CardSet, Evaluator, HandRank};

fn card_set(min: usize, max: usize) -> impl Strategy<Value = CardSet> {
    proptest::sample::subsequence((0..52).collect::<Vec<usize>>(), min..=max)
        .prop_map(|idx| idx.into_iter().map(Card::from_index).collect())
}

/// Every five-card subset's value.
fn all_fives(eval: Evaluator, cards: CardSet) -> Vec<HandRank> {
    let list = cards.to_vec();
    let n = list.len();
    let mut out = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            for c in b + 1..n {
                for d in c + 1..n {
                    for e in d + 1..n {
                        out.push(
                            eval.best(
                                [list[a], list[b], list[c], list[d], list[e]]
                                    .into_iter()
                                    .collect(),
                            ),
                        );
                    }
                }
            }
        }
    }
    out
}

fn check(eval: Evaluator, cards: CardSet) {
    let all = all_fives(eval, cards);
    let (best, five) = eval.best_five(cards);
    assert_eq!(Some(&best), all.iter().max(), "best of {cards}");
    assert_eq!(five.len(), 5);
    assert!(cards.contains_all(five));
    assert_eq!(eval.best(five), best);
    let (low, five) = eval.lowest_five(cards);
    assert_eq!(Some(&low), all.iter().min(), "lowest of {cards}");
    assert_eq!(five.len(), 5);
    assert!(cards.contains_all(five));
    assert_eq!(eval.best(five), low);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn n4_p2_best_and_lowest_agree_with_brute_force(cards in card_set(6, 26), ace_high in any::<bool>()) {
        check(Evaluator { ace_always_high: ace_high }, cards);
    }

    /// Few ranks or one suit: where the lowest hand cannot be a high card.
    #[test]
    fn n4_lowest_agrees_on_crowded_sets(
        ranks in proptest::sample::subsequence((0..13u8).collect::<Vec<_>>(), 2..=5),
        suits in proptest::collection::vec(1u8..16, 5),
        ace_high in any::<bool>(),
    ) {
        let cards: CardSet = ranks.iter().zip(&suits).flat_map(|(&r, &s)| {
            (0..4u8).filter(move |i| s >> i & 1 == 1).map(move |i| Card::new(tripoley_cards::Rank::from_index(r), tripoley_cards::Suit::from_index(i)))
        }).collect();
        prop_assume!(cards.len() >= 5);
        check(Evaluator { ace_always_high: ace_high }, cards);
    }
}
