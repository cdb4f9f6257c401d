//! Choosing a table from the command line: a preset or a house-rule file,
//! and the bots in the seats. Shared by the commands that play games.

use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};

use tripoley_engine::{Preset, Rules, RulesError};

use crate::Failure;

/// `--preset NAME`, with the engine's message for an unknown name.
pub fn parse_preset(name: &str) -> Result<Preset, String> {
    name.parse().map_err(|e| format!("{e}"))
}

/// Parses `--lang`: a language the catalogue has (`en`, `es`, `es-MX`).
pub fn parse_lang(tag: &str) -> Result<tripoley_i18n::Lang, String> {
    tripoley_i18n::Lang::parse(tag).ok_or_else(|| {
        let known: Vec<_> = tripoley_i18n::Lang::ALL.iter().map(|l| l.code()).collect();
        format!(
            "no words in {tag:?}: the languages are {}",
            known.join(", ")
        )
    })
}

/// A text file as the player wrote it: a leading byte-order mark (which
/// some Windows editors write) is dropped, not refused.
pub fn read_text(path: &Path) -> std::io::Result<String> {
    let text = std::fs::read_to_string(path)?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_owned(),
        None => text,
    })
}

/// Reads and checks a house-rule file.
pub fn load_house_rules(path: &Path) -> Result<Rules, Failure> {
    let shown = path.display();
    let text = read_text(path)
        .map_err(|e| Failure::usage(format!("cannot read the house-rule file {shown}: {e}")))?;
    Rules::from_toml(&text)
        .map_err(|e| {
            let why = match e {
                // Already says it is about house rules; the file name says which.
                RulesError::Parse(why) => why,
                other => other.to_string(),
            };
            Failure::usage(format!("{shown} is not a valid house-rule file: {why}"))
        })
        .and_then(|rules| match rules.first_ante_shortfall() {
            None => Ok(rules),
            Some(why) => Err(Failure::usage(format!("{shown} cannot be played: {why}"))),
        })
}

/// The longest player name read from a file (a save, a record).
pub const MAX_NAME: usize = 32;

/// Why a player's name cannot be shown as it is, if it cannot: names are
/// printed to terminals, where a control character (an escape sequence
/// above all) would garble or take over the screen. `None`: it is fine.
pub fn name_problem(name: &str, max: usize) -> Option<String> {
    if name.trim().is_empty() {
        Some("a name is empty".to_owned())
    } else if name.chars().count() > max {
        Some(format!("a name is longer than {max} characters"))
    } else if name.chars().any(char::is_control) {
        Some(format!(
            "the name {:?} holds control characters (escape sequences)",
            name.escape_debug().to_string()
        ))
    } else {
        None
    }
}

/// Every name of a record read from a file, checked by the one rule for
/// names ([`tripoley_i18n::names::problem`]), as `--name` is (a file's bots
/// keep their "Bot 1").
pub fn check_names(names: &[String]) -> Result<(), String> {
    names
        .iter()
        .find_map(|n| tripoley_i18n::names::problem(n).map(|p| name_refused(n, p)))
        .map_or(Ok(()), Err)
}

