//! The frames a table sends: each viewer's `update` after a step, the full
//! `state`, and what a returning connection missed.
//!
//! A step goes to every viewer (each seat, and the spectators), so the hot
//! path writes JSON text straight from the typed events and views, never
//! through `serde_json::Value` trees: each event of the step is serialised
//! once, whoever may see it, and each viewer's frame joins the events whose
//! audience includes it with that viewer's own view.

use std::time::{Duration, Instant};

use tripoley_engine::Seat;
use tripoley_table::frames::{self, Turn, seen_by};
use tripoley_table::journal::Catch;

use super::{ConnId, Out, Table};

impl Table {
    /// Sends a connection what it missed since event `last`, or the full
    /// state when it saw nothing or too long ago. The table writes only
    /// the last step's frame: the connection's writer writes the others
    /// from the journal, off the table's task.
    pub(super) fn catch_up(&mut self, conn: ConnId, last: Option<u64>) {
        let n = self.n();
        let Some(k) = last.filter(|&k| k <= n && n - k <= self.cfg.resume_window) else {
            self.send_state(conn);
            return;
        };
        let Some(viewer) = self.conns.get(&conn).map(|c| c.seat) else {
            return;
        };
        let Some(journal) = self
            .played
            .as_ref()
            .map(|p| std::sync::Arc::clone(p.journal()))
        else {
            return;
        };
        if k + 1 < n {
            let missed = Catch::updates(&journal, viewer, k as usize + 1, n as usize);
            self.send(conn, Out::Journal(Box::new(missed)));
        }
        let step = (k < n).then(|| journal.step(n as usize)).flatten();
        let seen = step.iter().flat_map(|s| seen_by(s, viewer));
        let out = self.update_frame(viewer, seen, false);
        self.send(conn, out);
    }

    /// The `turn` of a frame: `seat` decides.
    fn turn_of(&self, seat: Seat) -> Turn {
        let human = self.seats[usize::from(seat)].hash.is_some();
        let ms = (human && self.settings.turn_seconds > 0).then(|| {
            let end =
                self.turn_started + Duration::from_secs(u64::from(self.settings.turn_seconds));
            end.saturating_duration_since(Instant::now()).as_millis() as u64
        });
        // A person's secret follow (M9b) has until the window's end.
        let window = self.secret_window().filter(|w| human && w.person).map(|w| {
            w.until
                .saturating_duration_since(Instant::now())
                .as_millis() as u64
        });
        let ms = [ms, window].into_iter().flatten().min();
        Turn {
            seat,
            ms,
            bot: self.bot_plays(seat),
        }
    }

    /// Writes `"view":…,"turn":…` for `viewer`, in either game (a lobby
    /// has neither).
    fn write_view_and_turn(&self, viewer: Option<Seat>, out: &mut Vec<u8>) {
        match &self.played {
            Some(played) => {
                played.write_view_and_turn(viewer, out, |seat| Some(self.turn_of(seat)));
            }
            None => frames::write_view_and_turn(out, |out| out.extend_from_slice(b"null"), None),
        }
    }

    /// An `update`: the events (JSON texts) `viewer` may see of the last
    /// step, its view and the public turn.
    fn update_frame<'a>(
        &self,
        viewer: Option<Seat>,
        events: impl Iterator<Item = &'a str>,
        auto: bool,
    ) -> Out {
        let text = frames::update(
            self.n(),
            events,
            |out| self.write_view_and_turn(viewer, out),
            auto,
        );
        Out::Text(text.into())
    }

    /// The full `state`: `viewer`'s view, the current deal's log, the
    /// public turn and the table; the connection's writer writes the log
    /// from the journal.
    pub(super) fn send_state(&mut self, conn: ConnId) {
        let Some(viewer) = self.conns.get(&conn).map(|c| c.seat) else {
            return;
        };
        let Some(played) = &self.played else { return };
        let (head, tail) = frames::state_parts(self.n(), &self.info(), |out| {
            self.write_view_and_turn(viewer, out);
        });
        let out = Catch::state(played.journal(), viewer, played.deal_span(), head, tail);
        self.send(conn, Out::Journal(Box::new(out)));
    }

    /// Sends the last step to every connection, each frame built from its
    /// viewer's view and only the events that viewer may see.
    pub(super) fn broadcast_update(&mut self, auto: bool) {
        let mut viewers: Vec<Option<Seat>> = self.conns.values().map(|c| c.seat).collect();
        viewers.sort_unstable();
        viewers.dedup();
        let Some(played) = &self.played else { return };
        let Some(events) = played.journal().step(played.log_len() - 1) else {
            return;
        };
        let n = self.n();
        let frames: Vec<Out> = {
            // What everyone sees of the views is written once for all of them.
            let views = played.views();
            viewers
                .iter()
                .map(|&v| {
                    let text = frames::update(
                        n,
                        seen_by(&events, v),
                        |out| views.write_view_and_turn(v, out, |seat| Some(self.turn_of(seat))),
                        auto,
                    );
                    Out::Text(text.into())
                })
                .collect()
        };
        let targets: Vec<(ConnId, usize)> = self
            .conns
            .iter()
            .filter_map(|(&id, c)| Some((id, viewers.binary_search(&c.seat).ok()?)))
            .collect();
        for (id, i) in targets {
            self.send(id, frames[i].clone());
        }
    }
}
