//! A finished game's frames for the replay viewer, from its record: each
//! entry of the live table's event log (held parts of a run's stop
//! included, so `n` is the event number the live table sent) becomes one
//! `update` frame, the events that viewer may see and its view after them.
//! With a seat, exactly what that seat saw; without one, a spectator's
//! frames with every hand face up (the game is over: nothing is hidden any
//! more). The server answers them over HTTP; the offline app's worker makes
//! them in the browser.

use serde_json::{Value, json};
use tripoley_analysis::AnalysisError;
use tripoley_engine::{Event, Game, Record, Seat, View};
use tripoley_napalm::{NapalmGame, NapalmRecord, NapalmStep};

use crate::hold;
use crate::protocol::{PROTOCOL_VERSION, RecordProblem};

/// The largest answer: a long game's frames are a few hundred kilobytes.
pub const MAX_BYTES: usize = 4 << 20;

/// A finished game to replay, of either kind.
pub enum Replayed {
    /// A Tripoley game.
    Tripoley(Record),
    /// A Napalm game.
    Napalm(NapalmRecord),
}

/// Why a file is refused: what is wrong and where, in words.
pub type Refused = (RecordProblem, String);

/// An uploaded record file read as `tripoley analyse` reads it (a Napalm
/// one as `tripoley replay` does, within the same bounds), or why not.
pub fn read_upload(body: &[u8]) -> Result<Replayed, Refused> {
    // A byte-order mark (some Windows editors write one) is no reason to
    // refuse a record.
    let body = body.strip_prefix("\u{feff}".as_bytes()).unwrap_or(body);
    let text = std::str::from_utf8(body)
        .map_err(|_| (RecordProblem::NotARecord, "the file is not text".into()))?;
    match tripoley_analysis::read(text) {
        Ok(record) => Ok(Replayed::Tripoley(record)),
        Err(AnalysisError::Napalm) => read_napalm(text).map(Replayed::Napalm),
        Err(e) => {
            let problem = match e {
                AnalysisError::TooBig(_) => RecordProblem::TooBig,
                AnalysisError::TooLong(_) => RecordProblem::TooLong,
                _ => RecordProblem::NotARecord,
            };
            Err((problem, e.to_string()))
        }
    }
}

/// A Napalm record (its size already bounded): at most
/// [`tripoley_analysis::MAX_STEPS`] steps. (The server also holds its names
/// to the rule for names; the browser's replay of a file shows them as text.)
fn read_napalm(text: &str) -> Result<NapalmRecord, Refused> {
    let not = |why: String| (RecordProblem::NotARecord, why);
    let record: NapalmRecord =
        serde_json::from_str(text).map_err(|e| not(format!("not a Napalm game record: {e}")))?;
    if record.steps.len() > tripoley_analysis::MAX_STEPS {
        let e = AnalysisError::TooLong(record.steps.len());
        return Err((RecordProblem::TooLong, e.to_string()));
    }
    Ok(record)
}

/// Why there are no frames.
pub enum Failure {
    /// Longer than [`MAX_BYTES`].
    TooLong,
    /// The asked seat is not at the table.
    NoSeat,
    /// The stored game does not replay.
    Broken(String),
}

/// The replay's JSON: `{"v", "type": "replay", "game", "seat", "names",
/// "share", "frames": [update…]}` (`game`: "tripoley" or "napalm";
/// `share` when asked by the share id, so the page can offer the link
/// again).
pub fn frames(
    record: &Replayed,
    seat: Option<Seat>,
    share: Option<&str>,
) -> Result<Vec<u8>, Failure> {
    let (game, names) = match record {
        Replayed::Tripoley(r) => ("tripoley", &r.names),
        Replayed::Napalm(r) => ("napalm", &r.names),
    };
    let head = json!({"v": PROTOCOL_VERSION, "type": "replay", "game": game, "seat": seat,
        "names": names, "share": share});
    let mut out = Frames::new(&head)?;
    match record {
        Replayed::Tripoley(r) => tripoley_frames(r, seat, &mut out)?,
        Replayed::Napalm(r) => napalm_frames(r, seat, &mut out)?,
    }
    Ok(out.end())
}

/// The frames written as they are made, the whole bounded by
/// [`MAX_BYTES`] as it grows: a long record (an uploaded one may hold
/// 200,000 steps) is refused before it fills the memory.
struct Frames {
    out: Vec<u8>,
    written: usize,
}

