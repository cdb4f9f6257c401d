//! Playing whole games with bots.

use std::ops::ControlFlow;

use tripoley_cards::seeded_rng;
use tripoley_engine::{Event, Game, IllegalAction, NoEvents, Record, Rules, RulesError, Step};
use tripoley_game::{Dice, IllegalMove, play, play_quietly};

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

/// Plays a whole game, seat `i` played by `bots[i]`, chance and bots drawing
/// from one RNG seeded with `seed`. `observe` sees every step and the events
/// it caused. Returns the finished game.
pub fn play_game(
    rules: &Rules,
    bots: &mut [Box<dyn Bot>],
    seed: u64,
    observe: impl FnMut(&Step, &[Event]),
) -> Result<Game, PlayError> {
    let mut rng = seeded_rng(seed);
    drive(rules, bots, Dice::shared(&mut rng), Some(observe))
}

/// [`play_game`] without events: the engine builds none, so this is the
/// fastest way to play a game whose end is all that matters (benchmarks).
pub fn play_game_quietly(
    rules: &Rules,
    bots: &mut [Box<dyn Bot>],
    seed: u64,
) -> Result<Game, PlayError> {
    let mut rng = seeded_rng(seed);
    drive(
        rules,
        bots,
        Dice::shared(&mut rng),
        None::<fn(&Step, &[Event])>,
    )
}

/// [`play_game`] drawing from the caller's `dice`: with the bots on an RNG
/// of their own, the cards depend on chance's seed alone, whatever the bots
/// do, so the same decks can be replayed with the bots in other seats
/// (duplicate play, `tripoley_game::arena`).
pub fn play_game_with(
    rules: &Rules,
    bots: &mut [Box<dyn Bot>],
    dice: Dice<'_>,
    observe: impl FnMut(&Step, &[Event]),
) -> Result<Game, PlayError> {
    drive(rules, bots, dice, Some(observe))
}

/// Starts a game at `rules` and plays it with [`tripoley_game::play`]
/// (events for `observe`), or [`tripoley_game::play_quietly`] when nobody
/// observes (the engine then builds no events).
fn drive(
    rules: &Rules,
    bots: &mut [Box<dyn Bot>],
    dice: Dice<'_>,
    observe: Option<impl FnMut(&Step, &[Event])>,
) -> Result<Game, PlayError> {
    let refused = |e: IllegalMove<IllegalAction>| PlayError::Illegal {
        bot: e.bot,
        seat: e.seat,
        error: e.error,
    };
    if let Some(mut observe) = observe {
        let mut game = Game::start(rules.clone(), bots.len(), &mut Vec::new())?;
        play(&mut game, bots, dice, |_, step, events| {
            observe(step, events);
            ControlFlow::Continue(())
        })
        .map_err(refused)?;
        Ok(game)
    } else {
        let mut game = Game::start(rules.clone(), bots.len(), &mut NoEvents)?;
        play_quietly(&mut game, bots, dice).map_err(refused)?;
        Ok(game)
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
