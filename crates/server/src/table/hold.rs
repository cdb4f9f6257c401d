//! Withheld cards stay hidden in how a run's stop reaches each viewer
//! (issue 31, finding 1). Under penalised misplays (M9b) a run waits while
//! its next card's holder decides, in secret, to play or withhold it; a
//! withhold stops the run in the next step, exactly as a card nobody holds
//! stops it. A stop at a card nobody holds therefore reaches the viewers in
//! the same shape: the step's events up to the stop are one update (whose
//! view has the run waiting, nobody asked), and after a pause as long as a
//! bot's decision the stop and what follows are the next update, with the
//! next event number. The record keeps the one step; the log (whose index is
//! the event number) has an entry per part, here and when a table is
//! replayed.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use rand_core::Rng;
use tripoley_engine::{Event, Game, Misplays, Pending, Step};

use super::Table;

/// The parts of a step still held back: each with the game its viewers see
/// (the last, the game after the whole step), and when the next is due.
pub(super) struct Held {
    until: Instant,
    parts: VecDeque<(Game, Vec<Event>)>,
}

/// Each stop at a card nobody holds that `step` applied to `game` comes to
/// under penalised misplays, in order: the game held short of it, and the
/// number of the step's events before it.
pub(crate) fn stops(game: &Game, step: &Step) -> Vec<(Game, usize)> {
    if game.rules().misplays != Misplays::Penalised || !matches!(step, Step::Act { .. }) {
        return Vec::new();
    }
    (0..)
        .map_while(|passed| game.step_to_unheld_stop(step, passed))
        .collect()
}

/// `ev` cut at each of `stops`' places, each part with the game its viewers
/// see: the held game, and `game` (after the whole step) for the last part.
pub(crate) fn parts(
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

impl Table {
    /// Logs a replayed step's events, an entry per part.
    pub(super) fn log_step(&mut self, mut ev: Vec<Event>, stops: &[(Game, usize)]) {
        let mut parts = Vec::new();
        for (_, at) in stops.iter().rev() {
            parts.push(ev.split_off(*at));
        }
        self.log_entry(ev);
        for part in parts.into_iter().rev() {
            self.log_entry(part);
        }
    }

    /// Appends one entry to the log; a deal's end starts the next deal's
    /// entries.
    pub(super) fn log_entry(&mut self, ev: Vec<Event>) {
        if ev.iter().any(|e| matches!(e, Event::DealEnded { .. })) {
            self.deal_start = self.log.len();
        }
        self.log.push(ev);
    }

    /// Logs the first part of the step just applied (the game after it is
    /// in `self.game`) and holds back the others, if any.
    pub(super) fn log_live_step(&mut self, ev: Vec<Event>, stops: Vec<(Game, usize)>) {
        if stops.is_empty() {
            self.log_entry(ev);
            return;
        }
        let game = self.game.take().expect("a step comes from a game");
        let mut parts = parts(ev, stops, game);
        let (shown, first) = parts.pop_front().expect("a first part");
        self.game = Some(shown);
        self.log_entry(first);
        self.held = Some(Held {
            until: self.pause(),
            parts,
        });
    }

    /// When a held part is sent: a bot's decision takes the bot delay and
    /// its search; a random share of the delay more stands for the search.
    fn pause(&mut self) -> Instant {
        let delay = self.cfg.bot_delay;
        let extra = self.rng.next_u64() % (delay.as_millis() as u64 + 1);
        Instant::now() + delay + Duration::from_millis(extra)
    }

    /// When the next held part is due.
    pub(super) fn held_until(&self) -> Option<Instant> {
        self.held.as_ref().map(|h| h.until)
    }

    /// Sends the next held part as the next step once it is due; whether
    /// parts were held.
    pub(super) async fn release(&mut self) -> bool {
        let Some(held) = &mut self.held else {
            return false;
        };
        if Instant::now() < held.until {
            return true;
        }
        let (game, part) = held.parts.pop_front().expect("a held part");
        if held.parts.is_empty() {
            self.held = None;
        } else {
            let until = self.pause();
            if let Some(held) = &mut self.held {
                held.until = until;
            }
        }
        let over = game.pending() == Pending::GameOver;
        self.game = Some(game);
        self.log_entry(part);
        self.step_taken(self.log.len() as u64 - 1, over, false)
            .await;
        true
    }
}
