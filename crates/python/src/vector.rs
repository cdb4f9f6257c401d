//! [`Tables`]: many Tripoley tables stepped at once, for learning at speed
//! (in the manner of EnvPool and Gymnasium's vector environments). Either
//! one learning seat per table, our bots playing every other seat inside
//! Rust, or the learner at every seat (self-play: each step is the decision
//! of the seat to act, seen from that seat, as RLCard's and OpenSpiel's
//! loops play every seat); a finished game is dealt again at once
//! (auto-reset), each table from its own stream of seeds. Every output is
//! written into caller-given slices (NumPy arrays in Python), so a step
//! makes no object per table, and lanes split across threads; the rows are
//! written as a [`RowFormat`] says: observations in any [`Number`] type and
//! a byte per action of the mask ([`Dense`]), or both packed into bits
//! ([`Packed`]).
//!
//! A lane keeps no record as it plays (see [`Table::without_record`]): it
//! keeps its game's seed, its bots' generator as the game began and the
//! learning seat's integers, and plays the game again when a record is
//! asked for ([`Tables::record`]).

use std::marker::PhantomData;
use std::num::NonZero;

use rand_core::Rng;
use tripoley_bots::{Bot, BotKind, BotOptions};
use tripoley_cards::{GameRng, seeded_rng};
use tripoley_engine::{InfoSet, MAX_SEATS, Record, Rules, Seat};

use crate::crew::Crew;
use crate::observe::{Number, observation_size, packed_observation_size};
use crate::space::Legal;
use crate::table::{Table, Turn, bot_steps};

/// Games dealt at most by one reset looking for one in which the learning
/// seat acts (under `cosmo` every play can be forced).
const MAX_DEALS_AGAIN: usize = 1000;

/// Tables in a piece of a threaded step (see [`Crew::share_out`]): a few
/// microseconds of work, so a thread that finishes its run first and takes
/// the last pieces of another's evens the two out, while a piece's lock
/// and the cache misses of a table played by another core than usual are
/// little beside it.
const LANES_A_PIECE: usize = 16;

/// Rows in a piece of a threaded draw of actions ([`Tables::sample_actions`]):
/// a row's draw is a tenth of a table's step, so more of them a piece.
const ROWS_A_PIECE: usize = 64;

/// How a step writes each table's row: the seat's observation and the
/// mask of its legal actions.
pub trait RowFormat {
    /// An observation's element.
    type Obs: Copy + Send + Sync;
    /// A mask's element.
    type Mask: Mask;
    /// Elements of one observation at a table of `players`.
    fn observation_size(players: usize) -> usize;
    /// Writes `seat`'s observation at `table` (every element, whatever the
    /// row held).
    fn observe(table: &Table, seat: Seat, row: &mut [Self::Obs]);
}

/// A mask's element type: how a row of them says which actions are legal.
pub trait Mask: Copy + Send + Sync {
    /// Elements of a mask over `actions` integers.
    fn mask_size(actions: usize) -> usize;
    /// Writes the `legal` integers into `row` (every element).
    fn write(legal: &Legal, row: &mut [Self]);
    /// A uniformly random legal entry of `row`, `r` the randomness (`None`
    /// when there is none): the `k`-th legal action in the order of the
    /// integers, `k` being `r` scaled to their count, so the two kinds of
    /// mask draw the same action from the same `r`.
    fn random_legal(row: &[Self], r: u32) -> Option<usize>;
}

/// Observations in `T` ([`crate::observe::observe`]), masks of a byte per
/// action (`i8`: 1 legal, 0 not).
pub struct Dense<T>(PhantomData<T>);

impl<T: Number> RowFormat for Dense<T> {
    type Obs = T;
    type Mask = i8;
    fn observation_size(players: usize) -> usize {
        observation_size(players)
    }
    fn observe(table: &Table, seat: Seat, row: &mut [T]) {
        table.observe_into(seat, row);
    }
}

/// Observations packed ([`crate::observe::observe_packed`]: card planes as
/// bits, then the counts as bytes) and masks of a bit per action (`u8`:
/// action `a` at bit `a % 8` of byte `a / 8`); a fifth of [`Dense`]'s bytes
/// in `u8`.
pub struct Packed;

impl RowFormat for Packed {
    type Obs = u8;
    type Mask = u8;
    fn observation_size(players: usize) -> usize {
        packed_observation_size(players)
    }
    fn observe(table: &Table, seat: Seat, row: &mut [u8]) {
        table.observe_packed_into(seat, row);
    }
}

impl Mask for i8 {
    fn mask_size(actions: usize) -> usize {
        actions
    }
    fn write(legal: &Legal, row: &mut [i8]) {
        row.fill(0);
        legal.each(|a| row[a] = 1);
    }
    fn random_legal(row: &[i8], r: u32) -> Option<usize> {
        random_legal(row, r)
    }
}

impl Mask for u8 {
    fn mask_size(actions: usize) -> usize {
        actions.div_ceil(8)
    }
    fn write(legal: &Legal, row: &mut [u8]) {
        // Bits at once, not integer by integer (a bid's run is hundreds):
        // the integers below the amounts in two words, the run of amounts
        // as whole bytes between its two ends'.
        row.fill(0);
        // The integers below the amounts (66) fit in nine bytes, and every
        // space has more (bets and bids follow them).
        let low = legal.low().to_le_bytes();
        row[..9].copy_from_slice(&low[..9]);
        let run = legal.amounts();
        if run.is_empty() {
            return;
        }
        let (first, last) = (run.start / 8, (run.end - 1) / 8);
        let from = 0xffu8 << (run.start % 8);
        let to = 0xffu8 >> (7 - (run.end - 1) % 8);
        if first == last {
            row[first] |= from & to;
        } else {
            row[first] |= from;
            row[first + 1..last].fill(0xff);
            row[last] |= to;
        }
    }

    fn random_legal(row: &[u8], r: u32) -> Option<usize> {
        random_set_bit(row, r)
    }
}

/// One table with its bots.
struct Lane {
    table: Table,
    bots: Vec<Box<dyn Bot>>,
    /// Seeds of this lane's games.
    seeds: GameRng,
    /// The bots' randomness (apart from the deals: asking never changes them).
    bot_rng: GameRng,
    /// This game's seed.
    game_seed: u64,
    /// `bot_rng` as this game began.
    bot_rng_at_deal: GameRng,
    /// The learners' integers in this game (legal ones only).
    moves: Vec<u32>,
    /// Every seat's stack at the previous step (rewards are changes).
    stacks: [u32; MAX_SEATS],
    /// The learners' steps in this game (for truncation).
    steps: u32,
    /// The game ended (or was cut) and the next is dealt at the next step
    /// ([`Autoreset::NextStep`]).
    finished: bool,
}

/// What one step of one lane gives back.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Outcome {
    /// Each seat's chips won (negative: lost) since the table's previous
    /// step, in seat order (the seat that played an illegal action gets
    /// the illegal reward, the others 0).
    pub rewards: [f32; MAX_SEATS],
    /// The game ended (and a new one was dealt).
    pub terminated: bool,
    /// The game was cut at `max_steps` (and a new one was dealt).
    pub truncated: bool,
    /// The action was not legal: nothing moved.
    pub illegal: bool,
}

/// Where a step writes what happened at each table: the caller's arrays
/// (NumPy's in Python), a table's entries at its index. Written by the
/// thread that steps the table, so no serial copy follows a threaded step.
#[derive(Debug, Default)]
pub struct Outcomes<'a> {
    /// A row of rewards per table ([`Tables::rewards_per_table`]): the
    /// learning seat's, or in self-play every seat's in seat order.
    pub rewards: &'a mut [f32],
    /// See [`Outcome::terminated`].
    pub terminated: &'a mut [bool],
    /// See [`Outcome::truncated`].
    pub truncated: &'a mut [bool],
    /// See [`Outcome::illegal`].
    pub illegal: &'a mut [bool],
    /// The seat whose view each table's new row holds ([`Tables::to_play`]),
    /// or empty if the caller does not ask.
    pub to_play: &'a mut [u8],
}

/// Arrays of a step's outcomes owned here (a pool's batch keeps its own):
/// an entry, or a row of rewards, per table.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OutcomeRows {
    /// See [`Outcomes::rewards`].
    pub rewards: Vec<f32>,
    /// See [`Outcomes::terminated`].
    pub terminated: Vec<bool>,
    /// See [`Outcomes::truncated`].
    pub truncated: Vec<bool>,
    /// See [`Outcomes::illegal`].
    pub illegal: Vec<bool>,
    /// See [`Outcomes::to_play`].
    pub to_play: Vec<u8>,
}