impl Frames {
    /// `{…head}` becomes `{…head,"frames":[` and the frames follow.
    fn new(head: &Value) -> Result<Frames, Failure> {
        let mut out = serde_json::to_vec(head).map_err(|e| Failure::Broken(e.to_string()))?;
        out.pop();
        out.extend_from_slice(br#","frames":["#);
        Ok(Frames { out, written: 0 })
    }

    fn push(&mut self, frame: &Value) -> Result<(), Failure> {
        if self.written > 0 {
            self.out.push(b',');
        }
        serde_json::to_writer(&mut self.out, frame).map_err(|e| Failure::Broken(e.to_string()))?;
        self.written += 1;
        if self.out.len() > MAX_BYTES {
            return Err(Failure::TooLong);
        }
        Ok(())
    }

    fn end(mut self) -> Vec<u8> {
        self.out.extend_from_slice(b"]}");
        self.out
    }
}

fn tripoley_frames(record: &Record, seat: Option<Seat>, out: &mut Frames) -> Result<(), Failure> {
    let mut ev = Vec::new();
    let mut game = record
        .start(&mut ev)
        .map_err(|e| Failure::Broken(e.to_string()))?;
    if seat.is_some_and(|s| s >= game.view(None).players) {
        return Err(Failure::NoSeat);
    }
    out.push(&frame(0, None, &ev, &game, seat))?;
    let mut n = 1;
    for (i, step) in record.steps.iter().enumerate() {
        let stops = hold::stops(&game, step);
        let mut ev = Vec::new();
        game.step(step, &mut ev)
            .map_err(|e| Failure::Broken(format!("step {i} does not replay: {e}")))?;
        for (shown, part) in hold::parts(ev, stops, game.clone()) {
            out.push(&frame(n, Some(i), &part, &shown, seat))?;
            n += 1;
        }
    }
    Ok(())
}

/// A Napalm game's frames: one per step, as a Napalm table sends them
/// (`n` is the step's number); the events a seat may see (N7) and its view,
/// or every hand among the cards seen for the game face up.
fn napalm_frames(
    record: &NapalmRecord,
    seat: Option<Seat>,
    out: &mut Frames,
) -> Result<(), Failure> {
    let mut ev = Vec::new();
    let mut game = NapalmGame::start(record.rules.clone(), record.names.len(), &mut ev)
        .map_err(|e| Failure::Broken(e.to_string()))?;
    if seat.is_some_and(|s| usize::from(s) >= record.names.len()) {
        return Err(Failure::NoSeat);
    }
    let frame = |n: usize,
                 step: Option<usize>,
                 ev: &[tripoley_napalm::Event],
                 game: &NapalmGame| {
        let events: Vec<_> = ev.iter().filter(|e| e.audience().includes(seat)).collect();
        let mut view = game.view(seat);
        if seat.is_none() {
            for (s, seen) in view.seen.iter_mut().enumerate() {
                *seen = game.view(Some(s as Seat)).cards;
            }
        }
        json!({"v": PROTOCOL_VERSION, "type": "update", "n": n, "step": step, "events": events, "view": view})
    };
    out.push(&frame(0, None, &ev, &game))?;
    for (i, step) in record.steps.iter().enumerate() {
        let ev = match step {
            NapalmStep::Deck(d) => game.deal(d),
            NapalmStep::Act { seat, action } => game.apply(*seat, *action),
        }
        .map_err(|e| Failure::Broken(format!("step {i} does not replay: {e}")))?;
        out.push(&frame(i + 1, Some(i), &ev, &game))?;
    }
    Ok(())
}

/// One `update` frame: the log entry `n`'s events and the view after them,
/// with the record's `step` that made it (none for the deal's start), which
/// places an analysed decision (`step` in the analysis) on the frames.
fn frame(
    n: usize,
    step: Option<usize>,
    events: &[Event],
    game: &Game,
    seat: Option<Seat>,
) -> Value {
    let events: Vec<&Event> = events
        .iter()
        .filter(|e| e.audience().includes(seat))
        .collect();
    let view = match seat {
        Some(_) => game.view(seat),
        None => face_up(game),
    };
    json!({"v": PROTOCOL_VERSION, "type": "update", "n": n, "step": step, "events": events, "view": view})
}

/// A spectator's view with every seat's hand among the cards known to be
/// held: how the board draws cards face up.
fn face_up(game: &Game) -> View {
    let mut view = game.view(None);
    for (s, known) in view.known_cards.iter_mut().enumerate() {
        *known = game.view(Some(s as Seat)).hand;
    }
    view
}

#[cfg(test)]
mod tests {
    use tripoley_bots::{BotKind, record_game};
    use tripoley_engine::{Preset, Rules};

    use super::{Replayed, read_upload};

    /// A file an editor began with a byte-order mark is read as without it.
    #[test]
    fn a_byte_order_mark_is_read_past() {
        let rules = Rules {
            deals: Some(1),
            ..Rules::preset(Preset::Pagat)
        };
        let mut bots: Vec<_> = (0..3).map(|_| BotKind::Random.make(&rules)).collect();
        let names = (0..3).map(|i| format!("P{i}")).collect();
        let record = record_game(&rules, &mut bots, names, 4).expect("a game");
        let marked = format!("\u{feff}{}", record.to_json());
        match read_upload(marked.as_bytes()) {
            Ok(Replayed::Tripoley(read)) => assert_eq!(read.steps, record.steps),
            _ => panic!("the record was refused"),
        }
    }
}
