//! `VecTables`: the batched environment ([`crate::vector::Tables`]) for
//! Python. Every output goes into NumPy arrays the caller made once; the
//! GIL is released while Rust steps the tables.

use std::sync::{Mutex, MutexGuard, PoisonError};

use numpy::{
    PyArrayDescr, PyArrayDescrMethods, PyReadonlyArray1, PyReadonlyArray2, PyReadwriteArray1,
    PyReadwriteArray2, PyReadwriteArrayDyn, PyUntypedArray, PyUntypedArrayMethods,
};
use pyo3::prelude::*;
use rand_core::Rng;
use tripoley_bots::{BotKind, BotOptions, Budget};
use tripoley_cards::{GameRng, seeded_rng};

use super::{refused, rules_from_json};
use crate::observe::card_plane_numbers;
use crate::vector::{Autoreset, Config, Dense, Mask, Outcomes, Packed, RowFormat, Seating, Tables};

/// The row arrays of a call, as the environment writes them: observations
/// in any of the types an observation is written in (see [`crate::observe::Number`]:
/// `float32`, `uint16` or `uint8`) with `int8` masks, or both packed
/// (`uint8`, see [`Packed`]); a row per table.
pub(super) enum RowArrays<'py> {
    F32(PyReadwriteArray2<'py, f32>, PyReadwriteArray2<'py, i8>),
    U16(PyReadwriteArray2<'py, u16>, PyReadwriteArray2<'py, i8>),
    U8(PyReadwriteArray2<'py, u8>, PyReadwriteArray2<'py, i8>),
    Packed(PyReadwriteArray2<'py, u8>, PyReadwriteArray2<'py, u8>),
}

impl<'py> RowArrays<'py> {
    /// The arrays `observations` and `masks` of an environment that packs
    /// its rows or not. The observations' type is read from the array:
    /// trying each type in turn (a derived extraction) built an error for
    /// every type passed over, about 5 µs each, which for uint8 cost more
    /// than stepping a few tables.
    pub(super) fn extract(
        observations: &Bound<'py, PyAny>,
        masks: &Bound<'py, PyAny>,
        packed: bool,
    ) -> PyResult<RowArrays<'py>> {
        let py = observations.py();
        let dtype = observations.cast::<PyUntypedArray>()?.dtype();
        let is = |d: Bound<'py, PyArrayDescr>| dtype.is_equiv_to(&d);
        if packed {
            if !is(numpy::dtype::<u8>(py)) {
                return Err(refused(format!(
                    "packed observations are uint8, not {dtype}"
                )));
            }
            return Ok(RowArrays::Packed(
                observations.extract()?,
                masks
                    .extract()
                    .map_err(|_| refused("packed masks are uint8"))?,
            ));
        }
        let masks = || masks.extract::<PyReadwriteArray2<'py, i8>>();
        if is(numpy::dtype::<u8>(py)) {
            Ok(RowArrays::U8(observations.extract()?, masks()?))
        } else if is(numpy::dtype::<u16>(py)) {
            Ok(RowArrays::U16(observations.extract()?, masks()?))
        } else if is(numpy::dtype::<f32>(py)) {
            Ok(RowArrays::F32(observations.extract()?, masks()?))
        } else {
            Err(refused(format!(
                "observations must be float32, uint16 or uint8, not {dtype}"
            )))
        }
    }

    /// Calls `f` with the rows in their format (refused if an array is not
    /// contiguous).
    pub(super) fn with<R>(&mut self, f: impl RowsFn<R>) -> PyResult<R> {
        fn slices<'a, A: numpy::Element, B: numpy::Element>(
            obs: &'a mut PyReadwriteArray2<'_, A>,
            masks: &'a mut PyReadwriteArray2<'_, B>,
        ) -> PyResult<(&'a mut [A], &'a mut [B])> {
            Ok((
                obs.as_slice_mut().map_err(refused)?,
                masks.as_slice_mut().map_err(refused)?,
            ))
        }
        Ok(match self {
            RowArrays::F32(o, m) => f.call::<Dense<f32>>(slices(o, m)?),
            RowArrays::U16(o, m) => f.call::<Dense<u16>>(slices(o, m)?),
            RowArrays::U8(o, m) => f.call::<Dense<u8>>(slices(o, m)?),
            RowArrays::Packed(o, m) => f.call::<Packed>(slices(o, m)?),
        })
    }
}

/// Work on the rows of whichever [`RowFormat`] (a closure cannot be
/// generic over it).
pub(super) trait RowsFn<R> {
    fn call<F: RowFormat>(self, rows: (&mut [F::Obs], &mut [F::Mask])) -> R;
}