impl OutcomeRows {
    /// The arrays, for a step to write.
    pub fn outcomes(&mut self) -> Outcomes<'_> {
        Outcomes {
            rewards: &mut self.rewards,
            terminated: &mut self.terminated,
            truncated: &mut self.truncated,
            illegal: &mut self.illegal,
            to_play: &mut self.to_play,
        }
    }
}

impl<'a> Outcomes<'a> {
    /// The first `tables` tables' entries, and the rest.
    fn split_at(self, tables: usize, rewards_per_table: usize) -> (Outcomes<'a>, Outcomes<'a>) {
        let seats = self.to_play.len().min(tables);
        let (rewards, other_rewards) = self.rewards.split_at_mut(tables * rewards_per_table);
        let (terminated, other_terminated) = self.terminated.split_at_mut(tables);
        let (truncated, other_truncated) = self.truncated.split_at_mut(tables);
        let (illegal, other_illegal) = self.illegal.split_at_mut(tables);
        let (to_play, other_to_play) = self.to_play.split_at_mut(seats);
        (
            Outcomes {
                rewards,
                terminated,
                truncated,
                illegal,
                to_play,
            },
            Outcomes {
                rewards: other_rewards,
                terminated: other_terminated,
                truncated: other_truncated,
                illegal: other_illegal,
                to_play: other_to_play,
            },
        )
    }

    /// Table `i`'s `outcome`: `per` rewards from seat `first` on (see
    /// [`Config::rewards`]).
    fn write(&mut self, i: usize, outcome: &Outcome, (per, first): (usize, usize)) {
        self.rewards[i * per..(i + 1) * per].copy_from_slice(&outcome.rewards[first..first + per]);
        self.terminated[i] = outcome.terminated;
        self.truncated[i] = outcome.truncated;
        self.illegal[i] = outcome.illegal;
    }
}

/// Who the learner plays at every table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seating {
    /// One seat; bots play the others inside Rust, and a step returns at
    /// the seat's next turn.
    One {
        /// The learner's seat.
        seat: Seat,
        /// One bot kind per other seat, in seat order.
        bots: Vec<BotKind>,
    },
    /// Every seat (self-play): a step is one decision, whoever's turn it
    /// is, and the row is that seat's view.
    Every,
}

/// How the tables are made.
#[derive(Clone, Debug)]
pub struct Config {
    /// The rules of every table.
    pub rules: Rules,
    /// Seats at each table.
    pub players: usize,
    /// Who the learner plays.
    pub seating: Seating,
    /// The bots' options (the expert's budget).
    pub bot_options: BotOptions,
    /// The learners' steps after which a game is cut.
    pub max_steps: u32,
    /// The reward of an illegal action (nothing else happens).
    pub illegal_reward: f32,
    /// When a finished game's table deals the next.
    pub autoreset: Autoreset,
}

/// When a table whose game ended (or was cut) deals the next, in
/// Gymnasium's terms (`gymnasium.vector.AutoresetMode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Autoreset {
    /// In the step that ended it: the row is the next game's, and the
    /// finished game's last row is never written.
    SameStep,
    /// At the table's next step, whose action is ignored: the step that
    /// ended the game shows its last row (Gymnasium's default, which its
    /// wrappers that keep statistics of observations require).
    NextStep,
}

impl Config {
    /// The rewards a step gives per table, and the seat of the first: the
    /// learning seat's only, or in self-play every seat's.
    fn rewards(&self) -> (usize, usize) {
        match &self.seating {
            Seating::One { seat, .. } => (1, usize::from(*seat)),
            Seating::Every => (self.players, 0),
        }
    }

    /// Which of a lane's bots plays `seat` (`None`: a learner's seat).
    fn bot_at(&self, seat: Seat) -> Option<usize> {
        match &self.seating {
            Seating::One { seat: me, .. } if seat != *me => {
                Some(usize::from(seat) - usize::from(seat > *me))
            }
            _ => None,
        }
    }
}

/// Many tables, each waiting for a learner's turn.
pub struct Tables {
    config: Config,
    lanes: Vec<Lane>,
    observation_size: usize,
    num_actions: usize,
    /// The threads of a threaded step (made at the first).
    crew: Option<Crew>,
    /// The machine's cores: the most threads a step uses (the crew's
    /// threads wait for one another without sleeping, so more threads than
    /// cores would only take turns).
    cores: usize,
}

impl Tables {
    /// `count` tables, table `i` dealing from seeds drawn from `seed` and `i`.
    pub fn new(config: Config, count: usize, seed: u64) -> Result<Tables, String> {
        if let Seating::One { seat, bots } = &config.seating {
            if usize::from(*seat) >= config.players {
                return Err(format!(
                    "there is no seat {seat} at a table of {}",
                    config.players
                ));
            }
            if bots.len() + 1 != config.players {
                return Err(format!(
                    "{} bots needed, {} given",
                    config.players.saturating_sub(1),
                    bots.len()
                ));
            }
        }
        if config.max_steps == 0 {
            return Err("max_steps must be at least 1".into());
        }
        let probe = Table::new(config.rules.clone(), config.players, Some(0))?;
        let mut base = seeded_rng(seed);
        let mut lanes = Vec::with_capacity(count);
        for _ in 0..count {
            let mut seeds = seeded_rng(base.next_u64());
            let bot_rng = seeded_rng(seeds.next_u64());
            lanes.push(Lane::new(
                &config,
                probe.clone().without_record(),
                seeds,
                bot_rng,
            ));
        }
        let mut tables = Tables {
            observation_size: observation_size(config.players),
            num_actions: probe.space().size(),
            config,
            lanes,
            crew: None,
            cores: std::thread::available_parallelism().map_or(1, NonZero::get),
        };
        for lane in &mut tables.lanes {
            lane.reset(&tables.config)?;
        }
        Ok(tables)
    }

    /// The tables in runs of `size` (the last shorter if `size` does not
    /// divide them), each run its own [`Tables`] playing on as it would
    /// have here: table `i` is table `i % size` of run `i / size`.
    pub fn split(mut self, size: usize) -> Vec<Tables> {
        let mut runs = Vec::with_capacity(self.lanes.len().div_ceil(size.max(1)));
        while !self.lanes.is_empty() {
            let rest = self.lanes.split_off(size.min(self.lanes.len()));
            let run = std::mem::replace(&mut self.lanes, rest);
            runs.push(self.with_lanes(run));
        }
        runs
    }

    /// The tables, moved out: this keeps none (a pool takes the tables a
    /// `VecTables` made).
    #[must_use]
    pub fn take(&mut self) -> Tables {
        let lanes = std::mem::take(&mut self.lanes);
        self.with_lanes(lanes)
    }

    /// Tables of these rules and sizes playing `lanes`.
    fn with_lanes(&self, lanes: Vec<Lane>) -> Tables {
        Tables {
            config: self.config.clone(),
            lanes,
            observation_size: self.observation_size,
            num_actions: self.num_actions,
            crew: None,
            cores: self.cores,
        }
    }

    /// Tables.
    pub fn len(&self) -> usize {
        self.lanes.len()
    }

    /// Whether there are no tables.
    pub fn is_empty(&self) -> bool {
        self.lanes.is_empty()
    }

    /// Seats at each table.
    pub fn players(&self) -> usize {
        self.config.players
    }

    /// Numbers in one observation.
    pub fn observation_size(&self) -> usize {
        self.observation_size
    }

    /// Integers in the action space.
    pub fn num_actions(&self) -> usize {
        self.num_actions
    }

    /// Table `i`.
    pub fn table(&self, i: usize) -> &Table {
        &self.lanes[i].table
    }

    /// Writes into `actions` the integer a bot of `kind` (with the tables'
    /// rules and bot options) would play now at each table, for the seat to
    /// act there (the learner's): the first of its steps, as
    /// [`bot_steps`] gives them, so a pick of a five is one card. A table
    /// whose game has ended (dealt at its next step) gets -1. Its
    /// randomness is drawn from `seed` in table order, apart from the
    /// tables' own: asking changes no game. A teacher's labels for
    /// imitation (DAgger) on the learner's own positions.
    pub fn bot_actions(&self, kind: BotKind, seed: u64, actions: &mut [i64]) -> Result<(), String> {
        if actions.len() != self.lanes.len() {
            return Err(format!(
                "one action per table: {} for {} tables",
                actions.len(),
                self.lanes.len()
            ));
        }
        let mut bot = kind.make_with(&self.config.rules, &self.config.bot_options);
        let mut seeds = seeded_rng(seed);
        let mut steps = Vec::new();
        for (lane, action) in self.lanes.iter().zip(actions.iter_mut()) {
            let mut rng = seeded_rng(seeds.next_u64());
            *action = if lane.finished || !matches!(lane.table.turn(), Turn::Seat(_)) {
                -1
            } else {
                bot_steps(bot.as_mut(), &lane.table, &mut rng, &mut steps)?;
                steps
                    .first()
                    .map_or(-1, |&a| i64::try_from(a).expect("a small action space"))
            };
        }
        Ok(())
    }

