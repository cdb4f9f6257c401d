//! [`Crew`]: the threads of a threaded batched step, kept awake from one
//! step to the next.
//!
//! A step of 1,024 tables is about a quarter of a millisecond of work. On
//! a virtual machine a thread that sleeps between steps (as a rayon pool's
//! do) costs 45–85 µs to wake: its core halts and the hypervisor must wake
//! it. Two threads then barely beat one. So here:
//! - the calling thread works beside the pool's, and waits for them
//!   spinning, never asleep;
//! - each thread gets the same share of the work at every step, so a
//!   table's game stays in the cache of the core that plays it (shares
//!   taken in turn by whichever thread was free were slower than one
//!   thread);
//! - after a step the pool's threads spin for a while ([`KEEP_AWAKE`])
//!   waiting for the next one, which a learner's policy between steps
//!   usually starts well within that time.
//!
//! The price is that spinning: at most [`KEEP_AWAKE`] of each worker's CPU
//! time a step, and none while the caller comes back more slowly than that.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// How long a worker spins after a step waiting for the next before it
/// sleeps (and the next step pays a wake-up).
pub const KEEP_AWAKE: Duration = Duration::from_millis(1);

/// Spins between two looks (a spin is a pause of some tens of cycles).
const SPINS_PER_LOOK: u32 = 8;

/// `threads` threads (the caller's and `threads - 1` workers) that run a
/// piece of work together.
pub struct Crew {
    pool: rayon::ThreadPool,
    workers: usize,
    /// Counts the crew's jobs: a change tells the spinning workers that
    /// the next has come (or that the crew is gone).
    jobs: Arc<AtomicU64>,
    /// When the last job ended, and whether the workers spin after this
    /// one: not when the caller took longer than [`KEEP_AWAKE`] to come
    /// back last time (a slow policy would only pay for the spinning).
    ended: Option<Instant>,
    keeps_awake: bool,
}

impl Crew {
    /// A crew of `threads` threads (at least 2).
    pub fn new(threads: usize) -> Result<Crew, String> {
        let workers = threads.saturating_sub(1).max(1);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(workers)
            .thread_name(|i| format!("tripoley-crew-{i}"))
            .build()
            .map_err(|e| format!("no threads to step the tables: {e}"))?;
        Ok(Crew {
            pool,
            workers,
            jobs: Arc::new(AtomicU64::new(0)),
            ended: None,
            keeps_awake: true,
        })
    }

    /// Threads in the crew, the caller's included.
    pub fn threads(&self) -> usize {
        self.workers + 1
    }

    /// Runs `work(k)` for every `k` below [`Crew::threads`], each on its
    /// own thread at once (`k` = 0 on the caller's), and returns when
    /// every one has returned; then keeps the workers spinning for the
    /// next. The same `k` runs on the same thread from call to call, so
    /// a thread given the same share each time finds it in its cache.
    fn all<W: Fn(usize) + Sync>(&mut self, work: W) {
        if let Some(ended) = self.ended {
            self.keeps_awake = ended.elapsed() <= KEEP_AWAKE;
        }
        let finished = AtomicUsize::new(0);
        self.pool.in_place_scope(|scope| {
            scope.spawn_broadcast(|_, worker| {
                // Counted even if `work` panics (the scope passes the panic
                // on), so the caller never spins forever.
                let _done = Finished(&finished);
                work(worker.index() + 1);
            });
            self.jobs.fetch_add(1, Ordering::Release);
            work(0);
            spin_until(|| finished.load(Ordering::Acquire) == self.workers);
        });
        self.ended = Some(Instant::now());
        if self.keeps_awake {
            self.keep_awake();
        }
    }

