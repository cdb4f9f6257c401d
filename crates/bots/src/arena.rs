//! Duplicate matches between bots: each deck is replayed with the bots
//! rotated through the seats, so the luck of the cards cancels and what is
//! left is skill.
//!
//! Every duplicate deal is played as one-deal games (`rules.deals =
//! Some(1)`, so a game's final pot, E2, counts for its deal), one per
//! distinct rotation of the line-up. Chance draws from its own stream,
//! seeded per duplicate deal, so every rotation sees the same decks; the
//! bots draw from a separate stream. A bot's result for a duplicate deal is
//! the mean of the chips it won in its seats over the rotations, and the
//! intervals are over duplicate deals.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;
use serde::Serialize;
use tripoley_engine::{Account, Rules};

use tripoley_game::run::game_seed;
use tripoley_game::stats::{Estimate, Moments};

use crate::sim::{ChipReport, Stage, StageTracker};
use crate::{
    Bot, BotMaker, BotOptions, BotSpec, OutsideReport, PlayError, SearchStats, play_game_with,
};

/// What to play.
#[derive(Clone, Debug)]
pub struct ArenaConfig {
    /// The table's rules (each game is played as a single deal).
    pub rules: Rules,
    /// Seats at the table.
    pub players: usize,
    /// The bots, one to `players` of them: seat `i` of the first line-up
    /// gets `bots[i % bots.len()]`; the other line-ups rotate it.
    pub bots: Vec<BotSpec>,
    /// Duplicate deals to play.
    pub deals: u64,
    /// Seeds the decks and the bots: the same seed gives the same results
    /// (for searching bots: with a budget that ends on its playout count).
    pub seed: u64,
    /// The expert's budget, an outside bot's timeout.
    pub options: BotOptions,
}

/// One bot's results, per seat and per deal.
#[derive(Clone, Debug, Serialize)]
pub struct ArenaBotReport {
    /// The bot.
    pub bot: BotSpec,
    /// Seats it held in each game.
    pub seats: usize,
    /// Chips it won per seat per deal, in total and per stage.
    #[serde(flatten)]
    pub chips: ChipReport,
    /// For an outside bot: its decisions, how many of them the fallback
    /// made after it failed, and why it failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outside: Option<OutsideReport>,
}

/// How much more one bot won than another, per seat per deal.
#[derive(Clone, Debug, Serialize)]
pub struct Difference {
    /// The first bot.
    pub bot: BotSpec,
    /// The second.
    pub other: BotSpec,
    /// `bot`'s chips per deal minus `other`'s, over the same decks.
    pub chips_per_deal: Estimate,
}

/// What a searching bot's decisions cost.
#[derive(Clone, Debug, Serialize)]
pub struct SearchReport {
    /// The bot.
    pub bot: BotSpec,
    /// Decisions it answered.
    pub decisions: u64,
    /// Those that needed a search (more than one candidate).
    pub searched: u64,
    /// Playouts run.
    pub playouts: u64,
    /// Playouts per second of search (one thread).
    pub playouts_per_sec: f64,
    /// Mean time of a searched decision, in milliseconds.
    pub mean_ms: f64,
    /// Median.
    pub p50_ms: f64,
    /// 99th percentile.
    pub p99_ms: f64,
    /// The slowest.
    pub max_ms: f64,
}

/// The result of a match.
#[derive(Clone, Debug, Serialize)]
pub struct ArenaSummary {
    /// Seats at the table.
    pub players: usize,
    /// Duplicate deals played.
    pub deals: u64,
    /// Games (one deal each) played: deals times line-ups.
    pub games: u64,
    /// The seed.
    pub seed: u64,
    /// The line-ups each deck was played with, seat by seat.
    pub lineups: Vec<Vec<String>>,
    /// Per bot.
    pub bots: Vec<ArenaBotReport>,
    /// Per pair of bots.
    pub differences: Vec<Difference>,
    /// Per searching bot.
    pub search: Vec<SearchReport>,
}

/// Why a match could not be played.
#[derive(Debug, thiserror::Error)]
pub enum ArenaError {
    /// A game could not be played.
    #[error(transparent)]
    Play(#[from] PlayError),
    /// The seats and bots do not match the rules.
    #[error("{0}")]
    Config(String),
}

/// Per distinct bot: a total and six stages.
type Row = [f64; 7];

/// Everything gathered, mergeable.
#[derive(Clone, Debug, Default)]
struct Tally {
    deals: u64,
    /// Per distinct bot: total and stages.
    bots: Vec<[Moments; 7]>,
    /// Per pair (i < j) of distinct bots.
    pairs: Vec<Moments>,
    search: Vec<Option<SearchStats>>,
}

impl Tally {
    fn new(bots: usize) -> Tally {
        Tally {
            deals: 0,
            bots: vec![[Moments::default(); 7]; bots],
            pairs: vec![Moments::default(); bots * bots.saturating_sub(1) / 2],
            search: vec![None; bots],
        }
    }

