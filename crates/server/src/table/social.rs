//! The people around the table: chat, and the host freeing the seat of a
//! player who left.
//!
//! Chat is text from people and nothing else: a line carries its writer's
//! seat and name and the table's event number (public, every viewer gets
//! every step's frame), never anything of the game, and it goes to every
//! connection at once, so neither its content nor its timing tells anyone
//! more than the writer chose to say. Only seated players write (a
//! spectator has no name at the table, and a public table's spectators may
//! be strangers); everyone reads. The last [`HISTORY`] lines are kept in
//! memory, so a player who reconnects sees what was said; a restart loses
//! them.

use std::collections::VecDeque;
use std::time::Duration;

use tripoley_engine::Seat;

use tripoley_table::message::{ChatLine, ServerMsg};

use super::{ConnId, Out, Table};
use crate::auth::{RateLimit, hash_token, same_hash};
use crate::protocol::{
    Detail, ErrorBody, ErrorCode, FreeSeatProblem, FreedCause, TableStatus, clean_chat,
};
use crate::store::TokenHash;

/// Chat lines a table keeps for those who come back.
pub(super) const HISTORY: usize = 50;

/// Lines a connection, and a seat across all its connections, may send at
/// once ...
const CHAT_BURST: u32 = 5;
/// ... and the time over which that many more come back.
const CHAT_PERIOD: Duration = Duration::from_secs(10);

/// Freed tokens remembered, so that their holder learns why their seat is
/// gone (in memory: after a restart such a token gets the plain refusal).
const FREED_KEPT: usize = 64;

/// A table's chat and its freed seats.
pub(super) struct Social {
    lines: VecDeque<ChatLine>,
    next: u64,
    /// Each seat's chat allowance, shared by its connections.
    seats: Vec<RateLimit>,
    /// Digests of tokens whose seats the host freed, and why.
    freed: VecDeque<(TokenHash, FreedCause)>,
}

/// A connection's own chat allowance.
pub(super) fn conn_rate() -> RateLimit {
    RateLimit::per(CHAT_BURST, CHAT_PERIOD)
}

impl Social {
    pub(super) fn new(seats: usize) -> Social {
        Social {
            lines: VecDeque::with_capacity(HISTORY),
            next: 1,
            seats: (0..seats).map(|_| conn_rate()).collect(),
            freed: VecDeque::new(),
        }
    }

    /// Keeps a line that went out, dropping the oldest past [`HISTORY`].
    fn keep(&mut self, line: ChatLine) {
        if self.lines.len() == HISTORY {
            self.lines.pop_front();
        }
        self.lines.push_back(line);
        self.next += 1;
    }

    /// Why the seat this token held is gone, if the host freed it.
    pub(super) fn freed_how(&self, token: &str) -> Option<FreedCause> {
        let h = hash_token(token);
        self.freed
            .iter()
            .find(|(f, _)| same_hash(f, &h))
            .map(|&(_, cause)| cause)
    }
}

/// "Slow down", with how long to wait.
fn slow_down(wait: Duration) -> ErrorBody {
    let secs = wait.as_secs_f64().ceil().max(1.0);
    ErrorBody::new(
        ErrorCode::RateLimited,
        format!("you are chatting too fast: wait {secs} s"),
    )
}

impl Table {
    /// A chat line from `conn`: checked, kept, and sent to everyone.
    pub(super) fn chat(&mut self, conn: ConnId, text: &str) -> Result<(), ErrorBody> {
        let Some(c) = self.conns.get_mut(&conn) else {
            return Err(ErrorBody::new(ErrorCode::Unauthorized, "say hello first"));
        };
        let Some(seat) = c.seat else {
            return Err(ErrorBody::new(
                ErrorCode::Unauthorized,
                "spectators read the chat; take a seat to write",
            ));
        };
        let text = clean_chat(text)?;
        let seat_rate = &mut self.social.seats[usize::from(seat)];
        // Both allowances are checked before either is spent.
        let wait = c.chat.wait().max(seat_rate.wait());
        if !wait.is_zero() {
            return Err(slow_down(wait));
        }
        c.chat.allow();
        seat_rate.allow();
        let name = self.seats[usize::from(seat)]
            .name
            .clone()
            .unwrap_or_else(|| format!("Seat {}", seat + 1));
        let line = ChatLine {
            id: self.social.next,
            seat,
            name,
            text,
        };
        let out = Out::Text(ServerMsg::Chat { line: &line }.text(self.n()).into());
        self.social.keep(line);
        let ids: Vec<ConnId> = self.conns.keys().copied().collect();
        for id in ids {
            self.send(id, out.clone());
        }
        Ok(())
    }

