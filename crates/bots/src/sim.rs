//! The self-play simulator: many games between bots on all cores, summarised
//! with confidence intervals, per stage and per layout space.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Serialize;
use tripoley_cards::Category;
use tripoley_engine::{Account, Event, Reason, Record, Rules, Space, Transfer};
use tripoley_game::run::{Counted, game_seed, play_rounds};
use tripoley_game::stats::{Estimate, Moments};

use crate::{BotMaker, BotOptions, BotSpec, OutsideReport, PlayError, play_game};

/// What to simulate.
#[derive(Clone, Debug)]
pub struct SimConfig {
    /// The table's rules.
    pub rules: Rules,
    /// The bot in each seat.
    pub bots: Vec<BotSpec>,
    /// The expert's budget, an outside bot's timeout.
    pub options: BotOptions,
    /// Deals to play, exactly: games are played one after another (game
    /// `i` seeded from the seed and `i`), and the last one is cut short
    /// after the last deal that counts.
    pub deals: u64,
    /// Seeds every game: the same seed gives the same results.
    pub seed: u64,
    /// Deals kept in order for the time series (chips over deals).
    pub series_deals: usize,
    /// Save the records of the first `limit` games into this folder.
    pub save_records: Option<(PathBuf, usize)>,
}

/// Where chips changed hands, for per-stage accounting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// T5.
    Ante,
    /// D4, H8: auction prices.
    Spare,
    /// H1-H6.
    PayCards,
    /// P4-P9.
    Poker,
    /// M5-M9.
    Michigan,
    /// E2.
    FinalPot,
}

impl Stage {
    /// The name used in reports: `pay_cards`.
    pub const fn key(self) -> &'static str {
        match self {
            Stage::Ante => "ante",
            Stage::Spare => "spare",
            Stage::PayCards => "pay_cards",
            Stage::Poker => "poker",
            Stage::Michigan => "michigan",
            Stage::FinalPot => "final_pot",
        }
    }

    /// Every stage.
    pub const ALL: [Stage; 6] = [
        Stage::Ante,
        Stage::Spare,
        Stage::PayCards,
        Stage::Poker,
        Stage::Michigan,
        Stage::FinalPot,
    ];

    /// The stage a transfer of this reason belongs to outside a final pot
    /// (within one, everything belongs to the final pot: `StageTracker`).
    fn of(reason: Reason) -> Stage {
        match reason {
            Reason::Ante => Stage::Ante,
            Reason::AuctionPrice | Reason::PaySuitBid => Stage::Spare,
            Reason::PayCard | Reason::KingQueen | Reason::Sequence => Stage::PayCards,
            Reason::Bet | Reason::PotWon | Reason::Unmatched | Reason::PokerPool => Stage::Poker,
            Reason::Blocked
            | Reason::WentOut
            | Reason::CardsLeft
            | Reason::Misled
            | Reason::Withheld => Stage::Michigan,
            Reason::FinalPotGathered | Reason::FinalPot => Stage::FinalPot,
        }
    }
}

/// Which stage each transfer of one game belongs to. A reason alone does
/// not say it: a bet placed in a final pot (E2) belongs to the final pot,
/// not to poker, so the stage follows the game's events. From the layout's
/// gathering (or the first final round) to the end, every transfer is the
/// final pot's, so each stage summed over the seats is what it moved
/// between the layout and the stacks.
#[derive(Clone, Copy, Debug, Default)]
pub struct StageTracker {
    final_pot: bool,
}

impl StageTracker {
    /// The transfer `e` is, with its stage; `None` for other events.
    pub fn see<'e>(&mut self, e: &'e Event) -> Option<(&'e Transfer, Stage)> {
        match e {
            Event::FinalPotRound { .. } => {
                self.final_pot = true;
                None
            }
            Event::Transfer(t) => {
                self.final_pot |= t.reason == Reason::FinalPotGathered;
                let stage = if self.final_pot {
                    Stage::FinalPot
                } else {
                    Stage::of(t.reason)
                };
                Some((t, stage))
            }
            _ => None,
        }
    }
}

/// Chips won per deal, in total and per stage.
#[derive(Clone, Debug, Default)]
struct ChipStats {
    total: Moments,
    by_stage: [Moments; 6],
}

