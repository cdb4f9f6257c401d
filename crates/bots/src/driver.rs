//! Playing whole games with bots.

use tripoley_cards::{GameRng, seeded_rng};
use tripoley_engine::{
    DealChance, Event, Game, IllegalAction, InfoSet, Pending, Record, Rules, RulesError, Step,
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

/// Plays a whole game, seat `i` played by `bots[i]`, chance and bots drawing
/// from one RNG seeded with `seed`. `observe` sees every step and the events
/// it caused. Returns the finished game.
pub fn play_game(
    rules: &Rules,
    bots: &mut [Box<dyn Bot>],
    seed: u64,
    mut observe: impl FnMut(&Step, &[Event]),
) -> Result<Game, PlayError> {
    let mut rng = seeded_rng(seed);
    let mut events = Vec::new();
    let mut game = Game::start(rules.clone(), bots.len(), &mut events)?;
    loop {
        let step = next_step(&game, rules, bots, &mut rng);
        let Some(step) = step else { return Ok(game) };
        events.clear();
        game.step(&step, &mut events).map_err(|error| match &step {
            Step::Act { seat, .. } => PlayError::Illegal {
                bot: bots[usize::from(*seat)].name(),
                seat: *seat,
                error,
            },
            Step::Chance(_) => unreachable!("random chance always fits the rules"),
        })?;
        observe(&step, &events);
    }
}

/// The next step of a game: chance from `rng`, or the bot's action.
pub(crate) fn next_step(
    game: &Game,
    rules: &Rules,
    bots: &mut [Box<dyn Bot>],
    rng: &mut GameRng,
) -> Option<Step> {
    match game.pending() {
        Pending::GameOver => None,
        Pending::Chance(_) => Some(Step::Chance(DealChance::random(rules, rng))),
        Pending::Decide { seat, .. } => {
            let info = InfoSet::new(game, seat);
            let action = bots[usize::from(seat)].act_in(&info, rng);
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
