//! [`Deck`]: 52 cards in an order, shuffled from a caller's seeded RNG and
//! dealt into hands.

use rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

use crate::card::Card;
use crate::set::CardSet;

/// The random number generator every seeded game uses: xoshiro256++ seeded
/// through `SplitMix64`. Its output for a seed is fixed by its published
/// algorithm, so a stored seed reproduces the same decks on every platform and
/// every future version (unlike `rand`'s `StdRng`, whose algorithm may change).
pub type GameRng = rand_xoshiro::Xoshiro256PlusPlus;

/// A [`GameRng`] from a 64-bit seed.
pub fn seeded_rng(seed: u64) -> GameRng {
    GameRng::seed_from_u64(seed)
}

/// A uniform integer in `0..n` from 32-bit outputs of `rng`, by Lemire's
/// multiply-and-reject method. Written here rather than borrowed from `rand`
/// so that the deck a seed produces depends only on the generator's output
/// stream, never on a library's choice of algorithm.
fn below(rng: &mut (impl Rng + ?Sized), n: u32) -> u32 {
    debug_assert!(n > 0);
    let mut m = u64::from(rng.next_u32()) * u64::from(n);
    // The division that finds the rejection threshold is needed only when
    // the low half falls below `n` (the threshold is always below `n`).
    if (m as u32) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u32) < threshold {
            m = u64::from(rng.next_u32()) * u64::from(n);
        }
    }
    (m >> 32) as u32
}

/// Why a list of cards is not a deck.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DeckError {
    /// Not 52 cards.
    #[error("a deck has 52 cards, this one has {0}")]
    WrongSize(usize),
    /// A card given twice (so another is missing).
    #[error("{0} appears twice in the deck")]
    Duplicate(Card),
}

/// The 52 cards in dealing order: `cards()[0]` is dealt first.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(try_from = "Vec<Card>", into = "Vec<Card>")]
pub struct Deck {
    cards: [Card; 52],
}

impl Default for Deck {
    fn default() -> Self {
        Deck::ordered()
    }
}

impl Deck {
    /// The deck in a fixed order: clubs two to ace, then diamonds, hearts, spades.
    pub fn ordered() -> Deck {
        Deck {
            cards: std::array::from_fn(Card::from_index),
        }
    }

    /// A uniformly shuffled deck (Fisher-Yates, T1/D1) drawing from `rng`.
    /// The same generator state gives the same deck, on every platform.
    pub fn shuffled(rng: &mut (impl Rng + ?Sized)) -> Deck {
        let mut deck = Deck::ordered();
        deck.shuffle(rng);
        deck
    }

    /// Shuffles this deck in place (Fisher-Yates from the top down).
    pub fn shuffle(&mut self, rng: &mut (impl Rng + ?Sized)) {
        for i in (1..52u32).rev() {
            let j = below(rng, i + 1);
            self.cards.swap(i as usize, j as usize);
        }
    }

    /// A deck in the given order, which must hold each of the 52 cards once.
    /// Tests and bug reports use this to set up any deal.
    pub fn from_cards(cards: &[Card]) -> Result<Deck, DeckError> {
        let cards: [Card; 52] = cards
            .try_into()
            .map_err(|_| DeckError::WrongSize(cards.len()))?;
        let mut seen = CardSet::EMPTY;
        for &c in &cards {
            if !seen.insert(c) {
                return Err(DeckError::Duplicate(c));
            }
        }
        Ok(Deck { cards })
    }

    /// The cards in dealing order.
    pub fn cards(&self) -> &[Card; 52] {
        &self.cards
    }

    /// Deals the whole deck one card at a time into `hands` hands, hand 0
    /// first (D1). The first `52 % hands` hands get one card more. The caller
    /// decides which hand is whose: in Tripoley hand 0 is the player left of
    /// the dealer and the last hand is the spare, dealt right after the dealer.
    ///
    /// # Panics
    /// If `hands` is 0.
    pub fn deal(&self, hands: usize) -> Vec<CardSet> {
        let mut out = vec![CardSet::EMPTY; hands];
        self.deal_into(&mut out);
        out
    }

