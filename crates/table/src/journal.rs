//! The table's journal: each step's events serialised once, each with the
//! viewers who may see it, shared (append-only) with the connections.
//!
//! A connection that comes back asks for hundreds of steps, or for the
//! whole deal so far. Writing them on the table's task let a flood of such
//! hellos stall every move (issue 31, finding 4), so the table only queues
//! a [`Catch`] naming the steps, and the connection's own writer
//! writes the frames from the journal. The journal's entries never change
//! once written, so what a viewer is sent is exactly what it was sent live.

use std::io::Write;
use std::sync::{Arc, PoisonError, RwLock};

use tripoley_engine::Seat;

use crate::protocol::PROTOCOL_VERSION;

/// One event: its JSON text, who may see it, and whether it ends a deal
/// (or a Napalm hand).
#[derive(Debug)]
pub struct Entry {
    /// The event as JSON text.
    pub json: Box<str>,
    /// Who may see it: a bit per viewer, [`bit`].
    pub viewers: u64,
    /// Whether it ends a deal (or a Napalm hand).
    pub ends_deal: bool,
}

/// The viewer bit of `viewer` in [`Entry::viewers`]: bit 0 for the
/// spectators, bit `s + 1` for seat `s` (a seat past the mask sees nothing).
pub fn bit(viewer: Option<Seat>) -> u64 {
    match viewer {
        None => 1,
        Some(s) => 1u64.checked_shl(u32::from(s) + 1).unwrap_or(0),
    }
}

/// Every step's events so far, step `k` at index `k`.
#[derive(Debug, Default)]
pub struct Journal {
    steps: RwLock<Vec<Arc<[Entry]>>>,
}

impl Journal {
    /// The steps written so far.
    pub fn len(&self) -> usize {
        self.steps
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    /// Whether no step is written yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Appends the next step's events.
    pub fn push(&self, step: Vec<Entry>) {
        let mut steps = self.steps.write().unwrap_or_else(PoisonError::into_inner);
        steps.push(step.into());
    }

    /// Steps `from..to` (those written so far), shared.
    fn steps(&self, from: usize, to: usize) -> Vec<Arc<[Entry]>> {
        let steps = self.steps.read().unwrap_or_else(PoisonError::into_inner);
        let to = to.min(steps.len());
        steps.get(from.min(to)..to).unwrap_or_default().to_vec()
    }

    /// Step `k`, shared.
    pub fn step(&self, k: usize) -> Option<Arc<[Entry]>> {
        self.steps(k, k + 1).pop()
    }
}

/// Writes the events of `step` that `viewer` (a bit) may see as a JSON
/// array; whether there were any.
fn write_events<'a>(
    out: &mut Vec<u8>,
    events: impl Iterator<Item = &'a Entry>,
    viewer: u64,
) -> bool {
    out.push(b'[');
    let mut any = false;
    for e in events.filter(|e| e.viewers & viewer != 0) {
        if any {
            out.push(b',');
        }
        out.extend_from_slice(e.json.as_bytes());
        any = true;
    }
    out.push(b']');
    any
}

/// What a connection's writer sends from the journal.
#[derive(Clone, Debug)]
pub struct Catch {
    journal: Arc<Journal>,
    viewer: u64,
    shape: Shape,
}

#[derive(Clone, Debug)]
enum Shape {
    /// An `update` of events only for each step of `from..to` with any the
    /// viewer may see: what a connection missed.
    Updates { from: usize, to: usize },
    /// The full `state`: `head`, the log of steps `from..to` (the current
    /// deal's; at `from`, only what follows the last deal's end), `tail`.
    State {
        head: String,
        from: usize,
        to: usize,
        tail: String,
    },
}

impl Catch {
    /// The `update`s of steps `from..to` for `viewer`.
    pub fn updates(journal: &Arc<Journal>, viewer: Option<Seat>, from: usize, to: usize) -> Catch {
        Catch {
            journal: Arc::clone(journal),
            viewer: bit(viewer),
            shape: Shape::Updates { from, to },
        }
    }

    /// A `state` for `viewer`: `head` (up to `"log":`), the log of steps
    /// `from..to`, `tail` (from the comma after the log).
    pub fn state(
        journal: &Arc<Journal>,
        viewer: Option<Seat>,
        (from, to): (usize, usize),
        head: String,
        tail: String,
    ) -> Catch {
        Catch {
            journal: Arc::clone(journal),
            viewer: bit(viewer),
            shape: Shape::State {
                head,
                from,
                to,
                tail,
            },
        }
    }

    /// The frames' texts, written on the caller's task.
    pub fn frames(&self) -> Vec<String> {
        match &self.shape {
            Shape::Updates { from, to } => {
                let steps = self.journal.steps(*from, *to);
                (*from..)
                    .zip(steps)
                    .filter_map(|(k, events)| {
                        let mut out = Vec::with_capacity(256);
                        let _ = write!(
                            out,
                            "{{\"v\":{PROTOCOL_VERSION},\"type\":\"update\",\"n\":{k},\"events\":"
                        );
                        write_events(&mut out, events.iter(), self.viewer).then(|| {
                            out.push(b'}');
                            text(out)
                        })
                    })
                    .collect()
            }
            Shape::State {
                head,
                from,
                to,
                tail,
            } => {
                let mut out = Vec::with_capacity(16 * 1024);
                out.extend_from_slice(head.as_bytes());
                out.push(b'[');
                let mut first = true;
                for (k, events) in (*from..).zip(self.journal.steps(*from, *to)) {
                    // The entry that ended the last deal: only what follows
                    // (the antes of this one).
                    let skip = if k == *from {
                        events
                            .iter()
                            .rposition(|e| e.ends_deal)
                            .map_or(0, |i| i + 1)
                    } else {
                        0
                    };
                    let mut entry = Vec::new();
                    let _ = write!(entry, "{{\"n\":{k},\"events\":");
                    if write_events(&mut entry, events[skip..].iter(), self.viewer) {
                        if !first {
                            out.push(b',');
                        }
                        out.extend_from_slice(&entry);
                        out.push(b'}');
                        first = false;
                    }
                }
                out.push(b']');
                out.extend_from_slice(tail.as_bytes());
                vec![text(out)]
            }
        }
    }
}

/// A frame's text from its JSON bytes.
pub fn text(out: Vec<u8>) -> String {
    String::from_utf8(out).expect("serde_json writes UTF-8")
}
