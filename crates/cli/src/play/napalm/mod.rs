//! `tripoley play --game napalm`: Napalm poker (RULES.md section 7) against
//! bots in the terminal, the human in seat 0.
//!
//! [`app::NapalmApp`] is the game as a state machine of keys and ticks
//! (tested without a terminal), [`ui`] draws it; the terminal loop, the
//! colours and the pacing are the Tripoley game's, and so is saving: the
//! record (a `NapalmRecord`, which `tripoley replay` reads) with a `"play"`
//! field, written after every hand and when the game ends or the player
//! quits. Chance and the bots draw at step `k` from an RNG seeded from the
//! seed and `k`, so `--resume` goes on exactly as the game would have.

mod app;
mod ui;

#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};
use std::time::Duration;

use crossterm::event::KeyEvent;
use ratatui::Frame;
use serde::Serialize;
use tripoley_bots::BotKind;
use tripoley_i18n::Lang;
use tripoley_napalm::NapalmRecord;

use super::{
    Args, Interactive, PlayMeta, bot_seats, clock_seed, color_wanted, free_path, need_terminal,
    player_name,
};
use crate::Failure;
use crate::napalm::{napalm_bots_only, one_rule_set};
use app::{HUMAN, NapalmApp, NapalmTable};

/// How a saved Napalm game names its rules in its `"play"` field.
const LABEL: &str = "napalm";

/// Whether `tripoley play` is about Napalm: `--game napalm`, or `--resume`
/// of a saved Napalm game.
pub fn wanted(args: &Args) -> bool {
    args.game == tripoley_table::protocol::GameKind::Napalm
        || args.resume.as_ref().is_some_and(|file| {
            crate::setup::read_text(file)
                .is_ok_and(|text| crate::napalm::is_napalm_record(&text, "").unwrap_or(false))
        })
}

/// Plays a game of Napalm in the terminal; saves it as it goes.
pub fn run(args: &Args) -> Result<(), Failure> {
    if args.deals.is_some() {
        return Err(Failure::usage(
            "a Napalm game lasts until someone has the tokens to win: --game napalm takes no --deals",
        ));
    }
    let (table, path, lang) = if let Some(file) = &args.resume {
        let (table, saved_lang) = resume(file)?;
        let lang = args.lang.or(saved_lang).unwrap_or_else(Lang::from_env);
        (table, file.clone(), lang)
    } else {
        let (table, path) = new_game(args)?;
        (table, path, args.language())
    };
    let path = args.save.clone().unwrap_or(path);
    super::check_save_path(&path, args)?;
    need_terminal()?;
    let mut app = NapalmApp::new(table, lang).map_err(Failure::usage)?;
    app.color = color_wanted();
    super::play_and_save(&mut app, Duration::from_millis(args.pace_ms), &path, save)?;
    let shown = path.display().to_string();
    let lang = app.words.lang;
    let said = if let Some(result) = app.result_words() {
        lang.t(
            "tn-over-saved",
            &[("result", result.into()), ("path", shown.into())],
        )
    } else {
        let command = format!("tripoley play --game napalm --resume {shown}");
        lang.t(
            "term-paused-saved",
            &[("path", shown.into()), ("command", command.into())],
        )
    };
    println!("{said}");
    Ok(())
}

/// A new game from the arguments, and the default file to save it to.
fn new_game(args: &Args) -> Result<(NapalmTable, PathBuf), Failure> {
    let rules = one_rule_set(&args.table)?;
    let players = args.table.players;
    let bots = bot_seats(&args.bots, players)?;
    napalm_bots_only(&bots)?;
    let name = player_name(&args.player_name())?;
    let seed = args.seed.unwrap_or_else(clock_seed);
    let table = NapalmTable::new_game(rules, name, &bots, seed);
    Ok((table, free_path(seed)))
}

