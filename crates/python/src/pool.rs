//! [`Pool`]: the tables cut into batches stepped asynchronously, in the
//! manner of EnvPool's `send`/`recv`: the learner receives whichever batch
//! is ready, chooses its actions and sends them, while threads step the
//! batches sent before.
//!
//! Why, beside [`Tables::step`] on threads: a threaded step is a barrier.
//! Every thread waits for the slowest, then for the learner's policy
//! (whatever it costs, on one thread) before the next step starts. With
//! batches in flight the threads step one batch while the policy chooses
//! for another. A batch's tables are its own ([`Tables`] moved between
//! threads whole), so no table is ever shared and nothing is borrowed
//! across threads.
//!
//! The learner's thread works too: it writes each batch's rows as it
//! receives it, and `recv` with no batch ready steps a batch that no
//! worker would take before finishing another. The workers spin a while
//! before sleeping (a thread woken on a virtual machine costs tens of
//! microseconds, see `crate::crew`).
//!
//! What it gains (measured in `python/examples/benchmark.py`): a policy
//! that takes time (a network, or NumPy) no longer holds the threads up.
//! With a policy that costs almost nothing (`sample_actions`), the rows
//! the learner's thread writes can make it the slower of two: dense rows
//! then go no faster than [`Tables::step`] on two threads.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::Instant;

use tripoley_engine::Record;

use crate::crew::{KEEP_AWAKE, spin_until};
use crate::vector::{Mask, OutcomeRows, Outcomes, RowFormat, Tables};

/// One batch: its tables, the actions sent for them, and what their last
/// step (or the reset) gave. Its rows are written by `recv`, on the
/// learner's thread, straight into the learner's arrays: a step here plays
/// only, so no row is written twice (to a buffer here, then copied).
struct Batch {
    /// The pool's index of this batch's first table.
    first: usize,
    tables: Tables,
    actions: Vec<i64>,
    outcomes: OutcomeRows,
    /// The step's error, if it failed (the batch comes back with it).
    failed: Option<String>,
}

impl Batch {
    /// `tables` (the pool's from `first` on), as dealt.
    fn new(first: usize, tables: Tables) -> Batch {
        let n = tables.len();
        Batch {
            first,
            actions: vec![0; n],
            outcomes: OutcomeRows {
                rewards: vec![0.0; n * tables.rewards_per_table()],
                terminated: vec![false; n],
                truncated: vec![false; n],
                illegal: vec![false; n],
                to_play: (0..n).map(|i| tables.to_play(i)).collect(),
            },
            tables,
            failed: None,
        }
    }

    /// Plays the actions sent.
    fn step(&mut self) {
        self.failed = self
            .tables
            .play(&self.actions, self.outcomes.outcomes())
            .err();
    }
}

/// The batches between the learner and the workers.
struct Queues {
    /// Sent, not yet taken by a thread.
    sent: VecDeque<Batch>,
    /// Stepped, not yet received.
    ready: VecDeque<Batch>,
    /// Batches the workers are stepping.
    stepping: usize,
    /// The pool is gone: the workers end.
    closed: bool,
}

