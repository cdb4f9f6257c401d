//! The Napalm side of a table (RULES.md section 7): its actions, its bots
//! and its hint. The game itself goes through the same [`Played`] as
//! Tripoley's, in the same order: check a step, store it, apply it, then
//! send each viewer a frame built from that viewer's view and the events
//! whose audience includes them (a comparison goes only to the compared
//! seats, N7).

use std::time::{Duration, Instant};

use tripoley_engine::Seat;
use tripoley_napalm::{Action, NapalmStep};
use tripoley_table::played::{napalm_hint, napalm_move};
use tripoley_table::{Due, Played, TableStep};

use super::{ConnId, Table};
use crate::protocol::{ErrorBody, ErrorCode};

impl Table {
    /// The seat's bot decides (a bot seat, an absent player, a timer run out).
    pub(super) async fn napalm_bot_acts(&mut self, seat: Seat) {
        let Some(game) = self.played.as_ref().and_then(Played::napalm) else {
            return;
        };
        let action = napalm_move(self.seat_level(seat), &game.view(Some(seat)), &mut self.rng);
        let auto = self.seats[usize::from(seat)].hash.is_some();
        let step = TableStep::Napalm(NapalmStep::Act { seat, action });
        if self.take_step(step, auto).await.is_err() {
            self.retry_at = Some(Instant::now() + Duration::from_secs(1));
        }
    }

    /// A seated connection's Napalm action.
    pub(super) async fn napalm_act(
        &mut self,
        conn: ConnId,
        action: Action,
        seat_claim: Option<Seat>,
        n_claim: Option<u64>,
    ) -> Result<(), ErrorBody> {
        let seat = self.acting_seat(conn, seat_claim, n_claim)?;
        self.take_step(TableStep::Napalm(NapalmStep::Act { seat, action }), false)
            .await
    }

    /// The heuristic bot's answer for `conn`'s seat, on that seat's turn.
    pub(super) fn napalm_hint(&self, conn: ConnId) -> Result<Action, ErrorBody> {
        let seat = self.conns.get(&conn).and_then(|c| c.seat).ok_or_else(|| {
            ErrorBody::new(
                ErrorCode::Unauthorized,
                "only a seated player can ask for a hint",
            )
        })?;
        let played = self
            .played
            .as_ref()
            .ok_or_else(|| ErrorBody::new(ErrorCode::NotStarted, "the game has not started"))?;
        match (played.due(), played.napalm()) {
            (Due::Decide(s), Some(game)) if s == seat => Ok(napalm_hint(game, seat)),
            _ => Err(ErrorBody::new(
                ErrorCode::NotYourTurn,
                "a hint is for your own turn",
            )),
        }
    }
}
