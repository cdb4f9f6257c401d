//! Parsing outside input never panics, and whatever parses prints back the same.

use proptest::prelude::*;
use tripoley_cards::{Card, CardSet, Deck};

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn any_text_parses_or_errors_cleanly(text in "\\PC{0,12}") {
        if let Ok(card) = text.parse::<Card>() {
            prop_assert_eq!(card.to_string().parse::<Card>(), Ok(card));
        }
        if let Ok(set) = text.parse::<CardSet>() {
            prop_assert_eq!(set.to_string().parse::<CardSet>(), Ok(set));
        }
    }

    #[test]
    fn card_like_text_round_trips(rank in "(10|[2-9TJQKAtjqka])", suit in "[CDHScdhs♣♦♥♠]") {
        let text = format!("{rank}{suit}");
        let card: Card = text.parse().unwrap();
        prop_assert_eq!(format!("{card:#}").parse::<Card>(), Ok(card));
    }

    #[test]
    fn any_json_deck_is_checked(json in "\\PC{0,40}") {
        let _ = serde_json::from_str::<Deck>(&json);
        let _ = serde_json::from_str::<CardSet>(&json);
    }
}
