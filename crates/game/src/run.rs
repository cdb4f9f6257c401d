//! The run of a simulator or an arena: games `g = 0, 1, 2, …` played on
//! the rayon pool and counted in order of `g` until exactly the rounds asked
//! for (Tripoley's deals, Napalm's hands, an arena's duplicate deals) are
//! counted, the last game cut after the round that completes the count.
//!
//! Why one driver: the figures of a run must depend on its seed and count,
//! never on the threads, and both games' simulators and arenas need that
//! same bookkeeping (batches, the cut, progress); written once, they cannot
//! drift apart. The caller's game `g` must be the same game whatever thread
//! plays it (seeded from the run's seed and `g` alone), so that playing it
//! again gives the same result.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

/// What one game of a run counted: the driver needs only its rounds.
pub trait Counted {
    /// The rounds the game counted.
    fn rounds(&self) -> u64;
}

/// The seed of game `g` of a run seeded with `seed` (`SplitMix64` steps):
/// games far apart in the run and runs of nearby seeds draw unrelated
/// chance.
pub fn game_seed(seed: u64, g: u64) -> u64 {
    let mut z = seed ^ g.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The most games played at once: results wait in memory until the games
/// before them are counted.
const MAX_BATCH: u64 = 1024;

/// Plays games until exactly `target` rounds are counted; returns the rounds
/// counted, fewer than `target` only when a whole batch of games counted
/// none (then no game ever will: the caller says why).
///
/// `play(state, g, limit)` plays game `g`, counting at most its first
/// `limit` rounds (a game with fewer rounds than `limit` must count the same
/// whatever `limit`); `state` is made by `init` once per worker (bots a
/// thread keeps between games). Games are played in batches sized by the
/// rounds a game counted so far (by `guess` before the first batch: the
/// most a game can count gives a first batch that is never cut), each with
/// the limit left at the batch's start; then `count(g, result)` takes them
/// in order of `g`. A game that counted more than is left by then is played
/// again with exactly what is left, and the games after it are dropped.
/// `progress` is told the rounds played so far (at most `target`) as each
/// game finishes.
pub fn play_rounds<S, T, E>(
    target: u64,
    guess: u64,
    init: impl Fn() -> S + Sync + Send,
    play: impl Fn(&mut S, u64, u64) -> Result<T, E> + Sync + Send,
    mut count: impl FnMut(u64, T) -> Result<(), E>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<u64, E>
where
    T: Counted + Send,
    E: Send,
{
    let played = AtomicU64::new(0);
    let (mut counted, mut games, mut next) = (0u64, 0u64, 0u64);
    while counted < target {
        let left = target - counted;
        // Enough games for what is left at the mean so far; before that, at
        // the guess, rounded down (the most a game can count gives no cut).
        let batch = if counted > 0 {
            left.saturating_mul(games).div_ceil(counted)
        } else {
            left / guess.max(1)
        }
        .clamp(1, MAX_BATCH);
        let results: Vec<Result<T, E>> = (next..next + batch)
            .into_par_iter()
            .map_init(&init, |state, g| {
                let result = play(state, g, left);
                if let Ok(t) = &result {
                    let so_far = played.fetch_add(t.rounds(), Ordering::Relaxed) + t.rounds();
                    progress(so_far.min(target));
                }
                result
            })
            .collect();
        let before = counted;
        for (g, result) in (next..).zip(results) {
            let mut t = result?;
            let left = target - counted;
            if t.rounds() > left {
                t = play(&mut init(), g, left)?;
            }
            counted += t.rounds();
            games += 1;
            count(g, t)?;
            if counted == target {
                break;
            }
        }
        if counted == before {
            break;
        }
        next += batch;
    }
    Ok(counted)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game of `1 + g % 5` rounds, cut at the limit: (game, rounds).
    struct Toy(u64, u64);

    impl Counted for Toy {
        fn rounds(&self) -> u64 {
            self.1
        }
    }

    fn toy_run(target: u64, guess: u64, threads: usize) -> (u64, Vec<(u64, u64)>) {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let mut seen = Vec::new();
        let counted = pool
            .install(|| {
                play_rounds(
                    target,
                    guess,
                    || (),
                    |(), g, limit| Ok::<_, ()>(Toy(g, (1 + g % 5).min(limit))),
                    |g, t| {
                        assert_eq!(g, t.0);
                        seen.push((t.0, t.1));
                        Ok(())
                    },
                    &|_| {},
                )
            })
            .unwrap();
        (counted, seen)
    }

    #[test]
    fn a_run_counts_exactly_the_rounds_asked_in_order_whatever_the_batches() {
        for target in [1, 2, 7, 100, 10_001] {
            let want = toy_run(target, 5, 1);
            assert_eq!(want.0, target);
            assert_eq!(want.1.iter().map(|(_, r)| r).sum::<u64>(), target);
            let games: Vec<u64> = want.1.iter().map(|(g, _)| *g).collect();
            assert_eq!(games, (0..games.len() as u64).collect::<Vec<_>>());
            for guess in [0, 1, 3, 40] {
                assert_eq!(toy_run(target, guess, 2), want, "{target} {guess}");
            }
        }
    }

    #[test]
    fn a_run_whose_games_count_nothing_stops() {
        let counted = play_rounds(
            5,
            1,
            || (),
            |(), g, _| Ok::<_, ()>(Toy(g, 0)),
            |_, _| Ok(()),
            &|_| {},
        );
        assert_eq!(counted, Ok(0));
    }
}
