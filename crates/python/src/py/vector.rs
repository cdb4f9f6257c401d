//! `VecTables`: the batched environment ([`crate::vector::Tables`]) for
//! Python. Every output goes into NumPy arrays the caller made once; the
//! GIL is released while Rust steps the tables.

use std::sync::{Mutex, MutexGuard, PoisonError};

use numpy::{
    PyArrayDescrMethods, PyReadonlyArray1, PyReadwriteArray1, PyReadwriteArray2,
    PyReadwriteArrayDyn, PyUntypedArray, PyUntypedArrayMethods,
};
use pyo3::prelude::*;
use rand_core::Rng;
use tripoley_bots::{BotKind, BotOptions, Budget};
use tripoley_cards::{GameRng, seeded_rng};

use super::{refused, rules_from_json};
use crate::observe::Number;
use crate::vector::{Config, Outcome, Seating, Tables};

/// An observation array in any of the types an observation is written in
/// (see [`Number`]): `float32`, `uint16` or `uint8`, a row per table.
enum Rows<'py> {
    F32(PyReadwriteArray2<'py, f32>),
    U16(PyReadwriteArray2<'py, u16>),
    U8(PyReadwriteArray2<'py, u8>),
}

impl<'a, 'py> FromPyObject<'a, 'py> for Rows<'py> {
    type Error = PyErr;

    /// Chosen by the array's type: trying each type in turn (a derived
    /// extraction) built an error for every type passed over, about 5 µs
    /// each, which for uint8 cost more than stepping a few tables.
    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Rows<'py>> {
        let py = obj.py();
        let dtype = obj.cast::<PyUntypedArray>()?.dtype();
        if dtype.is_equiv_to(&numpy::dtype::<u8>(py)) {
            Ok(Rows::U8(obj.extract()?))
        } else if dtype.is_equiv_to(&numpy::dtype::<u16>(py)) {
            Ok(Rows::U16(obj.extract()?))
        } else if dtype.is_equiv_to(&numpy::dtype::<f32>(py)) {
            Ok(Rows::F32(obj.extract()?))
        } else {
            Err(refused(format!(
                "observations must be float32, uint16 or uint8, not {dtype}"
            )))
        }
    }
}

impl Rows<'_> {
    /// Calls `f` with the array's numbers (refused if not contiguous).
    fn with<R>(&mut self, f: impl RowsFn<R>) -> PyResult<R> {
        Ok(match self {
            Rows::F32(a) => f.call(a.as_slice_mut().map_err(refused)?),
            Rows::U16(a) => f.call(a.as_slice_mut().map_err(refused)?),
            Rows::U8(a) => f.call(a.as_slice_mut().map_err(refused)?),
        })
    }
}

/// Work on observation rows of whichever [`Number`] type (a closure cannot
/// be generic over it).
trait RowsFn<R> {
    fn call<T: Number>(self, rows: &mut [T]) -> R;
}

/// Many Tripoley tables stepped in one call (see `tripoley.vector`).
#[pyclass(module = "tripoley._tripoley")]
pub struct VecTables {
    /// Locked while a step runs without the GIL (a pyclass is shared between
    /// threads; the bots are `Send` only).
    tables: Mutex<Tables>,
    threads: usize,
    /// Where a step's outcomes go before the reward and flag arrays.
    outcomes: Vec<Outcome>,
    /// The learning seat (`None`: every seat, self-play).
    seat: Option<u8>,
    /// Rewards per table: 1 (the learning seat's) or every seat's (self-play).
    rewards_per_table: usize,
    /// `sample_actions`' randomness (from the seed, apart from the tables').
    policy_rng: GameRng,
    /// `sample_actions`' draws, one per table (kept to be written again).
    draws: Vec<u32>,
}

