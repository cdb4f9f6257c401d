//! A Tripoley view written for a step's whole audience: the fields everyone
//! sees are serialised once, from the spectators' view, and copied into
//! each seat's, which serialises only what is its own (issue 53: a step's
//! frame for an audience built once and shared).
//!
//! The text is serde's for the same [`View`], byte for byte (tested over
//! random games of every preset), so the page, the offline worker and the
//! replay read the frames they always did. Which fields are a viewer's own
//! follows [`tripoley_engine::Sight::view`]: the seat, its hand, its five,
//! what it knows of the spare and of each hand, and the turn (a secret
//! follow under M9b is told to its seat only). Everything else is the same
//! in every view of one moment, so sharing it shows nobody anything new.

use std::ops::Range;

use serde::Serialize;
use tripoley_engine::{Game, View};

/// The spectators' view of one moment as text, and where each field
/// everyone sees lies in it.
#[derive(Debug)]
pub struct SharedView {
    text: Vec<u8>,
    public: Vec<Range<usize>>,
}

impl SharedView {
    /// The spectators' view of `game`, written once.
    pub fn new(game: &Game) -> SharedView {
        let mut text = Vec::with_capacity(2048);
        let mut public = Vec::with_capacity(PUBLIC_FIELDS);
        write(&mut text, &game.view(None), Public::Record(&mut public));
        SharedView { text, public }
    }

    /// The spectators' view as JSON text.
    pub fn spectators(&self) -> &[u8] {
        &self.text
    }

    /// Writes `view`, a seat's view of the same moment, as serde would:
    /// its own fields serialised, the others copied.
    pub fn write(&self, out: &mut Vec<u8>, view: &View) {
        write(out, view, Public::Copy(self));
    }
}

/// The fields of a [`View`] that everyone sees.
const PUBLIC_FIELDS: usize = 19;

/// What a field everyone sees does: recorded (the spectators' view), or
/// copied from that record.
enum Public<'a> {
    Record(&'a mut Vec<Range<usize>>),
    Copy(&'a SharedView),
}

/// Writes `view`'s fields in their declared order (serde's), each as
/// `"name":value` and the first opening the object.
fn write(out: &mut Vec<u8>, view: &View, public: Public<'_>) {
    // Named one by one, with no `..`: a field added to `View` fails to
    // compile here until it is sorted into its own or everyone's.
    let View {
        seat,
        players,
        dealer,
        deal_number,
        deals_total,
        stage,
        stacks,
        out: out_seats,
        layout,
        pay_suit,
        sequence,
        hand,
        hand_sizes,
        my_five,
        chose_five,
        spare_size,
        spare_known,
        known_cards,
        cannot_hold,
        played,
        last_played,
        to_act,
        decision,
        betting,
        auction,
        standings,
    } = view;
    let mut w = Writer {
        out,
        public,
        next: 0,
    };
    w.out.push(b'{');
    w.field("seat", seat);
    w.shared("players", players);
    w.shared("dealer", dealer);
    w.shared("deal_number", deal_number);
    w.shared("deals_total", deals_total);
    w.shared("stage", stage);
    w.shared("stacks", stacks);
    w.shared("out", out_seats);
    w.shared("layout", layout);
    w.shared("pay_suit", pay_suit);
    w.shared("sequence", sequence);
    w.own("hand", hand);
    w.shared("hand_sizes", hand_sizes);
    w.own("my_five", my_five);
    w.shared("chose_five", chose_five);
    w.shared("spare_size", spare_size);
    w.own("spare_known", spare_known);
    w.own("known_cards", known_cards);
    w.shared("cannot_hold", cannot_hold);
    w.shared("played", played);
    w.shared("last_played", last_played);
    w.own("to_act", to_act);
    w.own("decision", decision);
    w.shared("betting", betting);
    w.shared("auction", auction);
    w.shared("standings", standings);
    w.out.push(b'}');
    debug_assert_eq!(w.next, PUBLIC_FIELDS);
}

struct Writer<'a, 'b> {
    out: &'a mut Vec<u8>,
    public: Public<'b>,
    /// The next field everyone sees, counted from the first.
    next: usize,
}

impl Writer<'_, '_> {
    /// The first field: `"name":value` right after the brace.
    fn field(&mut self, name: &str, value: &impl Serialize) {
        self.out.push(b'"');
        self.out.extend_from_slice(name.as_bytes());
        self.out.extend_from_slice(b"\":");
        serde_json::to_writer(&mut *self.out, value).expect("views serialise");
    }

    /// A field of the viewer's own: `,"name":value`.
    fn own(&mut self, name: &str, value: &impl Serialize) {
        self.out.push(b',');
        self.field(name, value);
    }

    /// A field everyone sees: recorded as it is written, or copied.
    fn shared(&mut self, name: &str, value: &impl Serialize) {
        if let Public::Copy(shared) = &self.public {
            let span = shared.public[self.next].clone();
            self.out.extend_from_slice(&shared.text[span]);
        } else {
            let start = self.out.len();
            self.own(name, value);
            if let Public::Record(spans) = &mut self.public {
                spans.push(start..self.out.len());
            }
        }
        self.next += 1;
    }
}
