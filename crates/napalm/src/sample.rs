//! Worlds a Napalm seat cannot tell from the real one (determinizations),
//! for searches such as `OpenSpiel`'s ISMCTS.

use rand_core::Rng;
use tripoley_cards::{Card, CardSet};

use crate::Seat;
use crate::game::{NapalmGame, hand_strength};

/// Draws [`NapalmGame::sample_world`] makes before it keeps one in which a
/// comparison the seat was not in ends otherwise than it did (N6: the side
/// bets showed who won): a draw keeps a two-seat comparison about half the
/// time, so this many misses in a row happen only for an exact tie, which
/// random hands seldom repeat; then the last draw stands.
const MAX_DRAWS: u32 = 200;

impl NapalmGame {
    /// A copy of this game in which every card `seat` cannot see is dealt
    /// again at random: the other seats' cards (but those `seat` saw in a
    /// comparison, N7) and the rest of the deck, written back into the deck
    /// so that dealing it again gives each seat its new cards in the same
    /// rounds. Every comparison keeps its winners (N6: the side bets are
    /// public); which of the cards `seat` saw came in which round is drawn
    /// again too, as far as `seat` cannot tell. What the other seats saw of
    /// each other follows the new cards.
    #[must_use]
    pub fn sample_world(&self, seat: Seat, rng: &mut (impl Rng + ?Sized)) -> NapalmGame {
        let mut g = self.clone();
        let n = usize::from(self.n);
        let me = usize::from(seat);
        let dealt = self.next_card.min(self.deck.len());
        // Who was dealt each position, in which round (D: one card at a
        // time round the table, `seats` of them). From the dealing order,
        // not the cards held: a seat out of chips at a hand's end holds
        // none, yet its cards were dealt and compared.
        let seats = self.dealt_to.len().max(1);
        let holder = |p: usize| self.dealt_to.get(p % seats).map(|&h| usize::from(h));
        let round_of = |p: usize| match p / seats {
            0..2 => 0,
            2..5 => 1,
            _ => 2,
        };
        let mut real = [[CardSet::EMPTY; 3]; crate::MAX_SEATS];
        for p in 0..dealt {
            if let Some(h) = holder(p) {
                real[h][round_of(p)].insert(self.deck[p]);
            }
        }
        let rounds = if dealt == 0 {
            0
        } else {
            round_of(dealt - 1) + 1
        };
        // N7: the rounds through which `seat` saw each hand (its own: all).
        let mut seen_through = [0u8; crate::MAX_SEATS];
        seen_through[me] = (1 << rounds) - 1;
        for c in self.compared.iter().filter(|c| c.yes >> me & 1 == 1) {
            for h in (0..n).filter(|&h| c.yes >> h & 1 == 1) {
                seen_through[h] |= 1 << c.round as u8;
            }
        }
        let prefix =
            |hand: &[CardSet; 3], r: usize| hand[..=r].iter().fold(CardSet::EMPTY, |a, &b| a | b);
        let known = (0..n).fold(CardSet::EMPTY, |all, h| match last_round(seen_through[h]) {
            Some(r) => all | prefix(&real[h], r),
            None => all,
        });
        let hidden = CardSet::FULL - known;
        let mut world = real;
        let mut pool;
        let mut tries = 0;
        loop {
            pool = hidden.to_vec();
            shuffle(&mut pool, rng);
            for h in (0..n).filter(|&h| h != me) {
                world[h] = redraw_rounds(&real[h], seen_through[h], rounds, &mut pool, rng);
            }
            tries += 1;
            let kept = self.compared.iter().all(|c| {
                let best = (0..n)
                    .filter(|&h| c.yes >> h & 1 == 1)
                    .map(|h| {
                        (
                            h,
                            hand_strength(c.round, prefix(&world[h], c.round as usize)),
                        )
                    })
                    .fold((0, 0u16), |(top, mask), (h, v)| match v.cmp(&top) {
                        std::cmp::Ordering::Greater => (v, 1 << h),
                        std::cmp::Ordering::Equal => (top, mask | 1 << h),
                        std::cmp::Ordering::Less => (top, mask),
                    })
                    .1;
                best == c.best
            });
            if kept || tries == MAX_DRAWS {
                break;
            }
        }
        // A seat out of chips keeps holding nothing.
        for (h, (cards, hand)) in g.cards.iter_mut().zip(&world).take(n).enumerate() {
            if !self.cards[h].is_empty() {
                *cards = prefix(hand, 2);
            }
        }
        // The deck deals the new cards where the real one dealt the old:
        // each seat's round gets its new cards in a random order.
        let mut by_round = world.map(|hand| {
            hand.map(|cards| {
                let mut cards = cards.to_vec();
                shuffle(&mut cards, rng);
                cards
            })
        });
        for p in 0..dealt {
            if let Some(h) = holder(p) {
                g.deck[p] = by_round[h][round_of(p)].pop().expect("as many as dealt");
            }
        }
        g.deck.truncate(dealt);
        g.deck.extend(pool.iter().take(self.deck.len() - dealt));
        // What the others saw of each other in the comparisons, anew.
        for v in (0..n).filter(|&v| v != me) {
            g.seen[v] = [CardSet::EMPTY; crate::MAX_SEATS];
        }
        for c in &self.compared {
            for v in (0..n).filter(|&v| v != me && c.yes >> v & 1 == 1) {
                for h in (0..n).filter(|&h| c.yes >> h & 1 == 1) {
                    g.seen[v][h] = prefix(&world[h], c.round as usize);
                }
            }
        }
        g
    }
}

