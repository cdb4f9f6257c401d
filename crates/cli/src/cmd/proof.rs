//! `tripoley bench positions` and `tripoley bench consistency`: the
//! expert against positions with known best answers, and its verdicts
//! against what the moves earn when the game is played on (issue 47).

use std::collections::BTreeMap;
use std::time::Instant;

use serde::Serialize;
use tripoley_bots::Budget;
use tripoley_bots::positions::consistency::{self, Config, Players, Row, Sample};
use tripoley_bots::positions::{self, Count, Kind, Outcome, Tally, show};
use tripoley_engine::Preset;

/// One line of `bench positions --json`: a position's outcome.
#[derive(Serialize)]
struct PositionLine<'a> {
    bench: &'static str,
    name: &'a str,
    kind: &'static str,
    preset: &'static str,
    hint: String,
    hint_right: bool,
    wrong: &'a str,
    verdict_best: String,
    verdict_cost: f64,
    verdict_std_error: f64,
    verdict_right: bool,
    bot_right: u32,
    bot_seeds: u32,
}

/// Runs the positions (all, or only the fast ones) at `playouts` a decision
/// and prints each wrong one, then the figures per kind.
pub fn positions(playouts: u32, seeds: u32, fast: bool, verbose: bool, json: bool) {
    let budget = Budget::playouts(playouts);
    let start = Instant::now();
    let mut outcomes: Vec<Outcome> = Vec::new();
    let mut bot: BTreeMap<Kind, (u32, u32)> = BTreeMap::new();
    for p in positions::all().iter().filter(|p| !fast || p.fast) {
        let (o, right) = match positions::ask(p, budget)
            .and_then(|o| Ok((o, positions::bot_right(p, budget, seeds)?)))
        {
            Ok(o) => o,
            Err(e) => {
                eprintln!("{}: {e}", p.name);
                std::process::exit(1);
            }
        };
        let b = bot.entry(p.kind).or_default();
        b.0 += right;
        b.1 += seeds;
        if json {
            let line = PositionLine {
                bench: "positions",
                name: p.name,
                kind: p.kind.name(),
                preset: p.preset.name(),
                hint: show(o.hint),
                hint_right: o.hint_right,
                wrong: p.wrong,
                verdict_best: show(o.verdict.best),
                verdict_cost: o.verdict.cost,
                verdict_std_error: o.verdict.std_error,
                verdict_right: o.verdict_right,
                bot_right: right,
                bot_seeds: seeds,
            };
            println!(
                "{}",
                serde_json::to_string(&line).expect("plain data serialises")
            );
        } else if verbose || !o.right() || right < seeds {
            println!(
                "{} {} ({}): hint {}{}; verdict on {}: best {}, cost {:.2} ± {:.2}{}; bot right {right}/{seeds}",
                if o.right() { "ok   " } else { "WRONG" },
                p.name,
                p.preset,
                show(o.hint),
                if o.hint_right { "" } else { " (wrong)" },
                p.wrong,
                show(o.verdict.best),
                o.verdict.cost,
                o.verdict.std_error,
                if o.verdict_right { "" } else { " (wrong)" },
            );
            if !o.right() {
                println!("      right: {}; why: {}", p.answer, p.why);
            }
        }
        outcomes.push(o);
    }
    if json {
        return;
    }
    let tally = Tally::of(&outcomes);
    println!();
    println!(
        "{:<14} {:>9} {:>9} {:>9} {:>12}",
        "kind", "hint", "verdict", "both", "bot"
    );
    let row = |name: &str, c: &Count, (r, n): (u32, u32)| {
        println!(
            "{name:<14} {:>9} {:>9} {:>9} {:>12}",
            format!("{}/{}", c.hints, c.total),
            format!("{}/{}", c.verdicts, c.total),
            format!("{}/{}", c.both, c.total),
            format!("{r}/{n}"),
        );
    };
    for kind in Kind::ALL {
        if let Some(c) = tally.kinds.get(&kind) {
            row(kind.name(), c, bot.get(&kind).copied().unwrap_or_default());
        }
    }
    let all = bot.values().fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    row("all", &tally.total(), all);
    println!(
        "hint: the hint is right; verdict: the verdict on a wrong answer names a right one best \
         and does not measure the wrong one better; bot: the expert bot's answers right over {seeds} seeds each"
    );
    println!(
        "{} positions at {playouts} playouts a decision (the default budget's without its clock), {:.1} s",
        outcomes.len(),
        start.elapsed().as_secs_f64()
    );
}

/// The presets that ask decisions.
const PRESETS: [Preset; 4] = [
    Preset::Pagat,
    Preset::Tripoley,
    Preset::Rummoli,
    Preset::MichiganCasino,
];

/// One line of `bench consistency --json`: a decision judged and played on.
#[derive(Serialize)]
struct SampleLine {
    bench: &'static str,
    preset: &'static str,
    game: u64,
    step: usize,
    seat: u8,
    kind: &'static str,
    played: String,
    best: String,
    cost: f64,
    cost_se: f64,
    earned: f64,
    earned_se: f64,
    /// The verdict's spread over worlds (what one world may stray).
    cost_sd: f64,
    agrees: bool,
    agrees_in_one_world: bool,
}