/// What the learner's thread and the workers share.
struct Shared {
    queues: Mutex<Queues>,
    /// Batches in `sent` and in `ready` (read while spinning, without the lock).
    sent: AtomicUsize,
    ready: AtomicUsize,
    /// A worker asleep waits here for a batch sent.
    work: Condvar,
    /// The learner asleep waits here for a batch stepped.
    stepped: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Queues> {
        self.queues.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The next batch sent, for a worker: spinning for [`KEEP_AWAKE`], then
    /// asleep; `None` once the pool is gone. (A batch seen while spinning
    /// may be gone when looked for, stepped by the learner's thread: then
    /// the spinning goes on.)
    fn next_sent(&self) -> Option<Batch> {
        let start = Instant::now();
        loop {
            spin_until(|| self.sent.load(Ordering::Acquire) > 0 || start.elapsed() > KEEP_AWAKE);
            let mut queues = self.lock();
            loop {
                if queues.closed {
                    return None;
                }
                if let Some(batch) = queues.sent.pop_front() {
                    self.sent.fetch_sub(1, Ordering::Release);
                    queues.stepping += 1;
                    return Some(batch);
                }
                if start.elapsed() <= KEEP_AWAKE {
                    break;
                }
                queues = self
                    .work
                    .wait(queues)
                    .unwrap_or_else(PoisonError::into_inner);
            }
        }
    }

    /// `batch` stepped, for the learner.
    fn put_ready(&self, batch: Batch) {
        let mut queues = self.lock();
        queues.ready.push_back(batch);
        queues.stepping -= 1;
        drop(queues);
        self.ready.fetch_add(1, Ordering::Release);
        self.stepped.notify_one();
    }
}

/// The tables in batches, stepped by `threads` threads (the learner's
/// included) while the learner chooses (see the module's notes).
pub struct Pool {
    shared: Arc<Shared>,
    workers: Vec<JoinHandle<()>>,
    /// Batches received and not yet sent again, by number.
    held: Vec<Option<Batch>>,
    /// Tables in a batch.
    batch_size: usize,
    /// Seats at a table, integers in the action space, rewards a table.
    players: usize,
    num_actions: usize,
    rewards_per_table: usize,
}

impl Pool {
    /// `tables` in batches of `batch_size` (which must divide them), all
    /// ready to be received as dealt; `threads` threads step them.
    pub fn new(tables: Tables, batch_size: usize, threads: usize) -> Result<Pool, String> {
        let n = tables.len();
        if batch_size == 0 || n % batch_size != 0 {
            return Err(format!(
                "the batch size must divide the {n} tables (it is {batch_size})"
            ));
        }
        let (players, num_actions, rewards_per_table) = (
            tables.players(),
            tables.num_actions(),
            tables.rewards_per_table(),
        );
        let ready = tables
            .split(batch_size)
            .into_iter()
            .enumerate()
            .map(|(k, t)| Batch::new(k * batch_size, t))
            .collect::<VecDeque<_>>();
        let shared = Arc::new(Shared {
            sent: AtomicUsize::new(0),
            ready: AtomicUsize::new(ready.len()),
            queues: Mutex::new(Queues {
                sent: VecDeque::new(),
                ready,
                stepping: 0,
                closed: false,
            }),
            work: Condvar::new(),
            stepped: Condvar::new(),
        });
        let workers = (1..threads.min(n / batch_size))
            .map(|k| {
                let shared = Arc::clone(&shared);
                std::thread::Builder::new()
                    .name(format!("tripoley-pool-{k}"))
                    .spawn(move || {
                        while let Some(mut batch) = shared.next_sent() {
                            batch.step();
                            shared.put_ready(batch);
                        }
                    })
                    .map_err(|e| format!("no threads to step the tables: {e}"))
            })
            .collect::<Result<_, _>>()?;
        Ok(Pool {
            shared,
            workers,
            held: (0..n / batch_size).map(|_| None).collect(),
            batch_size,
            players,
            num_actions,
            rewards_per_table,
        })
    }

