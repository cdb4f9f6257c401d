//! Players for Tripoley: the [`Bot`] trait, [`RandomBot`] and
//! [`HeuristicBot`], a driver that plays whole games with them
//! ([`play_game`]), and the self-play simulator ([`sim`]).
//!
//! A bot sees only its seat's [`View`](tripoley_engine::View): it can never
//! cheat, and the same bot can advise a human.
//!
//! ```
//! use tripoley_bots::{BotKind, play_game};
//! use tripoley_engine::{Preset, Rules};
//!
//! let rules = Rules::preset(Preset::Pagat);
//! let mut bots: Vec<_> = [BotKind::Heuristic, BotKind::Random, BotKind::Random]
//!     .iter()
//!     .map(|k| k.make(&rules))
//!     .collect();
//! let game = play_game(&rules, &mut bots, 7, |_, _| {})?;
//! assert_eq!(game.stacks().iter().sum::<u32>() + game.layout().total(), 300);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod driver;
mod heuristic;
mod random;
pub mod sim;

pub use driver::{PlayError, play_game, record_game};
pub use heuristic::HeuristicBot;
pub use random::RandomBot;

use tripoley_cards::GameRng;
use tripoley_engine::{Action, InfoSet, View};

/// A player. It sees its seat's view, whose `decision` is set when it must act.
pub trait Bot: Send {
    /// The bot's kind, as written on the command line.
    fn name(&self) -> &'static str;

    /// The bot's answer to `view.decision`, which the caller guarantees is set.
    fn act(&mut self, view: &View, rng: &mut GameRng) -> Action;

    /// The bot's answer at a decision, given the seat's information set:
    /// its view, and worlds sampled consistently with it for bots that
    /// search. By default, [`Bot::act`] on the view.
    fn act_in(&mut self, info: &InfoSet<'_>, rng: &mut GameRng) -> Action {
        self.act(&info.view(), rng)
    }
}

/// The bots that can be named on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BotKind {
    /// Uniformly random legal actions.
    Random,
    /// A sound human-like player.
    Heuristic,
}

impl BotKind {
    /// Every kind.
    pub const ALL: [BotKind; 2] = [BotKind::Random, BotKind::Heuristic];

    /// A new bot of this kind for a table with these rules.
    pub fn make(self, rules: &tripoley_engine::Rules) -> Box<dyn Bot> {
        match self {
            BotKind::Random => Box::new(RandomBot),
            BotKind::Heuristic => Box::new(HeuristicBot::for_rules(rules)),
        }
    }

    /// The name used on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            BotKind::Random => "random",
            BotKind::Heuristic => "heuristic",
        }
    }
}

impl std::str::FromStr for BotKind {
    type Err = String;
    fn from_str(s: &str) -> Result<BotKind, String> {
        BotKind::ALL
            .into_iter()
            .find(|k| k.name() == s.trim())
            .ok_or_else(|| format!("unknown bot {s:?}: choose random or heuristic"))
    }
}

impl std::fmt::Display for BotKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A uniform integer below `n` (> 0).
pub(crate) fn below(rng: &mut GameRng, n: u32) -> u32 {
    use rand_core::Rng;
    ((u64::from(rng.next_u32()) * u64::from(n)) >> 32) as u32
}
