//! [`ExpertBot`]: determinized Monte Carlo search over the seat's
//! information set.
//!
//! At each real decision the bot lists a few candidate answers
//! ([`candidates`]), then repeatedly samples a world consistent with
//! everything the seat has seen ([`InfoSet::sample`]) and plays every
//! candidate out in that same world to the end of the deal (the end of the
//! game in the last deal), with [`HeuristicBot`]s in every seat (see
//! `search::playout` for which betting each seat's reads). All
//! candidates see the same worlds and the same chance (common random
//! numbers), so their differences are measured far more precisely than
//! their values; successive halving drops the worst half of the candidates
//! a few times so the playouts go to the close calls. The answer is the
//! candidate with the best mean; ties go to the heuristic's own choice,
//! always listed first.

mod candidates;
mod earned;
mod search;
mod verdict;

pub use earned::Earned;
pub(crate) use search::{playout, worth};
pub(crate) use verdict::measurers;
pub use verdict::{Verdict, judge};

use std::time::Duration;

use web_time::Instant;

use tripoley_cards::{GameRng, seeded_rng};
use tripoley_engine::{Action, Game, InfoSet, Rules, View};

use tripoley_game::Bot as _;

use crate::{Bot, HeuristicBot};

/// Playouts one decision may use per millisecond of its time budget. Set
/// below what one core of the project's machine does (see docs/bots.md) so
/// that searches end on their playout count, which is deterministic, and the
/// clock is only a safety cap.
pub const PLAYOUTS_PER_MS: u32 = 80;

/// How much a decision may search: a number of playouts (deterministic for a
/// given seed) and a wall-clock cap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Playouts (one candidate played out in one sampled world).
    pub playouts: u32,
    /// Stop early when this much time has passed (the answer then depends on
    /// the machine's speed).
    pub time: Option<Duration>,
}

impl Budget {
    /// 10 ms a decision.
    pub const DEFAULT: Budget = Budget::millis(10);

    /// `ms` milliseconds a decision: `PLAYOUTS_PER_MS` playouts per
    /// millisecond, capped by the clock at 90% of `ms` (what a decision
    /// does besides its playouts, and a busy machine, take the rest).
    pub const fn millis(ms: u32) -> Budget {
        Budget {
            playouts: ms.saturating_mul(PLAYOUTS_PER_MS),
            time: Some(Duration::from_micros(ms as u64 * 900)),
        }
    }

    /// Exactly `n` playouts a decision, whatever the time: fully deterministic.
    pub const fn playouts(n: u32) -> Budget {
        Budget {
            playouts: n,
            time: None,
        }
    }
}

impl Default for Budget {
    fn default() -> Budget {
        Budget::DEFAULT
    }
}

/// What searching cost: decisions searched, playouts, and the time of each
/// decision.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchStats {
    /// Decisions answered (with or without a search).
    pub decisions: u64,
    /// Decisions that needed a search (more than one candidate).
    pub searched: u64,
    /// Playouts run.
    pub playouts: u64,
    /// Time spent in searches.
    pub search_time: Duration,
    /// Microseconds each searched decision took.
    pub decision_micros: Vec<u32>,
}

impl SearchStats {
    /// Adds another's counts to these.
    pub fn merge(&mut self, o: &SearchStats) {
        self.decisions += o.decisions;
        self.searched += o.searched;
        self.playouts += o.playouts;
        self.search_time += o.search_time;
        self.decision_micros.extend_from_slice(&o.decision_micros);
    }

    /// Playouts per second of search time.
    pub fn playouts_per_sec(&self) -> f64 {
        let secs = self.search_time.as_secs_f64();
        if secs > 0.0 {
            self.playouts as f64 / secs
        } else {
            0.0
        }
    }

    /// The `q`-quantile (0..=1) of searched decisions' times, in milliseconds.
    pub fn quantile_ms(&self, q: f64) -> f64 {
        if self.decision_micros.is_empty() {
            return 0.0;
        }
        let mut v = self.decision_micros.clone();
        v.sort_unstable();
        #[allow(clippy::cast_sign_loss)] // q is clamped to 0..=1
        let i = ((v.len() - 1) as f64 * q.clamp(0.0, 1.0)).round() as usize;
        f64::from(v[i]) / 1000.0
    }
}

/// Plays by searching: see the module docs. Deterministic for a given RNG
/// and a playout budget (a time cap makes it depend on the machine only
/// when the cap is reached).
#[derive(Clone, Debug)]
pub struct ExpertBot {
    /// Who plays its playouts and how their worlds are drawn (the anchor's
    /// put the cards runs stopped below anywhere).
    players: search::Players,
    rules: Rules,
    budget: Budget,
    stats: SearchStats,
}

