//! Players for Tripoley: the [`Bot`] trait, [`RandomBot`],
//! [`HeuristicBot`] and the searching [`ExpertBot`], outside programs
//! speaking a line protocol ([`ExecBot`]), a driver that plays whole games
//! with them ([`play_game`]), the self-play simulator ([`sim`]) and
//! duplicate matches between bots ([`arena`]).
//!
//! A bot sees only its seat's [`View`] (or, to
//! search, its [`InfoSet`]): it can never cheat, and the same bot can
//! advise a human ([`hint`]).
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

pub mod arena;
mod driver;
mod exec;
mod expert;
mod heuristic;
pub mod positions;
mod random;
pub mod sim;

use std::sync::Arc;
use std::time::Duration;

pub use driver::{PlayError, play_game, play_game_quietly, play_game_with, record_game};
pub use exec::{ExecBot, ExecShared, OutsideReport, kill_outside_bots, outside_bots_running};
pub use expert::{Advice, Budget, Earned, ExpertBot, SearchStats, Verdict, advise, hint, judge};
pub use heuristic::HeuristicBot;
pub use random::RandomBot;

use tripoley_cards::GameRng;
use tripoley_engine::Game;
#[cfg(doc)]
use tripoley_engine::{InfoSet, View};

/// A Tripoley player: a [`tripoley_game::Bot`] of Tripoley's [`Game`] (it
/// sees its seat's [`View`], or its [`InfoSet`] to search), whose searches
/// a simulation may ask the cost of.
pub trait Bot: tripoley_game::Bot<Game> {
    /// For searching bots: what the searches since the last call cost
    /// (decisions, playouts, time), and the counts are reset.
    fn take_stats(&mut self) -> Option<SearchStats> {
        None
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
    /// Searches sampled worlds ([`ExpertBot`], default budget).
    Expert,
}

impl BotKind {
    /// Every kind.
    pub const ALL: [BotKind; 3] = [BotKind::Random, BotKind::Heuristic, BotKind::Expert];

    /// A new bot of this kind for a table with these rules (an expert with
    /// the default budget, [`Budget::DEFAULT`]).
    pub fn make(self, rules: &tripoley_engine::Rules) -> Box<dyn Bot> {
        self.make_with(rules, &BotOptions::default())
    }

    /// A new bot of this kind, with these options.
    pub fn make_with(self, rules: &tripoley_engine::Rules, options: &BotOptions) -> Box<dyn Bot> {
        match self {
            BotKind::Random => Box::new(RandomBot),
            BotKind::Heuristic => Box::new(HeuristicBot::for_rules(rules)),
            BotKind::Expert => Box::new(ExpertBot::new(rules, options.budget)),
        }
    }

    /// The name used on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            BotKind::Random => "random",
            BotKind::Heuristic => "heuristic",
            BotKind::Expert => "expert",
        }
    }
}

impl std::str::FromStr for BotKind {
    type Err = String;
    fn from_str(s: &str) -> Result<BotKind, String> {
        BotKind::ALL
            .into_iter()
            .find(|k| k.name() == s.trim())
            .ok_or_else(|| format!("unknown bot {s:?}: choose random, heuristic or expert"))
    }
}

impl std::fmt::Display for BotKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A bot as named on the command line: a built-in kind, or an outside
/// program (`exec:CMD`, see `docs/bot-protocol.md`). Its text form is
/// what parses: `heuristic`, `expert`, `exec:python3 my_bot.py`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum BotSpec {
    /// A built-in bot.
    Kind(BotKind),
    /// An outside program, run with the shell (`sh -c CMD`).
    Exec(String),
    /// A built-in bot as it played until 2026-11 (`heuristic-2026-11`,
    /// `expert-2026-11`): the anchor the bots' progress is measured
    /// against in duplicate matches.
    Anchor(BotKind),
    /// The expert at exactly this many playouts a decision, whatever the
    /// run's budget (`expert@8000`): how much a bigger search is worth,
    /// measured against the expert of the run's budget in one match.
    Searching(u32),
}

/// The most playouts a decision `expert@N` may ask for.
pub const MAX_SEARCH_PLAYOUTS: u32 = 100_000;

/// How an anchor's name ends: the month until which the bots played so.
const ANCHOR: &str = "-2026-11";

/// Settings for making bots: the expert's budget, an outside bot's timeout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BotOptions {
    /// The expert's budget per decision.
    pub budget: Budget,
    /// How long an outside bot may take to answer.
    pub exec_timeout: Duration,
}

impl Default for BotOptions {
    fn default() -> BotOptions {
        BotOptions {
            budget: Budget::DEFAULT,
            exec_timeout: Duration::from_secs(10),
        }
    }
}

impl BotSpec {
    /// The built-in kind, if it is one.
    pub fn kind(&self) -> Option<BotKind> {
        match self {
            BotSpec::Kind(k) => Some(*k),
            BotSpec::Exec(_) | BotSpec::Anchor(_) | BotSpec::Searching(_) => None,
        }
    }
}

impl From<BotKind> for BotSpec {
    fn from(k: BotKind) -> BotSpec {
        BotSpec::Kind(k)
    }
}

impl PartialEq<BotKind> for BotSpec {
    fn eq(&self, other: &BotKind) -> bool {
        self.kind() == Some(*other)
    }
}