    /// Hands `shares[k]` to `work` on thread `k` (at most one share per
    /// thread), all at once; the first error any returned.
    pub fn each<S: Send, E: Send>(
        &mut self,
        shares: impl IntoIterator<Item = S>,
        work: impl Fn(S) -> Result<(), E> + Sync,
    ) -> Result<(), E> {
        let slots: Vec<Mutex<Option<S>>> =
            shares.into_iter().map(|s| Mutex::new(Some(s))).collect();
        assert!(slots.len() <= self.threads(), "a share per thread at most");
        let failure = Mutex::new(None);
        self.all(|k| {
            let mine = slots.get(k).and_then(|s| lock(s).take());
            if let Some(Err(e)) = mine.map(&work) {
                lock(&failure).get_or_insert(e);
            }
        });
        failure
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)
            .map_or(Ok(()), Err)
    }

    /// Has every worker spin until the next job or for [`KEEP_AWAKE`].
    fn keep_awake(&self) {
        let jobs = Arc::clone(&self.jobs);
        let seen = jobs.load(Ordering::Acquire);
        self.pool.spawn_broadcast(move |_| {
            let start = Instant::now();
            spin_until(|| jobs.load(Ordering::Acquire) != seen || start.elapsed() > KEEP_AWAKE);
        });
    }
}

impl Drop for Crew {
    fn drop(&mut self) {
        // The spinning workers stop at once, so the pool's threads end.
        self.jobs.fetch_add(1, Ordering::Release);
    }
}

/// The value behind `mutex`, even if a thread panicked holding it (the
/// panic goes on to the caller anyway).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Adds one to a count when dropped.
struct Finished<'a>(&'a AtomicUsize);

impl Drop for Finished<'_> {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::Release);
    }
}

/// Waits for `done()` without sleeping: a few spins between looks, and
/// the core offered to any other thread that wants it (a yield, which
/// returns at once when none does). Never sleeping keeps the core from
/// halting; yielding keeps a waiting thread from taking a core that
/// another program, or another environment in this one, needs.
fn spin_until(done: impl Fn() -> bool) {
    while !done() {
        for _ in 0..SPINS_PER_LOOK {
            std::hint::spin_loop();
        }
        if done() {
            return;
        }
        std::thread::yield_now();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::thread::ThreadId;

    #[test]
    fn each_share_runs_once_on_the_same_thread_at_every_call() {
        let mut crew = Crew::new(3).unwrap();
        let mut first: Option<Vec<ThreadId>> = None;
        for call in 0..50u64 {
            let mut seen = [(0u64, None::<ThreadId>); 3];
            crew.each(seen.iter_mut().enumerate(), |(k, slot)| {
                *slot = (call + k as u64, Some(std::thread::current().id()));
                Ok::<_, ()>(())
            })
            .unwrap();
            let ids: Vec<ThreadId> = seen.iter().map(|s| s.1.unwrap()).collect();
            assert_eq!(seen.map(|s| s.0), [call, call + 1, call + 2]);
            assert_eq!(
                ids[0],
                std::thread::current().id(),
                "share 0 is the caller's"
            );
            assert!(ids[0] != ids[1] && ids[1] != ids[2] && ids[0] != ids[2]);
            assert_eq!(*first.get_or_insert_with(|| ids.clone()), ids);
        }
    }

    #[test]
    fn workers_spin_only_while_the_caller_comes_back_quickly() {
        let mut crew = Crew::new(2).unwrap();
        let nothing = |_: usize| Ok::<_, ()>(());
        crew.each([0, 1], nothing).unwrap();
        assert!(crew.keeps_awake, "the first job has nothing to go by");
        std::thread::sleep(KEEP_AWAKE * 3);
        crew.each([0, 1], nothing).unwrap();
        assert!(!crew.keeps_awake);
    }

    #[test]
    fn an_error_or_a_panic_in_a_share_reaches_the_caller_and_the_crew_goes_on() {
        let mut crew = Crew::new(2).unwrap();
        assert_eq!(
            crew.each([0, 1], |k| if k == 1 { Err(k) } else { Ok(()) }),
            Err(1)
        );
        let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            crew.each([0, 1], |k| {
                assert!(k == 0, "share {k} fails");
                Ok::<_, ()>(())
            })
        }));
        assert!(panicked.is_err());
        let mut sums = [0, 0];
        crew.each(sums.iter_mut().zip([3, 4]), |(s, v)| {
            *s = v;
            Ok::<_, ()>(())
        })
        .unwrap();
        assert_eq!(sums, [3, 4]);
    }
}