/// Many Tripoley tables stepped in one call (see `tripoley.vector`).
#[pyclass(module = "tripoley._tripoley")]
pub struct VecTables {
    /// Locked while a step runs without the GIL (a pyclass is shared between
    /// threads; the bots are `Send` only).
    tables: Mutex<Tables>,
    threads: usize,
    /// Tables (read without the lock).
    num_envs: usize,
    /// `sample_actions`' randomness (from the seed, apart from the tables').
    policy_rng: GameRng,
    /// `sample_actions`' draws, one per table (kept to be written again).
    draws: Vec<u32>,
    /// Whether rows are packed (see [`Packed`]).
    packed: bool,
}

#[pymethods]
impl VecTables {
    /// `num_envs` tables of `players` under these rules (JSON), the learning
    /// seat `seat`, `bots` (one kind per other seat) at the others, or
    /// with `seat` None the learner at every seat (self-play, `bots`
    /// empty); table `i` deals from seeds drawn from `seed`; `threads`
    /// runs at once; `packed`: rows packed into bits (see [`Packed`]);
    /// `next_step`: a finished game is dealt again at the table's next
    /// step, not in the step that ended it (see [`Autoreset`]).
    #[new]
    #[pyo3(signature = (rules_json, players, num_envs, bots, seat = Some(0), seed = 0,
                        threads = 1, max_steps = 10_000, illegal_reward = -1.0,
                        bot_playouts = 50, packed = false, next_step = false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        rules_json: &str,
        players: usize,
        num_envs: usize,
        bots: Vec<String>,
        seat: Option<u8>,
        seed: u64,
        threads: usize,
        max_steps: u32,
        illegal_reward: f32,
        bot_playouts: u32,
        packed: bool,
        next_step: bool,
    ) -> PyResult<VecTables> {
        let mut config = config(
            rules_json,
            players,
            num_envs,
            bots,
            seat,
            threads,
            max_steps,
            illegal_reward,
            bot_playouts,
        )?;
        if next_step {
            config.autoreset = Autoreset::NextStep;
        }
        let tables = py
            .detach(|| Tables::new(config, num_envs, seed))
            .map_err(refused)?;
        Ok(VecTables {
            num_envs: tables.len(),
            tables: Mutex::new(tables),
            threads,
            policy_rng: seeded_rng(!seed),
            draws: Vec::new(),
            packed,
        })
    }

    /// Tables.
    #[getter]
    fn num_envs(&self) -> usize {
        self.num_envs
    }

    /// Elements in one observation row (bytes, when packed).
    #[getter]
    fn observation_size(&self) -> usize {
        let tables = self.lock();
        if self.packed {
            Packed::observation_size(tables.players())
        } else {
            tables.observation_size()
        }
    }

    /// The 0/1 card numbers an observation begins with (52 a plane): the
    /// bits a packed row begins with.
    #[getter]
    fn card_plane_numbers(&self) -> usize {
        card_plane_numbers(self.lock().players())
    }

    /// Integers in the action space.
    #[getter]
    fn num_actions(&self) -> usize {
        self.lock().num_actions()
    }

    /// Elements in one mask row (bytes of bits, when packed).
    #[getter]
    fn mask_size(&self) -> usize {
        let actions = self.lock().num_actions();
        if self.packed {
            u8::mask_size(actions)
        } else {
            i8::mask_size(actions)
        }
    }

    /// Writes every table's observation and mask into the arrays (a row
    /// each; observations in float32, uint16 or uint8 with int8 masks, or
    /// both packed in uint8).
    fn observe(&self, observations: &Bound<'_, PyAny>, masks: &Bound<'_, PyAny>) -> PyResult<()> {
        struct Observe<'a> {
            tables: &'a Tables,
        }
        impl RowsFn<PyResult<()>> for Observe<'_> {
            fn call<F: RowFormat>(
                self,
                (obs, masks): (&mut [F::Obs], &mut [F::Mask]),
            ) -> PyResult<()> {
                self.tables.observe::<F>(obs, masks).map_err(refused)
            }
        }
        let mut rows = RowArrays::extract(observations, masks, self.packed)?;
        let tables = self.lock();
        rows.with(Observe { tables: &tables })?
    }

    /// Deals the next game at every table whose game ended at the last step
    /// (`next_step` tables), writing its rows, and with `to_play` its seat:
    /// Gymnasium's `SAME_STEP` once the finished games' rows are kept.
    #[pyo3(signature = (observations, masks, to_play = None))]
    fn deal_finished(
        &self,
        observations: &Bound<'_, PyAny>,
        masks: &Bound<'_, PyAny>,
        mut to_play: Option<PyReadwriteArray1<'_, u8>>,
    ) -> PyResult<()> {
        struct Deal<'a, 'b> {
            tables: &'a mut Tables,
            to_play: &'b mut [u8],
        }
        impl RowsFn<PyResult<()>> for Deal<'_, '_> {
            fn call<F: RowFormat>(
                self,
                (obs, masks): (&mut [F::Obs], &mut [F::Mask]),
            ) -> PyResult<()> {
                self.tables
                    .deal_finished::<F>(obs, masks, self.to_play)
                    .map_err(refused)
            }
        }
        let to_play = match to_play.as_mut() {
            Some(seats) => seats.as_slice_mut().map_err(refused)?,
            None => &mut [],
        };
        let mut rows = RowArrays::extract(observations, masks, self.packed)?;
        let mut tables = self.lock();
        rows.with(Deal {
            tables: &mut tables,
            to_play,
        })?
    }

    /// A copy that plays on as this would (`copy.deepcopy`): every game
    /// played again from its seed, the generators where they are.
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyResult<VecTables> {
        let tables = self.lock();
        let copy = tables.duplicate().map_err(refused)?;
        Ok(VecTables {
            tables: Mutex::new(copy),
            threads: self.threads,
            num_envs: self.num_envs,
            policy_rng: self.policy_rng.clone(),
            draws: Vec::new(),
            packed: self.packed,
        })
    }

    /// Writes into `seats` the seat whose view each table's row holds (the
    /// seat to act, in self-play).
    fn to_play(&self, mut seats: PyReadwriteArray1<'_, u8>) -> PyResult<()> {
        let seats = seats.as_slice_mut().map_err(refused)?;
        let tables = self.lock();
        if seats.len() != tables.len() {
            return Err(refused("one seat per table"));
        }
        for (i, seat) in seats.iter_mut().enumerate() {
            *seat = tables.to_play(i);
        }
        Ok(())
    }

    /// Plays one action per table (the seat to act's), the bots, and
    /// deals finished games again; writes rewards (one per table, or a row
    /// of every seat's in self-play), the flags (terminated, truncated,
    /// illegal), the new observations and masks into the arrays, and with
    /// `to_play` the seat whose view each new row holds. Each thread
    /// writes its own tables' entries of every array.
    #[pyo3(signature = (actions, rewards, terminated, truncated, illegal, observations, masks,
                        to_play = None))]
    #[allow(clippy::too_many_arguments)]
    fn step(
        &mut self,
        py: Python<'_>,
        actions: PyReadonlyArray1<'_, i64>,
        mut rewards: PyReadwriteArrayDyn<'_, f32>,
        mut terminated: PyReadwriteArray1<'_, bool>,
        mut truncated: PyReadwriteArray1<'_, bool>,
        mut illegal: PyReadwriteArray1<'_, bool>,
        observations: &Bound<'_, PyAny>,
        masks: &Bound<'_, PyAny>,
        mut to_play: Option<PyReadwriteArray1<'_, u8>>,
    ) -> PyResult<()> {
        /// The step itself, the GIL released.
        struct Step<'a, 'py> {
            py: Python<'py>,
            tables: &'a Mutex<Tables>,
            actions: &'a [i64],
            outcomes: Outcomes<'a>,
            threads: usize,
        }
        impl RowsFn<Result<(), String>> for Step<'_, '_> {
            fn call<F: RowFormat>(
                self,
                (obs, masks): (&mut [F::Obs], &mut [F::Mask]),
            ) -> Result<(), String> {
                let Step {
                    py,
                    tables,
                    actions,
                    outcomes,
                    threads,
                } = self;
                py.detach(|| {
                    let mut tables = tables.lock().unwrap_or_else(PoisonError::into_inner);
                    tables.step::<F>(actions, outcomes, obs, masks, threads)
                })
            }
        }
        let outcomes = outcomes(
            &mut rewards,
            &mut terminated,
            &mut truncated,
            &mut illegal,
            to_play.as_mut(),
        )?;
        RowArrays::extract(observations, masks, self.packed)?
            .with(Step {
                py,
                tables: &self.tables,
                actions: actions.as_slice().map_err(refused)?,
                outcomes,
                threads: self.threads,
            })?
            .map_err(refused)
    }

    /// Writes into `actions` a uniformly random legal action of each row of
    /// `masks` (int8, or packed uint8 bits; a row with none gets -1): a
    /// random policy for the whole batch at the cost of reading the masks
    /// once, from the batch's own generator.
    fn sample_actions(
        &mut self,
        py: Python<'_>,
        masks: &Bound<'_, PyAny>,
        mut actions: PyReadwriteArray1<'_, i64>,
    ) -> PyResult<()> {
        let actions = actions.as_slice_mut().map_err(refused)?;
        // Drawn in table order whatever the threads, so a seed gives the
        // same actions on any number of them.
        self.draws.clear();
        self.draws
            .extend((0..actions.len()).map(|_| self.policy_rng.next_u32()));
        let (tables, draws, threads) = (&self.tables, &self.draws, self.threads);
        if self.packed {
            sample::<u8>(py, tables, masks, draws, actions, threads)
        } else {
            sample::<i8>(py, tables, masks, draws, actions, threads)
        }
    }

    /// Writes into `actions` the integer a bot of `kind` ("random",
    /// "heuristic", "expert") would play now for the seat to act at each
    /// table (-1 where the game has ended), its randomness from `seed`:
    /// a teacher's labels on the learner's positions. Changes no table.
    fn bot_actions(
        &self,
        py: Python<'_>,
        kind: &str,
        mut actions: PyReadwriteArray1<'_, i64>,
        seed: u64,
    ) -> PyResult<()> {
        let kind: BotKind = kind.parse().map_err(refused)?;
        let actions = actions.as_slice_mut().map_err(refused)?;
        let tables = &self.tables;
        py.detach(|| {
            let tables = tables.lock().unwrap_or_else(PoisonError::into_inner);
            tables.bot_actions(kind, seed, actions)
        })
        .map_err(refused)
    }

    /// Table `i`'s game so far, as a JSON record (to look at or replay).
    fn record(&self, i: usize) -> PyResult<String> {
        let tables = self.lock();
        if i >= tables.len() {
            return Err(refused(format!("there is no table {i}")));
        }
        Ok(super::json(&tables.record(i).map_err(refused)?))
    }
}