/// A saved Napalm game to continue.
fn resume(file: &Path) -> Result<(NapalmTable, Option<Lang>), Failure> {
    let shown = file.display().to_string();
    let text = crate::setup::read_text(file)
        .map_err(|e| Failure::usage(format!("cannot read {shown}: {e}")))?;
    parse_saved(&text, &shown)
}

/// A saved game: the record and what continuing needs (a record without
/// `"play"`, from `tripoley sim`, resumes with seed 0, the human in seat 0
/// and heuristic bots), with the language it was played in, if saved.
fn parse_saved(text: &str, file: &str) -> Result<(NapalmTable, Option<Lang>), Failure> {
    if !crate::napalm::is_napalm_record(text, file)? {
        return Err(Failure::usage(format!(
            "{file} is a Tripoley game: continue it without --game napalm"
        )));
    }
    let record = crate::napalm::read_record(text, file)?;
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| Failure::usage(format!("{file}: {e}")))?;
    let players = record.names.len();
    let meta = match value.get("play") {
        Some(play) => serde_json::from_value::<PlayMeta>(play.clone()).map_err(|e| {
            Failure::usage(format!("{file}: its \"play\" field is not readable: {e}"))
        })?,
        None => PlayMeta {
            settings: None,
            seed: 0,
            human: HUMAN,
            bots: (0..players)
                .map(|s| (s != usize::from(HUMAN)).then_some(BotKind::Heuristic))
                .collect(),
            label: LABEL.to_owned(),
            lang: None,
        },
    };
    let seats_match = meta.bots.len() == players
        && (0..players).all(|s| meta.bots[s].is_none() == (s == usize::from(HUMAN)));
    if meta.human != HUMAN || !seats_match {
        return Err(Failure::usage(format!(
            "{file}: its \"play\" field does not match its seats (you play seat {HUMAN})"
        )));
    }
    let bots: Vec<BotKind> = meta.bots.iter().flatten().copied().collect();
    napalm_bots_only(&bots)?;
    let lang = meta
        .language()
        .map_err(|e| Failure::usage(format!("{file}: {e}")))?;
    Ok((
        NapalmTable {
            record,
            bots: meta.bots,
            seed: meta.seed,
        },
        lang,
    ))
}

/// A saved game: the Napalm record's own fields, then `"play"`.
#[derive(Serialize)]
struct Saved<'a> {
    #[serde(flatten)]
    record: &'a NapalmRecord,
    play: PlayMeta,
}

/// The record as saved: the Napalm record JSON plus the `"play"` field.
fn saved_json(app: &NapalmApp) -> String {
    let saved = Saved {
        record: app.record(),
        play: PlayMeta {
            settings: None,
            seed: app.seed(),
            human: HUMAN,
            bots: app.kinds.clone(),
            label: LABEL.to_owned(),
            lang: Some(app.words.lang.code().to_owned()),
        },
    };
    serde_json::to_string_pretty(&saved).expect("records serialise")
}

/// Saves the game: written beside `path` first, then moved over it, so a
/// crash while writing never leaves half a file.
fn save(app: &NapalmApp, path: &Path) -> std::io::Result<()> {
    let partial = super::temporary(path);
    std::fs::write(&partial, saved_json(app) + "\n").and_then(|()| std::fs::rename(&partial, path))
}

impl Interactive for NapalmApp {
    fn draw(&self, f: &mut Frame) {
        ui::draw(f, self);
    }
    fn wants_quit(&self) -> bool {
        NapalmApp::wants_quit(self)
    }
    fn busy(&self) -> bool {
        NapalmApp::busy(self)
    }
    fn key(&mut self, key: KeyEvent) {
        NapalmApp::key(self, key);
    }
    fn tick(&mut self) -> bool {
        NapalmApp::tick(self)
    }
    fn take_save_request(&mut self) -> bool {
        NapalmApp::take_save_request(self)
    }
    fn tell(&mut self, message: String) {
        NapalmApp::tell(self, message);
    }
    fn lang(&self) -> tripoley_i18n::Lang {
        self.words.lang
    }
}
