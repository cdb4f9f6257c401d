//! Worlds a Napalm seat cannot tell from the real one (determinizations),
//! for searches such as `OpenSpiel`'s ISMCTS.

use rand_core::Rng;
use tripoley_cards::{Card, CardSet};

use crate::Seat;
use crate::game::NapalmGame;

impl NapalmGame {
    /// A copy of this game in which every card `seat` cannot see is dealt
    /// again at random: the other seats' cards (but those `seat` saw in a
    /// comparison, N7) and the rest of the deck. What the other seats saw of
    /// each other follows the new cards, keeping what `seat` saw with them.
    #[must_use]
    pub fn sample_world(&self, seat: Seat, rng: &mut (impl Rng + ?Sized)) -> NapalmGame {
        let mut g = self.clone();
        let n = usize::from(self.n);
        let me = usize::from(seat);
        let known = |h: usize| {
            if h == me {
                self.cards[h]
            } else {
                self.seen[me][h] & self.cards[h]
            }
        };
        let mut pool: Vec<Card> = (0..n)
            .fold(CardSet::FULL, |left, h| left - known(h))
            .to_vec();
        shuffle(&mut pool, rng);
        for h in (0..n).filter(|&h| h != me) {
            let take = (self.cards[h].len() - known(h).len()) as usize;
            g.cards[h] = pool.drain(..take).fold(known(h), |mut c, card| {
                c.insert(card);
                c
            });
        }
        // The undealt rest of the deck, in a new order; the dealt part keeps
        // its cards' count (no seat reads it again).
        let dealt = self.next_card.min(self.deck.len());
        let rest = self.deck.len() - dealt;
        g.deck.truncate(dealt);
        g.deck.extend(pool.iter().take(rest));
        for v in (0..n).filter(|&v| v != me) {
            for h in (0..n).filter(|&h| h != me && h != v) {
                let saw = self.seen[v][h];
                let with_me = saw & self.seen[me][h];
                let others = (g.cards[h] - with_me).to_vec();
                let count = (saw.len() - with_me.len()) as usize;
                g.seen[v][h] = others.into_iter().take(count).fold(with_me, |mut c, card| {
                    c.insert(card);
                    c
                });
            }
        }
        g
    }
}

/// Fisher-Yates.
fn shuffle(cards: &mut [Card], rng: &mut (impl Rng + ?Sized)) {
    for i in (1..cards.len()).rev() {
        let j = ((u64::from(rng.next_u32()) * (i as u64 + 1)) >> 32) as usize;
        cards.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use rand_core::Rng;
    use tripoley_cards::{Deck, seeded_rng};

    use crate::{Action, NapalmGame, NapalmRules, Pending};

    #[test]
    fn a_sampled_world_looks_the_same_from_the_seat_and_deals_the_rest_anew() {
        let mut rng = seeded_rng(3);
        let mut game = NapalmGame::new(NapalmRules::default(), 4).unwrap();
        let mut checked = 0;
        while checked < 200 {
            match game.pending() {
                Pending::Deck => {
                    game.deal(&Deck::shuffled(&mut rng)).unwrap();
                }
                Pending::Decide { seat, .. } => {
                    let sample = game.sample_world(seat, &mut rng);
                    assert_eq!(sample.view(Some(seat)), game.view(Some(seat)));
                    // No card both held and still to be dealt.
                    for card in &sample.deck[sample.next_card..] {
                        assert!(sample.cards().iter().all(|c| !c.contains(*card)));
                    }
                    let action = if rng.next_u32() % 2 == 0 {
                        Action::Yes
                    } else {
                        Action::No
                    };
                    let answer = match game.view(Some(seat)).decision {
                        Some(crate::Decision::Challenge { .. }) => Action::Decline,
                        _ => action,
                    };
                    game.apply(seat, answer).unwrap();
                    checked += 1;
                }
                Pending::GameOver => break,
            }
        }
        assert!(checked > 50);
    }
}
