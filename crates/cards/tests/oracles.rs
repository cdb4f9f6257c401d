//! Exact oracles for the poker evaluator (P2): every five-card hand, and
//! (in optimised builds, `--include-ignored`) every seven-card hand.

use std::collections::HashMap;

use tripoley_cards::{Card, CardSet, Category, Evaluator, HandRank};

/// A textbook evaluator, slow and obvious, to check the fast one against:
/// (category, ranks ordered by count then rank).
fn reference_key(five: &[Card], ace_always_high: bool) -> (Category, Vec<u8>) {
    let mut counts = [0u8; 13];
    for c in five {
        counts[c.rank().index() as usize] += 1;
    }
    let mut groups: Vec<(u8, u8)> = (0..13u8)
        .filter(|&r| counts[r as usize] > 0)
        .map(|r| (counts[r as usize], r))
        .collect();
    groups.sort_by(|a, b| b.cmp(a));
    let ranks: Vec<u8> = groups.iter().map(|g| g.1).collect();
    let flush = five.iter().all(|c| c.suit() == five[0].suit());
    let distinct = groups.len() == 5;
    let straight_top = if distinct && ranks[0] - ranks[4] == 4 {
        Some(ranks[0])
    } else if distinct && !ace_always_high && ranks == [12, 3, 2, 1, 0] {
        Some(3)
    } else {
        None
    };
    let shape: Vec<u8> = groups.iter().map(|g| g.0).collect();
    match (straight_top, flush, shape.as_slice()) {
        (Some(t), true, _) => (Category::StraightFlush, vec![t]),
        (_, _, [4, 1]) => (Category::FourOfAKind, ranks),
        (_, _, [3, 2]) => (Category::FullHouse, ranks),
        (None, true, _) => (Category::Flush, ranks),
        (Some(t), false, _) => (Category::Straight, vec![t]),
        (_, _, [3, 1, 1]) => (Category::ThreeOfAKind, ranks),
        (_, _, [2, 2, 1]) => (Category::TwoPair, ranks),
        (_, _, [2, 1, 1, 1]) => (Category::Pair, ranks),
        _ => (Category::HighCard, ranks),
    }
}

fn category_counts(counts: &[u64; 9]) -> Vec<u64> {
    counts.to_vec()
}

#[test]
fn p2_all_five_card_hands() {
    for eval in [Evaluator::STANDARD, Evaluator::ACE_HIGH] {
        let deck: Vec<Card> = (0..52).map(Card::from_index).collect();
        let mut counts = [0u64; 9];
        let mut seen: HashMap<HandRank, (Category, Vec<u8>)> = HashMap::new();
        for a in 0..48 {
            for b in a + 1..49 {
                for c in b + 1..50 {
                    for d in c + 1..51 {
                        for e in d + 1..52 {
                            let five = [deck[a], deck[b], deck[c], deck[d], deck[e]];
                            let r = eval.best(five.into_iter().collect::<CardSet>());
                            counts[r.category() as usize] += 1;
                            let key = reference_key(&five, eval.ace_always_high);
                            assert_eq!(r.category(), key.0, "{five:?}");
                            let old = seen.entry(r).or_insert_with(|| key.clone());
                            assert_eq!(*old, key, "two different hands share a value: {five:?}");
                        }
                    }
                }
            }
        }
        assert_eq!(seen.len(), 7462);
        let mut by_value: Vec<_> = seen.into_iter().collect();
        by_value.sort();
        assert!(
            by_value.windows(2).all(|w| w[0].1 < w[1].1),
            "the order agrees with the reference"
        );
        let want: Vec<u64> = if eval.ace_always_high {
            // The wheel's 10,200 / 40 become high-card and flush hands.
            vec![
                1_302_540 + 1_020,
                1_098_240,
                123_552,
                54_912,
                10_200 - 1_020,
                5_108 + 4,
                3_744,
                624,
                40 - 4,
            ]
        } else {
            vec![
                1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 40,
            ]
        };
        assert_eq!(category_counts(&counts), want);
    }
}

#[test]
#[ignore = "exhaustive: 133,784,560 hands; run optimised with --include-ignored"]
fn p2_all_seven_card_hands() {
    let bits: Vec<u64> = (0..52)
        .map(|i| CardSet::single(Card::from_index(i)).bits())
        .collect();
    let eval = Evaluator::STANDARD;
    let mut counts = [0u64; 9];
    // Which values occur, as a bitmap over the 30-bit value space.
    let mut seen = vec![0u64; 1 << 24];
    for a in 0..46 {
        for b in a + 1..47 {
            let ab = bits[a] | bits[b];
            for c in b + 1..48 {
                let abc = ab | bits[c];
                for d in c + 1..49 {
                    let abcd = abc | bits[d];
                    for e in d + 1..50 {
                        let abcde = abcd | bits[e];
                        for f in e + 1..51 {
                            let six = abcde | bits[f];
                            for &g in &bits[f + 1..] {
                                let r = eval.best(CardSet::from_bits(six | g));
                                counts[r.category() as usize] += 1;
                                let v = r.value() as usize;
                                seen[v >> 6] |= 1 << (v & 63);
                            }
                        }
                    }
                }
            }
        }
    }
    assert_eq!(
        category_counts(&counts),
        vec![
            23_294_460, 58_627_800, 31_433_400, 6_461_620, 6_180_020, 4_047_644, 3_473_184,
            224_848, 41_584
        ]
    );
    let distinct: u32 = seen.iter().map(|w| w.count_ones()).sum();
    assert_eq!(distinct, 4824);
}