    /// [`Deck::deal`] into caller-owned hands (overwritten), without allocating.
    ///
    /// # Panics
    /// If `hands` is empty.
    pub fn deal_into(&self, hands: &mut [CardSet]) {
        assert!(!hands.is_empty(), "cannot deal into zero hands");
        // Card `i` of each round of the table goes to hand `i`: hand `i`
        // gets every `len`-th card from the `i`-th on, gathered in a register
        // and stored once (adding to hands in memory card by card reads back
        // what was just stored, which stalls).
        let step = hands.len();
        for (i, hand) in hands.iter_mut().enumerate() {
            *hand = self.cards.iter().skip(i).step_by(step).copied().collect();
        }
    }
}

impl CardSet {
    /// `n` cards drawn uniformly at random (the top `n` of a shuffled deck).
    ///
    /// # Panics
    /// If `n > 52`.
    pub fn random(rng: &mut (impl Rng + ?Sized), n: usize) -> CardSet {
        Deck::shuffled(rng).cards()[..n].iter().copied().collect()
    }
}

impl TryFrom<Vec<Card>> for Deck {
    type Error = DeckError;
    fn try_from(cards: Vec<Card>) -> Result<Deck, DeckError> {
        Deck::from_cards(&cards)
    }
}

impl From<Deck> for Vec<Card> {
    fn from(d: Deck) -> Vec<Card> {
        d.cards.to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_always_gives_the_same_deck() {
        // Frozen: if this changes, every stored seed and record changes meaning.
        let deck = Deck::shuffled(&mut seeded_rng(7));
        let text: Vec<String> = deck.cards()[..13].iter().map(ToString::to_string).collect();
        assert_eq!(text.join(" "), FROZEN_SEED_7);
        assert_eq!(deck, Deck::shuffled(&mut seeded_rng(7)));
        assert_ne!(deck, Deck::shuffled(&mut seeded_rng(8)));
    }

    const FROZEN_SEED_7: &str = "7S 5D AS QS 6H 3S KH JS KD AD 7H 2D 3H";

    #[test]
    fn d1_deal_whole_deck_first_hands_get_the_extra_cards() {
        let deck = Deck::shuffled(&mut seeded_rng(1));
        for hands in 1..=10 {
            let dealt = deck.deal(hands);
            let all = dealt.iter().fold(CardSet::EMPTY, |a, &h| {
                assert!((a & h).is_empty(), "a card dealt twice");
                a | h
            });
            assert_eq!(all, CardSet::FULL, "every card is dealt");
            let extra = 52 % hands;
            for (i, h) in dealt.iter().enumerate() {
                let want = 52 / hands + usize::from(i < extra);
                assert_eq!(h.len() as usize, want, "{hands} hands, hand {i}");
            }
        }
        // Hand 0 gets the first card, hand 1 the second.
        let two = deck.deal(2);
        assert!(two[0].contains(deck.cards()[0]));
        assert!(two[1].contains(deck.cards()[1]));
    }

    #[test]
    fn shuffle_is_roughly_uniform() {
        // Where the ace of spades lands over 52,000 shuffles: each position
        // should get about 1000; a chi-square with 51 degrees of freedom
        // stays below 100 with overwhelming probability for a fair shuffle.
        let mut rng = seeded_rng(99);
        let ace = Card::from_index(51);
        let mut counts = [0u32; 52];
        for _ in 0..52_000 {
            let d = Deck::shuffled(&mut rng);
            counts[d.cards().iter().position(|&c| c == ace).unwrap()] += 1;
        }
        let chi2: f64 = counts
            .iter()
            .map(|&c| (f64::from(c) - 1000.0).powi(2) / 1000.0)
            .sum();
        assert!(chi2 < 100.0, "chi-square {chi2}");
    }

    #[test]
    fn from_cards_checks_the_deck() {
        let mut cards = Deck::ordered().cards().to_vec();
        assert_eq!(
            Deck::from_cards(&cards[..51]),
            Err(DeckError::WrongSize(51))
        );
        cards[1] = cards[0];
        assert_eq!(
            Deck::from_cards(&cards),
            Err(DeckError::Duplicate(cards[0]))
        );
        let d = Deck::shuffled(&mut seeded_rng(3));
        let json = serde_json::to_string(&d).unwrap();
        assert_eq!(serde_json::from_str::<Deck>(&json).unwrap(), d);
        assert!(serde_json::from_str::<Deck>(r#"["AH"]"#).is_err());
    }
}