    /// Writes a batch ready (stepped, or as dealt) into the pool-wide
    /// arrays (a row, or an entry, per table of the pool) at its tables'
    /// places, and returns its first table; the learner holds the batch
    /// until it sends the batch's actions. The batch is the first ready,
    /// else one still waiting for a thread, stepped here, else the first a
    /// thread finishes. Refused when the learner holds every batch.
    pub fn recv_into<F: RowFormat>(
        &mut self,
        outcomes: &mut Outcomes<'_>,
        observations: &mut [F::Obs],
        masks: &mut [F::Mask],
    ) -> Result<usize, String> {
        let n = self.held.len() * self.batch_size;
        let (obs, acts, per) = (
            F::observation_size(self.players),
            F::Mask::mask_size(self.num_actions),
            self.rewards_per_table,
        );
        let entries = [
            outcomes.terminated.len(),
            outcomes.truncated.len(),
            outcomes.illegal.len(),
            outcomes.to_play.len(),
        ];
        if observations.len() != n * obs
            || masks.len() != n * acts
            || outcomes.rewards.len() != n * per
            || entries != [n; 4]
        {
            return Err("the arrays must have a row (or an entry) per table of the pool".into());
        }
        let batch = self.take_ready()?;
        let (first, end) = (batch.first, batch.first + batch.tables.len());
        let held = self.held[first / self.batch_size].insert(batch);
        if let Some(e) = &held.failed {
            return Err(e.clone());
        }
        let done = &held.outcomes;
        outcomes.rewards[first * per..end * per].copy_from_slice(&done.rewards);
        outcomes.terminated[first..end].copy_from_slice(&done.terminated);
        outcomes.truncated[first..end].copy_from_slice(&done.truncated);
        outcomes.illegal[first..end].copy_from_slice(&done.illegal);
        outcomes.to_play[first..end].copy_from_slice(&done.to_play);
        held.tables.observe::<F>(
            &mut observations[first * obs..end * obs],
            &mut masks[first * acts..end * acts],
        )?;
        Ok(first)
    }

    fn take_ready(&self) -> Result<Batch, String> {
        let shared = &*self.shared;
        loop {
            let mut queues = shared.lock();
            if let Some(batch) = queues.ready.pop_front() {
                shared.ready.fetch_sub(1, Ordering::Release);
                return Ok(batch);
            }
            // A batch no worker will take before another is done, if any:
            // this thread steps it rather than wait. (Not one a worker would
            // take at once: this thread would then step while it idled.)
            if queues.sent.len() + queues.stepping > self.workers.len() {
                let mut batch = queues.sent.pop_back().expect("more sent than workers");
                shared.sent.fetch_sub(1, Ordering::Release);
                drop(queues);
                batch.step();
                return Ok(batch);
            }
            if self.held.iter().all(Option::is_some) {
                return Err("every batch has been received: send a batch's actions first".into());
            }
            // Every batch in flight is being stepped: spin for one, then sleep.
            drop(queues);
            let start = Instant::now();
            spin_until(|| shared.ready.load(Ordering::Acquire) > 0 || start.elapsed() > KEEP_AWAKE);
            let queues = shared.lock();
            drop(
                shared
                    .stepped
                    .wait_while(queues, |q| q.ready.is_empty())
                    .unwrap_or_else(PoisonError::into_inner),
            );
        }
    }

    /// Sends `actions` for the batch whose first table is `first` (one a
    /// table, as [`Tables::step`] takes them): a thread steps it. Refused
    /// unless the learner holds that batch (received, not sent since).
    pub fn send(&mut self, first: usize, actions: &[i64]) -> Result<(), String> {
        let k = first / self.batch_size;
        let slot = self
            .held
            .get_mut(k)
            .filter(|_| first % self.batch_size == 0)
            .ok_or_else(|| format!("no batch begins at table {first}"))?;
        if actions.len() != self.batch_size {
            return Err(format!(
                "{} actions expected (one a table of the batch), {} given",
                self.batch_size,
                actions.len()
            ));
        }
        let mut batch = slot
            .take()
            .ok_or_else(|| format!("the batch at table {first} was sent and not received since"))?;
        batch.actions.copy_from_slice(actions);
        self.shared.lock().sent.push_back(batch);
        self.shared.sent.fetch_add(1, Ordering::Release);
        self.shared.work.notify_one();
        Ok(())
    }