impl std::str::FromStr for BotSpec {
    type Err = String;
    fn from_str(s: &str) -> Result<BotSpec, String> {
        let s = s.trim();
        match s.strip_prefix("exec:") {
            Some(cmd) if cmd.trim().is_empty() => {
                Err("exec: needs a command, e.g. exec:'python3 my_bot.py'".into())
            }
            Some(cmd) => Ok(BotSpec::Exec(cmd.trim().to_owned())),
            None if s.starts_with("expert@") => match s["expert@".len()..].parse::<u32>() {
                Ok(n) if (1..=MAX_SEARCH_PLAYOUTS).contains(&n) => Ok(BotSpec::Searching(n)),
                _ => Err(format!(
                    "{s:?}: expert@N takes a number of playouts from 1 to {MAX_SEARCH_PLAYOUTS}"
                )),
            },
            None => match s.strip_suffix(ANCHOR) {
                Some("heuristic") => Ok(BotSpec::Anchor(BotKind::Heuristic)),
                Some("expert") => Ok(BotSpec::Anchor(BotKind::Expert)),
                _ => s.parse::<BotKind>().map(BotSpec::Kind),
            }
            .map_err(|_| {
                format!(
                    "unknown bot {s:?}: choose random, heuristic, expert, exec:COMMAND, \
                     expert@N (N playouts a decision), or heuristic{ANCHOR} or \
                     expert{ANCHOR} (the bots as they played until then)"
                )
            }),
        }
    }
}

impl std::fmt::Display for BotSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BotSpec::Kind(k) => f.write_str(k.name()),
            BotSpec::Exec(cmd) => write!(f, "exec:{cmd}"),
            BotSpec::Anchor(k) => write!(f, "{k}{ANCHOR}"),
            BotSpec::Searching(n) => write!(f, "expert@{n}"),
        }
    }
}

impl serde::Serialize for BotSpec {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for BotSpec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<BotSpec, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// The bots of one run (a simulation, a match), made from their specs.
/// Every copy of one outside bot shares its [`ExecShared`]: once it failed
/// no copy starts it again, it is reported once, and the decisions the
/// fallback made for it are counted over the whole run.
pub struct BotMaker {
    rules: tripoley_engine::Rules,
    options: BotOptions,
    outside: Vec<(String, Arc<ExecShared>)>,
}

impl BotMaker {
    /// A maker for the bots in `specs`, at a table with these rules.
    pub fn new(rules: &tripoley_engine::Rules, specs: &[BotSpec], options: BotOptions) -> BotMaker {
        let mut outside: Vec<(String, Arc<ExecShared>)> = Vec::new();
        for spec in specs {
            if let BotSpec::Exec(cmd) = spec
                && !outside.iter().any(|(c, _)| c == cmd)
            {
                outside.push((cmd.clone(), ExecShared::new(cmd, options.exec_timeout)));
            }
        }
        BotMaker {
            rules: rules.clone(),
            options,
            outside,
        }
    }

    /// A new copy of the bot `spec` (which must be one of the specs given).
    pub fn make(&self, spec: &BotSpec) -> Box<dyn Bot> {
        match spec {
            BotSpec::Anchor(BotKind::Heuristic) => Box::new(HeuristicBot::anchor(&self.rules)),
            BotSpec::Anchor(BotKind::Expert) => {
                Box::new(ExpertBot::anchor(&self.rules, self.options.budget))
            }
            // The random bot has no anchor: it never changed.
            BotSpec::Kind(k) | BotSpec::Anchor(k) => k.make_with(&self.rules, &self.options),
            BotSpec::Searching(n) => Box::new(ExpertBot::new(&self.rules, Budget::playouts(*n))),
            BotSpec::Exec(cmd) => Box::new(ExecBot::sharing(
                Arc::clone(self.shared(cmd).expect("a spec given to the maker")),
                &self.rules,
            )),
        }
    }

    fn shared(&self, cmd: &str) -> Option<&Arc<ExecShared>> {
        self.outside.iter().find(|(c, _)| c == cmd).map(|(_, s)| s)
    }

    /// Asks every outside bot a first decision at a table of `players`:
    /// `Err` names a program that cannot play at all (it cannot start,
    /// answers badly or too late), so a run can be refused before it
    /// reports the fallback's results under the program's name.
    pub fn probe(&self, players: usize) -> Result<(), String> {
        for (cmd, shared) in &self.outside {
            shared
                .probe(&self.rules, players)
                .map_err(|why| format!("the outside bot `{cmd}` cannot play: {why}"))?;
        }
        Ok(())
    }

    /// How the outside bot `spec` did so far (`None` for a built-in bot).
    pub fn report(&self, spec: &BotSpec) -> Option<OutsideReport> {
        match spec {
            BotSpec::Kind(_) | BotSpec::Anchor(_) | BotSpec::Searching(_) => None,
            BotSpec::Exec(cmd) => self.shared(cmd).map(|s| s.report()),
        }
    }
}

/// A uniform integer below `n` (> 0).
pub(crate) fn below(rng: &mut GameRng, n: u32) -> u32 {
    use rand_core::Rng;
    ((u64::from(rng.next_u32()) * u64::from(n)) >> 32) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bot_spec_reads_back_as_written_and_bounds_its_playouts() {
        for text in [
            "random",
            "expert",
            "heuristic-2026-11",
            "expert@8000",
            "exec:./bot",
        ] {
            let spec: BotSpec = text.parse().expect(text);
            assert_eq!(spec.to_string(), text);
        }
        assert_eq!("expert@1".parse(), Ok(BotSpec::Searching(1)));
        for bad in [
            "expert@0",
            "expert@",
            "expert@-3",
            "expert@100001",
            "expert@1e3",
        ] {
            let e = bad.parse::<BotSpec>().expect_err(bad);
            assert!(e.contains("1 to 100000"), "{bad}: {e}");
        }
    }
}