impl ChipStats {
    fn push(&mut self, row: &[i64; 6]) {
        self.total.push(row.iter().sum::<i64>() as f64);
        for (m, &x) in self.by_stage.iter_mut().zip(row) {
            m.push(x as f64);
        }
    }

    fn merge(&mut self, o: &ChipStats) {
        self.total.merge(&o.total);
        for (a, b) in self.by_stage.iter_mut().zip(&o.by_stage) {
            a.merge(b);
        }
    }

    fn report(&self) -> ChipReport {
        ChipReport {
            chips_per_deal: self.total.estimate(),
            by_stage: Stage::ALL
                .iter()
                .zip(&self.by_stage)
                .map(|(s, m)| (*s, m.estimate()))
                .collect(),
        }
    }
}

/// Per-space figures being gathered.
#[derive(Clone, Debug, Default)]
struct SpaceStats {
    deals: u64,
    claimed: u64,
    payout: u64,
    size: u64,
    payouts: BTreeMap<u32, u64>,
}

/// One deal of the time series.
#[derive(Clone, Debug, Serialize)]
pub struct DealRow {
    /// The deal's index in the run (0 first).
    pub deal: u64,
    /// Chips each seat won in this deal.
    pub won: Vec<i64>,
    /// Chips on each space as the deal began (after the antes), in T4 order.
    pub spaces: Vec<u32>,
}

/// Everything gathered, mergeable.
#[derive(Clone, Debug, Default)]
struct Tally {
    deals: u64,
    games: u64,
    seats: Vec<ChipStats>,
    spaces: [SpaceStats; 9],
    showdowns: u64,
    fold_wins: u64,
    winning_categories: [u64; 9],
    blocked: u64,
    first_leader_out: u64,
    series: Vec<(u64, Vec<DealRow>)>,
}

impl Tally {
    fn merge(mut self, o: Tally) -> Tally {
        self.deals += o.deals;
        self.games += o.games;
        if self.seats.is_empty() {
            self.seats = o.seats;
        } else {
            for (a, b) in self.seats.iter_mut().zip(&o.seats) {
                a.merge(b);
            }
        }
        for (a, b) in self.spaces.iter_mut().zip(o.spaces) {
            a.deals += b.deals;
            a.claimed += b.claimed;
            a.payout += b.payout;
            a.size += b.size;
            for (k, v) in b.payouts {
                *a.payouts.entry(k).or_default() += v;
            }
        }
        self.showdowns += o.showdowns;
        self.fold_wins += o.fold_wins;
        for (a, b) in self.winning_categories.iter_mut().zip(o.winning_categories) {
            *a += b;
        }
        self.blocked += o.blocked;
        self.first_leader_out += o.first_leader_out;
        self.series.extend(o.series);
        self
    }
}

/// What one deal did, read from its events.
struct DealWatch {
    won: Vec<[i64; 6]>,
    layout: [u32; 9],
    start_sizes: [u32; 9],
    paid_out: [u32; 9],
    showed: Vec<(u8, Category)>,
    pot_winner: Option<u8>,
    blocked: bool,
    first_leader: Option<u8>,
    went_out: Option<u8>,
    /// The deal's `DealEnded` was seen; what follows until the next deal's
    /// antes or the end of the game (players going out, then the final pot
    /// a lone survivor takes) still counts for it.
    ended: bool,
    stages: StageTracker,
}

impl DealWatch {
    fn new(players: usize) -> DealWatch {
        DealWatch {
            won: vec![[0; 6]; players],
            layout: [0; 9],
            start_sizes: [0; 9],
            paid_out: [0; 9],
            showed: Vec::new(),
            pot_winner: None,
            blocked: false,
            first_leader: None,
            went_out: None,
            ended: false,
            stages: StageTracker::default(),
        }
    }

    /// Whether `e` begins what comes after an ended deal.
    fn closes(&self, e: &Event) -> bool {
        self.ended
            && match e {
                Event::DealStarted { .. } | Event::GameOver { .. } => true,
                Event::Transfer(t) => t.reason == Reason::Ante,
                _ => false,
            }
    }

    fn reset(&mut self) {
        for w in &mut self.won {
            *w = [0; 6];
        }
        self.paid_out = [0; 9];
        self.showed.clear();
        self.pot_winner = None;
        self.blocked = false;
        self.first_leader = None;
        self.went_out = None;
        self.ended = false;
    }

