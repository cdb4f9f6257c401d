//! The server's side of held stops ([`tripoley_table::hold`]): the parts of
//! a step held back are shown one by one, each after a bot's pause.

use std::time::{Duration, Instant};

use rand_core::Rng;
use tripoley_table::Due;

use super::Table;

impl Table {
    /// When a held part is shown: a bot's decision takes the bot delay and
    /// its search; a random share of the delay more stands for the search.
    pub(super) fn pause(&mut self) -> Instant {
        let delay = self.cfg.bot_delay;
        let extra = self.rng.next_u64() % (delay.as_millis() as u64 + 1);
        Instant::now() + delay + Duration::from_millis(extra)
    }

    /// Shows the next held part as the next event once it is due; whether
    /// parts were held.
    pub(super) async fn release(&mut self) -> bool {
        let Some(until) = self.held_until else {
            return false;
        };
        if Instant::now() < until {
            return true;
        }
        let Some(played) = &mut self.played else {
            return false;
        };
        played.release();
        let (n, due) = (played.n(), played.due());
        self.held_until = None;
        if due == Due::Held {
            self.held_until = Some(self.pause());
        }
        self.step_taken(n, due == Due::Over, false).await;
        true
    }
}
