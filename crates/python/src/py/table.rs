//! `Table`: a game played in integers (see [`crate::space`]), what the
//! PettingZoo environment and the OpenSpiel game step. Observations and masks
//! come back as little-endian buffers for `numpy.frombuffer`.

use std::sync::Arc;

use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyList, PyTuple};
use rand_core::Rng;
use tripoley_cards::{GameRng, seeded_rng};
use tripoley_engine::Seat;

use tripoley_napalm::Pending as NapalmPending;

use super::out::Out;
use super::{action_index, json, napalm_rules_from_json, refused, rules_from_json};
use crate::int_game::IntGame;
use crate::napalm::{NapalmTable, napalm_action};
use crate::space::Step;
use crate::table::{Table as TripoleyTable, Turn};

/// OpenSpiel's player ids for chance and for the end.
const CHANCE: i64 = -1;
const TERMINAL: i64 = -4;

/// The game behind a `Table`.
// One per Python object: boxing the larger game would only add a pointer
// to follow on every step.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
pub(crate) enum AnyTable {
    Tripoley(TripoleyTable),
    Napalm(NapalmTable),
}

/// Runs `$body` with `$t` bound to the table, whichever game it is.
macro_rules! each {
    ($table:expr, $t:ident => $body:expr) => {
        match $table {
            AnyTable::Tripoley($t) => $body,
            AnyTable::Napalm($t) => $body,
        }
    };
}

/// What a table was made from: with its history, all a pickle holds.
struct Origin {
    rules_json: String,
    players: usize,
    seed: Option<u64>,
    napalm: bool,
}

/// A game played in integers.
#[pyclass(module = "tripoley._tripoley")]
#[derive(Clone)]
pub struct Table {
    pub(crate) inner: AnyTable,
    /// Shared by clones: a clone copies a pointer, not the rules' text.
    origin: Arc<Origin>,
    /// `(player, action)` for every integer played, chance (-1) included:
    /// OpenSpiel's history, so the Python state answers `history()` itself
    /// (its moves do not go through pyspiel's C++ `ApplyAction`), and what
    /// a pickle replays. Small numbers, as a clone copies them all: a seat
    /// or -1, and an integer of the action space (bids count chips, `u32`).
    history: Vec<(i8, u32)>,
    /// Moves made before this table was resampled, when its history does
    /// not replay it (see `resample`): it is as far into the game as the
    /// real one.
    moves_before: usize,
    /// Whether this table was resampled with a history that does not replay
    /// it: from a table with its own chance (its deals are not those of
    /// the seed a new table draws), or as the engine's sample alone.
    resampled: bool,
    /// Seeds drawn from `bot_rng` so far, which a pickle keeps.
    bot_draws: u64,
    /// Where a bot asked without a seed draws its randomness: a stream of
    /// its own, so that asking a bot never changes the game's deals (the
    /// table's chance generator).
    bot_rng: GameRng,
}

/// The bots' generator of a table dealt from `seed` (0 for outside chance):
/// the stream `seed` starts, jumped 2^128 draws ahead, so it never meets the
/// deals drawn from the same seed.
fn bot_rng(seed: Option<u64>) -> GameRng {
    let mut rng = seeded_rng(seed.unwrap_or(0));
    rng.jump();
    rng
}

#[pymethods]
impl Table {
    /// A new table: rules as JSON (Napalm's with `napalm`); chance from
    /// `seed`, or drawn outcome by outcome from outside when `seed` is None.
    #[new]
    #[pyo3(signature = (rules_json, players, seed = None, napalm = false))]
    pub(crate) fn new(
        rules_json: &str,
        players: usize,
        seed: Option<u64>,
        napalm: bool,
    ) -> PyResult<Table> {
        let inner = if napalm {
            let rules = napalm_rules_from_json(rules_json)?;
            AnyTable::Napalm(NapalmTable::new(rules, players, seed).map_err(refused)?)
        } else {
            let rules = rules_from_json(rules_json)?;
            AnyTable::Tripoley(TripoleyTable::new(rules, players, seed).map_err(refused)?)
        };
        Ok(Table {
            inner,
            origin: Arc::new(Origin {
                rules_json: rules_json.to_owned(),
                players,
                seed,
                napalm,
            }),
            history: Vec::new(),
            moves_before: 0,
            resampled: false,
            bot_draws: 0,
            bot_rng: bot_rng(seed),
        })
    }