/// Why a name is refused, in words.
pub fn name_refused(name: &str, problem: tripoley_i18n::names::Problem) -> String {
    use tripoley_i18n::names::{MAX_WIDTH, Problem};
    let shown = name.escape_debug().to_string();
    match problem {
        Problem::Empty => format!("the name {shown:?} shows nothing"),
        Problem::TooWide => format!(
            "the name {shown:?} is wider than {MAX_WIDTH} columns (CJK characters and emoji count 2)"
        ),
        Problem::Hidden => format!(
            "the name {shown:?} holds control characters, line separators or invisible characters (escape sequences or direction marks)"
        ),
        Problem::Marks => {
            format!("the name {shown:?} stacks more than four marks on one letter")
        }
        Problem::BotName => format!("the name {shown:?} looks like a bot's name (\"Bot 3\")"),
        Problem::You => {
            format!("the name {shown:?} looks like the \"(you)\" written after your own name")
        }
    }
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
pub fn run_with_progress<T: Send, E: Into<Failure> + Send>(
    total: u64,
    unit: &str,
    threads: Option<usize>,
    work: impl FnOnce(&(dyn Fn(u64) + Sync)) -> Result<T, E> + Send,
) -> Result<(T, f64), Failure> {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    if let Some(n) = threads
        && !(1..=cores).contains(&n)
    {
        // The work is all computing: threads beyond the cores only wait
        // (and thousands of them load the machine for nothing).
        return Err(Failure::usage(format!(
            "--threads must be between 1 and {cores}, the cores of this machine"
        )));
    }
    let bar = indicatif::ProgressBar::new(total);
    bar.set_style(progress_style(unit));
    end_cleanly_on_signals();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| Failure::usage(format!("cannot start threads: {e}")))?;
    let start = std::time::Instant::now();
    let result = pool
        .install(|| work(&|done| bar.set_position(done.min(total))))
        .map_err(Into::into)?;
    bar.finish_and_clear();
    Ok((result, start.elapsed().as_secs_f64()))
}

/// The progress bar's look: its bar takes what the words leave of the
/// terminal's width, so the line never wraps (a bar of 40 columns made it
/// 86 wide, and an 80-column terminal wrapped it).
fn progress_style(unit: &str) -> indicatif::ProgressStyle {
    indicatif::ProgressStyle::with_template(&format!(
        "{{wide_bar}} {{human_pos}}/{{human_len}} {unit}, {{rate}} a second, eta {{eta}}"
    ))
    .expect("a valid template")
    .with_key(
        "rate",
        |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = w.write_str(&whole(state.per_sec()));
        },
    )
}

/// Makes the folder an option names (`--out`, `--save-records`) before any
/// work, so that a file in the way, or a folder that cannot be made, is
/// said at once with the option's name, not after a whole run.
pub fn output_folder(flag: &str, dir: &std::path::Path) -> Result<(), Failure> {
    let shown = dir.display();
    if dir.exists() && !dir.is_dir() {
        return Err(Failure::usage(format!(
            "{flag} {shown}: that is a file; {flag} names a folder (made if it does not exist)"
        )));
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| Failure::usage(format!("{flag} {shown}: cannot make the folder: {e}")))
}

/// How bots are made: the expert's budget and an outside bot's timeout
/// (`arena` and `sim`).
#[derive(clap::Args, Debug)]
pub struct BotFlags {
    /// The expert's budget per decision, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 10, value_parser = at_least_one::<u32>)]
    budget: u32,
    /// The expert's budget as an exact number of playouts per decision, with
    /// no time cap (fully reproducible; overrides --budget).
    #[arg(long, value_name = "N", value_parser = at_least_one::<u32>)]
    playouts: Option<u32>,
    /// How long an outside bot (exec:COMMAND) may take to answer, in
    /// milliseconds; its first answer's time includes starting it.
    #[arg(long, value_name = "MS", default_value_t = 10_000, value_parser = at_least_one::<u64>)]
    exec_timeout: u64,
}

impl BotFlags {
    /// The options the bots are made with.
    pub fn options(&self) -> tripoley_bots::BotOptions {
        tripoley_bots::BotOptions {
            budget: self.playouts.map_or(
                tripoley_bots::Budget::millis(self.budget),
                tripoley_bots::Budget::playouts,
            ),
            exec_timeout: std::time::Duration::from_millis(self.exec_timeout),
        }
    }
}

/// A whole number of at least 1 (a count or a time in milliseconds).
fn at_least_one<T: std::str::FromStr + PartialOrd + From<u8>>(text: &str) -> Result<T, String> {
    match text.trim().parse::<T>() {
        Ok(n) if n >= T::from(1) => Ok(n),
        _ => Err(format!("{text:?} is not a whole number of at least 1")),
    }
}