    fn see(&mut self, e: &Event) {
        if let Some((t, stage)) = self.stages.see(e) {
            self.see_transfer(t, stage as usize);
        }
        match e {
            Event::DealStarted { .. } => self.start_sizes = self.layout,
            Event::Showed { seat, rank, .. } => self.showed.push((*seat, rank.category())),
            Event::PlayBlocked => self.blocked = true,
            Event::Led { seat, .. } if self.first_leader.is_none() => {
                self.first_leader = Some(*seat);
            }
            Event::WentOut { seat } => self.went_out = Some(*seat),
            Event::DealEnded { .. } => self.ended = true,
            _ => {}
        }
    }

    fn see_transfer(&mut self, t: &Transfer, stage: usize) {
        for (acc, sign) in [(t.from, -1i64), (t.to, 1)] {
            match acc {
                Account::Stack(s) => {
                    self.won[usize::from(s)][stage] += sign * i64::from(t.amount);
                }
                Account::Space(sp) => {
                    let v = &mut self.layout[sp as usize];
                    *v = if sign < 0 {
                        *v - t.amount
                    } else {
                        *v + t.amount
                    };
                }
            }
        }
        if let (Account::Space(sp), Account::Stack(s)) = (t.from, t.to) {
            if stage != Stage::FinalPot as usize {
                self.paid_out[sp as usize] += t.amount;
            }
            if matches!(t.reason, Reason::PotWon | Reason::PokerPool) && self.pot_winner.is_none() {
                self.pot_winner = Some(s);
            }
        }
    }

    /// Adds the finished deal to `t`.
    fn close(
        &mut self,
        t: &mut Tally,
        spaces: &[Space],
        series: Option<&mut Vec<DealRow>>,
        index: u64,
    ) {
        t.deals += 1;
        for (stats, row) in t.seats.iter_mut().zip(&self.won) {
            stats.push(row);
        }
        for &sp in spaces {
            let s = &mut t.spaces[sp as usize];
            s.deals += 1;
            s.size += u64::from(self.start_sizes[sp as usize]);
            let paid = self.paid_out[sp as usize];
            if paid > 0 {
                s.claimed += 1;
                s.payout += u64::from(paid);
                *s.payouts.entry(paid).or_default() += 1;
            }
        }
        if let Some(w) = self.pot_winner {
            match self.showed.iter().find(|(s, _)| *s == w) {
                Some((_, cat)) => {
                    t.showdowns += 1;
                    t.winning_categories[*cat as usize] += 1;
                }
                None => t.fold_wins += 1,
            }
        }
        t.blocked += u64::from(self.blocked);
        t.first_leader_out +=
            u64::from(self.first_leader.is_some() && self.first_leader == self.went_out);
        if let Some(series) = series {
            series.push(DealRow {
                deal: index,
                won: self.won.iter().map(|r| r.iter().sum()).collect(),
                spaces: spaces
                    .iter()
                    .map(|&sp| self.start_sizes[sp as usize])
                    .collect(),
            });
        }
        self.reset();
    }
}

/// A seat's or a bot's chips.
#[derive(Clone, Debug, Serialize)]
pub struct ChipReport {
    /// Chips won per deal (negative: lost).
    pub chips_per_deal: Estimate,
    /// The same, per stage.
    pub by_stage: BTreeMap<Stage, Estimate>,
}

/// One seat's results.
#[derive(Clone, Debug, Serialize)]
pub struct SeatReport {
    /// The seat.
    pub seat: u8,
    /// Its bot.
    pub bot: BotSpec,
    /// Its chips.
    #[serde(flatten)]
    pub chips: ChipReport,
}

/// One bot kind's results, pooled over its seats.
#[derive(Clone, Debug, Serialize)]
pub struct BotReport {
    /// The bot.
    pub bot: BotSpec,
    /// Seats it played.
    pub seats: usize,
    /// Its chips per seat.
    #[serde(flatten)]
    pub chips: ChipReport,
    /// For an outside bot: its decisions, how many of them the fallback
    /// made after it failed, and why it failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outside: Option<OutsideReport>,
}

/// One layout space.
#[derive(Clone, Debug, Serialize)]
pub struct SpaceReport {
    /// The space, named as in RULES.md T4.
    pub space: &'static str,
    /// Share of deals in which it paid out.
    pub claim_rate: f64,
    /// Average payout when it paid.
    pub average_payout: f64,
    /// Average chips on it as a deal began.
    pub average_size: f64,
    /// How often each payout happened.
    #[serde(skip)]
    pub payouts: BTreeMap<u32, u64>,
}

