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
use tripoley_cards::CardSet;
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
    w.out.extend_from_slice(b"{\"seat\":");
    serde_json::to_writer(&mut *w.out, seat).expect("views serialise");
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
    w.own_with("hand", |out| hand.write_json(out));
    w.shared("hand_sizes", hand_sizes);
    w.own_with("my_five", |out| match my_five {
        Some(five) => five.write_json(out),
        None => out.extend_from_slice(b"null"),
    });
    w.shared("chose_five", chose_five);
    w.shared("spare_size", spare_size);
    w.own_with("spare_known", |out| spare_known.write_json(out));
    w.own_with("known_cards", |out| write_sets(out, known_cards));
    w.shared_with("cannot_hold", |out| write_sets(out, cannot_hold));
    w.shared_with("played", |out| write_sets(out, played));
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
    /// A field of the viewer's own: `,"name":value`.
    fn own(&mut self, name: &str, value: &impl Serialize) {
        self.own_with(name, |out| {
            serde_json::to_writer(out, value).expect("views serialise");
        });
    }

    /// A field of the viewer's own whose value `write` writes: cards, by
    /// [`tripoley_cards::CardSet::write_json`], not through serde.
    fn own_with(&mut self, name: &str, write: impl FnOnce(&mut Vec<u8>)) {
        self.out.extend_from_slice(b",\"");
        self.out.extend_from_slice(name.as_bytes());
        self.out.extend_from_slice(b"\":");
        write(self.out);
    }

    /// A field everyone sees: recorded as it is written, or copied.
    fn shared(&mut self, name: &str, value: &impl Serialize) {
        self.shared_with(name, |out| {
            serde_json::to_writer(out, value).expect("views serialise");
        });
    }

    /// A field everyone sees whose value `write` writes.
    fn shared_with(&mut self, name: &str, write: impl FnOnce(&mut Vec<u8>)) {
        if let Public::Copy(shared) = &self.public {
            let span = shared.public[self.next].clone();
            self.out.extend_from_slice(&shared.text[span]);
        } else {
            let start = self.out.len();
            self.own_with(name, write);
            if let Public::Record(spans) = &mut self.public {
                spans.push(start..self.out.len());
            }
        }
        self.next += 1;
    }
}

/// Writes a set per seat as serde would: a list of lists of cards.
fn write_sets(out: &mut Vec<u8>, sets: &[CardSet]) {
    out.push(b'[');
    for (i, cards) in sets.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        cards.write_json(out);
    }
    out.push(b']');
}
