//! Napalm's bots ([`Bot`]s of a [`NapalmGame`]): random, and a heuristic
//! that declares from how its hand ranks among the hands the others could
//! hold.

use std::sync::OnceLock;

use rand_core::Rng;
use tripoley_cards::{CardSet, GameRng, seeded_rng};

use tripoley_game::Bot;

use crate::game::{Action, Decision, NapalmGame, NapalmView, Round, hand_strength};

/// Answers at random.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomNapalmBot;

impl Bot<NapalmGame> for RandomNapalmBot {
    fn name(&self) -> &'static str {
        "random"
    }
    fn act(&mut self, view: &NapalmView, rng: &mut GameRng) -> Action {
        let d = view.decision.expect("asked on its turn");
        d.actions()[(rng.next_u32() >> 31) as usize]
    }
}

/// Hands sampled per round to estimate how strong a hand is.
const SAMPLES: usize = 20_000;

/// For each round, the strengths of random hands, sorted: a hand's share of
/// random hands it beats is a binary search away.
fn strength_tables() -> &'static [Vec<u32>; 3] {
    static T: OnceLock<[Vec<u32>; 3]> = OnceLock::new();
    T.get_or_init(|| {
        let mut rng = seeded_rng(0x000A_9A1A);
        [
            (Round::BestTwo, 2),
            (Round::LowestFive, 5),
            (Round::BestOfSeven, 7),
        ]
        .map(|(round, size)| {
            let mut v: Vec<u32> = (0..SAMPLES)
                .map(|_| hand_strength(round, CardSet::random(&mut rng, size)))
                .collect();
            v.sort_unstable();
            v
        })
    })
}

/// The share of random hands that `cards` beats in `round`.
pub fn beats_share(round: Round, cards: CardSet) -> f64 {
    let table = &strength_tables()[round as usize];
    let s = hand_strength(round, cards);
    table.partition_point(|&x| x < s) as f64 / table.len() as f64
}

/// Declares Yes when its hand probably beats every other hand still dealt:
/// the chance is its share of beaten random hands to the power of the
/// number of opponents. The bar is higher when a Yes risks side bets worth
/// the pot against its stack.
#[derive(Clone, Copy, Debug, Default)]
pub struct HeuristicNapalmBot;

impl Bot<NapalmGame> for HeuristicNapalmBot {
    fn name(&self) -> &'static str {
        "heuristic"
    }

    fn act(&mut self, view: &NapalmView, _rng: &mut GameRng) -> Action {
        let d = view.decision.expect("asked on its turn");
        let round = match d {
            Decision::Declare { round } | Decision::Challenge { round } => round,
        };
        let opponents = view
            .card_counts
            .iter()
            .enumerate()
            .filter(|&(s, &c)| Some(s as u8) != view.seat && c > 0)
            .count();
        let p = beats_share(round, view.cards).powi(i32::try_from(opponents).unwrap_or(i32::MAX));
        let stack = view.seat.map_or(0, |s| view.stacks[usize::from(s)]);
        // Risking the pot in side bets matters more when it is a large part of the stack.
        let risk = f64::from(view.pot) / f64::from(stack.max(1));
        let bar = 0.3 + 0.5 * risk.min(1.0);
        let yes = p > bar;
        match d {
            Decision::Declare { .. } => {
                if yes {
                    Action::Yes
                } else {
                    Action::No
                }
            }
            Decision::Challenge { .. } => {
                if yes {
                    Action::Challenge
                } else {
                    Action::Decline
                }
            }
        }
    }
}

/// Napalm's bots as a run names them (the command line, a simulation, an
/// arena): one place that makes each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NapalmBotKind {
    /// [`RandomNapalmBot`].
    Random,
    /// [`HeuristicNapalmBot`].
    Heuristic,
}

impl NapalmBotKind {
    /// A new bot of this kind.
    pub fn make(self) -> Box<dyn Bot<NapalmGame>> {
        match self {
            NapalmBotKind::Random => Box::new(RandomNapalmBot),
            NapalmBotKind::Heuristic => Box::new(HeuristicNapalmBot),
        }
    }

    /// The name a run prints and a record keeps: `heuristic`.
    pub const fn name(self) -> &'static str {
        match self {
            NapalmBotKind::Random => "random",
            NapalmBotKind::Heuristic => "heuristic",
        }
    }
}

impl std::fmt::Display for NapalmBotKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