/// Stage 2 figures.
#[derive(Clone, Debug, Serialize)]
pub struct PokerReport {
    /// Pots won at a showdown.
    pub showdowns: u64,
    /// Pots won because everyone else folded.
    pub fold_wins: u64,
    /// `fold_wins` over all pots won.
    pub fold_win_rate: f64,
    /// The category of the winning hand, share of showdowns.
    pub winning_categories: BTreeMap<&'static str, f64>,
}

/// Stage 3 figures.
#[derive(Clone, Debug, Serialize)]
pub struct MichiganReport {
    /// Share of deals whose Michigan ended blocked (M5).
    pub blocked_rate: f64,
    /// Share of deals in which the first leader went out (M7).
    pub first_leader_goes_out_rate: f64,
}

/// The result of a simulation.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// Seats at the table.
    pub players: usize,
    /// Deals played.
    pub deals: u64,
    /// Games played.
    pub games: u64,
    /// The seed.
    pub seed: u64,
    /// Per seat.
    pub seats: Vec<SeatReport>,
    /// Per bot kind.
    pub bots: Vec<BotReport>,
    /// Per layout space.
    pub spaces: Vec<SpaceReport>,
    /// Stage 2.
    pub poker: PokerReport,
    /// Stage 3.
    pub michigan: MichiganReport,
    /// The first deals, in order (up to `series_deals`).
    #[serde(skip)]
    pub series: Vec<DealRow>,
}

/// Why a simulation failed.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// A game could not be played.
    #[error(transparent)]
    Play(#[from] PlayError),
    /// The seats and bots do not match the rules.
    #[error("{0}")]
    Config(String),
    /// A record could not be saved.
    #[error("saving records: {0}")]
    Io(#[from] std::io::Error),
}

/// Runs the simulation on the current rayon pool ([`play_rounds`]: the
/// figures depend on the seed and the deals asked, never on the threads);
/// `progress` is told the number of deals finished so far, now and then.
pub fn simulate(config: &SimConfig, progress: &(dyn Fn(u64) + Sync)) -> Result<Summary, SimError> {
    let players = config.bots.len();
    config
        .rules
        .check_players(players)
        .map_err(|e| SimError::Config(e.to_string()))?;
    if let Some((dir, _)) = &config.save_records {
        std::fs::create_dir_all(dir)?;
    }
    let maker = BotMaker::new(&config.rules, &config.bots, config.options);
    maker.probe(players).map_err(SimError::Config)?;
    let spaces: Vec<Space> = Space::ALL
        .into_iter()
        .filter(|&s| config.rules.has_pot() || s != Space::Pot)
        .collect();
    let run = Run {
        config,
        maker: &maker,
        spaces: &spaces,
    };
    // The most deals a game can have: a first batch of games that is never
    // cut short.
    let per_game = config.rules.deals.unwrap_or(players as u32).max(1);
    let mut tally = Tally::default();
    let counted = play_rounds(
        config.deals,
        u64::from(per_game),
        || (),
        |(), g, limit| run.play_one(g, limit),
        |g, game| {
            if let (Some((dir, _)), Some(r)) = (&config.save_records, game.record) {
                std::fs::write(dir.join(format!("game-{g:06}.json")), r.to_json())?;
            }
            tally = std::mem::take(&mut tally).merge(game.tally);
            Ok::<_, SimError>(())
        },
        progress,
    )?;
    if counted < config.deals {
        return Err(SimError::Config(
            "no game gets through a deal with these rules: nobody can pay the first ante".into(),
        ));
    }
    Ok(summarise(config, &maker, tally, &spaces))
}

/// What every game of a run reads.
struct Run<'a> {
    config: &'a SimConfig,
    maker: &'a BotMaker,
    spaces: &'a [Space],
}

/// One game as the run counts it: its deals, and its record when saved.
struct PlayedGame {
    tally: Tally,
    record: Option<Record>,
}

impl Counted for PlayedGame {
    fn rounds(&self) -> u64 {
        self.tally.deals
    }
}

