//! `tripoley play`: a full-screen game against bots in the terminal.
//!
//! The human sits in seat 0, bots in the others. [`app::App`] is the game as
//! a state machine of keys and ticks (tested without a terminal), [`ui`]
//! draws it with ratatui, [`text`] puts events into words; this module reads
//! the arguments, runs the terminal loop and saves the record.
//! `--game napalm` plays Napalm poker instead ([`napalm`]), through the same
//! terminal loop ([`Interactive`]), colours and pacing.
//!
//! Saved games: the record is written as the engine's `Record` JSON (which
//! `tripoley replay` reads) with one more top-level field, `"play"`, holding
//! what continuing needs: the seed, the bot of each seat and the rules'
//! label. Chance and the bots draw, at step `k` of the record, from an RNG
//! seeded from the seed and `k` ([`app::step_rng`]), so a game resumed with
//! `--resume` replays its record and goes on with exactly the cards and bot
//! moves it would have had without the pause. A record without `"play"` (a
//! record saved by `tripoley sim`, say) resumes with seed 0, the human in
//! seat 0, and bots named after the seats' names where those are bot names
//! (heuristic bots otherwise).

mod app;
mod napalm;
pub(crate) mod text;
mod ui;

pub(crate) use app::move_words;

#[cfg(test)]
mod tests;

use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crossterm::event::{self, Event as TermEvent, KeyEvent};
use ratatui::Frame;
use tripoley_bots::BotKind;
use tripoley_engine::{Preset, Record, Rules};
use tripoley_i18n::Lang;
use tripoley_table::protocol::GameKind;

use crate::Failure;
use crate::setup::{TableArgs, bots_for_seats};
use app::{App, HUMAN, Table};

/// Arguments of `tripoley play`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game: tripoley (the default) or napalm (Napalm poker; it takes no
    /// --preset, --house-rules or --deals; --resume knows a saved game's kind).
    #[arg(long, value_name = "GAME", value_parser = str::parse::<GameKind>, default_value_t)]
    game: GameKind,
    #[command(flatten)]
    table: TableArgs,
    /// The bots in the other seats, one for all or one per seat: random, heuristic or expert
    /// (Napalm: random or heuristic).
    #[arg(long, default_value = "heuristic")]
    bots: String,
    /// Seeds the cards and the bots: the same seed and moves give the same game
    /// (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// Deals in the game (default: one round, as many deals as players).
    #[arg(long)]
    deals: Option<u32>,
    /// Your name at the table (default: "You" in the game's language).
    #[arg(long)]
    name: Option<String>,
    /// The language of the game's words: en or es (default: the language of
    /// the environment's locale, English when it is neither).
    #[arg(long, value_name = "LANG", value_parser = crate::setup::parse_lang)]
    lang: Option<Lang>,
    /// Milliseconds between the moves shown (0: no pause; Space skips anyway).
    #[arg(long, default_value_t = 700, value_name = "MS")]
    pace_ms: u64,
    /// Continue a game saved by `tripoley play`.
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with_all = ["preset", "house_rules", "players", "bots", "seed", "deals", "name"]
    )]
    resume: Option<PathBuf>,
    /// Where to save the game record (default: ./tripoley-SEED.json for a new
    /// game, the same file for a resumed one).
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
}

/// What a saved game needs besides its record to go on (the `"play"` field):
/// the same as the browser's offline game saves, so each resumes the other's.
pub use tripoley_table::local::LocalMeta as PlayMeta;

impl Args {
    /// The language asked for, else the environment's (a resumed game's
    /// own language comes before the environment's: [`resume_table`]).
    fn language(&self) -> Lang {
        self.lang.unwrap_or_else(Lang::from_env)
    }

    /// The human's name: as given, else "You" in the game's language.
    fn player_name(&self) -> String {
        self.name
            .clone()
            .unwrap_or_else(|| self.language().t("you", &[("at", "start".into())]))
    }
}

