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
    for bot in bots.iter_mut() {
        bot.new_game();
    }
    loop {
        events.clear();
        // Chance from its RNG, or the bot's action; the step is built for
        // `observe` only after the game took it (self-play observes nothing).
        match game.pending() {
            Pending::GameOver => return Ok(game),
            Pending::Chance(_) => {
                let chance = DealChance::random(rules, &mut rngs.chance);
                game.chance_into(&chance, events)
                    .expect("random chance always fits the rules");
                observe(&Step::Chance(chance), events.events());
            }
            Pending::Decide { seat, decision } => {
                let bot = &mut bots[usize::from(seat)];
                // A decision with one answer (a lead with one card) needs no
                // bot: it is asked only so that it takes a turn like others.
                let action = match decision.only() {
                    Some(only) => only,
                    None => bot.act_in(&InfoSet::new(&game, seat), rngs.bots()),
                };
                game.apply_into(seat, action, events)
                    .map_err(|error| PlayError::Illegal {
                        bot: bot.name(),
                        seat,
                        error,
                    })?;
                observe(&Step::Act { seat, action }, events.events());
            }
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