    /// Table `i`'s game so far as a record (replayable in Rust): the game
    /// played again from its seed, the bots' generator as it began and the
    /// learning seat's integers.
    pub fn record(&self, i: usize) -> Result<Record, String> {
        Ok(self.replayed(i)?.record())
    }

    /// Table `i` played again from its game's start, keeping a record.
    fn replayed(&self, i: usize) -> Result<Table, String> {
        Ok(self
            .replayed_lane(
                i,
                Table::new(self.config.rules.clone(), self.config.players, Some(0))?,
            )?
            .table)
    }

    /// Lane `i` played again at `table` from its game's seed, with the
    /// lane's generators, stacks and counts as they are now: it plays on
    /// as lane `i` would.
    fn replayed_lane(&self, i: usize, table: Table) -> Result<Lane, String> {
        let lane = &self.lanes[i];
        let mut again = Lane::new(
            &self.config,
            table,
            lane.seeds.clone(),
            lane.bot_rng_at_deal.clone(),
        );
        again.deal(&self.config, lane.game_seed)?;
        for &a in &lane.moves {
            again.table.act(a as usize)?;
            again.bots_play(&self.config)?;
        }
        again.bot_rng.clone_from(&lane.bot_rng);
        again.moves.clone_from(&lane.moves);
        again.stacks = lane.stacks;
        again.steps = lane.steps;
        again.finished = lane.finished;
        Ok(again)
    }