#[pymethods]
impl VecTables {
    /// `num_envs` tables of `players` under these rules (JSON), the learning
    /// seat `seat`, `bots` (one kind per other seat) at the others, or
    /// with `seat` None the learner at every seat (self-play, `bots`
    /// empty); table `i` deals from seeds drawn from `seed`; `threads`
    /// runs at once.
    #[new]
    #[pyo3(signature = (rules_json, players, num_envs, bots, seat = Some(0), seed = 0,
                        threads = 1, max_steps = 10_000, illegal_reward = -1.0,
                        bot_playouts = 50))]
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
    ) -> PyResult<VecTables> {
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
        let rewards_per_table = if seat.is_some() { 1 } else { players };
        let config = Config {
            rules,
            players,
            seating,
            bot_options: BotOptions {
                budget: Budget::playouts(bot_playouts),
                ..BotOptions::default()
            },
            max_steps,
            illegal_reward,
        };
        let tables = py
            .detach(|| Tables::new(config, num_envs, seed))
            .map_err(refused)?;
        Ok(VecTables {
            outcomes: vec![Outcome::default(); tables.len()],
            seat,
            rewards_per_table,
            tables: Mutex::new(tables),
            threads,
            policy_rng: seeded_rng(!seed),
            draws: Vec::new(),
        })
    }

    /// Tables.
    #[getter]
    fn num_envs(&self) -> usize {
        self.outcomes.len()
    }

    /// Numbers in one observation.
    #[getter]
    fn observation_size(&self) -> usize {
        self.lock().observation_size()
    }

    /// Integers in the action space.
    #[getter]
    fn num_actions(&self) -> usize {
        self.lock().num_actions()
    }

    /// Writes every table's observation and mask into the arrays (a row
    /// each; observations in float32, uint16 or uint8).
    fn observe(
        &self,
        mut observations: Rows<'_>,
        mut masks: PyReadwriteArray2<'_, i8>,
    ) -> PyResult<()> {
        struct Observe<'a> {
            tables: &'a Tables,
            masks: &'a mut [i8],
        }
        impl RowsFn<PyResult<()>> for Observe<'_> {
            fn call<T: Number>(self, obs: &mut [T]) -> PyResult<()> {
                let tables = self.tables;
                if obs.len() != tables.len() * tables.observation_size()
                    || self.masks.len() != tables.len() * tables.num_actions()
                {
                    return Err(refused(
                        "the arrays must have a row per table of the right size",
                    ));
                }
                tables.observe(obs, self.masks);
                Ok(())
            }
        }
        let masks = masks.as_slice_mut().map_err(refused)?;
        let tables = self.lock();
        observations.with(Observe {
            tables: &tables,
            masks,
        })?
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
    /// illegal), the new observations and masks into the arrays.
    #[allow(clippy::too_many_arguments)]
    fn step(
        &mut self,
        py: Python<'_>,
        actions: PyReadonlyArray1<'_, i64>,
        mut rewards: PyReadwriteArrayDyn<'_, f32>,
        mut terminated: PyReadwriteArray1<'_, bool>,
        mut truncated: PyReadwriteArray1<'_, bool>,
        mut illegal: PyReadwriteArray1<'_, bool>,
        mut observations: Rows<'_>,
        mut masks: PyReadwriteArray2<'_, i8>,
    ) -> PyResult<()> {
        /// The step itself, the GIL released.
        struct Step<'a, 'py> {
            py: Python<'py>,
            tables: &'a Mutex<Tables>,
            actions: &'a [i64],
            outcomes: &'a mut [Outcome],
            masks: &'a mut [i8],
            threads: usize,
        }
        impl RowsFn<Result<(), String>> for Step<'_, '_> {
            fn call<T: Number>(self, obs: &mut [T]) -> Result<(), String> {
                let Step {
                    py,
                    tables,
                    actions,
                    outcomes,
                    masks,
                    threads,
                } = self;
                py.detach(|| {
                    let mut tables = tables.lock().unwrap_or_else(PoisonError::into_inner);
                    tables.step(actions, outcomes, obs, masks, threads)
                })
            }
        }
        observations
            .with(Step {
                py,
                tables: &self.tables,
                actions: actions.as_slice().map_err(refused)?,
                outcomes: &mut self.outcomes,
                masks: masks.as_slice_mut().map_err(refused)?,
                threads: self.threads,
            })?
            .map_err(refused)?;
        let rewards = rewards.as_slice_mut().map_err(refused)?;
        let terminated = terminated.as_slice_mut().map_err(refused)?;
        let truncated = truncated.as_slice_mut().map_err(refused)?;
        let illegal = illegal.as_slice_mut().map_err(refused)?;
        let (n, per) = (self.outcomes.len(), self.rewards_per_table);
        if [terminated.len(), truncated.len(), illegal.len()] != [n; 3] || rewards.len() != n * per
        {
            return Err(refused(
                "the reward and flag arrays must have one entry (rewards: one row) per table",
            ));
        }
        for (i, o) in self.outcomes.iter().enumerate() {
            match self.seat {
                Some(seat) => rewards[i] = o.rewards[usize::from(seat)],
                None => rewards[i * per..(i + 1) * per].copy_from_slice(&o.rewards[..per]),
            }
            terminated[i] = o.terminated;
            truncated[i] = o.truncated;
            illegal[i] = o.illegal;
        }
        Ok(())
    }

    /// Writes into `actions` a uniformly random legal action of each row of
    /// `masks` (a row with none gets 0): a random policy for the whole batch
    /// at the cost of reading the masks once, from the batch's own generator.
    fn sample_actions(
        &mut self,
        py: Python<'_>,
        masks: numpy::PyReadonlyArray2<'_, i8>,
        mut actions: PyReadwriteArray1<'_, i64>,
    ) -> PyResult<()> {
        let masks = masks.as_slice().map_err(refused)?;
        let actions = actions.as_slice_mut().map_err(refused)?;
        // Drawn in table order whatever the threads, so a seed gives the
        // same actions on any number of them.
        self.draws.clear();
        self.draws
            .extend((0..actions.len()).map(|_| self.policy_rng.next_u32()));
        let (tables, draws, threads) = (&self.tables, &self.draws, self.threads);
        py.detach(|| {
            let mut tables = tables.lock().unwrap_or_else(PoisonError::into_inner);
            tables.sample_actions(masks, draws, actions, threads)
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

impl VecTables {
    fn lock(&self) -> MutexGuard<'_, Tables> {
        self.tables.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