    fn push(&mut self, rows: &[Row], search: Vec<Option<SearchStats>>) {
        self.deals += 1;
        for (m, row) in self.bots.iter_mut().zip(rows) {
            for (mm, &x) in m.iter_mut().zip(row) {
                mm.push(x);
            }
        }
        let mut k = 0;
        for i in 0..rows.len() {
            for j in i + 1..rows.len() {
                self.pairs[k].push(rows[i][0] - rows[j][0]);
                k += 1;
            }
        }
        self.add_search(search);
    }

    fn add_search(&mut self, search: Vec<Option<SearchStats>>) {
        for (a, b) in self.search.iter_mut().zip(search) {
            match (a.as_mut(), b) {
                (Some(a), Some(b)) => a.merge(&b),
                (None, Some(b)) => *a = Some(b),
                _ => {}
            }
        }
    }

    fn merge(mut self, o: Tally) -> Tally {
        self.deals += o.deals;
        for (a, b) in self.bots.iter_mut().zip(&o.bots) {
            for (x, y) in a.iter_mut().zip(b) {
                x.merge(y);
            }
        }
        for (a, b) in self.pairs.iter_mut().zip(&o.pairs) {
            a.merge(b);
        }
        self.add_search(o.search);
        self
    }
}

/// The line-ups: seat by seat, indices into the distinct bots.
struct Plan {
    /// The distinct bots, in the order first named.
    distinct: Vec<BotSpec>,
    /// The first line-up's bot per seat (index into `distinct`).
    base: Vec<usize>,
    /// Rotations that give different line-ups: line-up `r` seats
    /// `base[(s + r) % n]` in seat `s`.
    rotations: Vec<usize>,
}

impl Plan {
    fn new(config: &ArenaConfig) -> Result<Plan, ArenaError> {
        let n = config.players;
        if config.bots.is_empty() || config.bots.len() > n {
            return Err(ArenaError::Config(format!(
                "name from one to {n} bots for {n} players"
            )));
        }
        let mut distinct: Vec<BotSpec> = Vec::new();
        for b in &config.bots {
            if !distinct.contains(b) {
                distinct.push(b.clone());
            }
        }
        let base: Vec<usize> = (0..n)
            .map(|i| {
                let b = &config.bots[i % config.bots.len()];
                distinct.iter().position(|d| d == b).expect("listed")
            })
            .collect();
        let lineup = |r: usize| -> Vec<usize> { (0..n).map(|s| base[(s + r) % n]).collect() };
        let mut seen: Vec<Vec<usize>> = Vec::new();
        let mut rotations = Vec::new();
        for r in 0..n {
            let l = lineup(r);
            if !seen.contains(&l) {
                seen.push(l);
                rotations.push(r);
            }
        }
        Ok(Plan {
            distinct,
            base,
            rotations,
        })
    }