    /// Table `i`'s game so far (see [`Tables::record`]): refused while a
    /// thread may be stepping its batch (sent and not received since).
    pub fn record(&self, i: usize) -> Result<Record, String> {
        let batch = self
            .held
            .get(i / self.batch_size)
            .ok_or_else(|| format!("there is no table {i}"))?
            .as_ref()
            .ok_or_else(|| format!("table {i} is being stepped: receive its batch first"))?;
        batch.tables.record(i - batch.first)
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        self.shared.lock().closed = true;
        self.shared.work.notify_all();
        for worker in self.workers.drain(..) {
            // A worker that panicked has nothing more to say.
            let _ = worker.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vector::{Dense, Seating, pagat_tables, random_legal};
    use tripoley_bots::BotKind;

    fn tables(seating: Seating, count: usize) -> Tables {
        pagat_tables(seating, count, 11)
    }

    fn seatings() -> [Seating; 2] {
        [
            Seating::One {
                seat: 2,
                bots: vec![BotKind::Heuristic, BotKind::Random, BotKind::Heuristic],
            },
            Seating::Every,
        ]
    }

    /// What a table showed at one of its steps: its row, mask and outcome.
    type Seen = (Vec<f32>, Vec<i8>, Vec<f32>, [bool; 3], u8);

    /// Each table's action at its `step`-th turn: a legal one of `mask`,
    /// chosen from the table and the step only (the same in any order).
    fn choose(i: usize, step: usize, mask: &[i8]) -> i64 {
        let r = u32::try_from(i * 7919 + step * 104_729)
            .unwrap()
            .wrapping_mul(2_654_435_761);
        random_legal(mask, r).map_or(0, |a| i64::try_from(a).unwrap())
    }

    /// The arrays of `n` tables of `tables`' kind, and a table's entry.
    struct Arrays {
        obs: Vec<f32>,
        masks: Vec<i8>,
        rewards: Vec<f32>,
        flags: [Vec<bool>; 3],
        to_play: Vec<u8>,
        size: usize,
        acts: usize,
        per: usize,
    }

    impl Arrays {
        fn new(tables: &Tables) -> Arrays {
            let n = tables.len();
            let (size, acts, per) = (
                tables.observation_size(),
                tables.num_actions(),
                tables.rewards_per_table(),
            );
            Arrays {
                obs: vec![f32::NAN; n * size],
                masks: vec![9; n * acts],
                rewards: vec![f32::NAN; n * per],
                flags: [vec![true; n], vec![true; n], vec![true; n]],
                to_play: vec![u8::MAX; n],
                size,
                acts,
                per,
            }
        }

        fn outcomes(&mut self) -> Outcomes<'_> {
            let [terminated, truncated, illegal] = &mut self.flags;
            Outcomes {
                rewards: &mut self.rewards,
                terminated,
                truncated,
                illegal,
                to_play: &mut self.to_play,
            }
        }

        fn seen(&self, i: usize) -> Seen {
            (
                self.obs[i * self.size..(i + 1) * self.size].to_vec(),
                self.masks[i * self.acts..(i + 1) * self.acts].to_vec(),
                self.rewards[i * self.per..(i + 1) * self.per].to_vec(),
                [self.flags[0][i], self.flags[1][i], self.flags[2][i]],
                self.to_play[i],
            )
        }

        fn mask(&self, i: usize) -> &[i8] {
            &self.masks[i * self.acts..(i + 1) * self.acts]
        }
    }

    /// Each table's first `steps` sights, the tables stepped all at once.
    fn stepped_together(mut tables: Tables, steps: usize) -> Vec<Vec<Seen>> {
        let n = tables.len();
        let mut arrays = Arrays::new(&tables);
        tables
            .observe::<Dense<f32>>(&mut arrays.obs, &mut arrays.masks)
            .unwrap();
        arrays.rewards.fill(0.0);
        arrays.flags.iter_mut().for_each(|f| f.fill(false));
        for (i, seat) in arrays.to_play.iter_mut().enumerate() {
            *seat = tables.to_play(i);
        }
        let mut seen: Vec<Vec<Seen>> = (0..n).map(|i| vec![arrays.seen(i)]).collect();
        for step in 0..steps {
            let actions: Vec<i64> = (0..n).map(|i| choose(i, step, arrays.mask(i))).collect();
            let Arrays { obs, masks, .. } = &mut arrays;
            let (mut obs, mut masks) = (std::mem::take(obs), std::mem::take(masks));
            tables
                .step::<Dense<f32>>(&actions, arrays.outcomes(), &mut obs, &mut masks, 1)
                .unwrap();
            (arrays.obs, arrays.masks) = (obs, masks);
            for (i, s) in seen.iter_mut().enumerate() {
                s.push(arrays.seen(i));
            }
        }
        seen
    }

    /// The same through a pool: batches received and sent in whatever
    /// order the threads finish them, until every table has had `steps`.
    fn stepped_in_pool(
        tables: Tables,
        batch: usize,
        threads: usize,
        steps: usize,
    ) -> Vec<Vec<Seen>> {
        let n = tables.len();
        let mut arrays = Arrays::new(&tables);
        let mut pool = Pool::new(tables, batch, threads).unwrap();
        let mut seen: Vec<Vec<Seen>> = vec![Vec::new(); n];
        let mut open = n / batch;
        while open > 0 {
            let Arrays { obs, masks, .. } = &mut arrays;
            let (mut obs, mut masks) = (std::mem::take(obs), std::mem::take(masks));
            let first = pool
                .recv_into::<Dense<f32>>(&mut arrays.outcomes(), &mut obs, &mut masks)
                .unwrap();
            (arrays.obs, arrays.masks) = (obs, masks);
            let mut actions = Vec::new();
            for (i, s) in seen.iter_mut().enumerate().skip(first).take(batch) {
                s.push(arrays.seen(i));
                actions.push(choose(i, s.len() - 1, arrays.mask(i)));
            }
            if seen[first].len() > steps {
                open -= 1;
            } else {
                pool.send(first, &actions).unwrap();
            }
        }
        seen
    }

    #[test]
    fn a_pool_plays_every_tables_game_as_the_tables_stepped_together() {
        for seating in seatings() {
            let together = stepped_together(tables(seating.clone(), 8), 40);
            for (batch, threads) in [(2, 1), (2, 2), (4, 2), (1, 3), (8, 2)] {
                let pooled = stepped_in_pool(tables(seating.clone(), 8), batch, threads, 40);
                assert!(
                    together == pooled,
                    "{seating:?}: batches of {batch} on {threads} threads"
                );
            }
        }
    }

    #[test]
    fn a_batch_is_sent_once_received_and_a_refusal_loses_nothing() {
        let [bots, _] = seatings();
        let refused = |r: Result<(), String>, says: &str| {
            let e = r.unwrap_err();
            assert!(e.contains(says), "{e:?} does not say {says:?}");
        };
        for (batch, threads) in [(3, 1), (0, 1)] {
            let made = Pool::new(tables(bots.clone(), 4), batch, threads).map(|_| ());
            refused(made, "the batch size must divide the 4 tables");
        }
        let mut pool = Pool::new(tables(bots, 4), 2, 2).unwrap();
        let mut arrays = Arrays::new(&tables(seatings()[0].clone(), 4));
        let mut recv = |pool: &mut Pool| {
            let Arrays { obs, masks, .. } = &mut arrays;
            let (mut obs, mut masks) = (std::mem::take(obs), std::mem::take(masks));
            let got = pool.recv_into::<Dense<f32>>(&mut arrays.outcomes(), &mut obs, &mut masks);
            (arrays.obs, arrays.masks) = (obs, masks);
            got
        };
        let mut firsts = [recv(&mut pool).unwrap(), recv(&mut pool).unwrap()];
        firsts.sort_unstable();
        assert_eq!(firsts, [0, 2]);
        refused(recv(&mut pool).map(|_| ()), "send a batch's actions first");
        refused(pool.send(1, &[0, 0]), "no batch begins at table 1");
        refused(pool.send(4, &[0, 0]), "no batch begins at table 4");
        refused(pool.send(2, &[0, 0, 0]), "2 actions expected");
        let game = pool.record(3).unwrap();
        pool.send(2, &[0, 0]).unwrap();
        refused(pool.send(2, &[0, 0]), "sent and not received since");
        refused(pool.record(3).map(|_| ()), "table 3 is being stepped");
        refused(pool.record(4).map(|_| ()), "there is no table 4");
        assert_eq!(recv(&mut pool), Ok(2));
        // The batch's illegal actions moved nothing: the game is as it was.
        assert_eq!(pool.record(3).unwrap(), game);
        assert_eq!(arrays.flags[2][2..], [true, true]);
    }
}
