//! The frames a table sends: each viewer's `update` after a step, the full
//! `state`, and what a returning connection missed.
//!
//! A step goes to every viewer (each seat, and the spectators), so the hot
//! path writes JSON text straight from the typed events and views, never
//! through `serde_json::Value` trees: each event of the step is serialised
//! once, whoever may see it, and each viewer's frame joins the events whose
//! audience includes it with that viewer's own view.

use std::io::Write;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{Value, json};
use tripoley_engine::{Pending, Seat, View};

use super::{ConnId, Out, Table, frame};
use crate::protocol::PROTOCOL_VERSION;

/// The `turn` of a frame: who decides, the time they have left (a person
/// with a turn timer), and whether the server's bot plays for them.
#[derive(Serialize)]
struct Turn {
    seat: Seat,
    ms: Option<u64>,
    bot: bool,
}

/// The events of step `step` of a game's log that a viewer `sees`, as JSON
/// values: what a returning connection is sent, in either game.
pub(super) fn visible_events<E: Serialize>(
    log: &[Vec<E>],
    step: usize,
    sees: impl Fn(&E) -> bool,
) -> Vec<Value> {
    log.get(step)
        .map(|ev| ev.iter().filter(|e| sees(e)).map(|e| json!(e)).collect())
        .unwrap_or_default()
}

/// A frame's text from its JSON bytes.
fn text(out: Vec<u8>) -> Out {
    Out::Text(
        String::from_utf8(out)
            .expect("serde_json writes UTF-8")
            .into(),
    )
}

impl Table {
    /// Sends a connection what it missed since event `last`, or the full
    /// state when it saw nothing or too long ago.
    pub(super) fn catch_up(&mut self, conn: ConnId, last: Option<u64>) {
        let n = self.n();
        let Some(k) = last.filter(|&k| k <= n && n - k <= self.cfg.resume_window) else {
            self.send_state(conn);
            return;
        };
        let Some(viewer) = self.conns.get(&conn).map(|c| c.seat) else {
            return;
        };
        for step in k + 1..n {
            let events = self.events_for(step as usize, viewer);
            if !events.is_empty() {
                let out = frame(&json!({
                    "v": PROTOCOL_VERSION, "type": "update", "n": step, "events": events,
                }));
                self.send(conn, out);
            }
        }
        let events: Vec<String> = if k < n {
            self.events_for(n as usize, viewer)
                .iter()
                .map(Value::to_string)
                .collect()
        } else {
            Vec::new()
        };
        let out = self.update_frame(viewer, events.iter().map(String::as_str), false);
        self.send(conn, out);
    }

    /// The events of step `step` that `viewer` may see, in either game.
    pub(super) fn events_for(&self, step: usize, viewer: Option<Seat>) -> Vec<Value> {
        if let Some(t) = &self.napalm {
            return t.events_for(step, viewer);
        }
        visible_events(&self.log, step, |e| e.audience().includes(viewer))
    }

    /// Each event of step `step` serialised once, with the viewers (bit `i`
    /// for `viewers[i]`) who may see it, in either game.
    fn step_events(&self, step: usize, viewers: &[Option<Seat>]) -> Vec<(String, u32)> {
        fn audience(viewers: &[Option<Seat>], sees: impl Fn(Option<Seat>) -> bool) -> u32 {
            viewers
                .iter()
                .enumerate()
                .filter(|&(_, &v)| sees(v))
                .fold(0, |mask, (i, _)| mask | 1 << i)
        }
        if let Some(t) = &self.napalm {
            return t.log.get(step).map_or_else(Vec::new, |ev| {
                ev.iter()
                    .map(|e| {
                        (
                            event_json(e),
                            audience(viewers, |v| e.audience().includes(v)),
                        )
                    })
                    .collect()
            });
        }
        self.log.get(step).map_or_else(Vec::new, |ev| {
            ev.iter()
                .map(|e| {
                    (
                        event_json(e),
                        audience(viewers, |v| e.audience().includes(v)),
                    )
                })
                .collect()
        })
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
    /// public turn and the table.
    pub(super) fn send_state(&mut self, conn: ConnId) {
        let Some(viewer) = self.conns.get(&conn).map(|c| c.seat) else {
            return;
        };
        let end_event = if self.napalm.is_some() {
            "hand_ended"
        } else {
            "deal_ended"
        };
        let log: Vec<Value> = (self.deal_start..self.log_len())
            .filter_map(|k| {
                let mut events = self.events_for(k, viewer);
                if k == self.deal_start
                    && let Some(end) = events.iter().rposition(|e| e["event"] == end_event)
                {
                    // The entry that ended the last deal: keep only what
                    // follows (the antes of this one).
                    events.drain(..=end);
                }
                (!events.is_empty()).then(|| json!({"n": k, "events": events}))
            })
            .collect();
        let mut out = Vec::with_capacity(16 * 1024);
        let _ = write!(
            out,
            "{{\"v\":{PROTOCOL_VERSION},\"type\":\"state\",\"n\":{},\"log\":{},\"table\":{},",
            self.n(),
            Value::Array(log),
            json!(self.info()),
        );
        self.write_view_and_turn(viewer, &mut out);
        out.push(b'}');
        self.send(conn, text(out));
    }

    /// Sends the last step to every connection, each frame built from its
    /// viewer's view and only the events that viewer may see.
    pub(super) fn broadcast_update(&mut self, auto: bool) {
        let mut viewers: Vec<Option<Seat>> = self.conns.values().map(|c| c.seat).collect();
        viewers.sort_unstable();
        viewers.dedup();
        let events = self.step_events(self.log_len() - 1, &viewers);
        let frames: Vec<Out> = (0..viewers.len())
            .map(|i| {
                let seen = events
                    .iter()
                    .filter(|(_, mask)| mask & 1 << i != 0)
                    .map(|(e, _)| e.as_str());
                self.update_frame(viewers[i], seen, auto)
            })
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

/// An event of either game as JSON text.
fn event_json(e: &impl Serialize) -> String {
    serde_json::to_string(e).expect("events serialise")
}
