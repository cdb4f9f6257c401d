//! Bots think off the table's task. A bot in an empty seat (or standing in
//! for an absent or slow person) decides on its seat's information set, and
//! the expert searches it for about 10 ms: long enough to hold up every
//! connection of the table if the table's task waited. So the bot and a copy
//! of the game go to tokio's blocking pool, and the answer comes back to the
//! table's actor as a message tagged with the event number it answers; an
//! answer to a state that has passed is dropped. Hints are searched there
//! too and go straight to the asking connection.

use std::panic::AssertUnwindSafe;
use std::time::{Duration, Instant};

use rand_core::Rng;
use serde_json::json;
use tripoley_bots::Bot;
use tripoley_cards::seeded_rng;
use tripoley_engine::{Action, InfoSet, Pending, Seat, Step};

use super::{ConnId, HINT_PLAYOUTS, Table, error_frame, frame};
use crate::protocol::{ErrorBody, ErrorCode, PROTOCOL_VERSION};

/// A bot's move, back from the blocking pool.
pub(crate) struct Answer {
    /// The event number the bot was asked at.
    n: u64,
    seat: Seat,
    /// The bot (it travels with its question) and its action; `None` if
    /// the bot panicked.
    moved: Option<(Box<dyn Bot>, Action)>,
}

impl Table {
    /// Asks `seat`'s bot for its move on the blocking pool; the answer
    /// arrives through the table's answer channel ([`Table::on_answer`]).
    pub(super) fn ask_bot(&mut self, seat: Seat) {
        let Some(game) = self.game.clone() else {
            return;
        };
        let Some(mut bot) = self.seats[usize::from(seat)].bot.take() else {
            return;
        };
        let n = self.n();
        let mut rng = seeded_rng(self.rng.next_u64());
        let answers = self.answers.clone();
        self.thinking = true;
        tokio::task::spawn_blocking(move || {
            let moved = std::panic::catch_unwind(AssertUnwindSafe(move || {
                let action = bot.act_in(&InfoSet::new(&game, seat), &mut rng);
                (bot, action)
            }))
            .ok();
            // The table may have stopped meanwhile: nobody waits then.
            let _ = answers.send(Answer { n, seat, moved });
        });
    }

    /// A bot's answer: played if the game still waits for it at the same
    /// event and the seat is still the server's to play.
    pub(super) async fn on_answer(&mut self, answer: Answer) {
        self.thinking = false;
        let s = usize::from(answer.seat);
        let Some((bot, action)) = answer.moved else {
            // A bot that panicked is replaced; the move is tried again later.
            self.seats[s].bot = Some(self.settings.bot.make(&self.settings.rules));
            self.retry_at = Some(Instant::now() + Duration::from_secs(1));
            return;
        };
        self.seats[s].bot = Some(bot);
        let current = answer.n == self.n() && self.to_decide() == Some(answer.seat);
        if !current || self.due().is_none_or(|due| Instant::now() < due) {
            return;
        }
        let auto = self.seats[s].hash.is_some();
        let step = Step::Act {
            seat: answer.seat,
            action,
        };
        if self.take_step(step, auto).await.is_err() {
            self.retry_at = Some(Instant::now() + Duration::from_secs(1));
        }
    }

    /// Answers `conn`'s hint request: the expert's move for its seat, searched
    /// on the blocking pool and sent to the connection from there. A fixed
    /// number of playouts: the same position gets the same hint.
    pub(super) fn hint(&mut self, conn: ConnId, id: Option<u64>) {
        let n = self.n();
        let Some(c) = self.conns.get(&conn) else {
            return;
        };
        let tx = c.tx.clone();
        if self.napalm.is_some() {
            let reply = match self.napalm_hint(conn) {
                Ok(action) => hint_frame(n, id, &json!(action)),
                Err(e) => error_frame(n, id, &e),
            };
            self.send(conn, reply);
            return;
        }
        let seat = c.seat;
        let game = match (seat, &self.game) {
            (None, _) => Err(ErrorBody::new(
                ErrorCode::Unauthorized,
                "only a seated player can ask for a hint",
            )),
            (_, None) => Err(ErrorBody::new(
                ErrorCode::NotStarted,
                "the game has not started",
            )),
            (Some(seat), Some(game)) => match game.pending() {
                Pending::Decide { seat: s, .. } if s == seat => Ok((seat, game.clone())),
                _ => Err(ErrorBody::new(
                    ErrorCode::NotYourTurn,
                    "a hint is for your own turn",
                )),
            },
        };
        match game {
            Err(e) => self.send(conn, error_frame(n, id, &e)),
            Ok((seat, game)) => {
                tokio::task::spawn_blocking(move || {
                    let action = tripoley_bots::hint(
                        &InfoSet::new(&game, seat),
                        game.rules(),
                        tripoley_bots::Budget::playouts(HINT_PLAYOUTS),
                    );
                    // A connection too slow to take it loses the hint only.
                    let _ = tx.try_send(hint_frame(n, id, &json!(action)));
                });
            }
        }
    }
}

fn hint_frame(n: u64, id: Option<u64>, action: &serde_json::Value) -> super::Out {
    frame(&json!({"v": PROTOCOL_VERSION, "type": "hint", "n": n, "id": id, "action": action}))
}