/// Plays a game in the terminal; saves the record when it ends or the player quits.
pub fn run(args: &Args) -> Result<(), Failure> {
    if napalm::wanted(args) {
        return napalm::run(args);
    }
    let (table, path) = match &args.resume {
        Some(file) => resume_table(file, args.lang)?,
        None => new_table(args)?,
    };
    let path = args.save.clone().unwrap_or(path);
    check_save_path(&path, args)?;
    need_terminal()?;
    let mut app = App::new(table).map_err(Failure::usage)?;
    app.set_color(color_wanted());
    app.set_save_path(path.display().to_string());
    play_and_save(&mut app, Duration::from_millis(args.pace_ms), &path, save)?;
    let shown = path.display().to_string();
    let lang = app.words.lang;
    if app.is_over() {
        println!("{}", lang.t("term-over-saved", &[("path", shown.into())]));
    } else {
        let command = format!("tripoley play --resume {shown}");
        println!(
            "{}",
            lang.t(
                "term-paused-saved",
                &[("path", shown.into()), ("command", command.into())]
            )
        );
    }
    Ok(())
}

/// A new game from the arguments, and the default file to save it to.
fn new_table(args: &Args) -> Result<(Table, PathBuf), Failure> {
    let mut rules = args.table.rules()?;
    if let Some(deals) = args.deals {
        if deals == 0 {
            return Err(Failure::usage("--deals must be at least 1"));
        }
        rules.deals = Some(deals);
    }
    let players = args.table.players;
    let others = bot_seats(&args.bots, players)?;
    let name = player_name(&args.player_name())?;
    let mut names = vec![name];
    names.extend((1..players).map(|i| format!("Bot {i}")));
    let mut bots = vec![None];
    bots.extend(others.into_iter().map(Some));
    let seed = args.seed.unwrap_or_else(clock_seed);
    let label = match (&args.table.house_rules, args.table.preset) {
        (Some(path), _) => format!(
            "house rules ({})",
            path.file_name()
                .map_or_else(String::new, |f| f.to_string_lossy().into_owned())
        ),
        (None, preset) => preset.unwrap_or(Preset::Pagat).name().to_owned(),
    };
    let table = Table {
        record: Record::new(rules, names),
        bots,
        seed,
        label,
        lang: args.language(),
    };
    Ok((table, free_path(seed)))
}

/// Refuses a `--save` file before the first deal rather than at the end:
/// one that exists and is not the game being continued (it may be another
/// unfinished game: it is never overwritten), and one that cannot be
/// written (its folder missing or read-only), found by writing the file
/// the saves go through and removing it.
fn check_save_path(path: &Path, args: &Args) -> Result<(), Failure> {
    let shown = path.display();
    let continued = args.resume.as_deref().is_some_and(|r| same_file(r, path));
    if args.save.is_some() && !continued && path.exists() {
        return Err(Failure::usage(format!(
            "--save {shown}: the file already exists (it may be another game): \
             choose a new file, or continue it with `tripoley play --resume {shown}`"
        )));
    }
    let tmp = temporary(path);
    std::fs::write(&tmp, b"")
        .and_then(|()| std::fs::remove_file(&tmp))
        .map_err(|e| {
            Failure::usage(format!(
                "--save {shown}: cannot write there ({e}): choose a file in a folder you can write to"
            ))
        })
}

/// Whether two paths name the same file (the same path when it does not
/// exist yet).
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// The file a save is written to before it is moved over `path`.
fn temporary(path: &Path) -> PathBuf {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    PathBuf::from(tmp)
}

/// Fails unless input and output are an interactive terminal.
fn need_terminal() -> Result<(), Failure> {
    if std::io::stdin().is_terminal() && std::io::stdout().is_terminal() {
        Ok(())
    } else {
        Err(Failure::usage(
            "tripoley play needs an interactive terminal (its input and output are not one); \
             run it in a terminal, or let bots play each other with `tripoley sim`",
        ))
    }
}

/// `--bots` for the bot seats of a table of `players`: one per bot seat, or one for all.
fn bot_seats(list: &str, players: usize) -> Result<Vec<BotKind>, Failure> {
    let named = list.split(',').count();
    if named != 1 && named != players - 1 {
        return Err(Failure::usage(format!(
            "--bots names {named} bots for the {} bot seats: name one per bot seat, or one for all",
            players - 1
        )));
    }
    bots_for_seats(list, players - 1)
}

