//! The offline table in the browser: [`Offline`] is a [`Local`] table behind
//! wasm-bindgen, for the web client's worker (`web/worker.js`), plus the
//! analysis of a finished game and the presets.
//!
//! Everything crosses as JSON text: frames are the protocol's own messages
//! (written by `tripoley-table`, as the server writes them), so the page
//! handles an offline game's frames exactly as an online one's. Nothing here
//! reads a clock or spawns: the worker decides when a bot moves.

use tripoley_table::Local;
use tripoley_table::local::Next;
use tripoley_table::protocol::{CreateTable, ErrorBody};
use wasm_bindgen::prelude::wasm_bindgen;

/// An offline table.
#[wasm_bindgen]
pub struct Offline {
    table: Local,
}

/// An error's message, as the protocol's `error` frame (the page shows it
/// through the same words as a server's).
fn error_frame(n: u64, e: &ErrorBody) -> String {
    tripoley_table::frames::error(n, None, e)
}

/// A seed given in decimal (a JavaScript number holds only 53 bits exactly).
fn seed_of(seed: &str) -> Result<u64, String> {
    seed.parse().map_err(|_| {
        error_frame(
            0,
            &ErrorBody::new(
                tripoley_table::protocol::ErrorCode::Invalid,
                "the seed is a number from 0 to 18446744073709551615",
            ),
        )
    })
}

#[wasm_bindgen]
impl Offline {
    /// A new game. `create` is the home page's `POST /api/tables` body
    /// (game, preset, house rules, seats, chips); `names` and `bots` are JSON
    /// arrays, a name and a bot level (`null` for a person on this device)
    /// per seat; `seed` (decimal) seeds chance and the bots. Throws the
    /// `error` frame.
    #[wasm_bindgen(constructor)]
    pub fn new(
        create: &str,
        names: &str,
        bots: &str,
        seed: &str,
        lang: Option<String>,
    ) -> Result<Offline, String> {
        let invalid = |e: serde_json::Error| {
            error_frame(
                0,
                &ErrorBody::new(tripoley_table::protocol::ErrorCode::Invalid, e.to_string()),
            )
        };
        let create: CreateTable = serde_json::from_str(create).map_err(invalid)?;
        let settings = create.game_settings().map_err(|e| error_frame(0, &e))?;
        let names = serde_json::from_str(names).map_err(invalid)?;
        let bots = serde_json::from_str(bots).map_err(invalid)?;
        Local::new(settings, names, bots, seed_of(seed)?, lang)
            .map(|table| Offline { table })
            .map_err(|e| error_frame(0, &e))
    }

    /// The next game at this table (a rematch): the same settings, names and
    /// players, chance seeded with `seed` (decimal).
    pub fn again(&self, seed: &str) -> Result<Offline, String> {
        self.table
            .again(seed_of(seed)?)
            .map(|table| Offline { table })
            .map_err(|e| error_frame(0, &e))
    }

    /// A saved game (what [`Offline::saved`] wrote, or `tripoley play
    /// --save`'s file), replayed to where it stopped.
    pub fn resume(saved: &str) -> Result<Offline, String> {
        Local::resume(saved)
            .map(|table| Offline { table })
            .map_err(|e| error_frame(0, &e))
    }

    /// What is due: `{"due":"bot","seat":1}`, `{"due":"held"}`,
    /// `{"due":"person","seat":0}` or `{"due":"over"}`.
    pub fn next(&self) -> String {
        let (due, seat) = match self.table.next() {
            Next::Bot(s) => ("bot", Some(s)),
            Next::Held => ("held", None),
            Next::Person(s) => ("person", Some(s)),
            Next::Over => ("over", None),
        };
        serde_json::json!({ "due": due, "seat": seat }).to_string()
    }

    /// A person acts for `seat` (`action` as an `act` message carries it,
    /// `n` the event it answers): `""`, or the `error` frame.
    pub fn act(&mut self, seat: u8, action: &str, n: Option<u32>) -> String {
        let result = serde_json::from_str(action)
            .map_err(|e| {
                ErrorBody::new(tripoley_table::protocol::ErrorCode::Invalid, e.to_string())
            })
            .and_then(|a| self.table.act(seat, &a, n.map(u64::from)));
        match result {
            Ok(()) => String::new(),
            Err(e) => error_frame(self.table.n(), &e),
        }
    }

    /// The bot of the seat to decide acts; false if no bot is to decide.
    pub fn bot_acts(&mut self) -> bool {
        self.table.bot_acts()
    }

    /// The next held part of the last step goes out; false if none.
    pub fn release(&mut self) -> bool {
        self.table.release()
    }