    /// A copy of every table, each game played again from its seed (a
    /// lane's bots are not `Clone`), that plays on as these would.
    pub fn duplicate(&self) -> Result<Tables, String> {
        let lanes = (0..self.lanes.len())
            .map(|i| {
                let table = Table::new(self.config.rules.clone(), self.config.players, Some(0))?;
                self.replayed_lane(i, table.without_record())
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(self.with_lanes(lanes))
    }

    /// The seat whose view row `i` holds: the learning seat, or in
    /// self-play the seat to act.
    pub fn to_play(&self, i: usize) -> Seat {
        self.lanes[i].viewer(&self.config)
    }

    /// Rewards a step writes per table: 1 (the learning seat's), or in
    /// self-play one per seat.
    pub fn rewards_per_table(&self) -> usize {
        self.config.rewards().0
    }

    /// Writes every table's observation and mask (rows of `observations`
    /// and `masks`, one per table, as `F` writes them).
    pub fn observe<F: RowFormat>(
        &self,
        observations: &mut [F::Obs],
        masks: &mut [F::Mask],
    ) -> Result<(), String> {
        let (size, acts) = self.row_sizes::<F>(observations.len(), masks.len())?;
        for (i, lane) in self.lanes.iter().enumerate() {
            lane.observe::<F>(
                lane.viewer(&self.config),
                &mut observations[i * size..(i + 1) * size],
                &mut masks[i * acts..(i + 1) * acts],
            );
        }
        Ok(())
    }

    /// An observation's and a mask's elements in `F`, if `observations`
    /// and `masks` elements make a row of each per table.
    fn row_sizes<F: RowFormat>(
        &self,
        observations: usize,
        masks: usize,
    ) -> Result<(usize, usize), String> {
        let n = self.lanes.len();
        let size = F::observation_size(self.config.players);
        let acts = F::Mask::mask_size(self.num_actions);
        if observations != n * size || masks != n * acts {
            return Err(
                "the observation and mask arrays must have a row per table of the right size"
                    .into(),
            );
        }
        Ok((size, acts))
    }

    /// Deals the next game at every table whose game ended (or was cut) at
    /// the last step under [`Autoreset::NextStep`], writing its rows and
    /// `to_play` (when not empty): Gymnasium's `SAME_STEP` on top of
    /// `NEXT_STEP`, once the caller has kept the finished games' last rows.
    pub fn deal_finished<F: RowFormat>(
        &mut self,
        observations: &mut [F::Obs],
        masks: &mut [F::Mask],
        to_play: &mut [u8],
    ) -> Result<(), String> {
        let (size, acts) = self.row_sizes::<F>(observations.len(), masks.len())?;
        if !to_play.is_empty() && to_play.len() != self.lanes.len() {
            return Err("one seat to play per table".into());
        }
        for (i, lane) in self.lanes.iter_mut().enumerate() {
            if !lane.finished {
                continue;
            }
            lane.reset(&self.config)?;
            let viewer = lane.viewer(&self.config);
            lane.observe::<F>(
                viewer,
                &mut observations[i * size..(i + 1) * size],
                &mut masks[i * acts..(i + 1) * acts],
            );
            if let Some(seat) = to_play.get_mut(i) {
                *seat = viewer;
            }
        }
        Ok(())
    }

    /// Plays `actions[i]` at table `i` for the seat to act (the learning
    /// seat, or in self-play whoever's turn it is), the bots until a
    /// learner's next turn, dealing a finished or cut game again (in this
    /// step or, after [`Autoreset::NextStep`], in the next, ignoring its action);
    /// writes each table's outcome, then its (new) observation and mask.
    /// `threads` > 1 splits the tables into that many runs at once.
    pub fn step<F: RowFormat>(
        &mut self,
        actions: &[i64],
        mut outcomes: Outcomes<'_>,
        observations: &mut [F::Obs],
        masks: &mut [F::Mask],
        threads: usize,
    ) -> Result<(), String> {
        let (n, per) = (self.lanes.len(), self.rewards_per_table());
        self.check_outcomes(actions, &outcomes)?;
        let (obs_size, acts) = self.row_sizes::<F>(observations.len(), masks.len())?;
        let threads = self.usable(threads);
        let config = &self.config;
        if threads <= 1 {
            return run::<F>(
                config,
                &mut self.lanes,
                actions,
                outcomes,
                observations,
                masks,
            );
        }
        // Pieces of a few tables, each thread playing the same run of them
        // at every step (see [`Crew::share_out`]).
        let piece = LANES_A_PIECE.min(n.div_ceil(threads));
        let pieces = self
            .lanes
            .chunks_mut(piece)
            .zip(actions.chunks(piece))
            .zip(observations.chunks_mut(piece * obs_size))
            .zip(masks.chunks_mut(piece * acts))
            .map(|(((lanes, actions), obs), masks)| {
                let (piece, rest) = std::mem::take(&mut outcomes).split_at(lanes.len(), per);
                outcomes = rest;
                (lanes, actions, piece, obs, masks)
            });
        crew(&mut self.crew, threads)?.share_out(
            pieces,
            |(lanes, actions, outcomes, obs, masks)| {
                run::<F>(config, lanes, actions, outcomes, obs, masks)
            },
        )
    }

    /// [`Tables::step`] without the rows, on this thread: the actions played
    /// and the outcomes written; the rows are for [`Tables::observe`] to
    /// write (later, and on another thread if need be).
    pub fn play(&mut self, actions: &[i64], mut outcomes: Outcomes<'_>) -> Result<(), String> {
        self.check_outcomes(actions, &outcomes)?;
        for (i, (lane, &action)) in self.lanes.iter_mut().zip(actions).enumerate() {
            lane.step_into(&self.config, action, i, &mut outcomes)?;
        }
        Ok(())
    }

    /// Refuses `actions` and `outcomes` unless they have an entry (a row
    /// of rewards) per table.
    fn check_outcomes(&self, actions: &[i64], outcomes: &Outcomes<'_>) -> Result<(), String> {
        let n = self.lanes.len();
        if actions.len() != n {
            return Err(format!("{n} actions expected, {} given", actions.len()));
        }
        let per = self.rewards_per_table();
        let flags = [
            outcomes.terminated.len(),
            outcomes.truncated.len(),
            outcomes.illegal.len(),
        ];
        if flags != [n; 3] || outcomes.rewards.len() != n * per {
            return Err(format!(
                "the reward and flag arrays must have one entry per table ({per} rewards a table)"
            ));
        }
        if !outcomes.to_play.is_empty() && outcomes.to_play.len() != n {
            return Err("one seat to play per table".into());
        }
        Ok(())
    }

    /// Writes into `actions[i]` a uniformly random legal action of row `i`
    /// of `masks` (see [`Mask::random_legal`]; -1 for a row with none),
    /// `draws[i]` its randomness: a random policy for the batch, on
    /// `threads` threads (with a row per table, each reading mostly the
    /// rows its run of the step wrote).
    pub fn sample_actions<M: Mask>(
        &mut self,
        masks: &[M],
        draws: &[u32],
        actions: &mut [i64],
        threads: usize,
    ) -> Result<(), String> {
        let n = actions.len();
        let acts = M::mask_size(self.num_actions);
        if n == 0 || masks.len() != n * acts || draws.len() != n {
            return Err(format!(
                "one action per row of the masks, {acts} elements a row (one draw per row)"
            ));
        }
        let pick = |(masks, (draws, actions)): (&[M], (&[u32], &mut [i64]))| {
            pick_actions(masks, acts, draws, actions);
            Ok(())
        };
        let threads = self.usable(threads);
        if threads <= 1 || n < 2 {
            return pick((masks, (draws, actions)));
        }
        let piece = ROWS_A_PIECE.min(n.div_ceil(threads));
        let pieces = masks
            .chunks(piece * acts)
            .zip(draws.chunks(piece).zip(actions.chunks_mut(piece)));
        crew(&mut self.crew, threads)?.share_out(pieces, pick)
    }

    /// The threads a call that asks for `threads` uses: at most the
    /// machine's cores and the tables (the same for a step and a draw of
    /// any number of rows, so the two share one crew).
    fn usable(&self, threads: usize) -> usize {
        threads.min(self.cores).min(self.lanes.len())
    }
}

/// Writes into `actions[i]` a uniformly random legal action of row `i` of
/// `masks` (`acts` elements a row; see [`Mask::random_legal`]; -1, no
/// action, for a row with none: 0 would look like a legal card),
/// `draws[i]` its randomness.
pub fn pick_actions<M: Mask>(masks: &[M], acts: usize, draws: &[u32], actions: &mut [i64]) {
    for ((row, &r), action) in masks.chunks_exact(acts).zip(draws).zip(actions) {
        *action =
            M::random_legal(row, r).map_or(-1, |a| i64::try_from(a).expect("an action index"));
    }
}

/// The crew of `threads` threads, made (again) if it has another size.
fn crew(slot: &mut Option<Crew>, threads: usize) -> Result<&mut Crew, String> {
    if slot.as_ref().is_none_or(|c| c.threads() != threads) {
        *slot = Some(Crew::new(threads)?);
    }
    Ok(slot.as_mut().expect("made above"))
}

/// Steps `lanes` one after another (see [`Tables::step`]).
fn run<F: RowFormat>(
    config: &Config,
    lanes: &mut [Lane],
    actions: &[i64],
    mut outcomes: Outcomes<'_>,
    observations: &mut [F::Obs],
    masks: &mut [F::Mask],
) -> Result<(), String> {
    if lanes.is_empty() {
        return Ok(());
    }
    // Each lane zipped with its rows: no index to check against four slices.
    let rows = observations
        .chunks_exact_mut(observations.len() / lanes.len())
        .zip(masks.chunks_exact_mut(masks.len() / lanes.len()));
    for (i, ((lane, &action), (observation, mask))) in
        lanes.iter_mut().zip(actions).zip(rows).enumerate()
    {
        let viewer = lane.step_into(config, action, i, &mut outcomes)?;
        lane.observe::<F>(viewer, observation, mask);
    }
    Ok(())
}

/// One bit (the byte's top bit) for each byte of `word` that is 1: a mask
/// read eight entries at a time (exact for any byte, not only 0 and 1).
fn ones(word: u64) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let zero_where_one = word ^ 0x0101_0101_0101_0101;
    !(((zero_where_one & LOW7) + LOW7) | zero_where_one | LOW7)
}

/// A uniformly random entry equal to 1 of a mask row, `r` the randomness
/// (`None` when there is none), without reading the row one entry at a
/// time (that cost about a seventh of a batched step): the ones counted
/// in blocks of 64 entries (loops the compiler turns into vector compares
/// and adds), then the block holding the chosen one found by counting
/// again up to it (half the row on average, rather than word by word),
/// then the one within it, a word at a time.
pub fn random_legal(row: &[i8], r: u32) -> Option<usize> {
    const BLOCK: usize = 64;
    // A block's ones fit a byte: counted into one, then widened.
    let count = |block: &[i8]| u32::from(block.iter().fold(0u8, |c, &m| c + u8::from(m == 1)));
    let (blocks, rest) = row.as_chunks::<BLOCK>();
    let total: u32 = blocks.iter().map(|b| count(b)).sum::<u32>() + count(rest);
    let mut k = ((u64::from(r) * u64::from(total)) >> 32) as u32;
    for (i, block) in blocks.iter().map(|b| &b[..]).chain([rest]).enumerate() {
        let here = count(block);
        if k < here {
            return Some(i * BLOCK + kth_one(block, k)?);
        }
        k -= here;
    }
    None
}

/// The place of the `k`-th entry equal to 1 (from 0) of `block`, read a
/// word at a time.
fn kth_one(block: &[i8], mut k: u32) -> Option<usize> {
    let (words, tail) = block.as_chunks::<8>();
    for (i, w) in words.iter().enumerate() {
        let mut bits = ones(u64::from_le_bytes(w.map(i8::cast_unsigned)));
        let here = bits.count_ones();
        if k < here {
            for _ in 0..k {
                bits &= bits - 1;
            }
            return Some(i * 8 + bits.trailing_zeros() as usize / 8);
        }
        k -= here;
    }
    let at = tail
        .iter()
        .enumerate()
        .filter(|&(_, &m)| m == 1)
        .nth(k as usize)?;
    Some(words.len() * 8 + at.0)
}

/// A uniformly random set bit of a row of bits (bit `a % 8` of byte
/// `a / 8` for entry `a`), `r` the randomness (`None` when none is set):
/// the bits counted a word at a time, then the chosen one found in its word.
pub fn random_set_bit(row: &[u8], r: u32) -> Option<usize> {
    let (words, tail) = row.as_chunks::<8>();
    // The tail as a word without copying it out (a copy of a length known
    // only at run time calls memcpy): the row's last eight bytes, those
    // before the tail shifted out.
    let last = match row.last_chunk::<8>() {
        Some(end) => u64::from_le_bytes(*end)
            .checked_shr(8 * (8 - tail.len()) as u32)
            .unwrap_or(0),
        None => tail.iter().rev().fold(0, |w, &b| w << 8 | u64::from(b)),
    };
    let words = || words.iter().map(|w| u64::from_le_bytes(*w)).chain([last]);
    let count: u32 = words().map(u64::count_ones).sum();
    let mut k = ((u64::from(r) * u64::from(count)) >> 32) as u32;
    for (i, mut bits) in words().enumerate() {
        let here = bits.count_ones();
        if k < here {
            for _ in 0..k {
                bits &= bits - 1;
            }
            return Some(i * 64 + bits.trailing_zeros() as usize);
        }
        k -= here;
    }
    None
}

impl Lane {
    /// A lane playing at `table`, its games' seeds from `seeds`.
    fn new(config: &Config, table: Table, seeds: GameRng, bot_rng: GameRng) -> Lane {
        Lane {
            table,
            bots: match &config.seating {
                Seating::One { bots, .. } => bots
                    .iter()
                    .map(|k| k.make_with(&config.rules, &config.bot_options))
                    .collect(),
                Seating::Every => Vec::new(),
            },
            seeds,
            bot_rng_at_deal: bot_rng.clone(),
            bot_rng,
            game_seed: 0,
            // Room for a whole game's moves (about 160 in self-play), so
            // the first games do not grow the list step by step.
            moves: Vec::with_capacity(256),
            stacks: [0; MAX_SEATS],
            steps: 0,
            finished: false,
        }
    }

    /// The seat whose view this lane's row holds: the learning seat, or in
    /// self-play the seat to act (seat 0 once the game is over, which a
    /// row never shows: a finished game is dealt again at once).
    fn viewer(&self, config: &Config) -> Seat {
        match (&config.seating, self.table.turn()) {
            (Seating::One { seat, .. }, _) => *seat,
            (Seating::Every, Turn::Seat(s)) => s,
            (Seating::Every, _) => 0,
        }
    }

    /// A new game from the lane's next seed, the bots playing until a
    /// learner's turn (dealt again if the game ends before it).
    fn reset(&mut self, config: &Config) -> Result<(), String> {
        for _ in 0..MAX_DEALS_AGAIN {
            let seed = self.seeds.next_u64();
            self.deal(config, seed)?;
            if matches!(self.table.turn(), Turn::Seat(_)) {
                return Ok(());
            }
        }
        Err(format!(
            "the seat had no choice to make in {MAX_DEALS_AGAIN} games"
        ))
    }