/// Settings of `bench consistency`.
#[derive(clap::Args, Debug)]
pub struct ConsistencyArgs {
    /// Decisions (where the verdict's best is not the move played) per preset.
    #[arg(long, default_value_t = 24)]
    pub decisions: usize,
    /// Continuations per decision, each playing both moves.
    #[arg(long, default_value_t = 48)]
    pub continuations: u32,
    /// The verdicts' playouts.
    #[arg(long, default_value_t = tripoley_bots::Budget::DEFAULT.playouts)]
    pub verdict_playouts: u32,
    /// Playouts a decision of the experts playing the continuations.
    #[arg(long, default_value_t = 16)]
    pub players_playouts: u32,
    /// Who plays the continuations: experts (what the moves earn in expert
    /// hands), or the verdict's own playout players (a check of the
    /// verdict's sampling: the cost must then be earned exactly).
    #[arg(long, value_enum, default_value_t = ContinueWith::Experts)]
    pub continue_with: ContinueWith,
    /// One preset only (every preset that asks decisions by default).
    #[arg(long, value_name = "NAME", value_parser = crate::setup::parse_preset)]
    pub preset: Option<Preset>,
    /// Seats.
    #[arg(long, default_value_t = 4)]
    pub players: usize,
    /// Seed of the games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// One JSON object per decision instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Who plays the continuations of `bench consistency`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContinueWith {
    /// Experts in every seat.
    Experts,
    /// The heuristic players of the verdict's playouts.
    Playouts,
}

impl ConsistencyArgs {
    /// The check's settings for `preset`.
    fn config(&self, preset: Preset) -> Config {
        Config {
            preset,
            players: self.players,
            decisions: self.decisions,
            rate: 0.2,
            verdict: Budget::playouts(self.verdict_playouts),
            continuations: self.continuations,
            continued_by: match self.continue_with {
                ContinueWith::Experts => Players::Experts(Budget::playouts(self.players_playouts)),
                ContinueWith::Playouts => Players::Playouts,
            },
            seed: self.seed,
        }
    }
}

impl SampleLine {
    /// A sample's line.
    fn of(s: &Sample) -> SampleLine {
        SampleLine {
            bench: "consistency",
            preset: s.preset.name(),
            game: s.game,
            step: s.step,
            seat: s.seat,
            kind: s.kind.name(),
            played: show(s.played),
            best: show(s.best),
            cost: s.cost,
            cost_se: s.cost_se,
            earned: s.earned,
            earned_se: s.earned_se,
            cost_sd: s.cost_sd,
            agrees: s.agrees(),
            agrees_in_one_world: s.agrees_in_one_world(),
        }
    }
}

/// Runs the self-consistency check on every preset that asks decisions and
/// prints its figures.
pub fn consistency(args: &ConsistencyArgs) {
    let start = Instant::now();
    let mut all = consistency::Report::default();
    let presets = args.preset.map_or(PRESETS.to_vec(), |p| vec![p]);
    for preset in presets {
        let json = args.json;
        let report = consistency::check(&args.config(preset), &|s: &Sample| {
            if json {
                println!(
                    "{}",
                    serde_json::to_string(&SampleLine::of(s)).expect("plain data serialises")
                );
            }
        });
        all.samples.extend(report.samples);
    }
    if args.json {
        return;
    }
    println!(
        "{:<16} {:>5} {:>6} {:>7} {:>9} {:>14} {:>14} {:>14}",
        "", "n", "agree", "agree1w", "not worse", "cost", "earned", "earned - cost"
    );
    let line = |name: &str, r: &Row| {
        println!(
            "{name:<16} {:>5} {:>5.0}% {:>6.0}% {:>8.0}% {:>14} {:>14} {:>14}{}",
            r.n,
            100.0 * r.agree_share(),
            if r.n == 0 {
                0.0
            } else {
                100.0 * r.agree_world as f64 / r.n as f64
            },
            if r.n == 0 {
                0.0
            } else {
                100.0 * r.direction as f64 / r.n as f64
            },
            pm(r.cost.mean, r.cost.se),
            pm(r.earned.mean, r.earned.se),
            pm(r.bias.mean, r.bias.se),
            if r.n < 5 || r.unbiased() {
                ""
            } else {
                "  biased"
            },
        );
    };
    for (preset, r) in all.by_preset() {
        line(preset.name(), &r);
    }
    for (kind, r) in all.by_kind() {
        line(kind.name(), &r);
    }
    line("all", &all.total());
    println!(
        "agree: within 2 standard errors combined; agree1w: within 2 standard deviations of what \
         one world may stray (the verdict's spread over worlds added); not worse: the \
         continuations do not find the verdict's best worse than the move played"
    );
    let (faulted, borne_out) = all.strong_fives();
    println!(
        "strong fives (straight or better) called mistakes for a weaker five: {faulted}, \
         borne out by the continuations: {borne_out}"
    );
    let by = match args.continue_with {
        ContinueWith::Experts => format!("experts at {} playouts", args.players_playouts),
        ContinueWith::Playouts => "the verdicts' playout players".to_owned(),
    };
    println!(
        "{} players, {} decisions a preset, verdicts at {} playouts, {} duplicate continuations \
         by {by}, {:.0} s",
        args.players,
        args.decisions,
        args.verdict_playouts,
        args.continuations,
        start.elapsed().as_secs_f64()
    );
}

fn pm(mean: f64, se: f64) -> String {
    format!("{mean:+.2} ± {se:.2}")
}