    /// Seats.
    #[getter]
    fn players(&self) -> usize {
        each!(&self.inner, t => t.players())
    }

    /// Integers in the action space.
    #[getter]
    pub(crate) fn num_actions(&self) -> usize {
        each!(&self.inner, t => t.num_actions())
    }

    /// Numbers in an observation.
    #[getter]
    pub(crate) fn observation_size(&self) -> usize {
        each!(&self.inner, t => t.observation_size())
    }

    /// Chips each seat started with.
    #[getter]
    pub(crate) fn starting_chips(&self) -> u32 {
        each!(&self.inner, t => t.starting_chips())
    }

    /// An upper bound on the steps of a game, chance included.
    #[getter]
    fn max_length(&self) -> usize {
        each!(&self.inner, t => t.max_length())
    }

    /// Who is to act: a seat, -1 for chance, -4 once the game is over (the
    /// numbers OpenSpiel uses).
    pub(crate) fn current(&self) -> i64 {
        match each!(&self.inner, t => t.turn()) {
            Turn::Seat(s) => i64::from(s),
            Turn::Chance => CHANCE,
            Turn::Over => TERMINAL,
        }
    }

    /// The cards picked so far into the poker five being chosen (Tripoley),
    /// which only the seat to act may know.
    fn picked(&self) -> Vec<String> {
        match &self.inner {
            AnyTable::Tripoley(t) => t.picked().iter().map(|c| c.to_string()).collect(),
            AnyTable::Napalm(_) => Vec::new(),
        }
    }

    /// The legal integers of the seat to act, ascending.
    pub(crate) fn legal(&self) -> Vec<usize> {
        each!(&self.inner, t => t.legal())
    }

