//! Napalm's self-play simulator: exactly the hands asked for, on all cores,
//! on the run driver of `tripoley-game` ([`play_rounds`]), as Tripoley's
//! lives in `tripoley-bots`: game `g` is seeded from the run's seed and `g`
//! alone, games are counted in order of `g`, and the last game counted is
//! cut after the hand that completes the count. So the figures depend on
//! the seed and the count, never on the threads.

use std::ops::ControlFlow;

use tripoley_cards::seeded_rng;
use tripoley_game::run::{Counted, play_rounds};
use tripoley_game::stats::{Estimate, Moments};
use tripoley_game::{Bot, Dice};

use crate::{Account, Event, NapalmBotKind, NapalmGame, NapalmRecord, NapalmRules, Seat};

/// What to simulate.
#[derive(Clone, Debug)]
pub struct SimConfig {
    /// The rules (checked for the seats by the caller).
    pub rules: NapalmRules,
    /// The bot in each seat.
    pub bots: Vec<NapalmBotKind>,
    /// Hands to play, exactly.
    pub hands: u64,
    /// Seeds every game: the same seed gives the same results.
    pub seed: u64,
    /// Keep the records of the first games, this many: those counted whole
    /// go to the caller (a game cut short has no end to replay).
    pub keep_records: usize,
}

/// What a simulation found.
#[derive(Clone, Debug)]
pub struct SimSummary {
    /// Games counted whole (played to their end).
    pub games: u64,
    /// Whether the last game was cut short to play exactly the hands asked.
    pub last_game_cut: bool,
    /// Chips left in the pot of the game cut short (every game played to
    /// its end pays its pot out, N8).
    pub unclaimed_chips: u64,
    /// Per seat: chips won per hand.
    pub chips_per_hand: Vec<Estimate>,
    /// Per seat: its share of the games counted whole that it won (a pot
    /// split between winners shares the win).
    pub games_won: Vec<f64>,
}

/// The seed of game `g` of a run: the simulator's own since its first
/// runs, so a seed still plays the games it always did.
fn game_seed(seed: u64, g: u64) -> u64 {
    seed ^ g.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Plays Napalm games on the current rayon pool until exactly
/// `config.hands` hands were played; `progress` is told the hands played so
/// far, and `record(g, record)` gets each record kept, in order of the
/// games (the caller saves them: this crate does no I/O), and may stop the
/// run with its error.
pub fn simulate<E: Send>(
    config: &SimConfig,
    progress: &(dyn Fn(u64) + Sync),
    mut record: impl FnMut(u64, &NapalmRecord) -> Result<(), E>,
) -> Result<SimSummary, E> {
    let n = config.bots.len();
    let mut tally = Tally {
        games: 0,
        cut: false,
        unclaimed: 0,
        per_hand: vec![Moments::default(); n],
        wins: vec![0.0; n],
    };
    let keep = config.keep_records as u64;
    // Eight hands a game: a first guess, until games are counted.
    play_rounds(
        config.hands,
        8,
        || (),
        |(), g, limit| Ok(play_one(config, g, limit, g < keep)),
        |g, game| match (tally.add(&game), &game.record) {
            (true, Some(kept)) => record(g, kept),
            _ => Ok(()),
        },
        progress,
    )?;
    Ok(SimSummary {
        games: tally.games,
        last_game_cut: tally.cut,
        unclaimed_chips: tally.unclaimed,
        chips_per_hand: tally.per_hand.iter().map(Moments::estimate).collect(),
        games_won: tally
            .wins
            .iter()
            .map(|w| w / tally.games.max(1) as f64)
            .collect(),
    })
}

/// One game as self-play saw it.
struct Played {
    /// Each hand's chips won (or lost) per seat, the pot at the end in the last.
    hands: Vec<Vec<i64>>,
    /// Who took the pot, when the game ended within the hands allowed.
    winners: Option<Vec<Seat>>,
    /// Its record, when asked for.
    record: Option<NapalmRecord>,
}

impl Counted for Played {
    fn rounds(&self) -> u64 {
        self.hands.len() as u64
    }
}

/// The running totals, fed games in order.
struct Tally {
    games: u64,
    cut: bool,
    unclaimed: u64,
    per_hand: Vec<Moments>,
    wins: Vec<f64>,
}

impl Tally {
    /// Counts a game's hands, one by one in order (so the sums are the
    /// same whatever the batches); returns whether it was counted whole.
    fn add(&mut self, game: &Played) -> bool {
        for hand in &game.hands {
            for (m, &w) in self.per_hand.iter_mut().zip(hand) {
                m.push(w as f64);
            }
        }
        if let Some(winners) = &game.winners {
            self.games += 1;
            for &w in winners {
                self.wins[usize::from(w)] += 1.0 / winners.len() as f64;
            }
            true
        } else {
            // Cut short: every chip won so far is counted, so the pot at
            // the cut is what nobody took.
            let pot: i64 = game.hands.iter().flatten().sum();
            self.unclaimed += pot.unsigned_abs();
            self.cut = true;
            false
        }
    }
}

/// Plays game `g` for at most `cap` hands, tallying each hand's chips, its
/// record kept when `keep`.
fn play_one(config: &SimConfig, g: u64, cap: u64, keep: bool) -> Played {
    let (rules, kinds) = (&config.rules, &config.bots);
    let n = kinds.len();
    let mut bots: Vec<Box<dyn Bot<NapalmGame>>> = kinds.iter().map(|k| k.make()).collect();
    let mut first = Vec::new();
    let mut game = NapalmGame::start(rules.clone(), n, &mut first).expect("checked table");
    let mut record = keep.then(|| {
        let names = (0..).zip(kinds).map(|(s, k)| format!("{k} {s}"));
        NapalmRecord::new(rules.clone(), names.collect())
    });
    let mut played = Played {
        hands: Vec::new(),
        winners: None,
        record: None,
    };
    // Tallies a step's events; breaks once the hand after the last one
    // wanted has begun (and drops it).
    let tally = |played: &mut Played, events: &[Event]| {
        for e in events {
            match e {
                Event::HandStarted { .. } => played.hands.push(vec![0; n]),
                Event::Transfer(t) => {
                    let hand = played.hands.last_mut().expect("chips move in a hand");
                    for (acc, sign) in [(t.from, -1), (t.to, 1)] {
                        if let Account::Stack(s) = acc {
                            hand[usize::from(s)] += sign * i64::from(t.amount);
                        }
                    }
                }
                Event::GameOver { winners } => played.winners = Some(winners.clone()),
                _ => {}
            }
        }
        if played.hands.len() as u64 > cap {
            played
                .hands
                .truncate(usize::try_from(cap).unwrap_or(usize::MAX));
            played.winners = None;
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    if tally(&mut played, &first).is_continue() {
        let mut rng = seeded_rng(game_seed(config.seed, g));
        tripoley_game::play(
            &mut game,
            &mut bots,
            Dice::shared(&mut rng),
            |_, step, events| {
                if let Some(r) = &mut record {
                    r.steps.push(step.clone());
                }
                tally(&mut played, events)
            },
        )
        .expect("bots answer legally");
    }
    played.record = record;
    played
}