impl ExpertBot {
    /// An expert for a table with these rules, searching within `budget`
    /// at each decision.
    pub fn new(rules: &Rules, budget: Budget) -> ExpertBot {
        ExpertBot::with_rollout(rules, budget, playout_player(rules), true)
    }

    /// The expert as it played until 2026-11 (its playouts' players judge
    /// their hands against random ones, whatever the bets; its worlds put
    /// the cards runs stopped below anywhere): the anchor the expert's
    /// progress is measured against.
    pub fn anchor(rules: &Rules, budget: Budget) -> ExpertBot {
        ExpertBot::with_rollout(rules, budget, HeuristicBot::anchor(rules), false)
    }

    fn with_rollout(
        rules: &Rules,
        budget: Budget,
        rollout: HeuristicBot,
        stops_in_spare: bool,
    ) -> ExpertBot {
        // Build the odds tables now, not in the first decision's time.
        rollout.prepare();
        ExpertBot {
            players: search::Players {
                stops_in_spare,
                ..search::Players::heuristic(rollout)
            },
            rules: rules.clone(),
            budget,
            stats: SearchStats::default(),
        }
    }

    /// The budget per decision.
    pub fn budget(&self) -> Budget {
        self.budget
    }

    /// The best answer found at `info`'s decision, with the search's report.
    pub fn decide(&mut self, info: &InfoSet<'_>, rng: &mut GameRng) -> Action {
        self.advise(info, rng).best
    }

    /// [`ExpertBot::decide`], with every candidate searched and its mean.
    fn advise(&mut self, info: &InfoSet<'_>, rng: &mut GameRng) -> Advice {
        let view = info.view();
        let decision = view
            .decision
            .expect("the bot is asked only at its own decision");
        // One answer (a lead with one card): nothing to search or sample.
        if let Some(best) = decision.only() {
            self.stats.decisions += 1;
            return Advice {
                best,
                means: Vec::new(),
            };
        }
        let mut seed_rng = seeded_rng(rand_core::Rng::next_u64(rng));
        let first = self.players.bot.act(&view, &mut seed_rng);
        let cands = candidates::candidates(&view, decision, first, &self.rules);
        self.stats.decisions += 1;
        if cands.len() < 2 {
            return Advice {
                best: first,
                means: Vec::new(),
            };
        }
        let start = Instant::now();
        let out = search::search(
            info,
            &cands,
            None,
            self.players,
            self.rules.bet_limit,
            self.budget,
            &mut seed_rng,
        );
        let took = start.elapsed();
        self.stats.searched += 1;
        self.stats.playouts += u64::from(out.playouts);
        self.stats.search_time += took;
        self.stats
            .decision_micros
            .push(u32::try_from(took.as_micros()).unwrap_or(u32::MAX));
        Advice {
            best: out.best,
            means: out.means.to_vec(),
        }
    }
}

impl tripoley_game::Bot<Game> for ExpertBot {
    fn name(&self) -> &'static str {
        "expert"
    }

    /// Without the information set there is nothing to sample: the
    /// heuristic's answer.
    fn act(&mut self, view: &View, rng: &mut GameRng) -> Action {
        self.players.bot.act(view, rng)
    }

    fn act_in(&mut self, info: &InfoSet<'_>, rng: &mut GameRng) -> Action {
        self.decide(info, rng)
    }
}

impl Bot for ExpertBot {
    fn take_stats(&mut self) -> Option<SearchStats> {
        Some(std::mem::take(&mut self.stats))
    }
}

/// The player of the playouts (the searching seat's; its opponents' is the
/// same without reading bets, `search::playout`).
pub(crate) fn playout_player(rules: &Rules) -> HeuristicBot {
    HeuristicBot::for_rules(rules).reading_bets(true)
}

/// The expert's advice at a decision: its choice, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Advice {
    /// What the expert would do.
    pub best: Action,
    /// Each candidate searched, with what the seat was worth on average at
    /// the end of its sample deals (its chips plus its share of the layout);
    /// empty when there was only one sensible answer.
    pub means: Vec<(Action, f64)>,
}

/// The hint key: what the expert would do at `info`'s decision, searching
/// within `budget`. Deterministic for a playout budget (the seed is fixed).
pub fn hint(info: &InfoSet<'_>, rules: &Rules, budget: Budget) -> Action {
    advise(info, rules, budget).best
}

/// [`hint`] with the candidates' means, for a hint that says why.
pub fn advise(info: &InfoSet<'_>, rules: &Rules, budget: Budget) -> Advice {
    let mut rng = seeded_rng(0x4849_4E54);
    ExpertBot::new(rules, budget).advise(info, &mut rng)
}
