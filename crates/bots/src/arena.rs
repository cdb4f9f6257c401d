//! Tripoley's duplicate matches between bots, on the arena of every game
//! ([`tripoley_game::arena`]): each deck is replayed with the bots rotated
//! through the seats, so the luck of the cards cancels and what is left is
//! skill. Tripoley's own are the figures per stage, what the searches cost
//! and how outside bots did.
//!
//! Every duplicate deal is played as one-deal games (`rules.deals =
//! Some(1)`, so a game's final pot, E2, counts for its deal), one per
//! distinct rotation of the line-up.

use serde::Serialize;
use tripoley_engine::{Account, Game, Rules};
use tripoley_game::Dice;
use tripoley_game::arena::{Duplicate, Lineups, Merge, Outcome, play_match};
use tripoley_game::stats::Estimate;

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

/// A bot's searches over a match add up.
impl Merge for SearchStats {
    fn merge(&mut self, later: SearchStats) {
        SearchStats::merge(self, &later);
    }
}

/// Tripoley in the arena: one-deal games, each seat's chips in total and
/// per stage, and what each bot's searches cost.
struct OneDeal<'a> {
    rules: Rules,
    maker: &'a BotMaker,
    distinct: &'a [BotSpec],
}

impl Duplicate for OneDeal<'_> {
    type Game = Game;
    type Bot = dyn Bot;
    type Report = Option<SearchStats>;
    type Error = ArenaError;

    /// The total, then the six stages.
    fn figures(&self) -> usize {
        1 + Stage::ALL.len()
    }

    fn bot(&self, b: usize) -> Box<dyn Bot> {
        self.maker.make(&self.distinct[b])
    }

    fn play(&self, bots: &mut [Box<dyn Bot>], dice: Dice<'_>) -> Result<Vec<Vec<f64>>, ArenaError> {
        let mut won = vec![[0i64; 6]; bots.len()];
        let mut stages = StageTracker::default();
        play_game_with(&self.rules, bots, dice, |_, events| {
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
        })?;
        Ok(won
            .iter()
            .map(|row| {
                let total = row.iter().sum::<i64>() as f64;
                std::iter::once(total)
                    .chain(row.iter().map(|&x| x as f64))
                    .collect()
            })
            .collect())
    }

    fn report(&self, bot: &mut Self::Bot) -> Option<SearchStats> {
        bot.take_stats()
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
    let lineups = Lineups::new(n, &config.bots).map_err(ArenaError::Config)?;
    let maker = BotMaker::new(&rules, lineups.distinct(), config.options);
    maker.probe(n).map_err(ArenaError::Config)?;
    let game = OneDeal {
        rules,
        maker: &maker,
        distinct: lineups.distinct(),
    };
    let outcome = play_match(&game, &lineups, config.deals, config.seed, progress)?;
    Ok(summarise(config, &lineups, &maker, &outcome))
}

fn summarise(
    config: &ArenaConfig,
    lineups: &Lineups<BotSpec>,
    maker: &BotMaker,
    outcome: &Outcome<Option<SearchStats>>,
) -> ArenaSummary {
    let distinct = lineups.distinct();
    let bots = outcome
        .bots
        .iter()
        .enumerate()
        .map(|(b, figures)| ArenaBotReport {
            bot: distinct[b].clone(),
            seats: lineups.seats(b),
            chips: ChipReport {
                chips_per_deal: figures[0],
                by_stage: Stage::ALL
                    .iter()
                    .copied()
                    .zip(figures[1..].iter().copied())
                    .collect(),
            },
            outside: maker.report(&distinct[b]),
        })
        .collect();
    let differences = outcome
        .differences
        .iter()
        .map(|&(i, j, chips_per_deal)| Difference {
            bot: distinct[i].clone(),
            other: distinct[j].clone(),
            chips_per_deal,
        })
        .collect();
    let search = outcome
        .reports
        .iter()
        .enumerate()
        .filter_map(|(b, s)| {
            let s = s.as_ref()?;
            Some(SearchReport {
                bot: distinct[b].clone(),
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
        deals: outcome.deals,
        games: outcome.deals * lineups.games_per_deal(),
        seed: config.seed,
        lineups: lineups.names(),
        bots,
        differences,
        search,
    }
}