    /// The legal integers as a mask of bytes, one per integer.
    fn mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let n = self.num_actions();
        PyBytes::new_with(py, n, |buf| {
            for a in self.legal() {
                buf[a] = 1;
            }
            Ok(())
        })
        .expect("a buffer of the space's size")
    }

    /// Plays integer `action` for the seat to act (raises if it is not an
    /// integer of the space, see [`action_index`], or not legal).
    fn step(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        self.play(action_index(action)?)
    }

    /// Plays integer `a` for the seat to act (raises if it is not legal).
    pub(crate) fn play(&mut self, a: usize) -> PyResult<()> {
        let seat = self.current();
        each!(&mut self.inner, t => t.act(a)).map_err(refused)?;
        self.log(seat, a);
        Ok(())
    }

    /// The equally likely outcomes of the next chance (outside chance only).
    fn chance_outcomes(&self) -> Vec<usize> {
        each!(&self.inner, t => t.chance_outcomes())
    }

    /// Applies an outcome of chance (an integer, see [`action_index`]).
    fn apply_chance(&mut self, outcome: &Bound<'_, PyAny>) -> PyResult<()> {
        self.chance_outcome(action_index(outcome)?)
    }

    /// Applies outcome `outcome` of chance.
    fn chance_outcome(&mut self, outcome: usize) -> PyResult<()> {
        each!(&mut self.inner, t => t.chance(outcome)).map_err(refused)?;
        self.log(CHANCE, outcome);
        Ok(())
    }

    /// Outcomes of the current chance drawn so far.
    fn chance_progress(&self) -> usize {
        each!(&self.inner, t => t.chance_progress())
    }

    /// OpenSpiel's `chance_outcomes()`: `(outcome, probability)` pairs, the
    /// tuples made once per process (a deck dealt card by card asks for
    /// them 51 times a deal).
    fn chance_pairs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let outcomes = self.chance_outcomes();
        let pairs = CHANCE_PAIRS.get_or_try_init(py, || chance_pair_table(py))?;
        let row = &pairs[outcomes.len()];
        PyList::new(py, outcomes.iter().map(|&o| row[o].bind(py)))
    }

    /// OpenSpiel's `legal_actions(player)`, as its C++ answers: the
    /// outcomes at chance (whoever asks), nothing at the end, the seat to
    /// act's integers (nothing for another player).
    #[pyo3(signature = (player = None))]
    fn legal_actions(&self, player: Option<i64>) -> Vec<usize> {
        match self.current() {
            CHANCE => self.chance_outcomes(),
            TERMINAL => Vec::new(),
            seat if player.is_none_or(|p| p == seat) => self.legal(),
            _ => Vec::new(),
        }
    }

    /// Applies `a`: an outcome at chance, else the seat to act's integer.
    fn apply(&mut self, a: usize) -> PyResult<()> {
        match self.current() {
            CHANCE => self.chance_outcome(a),
            _ => self.play(a),
        }
    }

    /// Every integer played, chance included, in order (OpenSpiel's
    /// `history()`; a resampled world's replays it from a new table).
    fn history(&self) -> Vec<u32> {
        self.history.iter().map(|&(_, a)| a).collect()
    }

    /// `(player, action)` for every integer played (chance is -1).
    fn full_history(&self) -> Vec<(i8, u32)> {
        self.history.clone()
    }

    /// How many integers were played since the start of the game.
    fn moves(&self) -> usize {
        self.moves_before + self.history.len()
    }

    /// Whether `history()` played from a new table of these rules gives this
    /// table (false for a world resampled without one, see `resample`).
    #[getter]
    fn history_replays(&self) -> bool {
        !self.resampled
    }

    /// Whether the seat to act is chance.
    fn is_chance(&self) -> bool {
        self.current() == CHANCE
    }

    /// Whether the game is over.
    fn is_over(&self) -> bool {
        self.current() == TERMINAL
    }

    /// Chips won (negative: lost) by each seat, once the game is over
    /// (zeros before: OpenSpiel's terminal returns).
    fn returns(&self) -> Vec<f64> {
        let start = f64::from(self.starting_chips());
        let over = self.is_over();
        self.stacks()
            .into_iter()
            .map(|s| if over { f64::from(s) - start } else { 0.0 })
            .collect()
    }

    /// `seat`'s observation: float32 numbers, little-endian.
    fn observation<'py>(&self, py: Python<'py>, seat: Seat) -> PyResult<Bound<'py, PyBytes>> {
        self.check_seat(seat)?;
        Ok(floats(py, &self.observation_vec(seat)))
    }

    /// What everyone knows, as float32 numbers (little-endian) laid out as
    /// `seat`'s observation: the numbers only `seat` knows are zero.
    fn public_observation<'py>(
        &self,
        py: Python<'py>,
        seat: Seat,
    ) -> PyResult<Bound<'py, PyBytes>> {
        self.check_seat(seat)?;
        let mut obs = vec![0.0; self.observation_size()];
        each!(&self.inner, t => t.observe_public_into(seat, &mut obs));
        Ok(floats(py, &obs))
    }

    /// Writes `seat`'s observation into `out`, a float32 array of its size
    /// (OpenSpiel's observer tensor): no bytes object, no numpy call.
    fn observe_into_array(
        &self,
        py: Python<'_>,
        seat: Seat,
        out: &Bound<'_, PyArray1<f32>>,
    ) -> PyResult<()> {
        self.check_seat(seat)?;
        let mut obs = vec![0.0; self.observation_size()];
        self.observe_into(seat, &mut obs);
        Out::new(out)?.write(py, &obs)
    }

    /// Everything `seat` knows, as text (equal exactly when `seat` cannot
    /// tell two states apart by its view).
    fn information(&self, seat: Seat) -> PyResult<String> {
        self.check_seat(seat)?;
        Ok(each!(&self.inner, t => t.information(seat)))
    }

    /// `seat`'s view as JSON (a spectator's for None).
    #[pyo3(signature = (seat = None))]
    fn view(&self, seat: Option<Seat>) -> PyResult<String> {
        if let Some(s) = seat {
            self.check_seat(s)?;
        }
        Ok(each!(&self.inner, t => t.view_json(seat)))
    }

    /// Each seat's chips.
    pub(crate) fn stacks(&self) -> Vec<u32> {
        each!(&self.inner, t => t.stacks())
    }

    /// Deals (Napalm: hands) finished.
    pub(crate) fn deals_done(&self) -> u32 {
        each!(&self.inner, t => t.deals_done())
    }

    /// What integer `a` does now, in the engine's JSON form: an action, or
    /// `{"pick": card}` for a card picked into a five (None if not legal).
    fn engine_action(&self, a: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        let a = action_index(a)?;
        Ok(match &self.inner {
            AnyTable::Tripoley(t) => t.decode(a).map(|step| match step {
                Step::Act(action) => json(&action),
                Step::Pick(card) => json(&serde_json::json!({ "pick": card })),
            }),
            AnyTable::Napalm(t) => match t.game().pending() {
                NapalmPending::Decide { decision, .. } => {
                    napalm_action(decision, a).map(|action| json(&action))
                }
                _ => None,
            },
        })
    }

    /// The engine's own list of legal actions now (JSON), to check the mask.
    fn engine_legal(&self) -> String {
        match &self.inner {
            AnyTable::Tripoley(t) => match t.turn() {
                Turn::Seat(seat) => json(&t.game().legal(seat)),
                _ => "[]".into(),
            },
            AnyTable::Napalm(t) => match t.game().pending() {
                NapalmPending::Decide { decision, .. } => json(&decision.actions()),
                _ => "[]".into(),
            },
        }
    }

    /// Integer `a` in words, at the current decision.
    fn describe(&self, a: &Bound<'_, PyAny>) -> PyResult<String> {
        let a = action_index(a)?;
        Ok(each!(&self.inner, t => t.describe(a)))
    }

    /// The record of the game so far, as JSON (replayable in Rust).
    fn record(&self) -> String {
        each!(&self.inner, t => t.record_json())
    }

    /// The table in words, as `seat` sees it (a spectator for None).
    #[pyo3(signature = (seat = None))]
    fn render(&self, seat: Option<Seat>) -> PyResult<String> {
        if let Some(s) = seat {
            self.check_seat(s)?;
        }
        Ok(each!(&self.inner, t => t.render(seat)))
    }

    /// A table in the same information state for `seat`, every card hidden
    /// from it dealt again consistently with what it has seen, others'
    /// hidden choices made again. Its history plays it from a new table
    /// (see `crate::world`): the sampled deal as chance's draws, the sampled
    /// choices; a table with its own chance keeps the seats' integers only.
    /// When no sample replays (a rare Michigan position under M9), the
    /// engine's sample with its moves counted on from the real game's and
    /// no history before them.
    fn resample(&self, seat: Seat, seed: u64) -> PyResult<Table> {
        self.check_seat(seat)?;
        let (inner, moves) = match &self.inner {
            AnyTable::Tripoley(t) => {
                let (world, moves) = t.resample(seat, seed);
                (AnyTable::Tripoley(world), moves)
            }
            AnyTable::Napalm(t) => {
                let (world, moves) = t.resample(seat, seed);
                (AnyTable::Napalm(world), moves)
            }
        };
        let own_chance = self.origin.seed.is_some();
        let (history, moves_before) = match moves {
            Some(moves) => {
                let history: Vec<(i8, u32)> = moves
                    .into_iter()
                    .filter(|(by, _)| by.is_some() || !own_chance)
                    .map(|(by, a)| entry(by.map_or(CHANCE, i64::from), a))
                    .collect();
                (history, 0)
            }
            None => (Vec::new(), self.moves()),
        };
        Ok(Table {
            inner,
            origin: Arc::clone(&self.origin),
            resampled: own_chance || moves_before > 0,
            history,
            moves_before,
            bot_draws: self.bot_draws,
            bot_rng: self.bot_rng.clone(),
        })
    }

    /// What pickle passes to `Table(...)` to make the table again.
    fn __getnewargs__(&self) -> (String, usize, Option<u64>, bool) {
        let o = &*self.origin;
        (o.rules_json.clone(), o.players, o.seed, o.napalm)
    }

    /// What pickle keeps besides: the integers played and the bots' draws.
    /// A world resampled from a table with its own chance has no history
    /// that replays it: pickle the table it was sampled from, and the seat
    /// and seed.
    fn __getstate__(&self) -> PyResult<(Vec<(i8, u32)>, u64)> {
        if self.resampled {
            return Err(refused(
                "a resampled table cannot be pickled: pickle the table it was sampled from (and the seat and seed)",
            ));
        }
        Ok((self.history.clone(), self.bot_draws))
    }

    /// Plays the pickled integers again on the new table.
    fn __setstate__(&mut self, state: (Vec<(i8, u32)>, u64)) -> PyResult<()> {
        let (history, bot_draws) = state;
        if !self.history.is_empty() {
            return Err(refused("only a new table takes a pickled state"));
        }
        for (player, a) in history {
            if i64::from(player) != self.current() {
                return Err(refused("the pickled moves do not replay: not this game's"));
            }
            self.apply(a as usize)?;
        }
        for _ in 0..bot_draws {
            self.bot_seed();
        }
        Ok(())
    }

    /// An independent copy.
    fn clone(&self) -> Table {
        Clone::clone(self)
    }

    fn __copy__(&self) -> Table {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Table {
        Clone::clone(self)
    }
}