    /// The game of `seed`, the bots playing until the learning seat's turn
    /// or the end.
    fn deal(&mut self, config: &Config, seed: u64) -> Result<(), String> {
        self.table.deal_again(seed)?;
        self.game_seed = seed;
        self.bot_rng_at_deal.clone_from(&self.bot_rng);
        self.moves.clear();
        self.stacks = [0; MAX_SEATS];
        self.stacks[..config.players].fill(config.rules.starting_chips);
        self.steps = 0;
        self.finished = false;
        self.bots_play(config)
    }

    /// The bots' moves until a learner's turn or the end, each a whole
    /// engine action (see [`Table::act_whole`]). Inlined, so self-play
    /// (no bots) pays a comparison for it, not a call.
    #[inline]
    fn bots_play(&mut self, config: &Config) -> Result<(), String> {
        if self.bots.is_empty() {
            return Ok(());
        }
        self.bots_move(config)
    }

    /// [`Lane::bots_play`]'s moves.
    #[inline(never)]
    fn bots_move(&mut self, config: &Config) -> Result<(), String> {
        while let Turn::Seat(seat) = self.table.turn() {
            let Some(bot) = config.bot_at(seat) else {
                break;
            };
            let info = InfoSet::new(self.table.game(), seat);
            let action = self.bots[bot].act_in(&info, &mut self.bot_rng);
            self.table.act_whole(action)?;
        }
        Ok(())
    }

    /// Plays `action` for the learner's seat to act, then the bots; deals
    /// again at the end. Writes what happened into `outcome` (all of it).
    fn step(&mut self, config: &Config, action: i64, outcome: &mut Outcome) -> Result<(), String> {
        if self.finished {
            *outcome = Outcome::default();
            return self.reset(config);
        }
        let legal = usize::try_from(action)
            .ok()
            .and_then(|a| Some((a, self.table.decode(a)?)));
        self.steps += 1;
        let cut = self.steps >= config.max_steps;
        if let Some((a, step)) = legal {
            self.table.play(step)?;
            self.moves
                .push(u32::try_from(a).expect("an action space below 2^32"));
            self.bots_play(config)?;
            // Differences of whole chip counts below 2^24 (the action
            // space bounds the chips): exact in `f32`. Every seat at once
            // (those beyond the table's have 0 chips, so 0 rewards).
            let stacks = self.table.game().stacks_of_every_seat();
            for ((reward, was), now) in outcome.rewards.iter_mut().zip(&self.stacks).zip(stacks) {
                *reward = now.wrapping_sub(*was).cast_signed() as f32;
            }
            self.stacks = *stacks;
            outcome.terminated = self.table.turn() == Turn::Over;
            outcome.illegal = false;
        } else {
            outcome.rewards = [0.0; MAX_SEATS];
            outcome.rewards[usize::from(self.viewer(config))] = config.illegal_reward;
            outcome.terminated = false;
            outcome.illegal = true;
        }
        outcome.truncated = cut && !outcome.terminated;
        if outcome.terminated || outcome.truncated {
            match config.autoreset {
                Autoreset::SameStep => self.reset(config)?,
                Autoreset::NextStep => self.finished = true,
            }
        }
        Ok(())
    }

    /// [`Lane::step`], its outcome written as table `i`'s (and the seat
    /// whose view its row now holds, which it returns).
    fn step_into(
        &mut self,
        config: &Config,
        action: i64,
        i: usize,
        outcomes: &mut Outcomes<'_>,
    ) -> Result<Seat, String> {
        let mut outcome = Outcome::default();
        self.step(config, action, &mut outcome)?;
        outcomes.write(i, &outcome, config.rewards());
        let viewer = self.viewer(config);
        if let Some(seat) = outcomes.to_play.get_mut(i) {
            *seat = viewer;
        }
        Ok(viewer)
    }

    /// Writes the learning seat's observation and mask, every element.
    fn observe<F: RowFormat>(&self, seat: Seat, observation: &mut [F::Obs], mask: &mut [F::Mask]) {
        F::observe(&self.table, seat, observation);
        let legal = if self.table.turn() == Turn::Seat(seat) {
            self.table.legal_set()
        } else {
            Legal::NONE
        };
        F::Mask::write(&legal, mask);
    }
}

/// `count` tables of four at `pagat`, seated so, dealt from `seed` (for
/// tests).
#[cfg(test)]
pub(crate) fn pagat_tables(seating: Seating, count: usize, seed: u64) -> Tables {
    let config = Config {
        rules: Rules::preset(tripoley_engine::Preset::Pagat),
        players: 4,
        seating,
        bot_options: BotOptions::default(),
        max_steps: 10_000,
        illegal_reward: -1.0,
        autoreset: Autoreset::SameStep,
    };
    Tables::new(config, count, seed).expect("pagat's tables")
}

#[cfg(test)]
mod tests {
    use super::*;
    use tripoley_engine::Preset;

    /// The learner at seat 1, `bots` at the others.
    fn tables(bots: [BotKind; 3]) -> Tables {
        tables_seated(Seating::One {
            seat: 1,
            bots: bots.to_vec(),
        })
    }

    fn tables_seated(seating: Seating) -> Tables {
        pagat_tables(seating, 3, 5)
    }

    /// The arrays a step writes its outcomes into (Python's are NumPy's).
    type Written = OutcomeRows;

    impl Written {
        /// Arrays for `tables`, the seats to play asked for or not, full of
        /// what no step writes.
        fn new(tables: &Tables, to_play: bool) -> Written {
            let n = tables.len();
            Written {
                rewards: vec![f32::NAN; n * tables.rewards_per_table()],
                terminated: vec![true; n],
                truncated: vec![true; n],
                illegal: vec![true; n],
                to_play: vec![u8::MAX; if to_play { n } else { 0 }],
            }
        }

        /// Table `i`'s rewards.
        fn rewards(&self, i: usize) -> &[f32] {
            let per = self.rewards.len() / self.terminated.len();
            &self.rewards[i * per..(i + 1) * per]
        }
    }

    /// Steps `tables` with random legal actions, observations in `T`,
    /// calling `each` after every step with the rows, masks and outcomes.
    fn play<T: Number + Default>(
        tables: &mut Tables,
        steps: usize,
        threads: usize,
        mut each: impl FnMut(&Tables, &mut [T], &[i8], &Written),
    ) {
        let n = tables.len();
        let (size, acts) = (tables.observation_size(), tables.num_actions());
        let mut obs = vec![T::default(); n * size];
        let mut masks = vec![0; n * acts];
        let mut written = Written::new(tables, true);
        let mut rng = seeded_rng(1);
        tables.observe::<Dense<T>>(&mut obs, &mut masks).unwrap();
        for _ in 0..steps {
            let actions: Vec<i64> = masks
                .chunks(acts)
                .map(|row| {
                    let legal: Vec<usize> = (0..acts).filter(|&a| row[a] == 1).collect();
                    i64::try_from(legal[(rng.next_u64() % legal.len() as u64) as usize]).unwrap()
                })
                .collect();
            tables
                .step::<Dense<T>>(&actions, written.outcomes(), &mut obs, &mut masks, threads)
                .unwrap();
            each(tables, &mut obs, &masks, &written);
        }
    }

    /// `count` tables of `pagat_tables` cut after `max_steps`, dealing again
    /// as `autoreset` says.
    fn cut_tables(autoreset: Autoreset, max_steps: u32) -> Tables {
        let mut tables = pagat_tables(Seating::Every, 3, 6);
        tables.config.max_steps = max_steps;
        tables.config.autoreset = autoreset;
        tables
    }

    /// One step of `tables`, each table's first legal action (0 where it
    /// has none); its rows and outcomes.
    fn first_legal_step(tables: &mut Tables) -> (Vec<f32>, Vec<i8>, Written) {
        let n = tables.len();
        let (size, acts) = (tables.observation_size(), tables.num_actions());
        let (mut obs, mut masks) = (vec![0.0; n * size], vec![0; n * acts]);
        tables.observe::<Dense<f32>>(&mut obs, &mut masks).unwrap();
        let actions: Vec<i64> = masks
            .chunks(acts)
            .map(|row| {
                row.iter()
                    .position(|&m| m == 1)
                    .map_or(0, |a| i64::try_from(a).unwrap())
            })
            .collect();
        let mut written = Written::new(tables, true);
        tables
            .step::<Dense<f32>>(&actions, written.outcomes(), &mut obs, &mut masks, 1)
            .unwrap();
        (obs, masks, written)
    }