/// How the tables of an environment are made (refused with a reason),
/// and the threads it is given checked.
#[allow(clippy::too_many_arguments)]
fn config(
    rules_json: &str,
    players: usize,
    num_envs: usize,
    bots: Vec<String>,
    seat: Option<u8>,
    threads: usize,
    max_steps: u32,
    illegal_reward: f32,
    bot_playouts: u32,
) -> PyResult<Config> {
    if num_envs == 0 || num_envs > 1 << 20 {
        return Err(refused("num_envs must be between 1 and 1048576"));
    }
    if threads == 0 || threads > 1024 {
        return Err(refused("threads must be between 1 and 1024"));
    }
    let rules = rules_from_json(rules_json)?;
    let bots = bots
        .iter()
        .map(|k| k.parse::<BotKind>().map_err(refused))
        .collect::<PyResult<Vec<_>>>()?;
    let seating = match seat {
        Some(seat) => Seating::One { seat, bots },
        None if bots.is_empty() => Seating::Every,
        None => return Err(refused("no bots when the learner plays every seat")),
    };
    Ok(Config {
        rules,
        players,
        seating,
        bot_options: BotOptions {
            budget: Budget::playouts(bot_playouts),
            ..BotOptions::default()
        },
        max_steps,
        illegal_reward,
        autoreset: Autoreset::SameStep,
    })
}