/// A history's entry: integer `a` played by `player` (a seat, or chance).
fn entry(player: i64, a: usize) -> (i8, u32) {
    (
        i8::try_from(player).expect("a seat or chance"),
        u32::try_from(a).expect("a played integer is in the space"),
    )
}

/// `numbers` as little-endian float32 bytes.
fn floats<'py>(py: Python<'py>, numbers: &[f32]) -> Bound<'py, PyBytes> {
    PyBytes::new_with(py, numbers.len() * 4, |buf| {
        for (chunk, x) in buf.chunks_exact_mut(4).zip(numbers) {
            chunk.copy_from_slice(&x.to_le_bytes());
        }
        Ok(())
    })
    .expect("a buffer of the numbers' size")
}

/// `(outcome, 1/n)` tuples for every outcome below 52 and every count n of
/// equally likely outcomes (a deck: 52 .. 2 cards; four suits; eleven
/// Sequence starts), indexed `[n][outcome]`.
static CHANCE_PAIRS: PyOnceLock<Vec<Vec<Py<PyTuple>>>> = PyOnceLock::new();

fn chance_pair_table(py: Python<'_>) -> PyResult<Vec<Vec<Py<PyTuple>>>> {
    (0..=52_usize)
        .map(|n| {
            let p = if n == 0 { 0.0 } else { 1.0 / n as f64 };
            (0..52_usize)
                .map(|o| {
                    Ok(PyTuple::new(
                        py,
                        [
                            o.into_pyobject(py)?.into_any(),
                            p.into_pyobject(py)?.into_any(),
                        ],
                    )?
                    .unbind())
                })
                .collect()
        })
        .collect()
}

impl Table {
    /// `seat`'s observation (see [`crate::observe`]).
    fn observation_vec(&self, seat: Seat) -> Vec<f32> {
        each!(&self.inner, t => t.observation(seat))
    }

    /// Writes `seat`'s observation into `out` (of its size; every number).
    pub(crate) fn observe_into(&self, seat: Seat, out: &mut [f32]) {
        each!(&self.inner, t => t.observe_into(seat, out));
    }

    fn check_seat(&self, seat: Seat) -> PyResult<()> {
        if usize::from(seat) < self.players() {
            Ok(())
        } else {
            Err(refused(format!(
                "there is no seat {seat} at a table of {}",
                self.players()
            )))
        }
    }

    /// A seed for a bot's next choice, from the bots' own generator.
    pub(crate) fn bot_seed(&mut self) -> u64 {
        self.bot_draws += 1;
        self.bot_rng.next_u64()
    }

    /// Logs integer `a` played by `player` (a seat, or chance).
    fn log(&mut self, player: i64, a: usize) {
        self.history.push(entry(player, a));
    }
}
