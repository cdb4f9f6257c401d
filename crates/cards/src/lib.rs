//! Cards for Tripoley and Napalm: [`Card`], [`Suit`], [`Rank`]; [`CardSet`],
//! any set of cards as one `u64`; a [`Deck`] shuffled from a caller's seeded,
//! portable RNG and dealt as RULES D1 says; and poker evaluation of the best
//! (or lowest) five cards of any 5 to 52 cards ([`Evaluator`], [`HandRank`]).
//!
//! Everything here is pure: no I/O, no clock, randomness only from the caller.
//!
//! ```
//! use tripoley_cards::{CardSet, Deck, Evaluator, seeded_rng};
//!
//! let hand: CardSet = "KH KS KD 5C 5H 2D 9S".parse()?;
//! let (rank, five) = Evaluator::STANDARD.best_five(hand);
//! assert_eq!(rank.name(), "full house, kings over fives");
//! assert_eq!(five.len(), 5);
//!
//! // Four players and the spare hand: 11, 11, 10, 10, 10 cards.
//! let hands = Deck::shuffled(&mut seeded_rng(7)).deal(5);
//! assert_eq!(hands.iter().map(|h| h.len()).sum::<u32>(), 52);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod card;
mod deck;
mod eval;
mod set;

pub use card::{Card, ParseCardError, Rank, Suit};
pub use deck::{Deck, DeckError, GameRng, seeded_rng};
pub use eval::{Category, Evaluator, HandRank, Shape};
pub use set::{CardSet, CardSetIter, ParseCardSetError};
