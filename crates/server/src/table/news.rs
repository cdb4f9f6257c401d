//! What the table tells everyone without a step of the game: an away
//! player's grace time running out (the seat's `bot_playing` turns true, so
//! the host's "free this seat" control appears at once, not at the next
//! move or reload), and a rematch made from this finished table (issue 26,
//! point 7). Neither says anything of the game: who is connected and the
//! grace time are public, and a rematch's table is the players' own.

use std::time::Instant;

use tripoley_table::message::ServerMsg;

use super::{ConnId, Out, Table};
use crate::protocol::TableStatus;

impl Table {
    /// When the next away player's grace time ends that has not been told
    /// yet (only during a game: in the lobby nobody plays for anyone).
    pub(super) fn next_grace_end(&self) -> Option<Instant> {
        if self.status != TableStatus::Playing {
            return None;
        }
        self.seats
            .iter()
            .filter(|s| s.hash.is_some() && s.conns == 0 && !s.told_away)
            .map(|s| s.away_since + self.cfg.grace)
            .min()
    }

    /// Tells everyone of the grace times that have ended: one `table`
    /// message, whose seats now say a bot plays for them.
    pub(super) fn tell_grace_ends(&mut self) {
        let Some(end) = self.next_grace_end() else {
            return;
        };
        if Instant::now() < end {
            return;
        }
        for s in &mut self.seats {
            if s.hash.is_some() && s.conns == 0 && s.away_since.elapsed() >= self.cfg.grace {
                s.told_away = true;
            }
        }
        self.broadcast_table();
    }

    /// A rematch was made: everyone here is told where the next game is
    /// (and whoever connects later, while the table is kept).
    pub(super) fn tell_rematch(&mut self, invite: &str, by: Option<&str>) {
        let news = ServerMsg::Rematch {
            invite,
            path: format!("/t/{invite}"),
            by,
        }
        .text(self.n());
        let out = Out::Text(news.clone().into());
        self.rematch = Some(news);
        let ids: Vec<ConnId> = self.conns.keys().copied().collect();
        for id in ids {
            self.send(id, out.clone());
        }
    }

    /// The rematch news for a connection that arrives after it.
    pub(super) fn rematch_news(&self) -> Option<&str> {
        self.rematch.as_deref()
    }
}