/// `--name`, checked by the one rule for a name a person chooses
/// ([`tripoley_i18n::names::chosen_problem`], as at the web table).
fn player_name(name: &str) -> Result<String, Failure> {
    let name = tripoley_i18n::names::trimmed(name);
    match tripoley_i18n::names::chosen_problem(name) {
        Some(problem) => Err(Failure::usage(format!(
            "--name: {}",
            crate::setup::name_refused(name, problem)
        ))),
        None => Ok(name.to_owned()),
    }
}

/// Whether the screen may use colours: `NO_COLOR` unset or empty.
fn color_wanted() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// A seed from the clock, for a game nobody asked to repeat.
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_secs() ^ u64::from(d.subsec_nanos()) << 20)
}

/// `./tripoley-SEED.json`, or `-2`, `-3`… after it when taken.
fn free_path(seed: u64) -> PathBuf {
    let base = PathBuf::from(format!("tripoley-{seed}.json"));
    if !base.exists() {
        return base;
    }
    (2..10_000)
        .map(|k| PathBuf::from(format!("tripoley-{seed}-{k}.json")))
        .find(|p| !p.exists())
        .unwrap_or(base)
}

/// A saved game to continue, and its own file to save it back to. It
/// speaks `lang` if given, else the language it was saved in, else the
/// environment's.
fn resume_table(file: &Path, lang: Option<Lang>) -> Result<(Table, PathBuf), Failure> {
    let shown = file.display();
    let text = crate::setup::read_text(file)
        .map_err(|e| Failure::usage(format!("cannot read {shown}: {e}")))?;
    let (record, meta) = parse_saved(&text).map_err(|e| Failure::usage(format!("{shown}: {e}")))?;
    let saved_lang = meta
        .language()
        .map_err(|e| Failure::usage(format!("{shown}: {e}")))?;
    let lang = lang.or(saved_lang).unwrap_or_else(Lang::from_env);
    Ok((
        Table {
            record,
            bots: meta.bots,
            seed: meta.seed,
            label: meta.label,
            lang,
        },
        file.to_path_buf(),
    ))
}

/// A saved game: the record and what continuing needs.
pub fn parse_saved(text: &str) -> Result<(Record, PlayMeta), String> {
    let record = Record::from_json(text).map_err(|e| e.to_string())?;
    crate::setup::check_names(&record.names)?;
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let players = record.names.len();
    let meta = match value.get("play") {
        Some(play) => serde_json::from_value::<PlayMeta>(play.clone())
            .map_err(|e| format!("its \"play\" field is not readable: {e}"))?,
        None => PlayMeta {
            settings: None,
            seed: 0,
            human: HUMAN,
            bots: (0..players)
                .map(|s| {
                    (s != usize::from(HUMAN)).then(|| {
                        record.names[s]
                            .parse::<BotKind>()
                            .unwrap_or(BotKind::Heuristic)
                    })
                })
                .collect(),
            label: rules_label(&record.rules),
            lang: None,
        },
    };
    if meta.human != HUMAN {
        return Err(format!(
            "the human played seat {}; this version seats you in seat {HUMAN}",
            meta.human
        ));
    }
    if meta.bots.len() != players
        || meta
            .bots
            .iter()
            .enumerate()
            .any(|(s, b)| b.is_none() != (s == usize::from(HUMAN)))
    {
        return Err("its \"play\" field does not match its seats".to_owned());
    }
    if let Some(why) = crate::setup::name_problem(&meta.label, crate::setup::MAX_NAME) {
        return Err(format!("its rules label cannot be shown: {why}"));
    }
    Ok((record, meta))
}

/// The preset's name when the rules are a preset's (whatever the deals), else "house rules".
fn rules_label(rules: &Rules) -> String {
    Preset::ALL
        .into_iter()
        .find(|&p| {
            let mut r = Rules::preset(p);
            r.deals = rules.deals;
            &r == rules
        })
        .map_or_else(|| "house rules".to_owned(), |p| p.name().to_owned())
}

/// The record as saved: the engine's record JSON plus the `"play"` field.
pub fn saved_json(app: &App) -> String {
    let mut value = serde_json::to_value(app.record()).expect("records serialise");
    let meta = PlayMeta {
        settings: None,
        seed: app.seed(),
        human: HUMAN,
        bots: app.bot_kinds().to_vec(),
        label: app.label.clone(),
        lang: Some(app.words.lang.code().to_owned()),
    };
    if let serde_json::Value::Object(map) = &mut value {
        map.insert(
            "play".to_owned(),
            serde_json::to_value(meta).expect("metadata serialises"),
        );
    }
    serde_json::to_string_pretty(&value).expect("JSON values print")
}