    /// Under [`Autoreset::NextStep`] the step that cuts a game shows its
    /// last row, and the next deals the game [`Autoreset::SameStep`] dealt
    /// at once, ignoring its action, with no reward and no flag.
    #[test]
    fn next_step_shows_the_last_row_then_deals_what_same_step_dealt() {
        let mut same = cut_tables(Autoreset::SameStep, 4);
        let mut next = cut_tables(Autoreset::NextStep, 4);
        for step in 1..=4 {
            let (same_obs, _, same_out) = first_legal_step(&mut same);
            let (next_obs, _, next_out) = first_legal_step(&mut next);
            assert_eq!(same_out.rewards, next_out.rewards);
            assert_eq!(same_out.truncated, vec![step == 4; 3]);
            assert_eq!(same_out.truncated, next_out.truncated);
            // The rows, and whose view they hold, differ only once SameStep deals.
            assert_eq!(same_obs == next_obs, step < 4);
            assert_eq!(same_out.to_play == next_out.to_play, step < 4);
        }
        let dealt: Vec<_> = (0..3).map(|i| same.record(i).unwrap()).collect();
        let mut ignored = Written::new(&next, true);
        let n = next.len();
        let (size, acts) = (next.observation_size(), next.num_actions());
        let (mut obs, mut masks) = (vec![0.0; n * size], vec![0; n * acts]);
        next.step::<Dense<f32>>(&[-1; 3], ignored.outcomes(), &mut obs, &mut masks, 1)
            .unwrap();
        assert!(ignored.rewards.iter().all(|&r| r == 0.0));
        assert!(
            !ignored
                .terminated
                .iter()
                .chain(&ignored.truncated)
                .chain(&ignored.illegal)
                .any(|&f| f)
        );
        assert_eq!(
            (0..3).map(|i| next.record(i).unwrap()).collect::<Vec<_>>(),
            dealt
        );
        let (mut same_obs, mut same_masks) = (vec![0.0; n * size], vec![0; n * acts]);
        same.observe::<Dense<f32>>(&mut same_obs, &mut same_masks)
            .unwrap();
        assert_eq!((obs, masks), (same_obs, same_masks));
    }

    /// A duplicate plays on as its original, whatever either has played.
    #[test]
    fn a_duplicate_plays_on_as_its_original() {
        let mut tables = cut_tables(Autoreset::NextStep, 7);
        for _ in 0..5 {
            first_legal_step(&mut tables);
        }
        let mut copy = tables.duplicate().unwrap();
        for _ in 0..12 {
            let (obs, masks, out) = first_legal_step(&mut tables);
            assert_eq!(first_legal_step(&mut copy), (obs, masks, out));
        }
        for i in 0..3 {
            assert_eq!(copy.record(i).unwrap(), tables.record(i).unwrap());
        }
    }

    /// A bot's integers for the learner's seat are legal there, the same
    /// from the same seed, -1 at a finished (or cut) game, and asking changes no
    /// game: the asked tables play on as a duplicate never asked.
    #[test]
    fn bot_actions_are_legal_seeded_and_change_no_game() {
        let mut tables = cut_tables(Autoreset::NextStep, 6);
        // Playouts, not milliseconds: the same search from the same seed.
        tables.config.bot_options.budget = tripoley_bots::Budget::playouts(8);
        let mut unasked = tables.duplicate().unwrap();
        let acts = tables.num_actions();
        for step in 0..10 {
            let size = tables.observation_size();
            let (mut obs, mut masks) = (vec![0.0; 3 * size], vec![0; 3 * acts]);
            tables.observe::<Dense<f32>>(&mut obs, &mut masks).unwrap();
            for kind in [BotKind::Heuristic, BotKind::Expert] {
                let (mut a, mut b) = ([0; 3], [0; 3]);
                tables.bot_actions(kind, step, &mut a).unwrap();
                tables.bot_actions(kind, step, &mut b).unwrap();
                assert_eq!(a, b);
                let rows = a.iter().zip(masks.chunks(acts)).zip(&tables.lanes);
                for ((action, row), lane) in rows {
                    // -1 exactly at a game that ended or was cut at the last step.
                    assert_eq!(*action < 0, lane.finished);
                    if let Ok(i) = usize::try_from(*action) {
                        assert_eq!(row[i], 1, "{kind:?} played an illegal {i}");
                    }
                }
            }
            assert_eq!(
                first_legal_step(&mut tables),
                first_legal_step(&mut unasked)
            );
        }
        assert!(
            tables
                .bot_actions(BotKind::Heuristic, 0, &mut [0; 2])
                .is_err()
        );
    }

    /// Lane `i`'s game played again at a single [`Table`] the way Python's
    /// `Table` and `Bot.steps` play it: every bot answer turned into
    /// integers (a five pick by pick), from the lane's seed, bots'
    /// generator and learners' integers.
    fn single_table(tables: &Tables, i: usize) -> Table {
        let (lane, config) = (&tables.lanes[i], &tables.config);
        let mut table = Table::new(config.rules.clone(), 4, Some(lane.game_seed)).unwrap();
        let mut bots: Vec<_> = match &config.seating {
            Seating::One { bots, .. } => bots.iter().map(|k| k.make(&config.rules)).collect(),
            Seating::Every => Vec::new(),
        };
        let mut rng = lane.bot_rng_at_deal.clone();
        let (mut moves, mut plan) = (lane.moves.iter(), Vec::new());
        while let Turn::Seat(seat) = table.turn() {
            let Some(bot) = config.bot_at(seat) else {
                let Some(&a) = moves.next() else { break };
                table.act(a as usize).unwrap();
                continue;
            };
            if plan.is_empty() {
                let bot = bots[bot].as_mut();
                crate::table::bot_steps(bot, &table, &mut rng, &mut plan).unwrap();
                plan.reverse();
            }
            table.act(plan.pop().unwrap()).unwrap();
        }
        table
    }

    /// The rows of a batched step in `T` are the single table's
    /// observation of the same game, number for number, seen by the seat
    /// `to_play` names.
    fn rows_are_the_single_tables_observation<T: Number + Default>(seating: Seating) {
        let mut tables = tables_seated(seating);
        let size = tables.observation_size();
        play::<T>(&mut tables, 300, 1, |tables, obs, _, _| {
            for i in 0..tables.len() {
                let again = single_table(tables, i);
                assert_eq!(again.view(None), tables.table(i).view(None));
                let mut row = vec![T::default(); size];
                let seat = tables.to_play(i);
                assert_eq!(again.turn(), Turn::Seat(seat), "a row is the seat to act's");
                again.observe_into(seat, &mut row);
                assert_eq!(&obs[i * size..(i + 1) * size], &row[..]);
                let full = again.observation(seat);
                // Every number is a whole count, so the float converts exactly.
                #[allow(clippy::cast_sign_loss, clippy::cast_possible_truncation)]
                let narrowed: Vec<T> = full.iter().map(|&x| T::from_count(x as u32)).collect();
                assert_eq!(row, narrowed, "the same numbers as the float32 observation");
            }
        });
    }

    #[test]
    fn a_batched_rows_are_the_single_tables_observation_in_every_number_type() {
        let one = || Seating::One {
            seat: 1,
            bots: vec![BotKind::Random, BotKind::Heuristic, BotKind::Random],
        };
        rows_are_the_single_tables_observation::<f32>(one());
        rows_are_the_single_tables_observation::<u16>(one());
        rows_are_the_single_tables_observation::<u8>(one());
        rows_are_the_single_tables_observation::<u8>(Seating::Every);
    }

    /// Self-play: every seat's decisions come to the learner in turn (all
    /// four seats act), each step's rewards are every seat's chip changes
    /// (the stacks of the game played again before and after), and a
    /// table's record replays to its game.
    #[test]
    fn self_play_steps_every_seat_and_rewards_every_seats_chips() {
        let mut tables = tables_seated(Seating::Every);
        let (n, size, acts) = (
            tables.len(),
            tables.observation_size(),
            tables.num_actions(),
        );
        let (mut obs, mut masks) = (vec![0u8; n * size], vec![0i8; n * acts]);
        let mut written = Written::new(&tables, true);
        let mut rng = seeded_rng(9);
        let (mut seen, mut ended, mut first) = ([false; 4], 0, vec![true; n]);
        let start = tables.config.rules.starting_chips as f32;
        tables.observe::<Dense<u8>>(&mut obs, &mut masks).unwrap();
        for _ in 0..400 {
            let before: Vec<Vec<u32>> = (0..n)
                .map(|i| tables.table(i).game().stacks().to_vec())
                .collect();
            for i in 0..n {
                seen[usize::from(tables.to_play(i))] = true;
            }
            let actions: Vec<i64> = masks
                .chunks(acts)
                .map(|row| i64::try_from(random_legal(row, rng.next_u32()).unwrap()).unwrap())
                .collect();
            tables
                .step::<Dense<u8>>(&actions, written.outcomes(), &mut obs, &mut masks, 1)
                .unwrap();
            for i in 0..n {
                assert!(!written.illegal[i]);
                assert_eq!(written.to_play[i], tables.to_play(i));
                if written.terminated[i] || written.truncated[i] {
                    (ended, first[i]) = (ended + 1, true);
                    continue;
                }
                // A game's first reward counts its first deal's antes, paid at the deal.
                let after = tables.table(i).game().stacks();
                for s in 0..4 {
                    let was = if first[i] { start } else { before[i][s] as f32 };
                    // Whole chip counts: the floats are exact.
                    #[allow(clippy::float_cmp)]
                    {
                        assert_eq!(written.rewards(i)[s], after[s] as f32 - was);
                    }
                }
                first[i] = false;
                let (game, _) = tables.record(i).unwrap().replay().unwrap();
                assert_eq!(game.view(None), tables.table(i).game().view(None));
            }
        }
        assert_eq!(
            seen, [true; 4],
            "every seat's decisions came to the learner"
        );
        assert!(ended > 0, "games ended and were dealt again");
    }

