//! [`Crew`]: the threads of a threaded batched step, kept awake from one
//! step to the next.
//!
//! A step of 1,024 tables is about a quarter of a millisecond of work. On
//! a virtual machine a thread that sleeps between steps (as a rayon pool's
//! do) costs 45–85 µs to wake: its core halts and the hypervisor must wake
//! it. Two threads then barely beat one. So here:
//! - the calling thread works beside the pool's, and waits for them
//!   spinning, never asleep;
//! - each thread gets the same run of the work at every step, so a
//!   table's game stays in the cache of the core that plays it (pieces
//!   taken in turn by whichever thread was free were slower than one
//!   thread); a thread done with its run takes pieces from the end of a
//!   slower one's, so neither waits long for the other;
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
    /// a thread given the same run each time finds it in its cache.
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
            let job = self.jobs.fetch_add(1, Ordering::Release) + 1;
            if self.keeps_awake {
                self.keep_awake(job);
            }
            work(0);
            spin_until(|| finished.load(Ordering::Acquire) == self.workers);
        });
        self.ended = Some(Instant::now());
    }

    /// Hands `pieces` to `work`, all on the crew's threads at once; the
    /// first error any returned. Thread `k` plays the `k`-th run of them
    /// (the pieces cut into one run per thread, in order), the same at
    /// every call, so it finds its pieces in its cache; then it helps any
    /// thread still busy, taking that thread's pieces from the end of its
    /// run, until they meet. A thread held up (by another program, an
    /// interrupt, deals that came together) then delays the step by a
    /// piece, not by the rest of its run: with halves only, two threads
    /// at 1,024 tables waited for one another about a sixth of a step.
    pub fn share_out<S: Send, E: Send>(
        &mut self,
        pieces: impl IntoIterator<Item = S>,
        work: impl Fn(S) -> Result<(), E> + Sync,
    ) -> Result<(), E> {
        let slots: Vec<Mutex<Option<S>>> =
            pieces.into_iter().map(|s| Mutex::new(Some(s))).collect();
        let threads = self.threads();
        let runs: Vec<&[Mutex<Option<S>>]> =
            slots.chunks(slots.len().div_ceil(threads).max(1)).collect();
        let failure = Mutex::new(None);
        // Plays the piece of `slot` unless a thread took it already.
        let play = |slot: &Mutex<Option<S>>| {
            let Some(piece) = lock(slot).take() else {
                return false;
            };
            if let Err(e) = work(piece) {
                lock(&failure).get_or_insert(e);
            }
            true
        };
        self.all(|k| {
            // Its own run from the front, then the others' from their
            // ends: each stops at a piece taken, beyond which all are.
            let mine = runs.get(k).copied().unwrap_or_default();
            for slot in mine {
                if !play(slot) {
                    break;
                }
            }
            for other in (1..threads).filter_map(|d| runs.get((k + d) % threads)) {
                for slot in other.iter().rev() {
                    if !play(slot) {
                        break;
                    }
                }
            }
        });
        failure
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)
            .map_or(Ok(()), Err)
    }

    /// Has every worker, once done with job number `seen`, spin until the
    /// next job or for [`KEEP_AWAKE`]. Queued behind that job, not after
    /// it has ended: a worker done before the caller would otherwise find
    /// no job, go through rayon's idling and, about one time in twenty,
    /// fall asleep (and the next job wait for it to wake).
    fn keep_awake(&self, seen: u64) {
        let jobs = Arc::clone(&self.jobs);
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
pub fn spin_until(done: impl Fn() -> bool) {
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
    fn every_piece_runs_once_whichever_thread_takes_it() {
        let mut crew = Crew::new(3).unwrap();
        for pieces in [0, 1, 2, 3, 7, 12, 40] {
            let runs: Vec<AtomicUsize> = (0..pieces).map(|_| AtomicUsize::new(0)).collect();
            crew.share_out(&runs, |r| {
                r.fetch_add(1, Ordering::Relaxed);
                Ok::<_, ()>(())
            })
            .unwrap();
            assert!(
                runs.iter().all(|r| r.load(Ordering::Relaxed) == 1),
                "{pieces} pieces"
            );
        }
    }

    /// The caller, slowed down in every piece it plays, plays fewer than
    /// its run of them: the worker takes the rest from its end.
    #[test]
    fn a_thread_held_up_is_helped_with_its_run() {
        let mut crew = Crew::new(2).unwrap();
        let caller = std::thread::current().id();
        let players: Vec<Mutex<Option<ThreadId>>> = (0..8).map(|_| Mutex::new(None)).collect();
        crew.share_out(&players, |p| {
            let me = std::thread::current().id();
            if me == caller {
                std::thread::sleep(Duration::from_millis(30));
            }
            assert!(lock(p).replace(me).is_none(), "a piece played twice");
            Ok::<_, ()>(())
        })
        .unwrap();
        let by_caller = players.iter().filter(|p| *lock(p) == Some(caller)).count();
        assert!(players.iter().all(|p| lock(p).is_some()));
        assert!(by_caller < 4, "the caller played {by_caller} of 8");
    }

    #[test]
    fn workers_spin_only_while_the_caller_comes_back_quickly() {
        let mut crew = Crew::new(2).unwrap();
        let nothing = |_: usize| Ok::<_, ()>(());
        crew.share_out([0, 1], nothing).unwrap();
        assert!(crew.keeps_awake, "the first job has nothing to go by");
        std::thread::sleep(KEEP_AWAKE * 3);
        crew.share_out([0, 1], nothing).unwrap();
        assert!(!crew.keeps_awake);
    }

    #[test]
    fn an_error_or_a_panic_in_a_piece_reaches_the_caller_and_the_crew_goes_on() {
        let mut crew = Crew::new(2).unwrap();
        assert_eq!(
            crew.share_out([0, 1], |k| if k == 1 { Err(k) } else { Ok(()) }),
            Err(1)
        );
        let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            crew.share_out([0, 1], |k| {
                assert!(k == 0, "piece {k} fails");
                Ok::<_, ()>(())
            })
        }));
        assert!(panicked.is_err());
        let mut sums = [0, 0];
        crew.share_out(sums.iter_mut().zip([3, 4]), |(s, v)| {
            *s = v;
            Ok::<_, ()>(())
        })
        .unwrap();
        assert_eq!(sums, [3, 4]);
    }
}
