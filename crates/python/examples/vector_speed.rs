//! Where a batched step's time goes, without Python: nanoseconds per
//! learner step of [`Tables`] (pagat, 4 seats, random bots, a random legal
//! learner action read from the mask), whole and in parts.
//!
//!     cargo run --release -p tripoley-python --example vector_speed [-- TABLES SECONDS [f32|u16|u8|packed] [THREADS]]
//!
//! Times are the process's CPU time (fair on a loaded machine), every
//! thread's; THREADS steps the tables (and draws the policy) on that many. The parts
//! are timed apart: the observation and mask alone (rewritten for the same
//! states) and the policy alone (a random 1 of each mask row, as
//! `sample_actions` draws it), so the rest of a step is the moves (the
//! learner's, the bots', the engine's, the deals again). `STEP_ONLY=1`
//! times whole steps alone (to profile them with `perf record`);
//! `STEPS=K` makes exactly K batched steps and times nothing else (a fixed
//! amount of work, to count instructions with
//! `valgrind --tool=cachegrind --cache-sim=no`: timings on a loaded machine
//! are noise). `SELF_PLAY=1` puts the learner at every seat (no bots: a
//! step is one decision of whoever is to act).

use std::hint::black_box;
use std::time::{Duration, Instant};

use _tripoley::vector::{
    Autoreset, Config, Dense, Mask, Outcomes, Packed, RowFormat, Seating, Tables,
};
use rand_core::Rng;
use tripoley_bots::{BotKind, BotOptions};
use tripoley_cards::seeded_rng;
use tripoley_engine::{Preset, Rules};

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args
        .next()
        .map_or(1024, |a| a.parse().expect("a table count"));
    let seconds: f64 = args.next().map_or(2.0, |a| a.parse().expect("seconds"));
    let budget = Duration::from_secs_f64(seconds);
    let only = args.next().filter(|o| o != "all");
    let threads: usize = args
        .next()
        .map_or(1, |a| a.parse().expect("a thread count"));
    let wanted = |name: &str| only.as_deref().is_none_or(|o| o == name);
    if wanted("f32") {
        measure::<Dense<f32>>("f32", n, budget, threads);
    }
    if wanted("u16") {
        measure::<Dense<u16>>("u16", n, budget, threads);
    }
    if wanted("u8") {
        measure::<Dense<u8>>("u8", n, budget, threads);
    }
    if wanted("packed") {
        measure::<Packed>("packed", n, budget, threads);
    }
}

/// One line of figures, rows written as `F` writes them.
fn measure<F: RowFormat>(name: &str, n: usize, budget: Duration, threads: usize)
where
    F::Obs: Default,
    F::Mask: Default,
{
    let fixed: Option<u64> = std::env::var("STEPS")
        .ok()
        .map(|k| k.parse().expect("STEPS: a step count"));
    let step_only = fixed.is_some() || std::env::var_os("STEP_ONLY").is_some();
    let self_play = std::env::var_os("SELF_PLAY").is_some();
    {
        let config = Config {
            rules: Rules::preset(Preset::Pagat),
            players: 4,
            seating: if self_play {
                Seating::Every
            } else {
                Seating::One {
                    seat: 0,
                    bots: vec![BotKind::Random; 3],
                }
            },
            bot_options: BotOptions::default(),
            max_steps: 10_000,
            illegal_reward: -1.0,
            autoreset: Autoreset::SameStep,
        };
        let mut tables = Tables::new(config, n, 1).expect("pagat tables");
        let (obs_size, acts) = (
            F::observation_size(4),
            F::Mask::mask_size(tables.num_actions()),
        );
        let mut obs = vec![F::Obs::default(); n * obs_size];
        let mut masks = vec![F::Mask::default(); n * acts];
        // The arrays Python's environment passes: rewards, flags, and in
        // self-play the seat to play.
        let mut rewards = vec![0.0; n * tables.rewards_per_table()];
        let (mut terminated, mut truncated, mut illegal) =
            (vec![false; n], vec![false; n], vec![false; n]);
        let mut to_play = vec![0u8; if self_play { n } else { 0 }];
        let mut actions = vec![0i64; n];
        let mut rng = seeded_rng(2);
        let mut randomness = vec![0u32; n];
        // As `sample_actions` draws: the randomness in table order, the
        // picks on the step's threads.
        let mut policy = |tables: &mut Tables, masks: &[F::Mask], actions: &mut [i64]| {
            randomness.fill_with(|| rng.next_u32());
            tables
                .sample_actions(masks, &randomness, actions, threads)
                .expect("a row per table");
        };
        tables
            .observe::<F>(&mut obs, &mut masks)
            .expect("a row per table");
        let (mut steps, mut games, start, cpu0) = (0u64, 0u64, Instant::now(), cpu_ns());
        let mut batches = 0u64;
        while fixed.map_or(start.elapsed() < budget, |k| batches < k) {
            batches += 1;
            policy(&mut tables, &masks, &mut actions);
            let outcomes = Outcomes {
                rewards: &mut rewards,
                terminated: &mut terminated,
                truncated: &mut truncated,
                illegal: &mut illegal,
                to_play: &mut to_play,
            };
            tables
                .step::<F>(&actions, outcomes, &mut obs, &mut masks, threads)
                .expect("legal steps");
            steps += n as u64;
            games += terminated.iter().filter(|&&t| t).count() as u64;
        }
        let whole = start.elapsed().as_nanos() as f64 / steps as f64;
        let cpu_whole = (cpu_ns() - cpu0) as f64 / steps as f64;
        let (mut writes, start, cpu1) = (0u64, Instant::now(), cpu_ns());
        while start.elapsed() < budget / 4 && !step_only {
            tables
                .observe::<F>(black_box(&mut obs), black_box(&mut masks))
                .expect("a row per table");
            writes += n as u64;
        }
        let observe = (cpu_ns() - cpu1) as f64 / writes as f64;
        let (mut draws, start, cpu2) = (0u64, Instant::now(), cpu_ns());
        while start.elapsed() < budget / 4 && !step_only {
            policy(&mut tables, black_box(&masks), black_box(&mut actions));
            draws += n as u64;
        }
        let drawing = (cpu_ns() - cpu2) as f64 / draws as f64;
        println!(
            "{name} ({obs_size} elements, mask {acts}): {cpu_whole:.0} ns a step ({whole:.0} wall), \
             of which observation and mask {observe:.0} ns, policy {drawing:.0} ns, \
             moves {:.0} ns: {:.0} steps/s, {:.0} steps a game",
            cpu_whole - observe - drawing,
            1e9 / cpu_whole,
            steps as f64 / games.max(1) as f64
        );
    }
}

/// This process's CPU time so far in nanoseconds, every thread's, those
/// ended too (user and system time from `/proc/self/stat`, in Linux's
/// clock ticks of 10 ms): on a loaded machine wall time counts other
/// programs' turns.
fn cpu_ns() -> u64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0;
    };
    // The fields after the command's name (which may hold spaces): user
    // time is the 14th field of the line, system time the 15th.
    let rest = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let ticks: u64 = rest
        .split_whitespace()
        .skip(11)
        .take(2)
        .filter_map(|t| t.parse::<u64>().ok())
        .sum();
    ticks * 10_000_000
}