/// The last round of `rounds` (a bit per round), if any.
fn last_round(rounds: u8) -> Option<usize> {
    (rounds != 0).then(|| 7 - rounds.leading_zeros() as usize)
}

/// A seat's cards of each round (of `dealt` rounds) drawn again: those of
/// the rounds up to one `seen` (a bit per round) stay, shuffled among the
/// rounds since the one seen before; later rounds' come from `pool`.
fn redraw_rounds(
    real: &[CardSet; 3],
    seen: u8,
    dealt: usize,
    pool: &mut Vec<Card>,
    rng: &mut (impl Rng + ?Sized),
) -> [CardSet; 3] {
    let mut out = [CardSet::EMPTY; 3];
    let mut from = 0;
    for r in 0..dealt {
        let last = r + 1 == dealt;
        if seen >> r & 1 == 0 && !last {
            continue;
        }
        // Rounds `from..=r`: the seen cards among them, or fresh ones.
        let mut cards = if seen >> r & 1 == 1 {
            real[from..=r]
                .iter()
                .flat_map(|c| c.iter())
                .collect::<Vec<_>>()
        } else {
            let take: usize = real[from..=r].iter().map(|c| c.len() as usize).sum();
            pool.split_off(pool.len() - take)
        };
        shuffle(&mut cards, rng);
        for (k, cards_of) in out.iter_mut().enumerate().take(r + 1).skip(from) {
            for _ in 0..real[k].len() {
                cards_of.insert(cards.pop().expect("as many as dealt"));
            }
        }
        from = r + 1;
    }
    out
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

    /// N6, N7: a sampled world is a whole history: its deck, dealt from the
    /// hand's start with the same answers, gives its hands and moves the
    /// same chips at every step, so every comparison (whose outcome all see
    /// in the side bets) has the same winners. Random answers, many Yes.
    #[test]
    fn n6_a_sampled_worlds_deck_replays_the_hand_with_the_same_comparisons() {
        let mut rng = seeded_rng(11);
        let (mut compared, mut checked) = (0, 0);
        for players in [3, 4, 6] {
            let mut game = NapalmGame::new(NapalmRules::default(), players).unwrap();
            // The game before this hand's deck, and the answers since.
            let mut start = game.clone();
            let mut answers = Vec::new();
            loop {
                match game.pending() {
                    Pending::Deck => {
                        start = game.clone();
                        answers.clear();
                        game.deal(&Deck::shuffled(&mut rng)).unwrap();
                    }
                    Pending::Decide { seat, decision } => {
                        let world = game.sample_world(seat, &mut rng);
                        let deck = Deck::from_cards(&world.deck).expect("a whole deck");
                        let mut again = start.clone();
                        again.deal(&deck).unwrap();
                        let mut real = start.clone();
                        real.deal(&Deck::from_cards(&game.deck).unwrap()).unwrap();
                        for &(s, a) in &answers {
                            again.apply(s, a).unwrap();
                            real.apply(s, a).unwrap();
                            assert_eq!(again.stacks(), real.stacks(), "N6: side bets differ");
                        }
                        assert_eq!(again.cards(), world.cards());
                        assert_eq!(again.view(Some(seat)), game.view(Some(seat)));
                        checked += 1;
                        let action = decision.actions()[(rng.next_u32() % 2) as usize];
                        let ev = game.apply(seat, action).unwrap();
                        compared += ev
                            .iter()
                            .filter(|e| matches!(e, crate::Event::Compared { .. }))
                            .count();
                        answers.push((seat, action));
                    }
                    Pending::GameOver => break,
                }
            }
        }
        assert!(checked > 300 && compared > 50, "{checked} {compared}");
    }

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