/// Ends a run that shows progress cleanly when the process is interrupted
/// (Ctrl-C) or told to end: kills the outside bots, clears the progress
/// bar's line, then exits as an interrupted command does (128 + the
/// signal). Outside bots run in process groups of their own, so the
/// terminal's Ctrl-C does not reach them: without this they would outlive
/// tripoley. Only for commands outside a full-screen terminal (`arena`,
/// `sim`: [`run_with_progress`]).
fn end_cleanly_on_signals() {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        static INSTALLED: std::sync::Once = std::sync::Once::new();
        INSTALLED.call_once(|| {
            let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])
            else {
                return;
            };
            std::thread::spawn(move || {
                if let Some(signal) = signals.forever().next() {
                    tripoley_bots::kill_outside_bots();
                    // The progress bar's line goes with the run.
                    if std::io::stderr().is_terminal() {
                        eprint!("\r\x1b[2K");
                    }
                    std::process::exit(128 + signal);
                }
            });
        });
    }
}

/// A non-negative rate or count, rounded, with thousands separated.
#[allow(clippy::cast_sign_loss, reason = "clamped at zero first")]
pub fn whole(x: f64) -> String {
    thousands(x.max(0.0).round() as u64)
}

/// `1234567` as `1,234,567` (the analysts' tables are in English).
pub fn thousands(n: u64) -> String {
    tripoley_i18n::Lang::En.integer(n)
}

/// A mean with its 95% interval, `+5.55 ± 2.93`, to as many decimals as
/// the interval's two first digits need (one to four).
pub fn estimate(e: &tripoley_game::stats::Estimate) -> String {
    let decimals = if e.ci95 > 0.0 {
        usize::try_from((1 - e.ci95.log10().floor() as i32).clamp(1, 4)).unwrap_or(3)
    } else {
        3
    };
    format!("{:+.decimals$} ± {:.decimals$}", e.mean, e.ci95)
}

/// `text` broken at spaces into lines of at most [`TABLE_WIDTH`]
/// characters (a longer word stays whole), later lines indented by
/// `indent` spaces; ends with a newline.
pub fn wrap(text: &str, indent: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.trim().is_empty() && line.chars().count() + 1 + word.chars().count() > TABLE_WIDTH
        {
            out.push_str(line.trim_end());
            out.push('\n');
            line = " ".repeat(indent);
        } else if !line.trim().is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(line.trim_end());
    out.push('\n');
    out
}

/// The widest a text table may be.
pub const TABLE_WIDTH: usize = 100;

/// Rows of estimates under column names, as text no wider than
/// [`TABLE_WIDTH`]: when the columns do not fit beside the row labels,
/// they are split into blocks printed one under the other, each with the
/// labels again. Cells are right-aligned with at least two spaces between.
pub fn estimate_table(
    corner: &str,
    columns: &[&str],
    rows: &[(String, Vec<tripoley_game::stats::Estimate>)],
) -> String {
    use std::fmt::Write as _;
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|(_, es)| es.iter().map(estimate).collect())
        .collect();
    let label_width = rows
        .iter()
        .map(|(l, _)| l.chars().count())
        .chain([corner.chars().count()])
        .max()
        .unwrap_or(0);
    let cell_width = cells
        .iter()
        .flatten()
        .map(|c| c.chars().count())
        .chain(columns.iter().map(|c| c.len()))
        .max()
        .unwrap_or(0)
        + 2;
    let per_block = (TABLE_WIDTH.saturating_sub(label_width) / cell_width).max(1);
    let mut out = String::new();
    for (b, block) in (0..columns.len())
        .collect::<Vec<_>>()
        .chunks(per_block)
        .enumerate()
    {
        if b > 0 {
            out.push('\n');
        }
        let _ = write!(out, "{corner:<label_width$}");
        for &c in block {
            let _ = write!(out, "{:>cell_width$}", columns[c]);
        }
        out.push('\n');
        for ((label, _), row) in rows.iter().zip(&cells) {
            let _ = write!(out, "{label:<label_width$}");
            for &c in block {
                let _ = write!(out, "{:>cell_width$}", row[c]);
            }
            out.push('\n');
        }
    }
    out
}

