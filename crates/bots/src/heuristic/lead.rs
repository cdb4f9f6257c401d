//! Choosing a Michigan lead by counting cards (M3-M5).

use tripoley_cards::{Card, CardSet};
use tripoley_engine::View;

/// How good leading `card` looks, in points:
/// - the cards it sheds at once in a row (10 each), and whether the run
///   then surely stops with us (25: we lead again);
/// - the cards of ours further up the suit that the same sequence sheds
///   when other players fill the gaps (15 each), up to the first card
///   known to be gone (played, or seen in the spare);
/// - whether the card is stranded (30): nobody else can lead into it,
///   because the card below it is gone or ours (or it is a two); a card
///   another player's sequence can reach gets shed without spending a lead;
/// - pay cards it collects (15 each), going out (1000), and lower cards
///   first on equal terms.
///
/// With `anchor` set, the score as it was until 2026-11: the run, the stop
/// and the pay cards only.
fn score(view: &View, card: Card, pay_cards: CardSet, anchor: bool) -> i32 {
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
        let Some(next) = c.next_in_suit() else {
            keeps_lead = true;
            break;
        };
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
    let base = run * 10 + i32::from(keeps_lead) * 25 + collected * 15 + going_out
        - i32::from(card.rank().index());
    if anchor {
        return base;
    }
    let mut shed = 0;
    let mut c = Some(card);
    while let Some(next) = c.filter(|&n| !gone.contains(n)) {
        shed += i32::from(hand.contains(next));
        c = next.next_in_suit();
    }
    let stranded = card
        .previous_in_suit()
        .is_none_or(|p| gone.contains(p) || hand.contains(p));
    base + (shed - run) * 15 + i32::from(stranded) * 30
}

/// The best card to lead among `options`: the proper ones (the lowest of
/// their suit) only, so a heuristic player never pays for a misplay (M9a).
pub(crate) fn choose_lead(view: &View, options: CardSet, pay_cards: CardSet, anchor: bool) -> Card {
    let hand = view.hand;
    let proper: CardSet = options
        .iter()
        .filter(|c| hand.lowest_of(c.suit()) == Some(*c))
        .collect();
    let pool = if proper.is_empty() { options } else { proper };
    pool.iter()
        .max_by_key(|&c| score(view, c, pay_cards, anchor))
        .expect("a lead decision has options")
}
