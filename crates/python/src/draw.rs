//! A deck drawn from outside card by card: how OpenSpiel's chance nodes deal.

use tripoley_cards::{Card, Deck};

/// The cards drawn so far from the top of a deck being shuffled by chance.
/// The last card is placed as soon as 51 are drawn: it has one outcome.
#[derive(Clone, Debug, Default)]
pub struct DeckDraw {
    cards: Vec<Card>,
    drawn: u64,
}

impl DeckDraw {
    /// Whether every card is placed.
    pub fn is_complete(&self) -> bool {
        self.cards.len() == 52
    }

    /// Cards placed so far.
    pub fn len(&self) -> usize {
        self.cards.len()
    }

    /// Whether nothing is drawn yet.
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// The cards that may come next (dense indices), equally likely.
    pub fn outcomes(&self) -> Vec<usize> {
        (0..52).filter(|i| self.drawn >> i & 1 == 0).collect()
    }

    /// Whether card `i` (dense index) may come next.
    pub fn may_draw(&self, i: usize) -> bool {
        i < 52 && self.drawn >> i & 1 == 0 && !self.is_complete()
    }

    /// Places card `i` (dense index) next; false if it may not come next.
    pub fn push(&mut self, i: usize) -> bool {
        if !self.may_draw(i) {
            return false;
        }
        self.place(i);
        if self.cards.len() == 51 {
            let last = (0..52)
                .find(|j| self.drawn >> j & 1 == 0)
                .expect("one card left");
            self.place(last);
        }
        true
    }

    fn place(&mut self, i: usize) {
        self.drawn |= 1 << i;
        self.cards.push(Card::from_index(i));
    }

    /// The whole deck, once complete.
    pub fn deck(&self) -> Option<Deck> {
        self.is_complete()
            .then(|| Deck::from_cards(&self.cards).expect("52 different cards"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn d1_fifty_one_draws_make_a_deck_in_the_order_drawn() {
        let mut draw = DeckDraw::default();
        for i in (0..52).rev().take(51) {
            assert_eq!(draw.outcomes().len(), 52 - draw.len());
            assert!(draw.push(i));
        }
        assert!(!draw.push(0), "the last card is placed by itself");
        let deck = draw.deck().unwrap();
        assert_eq!(deck.cards()[0], Card::from_index(51));
        assert_eq!(deck.cards()[51], Card::from_index(0));
    }

    #[test]
    fn a_card_drawn_twice_is_refused() {
        let mut draw = DeckDraw::default();
        assert!(draw.push(7));
        assert!(!draw.push(7));
        assert!(!draw.push(52));
        assert_eq!(draw.len(), 1);
    }
}
