//! The frames a table sends: each viewer's `update` after a step, the full
//! `state`, and what a returning connection missed.
//!
//! A step goes to every viewer (each seat, and the spectators), so the hot
//! path writes JSON text straight from the typed events and views, never
//! through `serde_json::Value` trees: each event of the step is serialised
//! once, whoever may see it, and each viewer's frame joins the events whose
//! audience includes it with that viewer's own view.

use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::json;
use tripoley_engine::{Event, Pending, Seat, View};

use super::journal::{self, Catch, Entry};
use super::{ConnId, Out, Table};
use crate::protocol::PROTOCOL_VERSION;

/// The `turn` of a frame: who decides, the time they have left (a person
/// with a turn timer), and whether the server's bot plays for them.
#[derive(Serialize)]
struct Turn {
    seat: Seat,
    ms: Option<u64>,
    bot: bool,
}

/// A frame's text from its JSON bytes.
fn text(out: Vec<u8>) -> Out {
    Out::Text(journal::text(out))
}

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
        self.sync_journal();
        if k + 1 < n {
            let missed = Catch::updates(&self.journal, viewer, k as usize + 1, n as usize);
            self.send(conn, missed);
        }
        let step = (k < n).then(|| self.journal.step(n as usize)).flatten();
        let seen = step.iter().flat_map(|s| seen_by(s, viewer));
        let out = self.update_frame(viewer, seen, false);
        self.send(conn, out);
    }

    /// Writes the journal's entries for the steps it lacks, in either game.
    pub(super) fn sync_journal(&mut self) {
        let len = self.log_len();
        if self.journal.len() > len {
            // A new log (a game started afresh): connections still reading
            // the old journal keep it.
            self.journal = Arc::default();
        }
        let viewers: Vec<Option<Seat>> = std::iter::once(None)
            .chain((0..self.seats.len()).map(|s| Some(s as Seat)))
            .collect();
        let mask = |sees: &dyn Fn(Option<Seat>) -> bool| {
            viewers
                .iter()
                .filter(|&&v| sees(v))
                .fold(0, |m, &v| m | journal::bit(v))
        };
        for k in self.journal.len()..len {
            let entries = if let Some(t) = &self.napalm {
                t.log[k]
                    .iter()
                    .map(|e| Entry {
                        json: event_json(e).into(),
                        viewers: mask(&|v| e.audience().includes(v)),
                        ends_deal: matches!(e, tripoley_napalm::Event::HandEnded { .. }),
                    })
                    .collect()
            } else {
                self.log[k]
                    .iter()
                    .map(|e| Entry {
                        json: event_json(e).into(),
                        viewers: mask(&|v| e.audience().includes(v)),
                        ends_deal: matches!(e, Event::DealEnded { .. }),
                    })
                    .collect()
            };
            self.journal.push(entries);
        }
    }

    fn view(&self, viewer: Option<Seat>) -> Option<View> {
        self.game.as_ref().map(|g| g.view(viewer))
    }

    /// The public turn as `view`'s viewer may see it.
    fn turn(&self, view: &View) -> Option<Turn> {
        let Pending::Decide { seat, .. } = self.game.as_ref()?.pending() else {
            return None;
        };
        // A decision nobody else may know about (M9b) has no public turn.
        if view.to_act != Some(seat) {
            return None;
        }
        Some(self.turn_of(seat))
    }

    /// The `turn` of a frame: `seat` decides.
    fn turn_of(&self, seat: Seat) -> Turn {
        let human = self.seats[usize::from(seat)].hash.is_some();
        let ms = (human && self.settings.turn_seconds > 0).then(|| {
            let end =
                self.turn_started + Duration::from_secs(u64::from(self.settings.turn_seconds));
            end.saturating_duration_since(Instant::now()).as_millis() as u64
        });
        Turn {
            seat,
            ms,
            bot: self.bot_plays(seat),
        }
    }

    /// Writes `"view":…,"turn":…` for `viewer`, in either game.
    fn write_view_and_turn(&self, viewer: Option<Seat>, out: &mut Vec<u8>) {
        out.extend_from_slice(b"\"view\":");
        let turn = if let Some(t) = &self.napalm {
            serde_json::to_writer(&mut *out, &t.game.view(viewer)).expect("views serialise");
            self.to_decide().map(|s| self.turn_of(s))
        } else {
            let view = self.view(viewer);
            serde_json::to_writer(&mut *out, &view).expect("views serialise");
            view.as_ref().and_then(|v| self.turn(v))
        };
        out.extend_from_slice(b",\"turn\":");
        serde_json::to_writer(&mut *out, &turn).expect("turns serialise");
    }

    /// An `update`: the events (JSON texts) `viewer` may see of the last
    /// step, its view and the public turn.
    fn update_frame<'a>(
        &self,
        viewer: Option<Seat>,
        events: impl Iterator<Item = &'a str>,
        auto: bool,
    ) -> Out {
        let mut out = Vec::with_capacity(4096);
        let _ = write!(
            out,
            "{{\"v\":{PROTOCOL_VERSION},\"type\":\"update\",\"n\":{},\"events\":[",
            self.n()
        );
        for (i, e) in events.enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.extend_from_slice(e.as_bytes());
        }
        out.extend_from_slice(b"],");
        self.write_view_and_turn(viewer, &mut out);
        let _ = write!(out, ",\"auto\":{auto}}}");
        text(out)
    }

    /// The full `state`: `viewer`'s view, the current deal's log, the
    /// public turn and the table; the connection's writer writes the log
    /// from the journal.
    pub(super) fn send_state(&mut self, conn: ConnId) {
        let Some(viewer) = self.conns.get(&conn).map(|c| c.seat) else {
            return;
        };
        self.sync_journal();
        let head = format!(
            "{{\"v\":{PROTOCOL_VERSION},\"type\":\"state\",\"n\":{},\"log\":",
            self.n()
        );
        let mut tail = Vec::with_capacity(4096);
        let _ = write!(tail, ",\"table\":{},", json!(self.info()));
        self.write_view_and_turn(viewer, &mut tail);
        tail.push(b'}');
        let tail = String::from_utf8(tail).expect("serde_json writes UTF-8");
        let steps = (self.deal_start, self.log_len());
        let out = Catch::state(&self.journal, viewer, steps, head, tail);
        self.send(conn, out);
    }

    /// Sends the last step to every connection, each frame built from its
    /// viewer's view and only the events that viewer may see.
    pub(super) fn broadcast_update(&mut self, auto: bool) {
        let mut viewers: Vec<Option<Seat>> = self.conns.values().map(|c| c.seat).collect();
        viewers.sort_unstable();
        viewers.dedup();
        self.sync_journal();
        let Some(events) = self.journal.step(self.log_len() - 1) else {
            return;
        };
        let frames: Vec<Out> = viewers
            .iter()
            .map(|&v| self.update_frame(v, seen_by(&events, v), auto))
            .collect();
        let targets: Vec<(ConnId, usize)> = self
            .conns
            .iter()
            .filter_map(|(&id, c)| Some((id, viewers.binary_search(&c.seat).ok()?)))
            .collect();
        for (id, i) in targets {
            self.send(id, frames[i].clone());
        }
    }

    /// Entries in the event log of either game.
    pub(super) fn log_len(&self) -> usize {
        self.napalm.as_ref().map_or(self.log.len(), |t| t.log.len())
    }
}

/// The JSON texts of a journal step's events that `viewer` may see.
fn seen_by(events: &[Entry], viewer: Option<Seat>) -> impl Iterator<Item = &str> {
    let bit = journal::bit(viewer);
    events
        .iter()
        .filter(move |e| e.viewers & bit != 0)
        .map(|e| &*e.json)
}

/// An event of either game as JSON text.
fn event_json(e: &impl Serialize) -> String {
    serde_json::to_string(e).expect("events serialise")
}
