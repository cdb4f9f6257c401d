//! `tripoley play --game napalm`: Napalm poker (RULES.md section 7) against
//! bots in the terminal, the human in seat 0.
//!
//! [`app::NapalmApp`] is the game as a state machine of keys and ticks
//! (tested without a terminal), [`ui`] draws it; the terminal loop, the
//! colours and the pacing are the Tripoley game's. Napalm games are not
//! saved: a game lasts a few hands.

mod app;
mod ui;

#[cfg(test)]
mod tests;

use std::time::Duration;

use crossterm::event::KeyEvent;
use ratatui::Frame;
use tripoley_bots::BotKind;
use tripoley_napalm::NapalmRules;

use super::{Args, Interactive, bot_seats, clock_seed, color_wanted, need_terminal, player_name};
use crate::Failure;
use app::NapalmApp;

/// Plays a game of Napalm in the terminal.
pub fn run(args: &Args) -> Result<(), Failure> {
    if args.table.preset.is_some()
        || args.table.house_rules.is_some()
        || args.deals.is_some()
        || args.resume.is_some()
        || args.save.is_some()
    {
        return Err(Failure::usage(
            "Napalm has one rule set and its games are not saved: \
             --game napalm takes no --preset, --house-rules, --deals, --resume or --save",
        ));
    }
    let players = args.table.players;
    let rules = NapalmRules::default();
    rules
        .check_players(players)
        .map_err(|e| Failure::usage(e.to_string()))?;
    let bots = bot_seats(&args.bots, players)?;
    if bots.contains(&BotKind::Expert) {
        return Err(Failure::usage(
            "Napalm's bots are random and heuristic: --bots names one of those per bot seat, or one for all",
        ));
    }
    let name = player_name(&args.name)?;
    let seed = args.seed.unwrap_or_else(clock_seed);
    need_terminal()?;
    let mut app = NapalmApp::new(rules, name, &bots, seed).map_err(Failure::usage)?;
    app.color = color_wanted();
    super::terminal_loop(&mut app, Duration::from_millis(args.pace_ms), |_| {}).map_err(|e| {
        Failure {
            message: format!("the terminal failed: {e}"),
            code: 1,
        }
    })?;
    if let Some(result) = app.result_words() {
        println!("{result}");
    } else {
        println!("You left the Napalm table (seed {seed}).");
    }
    Ok(())
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
}
