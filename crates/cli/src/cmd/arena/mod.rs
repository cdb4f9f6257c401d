//! `tripoley arena`: duplicate matches between bots, Tripoley's here and
//! Napalm's in [`napalm`].

mod napalm;

use std::fmt::Write as _;

use tripoley_bots::BotSpec;
use tripoley_bots::arena::{ArenaConfig, ArenaSummary, run_arena};
use tripoley_bots::sim::Stage;
use tripoley_game::stats::Estimate;
use tripoley_table::protocol::GameKind;

use crate::Failure;
use crate::setup::{
    BotFlags, TableArgs, estimate, estimate_table, fallback_note, parse_bots, run_with_progress,
    thousands, whole, wrap,
};

/// Arguments of `tripoley arena`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game: tripoley (the default) or napalm (then each duplicate deal
    /// is one whole game, scored by the chips each seat won).
    #[arg(long, value_name = "GAME", value_parser = str::parse::<GameKind>, default_value_t)]
    game: GameKind,
    #[command(flatten)]
    table: TableArgs,
    /// The bots, one to --players of them, seated in turn around the table:
    /// random, heuristic, expert, expert@N (the expert at N playouts a
    /// decision, whatever --budget says), or exec:COMMAND (an outside
    /// program, see docs/bot-protocol.md).
    #[arg(long, default_value = "expert,heuristic")]
    bots: String,
    /// Duplicate deals: each is played once per rotation of the bots.
    #[arg(long, default_value_t = 1000)]
    deals: u64,
    #[command(flatten)]
    bot_flags: BotFlags,
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
    if args.game == GameKind::Napalm {
        return napalm::run(args);
    }
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
    let options = args.bot_flags.options();
    let config = ArenaConfig {
        rules,
        players,
        bots,
        deals: args.deals,
        seed: args.seed,
        options,
    };
    let (summary, secs) =
        run_with_progress(args.deals, "duplicate deals", args.threads, |progress| {
            run_arena(&config, progress)
        })?;
    if args.json {
        let mut v = serde_json::to_value(&summary).expect("summaries serialise");
        v["elapsed_secs"] = secs.into();
        v["budget"] = serde_json::json!({
            "playouts": options.budget.playouts,
            "time_ms": options.budget.time.map(|t| t.as_millis() as u64),
        });
        println!("{v}");
    } else {
        print!("{}", table(&summary, secs));
    }
    Ok(())
}

/// The summary as text tables, at most 100 columns wide.
fn table(s: &ArenaSummary, secs: f64) -> String {
    let mut o = head(
        &format!(
            "{} duplicate deals x {} line-ups = {} one-deal games, {} players, {secs:.1} s",
            thousands(s.deals),
            s.lineups.len(),
            thousands(s.games),
            s.players,
        ),
        &s.lineups,
        "deal",
    );
    let columns: Vec<&str> = ["total"]
        .into_iter()
        .chain(Stage::ALL.iter().map(|st| st.key()))
        .collect();
    let mut notes = Vec::new();
    let rows: Vec<_> = s
        .bots
        .iter()
        .map(|b| {
            let note = b.outside.as_ref().and_then(|o| fallback_note(&b.bot, o));
            let mark = if note.is_some() { " *" } else { "" };
            notes.extend(note);
            let mut es = vec![b.chips.chips_per_deal];
            es.extend(b.chips.by_stage.values().copied());
            (format!("{} x{}{mark}", b.bot, b.seats), es)
        })
        .collect();
    o.push_str(&estimate_table("bot", &columns, &rows));
    for n in notes {
        o.push_str(&wrap(&n, 2));
    }
    differences(
        &mut o,
        "deal",
        s.differences
            .iter()
            .map(|d| (d.bot.to_string(), d.other.to_string(), d.chips_per_deal)),
    );
    for r in &s.search {
        let _ = writeln!(
            o,
            "\nsearch ({}): {} decisions, {} searched, {} playouts a second per thread;\n\
             decision time mean {:.2} ms, median {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            r.bot,
            thousands(r.decisions),
            thousands(r.searched),
            whole(r.playouts_per_sec),
            r.mean_ms,
            r.p50_ms,
            r.p99_ms,
            r.max_ms
        );
    }
    o
}

/// The start of an arena's text: `title`, each line-up, and what the table
/// of chips below counts (chips per seat per `unit`).
fn head(title: &str, lineups: &[Vec<String>], unit: &str) -> String {
    let mut o = format!("{title}\n");
    for (i, l) in lineups.iter().enumerate() {
        o.push_str(&wrap(&format!("line-up {}: {}", i + 1, l.join(", ")), 4));
    }
    let _ = writeln!(
        o,
        "\nchips won per seat per {unit} (mean ± 95% interval over duplicate deals)"
    );
    o
}

/// The differences between pairs of bots, `(bot, other, chips per seat per
/// unit)`, when there are any.
fn differences(
    o: &mut String,
    unit: &str,
    pairs: impl ExactSizeIterator<Item = (String, String, Estimate)>,
) {
    if pairs.len() == 0 {
        return;
    }
    let _ = writeln!(o, "\ndifferences (same decks, chips per seat per {unit})");
    for (bot, other, chips) in pairs {
        let _ = writeln!(o, "{bot} - {other}: {}", estimate(&chips));
    }
}
