//! Choosing a table from the command line: a preset or a house-rule file,
//! and the bots in the seats. Shared by the commands that play games.

use std::path::{Path, PathBuf};

use tripoley_engine::{Preset, Rules, RulesError};

use crate::Failure;

/// `--preset NAME`, with the engine's message for an unknown name.
pub fn parse_preset(name: &str) -> Result<Preset, String> {
    name.parse().map_err(|e| format!("{e}"))
}

/// Reads and checks a house-rule file.
pub fn load_house_rules(path: &Path) -> Result<Rules, Failure> {
    let shown = path.display();
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::usage(format!("cannot read the house-rule file {shown}: {e}")))?;
    Rules::from_toml(&text).map_err(|e| {
        let why = match e {
            // Already says it is about house rules; the file name says which.
            RulesError::Parse(why) => why,
            other => other.to_string(),
        };
        Failure::usage(format!("{shown} is not a valid house-rule file: {why}"))
    })
}

/// The rules and seats of a table.
#[derive(clap::Args, Debug)]
pub struct TableArgs {
    /// The rules: pagat (the default), tripoley, michigan-casino, rummoli or cosmo.
    #[arg(long, value_name = "NAME", value_parser = parse_preset, conflicts_with = "house_rules")]
    pub preset: Option<Preset>,
    /// A house-rule file (TOML; see `tripoley rules --toml`) instead of a preset.
    #[arg(long, value_name = "FILE.toml")]
    pub house_rules: Option<PathBuf>,
    /// Seats at the table.
    #[arg(long, default_value_t = 4)]
    pub players: usize,
}

impl TableArgs {
    /// The rules chosen, checked for the number of players.
    pub fn rules(&self) -> Result<Rules, Failure> {
        let rules = match &self.house_rules {
            Some(path) => load_house_rules(path)?,
            None => Rules::preset(self.preset.unwrap_or(Preset::Pagat)),
        };
        rules
            .check_players(self.players)
            .map_err(|e| Failure::usage(e.to_string()))?;
        Ok(rules)
    }
}

/// `--bots a,b,c`: one bot per seat, or one for every seat. `T` is
/// [`tripoley_bots::BotKind`] (built-in bots) or [`tripoley_bots::BotSpec`] (built-in bots
/// and outside programs, `exec:CMD`).
pub fn bots_for_seats<T>(list: &str, players: usize) -> Result<Vec<T>, Failure>
where
    T: std::str::FromStr<Err = String> + Clone,
{
    let kinds = parse_bots::<T>(list)?;
    match kinds.len() {
        1 => Ok(vec![kinds[0].clone(); players]),
        n if n == players => Ok(kinds),
        n => Err(Failure::usage(format!(
            "--bots names {n} bots for {players} players: name one per seat, or one for all"
        ))),
    }
}

/// `--bots a,b,c` as a list (names are separated by commas, so an `exec:`
/// command cannot contain one: put it in a script).
pub fn parse_bots<T: std::str::FromStr<Err = String>>(list: &str) -> Result<Vec<T>, Failure> {
    list.split(',')
        .map(str::parse::<T>)
        .collect::<Result<Vec<_>, _>>()
        .map_err(Failure::usage)
}

/// Runs `work` on a pool of `threads` threads (all cores by default) while a
/// progress bar counts `total` units named `unit` (indicatif draws nothing
/// when the output is not a terminal). Returns the result and the seconds
/// it took.
pub fn run_with_progress<T: Send, E: std::fmt::Display + Send>(
    total: u64,
    unit: &str,
    threads: Option<usize>,
    work: impl FnOnce(&(dyn Fn(u64) + Sync)) -> Result<T, E> + Send,
) -> Result<(T, f64), Failure> {
    if threads == Some(0) {
        return Err(Failure::usage("--threads must be at least 1"));
    }
    let bar = indicatif::ProgressBar::new(total);
    bar.set_style(
        indicatif::ProgressStyle::with_template(&format!(
            "{{bar:40}} {{pos}}/{{len}} {unit}, {{per_sec}}, eta {{eta}}"
        ))
        .expect("a valid template"),
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| Failure::usage(format!("cannot start threads: {e}")))?;
    let start = std::time::Instant::now();
    let result = pool
        .install(|| work(&|done| bar.set_position(done.min(total))))
        .map_err(|e| Failure {
            message: e.to_string(),
            code: 1,
        })?;
    bar.finish_and_clear();
    Ok((result, start.elapsed().as_secs_f64()))
}
