//! `VecPool`: the tables in batches stepped asynchronously
//! ([`crate::pool::Pool`]) for Python's `send`/`recv`. The rows go into
//! the caller's pool-wide NumPy arrays; the GIL is released while Rust
//! waits for a batch or steps one.

use std::sync::{Mutex, PoisonError};

use numpy::{PyReadonlyArray1, PyReadonlyArray2, PyReadwriteArray1, PyReadwriteArrayDyn};
use pyo3::prelude::*;
use rand_core::Rng;
use tripoley_cards::{GameRng, seeded_rng};

use super::refused;
use super::vector::{RowArrays, RowsFn, config};
use crate::pool::Pool;
use crate::vector::{Mask, Outcomes, RowFormat, Tables, pick_actions};

/// Many Tripoley tables in batches, stepped while the learner chooses (see
/// `tripoley.vector.TripoleyEnvPool`).
#[pyclass(module = "tripoley._tripoley")]
pub struct VecPool {
    /// Locked while Rust works without the GIL.
    pool: Mutex<Pool>,
    packed: bool,
    batch_size: usize,
    /// Elements of a mask row.
    mask_size: usize,
    /// `sample_actions`' randomness (from the seed, apart from the tables').
    policy_rng: GameRng,
    draws: Vec<u32>,
}

#[pymethods]
impl VecPool {
    /// As `VecTables`, the tables cut into batches of `batch_size` that
    /// `threads` threads step.
    #[new]
    #[pyo3(signature = (rules_json, players, num_envs, bots, batch_size, seat = Some(0), seed = 0,
                        threads = 1, max_steps = 10_000, illegal_reward = -1.0,
                        bot_playouts = 50, packed = false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        rules_json: &str,
        players: usize,
        num_envs: usize,
        bots: Vec<String>,
        batch_size: usize,
        seat: Option<u8>,
        seed: u64,
        threads: usize,
        max_steps: u32,
        illegal_reward: f32,
        bot_playouts: u32,
        packed: bool,
    ) -> PyResult<VecPool> {
        if threads == 0 || threads > 1024 {
            return Err(refused("threads must be between 1 and 1024"));
        }
        let config = config(
            rules_json,
            players,
            num_envs,
            bots,
            seat,
            max_steps,
            illegal_reward,
            bot_playouts,
        )?;
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        let threads = threads.min(cores);
        let (pool, actions) = py
            .detach(|| -> Result<(Pool, usize), String> {
                let tables = Tables::new(config, num_envs, seed)?;
                let actions = tables.num_actions();
                Ok((Pool::new(tables, batch_size, threads)?, actions))
            })
            .map_err(refused)?;
        Ok(VecPool {
            pool: Mutex::new(pool),
            packed,
            batch_size,
            mask_size: if packed {
                u8::mask_size(actions)
            } else {
                i8::mask_size(actions)
            },
            policy_rng: seeded_rng(!seed),
            draws: Vec::new(),
        })
    }

    /// Waits for a batch ready (the GIL released), writes its rows into the
    /// pool-wide arrays at its tables' places and returns its first table.
    #[allow(clippy::too_many_arguments)]
    fn recv(
        &self,
        py: Python<'_>,
        mut rewards: PyReadwriteArrayDyn<'_, f32>,
        mut terminated: PyReadwriteArray1<'_, bool>,
        mut truncated: PyReadwriteArray1<'_, bool>,
        mut illegal: PyReadwriteArray1<'_, bool>,
        mut to_play: PyReadwriteArray1<'_, u8>,
        observations: &Bound<'_, PyAny>,
        masks: &Bound<'_, PyAny>,
    ) -> PyResult<usize> {
        /// The receiving itself, the GIL released.
        struct Recv<'a, 'py> {
            py: Python<'py>,
            pool: &'a Mutex<Pool>,
            outcomes: Outcomes<'a>,
        }
        impl RowsFn<Result<usize, String>> for Recv<'_, '_> {
            fn call<F: RowFormat>(
                self,
                (obs, masks): (&mut [F::Obs], &mut [F::Mask]),
            ) -> Result<usize, String> {
                let Recv {
                    py,
                    pool,
                    mut outcomes,
                } = self;
                py.detach(|| {
                    let mut pool = pool.lock().unwrap_or_else(PoisonError::into_inner);
                    pool.recv_into::<F>(&mut outcomes, obs, masks)
                })
            }
        }
        let outcomes = Outcomes {
            rewards: rewards.as_slice_mut().map_err(refused)?,
            terminated: terminated.as_slice_mut().map_err(refused)?,
            truncated: truncated.as_slice_mut().map_err(refused)?,
            illegal: illegal.as_slice_mut().map_err(refused)?,
            to_play: to_play.as_slice_mut().map_err(refused)?,
        };
        RowArrays::extract(observations, masks, self.packed)?
            .with(Recv {
                py,
                pool: &self.pool,
                outcomes,
            })?
            .map_err(refused)
    }

    /// Sends the actions of the batch whose first table is `first` (one a
    /// table of it): a thread steps it while Python goes on.
    fn send(
        &self,
        py: Python<'_>,
        first: usize,
        actions: PyReadonlyArray1<'_, i64>,
    ) -> PyResult<()> {
        let actions = actions.as_slice().map_err(refused)?;
        py.detach(|| {
            let mut pool = self.pool.lock().unwrap_or_else(PoisonError::into_inner);
            pool.send(first, actions)
        })
        .map_err(refused)
    }

    /// Writes into `actions` a uniformly random legal action of each row of
    /// `masks` (a batch's rows; int8, or packed uint8 bits; a row with none
    /// gets 0), from the pool's own generator.
    fn sample_actions(
        &mut self,
        masks: &Bound<'_, PyAny>,
        mut actions: PyReadwriteArray1<'_, i64>,
    ) -> PyResult<()> {
        fn pick<M: Mask + numpy::Element>(
            masks: &Bound<'_, PyAny>,
            acts: usize,
            draws: &[u32],
            actions: &mut [i64],
        ) -> PyResult<()> {
            let masks = masks.extract::<PyReadonlyArray2<'_, M>>()?;
            let masks = masks.as_slice().map_err(refused)?;
            if masks.len() != actions.len() * acts {
                return Err(refused(format!(
                    "one action per row of the masks, {acts} elements a row"
                )));
            }
            pick_actions(masks, acts, draws, actions);
            Ok(())
        }
        let actions = actions.as_slice_mut().map_err(refused)?;
        self.draws.clear();
        self.draws
            .extend((0..actions.len()).map(|_| self.policy_rng.next_u32()));
        if self.packed {
            pick::<u8>(masks, self.mask_size, &self.draws, actions)
        } else {
            pick::<i8>(masks, self.mask_size, &self.draws, actions)
        }
    }

    /// Table `i`'s game so far, as a JSON record: refused while its batch
    /// is being stepped.
    fn record(&self, i: usize) -> PyResult<String> {
        let pool = self.pool.lock().unwrap_or_else(PoisonError::into_inner);
        Ok(super::json(&pool.record(i).map_err(refused)?))
    }

    /// Tables in a batch.
    #[getter]
    fn batch_size(&self) -> usize {
        self.batch_size
    }
}
