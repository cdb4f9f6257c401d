//! The lobby's bot seats (issue 26, point 17): the host gives an open seat
//! a bot of a chosen level, changes that level, or opens the seat to people
//! again. Seats nobody took when the game starts get the table's level, and
//! so does the stand-in for a person who is away: only the seats the host
//! chose differ. The choice is kept in the table's stored settings, so a
//! restarted server plays each seat at the same level.

use tripoley_bots::BotKind;
use tripoley_engine::Seat;

use super::{ConnId, Table};
use crate::protocol::{
    Detail, ErrorBody, ErrorCode, FreedCause, GameKind, SeatBotProblem, TableStatus,
};

impl Table {
    /// The level of the bot that plays `seat` whenever nobody plays it: the
    /// host's choice for this seat, else the table's. (A seat a person holds
    /// never has a choice of its own, so their stand-in plays at the
    /// table's level.)
    pub(super) fn seat_level(&self, seat: Seat) -> BotKind {
        self.settings
            .seat_bots
            .get(&seat)
            .copied()
            .unwrap_or(self.settings.bot)
    }

    /// The host's `seat_bot`: `bot` plays `seat` (an open or bot seat of the
    /// lobby), or with `None` the seat opens to people again.
    pub(super) async fn seat_bot(
        &mut self,
        conn: ConnId,
        seat: Seat,
        bot: Option<BotKind>,
    ) -> Result<(), ErrorBody> {
        let not_this = |m: &str, problem| {
            Err(ErrorBody::new(ErrorCode::Invalid, m).with(Detail::SeatBot { problem }))
        };
        if !self.conns.get(&conn).is_some_and(|c| c.host) {
            return Err(ErrorBody::new(
                ErrorCode::Unauthorized,
                "only the host chooses the bots",
            ));
        }
        if self.status != TableStatus::Lobby {
            return Err(ErrorBody::new(
                ErrorCode::AlreadyStarted,
                "the game has started: bots are chosen in the lobby",
            ));
        }
        let Some(s) = self.seats.get(usize::from(seat)) else {
            return not_this("there is no such seat", SeatBotProblem::NoSuchSeat);
        };
        if s.hash.is_some() {
            return not_this("a player holds this seat", SeatBotProblem::Taken);
        }
        let mut settings = self.settings.clone();
        match bot {
            Some(level) => settings.seat_bots.insert(seat, level),
            None => settings.seat_bots.remove(&seat),
        };
        if settings != self.settings {
            self.store
                .set_settings(self.invite.clone(), &settings)
                .await
                .map_err(|e| self.storage(&e))?;
            self.settings = settings;
        }
        if self.settings.game == GameKind::Tripoley {
            let level = self.seat_level(seat);
            self.seats[usize::from(seat)].bot =
                Some(level.make_with(&self.settings.rules, &self.cfg.bots));
        }
        self.publish();
        self.broadcast_table();
        Ok(())
    }

    /// Whether `seat` is a lobby seat the host gave a bot: nobody may sit
    /// there.
    pub(super) fn has_bot(&self, seat: Seat) -> bool {
        self.settings.seat_bots.contains_key(&seat)
    }
}

/// A `hello` with a token whose seat the host freed, told why: removed from
/// the lobby, or given to a bot while its player was away.
pub(super) fn freed_error(cause: FreedCause) -> ErrorBody {
    let message = match cause {
        FreedCause::Removed => {
            "the host removed you from this table before the game: you can watch, \
             or take a seat that is open"
        }
        FreedCause::Away => {
            "the host freed your seat while you were away: you can watch, \
             or take a seat that is open"
        }
    };
    ErrorBody::new(ErrorCode::SeatFreed, message).with(Detail::SeatFreed { cause })
}
