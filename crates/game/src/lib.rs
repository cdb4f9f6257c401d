//! What every game of the project is from outside, written once for
//! Tripoley (`tripoley-engine`) and Napalm (`tripoley-napalm`): the
//! [`Game`] trait (the `State` of `OpenSpiel` in Rust terms), the [`Bot`] that
//! plays one from its seat's view, and [`play`], the loop that plays a
//! whole game with bots. The simulators, the property suite of
//! `tripoley-testkit` and every other driver are written against these, so
//! a second game is not a second copy of them.
//!
//! Why a crate of its own: both rule crates implement the trait, so it must
//! sit below them, and `tripoley-cards` is about cards, not turns. Like the
//! rule crates, it never does I/O, reads a clock or spawns.
//!
//! ```
//! use tripoley_cards::seeded_rng;
//! use tripoley_game::{Bot, Game, Turn};
//!
//! /// Counts a game's steps with whatever bots play it.
//! fn steps<G: Game>(mut game: G, bots: &mut [Box<dyn Bot<G>>]) -> usize {
//!     let mut steps = 0;
//!     tripoley_game::play(&mut game, bots, &mut seeded_rng(1), |_, _, _| {
//!         steps += 1;
//!         std::ops::ControlFlow::Continue(())
//!     })
//!     .expect("the bots answer legally");
//!     assert_eq!(game.turn(), Turn::Over);
//!     steps
//! }
//! ```

use std::fmt::Debug;
use std::ops::ControlFlow;

use tripoley_cards::GameRng;

/// A seat, 0..n clockwise, as both games number them.
pub type Seat = u8;

/// What a game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// Chance: a deck (and whatever else the rules draw).
    Chance,
    /// This seat's decision.
    Seat(Seat),
    /// Nothing: the game is over.
    Over,
}

/// A game as a state machine: whose turn it is, the legal actions, chance
/// drawn from a caller's RNG, steps taken (an illegal one changes nothing),
/// each seat's view and the chips.
///
/// A step is what a record stores (a chance or a seat's action): records
/// keep each game's own step type, because their saved format differs.
pub trait Game: Clone + Debug + PartialEq {
    /// A seat's decision.
    type Action: Copy + Debug + PartialEq;
    /// What chance supplies when [`Turn::Chance`].
    type Chance: Clone + Debug;
    /// One step of the game's record: a chance or a seat's action.
    type Step: Clone + Debug + PartialEq;
    /// What a seat (or a spectator) may see.
    type View;
    /// What a step changed, as the game reports it.
    type Event: Clone + Debug + PartialEq;
    /// Why a step was refused.
    type Error: std::error::Error;

    /// Seats at the table.
    fn players(&self) -> usize;

    /// What the game waits for.
    fn turn(&self) -> Turn;

    /// Every legal action of the seat to act, enumerated (none when no seat
    /// is to act).
    fn legal_actions(&self) -> Vec<Self::Action>;

    /// A chance drawn from `rng`, fit for this game's rules.
    fn random_chance(&self, rng: &mut GameRng) -> Self::Chance;

    /// The step that supplies `chance`.
    fn chance_step(chance: Self::Chance) -> Self::Step;

    /// The step of `seat` taking `action`.
    fn act_step(seat: Seat, action: Self::Action) -> Self::Step;

    /// Takes `step`, appending its events to `events`; a refused step
    /// changes nothing.
    fn take_step(
        &mut self,
        step: &Self::Step,
        events: &mut Vec<Self::Event>,
    ) -> Result<(), Self::Error>;

    /// `seat`'s view (a spectator's for `None`).
    fn view(&self, seat: Option<Seat>) -> Self::View;

    /// Chips at the table now: stacks and whatever lies in the middle.
    fn chips_in_play(&self) -> u32;

    /// Chips the game started with (equal to [`Game::chips_in_play`] after
    /// every step: chips are conserved).
    fn total_chips(&self) -> u32;
}

/// A player of game `G`: it sees only its seat's view.
pub trait Bot<G: Game>: Send {
    /// The bot's kind, as written on the command line.
    fn name(&self) -> &'static str;

    /// The answer to the decision of `view`'s seat (it is that seat's turn).
    fn act(&mut self, view: &G::View, rng: &mut GameRng) -> G::Action;
}

/// A bot's answer the game refused (a bug in the bot).
#[derive(Debug, thiserror::Error)]
#[error("bot {bot} in seat {seat} made an illegal move: {error}")]
pub struct IllegalMove<E: std::error::Error> {
    /// The bot's name.
    pub bot: &'static str,
    /// Its seat.
    pub seat: Seat,
    /// The game's refusal.
    pub error: E,
}

/// Plays `game` until it is over or `observe` breaks: chance and the bots
/// draw from `rng`, seat `i` is played by `bots[i]`. `observe` sees the game
/// after each step, the step and its events.
pub fn play<G: Game>(
    game: &mut G,
    bots: &mut [Box<dyn Bot<G>>],
    rng: &mut GameRng,
    mut observe: impl FnMut(&G, &G::Step, &[G::Event]) -> ControlFlow<()>,
) -> Result<(), IllegalMove<G::Error>> {
    let mut events = Vec::new();
    loop {
        events.clear();
        let step = match game.turn() {
            Turn::Over => return Ok(()),
            Turn::Chance => {
                let step = G::chance_step(game.random_chance(rng));
                game.take_step(&step, &mut events)
                    .expect("random chance always fits the rules");
                step
            }
            Turn::Seat(seat) => {
                let bot = &mut bots[usize::from(seat)];
                let step = G::act_step(seat, bot.act(&game.view(Some(seat)), rng));
                game.take_step(&step, &mut events)
                    .map_err(|error| IllegalMove {
                        bot: bot.name(),
                        seat,
                        error,
                    })?;
                step
            }
        };
        if observe(game, &step, &events).is_break() {
            return Ok(());
        }
    }
}
