//! `tripoley arena --game napalm`: duplicate matches between Napalm's
//! bots, one whole game per duplicate deal (`tripoley_napalm::arena`).

use serde::Serialize;
use tripoley_bots::BotKind;
use tripoley_game::arena::Lineups;
use tripoley_game::stats::Estimate;
use tripoley_napalm::NapalmBotKind;

use super::Args;
use crate::Failure;
use crate::napalm::{napalm_bots_only, napalm_kind, one_rule_set};
use crate::setup::{estimate_table, parse_bots, run_with_progress, thousands};

/// One bot's results.
#[derive(Serialize)]
struct BotReport {
    bot: NapalmBotKind,
    /// Seats it held in each game.
    seats: usize,
    chips_per_game: Estimate,
}

/// How much more one bot won than another, per seat per game.
#[derive(Serialize)]
struct Difference {
    bot: NapalmBotKind,
    other: NapalmBotKind,
    chips_per_game: Estimate,
}

/// The result of `tripoley arena --game napalm`.
#[derive(Serialize)]
struct Summary {
    game: &'static str,
    players: usize,
    /// Duplicate deals played.
    deals: u64,
    /// Games played: deals times line-ups.
    games: u64,
    seed: u64,
    lineups: Vec<Vec<String>>,
    bots: Vec<BotReport>,
    differences: Vec<Difference>,
}

/// Plays the Napalm match `args` asks for and prints the summary; refuses
/// Tripoley's rules and bots as `sim --game napalm` does.
pub(super) fn run(args: &Args) -> Result<(), Failure> {
    let rules = one_rule_set(&args.table)?;
    let players = args.table.players;
    let kinds = parse_bots::<BotKind>(&args.bots)?;
    napalm_bots_only(&kinds)?;
    let bots: Vec<NapalmBotKind> = kinds.into_iter().map(napalm_kind).collect();
    let lineups = Lineups::new(players, &bots).map_err(Failure::usage)?;
    if args.deals == 0 {
        return Err(Failure::usage("--deals must be at least 1"));
    }
    let (outcome, secs) =
        run_with_progress(args.deals, "duplicate deals", args.threads, |progress| {
            Ok::<_, Failure>(tripoley_napalm::arena::play_arena(
                &rules, &lineups, args.deals, args.seed, progress,
            ))
        })?;
    let distinct = lineups.distinct();
    let summary = Summary {
        game: "napalm",
        players,
        deals: outcome.deals,
        games: outcome.deals * lineups.games_per_deal(),
        seed: args.seed,
        lineups: lineups.names(),
        bots: (0..distinct.len())
            .map(|b| BotReport {
                bot: distinct[b],
                seats: lineups.seats(b),
                chips_per_game: outcome.bots[b][0],
            })
            .collect(),
        differences: outcome
            .differences
            .iter()
            .map(|&(i, j, chips_per_game)| Difference {
                bot: distinct[i],
                other: distinct[j],
                chips_per_game,
            })
            .collect(),
    };
    if args.json {
        let mut v = serde_json::to_value(&summary).expect("summaries serialise");
        v["elapsed_secs"] = secs.into();
        println!("{v}");
    } else {
        print!("{}", table(&summary, secs));
    }
    Ok(())
}

/// The summary as text, at most 100 columns wide.
fn table(s: &Summary, secs: f64) -> String {
    let mut o = super::head(
        &format!(
            "Napalm: {} duplicate deals x {} line-ups = {} games, {} players, {secs:.1} s",
            thousands(s.deals),
            s.lineups.len(),
            thousands(s.games),
            s.players,
        ),
        &s.lineups,
        "game",
    );
    let rows: Vec<_> = s
        .bots
        .iter()
        .map(|b| (format!("{} x{}", b.bot, b.seats), vec![b.chips_per_game]))
        .collect();
    o.push_str(&estimate_table("bot", &["chips"], &rows));
    super::differences(
        &mut o,
        "game",
        s.differences
            .iter()
            .map(|d| (d.bot.to_string(), d.other.to_string(), d.chips_per_game)),
    );
    o
}
