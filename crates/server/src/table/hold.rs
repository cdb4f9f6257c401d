//! The server's side of held stops ([`tripoley_table::hold`]): the parts of
//! a step held back are sent one by one, each after a bot's pause.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use rand_core::Rng;
use tripoley_engine::{Event, Game, Pending};
pub(crate) use tripoley_table::hold::{parts, stops};

use super::Table;

/// The parts of a step still held back: each with the game its viewers see
/// (the last, the game after the whole step), and when the next is due.
pub(super) struct Held {
    until: Instant,
    parts: VecDeque<(Game, Vec<Event>)>,
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