    /// An illegal action (below 0, beyond the space, or not legal now)
    /// moves nothing: the seat to act gets the illegal reward, every other
    /// seat 0, and the same seat is still to act in the same game.
    #[test]
    fn an_illegal_action_moves_nothing_and_rewards_the_seat_to_act() {
        for seating in [
            Seating::Every,
            Seating::One {
                seat: 1,
                bots: vec![BotKind::Random; 3],
            },
        ] {
            let mut tables = tables_seated(seating);
            let (n, acts) = (tables.len(), tables.num_actions());
            let mut obs = vec![0u8; n * tables.observation_size()];
            let mut masks = vec![0i8; n * acts];
            let mut written = Written::new(&tables, false);
            tables.observe::<Dense<u8>>(&mut obs, &mut masks).unwrap();
            let was: Vec<_> = (0..n).map(|i| tables.table(i).view(None)).collect();
            let seats: Vec<_> = (0..n).map(|i| tables.to_play(i)).collect();
            let not_legal = |i: usize| {
                let row = &masks[i * acts..][..acts];
                i64::try_from(row.iter().position(|&m| m == 0).unwrap()).unwrap()
            };
            let wrong = [-1, i64::try_from(acts).unwrap(), not_legal(2)];
            tables
                .step::<Dense<u8>>(&wrong, written.outcomes(), &mut obs, &mut masks, 1)
                .unwrap();
            let (per, first) = tables.config.rewards();
            for i in 0..n {
                let mut rewards = [0.0; MAX_SEATS];
                rewards[usize::from(seats[i])] = -1.0;
                assert!(written.illegal[i] && !written.terminated[i] && !written.truncated[i]);
                // Whole numbers: the floats are exact.
                #[allow(clippy::float_cmp)]
                {
                    assert_eq!(written.rewards(i), &rewards[first..first + per]);
                }
                assert_eq!(tables.table(i).view(None), was[i]);
                assert_eq!(tables.to_play(i), seats[i]);
            }
        }
    }

    /// A step writes every number of the caller's rows: rows the learner
    /// scribbled on (scaled in place, say) come back whole. (Writing only
    /// what changed into them would not; a lane's own copy written
    /// incrementally, then copied out, cost more time than it saved: the
    /// copies doubled the memory a step touches.)
    #[test]
    fn a_step_writes_every_number_whatever_the_rows_held() {
        let mut tables = tables([BotKind::Random, BotKind::Heuristic, BotKind::Random]);
        let (n, size, acts) = (
            tables.len(),
            tables.observation_size(),
            tables.num_actions(),
        );
        let (mut fresh, mut fresh_masks) = (vec![0u8; n * size], vec![0i8; n * acts]);
        let mut step = 0u8;
        play::<u8>(&mut tables, 200, 1, |tables, obs, masks, _| {
            tables
                .observe::<Dense<u8>>(&mut fresh, &mut fresh_masks)
                .unwrap();
            assert!(obs == fresh && masks == fresh_masks, "step {step}");
            step = step.wrapping_add(1);
            obs.fill(step % 3 * 100);
        });
    }

    #[test]
    fn a_random_legal_entry_is_uniform_among_the_ones_of_any_row() {
        let mut rng = seeded_rng(3);
        for len in [0, 1, 7, 8, 9, 63, 64, 65, 127, 128, 200, 486] {
            let row: Vec<i8> = (0..len)
                .map(|_| [0, 1, 1, 2, -1][(rng.next_u32() % 5) as usize])
                .collect();
            let ones: Vec<usize> = (0..len).filter(|&a| row[a] == 1).collect();
            let mut seen = vec![0u32; len];
            for _ in 0..4000 {
                match random_legal(&row, rng.next_u32()) {
                    Some(a) => seen[a] += 1,
                    None => assert!(ones.is_empty()),
                }
            }
            for (a, times) in seen.iter().enumerate() {
                assert_eq!(*times > 0, ones.contains(&a), "row of {len}, entry {a}");
            }
            // The k-th draw of r picks the k-th one, in order.
            for (k, &a) in ones.iter().enumerate() {
                let r = ((k as u64) << 32).div_ceil(ones.len() as u64) as u32;
                assert_eq!(random_legal(&row, r), Some(a));
            }
        }
    }

    /// 0/1 bytes as bits, low bit of each byte first (NumPy's
    /// `packbits(..., bitorder="little")`).
    fn pack_bits(flags: impl IntoIterator<Item = u8>) -> Vec<u8> {
        let flags: Vec<u8> = flags.into_iter().collect();
        flags
            .chunks(8)
            .map(|c| c.iter().enumerate().map(|(i, &f)| f << i).sum())
            .collect()
    }

    /// Packed rows are the `u8` rows packed, byte for byte (each suit of a
    /// plane in 16 bits, its padding bits 0), and the packed masks' draws are the byte masks': two tables
    /// stepped side by side, one in each format, play the same games. At 2,
    /// 3 and 4 seats (an odd and an even number of card planes), with bots
    /// and in self-play.
    #[test]
    fn packed_rows_are_the_u8_rows_packed_and_play_the_same_games() {
        for players in [2, 3, 4] {
            for seating in [
                Seating::Every,
                Seating::One {
                    seat: 1,
                    bots: vec![BotKind::Heuristic; players - 1],
                },
            ] {
                let config = Config {
                    rules: Rules::preset(Preset::Pagat),
                    players,
                    seating,
                    bot_options: BotOptions::default(),
                    max_steps: 10_000,
                    illegal_reward: -1.0,
                    autoreset: Autoreset::SameStep,
                };
                let mut dense = Tables::new(config.clone(), 4, 7).unwrap();
                let mut packed = Tables::new(config, 4, 7).unwrap();
                let n = dense.len();
                let (size, acts) = (dense.observation_size(), dense.num_actions());
                let (psize, pacts) = (Packed::observation_size(players), acts.div_ceil(8));
                let planes = 52 * (5 + 3 * players);
                let (mut obs, mut masks) = (vec![0u8; n * size], vec![0i8; n * acts]);
                let (mut pobs, mut pmasks) = (vec![0xffu8; n * psize], vec![0xffu8; n * pacts]);
                let mut written = Written::new(&dense, false);
                let mut rng = seeded_rng(4);
                dense.observe::<Dense<u8>>(&mut obs, &mut masks).unwrap();
                packed.observe::<Packed>(&mut pobs, &mut pmasks).unwrap();
                for step in 0..300 {
                    for i in 0..n {
                        let (row, prow) = (&obs[i * size..][..size], &pobs[i * psize..][..psize]);
                        // Each plane's suits are 16 bits wide, their
                        // 13 ranks first.
                        let bits = pack_bits(
                            row[..planes]
                                .chunks(13)
                                .flat_map(|suit| suit.iter().copied().chain([0; 3])),
                        );
                        assert_eq!(prow[..bits.len()], bits[..], "{players} seats, step {step}");
                        assert_eq!(prow[bits.len()..], row[planes..]);
                        let mask = &masks[i * acts..][..acts];
                        let mask_bits = pack_bits(mask.iter().map(|&m| m.cast_unsigned()));
                        assert_eq!(pmasks[i * pacts..][..pacts], mask_bits[..]);
                    }
                    let draws: Vec<u32> = (0..n).map(|_| rng.next_u32()).collect();
                    let (mut a, mut pa) = (vec![0; n], vec![0; n]);
                    dense.sample_actions(&masks, &draws, &mut a, 1).unwrap();
                    packed.sample_actions(&pmasks, &draws, &mut pa, 1).unwrap();
                    assert_eq!(a, pa, "the same draws from either mask");
                    dense
                        .step::<Dense<u8>>(&a, written.outcomes(), &mut obs, &mut masks, 1)
                        .unwrap();
                    packed
                        .step::<Packed>(&pa, written.outcomes(), &mut pobs, &mut pmasks, 1)
                        .unwrap();
                }
            }
        }
    }

