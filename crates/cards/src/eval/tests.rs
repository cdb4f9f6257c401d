use super::*;

fn set(text: &str) -> CardSet {
    text.parse().unwrap()
}

fn best(text: &str) -> HandRank {
    Evaluator::STANDARD.best(set(text))
}

#[test]
fn p2_categories_in_order() {
    let hands = [
        ("2C 4D 6H 8S 10C", Category::HighCard),
        ("2C 2D 6H 8S 10C", Category::Pair),
        ("2C 2D 6H 6S 10C", Category::TwoPair),
        ("2C 2D 2H 8S 10C", Category::ThreeOfAKind),
        ("AC 2D 3H 4S 5C", Category::Straight),
        ("2C 4C 6C 8C 10C", Category::Flush),
        ("2C 2D 2H 8S 8C", Category::FullHouse),
        ("2C 2D 2H 2S 10C", Category::FourOfAKind),
        ("AC 2C 3C 4C 5C", Category::StraightFlush),
    ];
    let ranks: Vec<HandRank> = hands.iter().map(|(h, _)| best(h)).collect();
    for ((h, cat), r) in hands.iter().zip(&ranks) {
        assert_eq!(r.category(), *cat, "{h}");
    }
    assert!(ranks.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn p2_kickers_break_ties_suits_never_do() {
    // A pair of threes never beats a pair of kings, whatever the kickers.
    assert!(best("3C 3D AH QS JC") < best("KC KD 2H 4S 5C"));
    assert!(best("KC KD 2H 4S 6C") > best("KH KS 2D 4C 5S"));
    assert_eq!(best("KC KD 2H 4S 6C"), best("KH KS 2D 4C 6S"));
    assert!(best("AC AD 9H 9S 2C") > best("AH AS 8D 8C KD"));
    assert!(best("AC AD 9H 9S 3C") > best("AH AS 9D 9C 2D"));
    assert!(best("7C 7D 7H KS QC") > best("7C 7D 7H KS JC"));
    assert!(best("AC KC QC JC 9C") > best("AD KD QD JD 8D"));
    assert!(best("8C 8D 8H 2S 2C") > best("7C 7D 7H AS AC"));
    assert!(best("9C 9D 9H 9S 3C") > best("9C 9D 9H 9S 2C"));
}

#[test]
fn p2_wheel_is_the_lowest_straight() {
    let wheel = best("AC 2D 3H 4S 5C");
    assert!(wheel < best("2C 3D 4H 5S 6C"));
    assert!(wheel > best("AC AD AH KS QC"));
    assert_eq!(wheel.name(), "straight, five high");
    assert!(best("10C JD QH KS AC") > best("9C 10D JH QS KC"));
    assert_eq!(best("AC 2C 3C 4C 5C").name(), "straight flush, five high");
}

#[test]
fn p2_ace_always_high_has_no_wheel() {
    let hand = set("AC 2D 3H 4S 5C");
    let r = Evaluator::ACE_HIGH.best(hand);
    assert_eq!(r.category(), Category::HighCard);
    assert_eq!(r.name(), "high card, ace high");
    assert_eq!(
        Evaluator::ACE_HIGH.best(set("AC 2C 3C 4C 5C")).category(),
        Category::Flush
    );
    // A-2-3-4-5-6: the six-high straight is there in both modes.
    assert_eq!(
        Evaluator::ACE_HIGH.best(set("AC 2D 3H 4S 5C 6D")).name(),
        "straight, six high"
    );
    assert_eq!(
        Evaluator::ACE_HIGH.best(set("10C JD QH KS AC")).name(),
        "straight, ace high"
    );
}

#[test]
fn names_read_like_a_player_says_them() {
    assert_eq!(
        best("KC KD KH 5S 5C").name(),
        "full house, kings over fives"
    );
    assert_eq!(best("3C 3D AH QS JC").name(), "pair of threes");
    assert_eq!(best("KC KD 5H 5S JC").name(), "two pair, kings and fives");
    assert_eq!(best("7C 7D 7H KS QC").name(), "three of a kind, sevens");
    assert_eq!(best("9C 9D 9H 9S 3C").name(), "four of a kind, nines");
    assert_eq!(best("2C 4C 6C 8C AC").name(), "flush, ace high");
    assert_eq!(best("10H JH QH KH AH").name(), "royal flush");
    assert_eq!(best("2C 4D 6H 8S 10C").name(), "high card, ten high");
    assert_eq!(best("6C 7D 8H 9S 10C").name(), "straight, ten high");
}

#[test]
fn best_five_of_many_cards() {
    // Two pairs plus a third pair: the best two pairs and the best kicker,
    // which may come from the third pair.
    let (r, five) = Evaluator::STANDARD.best_five(set("KC KD 5H 5S 9C 9D 2H"));
    assert_eq!(r.name(), "two pair, kings and nines");
    assert_eq!(five.len(), 5);
    assert!(five.contains_all(set("KC KD 9C 9D 5S")));
    // Two sets of trips make a full house.
    assert_eq!(
        best("KC KD KH 5S 5C 5D 2H").name(),
        "full house, kings over fives"
    );
    // Quads beat a flush that is also present; a flush beats a straight.
    assert_eq!(
        best("2C 2D 2H 2S 4S 6S 8S 10S").category(),
        Category::FourOfAKind
    );
    assert_eq!(best("5C 6D 7H 8S 9C 2C 3C JC").category(), Category::Flush);
}

#[test]
fn two_suits_with_flushes_both_checked() {
    // Clubs hold a plain flush, spades (checked after clubs) a better one,
    // and hearts a straight flush hiding among twelve cards.
    let hand = set("2C 4C 6C 8C 10C 3S 5S 7S 9S KS");
    let (r, five) = Evaluator::STANDARD.best_five(hand);
    assert_eq!(r.name(), "flush, king high");
    assert_eq!(five, set("3S 5S 7S 9S KS"));
    let with_sf = hand | set("4H 5H 6H 7H 8H");
    let (r, five) = Evaluator::STANDARD.best_five(with_sf);
    assert_eq!(r.name(), "straight flush, eight high");
    assert_eq!(five, set("4H 5H 6H 7H 8H"));
    // Straight flush in the first suit and a plain flush in a later one.
    let r = best("2D 3D 4D 5D 6D 2S 4S 8S 10S QS AS");
    assert_eq!(r.name(), "straight flush, six high");
}

#[test]
fn best_five_returns_cards_making_the_rank() {
    for text in [
        "AC 2D 3H 4S 5C 9D",
        "KC KD KH 5S 5C 5D 2H",
        "2C 4C 6C 8C 10C 3S 5S 7S 9S KS",
        "AS AD AH AC KS KD",
        "2C 3D 7H 9S JC QD",
    ] {
        let hand = set(text);
        for eval in [Evaluator::STANDARD, Evaluator::ACE_HIGH] {
            let (r, five) = eval.best_five(hand);
            assert_eq!(five.len(), 5, "{text}");
            assert!(hand.contains_all(five), "{text}");
            assert_eq!(eval.best(five), r, "{text}");
        }
    }
}

#[test]
fn n4_lowest_five() {
    let eval = Evaluator::ACE_HIGH;
    // Seven cards: the lowest high-card hand avoiding the straight 2-3-4-5-6.
    let (r, five) = eval.lowest_five(set("2C 3D 4H 5S 6C 9D KH"));
    assert_eq!(r.category(), Category::HighCard);
    assert_eq!(five, set("2C 3D 4H 5S 9D"));
    // Five cards of one suit: the flush is forced.
    assert_eq!(
        eval.lowest_five(set("2H 4H 6H 8H 10H")).0.category(),
        Category::Flush
    );
    // A flush is avoided when another card of the same rank can stand in.
    let (r, five) = eval.lowest_five(set("2H 4H 6H 8H 10H 10C"));
    assert_eq!(r.category(), Category::HighCard);
    assert!(five.contains("10C".parse().unwrap()));
    // Only four ranks: the lowest pair.
    let (r, _) = eval.lowest_five(set("2C 2D 3C 3D 4C 4D 5C 5D"));
    assert_eq!(r.name(), "pair of twos");
    // Under ordinary rules A-2-3-4-5 is a straight, under ace-high a high card.
    let wheel = set("AC 2D 3H 4S 5C");
    assert_eq!(
        Evaluator::STANDARD.lowest_five(wheel).0.category(),
        Category::Straight
    );
    assert_eq!(
        Evaluator::ACE_HIGH.lowest_five(wheel).0.category(),
        Category::HighCard
    );
}

#[test]
fn ordinal_counts_every_distinct_value() {
    for eval in [Evaluator::STANDARD, Evaluator::ACE_HIGH] {
        let all = eval.all_values();
        assert_eq!(all.len(), 7462);
        assert_eq!(eval.ordinal(all[0]), 1);
        assert_eq!(eval.ordinal(eval.best(set("10H JH QH KH AH"))), 7462);
    }
    assert_eq!(Evaluator::STANDARD.ordinal(best("7C 5D 4H 3S 2C")), 1);
    // Under ace-high rules 5-4-3-2-A is no straight but an ace-high hand.
    let ace_high = Evaluator::ACE_HIGH;
    assert_eq!(ace_high.ordinal(ace_high.best(set("7C 5D 4H 3S 2C"))), 1);
    assert!(
        ace_high.ordinal(ace_high.best(set("AC 5D 4H 3S 2C")))
            > ace_high.ordinal(ace_high.best(set("KC QD JH 10S 8C")))
    );
}
