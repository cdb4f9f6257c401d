//! Playing whole games with bots.

use tripoley_cards::{GameRng, seeded_rng};
use tripoley_engine::{
    DealChance, Event, EventSink, Game, IllegalAction, InfoSet, NoEvents, Pending, Record, Rules,
    RulesError, Step,
};

use crate::Bot;

/// Why a game could not be played.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// The table is not playable.
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// A bot answered with an illegal action (a bug in the bot).
    #[error("bot {bot} in seat {seat} made an illegal move: {error}")]
    Illegal {
        /// The bot's name.
        bot: &'static str,
        /// Its seat.
        seat: u8,
        /// The engine's refusal.
        error: IllegalAction,
    },
}

/// Where chance and the bots draw their randomness.
struct Rngs {
    chance: GameRng,
    /// The bots' own stream; `None`: they share chance's.
    bots: Option<GameRng>,
}

impl Rngs {
    fn bots(&mut self) -> &mut GameRng {
        self.bots.as_mut().unwrap_or(&mut self.chance)
    }
}

/// Plays a whole game, seat `i` played by `bots[i]`, chance and bots drawing
/// from one RNG seeded with `seed`. `observe` sees every step and the events
/// it caused. Returns the finished game.
pub fn play_game(
    rules: &Rules,
    bots: &mut [Box<dyn Bot>],
    seed: u64,
    observe: impl FnMut(&Step, &[Event]),
) -> Result<Game, PlayError> {
    let rngs = Rngs {
        chance: seeded_rng(seed),
        bots: None,
    };
    drive(rules, bots, rngs, &mut Vec::new(), observe)
}

/// [`play_game`] without events: the engine builds none, so this is the
/// fastest way to play a game whose end is all that matters (benchmarks).
pub fn play_game_quietly(
    rules: &Rules,
    bots: &mut [Box<dyn Bot>],
    seed: u64,
) -> Result<Game, PlayError> {
    let rngs = Rngs {
        chance: seeded_rng(seed),
        bots: None,
    };
    drive(rules, bots, rngs, &mut NoEvents, |_, _| {})
}

/// [`play_game`] with chance and the bots drawing from separate RNGs: the
/// cards depend on `chance_seed` alone, whatever the bots do, so the same
/// decks can be replayed with the bots in other seats (duplicate play).
pub fn play_game_with(
    rules: &Rules,
    bots: &mut [Box<dyn Bot>],
    chance_seed: u64,
    bot_seed: u64,
    observe: impl FnMut(&Step, &[Event]),
) -> Result<Game, PlayError> {
    let rngs = Rngs {
        chance: seeded_rng(chance_seed),
        bots: Some(seeded_rng(bot_seed)),
    };
    drive(rules, bots, rngs, &mut Vec::new(), observe)
}

/// Where [`drive`] collects the events of each step.
trait StepEvents: EventSink {
    /// Forgets the previous step's events.
    fn clear(&mut self);
    /// The events of the step just taken.
    fn events(&self) -> &[Event];
}

impl StepEvents for Vec<Event> {
    fn clear(&mut self) {
        Vec::clear(self);
    }
    fn events(&self) -> &[Event] {
        self
    }
}

impl StepEvents for NoEvents {
    fn clear(&mut self) {}
    fn events(&self) -> &[Event] {
        &[]
    }
}

fn drive(
    rules: &Rules,
    bots: &mut [Box<dyn Bot>],
    mut rngs: Rngs,
    events: &mut impl StepEvents,
    mut observe: impl FnMut(&Step, &[Event]),
) -> Result<Game, PlayError> {
    let mut game = Game::start(rules.clone(), bots.len(), events)?;
    loop {
        let step = next_step(&game, rules, bots, &mut rngs);
        let Some(step) = step else { return Ok(game) };
        events.clear();
        game.step(&step, events).map_err(|error| match &step {
            Step::Act { seat, .. } => PlayError::Illegal {
                bot: bots[usize::from(*seat)].name(),
                seat: *seat,
                error,
            },
            Step::Chance(_) => unreachable!("random chance always fits the rules"),
        })?;
        observe(&step, events.events());
    }
}

/// The next step of a game: chance from its RNG, or the bot's action.
fn next_step(
    game: &Game,
    rules: &Rules,
    bots: &mut [Box<dyn Bot>],
    rngs: &mut Rngs,
) -> Option<Step> {
    match game.pending() {
        Pending::GameOver => None,
        Pending::Chance(_) => Some(Step::Chance(DealChance::random(rules, &mut rngs.chance))),
        Pending::Decide { seat, .. } => {
            let info = InfoSet::new(game, seat);
            let action = bots[usize::from(seat)].act_in(&info, rngs.bots());
            Some(Step::Act { seat, action })
        }
    }
}

/// Plays a whole game and returns its record.
pub fn record_game(
    rules: &Rules,
    bots: &mut [Box<dyn Bot>],
    names: Vec<String>,
    seed: u64,
) -> Result<Record, PlayError> {
    let mut record = Record::new(rules.clone(), names);
    play_game(rules, bots, seed, |step, _| record.steps.push(step.clone()))?;
    Ok(record)
}
