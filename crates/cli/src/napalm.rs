//! Napalm poker on the command line: its rules in words and self-play.

use std::fmt::Write as _;

use rayon::prelude::*;
use serde::Serialize;
use tripoley_bots::BotKind;
use tripoley_bots::sim::{Estimate, Moments};
use tripoley_cards::{Deck, seeded_rng};
use tripoley_napalm::{
    Account, Event, HeuristicNapalmBot, NapalmBot, NapalmGame, NapalmRules, Pending,
    RandomNapalmBot,
};

use crate::Failure;

/// Which game a command is about.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum GameKind {
    /// Tripoley (Michigan Rummy, Rummoli...).
    #[default]
    Tripoley,
    /// Napalm poker.
    Napalm,
}

/// A Napalm bot of the kind named on the command line (Napalm's bots are
/// random and heuristic; any stronger kind plays the heuristic).
pub(crate) fn napalm_bot(kind: BotKind) -> Box<dyn NapalmBot> {
    if kind == BotKind::Random {
        Box::new(RandomNapalmBot)
    } else {
        Box::new(HeuristicNapalmBot)
    }
}

/// One seat's results.
#[derive(Serialize)]
struct SeatReport {
    seat: u8,
    bot: BotKind,
    chips_per_hand: Estimate,
    games_won: f64,
}

/// The result of `tripoley sim --game napalm`.
#[derive(Serialize)]
struct NapalmSummary {
    game: &'static str,
    players: usize,
    games: u64,
    hands: u64,
    seed: u64,
    seats: Vec<SeatReport>,
}

#[derive(Default, Clone)]
struct Tally {
    games: u64,
    hands: u64,
    per_hand: Vec<Moments>,
    wins: Vec<f64>,
}

/// Plays whole Napalm games until `hands` hands were played; prints the summary.
pub fn simulate(
    players: usize,
    bots: &[BotKind],
    hands: u64,
    seed: u64,
    json: bool,
) -> Result<(), Failure> {
    let rules = NapalmRules::default();
    rules
        .check_players(players)
        .map_err(|e| Failure::usage(e.to_string()))?;
    // A game lasts a few hands; play enough games in parallel to reach `hands`.
    let games = hands.div_ceil(4).max(1);
    let tally = (0..games)
        .into_par_iter()
        .map(|g| play_one(&rules, bots, seed ^ g.wrapping_mul(0x9E37_79B9_7F4A_7C15)))
        .reduce(Tally::default, |mut a, b| {
            if a.per_hand.is_empty() {
                return b;
            }
            a.games += b.games;
            a.hands += b.hands;
            for (x, y) in a.per_hand.iter_mut().zip(&b.per_hand) {
                x.merge(y);
            }
            for (x, y) in a.wins.iter_mut().zip(&b.wins) {
                *x += y;
            }
            a
        });
    let summary = NapalmSummary {
        game: "napalm",
        players,
        games: tally.games,
        hands: tally.hands,
        seed,
        seats: (0..players)
            .map(|s| SeatReport {
                seat: s as u8,
                bot: bots[s],
                chips_per_hand: tally.per_hand[s].estimate(),
                games_won: tally.wins[s] / tally.games.max(1) as f64,
            })
            .collect(),
    };
    if json {
        println!(
            "{}",
            serde_json::to_string(&summary).expect("plain data serialises")
        );
    } else {
        let mut o = String::new();
        let _ = writeln!(
            o,
            "Napalm: {} hands in {} games\n",
            summary.hands, summary.games
        );
        let _ = writeln!(
            o,
            "{:<16} {:>20} {:>10}",
            "seat", "chips per hand", "games won"
        );
        for s in &summary.seats {
            let label = format!("{} ({})", s.seat, s.bot);
            let est = format!(
                "{:+.3} ± {:.3}",
                s.chips_per_hand.mean, s.chips_per_hand.ci95
            );
            let _ = writeln!(o, "{label:<16} {est:>20} {:>10.4}", s.games_won);
        }
        print!("{o}");
    }
    Ok(())
}

fn play_one(rules: &NapalmRules, kinds: &[BotKind], seed: u64) -> Tally {
    let n = kinds.len();
    let mut rng = seeded_rng(seed);
    let mut bots: Vec<Box<dyn NapalmBot>> = kinds.iter().map(|&k| napalm_bot(k)).collect();
    let mut first = Vec::new();
    let mut game = NapalmGame::start(rules.clone(), n, &mut first).expect("checked table");
    let mut tally = Tally {
        games: 1,
        per_hand: vec![Moments::default(); n],
        wins: vec![0.0; n],
        ..Tally::default()
    };
    let mut won = vec![0i64; n];
    let mut pending_events = Some(first);
    loop {
        let events = if let Some(first) = pending_events.take() {
            first
        } else {
            match game.pending() {
                Pending::GameOver => break,
                Pending::Deck => game.deal(&Deck::shuffled(&mut rng)),
                Pending::Decide { seat, .. } => {
                    let action = bots[usize::from(seat)].act(&game.view(Some(seat)), &mut rng);
                    game.apply(seat, action)
                }
            }
            .expect("bots answer legally")
        };
        for e in &events {
            match e {
                Event::Transfer(t) => {
                    for (acc, sign) in [(t.from, -1), (t.to, 1)] {
                        if let Account::Stack(s) = acc {
                            won[usize::from(s)] += sign * i64::from(t.amount);
                        }
                    }
                }
                Event::HandEnded { .. } | Event::GameOver { .. } => {
                    if won.iter().any(|&w| w != 0) || matches!(e, Event::HandEnded { .. }) {
                        tally.hands += 1;
                        for (m, w) in tally.per_hand.iter_mut().zip(&mut won) {
                            m.push(*w as f64);
                            *w = 0;
                        }
                    }
                    if let Event::GameOver { winners } = e {
                        for &w in winners {
                            tally.wins[usize::from(w)] += 1.0 / winners.len() as f64;
                        }
                    }
                }
                _ => {}
            }
        }
    }
    tally
}