    /// A packed mask is the byte mask packed, whatever run of amounts is
    /// legal (its ends in one byte or apart, on a byte's edge or not).
    #[test]
    fn a_packed_mask_is_the_byte_mask_packed_for_every_run_of_amounts() {
        use tripoley_engine::{AuctionItem, Decision};
        let rules = Rules::preset(Preset::Pagat);
        let space = crate::space::ActionSpace::new(&rules, 4).unwrap();
        let hand: tripoley_cards::CardSet = "2C 5C 9D JD QH AH 3S 8S".parse().unwrap();
        let mut decisions = vec![
            Decision::Lead { cards: hand },
            Decision::ChooseFive { from: hand },
            Decision::NamePaySuit,
            Decision::PaySuitBid { min: 1, max: 1000 },
        ];
        for (min, max) in (0..24).flat_map(|min| (0..30).map(move |more| (min, min + more))) {
            decisions.push(Decision::AuctionBid {
                item: AuctionItem::Spare,
                min,
                max,
            });
            decisions.push(Decision::Open { max_bet: max });
            decisions.push(Decision::Respond {
                to_call: min,
                max_raise: max,
            });
        }
        let (size, bytes) = (space.size(), space.size().div_ceil(8));
        for decision in decisions {
            let legal = space.legal_set(&decision, tripoley_cards::CardSet::EMPTY);
            let (mut dense, mut packed) = (vec![7i8; size], vec![0xffu8; bytes]);
            Mask::write(&legal, &mut dense);
            Mask::write(&legal, &mut packed);
            let bits = pack_bits(dense.iter().map(|&m| m.cast_unsigned()));
            assert_eq!(packed, bits, "{decision:?}");
        }
    }

    /// A mask whose rows are not the action space's (another width, or a
    /// packed row given as bytes) is refused, not read as rows of its own
    /// width: its draws would be actions of another space.
    /// Outcome arrays of the wrong size (a reward per table in self-play,
    /// a flag short, seats to play for some tables) are refused before any
    /// table moves: the same rows and games after as before.
    #[test]
    fn outcome_arrays_of_the_wrong_size_are_refused_and_nothing_moves() {
        let mut tables = tables_seated(Seating::Every);
        let (n, acts) = (tables.len(), tables.num_actions());
        let mut obs = vec![0u8; n * tables.observation_size()];
        let mut masks = vec![0i8; n * acts];
        tables.observe::<Dense<u8>>(&mut obs, &mut masks).unwrap();
        let actions: Vec<i64> = masks
            .chunks(acts)
            .map(|row| i64::try_from(random_legal(row, 7).unwrap()).unwrap())
            .collect();
        let views: Vec<_> = (0..n).map(|i| tables.table(i).view(None)).collect();
        let right = Written::new(&tables, true);
        let mut one_reward_each = right.clone();
        one_reward_each.rewards.truncate(n);
        let mut a_flag_short = right.clone();
        a_flag_short.truncated.pop();
        let mut some_seats = right.clone();
        some_seats.to_play.pop();
        for mut wrong in [one_reward_each, a_flag_short, some_seats] {
            let (mut o, mut m) = (obs.clone(), masks.clone());
            let refused = tables.step::<Dense<u8>>(&actions, wrong.outcomes(), &mut o, &mut m, 2);
            assert!(refused.is_err());
            assert_eq!((o, m), (obs.clone(), masks.clone()));
            assert!((0..n).all(|i| tables.table(i).view(None) == views[i]));
        }
        let mut right = right;
        tables
            .step::<Dense<u8>>(&actions, right.outcomes(), &mut obs, &mut masks, 2)
            .unwrap();
        assert!((0..n).any(|i| tables.table(i).view(None) != views[i]));
    }

    #[test]
    fn masks_of_the_wrong_width_are_refused() {
        let mut tables = tables([BotKind::Random; 3]);
        let acts = tables.num_actions();
        let mut actions = vec![0; 2];
        let draws = [1, 2];
        let wrong = vec![1i8; 2 * 10];
        let err = tables.sample_actions(&wrong, &draws, &mut actions, 1);
        assert!(err.unwrap_err().contains(&format!("{acts} elements a row")));
        let packed_as_bytes = vec![1i8; 2 * acts.div_ceil(8)];
        assert!(
            tables
                .sample_actions(&packed_as_bytes, &draws, &mut actions, 1)
                .is_err()
        );
        let bytes_as_packed = vec![1u8; 2 * acts];
        assert!(
            tables
                .sample_actions(&bytes_as_packed, &draws, &mut actions, 1)
                .is_err()
        );
        let right = vec![1u8; 2 * acts.div_ceil(8)];
        tables
            .sample_actions(&right, &draws, &mut actions, 1)
            .unwrap();
    }

    #[test]
    fn a_random_set_bit_draws_what_the_byte_mask_draws() {
        let mut rng = seeded_rng(5);
        for len in [0, 1, 7, 8, 9, 63, 64, 65, 486] {
            for _ in 0..50 {
                let row: Vec<i8> = (0..len)
                    .map(|_| i8::from(rng.next_u32() % 9 == 0))
                    .collect();
                let bits = pack_bits(row.iter().map(|&m| m.cast_unsigned()));
                for _ in 0..20 {
                    let r = rng.next_u32();
                    assert_eq!(random_set_bit(&bits, r), random_legal(&row, r), "{row:?}");
                }
                let last = row.iter().rposition(|&m| m == 1);
                assert_eq!(random_set_bit(&bits, u32::MAX), last);
            }
        }
    }

    /// The same rows and outcomes (rewards, flags, seats to play) from any
    /// number of threads, each thread writing its own tables' entries.
    #[test]
    fn threads_step_the_same_games_as_one() {
        for seating in [
            Seating::Every,
            Seating::One {
                seat: 1,
                bots: vec![BotKind::Random, BotKind::Heuristic, BotKind::Random],
            },
        ] {
            let mut runs = Vec::new();
            for threads in [1, 2, 3] {
                let mut tables = tables_seated(seating.clone());
                let mut seen = Vec::new();
                play::<u8>(&mut tables, 100, threads, |tables, obs, masks, written| {
                    assert!((0..tables.len()).all(|i| written.to_play[i] == tables.to_play(i)));
                    seen.push((obs.to_vec(), masks.to_vec(), written.clone()));
                });
                runs.push(seen);
            }
            assert!(runs[0] == runs[1] && runs[1] == runs[2], "{seating:?}");
        }
    }

    #[test]
    fn a_step_uses_no_more_threads_than_cores() {
        let mut tables = tables([BotKind::Random; 3]);
        play::<u8>(&mut tables, 3, 64, |_, _, _, _| {});
        let used = tables.crew.as_ref().map_or(1, Crew::threads);
        assert_eq!(used, tables.cores.min(tables.len()));
    }

    #[test]
    fn threads_draw_the_same_random_actions_as_one() {
        let mut tables = tables([BotKind::Random; 3]);
        let (n, acts) = (tables.len(), tables.num_actions());
        let mut obs = vec![0u8; n * tables.observation_size()];
        let mut masks = vec![0; n * acts];
        tables.observe::<Dense<u8>>(&mut obs, &mut masks).unwrap();
        let mut rng = seeded_rng(3);
        for _ in 0..20 {
            let draws: Vec<u32> = (0..n).map(|_| rng.next_u32()).collect();
            let picks: Vec<Vec<i64>> = [1, 2, 3]
                .map(|threads| {
                    let mut actions = vec![-1; n];
                    tables
                        .sample_actions(&masks, &draws, &mut actions, threads)
                        .unwrap();
                    actions
                })
                .into();
            let one: Vec<i64> = masks
                .chunks(acts)
                .zip(&draws)
                .map(|(row, &r)| i64::try_from(random_legal(row, r).unwrap()).unwrap())
                .collect();
            assert!(picks.iter().all(|p| *p == one), "{picks:?} {one:?}");
            let mut written = Written::new(&tables, false);
            tables
                .step::<Dense<u8>>(&one, written.outcomes(), &mut obs, &mut masks, 2)
                .unwrap();
        }
    }

    #[test]
    fn a_lanes_record_replays_to_its_game() {
        let mut tables = tables([BotKind::Heuristic; 3]);
        play::<u8>(&mut tables, 200, 1, |tables, _, _, _| {
            for i in 0..tables.len() {
                let (game, _) = tables.record(i).unwrap().replay().unwrap();
                assert_eq!(game.view(None), tables.table(i).game().view(None));
            }
        });
    }
}