/// Writes the record next to its final place, then moves it there.
fn save(app: &App, path: &Path) -> std::io::Result<()> {
    let tmp = temporary(path);
    std::fs::write(&tmp, saved_json(app) + "\n")?;
    std::fs::rename(&tmp, path)
}

/// Runs the terminal loop, saving with `save` whenever the game asks (after
/// each deal or hand) and once more at the end, even when the loop panics.
fn play_and_save<A: Interactive>(
    app: &mut A,
    pace: Duration,
    path: &Path,
    save: fn(&A, &Path) -> std::io::Result<()>,
) -> Result<(), Failure> {
    let looped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        terminal_loop(app, pace, |app| {
            if app.take_save_request() {
                if let Err(e) = save(app, path) {
                    let said = app.lang().t(
                        "term-cannot-save",
                        &[
                            ("path", path.display().to_string().into()),
                            ("error", e.to_string().into()),
                        ],
                    );
                    app.tell(said);
                }
            }
        })
    }));
    let saved = save(app, path);
    let looped = match looped {
        Ok(result) => result,
        Err(panic) => {
            if saved.is_ok() {
                let shown = path.display().to_string();
                eprintln!(
                    "{}",
                    app.lang().t("term-crash-saved", &[("path", shown.into())])
                );
            }
            std::panic::resume_unwind(panic);
        }
    };
    looped.map_err(|e| Failure {
        message: format!("the terminal failed: {e}"),
        code: 1,
    })?;
    saved.map_err(|e| Failure {
        message: format!("cannot save the game to {}: {e}", path.display()),
        code: 1,
    })
}

/// A full-screen game that [`terminal_loop`] drives: drawn, fed keys, and
/// moved on by ticks at the pace while it is busy.
trait Interactive {
    /// Draws the whole screen.
    fn draw(&self, f: &mut Frame);
    /// Whether the player asked to quit.
    fn wants_quit(&self) -> bool;
    /// Whether the game moves on by itself (ticks are due at the pace).
    fn busy(&self) -> bool;
    /// One key press.
    fn key(&mut self, key: KeyEvent);
    /// Moves the game on by one shown move.
    fn tick(&mut self) -> bool;
    /// Whether it is time to save (a deal or hand has ended since last asked).
    fn take_save_request(&mut self) -> bool;
    /// A message for the player (a failed save, say).
    fn tell(&mut self, message: String);
    /// The language the game speaks, also after its screen closes.
    fn lang(&self) -> Lang;
}

impl Interactive for App {
    fn draw(&self, f: &mut Frame) {
        ui::draw(f, self);
    }
    fn wants_quit(&self) -> bool {
        App::wants_quit(self)
    }
    fn busy(&self) -> bool {
        App::busy(self)
    }
    fn key(&mut self, key: KeyEvent) {
        App::key(self, key);
    }
    fn tick(&mut self) -> bool {
        App::tick(self)
    }
    fn take_save_request(&mut self) -> bool {
        App::take_save_request(self)
    }
    fn tell(&mut self, message: String) {
        App::tell(self, message);
    }
    fn lang(&self) -> Lang {
        self.words.lang
    }
}

/// Draws, reads keys, and moves the game on at the pace; `before_draw` runs
/// before each frame (the Tripoley game saves its record there after each deal).
fn terminal_loop<A: Interactive>(
    app: &mut A,
    pace: Duration,
    mut before_draw: impl FnMut(&mut A),
) -> std::io::Result<()> {
    let mut terminal = ratatui::try_init()?;
    let result = (|| {
        let mut last = Instant::now();
        loop {
            before_draw(app);
            terminal.draw(|f| app.draw(f))?;
            if app.wants_quit() {
                return Ok(());
            }
            let timeout = if app.busy() {
                pace.saturating_sub(last.elapsed())
            } else {
                Duration::from_millis(500)
            };
            if event::poll(timeout)? {
                if let TermEvent::Key(key) = event::read()? {
                    app.key(key);
                    last = Instant::now();
                }
            } else if app.busy() {
                app.tick();
                last = Instant::now();
            }
        }
    })();
    ratatui::restore();
    result
}