impl Run<'_> {
    /// Plays game `g`, counting at most its first `limit` deals, keeping
    /// them for the time series when it is one of the first games (every
    /// game has a deal at least, so these have the first deals of the run).
    fn play_one(&self, g: u64, limit: u64) -> Result<PlayedGame, SimError> {
        let config = self.config;
        let players = config.bots.len();
        let keep_series = g < config.series_deals as u64;
        let mut bots: Vec<_> = config.bots.iter().map(|k| self.maker.make(k)).collect();
        let mut tally = Tally {
            games: 1,
            seats: vec![ChipStats::default(); players],
            ..Tally::default()
        };
        let mut watch = DealWatch::new(players);
        let mut series = Vec::new();
        let save = config
            .save_records
            .as_ref()
            .filter(|(_, limit)| g < *limit as u64);
        let mut record = save.map(|_| {
            Record::new(
                config.rules.clone(),
                config
                    .bots
                    .iter()
                    .enumerate()
                    .map(|(i, k)| format!("{k} {i}"))
                    .collect(),
            )
        });
        let mut deal_index = 0;
        // Once the run has its deals, the rest of the game counts for
        // nothing, and is not in its record either: the record ends with
        // the step that ended its last counted deal (and paid the next
        // one's antes, which that step does too), so its ended deals are
        // what was counted.
        let mut cut = false;
        play_game(
            &config.rules,
            &mut bots,
            game_seed(config.seed, g),
            |step, events| {
                if cut {
                    return;
                }
                for e in events {
                    if tally.deals == limit {
                        break;
                    }
                    if watch.closes(e) {
                        watch.close(
                            &mut tally,
                            self.spaces,
                            keep_series.then_some(&mut series),
                            deal_index,
                        );
                        deal_index += 1;
                        cut = tally.deals == limit;
                    }
                    watch.see(e);
                }
                if let Some(r) = record.as_mut() {
                    r.steps.push(step.clone());
                }
            },
        )?;
        if keep_series {
            tally.series.push((g, series));
        }
        Ok(PlayedGame { tally, record })
    }
}

fn summarise(config: &SimConfig, maker: &BotMaker, mut t: Tally, spaces: &[Space]) -> Summary {
    let seats: Vec<SeatReport> = t
        .seats
        .iter()
        .enumerate()
        .map(|(i, s)| SeatReport {
            seat: i as u8,
            bot: config.bots[i].clone(),
            chips: s.report(),
        })
        .collect();
    let mut kinds: Vec<BotSpec> = config.bots.clone();
    kinds.sort_by_key(ToString::to_string);
    kinds.dedup();
    let bots = kinds
        .into_iter()
        .map(|kind| {
            let mut pooled = ChipStats::default();
            let mut n = 0;
            for (i, s) in t.seats.iter().enumerate() {
                if config.bots[i] == kind {
                    pooled.merge(s);
                    n += 1;
                }
            }
            BotReport {
                outside: maker.report(&kind),
                bot: kind,
                seats: n,
                chips: pooled.report(),
            }
        })
        .collect();
    let ratio = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
    let space_reports = spaces
        .iter()
        .map(|&sp| {
            let s = &t.spaces[sp as usize];
            SpaceReport {
                space: sp.key(),
                claim_rate: ratio(s.claimed, s.deals),
                average_payout: ratio(s.payout, s.claimed),
                average_size: ratio(s.size, s.deals),
                payouts: s.payouts.clone(),
            }
        })
        .collect();
    let pots = t.showdowns + t.fold_wins;
    t.series.sort_by_key(|(g, _)| *g);
    let mut series: Vec<DealRow> = t.series.into_iter().flat_map(|(_, rows)| rows).collect();
    series.truncate(config.series_deals);
    for (i, row) in series.iter_mut().enumerate() {
        row.deal = i as u64;
    }
    Summary {
        players: config.bots.len(),
        deals: t.deals,
        games: t.games,
        seed: config.seed,
        seats,
        bots,
        spaces: space_reports,
        poker: PokerReport {
            showdowns: t.showdowns,
            fold_wins: t.fold_wins,
            fold_win_rate: ratio(t.fold_wins, pots),
            winning_categories: Category::ALL
                .iter()
                .map(|c| {
                    (
                        c.key(),
                        ratio(t.winning_categories[*c as usize], t.showdowns),
                    )
                })
                .collect(),
        },
        michigan: MichiganReport {
            blocked_rate: ratio(t.blocked, t.deals),
            first_leader_goes_out_rate: ratio(t.first_leader_out, t.deals),
        },
        series,
    }
}
