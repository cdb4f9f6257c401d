//! What every game of the project is from outside, written once for
//! Tripoley (`tripoley-engine`) and Napalm (`tripoley-napalm`): the
//! [`Game`] trait (the `State` of `OpenSpiel` in Rust terms), the [`Bot`] that
//! plays one from its seat's view or information, and [`play`], the loop
//! that plays a whole game with bots. Tripoley's driver (`tripoley-bots`),
//! the property suite of `tripoley-testkit` and the Python crate's integer
//! layer are written against these, so a second game is not a second copy
//! of them. So are the runs of many games: [`run`] (exactly the rounds
//! asked, whatever the threads), [`arena`] (duplicate matches) and
//! [`stats`] (means with their intervals), on which both games' simulators
//! and arenas are built.
//!
//! Why a crate of its own: both rule crates implement the trait, so it must
//! sit below them, and `tripoley-cards` is about cards, not turns. Like the
//! rule crates, it never does I/O or reads a clock; its runs play games on
//! rayon's pool (the caller's, when it installs one).
//!
//! ```
//! use tripoley_cards::seeded_rng;
//! use tripoley_game::{Bot, Dice, Game, Turn};
//!
//! /// Counts a game's steps with whatever bots play it.
//! fn steps<G: Game>(mut game: G, bots: &mut [Box<dyn Bot<G>>]) -> usize {
//!     let mut steps = 0;
//!     let mut rng = seeded_rng(1);
//!     tripoley_game::play(&mut game, bots, Dice::shared(&mut rng), |_, _, _| {
//!         steps += 1;
//!         std::ops::ControlFlow::Continue(())
//!     })
//!     .expect("the bots answer legally");
//!     assert_eq!(game.turn(), Turn::Over);
//!     steps
//! }
//! ```

pub mod arena;
pub mod run;
pub mod stats;

use std::borrow::Cow;
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
    /// What a seat (or a spectator) may see: comparable, so that a test can
    /// tell whether two worlds look the same from a seat.
    type View: Clone + Debug + PartialEq;
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

    /// Takes `step` without building its events: for a game whose end is
    /// all that matters (self-play at speed). By default, [`Game::take_step`].
    fn take_step_quietly(&mut self, step: &Self::Step) -> Result<(), Self::Error> {
        self.take_step(step, &mut Vec::new())
    }

    /// `seat`'s view (a spectator's for `None`).
    fn view(&self, seat: Option<Seat>) -> Self::View;

    /// What `seat` knows at its decision, for bots that search: its view,
    /// and whatever lets them sample the worlds it cannot tell apart.
    type Information<'a>
    where
        Self: 'a;

    /// `seat`'s information at its decision.
    fn information(&self, seat: Seat) -> Self::Information<'_>;

    /// The view within an information: borrowed where the information is
    /// the view itself (Napalm), so asking a bot copies nothing.
    fn information_view<'a>(information: &'a Self::Information<'_>) -> Cow<'a, Self::View>;

    /// A world `seat` cannot tell from this one: every card it cannot see
    /// dealt again at random, consistent with all it saw (the determinizations
    /// of searches such as `OpenSpiel`'s ISMCTS). Its views, `seat`'s and a
    /// spectator's, equal this game's: a view that differed would show
    /// `seat` a card it may not know.
    #[must_use]
    fn sample_world(&self, seat: Seat, rng: &mut GameRng) -> Self;

    /// The answer of the decision pending when it has only one: no bot is
    /// asked it.
    fn only_action(&self) -> Option<Self::Action> {
        None
    }

    /// Chips at the table now: stacks and whatever lies in the middle.
    fn chips_in_play(&self) -> u32;

    /// Chips the game started with (equal to [`Game::chips_in_play`] after
    /// every step: chips are conserved).
    fn total_chips(&self) -> u32;
}

/// A player of game `G`: it sees only its seat's view or information.
pub trait Bot<G: Game>: Send {
    /// The bot's kind, as written on the command line.
    fn name(&self) -> &'static str;

