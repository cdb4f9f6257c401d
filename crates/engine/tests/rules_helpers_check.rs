//! The test helpers build the deals they promise.
mod common;
use common::*;
use tripoley_engine::{Event, Preset, Rules};

#[test]
fn d1_deck_for_deals_the_named_hands() {
    let mut game = table(Rules::preset(Preset::Tripoley), 3, 1);
    let ev = deal(&mut game, &["AH KH", "2C", "QS"], "3D");
    let dealt: Vec<(u8, tripoley_cards::CardSet)> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Dealt { seat, cards } => Some((*seat, *cards)),
            _ => None,
        })
        .collect();
    // Dealer 1: seat 2 first, then 0, then 1, then the spare.
    assert_eq!(dealt.iter().map(|d| d.0).collect::<Vec<_>>(), vec![2, 0, 1]);
    assert!(dealt[1].1.contains_all(cards("AH KH")));
    assert!(dealt[2].1.contains_all(cards("2C")));
    assert!(dealt.iter().all(|d| d.1.len() == 13));
    let (_, spare, _) = game.card_locations();
    assert!(spare.contains_all(cards("3D")));
}