    /// The chat so far, for a connection that just joined (nothing when
    /// nobody has said anything).
    pub(super) fn chat_history(&self) -> Option<Out> {
        (!self.social.lines.is_empty()).then(|| {
            let lines = self.social.lines.iter().collect();
            Out::Text(ServerMsg::ChatHistory { lines }.text(self.n()).into())
        })
    }

    /// The host frees `seat`, whose player is away: in the lobby the seat
    /// opens for anyone; during a game the table's bot plays it to the end.
    /// The seat's token holds nothing from then on, stored so that a
    /// restart keeps it.
    pub(super) async fn free_seat(&mut self, conn: ConnId, seat: Seat) -> Result<(), ErrorBody> {
        let refuse = |code, m: &str| Err(ErrorBody::new(code, m));
        let not_this = |m: &str, problem| {
            Err(ErrorBody::new(ErrorCode::Invalid, m).with(Detail::FreeSeat { problem }))
        };
        if !self.conns.get(&conn).is_some_and(|c| c.host) {
            return refuse(ErrorCode::Unauthorized, "only the host can free a seat");
        }
        if self.status == TableStatus::Finished {
            return refuse(ErrorCode::GameOver, "the game is over");
        }
        let Some(s) = self.seats.get(usize::from(seat)) else {
            return not_this("there is no such seat", FreeSeatProblem::NoSuchSeat);
        };
        let Some(hash) = s.hash else {
            return not_this("nobody holds this seat", FreeSeatProblem::Empty);
        };
        if same_hash(&hash, &self.host_hash) {
            return not_this("you cannot free your own seat", FreeSeatProblem::Own);
        }
        // In the lobby a host may remove anyone (issue 31, point 9: a
        // stranger who sat at a public table and keeps a socket open would
        // otherwise hold the seat for ever); during a game only someone gone.
        if s.conns > 0 && self.status != TableStatus::Lobby {
            return not_this(
                "this player is here: a seat is freed only when its player has left",
                FreeSeatProblem::Here,
            );
        }
        if self.status == TableStatus::Playing && !self.bot_plays(seat) {
            return not_this(
                "this player left only a moment ago: wait until a bot plays for them",
                FreeSeatProblem::JustLeft,
            );
        }
        self.store
            .free_seat(self.invite.clone(), seat)
            .await
            .map_err(|e| self.storage(&e))?;
        self.close_seat(seat);
        let cause = if self.status == TableStatus::Lobby {
            FreedCause::Removed
        } else {
            FreedCause::Away
        };
        let s = &mut self.seats[usize::from(seat)];
        s.hash = None;
        s.name = None;
        if self.social.freed.len() == FREED_KEPT {
            self.social.freed.pop_front();
        }
        self.social.freed.push_back((hash, cause));
        self.publish();
        self.broadcast_table();
        Ok(())
    }

    /// Closes the connections of `seat` (a player removed from the lobby):
    /// their token holds nothing from now on, and a `hello` with it is told
    /// why.
    fn close_seat(&mut self, seat: Seat) {
        let gone: Vec<ConnId> = self
            .conns
            .iter()
            .filter(|(_, c)| c.seat == Some(seat))
            .map(|(&id, _)| id)
            .collect();
        for id in gone {
            if let Some(c) = self.conns.remove(&id) {
                c.kill.notify_one();
            }
        }
        self.seats[usize::from(seat)].conns = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_history_keeps_the_last_lines() {
        let mut social = Social::new(2);
        for i in 0..HISTORY + 7 {
            let line = ChatLine {
                id: social.next,
                seat: 0,
                name: "Ann".into(),
                text: i.to_string(),
            };
            social.keep(line);
        }
        assert_eq!(social.lines.len(), HISTORY);
        assert_eq!(social.lines.front().map(|l| l.id), Some(8));
        assert_eq!(social.lines.back().map(|l| l.text.as_str()), Some("56"));
    }
}
