//! `tripoley sim`: self-play between bots on all cores, summarised.

use std::fmt::Write as _;
use std::path::PathBuf;

use tripoley_bots::sim::{Estimate, SimConfig, Stage, Summary, simulate};

use crate::Failure;
use crate::setup::{TableArgs, bots_for_seats, run_with_progress};

/// Arguments of `tripoley sim`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game: tripoley (the default) or napalm (then --deals counts hands,
    /// exactly, and --out writes one CSV file).
    #[arg(long, value_enum, default_value_t)]
    game: crate::napalm::GameKind,
    #[command(flatten)]
    table: TableArgs,
    /// Deals to play (whole games are played: a few more may be).
    #[arg(long, default_value_t = 100_000)]
    deals: u64,
    /// The bots, one per seat or one for all: random, heuristic.
    #[arg(long, default_value = "heuristic")]
    bots: String,
    /// Seeds everything: the same seed gives the same results.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// Write CSV files and plots (PNG and SVG) into this folder.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Print the summary as one JSON object.
    #[arg(long)]
    json: bool,
    /// Save game records (replay them with `tripoley replay`) into this folder.
    #[arg(long, value_name = "DIR")]
    save_records: Option<PathBuf>,
    /// How many games --save-records keeps, from the first.
    #[arg(long, default_value_t = 100)]
    save_limit: usize,
}

/// Runs the simulation and prints the summary.
pub fn run(args: &Args) -> Result<(), Failure> {
    if args.game == crate::napalm::GameKind::Napalm {
        return crate::napalm::simulate(&crate::napalm::SimOptions {
            table: &args.table,
            bots: &args.bots,
            hands: args.deals,
            seed: args.seed,
            threads: args.threads,
            out: args.out.as_deref(),
            json: args.json,
            save_records: args.save_records.as_deref().map(|d| (d, args.save_limit)),
        });
    }
    let rules = args.table.rules()?;
    let bots = bots_for_seats(&args.bots, args.table.players)?;
    if args.deals == 0 {
        return Err(Failure::usage("--deals must be at least 1"));
    }
    if args.threads == Some(0) {
        return Err(Failure::usage("--threads must be at least 1"));
    }
    let config = SimConfig {
        rules,
        bots,
        deals: args.deals,
        seed: args.seed,
        series_deals: 10_000,
        save_records: args.save_records.clone().map(|d| (d, args.save_limit)),
    };
    let (summary, secs) = run_with_progress(args.deals, "deals", args.threads, |progress| {
        simulate(&config, progress)
    })?;
    if args.json {
        let mut v = serde_json::to_value(&summary).expect("summaries serialise");
        v["elapsed_secs"] = secs.into();
        v["deals_per_sec"] = (summary.deals as f64 / secs).round().into();
        println!("{v}");
    } else {
        print!("{}", table(&summary, secs));
    }
    if let Some(dir) = &args.out {
        crate::plots::write_all(dir, &summary).map_err(|e| Failure {
            message: format!("writing {}: {e}", dir.display()),
            code: 1,
        })?;
        if !args.json {
            println!("CSV files and plots written to {}", dir.display());
        }
    }
    Ok(())
}

fn est(e: &Estimate) -> String {
    format!("{:+.3} ± {:.3}", e.mean, e.ci95)
}

/// Cells right-aligned in columns of 16.
fn cells<'a>(items: impl Iterator<Item = String> + 'a) -> String {
    items.fold(String::new(), |mut acc, c| {
        let _ = write!(acc, "{c:>16}");
        acc
    })
}

/// The summary as text tables.
fn table(s: &Summary, secs: f64) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "{} deals in {} games, {:.1} s ({:.0} deals/s)\n",
        s.deals,
        s.games,
        secs,
        s.deals as f64 / secs
    );
    let stages: Vec<&str> = Stage::ALL.iter().map(|st| st.key()).collect();
    let _ = writeln!(o, "chips won per deal (mean ± 95% interval)");
    let _ = writeln!(
        o,
        "{:<16} {:>16}  {}",
        "seat",
        "total",
        cells(stages.iter().map(ToString::to_string))
    );
    for seat in &s.seats {
        let label = format!("{} ({})", seat.seat, seat.bot);
        let by: String = cells(seat.chips.by_stage.values().map(est));
        let _ = writeln!(
            o,
            "{label:<16} {:>16}  {by}",
            est(&seat.chips.chips_per_deal)
        );
    }
    for bot in &s.bots {
        let label = format!("{} x{}", bot.bot, bot.seats);
        let by: String = cells(bot.chips.by_stage.values().map(est));
        let _ = writeln!(
            o,
            "{label:<16} {:>16}  {by}",
            est(&bot.chips.chips_per_deal)
        );
    }
    let _ = writeln!(
        o,
        "\nlayout spaces\n{:<12} {:>10} {:>14} {:>12}",
        "space", "claim_rate", "average_payout", "average_size"
    );
    for sp in &s.spaces {
        let _ = writeln!(
            o,
            "{:<12} {:>10.4} {:>14.2} {:>12.2}",
            sp.space, sp.claim_rate, sp.average_payout, sp.average_size
        );
    }
    let _ = writeln!(
        o,
        "\npoker: {} showdowns, {} won by folds (fold-win rate {:.4})",
        s.poker.showdowns, s.poker.fold_wins, s.poker.fold_win_rate
    );
    for (cat, share) in &s.poker.winning_categories {
        if *share > 0.0 {
            let _ = writeln!(o, "  {cat:<16} {share:.4}");
        }
    }
    let _ = writeln!(
        o,
        "\nMichigan: blocked rate {:.4}, first leader goes out {:.4}",
        s.michigan.blocked_rate, s.michigan.first_leader_goes_out_rate
    );
    o
}