/// For a results table: how an outside bot's figures are to be read, when
/// the heuristic bot made some of its decisions (`None`: all its own).
pub fn fallback_note(
    bot: &tripoley_bots::BotSpec,
    o: &tripoley_bots::OutsideReport,
) -> Option<String> {
    (o.fallback_decisions > 0).then(|| {
        format!(
            "* {bot}: the heuristic bot made {} of its {} decisions after it failed ({})",
            thousands(o.fallback_decisions),
            thousands(o.decisions),
            o.failure.as_deref().unwrap_or("it failed")
        )
    })
}

/// A table that cannot be played (seats, rules, an outside bot that cannot
/// play) is the user's to fix: exit code 2; anything else 1.
impl From<tripoley_bots::arena::ArenaError> for Failure {
    fn from(e: tripoley_bots::arena::ArenaError) -> Failure {
        let code = match e {
            tripoley_bots::arena::ArenaError::Config(_) => 2,
            tripoley_bots::arena::ArenaError::Play(_) => 1,
        };
        Failure {
            message: e.to_string(),
            code,
        }
    }
}

impl From<tripoley_bots::sim::SimError> for Failure {
    fn from(e: tripoley_bots::sim::SimError) -> Failure {
        let code = match e {
            tripoley_bots::sim::SimError::Config(_) => 2,
            _ => 1,
        };
        Failure {
            message: e.to_string(),
            code,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use indicatif::{ProgressBar, ProgressDrawTarget, TermLike};

    use super::progress_style;

    /// A terminal 80 columns wide that keeps what is written on its lines.
    #[derive(Debug, Clone, Default)]
    struct Screen(Arc<Mutex<Vec<String>>>);

    impl TermLike for Screen {
        fn width(&self) -> u16 {
            80
        }
        fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn write_line(&self, s: &str) -> std::io::Result<()> {
            self.write_str(s)
        }
        fn write_str(&self, s: &str) -> std::io::Result<()> {
            if !s.is_empty() {
                self.0.lock().unwrap().push(s.to_owned());
            }
            Ok(())
        }
        fn clear_line(&self) -> std::io::Result<()> {
            Ok(())
        }
        fn flush(&self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// Issue 50, point 5: the progress line fits an 80-column terminal (its
    /// bar of 40 columns made it about 86 wide, and it wrapped).
    #[test]
    fn the_progress_line_fits_an_80_column_terminal() {
        let screen = Screen::default();
        let bar = ProgressBar::with_draw_target(
            Some(1_000_000_000),
            ProgressDrawTarget::term_like(Box::new(screen.clone())),
        );
        bar.set_style(progress_style("duplicate deals"));
        bar.set_position(123_456_789);
        bar.tick();
        let written = screen.0.lock().unwrap().clone();
        let line = written
            .iter()
            .rev()
            .find(|l| l.contains("duplicate deals"))
            .unwrap_or_else(|| panic!("{written:?}"));
        assert!(
            line.contains("123,456,789/1,000,000,000 duplicate deals"),
            "{line}"
        );
        assert!(
            console_width(line) <= 80,
            "{} columns: {line}",
            console_width(line)
        );
    }

    /// Columns a line takes, its terminal escapes left out.
    fn console_width(line: &str) -> usize {
        let mut n = 0;
        let mut escape = false;
        for c in line.chars() {
            match (escape, c) {
                (false, '\u{1b}') => escape = true,
                (true, c) if c.is_ascii_alphabetic() => escape = false,
                (true, _) => {}
                _ => n += 1,
            }
        }
        n
    }
}
