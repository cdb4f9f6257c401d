//! The frames a table sends, written as JSON text straight from the typed
//! events and views (never through `serde_json::Value` trees): each event
//! is serialised once, whoever may see it, and each viewer's frame joins
//! the events whose audience includes it with that viewer's own view.
//!
//! The server's table and the browser's offline table both write their
//! frames here, so the web client draws either from the same messages.

use std::io::Write;

use serde::Serialize;
use tripoley_engine::Seat;

use crate::journal::{self, Entry};
use crate::message::{Role, ServerMsg};
use crate::protocol::{ErrorBody, PROTOCOL_VERSION, TableInfo};

/// The `turn` of a frame: who decides, the time they have left (a person
/// with a turn timer), and whether a bot plays for them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Turn {
    /// The seat to decide.
    pub seat: Seat,
    /// Milliseconds left on a person's turn timer.
    pub ms: Option<u64>,
    /// Whether a bot plays for the seat.
    pub bot: bool,
}

/// Writes `value` as JSON: a view, or a turn.
pub fn write_json(out: &mut Vec<u8>, value: &impl Serialize) {
    serde_json::to_writer(out, value).expect("views serialise");
}

/// An event of either game as JSON text.
pub fn event_json(e: &impl Serialize) -> String {
    serde_json::to_string(e).expect("events serialise")
}

/// The journal's entries for one step's events: each serialised once, with
/// the viewers among `viewers` it `sees` and whether it `ends` a deal.
pub fn entries<E: Serialize>(
    events: &[E],
    viewers: &[Option<Seat>],
    sees: impl Fn(&E, Option<Seat>) -> bool,
    ends: impl Fn(&E) -> bool,
) -> Vec<Entry> {
    events
        .iter()
        .map(|e| Entry {
            json: event_json(e).into(),
            viewers: viewers
                .iter()
                .filter(|&&v| sees(e, v))
                .fold(0, |m, &v| m | journal::bit(v)),
            ends_deal: ends(e),
        })
        .collect()
}

/// Every viewer of a table of `seats` seats: the spectators, then each seat.
pub fn viewers(seats: usize) -> Vec<Option<Seat>> {
    std::iter::once(None)
        .chain((0..seats).map(|s| Some(s as Seat)))
        .collect()
}

/// The JSON texts of a journal step's events that `viewer` may see.
pub fn seen_by(events: &[Entry], viewer: Option<Seat>) -> impl Iterator<Item = &str> {
    let bit = journal::bit(viewer);
    events
        .iter()
        .filter(move |e| e.viewers & bit != 0)
        .map(|e| &*e.json)
}

/// Writes `"view":…,"turn":…`, the view's JSON by `write_view`.
pub fn write_view_and_turn(
    out: &mut Vec<u8>,
    write_view: impl FnOnce(&mut Vec<u8>),
    turn: Option<&Turn>,
) {
    out.extend_from_slice(b"\"view\":");
    write_view(out);
    out.extend_from_slice(b",\"turn\":");
    write_json(out, &turn);
}

/// An `update`: the events (JSON texts) a viewer may see of step `n`, its
/// view and the public turn (`view_and_turn` writes them), and whether the
/// table decided for a person (`auto`).
pub fn update<'a>(
    n: u64,
    events: impl Iterator<Item = &'a str>,
    view_and_turn: impl FnOnce(&mut Vec<u8>),
    auto: bool,
) -> String {
    let mut out = Vec::with_capacity(4096);
    let _ = write!(
        out,
        "{{\"v\":{PROTOCOL_VERSION},\"type\":\"update\",\"n\":{n},\"events\":["
    );
    for (i, e) in events.enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(e.as_bytes());
    }
    out.extend_from_slice(b"],");
    view_and_turn(&mut out);
    let _ = write!(out, ",\"auto\":{auto}}}");
    journal::text(out)
}

/// A `state`'s text up to its log, and from the comma after it: the log
/// itself is written from the journal ([`journal::Catch::state`]).
pub fn state_parts(
    n: u64,
    table: &TableInfo,
    view_and_turn: impl FnOnce(&mut Vec<u8>),
) -> (String, String) {
    let head = format!("{{\"v\":{PROTOCOL_VERSION},\"type\":\"state\",\"n\":{n},\"log\":");
    let mut tail = Vec::with_capacity(4096);
    tail.extend_from_slice(b",\"table\":");
    serde_json::to_writer(&mut tail, table).expect("tables serialise");
    tail.push(b',');
    view_and_turn(&mut tail);
    tail.push(b'}');
    (head, journal::text(tail))
}

/// An `error` answering request `id`.
pub fn error(n: u64, id: Option<u64>, err: &ErrorBody) -> String {
    ServerMsg::error(id, err).text(n)
}

/// An `ack` of request `id`.
pub fn ack(n: u64, id: Option<u64>) -> String {
    ServerMsg::Ack { id }.text(n)
}

/// The `welcome` to a connection taken in: its role, seat and the table.
pub fn welcome(n: u64, seat: Option<Seat>, host: bool, table: &TableInfo) -> String {
    let role = if seat.is_some() {
        Role::Player
    } else {
        Role::Spectator
    };
    ServerMsg::Welcome {
        role,
        seat,
        host,
        table,
    }
    .text(n)
}

/// A `table` message: the seats and status changed.
pub fn table(n: u64, table: &TableInfo) -> String {
    ServerMsg::Table { table }.text(n)
}

/// A `hint`: what the expert would do, answering request `id`.
pub fn hint(n: u64, id: Option<u64>, action: &serde_json::Value) -> String {
    ServerMsg::Hint { id, action }.text(n)
}
