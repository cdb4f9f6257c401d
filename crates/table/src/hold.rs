//! Withheld cards stay hidden in how a run's stop reaches each viewer
//! (issue 31, finding 1). Under penalised misplays (M9b) a run waits while
//! its next card's holder decides, in secret, to play or withhold it; a
//! withhold stops the run in the next step, exactly as a card nobody holds
//! stops it. A stop at a card nobody holds therefore reaches the viewers in
//! the same shape: the step's events up to the stop are one update (whose
//! view has the run waiting, nobody asked), and after a pause as long as a
//! bot's decision the stop and what follows are the next update, with the
//! next event number. The record keeps the one step; the log (whose index is
//! the event number) has an entry per part.

use std::collections::VecDeque;

use tripoley_engine::{Event, Game, Misplays, Step};

/// Each stop at a card nobody holds that `step` applied to `game` comes to
/// under penalised misplays, in order: the game held short of it, and the
/// number of the step's events before it.
pub fn stops(game: &Game, step: &Step) -> Vec<(Game, usize)> {
    if game.rules().misplays != Misplays::Penalised || !matches!(step, Step::Act { .. }) {
        return Vec::new();
    }
    (0..)
        .map_while(|passed| game.step_to_unheld_stop(step, passed))
        .collect()
}

/// `ev` cut at each of `stops`' places, each part with the game its viewers
/// see: the held game, and `game` (after the whole step) for the last part.
pub fn parts(
    mut ev: Vec<Event>,
    stops: Vec<(Game, usize)>,
    game: Game,
) -> VecDeque<(Game, Vec<Event>)> {
    let mut parts = VecDeque::new();
    let mut shown = game;
    for (held, at) in stops.into_iter().rev() {
        parts.push_front((shown, ev.split_off(at)));
        shown = held;
    }
    parts.push_front((shown, ev));
    parts
}
