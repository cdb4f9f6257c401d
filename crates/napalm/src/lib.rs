//! Napalm poker (RULES.md section 7): three rounds of declarations per hand,
//! tokens for a lone Yes, private comparisons and side bets worth the pot.
//! The game has the engine's shape: [`NapalmGame::pending`],
//! [`NapalmGame::check`], [`NapalmGame::apply`], [`NapalmGame::deal`] (chance),
//! events that know who may see them, per-seat views, records and replay.
//! It is one of the project's games: [`NapalmGame`] implements
//! `tripoley_game::Game`, and its bots are `tripoley_game::Bot`s of it.
//!
//! ```
//! use tripoley_cards::{Deck, seeded_rng};
//! use tripoley_napalm::{Action, NapalmGame, NapalmRules, Pending};
//!
//! let mut game = NapalmGame::new(NapalmRules::default(), 3)?;
//! let mut rng = seeded_rng(1);
//! while !game.is_over() {
//!     match game.pending() {
//!         Pending::Deck => { game.deal(&Deck::shuffled(&mut rng))?; }
//!         Pending::Decide { seat, decision } => { game.apply(seat, decision.actions()[0])?; }
//!         Pending::GameOver => break,
//!     }
//! }
//! assert_eq!(game.chips_in_play(), 300);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod arena;
mod bots;
mod game;
mod record;
mod rules;
mod sample;
pub mod sim;

pub use bots::{HeuristicNapalmBot, NapalmBotKind, RandomNapalmBot, beats_share};
pub use game::{
    Account, Action, Audience, Decision, Event, IllegalAction, MAX_SEATS, NapalmGame, NapalmView,
    Pending, Reason, Round, Seat, Transfer, hand_strength, two_card_value,
};
pub use record::{NapalmRecord, NapalmReplayError, NapalmStep};
pub use rules::{NapalmRules, NapalmRulesError};
