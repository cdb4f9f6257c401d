//! Choosing a Michigan lead by counting cards (M3-M5).

use tripoley_cards::{Card, CardSet};
use tripoley_engine::View;

/// How good leading `card` looks: cards it lets us shed in a row, and
/// whether the run then surely stops with us (so we lead again).
fn score(view: &View, card: Card, pay_cards: CardSet) -> i32 {
    let hand = view.hand;
    let played = view.played.iter().fold(CardSet::EMPTY, |a, &p| a | p);
    let gone = played | view.spare_known;
    let mut run = 0;
    let mut collected = 0;
    let mut c = card;
    let keeps_lead;
    loop {
        run += 1;
        if pay_cards.contains(c) {
            collected += 1;
        }
        let Some(next_rank) = c.rank().next() else {
            keeps_lead = true;
            break;
        };
        let next = Card::new(next_rank, c.suit());
        if hand.contains(next) {
            c = next;
            continue;
        }
        // The run stops with us if nobody can play the next card.
        keeps_lead = gone.contains(next);
        break;
    }
    let cards_left = i32::try_from(hand.len()).unwrap_or(i32::MAX);
    let going_out = i32::from(run == cards_left) * 1000;
    run * 10 + i32::from(keeps_lead) * 25 + collected * 15 + going_out
        - i32::from(card.rank().index())
}

/// The best card to lead among `options`: the proper ones (the lowest of
/// their suit) only, so a heuristic player never pays for a misplay (M9a).
pub(crate) fn choose_lead(view: &View, options: CardSet, pay_cards: CardSet) -> Card {
    let hand = view.hand;
    let proper: CardSet = options
        .iter()
        .filter(|c| hand.lowest_of(c.suit()) == Some(*c))
        .collect();
    let pool = if proper.is_empty() { options } else { proper };
    pool.iter()
        .max_by_key(|&c| score(view, c, pay_cards))
        .expect("a lead decision has options")
}
