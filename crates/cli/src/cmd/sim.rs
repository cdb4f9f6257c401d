//! `tripoley sim`: self-play between bots on all cores, summarised.

use std::fmt::Write as _;
use std::path::PathBuf;

use tripoley_bots::sim::{SimConfig, Stage, Summary, simulate};
use tripoley_table::protocol::GameKind;

use crate::Failure;
use crate::setup::{
    BotFlags, TableArgs, bots_for_seats, estimate_table, fallback_note, output_folder,
    run_with_progress, thousands, whole, wrap,
};

/// Arguments of `tripoley sim`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game: tripoley (the default) or napalm (then --deals counts hands,
    /// exactly, and --out writes one CSV file).
    #[arg(long, value_name = "GAME", value_parser = str::parse::<GameKind>, default_value_t)]
    game: GameKind,
    #[command(flatten)]
    table: TableArgs,
    /// Deals to play, exactly (the last game is cut short after the last one).
    #[arg(long, default_value_t = 100_000)]
    deals: u64,
    /// The bots, one per seat or one for all: random, heuristic, expert,
    /// expert@N (the expert at N playouts a decision), or exec:COMMAND (an
    /// outside program, see docs/bot-protocol.md).
    #[arg(long, default_value = "heuristic")]
    bots: String,
    #[command(flatten)]
    bot_flags: BotFlags,
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
    for (flag, dir) in [("--out", &args.out), ("--save-records", &args.save_records)] {
        if let Some(dir) = dir {
            output_folder(flag, dir)?;
        }
    }
    if args.game == GameKind::Napalm {
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
    let config = SimConfig {
        rules,
        bots,
        options: args.bot_flags.options(),
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
        let files = crate::plots::write_all(dir, &summary).map_err(|e| Failure {
            message: format!("writing {}: {e}", dir.display()),
            code: 1,
        })?;
        if !args.json {
            println!("\nwritten to {}:", dir.display());
            for (file, what) in files {
                print!("{}", wrap(&format!("{file}: {what}"), 4));
            }
        }
    }
    Ok(())
}

/// The summary as text tables, at most 100 columns wide.
fn table(s: &Summary, secs: f64) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "{} deals in {} games, {secs:.1} s ({} deals a second)\n",
        thousands(s.deals),
        thousands(s.games),
        whole(s.deals as f64 / secs),
    );
    let columns: Vec<&str> = ["total"]
        .into_iter()
        .chain(Stage::ALL.iter().map(|st| st.key()))
        .collect();
    let row = |label: String, chips: &tripoley_bots::sim::ChipReport| {
        let mut es = vec![chips.chips_per_deal];
        es.extend(chips.by_stage.values().copied());
        (label, es)
    };
    let mut notes = Vec::new();
    let mut rows: Vec<_> = s
        .seats
        .iter()
        .map(|seat| row(format!("seat {} ({})", seat.seat, seat.bot), &seat.chips))
        .collect();
    for bot in &s.bots {
        let note = bot
            .outside
            .as_ref()
            .and_then(|o| fallback_note(&bot.bot, o));
        let mark = if note.is_some() { " *" } else { "" };
        notes.extend(note);
        rows.push(row(format!("{} x{}{mark}", bot.bot, bot.seats), &bot.chips));
    }
    let _ = writeln!(o, "chips won per deal (mean ± 95% interval)");
    o.push_str(&estimate_table("", &columns, &rows));
    for n in notes {
        o.push_str(&wrap(&n, 2));
    }
    let _ = writeln!(
        o,
        "\nlayout spaces\n{:<12} {:>24} {:>16} {:>26}",
        "space", "paid out in (of deals)", "average payout", "average chips as deal began"
    );
    for sp in &s.spaces {
        let _ = writeln!(
            o,
            "{:<12} {:>24} {:>16.2} {:>26.2}",
            sp.space,
            percent(sp.claim_rate),
            sp.average_payout,
            sp.average_size
        );
    }
    let _ = writeln!(
        o,
        "\npoker: {} pots won at a showdown, {} because everyone else folded ({})",
        thousands(s.poker.showdowns),
        thousands(s.poker.fold_wins),
        percent(s.poker.fold_win_rate)
    );
    let _ = writeln!(o, "winning hands at showdowns:");
    for cat in tripoley_cards::Category::ALL.iter().rev() {
        let share = s.poker.winning_categories.get(cat.key()).copied();
        if let Some(share) = share.filter(|&x| x > 0.0) {
            let _ = writeln!(o, "  {:<16} {:>7}", cat.name(), percent(share));
        }
    }
    let _ = writeln!(
        o,
        "\nMichigan: blocked in {} of deals; the first leader went out in {}",
        percent(s.michigan.blocked_rate),
        percent(s.michigan.first_leader_goes_out_rate)
    );
    o
}

/// A share as a percentage: `12.3%`, `0.04%` for small ones.
fn percent(share: f64) -> String {
    let p = share * 100.0;
    if p > 0.0 && p < 1.0 {
        format!("{p:.2}%")
    } else {
        format!("{p:.1}%")
    }
}