    /// The answer to the decision of `view`'s seat (it is that seat's turn).
    fn act(&mut self, view: &G::View, rng: &mut GameRng) -> G::Action;

    /// The answer at a decision, given the seat's information: bots that
    /// search sample worlds from it. By default, [`Bot::act`] on its view.
    fn act_in(&mut self, information: &G::Information<'_>, rng: &mut GameRng) -> G::Action {
        self.act(&G::information_view(information), rng)
    }

    /// A new game begins ([`play`] says so before its first step): an
    /// outside program is told by the number of its requests.
    fn new_game(&mut self) {}
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

/// Where chance and the bots draw their randomness.
pub struct Dice<'a> {
    /// Chance's RNG.
    pub chance: &'a mut GameRng,
    /// The bots' own RNG; `None`: they share chance's. With their own, the
    /// cards depend on chance's seed alone, whatever the bots do, so the
    /// same decks can be played again with the bots in other seats.
    pub bots: Option<&'a mut GameRng>,
}

impl<'a> Dice<'a> {
    /// Chance and the bots drawing from one RNG.
    pub fn shared(rng: &'a mut GameRng) -> Dice<'a> {
        Dice {
            chance: rng,
            bots: None,
        }
    }

    fn bots(&mut self) -> &mut GameRng {
        match &mut self.bots {
            Some(rng) => rng,
            None => self.chance,
        }
    }
}

/// Plays `game` until it is over or `observe` breaks, seat `i` played by
/// `bots[i]` (each told first that a new game begins). A decision with one
/// answer is asked of no bot. `observe` sees the game after each step, the
/// step and its events.
pub fn play<G: Game, B: Bot<G> + ?Sized>(
    game: &mut G,
    bots: &mut [Box<B>],
    dice: Dice<'_>,
    mut observe: impl FnMut(&G, &G::Step, &[G::Event]) -> ControlFlow<()>,
) -> Result<(), IllegalMove<G::Error>> {
    let mut events = Vec::new();
    drive(game, bots, dice, |game, step| {
        events.clear();
        game.take_step(step, &mut events)?;
        Ok(observe(game, step, &events))
    })
}

/// [`play`] without events ([`Game::take_step_quietly`]) until the game is
/// over: the fastest way to play a game whose end is all that matters.
pub fn play_quietly<G: Game, B: Bot<G> + ?Sized>(
    game: &mut G,
    bots: &mut [Box<B>],
    dice: Dice<'_>,
) -> Result<(), IllegalMove<G::Error>> {
    drive(game, bots, dice, |game, step| {
        game.take_step_quietly(step)?;
        Ok(ControlFlow::Continue(()))
    })
}

/// The loop of [`play`] and [`play_quietly`]: `take` takes a step and says
/// whether to go on.
fn drive<G: Game, B: Bot<G> + ?Sized>(
    game: &mut G,
    bots: &mut [Box<B>],
    mut dice: Dice<'_>,
    mut take: impl FnMut(&mut G, &G::Step) -> Result<ControlFlow<()>, G::Error>,
) -> Result<(), IllegalMove<G::Error>> {
    for bot in bots.iter_mut() {
        bot.new_game();
    }
    loop {
        let flow = match game.turn() {
            Turn::Over => return Ok(()),
            Turn::Chance => {
                let step = G::chance_step(game.random_chance(dice.chance));
                take(game, &step).expect("random chance always fits the rules")
            }
            Turn::Seat(seat) => {
                let bot = &mut bots[usize::from(seat)];
                let action = match game.only_action() {
                    Some(only) => only,
                    None => bot.act_in(&game.information(seat), dice.bots()),
                };
                take(game, &G::act_step(seat, action)).map_err(|error| IllegalMove {
                    bot: bot.name(),
                    seat,
                    error,
                })?
            }
        };
        if flow.is_break() {
            return Ok(());
        }
    }
}