/// What a `VecTables` hands to a pool ([`VecTables::take`]).
pub(super) struct Taken {
    pub tables: Tables,
    pub threads: usize,
    pub packed: bool,
    pub policy_rng: GameRng,
}

impl VecTables {
    /// Its tables and options, for a pool; it keeps no table.
    pub(super) fn take(&self) -> Taken {
        Taken {
            tables: self.lock().take(),
            threads: self.threads,
            packed: self.packed,
            policy_rng: self.policy_rng.clone(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Tables> {
        self.tables.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// [`VecTables::sample_actions`] for masks of `M` (see [`Mask`]).
/// The outcome arrays Python passes to a step (or a pool's receive) as the
/// slices Rust writes; without `to_play`, none of its seats are written.
pub(super) fn outcomes<'a>(
    rewards: &'a mut PyReadwriteArrayDyn<'_, f32>,
    terminated: &'a mut PyReadwriteArray1<'_, bool>,
    truncated: &'a mut PyReadwriteArray1<'_, bool>,
    illegal: &'a mut PyReadwriteArray1<'_, bool>,
    to_play: Option<&'a mut PyReadwriteArray1<'_, u8>>,
) -> PyResult<Outcomes<'a>> {
    Ok(Outcomes {
        rewards: rewards.as_slice_mut().map_err(refused)?,
        terminated: terminated.as_slice_mut().map_err(refused)?,
        truncated: truncated.as_slice_mut().map_err(refused)?,
        illegal: illegal.as_slice_mut().map_err(refused)?,
        to_play: match to_play {
            Some(seats) => seats.as_slice_mut().map_err(refused)?,
            None => &mut [],
        },
    })
}

fn sample<M: Mask + numpy::Element>(
    py: Python<'_>,
    tables: &Mutex<Tables>,
    masks: &Bound<'_, PyAny>,
    draws: &[u32],
    actions: &mut [i64],
    threads: usize,
) -> PyResult<()> {
    let masks = masks.extract::<PyReadonlyArray2<'_, M>>()?;
    let masks = masks.as_slice().map_err(refused)?;
    py.detach(|| {
        let mut tables = tables.lock().unwrap_or_else(PoisonError::into_inner);
        tables.sample_actions(masks, draws, actions, threads)
    })
    .map_err(refused)
}
