//! `tripoley arena`: duplicate matches between bots.

use std::fmt::Write as _;
use std::time::Duration;

use tripoley_bots::arena::{ArenaConfig, ArenaSummary, run_arena};
use tripoley_bots::sim::{Estimate, Stage};
use tripoley_bots::{BotOptions, BotSpec, Budget};

use crate::Failure;
use crate::setup::{TableArgs, parse_bots, run_with_progress};

/// Arguments of `tripoley arena`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    table: TableArgs,
    /// The bots, one to --players of them, seated in turn around the table:
    /// random, heuristic, expert, or exec:COMMAND (an outside program, see
    /// docs/bot-protocol.md).
    #[arg(long, default_value = "expert,heuristic")]
    bots: String,
    /// Duplicate deals: each is played once per rotation of the bots.
    #[arg(long, default_value_t = 1000)]
    deals: u64,
    /// The expert's budget per decision, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 10)]
    budget: u32,
    /// The expert's budget as an exact number of playouts per decision, with
    /// no time cap (fully reproducible; overrides --budget).
    #[arg(long, value_name = "N")]
    playouts: Option<u32>,
    /// How long an outside bot may take to answer, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    exec_timeout: u64,
    /// Seeds the decks and the bots.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// Print the summary as one JSON object.
    #[arg(long)]
    json: bool,
}

/// Plays the match and prints the summary.
pub fn run(args: &Args) -> Result<(), Failure> {
    let rules = args.table.rules()?;
    let players = args.table.players;
    let bots = parse_bots::<BotSpec>(&args.bots)?;
    if bots.len() > players {
        return Err(Failure::usage(format!(
            "--bots names {} bots for {players} players: name at most one per seat",
            bots.len()
        )));
    }
    if args.deals == 0 {
        return Err(Failure::usage("--deals must be at least 1"));
    }
    if args.threads == Some(0) {
        return Err(Failure::usage("--threads must be at least 1"));
    }
    if args.budget == 0 || args.playouts == Some(0) {
        return Err(Failure::usage("the expert's budget must be at least 1"));
    }
    let budget = args
        .playouts
        .map_or(Budget::millis(args.budget), Budget::playouts);
    let config = ArenaConfig {
        rules,
        players,
        bots,
        deals: args.deals,
        seed: args.seed,
        options: BotOptions {
            budget,
            exec_timeout: Duration::from_millis(args.exec_timeout.max(1)),
        },
    };
    let (summary, secs) =
        run_with_progress(args.deals, "duplicate deals", args.threads, |progress| {
            run_arena(&config, progress)
        })?;
    if args.json {
        let mut v = serde_json::to_value(&summary).expect("summaries serialise");
        v["elapsed_secs"] = secs.into();
        v["budget"] = serde_json::json!({
            "playouts": budget.playouts,
            "time_ms": budget.time.map(|t| t.as_millis() as u64),
        });
        println!("{v}");
    } else {
        print!("{}", table(&summary, secs));
    }
    Ok(())
}

fn est(e: &Estimate) -> String {
    format!("{:+.3} ± {:.3}", e.mean, e.ci95)
}

/// The summary as text tables.
fn table(s: &ArenaSummary, secs: f64) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "{} duplicate deals x {} line-ups = {} one-deal games, {} players, {:.1} s",
        s.deals,
        s.lineups.len(),
        s.games,
        s.players,
        secs
    );
    for (i, l) in s.lineups.iter().enumerate() {
        let _ = writeln!(o, "line-up {}: {}", i + 1, l.join(", "));
    }
    let _ = writeln!(
        o,
        "\nchips won per seat per deal (mean ± 95% interval over duplicate deals)"
    );
    let _ = write!(o, "{:<24} {:>18}", "bot", "total");
    for st in Stage::ALL {
        let _ = write!(o, " {:>16}", st.key());
    }
    o.push('\n');
    for b in &s.bots {
        let label = format!("{} x{}", b.bot, b.seats);
        let _ = write!(o, "{label:<24} {:>18}", est(&b.chips.chips_per_deal));
        for e in b.chips.by_stage.values() {
            let _ = write!(o, " {:>16}", est(e));
        }
        o.push('\n');
    }
    if !s.differences.is_empty() {
        let _ = writeln!(o, "\ndifferences (same decks, chips per seat per deal)");
        for d in &s.differences {
            let _ = writeln!(o, "{} - {}: {}", d.bot, d.other, est(&d.chips_per_deal));
        }
    }
    for r in &s.search {
        let _ = writeln!(
            o,
            "\nsearch ({}): {} decisions, {} searched, {:.0} playouts/s per thread; \
             decision time mean {:.2} ms, median {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            r.bot,
            r.decisions,
            r.searched,
            r.playouts_per_sec,
            r.mean_ms,
            r.p50_ms,
            r.p99_ms,
            r.max_ms
        );
    }
    o
}