    /// The expert's hint for `seat` as a `hint` frame, or an `error` frame.
    pub fn hint(&self, seat: u8) -> String {
        match self.table.hint(seat) {
            Ok(action) => tripoley_table::frames::hint(self.table.n(), None, &action),
            Err(e) => error_frame(self.table.n(), &e),
        }
    }

    /// The event number.
    pub fn n(&self) -> f64 {
        self.table.n() as f64
    }

    /// The `welcome` for `seat`.
    pub fn welcome(&self, seat: u8) -> String {
        self.table.welcome(Some(seat))
    }

    /// The full `state` for `seat`.
    pub fn state(&self, seat: u8) -> String {
        self.table.state(Some(seat))
    }

    /// The last step's `update` for `seat`.
    pub fn update(&self, seat: u8) -> String {
        self.table.update(Some(seat))
    }

    /// The game so far as a saved game (a record with a `play` field).
    pub fn saved(&self) -> String {
        self.table.saved()
    }
}

/// The expert's analysis of a finished game's record (for `seat`, or every
/// seat), as the server's `/analysis` answers; or an `error` frame.
#[wasm_bindgen]
pub fn analyse(record: &str, seat: Option<u8>) -> Result<String, String> {
    let invalid = |m: String| {
        error_frame(
            0,
            &ErrorBody::new(tripoley_table::protocol::ErrorCode::Invalid, m),
        )
    };
    let record = tripoley_analysis::read(record).map_err(|e| invalid(e.to_string()))?;
    let options = tripoley_analysis::Options {
        seat,
        ..tripoley_analysis::Options::default()
    };
    let analysis = tripoley_analysis::analyse(&record, &options, &mut |_, _| true)
        .map_err(|e| invalid(e.to_string()))?;
    Ok(serde_json::to_string(&analysis).expect("an analysis serialises"))
}

/// A finished game's frames for the replay viewer (for `seat`, or face up),
/// as the server's `/api/replays` answers; or an `error` frame naming what
/// is wrong with the record.
#[wasm_bindgen]
pub fn replay(record: &str, seat: Option<u8>) -> Result<String, String> {
    use tripoley_table::protocol::{Detail, ErrorCode};
    use tripoley_table::replay::{Failure, frames, read_upload};
    let refused = |problem, why: String| {
        error_frame(
            0,
            &ErrorBody::new(ErrorCode::Invalid, why).with(Detail::Record { problem }),
        )
    };
    let record = read_upload(record.as_bytes()).map_err(|(problem, why)| refused(problem, why))?;
    match frames(&record, seat, None) {
        Ok(body) => Ok(String::from_utf8(body).expect("serde_json writes UTF-8")),
        Err(Failure::TooLong) => Err(refused(
            tripoley_table::protocol::RecordProblem::TooLong,
            "this game is too long to replay here".into(),
        )),
        Err(Failure::NoSeat) => Err(error_frame(
            0,
            &ErrorBody::new(ErrorCode::Invalid, "there is no such seat at this table"),
        )),
        Err(Failure::Broken(why)) => Err(refused(
            tripoley_table::protocol::RecordProblem::NotARecord,
            why,
        )),
    }
}

/// Builds what the bots and the hint build at their first use (the poker
/// evaluator's and the heuristic's tables, Napalm's strength tables): a
/// worker does it while the player reads the page, so the first bot's move
/// takes no longer than the others (measured in Node: 0.7 s the first time).
#[wasm_bindgen]
pub fn warm() {
    let create = CreateTable {
        seats: Some(3),
        ..CreateTable::default()
    };
    let names = vec!["A".to_owned(), "B".to_owned(), "C".to_owned()];
    let bots = vec![None, Some(tripoley_bots::BotKind::Expert), None];
    if let Ok(mut table) = create
        .game_settings()
        .and_then(|s| Local::new(s, names.clone(), bots.clone(), 1, None))
    {
        while let Next::Bot(_) = table.next() {
            table.bot_acts();
        }
        if let Next::Person(seat) = table.next() {
            let _ = table.hint(seat);
        }
    }
    let napalm = CreateTable {
        game: Some(tripoley_table::protocol::GameKind::Napalm),
        ..create
    };
    if let Ok(mut table) = napalm
        .game_settings()
        .and_then(|s| Local::new(s, names, bots, 1, None))
    {
        table.bot_acts();
    }
}

/// The presets with their rules, as `GET /api/presets` answers.
#[wasm_bindgen]
pub fn presets() -> String {
    tripoley_table::protocol::presets().to_string()
}
