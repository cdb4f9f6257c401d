//! `VecPool`: the tables in batches stepped asynchronously
//! ([`crate::pool::Pool`]) for Python's `send`/`recv`. The rows go into
//! the caller's pool-wide NumPy arrays; the GIL is released while Rust
//! waits for a batch or steps one.

use std::sync::{Mutex, PoisonError};

use numpy::{PyReadonlyArray1, PyReadonlyArray2, PyReadwriteArray1, PyReadwriteArrayDyn};
use pyo3::prelude::*;
use rand_core::Rng;
use tripoley_cards::GameRng;

use super::refused;
use super::vector::{RowArrays, RowsFn, Taken, VecTables, outcomes};
use crate::pool::Pool;
use crate::vector::{Mask, Outcomes, RowFormat, pick_actions};

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
    /// The tables of `tables` (which keeps none) cut into batches of
    /// `batch_size`, stepped by as many threads as `tables` was given (at
    /// most the machine's cores).
    #[new]
    fn new(py: Python<'_>, tables: &VecTables, batch_size: usize) -> PyResult<VecPool> {
        let Taken {
            tables,
            threads,
            packed,
            policy_rng,
        } = tables.take();
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        let actions = tables.num_actions();
        let pool = py
            .detach(|| Pool::new(tables, batch_size, threads.min(cores)))
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
            policy_rng,
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
        let outcomes = outcomes(
            &mut rewards,
            &mut terminated,
            &mut truncated,
            &mut illegal,
            Some(&mut to_play),
        )?;
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
    /// gets -1), from the pool's own generator.
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