    fn lineup_names(&self, r: usize) -> Vec<String> {
        let n = self.base.len();
        (0..n)
            .map(|s| self.distinct[self.base[(s + r) % n]].to_string())
            .collect()
    }
}

/// Plays the match on the current rayon pool; `progress` is told the
/// number of duplicate deals finished so far, now and then.
pub fn run_arena(
    config: &ArenaConfig,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<ArenaSummary, ArenaError> {
    let n = config.players;
    let rules = Rules {
        deals: Some(1),
        ..config.rules.clone()
    };
    rules
        .check_players(n)
        .map_err(|e| ArenaError::Config(e.to_string()))?;
    let plan = Plan::new(config)?;
    let maker = BotMaker::new(&rules, &plan.distinct, config.options);
    maker.probe(n).map_err(ArenaError::Config)?;
    let k = plan.distinct.len();
    let done = AtomicU64::new(0);
    let tally = (0..config.deals)
        .into_par_iter()
        .map_init(
            || -> Vec<Box<dyn Bot>> {
                plan.base
                    .iter()
                    .map(|&b| maker.make(&plan.distinct[b]))
                    .collect()
            },
            |bots, d| {
                let out = duplicate_deal(config, &rules, &plan, bots, d);
                let total = done.fetch_add(1, Ordering::Relaxed) + 1;
                if total.is_multiple_of(16) || total == config.deals {
                    progress(total);
                }
                out
            },
        )
        .try_fold(
            || Tally::new(k),
            |mut t, r| {
                let (rows, search) = r?;
                t.push(&rows, search);
                Ok::<_, ArenaError>(t)
            },
        )
        .try_reduce(|| Tally::new(k), |a, b| Ok(a.merge(b)))?;
    Ok(summarise(config, &plan, &maker, &tally))
}

/// Plays deck `d` with every line-up; per distinct bot, the mean chips per
/// seat (total and stages), and what its searches cost.
fn duplicate_deal(
    config: &ArenaConfig,
    rules: &Rules,
    plan: &Plan,
    bots: &mut [Box<dyn Bot>],
    d: u64,
) -> Result<(Vec<Row>, Vec<Option<SearchStats>>), ArenaError> {
    let n = config.players;
    let k = plan.distinct.len();
    let chance_seed = game_seed(config.seed, d);
    let mut sums = vec![[0f64; 7]; k];
    let mut seats = vec![0u32; k];
    let mut search: Vec<Option<SearchStats>> = vec![None; k];
    for (ri, &r) in plan.rotations.iter().enumerate() {
        let bot_seed = game_seed(
            config.seed ^ 0xB075_EED5,
            d * plan.rotations.len() as u64 + ri as u64,
        );
        // Seat s plays the bot of base position (s + r) % n.
        bots.rotate_left(r);
        let mut won = vec![[0i64; 6]; n];
        let mut stages = StageTracker::default();
        let played = play_game_with(rules, bots, chance_seed, bot_seed, |_, events| {
            for e in events {
                if let Some((t, stage)) = stages.see(e) {
                    let stage = stage as usize;
                    if let Account::Stack(s) = t.from {
                        won[usize::from(s)][stage] -= i64::from(t.amount);
                    }
                    if let Account::Stack(s) = t.to {
                        won[usize::from(s)][stage] += i64::from(t.amount);
                    }
                }
            }
        });
        for (s, bot) in bots.iter_mut().enumerate() {
            if let Some(st) = bot.take_stats() {
                let b = plan.base[(s + r) % n];
                match &mut search[b] {
                    Some(acc) => acc.merge(&st),
                    slot @ None => *slot = Some(st),
                }
            }
        }
        bots.rotate_right(r);
        played?;
        for (s, row) in won.iter().enumerate() {
            let b = plan.base[(s + r) % n];
            seats[b] += 1;
            sums[b][0] += row.iter().sum::<i64>() as f64;
            for (acc, &x) in sums[b][1..].iter_mut().zip(row) {
                *acc += x as f64;
            }
        }
    }
    for (row, &c) in sums.iter_mut().zip(&seats) {
        for x in row.iter_mut() {
            *x /= f64::from(c.max(1));
        }
    }
    Ok((sums, search))
}

fn summarise(config: &ArenaConfig, plan: &Plan, maker: &BotMaker, t: &Tally) -> ArenaSummary {
    let k = plan.distinct.len();
    let bots = (0..k)
        .map(|b| ArenaBotReport {
            bot: plan.distinct[b].clone(),
            seats: plan.base.iter().filter(|&&x| x == b).count(),
            chips: ChipReport {
                chips_per_deal: t.bots[b][0].estimate(),
                by_stage: Stage::ALL
                    .iter()
                    .zip(&t.bots[b][1..])
                    .map(|(s, m)| (*s, m.estimate()))
                    .collect(),
            },
            outside: maker.report(&plan.distinct[b]),
        })
        .collect();
    let mut differences = Vec::new();
    let mut p = 0;
    for i in 0..k {
        for j in i + 1..k {
            differences.push(Difference {
                bot: plan.distinct[i].clone(),
                other: plan.distinct[j].clone(),
                chips_per_deal: t.pairs[p].estimate(),
            });
            p += 1;
        }
    }
    let search = t
        .search
        .iter()
        .enumerate()
        .filter_map(|(b, s)| {
            let s = s.as_ref()?;
            Some(SearchReport {
                bot: plan.distinct[b].clone(),
                decisions: s.decisions,
                searched: s.searched,
                playouts: s.playouts,
                playouts_per_sec: s.playouts_per_sec(),
                mean_ms: if s.searched > 0 {
                    s.search_time.as_secs_f64() * 1000.0 / s.searched as f64
                } else {
                    0.0
                },
                p50_ms: s.quantile_ms(0.5),
                p99_ms: s.quantile_ms(0.99),
                max_ms: s.quantile_ms(1.0),
            })
        })
        .collect();
    ArenaSummary {
        players: config.players,
        deals: t.deals,
        games: t.deals * plan.rotations.len() as u64,
        seed: config.seed,
        lineups: plan
            .rotations
            .iter()
            .map(|&r| plan.lineup_names(r))
            .collect(),
        bots,
        differences,
        search,
    }
}
