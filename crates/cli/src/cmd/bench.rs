//! `tripoley bench`: throughput of the hot paths, measured in this process.

use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;
use tripoley_bots::{BotKind, play_game_quietly};
use tripoley_cards::{CardSet, Evaluator, seeded_rng};
use tripoley_engine::{Preset, Rules};

/// Arguments of `tripoley bench`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    what: What,
}

#[derive(clap::Subcommand)]
enum What {
    /// Poker evaluations per second for random hands of 5, 7, 13, 18 and 26 cards.
    Eval {
        /// One JSON object per line instead of a table.
        #[arg(long)]
        json: bool,
        /// A short run on few hands: checks the harness, not the speed.
        #[arg(long)]
        quick: bool,
    },
    /// Complete `pagat` deals per second with 4 and 9 players, random and
    /// heuristic bots, on one thread and on all.
    Deals {
        /// One JSON object per line instead of a table.
        #[arg(long)]
        json: bool,
        /// A short run: checks the harness, not the speed.
        #[arg(long)]
        quick: bool,
    },
    /// The expert against the positions with known best answers (issue
    /// 47): right hints and verdicts per kind of decision.
    Positions {
        /// Playouts a decision (the default budget's, without its clock).
        #[arg(long, default_value_t = tripoley_bots::Budget::DEFAULT.playouts)]
        playouts: u32,
        /// The expert bot is asked at each position with this many seeds.
        #[arg(long, default_value_t = 10)]
        seeds: u32,
        /// Only the positions the test command runs.
        #[arg(long)]
        fast: bool,
        /// A line for every position, not only the wrong ones.
        #[arg(long)]
        verbose: bool,
        /// One JSON object per position instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Verdicts on moves of heuristic games against what the two moves earn
    /// in duplicate continuations played by experts (issue 47).
    Consistency(super::proof::ConsistencyArgs),
}

/// One line of `bench deals --json`.
#[derive(Serialize)]
struct DealsFigure {
    bench: &'static str,
    preset: &'static str,
    players: usize,
    bots: &'static str,
    threads: usize,
    deals_per_sec: f64,
}

/// One line of `bench eval --json`.
#[derive(Serialize)]
struct EvalFigure {
    bench: &'static str,
    cards: usize,
    evals_per_sec: f64,
}

/// The hand sizes measured: Hold'em's 7, and the hands of Tripoley tables.
const EVAL_SIZES: [usize; 5] = [5, 7, 13, 18, 26];
/// Hands generated per size: enough to defeat the branch predictor and
/// caches that a short repeated list would flatter.
const EVAL_HANDS: usize = 1 << 20;

/// Runs the chosen benchmark and prints its figures, with a word when the
/// machine was busy while it ran.
pub fn run(args: &Args) {
    let json = match args.what {
        What::Deals { json, .. }
        | What::Eval { json, .. }
        | What::Positions { json, .. }
        | What::Consistency(super::proof::ConsistencyArgs { json, .. }) => json,
    };
    measure(args);
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    if let Some(note) = load_average().and_then(|load| busy_note(load, cores)) {
        // JSON lines stay JSON: the word goes to the terminal.
        if json {
            eprintln!("{note}");
        } else {
            println!("{note}");
        }
    }
}

/// The one-minute load average (Linux), if the system says it.
fn load_average() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// What to say next to figures measured at `load` on `cores`: nothing when
/// the machine had a core for each runnable thread.
fn busy_note(load: f64, cores: usize) -> Option<String> {
    (load > cores as f64).then(|| {
        format!(
            "note: the machine was busy (load average {load:.1} on {cores} cores): these \
             figures are lower than an idle machine's"
        )
    })
}

fn measure(args: &Args) {
    match args.what {
        What::Positions {
            playouts,
            seeds,
            fast,
            verbose,
            json,
        } => super::proof::positions(playouts, seeds, fast, verbose, json),
        What::Consistency(ref c) => super::proof::consistency(c),
        What::Deals { json, quick } => bench_deals(json, quick),
        What::Eval { json, quick } => {
            if cfg!(debug_assertions) && !json {
                eprintln!(
                    "note: this is a debug build; run `cargo run --release -- bench eval` for real figures"
                );
            }
            for cards in EVAL_SIZES {
                let rate = if quick {
                    eval_rate(cards, 1 << 10, Duration::from_millis(5))
                } else {
                    eval_rate(cards, EVAL_HANDS, PASS)
                };
                if json {
                    let fig = EvalFigure {
                        bench: "eval",
                        cards,
                        evals_per_sec: rate.round(),
                    };
                    println!(
                        "{}",
                        serde_json::to_string(&fig).expect("plain data serialises")
                    );
                } else {
                    println!("{cards:>2} cards: {:>7.1} M evaluations/s", rate / 1e6);
                }
            }
        }
    }
}

/// How long one timed pass lasts at least.
const PASS: Duration = Duration::from_millis(200);

/// Evaluations per second of [`Evaluator::best`] over `count` pre-generated
/// hands, the best of three passes of at least `pass` each.
fn eval_rate(cards: usize, count: usize, pass: Duration) -> f64 {
    let mut rng = seeded_rng(cards as u64);
    let hands: Vec<CardSet> = (0..count)
        .map(|_| CardSet::random(&mut rng, cards))
        .collect();
    let eval = Evaluator::STANDARD;
    let mut best = 0.0f64;
    for _ in 0..3 {
        let start = Instant::now();
        let mut done = 0usize;
        while start.elapsed() < pass {
            let mut acc = 0u32;
            for &h in &hands {
                acc = acc.wrapping_add(eval.best(black_box(h)).value());
            }
            black_box(acc);
            done += hands.len();
        }
        best = best.max(done as f64 / start.elapsed().as_secs_f64());
    }
    best
}

/// Runs `bench deals`.
fn bench_deals(json: bool, quick: bool) {
    if cfg!(debug_assertions) && !json {
        eprintln!(
            "note: this is a debug build; run `cargo run --release -- bench deals` for real figures"
        );
    }
    let all = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let pass = if quick {
        Duration::from_millis(20)
    } else {
        Duration::from_secs(1)
    };
    for players in [4, 9] {
        for bot in [BotKind::Random, BotKind::Heuristic] {
            for threads in [1, all] {
                let rate = deals_rate(players, bot, threads, pass);
                if json {
                    let fig = DealsFigure {
                        bench: "deals",
                        preset: "pagat",
                        players,
                        bots: bot.name(),
                        threads,
                        deals_per_sec: rate.round(),
                    };
                    println!(
                        "{}",
                        serde_json::to_string(&fig).expect("plain data serialises")
                    );
                } else {
                    println!(
                        "pagat {players} players, {:<9} {threads} thread(s): {:>10.0} deals/s",
                        bot.name(),
                        rate
                    );
                }
            }
        }
    }
}

/// Complete deals per second: whole games of `pagat` between bots of one
/// kind, on `threads` threads, for at least `pass`. The games are played
/// without events (as the simulator's searches and bots need none); every
/// rule is applied the same.
fn deals_rate(players: usize, bot: BotKind, threads: usize, pass: Duration) -> f64 {
    let rules = Rules::preset(Preset::Pagat);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("threads start");
    // A tenth of a pass untimed first: the threads start, the evaluator
    // builds its tables once per process, caches and predictors warm up;
    // what is timed is the steady state.
    play_for(&pool, &rules, players, bot, pass / 10);
    let start = Instant::now();
    let deals = play_for(&pool, &rules, players, bot, pass);
    deals as f64 / start.elapsed().as_secs_f64()
}

/// Plays whole games on every thread of `pool` for `pass`; returns the deals played.
fn play_for(
    pool: &rayon::ThreadPool,
    rules: &Rules,
    players: usize,
    bot: BotKind,
    pass: Duration,
) -> u64 {
    let threads = pool.current_num_threads() as u64;
    let start = Instant::now();
    let deals = AtomicU64::new(0);
    pool.broadcast(|ctx| {
        let mut bots: Vec<_> = (0..players).map(|_| bot.make(rules)).collect();
        let mut game_index = ctx.index() as u64;
        while start.elapsed() < pass {
            let game =
                play_game_quietly(rules, &mut bots, game_index).expect("bots play legal moves");
            deals.fetch_add(u64::from(game.deals_done()), Ordering::Relaxed);
            game_index += threads;
        }
    });
    deals.load(Ordering::Relaxed)
}

#[cfg(test)]
mod tests {
    use super::busy_note;

    #[test]
    fn figures_say_when_the_machine_was_busy() {
        assert_eq!(busy_note(1.9, 2), None);
        assert_eq!(
            busy_note(8.46, 2).as_deref(),
            Some(
                "note: the machine was busy (load average 8.5 on 2 cores): these figures are \
                 lower than an idle machine's"
            )
        );
    }
}
