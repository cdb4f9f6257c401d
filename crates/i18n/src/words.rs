//! Words built from values of the cards crate: a poker hand as players name
//! it ("full house, kings over fives", "full de reyes y cincos").

use tripoley_cards::{Category, HandRank, Rank, Shape};

use crate::Lang;

/// A hand's name with its ranks, as a player would say it.
pub fn hand_rank(rank: HandRank, lang: Lang) -> String {
    let plural = |r: Rank| lang.t("rank-plural", &[("rank", r.name().into())]);
    let single = |r: Rank| lang.t("rank-name", &[("rank", r.name().into())]);
    let high = |r: Rank| lang.t("rank-high", &[("rank", r.name().into())]);
    let category = rank.category();
    let (shape, top, a, b) = match rank.shape() {
        Shape::Run(Rank::Ace) if category == Category::StraightFlush => {
            ("royal", Rank::Ace, Rank::Ace, Rank::Ace)
        }
        Shape::Distinct(r) => ("high", r[0], r[0], r[0]),
        Shape::Run(top) => ("run", top, top, top),
        Shape::Pair(p, _) => ("pair", p, p, p),
        Shape::TwoPair(x, y, _) => ("two_pair", x, x, y),
        Shape::Trips(t, _) => ("trips", t, t, t),
        Shape::FullHouse(t, p) => ("full", t, t, p),
        Shape::Quads(q, _) => ("quads", q, q, q),
    };
    lang.t(
        "poker-hand",
        &[
            ("shape", shape.into()),
            ("category", category.key().into()),
            ("high", high(top).into()),
            ("card", single(top).into()),
            ("a", plural(a).into()),
            ("b", plural(b).into()),
        ],
    )
}

#[cfg(test)]
mod tests {
    use tripoley_cards::{CardSet, Evaluator};

    use super::hand_rank;
    use crate::Lang;

    fn named(cards: &str, lang: Lang) -> String {
        let set: CardSet = cards.parse().expect("cards");
        hand_rank(Evaluator::default().best(set), lang)
    }

    #[test]
    fn english_names_are_the_cards_crate_s_own() {
        for hand in [
            "KH KD KS 5C 5D",
            "AH KH QH JH TH",
            "9S 8S 7S 6S 5S",
            "2C 3D 4H 5S AC",
            "KH 8D KS 8C 2D",
            "QC QD 3H 7S 9C",
            "AC 9C 7C 4C 2C",
            "AH JD 8S 5C 3D",
            "7H 7D 7S 7C 2D",
            "6H 6D 6S 9C 2D",
        ] {
            let set: CardSet = hand.parse().expect("cards");
            let rank = Evaluator::default().best(set);
            assert_eq!(hand_rank(rank, Lang::En), rank.name(), "{hand}");
        }
    }

    #[test]
    fn spanish_names_say_it_the_spanish_way() {
        assert_eq!(named("KH KD KS 5C 5D", Lang::Es), "full de reyes y cincos");
        assert_eq!(named("AH KH QH JH TH", Lang::Es), "escalera real");
        assert_eq!(
            named("9S 8S 7S 6S 5S", Lang::Es),
            "escalera de color al nueve"
        );
        assert_eq!(
            named("KH 8D KS 8C 2D", Lang::Es),
            "doble pareja de reyes y ochos"
        );
        assert_eq!(named("QC QD 3H 7S 9C", Lang::Es), "pareja de reinas");
        assert_eq!(named("QC 4C 7C 2C 9C", Lang::Es), "color a la reina");
        assert_eq!(named("AH JD 8S 5C 3D", Lang::Es), "carta alta: as");
        assert_eq!(named("6H 6D 6S 9C 2D", Lang::Es), "trío de seises");
        assert_eq!(named("7H 7D 7S 7C 2D", Lang::Es), "póquer de sietes");
    }
}
