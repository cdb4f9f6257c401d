//! The rules of Tripoley as a pure state machine.
//!
//! [`Rules`] hold every option of RULES.md, filled by a [`Preset`]. A
//! [`Game`] has one way in: [`Game::pending`] says who must decide what (or
//! that chance must supply a deck), [`Game::legal`] and [`Game::check`] say
//! what is allowed, [`Game::apply`] and [`Game::chance`] move the game on and
//! return [`Event`]s. Forced moves are made by the engine. Every chip movement
//! is a [`Transfer`] between accounts, so chips are conserved (T7) and a
//! deal's ledger is its list of transfers. [`Game::view`] is one seat's
//! information set; a [`Record`] replays a game exactly.
//!
//! The engine does no I/O, reads no clock and has no randomness of its own.
//!
//! ```
//! use tripoley_engine::{DealChance, Game, Pending, Preset, Rules};
//! use tripoley_cards::seeded_rng;
//!
//! let rules = Rules::preset(Preset::Pagat);
//! let mut game = Game::new(rules.clone(), 4)?;
//! let mut rng = seeded_rng(1);
//! loop {
//!     match game.pending() {
//!         Pending::Chance(_) => { game.chance(DealChance::random(&rules, &mut rng))?; }
//!         Pending::Decide { seat, .. } => {
//!             let action = game.legal(seat)[0];
//!             game.apply(seat, action)?;
//!         }
//!         Pending::GameOver => break,
//!     }
//! }
//! assert_eq!(game.stacks().iter().sum::<u32>() + game.layout().total(), 400);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod action;
mod auction;
mod event;
mod game;
mod layout;
mod michigan;
mod paycards;
mod poker;
mod record;
mod rules;
mod sample;
mod view;
mod withheld;

pub use action::{Action, AuctionItem, ChanceKind, DealChance, Decision, Pending};
pub use event::{Audience, Event, EventSink, NoEvents, Reason, StopReason, Transfer};
pub use game::{Game, IllegalAction, MAX_SEATS, Standing};
pub use layout::{Account, Layout, Seat, Space};
pub use record::{RECORD_VERSION, Record, ReplayError, Step};
pub use rules::{
    AuctionPays, FinalPot, FirstDealer, FirstLead, LeadColors, MichiganLeader, Misplays, PayCards,
    PaySuitRule, PokerOpener, PokerRule, Preset, Rules, RulesError, SequenceRule, SpareRule,
};
pub use sample::InfoSet;
pub use view::{AuctionView, BettingView, PerSeat, Sight, Stage, View};
