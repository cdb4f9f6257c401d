//! [`Tables`]: many Tripoley tables stepped at once, for learning at speed
//! (in the manner of EnvPool and Gymnasium's vector environments). One
//! learning seat per table; our bots play every other seat inside Rust; a
//! finished game is dealt again at once (auto-reset), each table from its
//! own stream of seeds. Every output is written into caller-given slices
//! (NumPy arrays in Python), so a step makes no object per table, and lanes
//! split across threads.

use rand_core::Rng;
use tripoley_bots::{Bot, BotKind, BotOptions};
use tripoley_cards::{GameRng, seeded_rng};
use tripoley_engine::{Rules, Seat};

use crate::observe::observation_size;
use crate::table::{Table, Turn, bot_steps};

/// Games dealt at most by one reset looking for one in which the learning
/// seat acts (under `cosmo` every play can be forced).
const MAX_DEALS_AGAIN: usize = 1000;

/// One table with its bots.
struct Lane {
    table: Table,
    bots: Vec<Box<dyn Bot>>,
    /// Seeds of this lane's games.
    seeds: GameRng,
    /// The bots' randomness (apart from the deals: asking never changes them).
    bot_rng: GameRng,
    /// The rest of a five a bot chose, picked one integer at a time.
    plan: Vec<usize>,
    /// The learning seat's stack at its previous step (rewards are changes).
    stack: u32,
    /// The learning seat's steps in this game (for truncation).
    steps: u32,
}

/// What one step of one lane gives back.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Outcome {
    /// Chips won (negative: lost) since the seat's previous step.
    pub reward: f32,
    /// The game ended (and a new one was dealt).
    pub terminated: bool,
    /// The game was cut at `max_steps` (and a new one was dealt).
    pub truncated: bool,
    /// The action was not legal: nothing moved.
    pub illegal: bool,
}

/// How the tables are made.
#[derive(Clone, Debug)]
pub struct Config {
    /// The rules of every table.
    pub rules: Rules,
    /// Seats at each table.
    pub players: usize,
    /// The learning seat.
    pub seat: Seat,
    /// One bot kind per other seat, in seat order.
    pub bots: Vec<BotKind>,
    /// The bots' options (the expert's budget).
    pub bot_options: BotOptions,
    /// The learning seat's steps after which a game is cut.
    pub max_steps: u32,
    /// The reward of an illegal action (nothing else happens).
    pub illegal_reward: f32,
}

/// Many tables, each waiting for its learning seat.
pub struct Tables {
    config: Config,
    lanes: Vec<Lane>,
    observation_size: usize,
    num_actions: usize,
}

impl Tables {
    /// `count` tables, table `i` dealing from seeds drawn from `seed` and `i`.
    pub fn new(config: Config, count: usize, seed: u64) -> Result<Tables, String> {
        if usize::from(config.seat) >= config.players {
            return Err(format!(
                "there is no seat {} at a table of {}",
                config.seat, config.players
            ));
        }
        if config.bots.len() + 1 != config.players {
            return Err(format!(
                "{} bots needed, {} given",
                config.players - 1,
                config.bots.len()
            ));
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
            lanes.push(Lane {
                table: probe.clone(),
                bots: config
                    .bots
                    .iter()
                    .map(|k| k.make_with(&config.rules, &config.bot_options))
                    .collect(),
                seeds,
                bot_rng,
                plan: Vec::new(),
                stack: 0,
                steps: 0,
            });
        }
        let mut tables = Tables {
            observation_size: observation_size(config.players),
            num_actions: probe.space().size(),
            config,
            lanes,
        };
        for lane in &mut tables.lanes {
            lane.reset(&tables.config)?;
        }
        Ok(tables)
    }

    /// Tables.
    pub fn len(&self) -> usize {
        self.lanes.len()
    }

    /// Whether there are no tables.
    pub fn is_empty(&self) -> bool {
        self.lanes.is_empty()
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

    /// Writes every table's observation and mask (rows of `observations`
    /// and `masks`, one per table).
    pub fn observe(&self, observations: &mut [f32], masks: &mut [i8]) {
        for (i, lane) in self.lanes.iter().enumerate() {
            lane.observe(
                self.config.seat,
                &mut observations[i * self.observation_size..(i + 1) * self.observation_size],
                &mut masks[i * self.num_actions..(i + 1) * self.num_actions],
            );
        }
    }

    /// Plays `actions[i]` at table `i` for the learning seat, the bots
    /// until the seat's next turn, dealing a finished or cut game again;
    /// writes each table's outcome, then its (new) observation and mask.
    /// `threads` > 1 splits the tables into that many runs at once.
    pub fn step(
        &mut self,
        actions: &[i64],
        outcomes: &mut [Outcome],
        observations: &mut [f32],
        masks: &mut [i8],
        threads: usize,
    ) -> Result<(), String> {
        let n = self.lanes.len();
        if actions.len() != n || outcomes.len() != n {
            return Err(format!("{n} actions expected, {} given", actions.len()));
        }
        let (obs_size, acts) = (self.observation_size, self.num_actions);
        if observations.len() != n * obs_size || masks.len() != n * acts {
            return Err("the observation and mask arrays must have a row per table".into());
        }
        let config = &self.config;
        if threads <= 1 || n < 2 {
            return run(
                config,
                &mut self.lanes,
                actions,
                outcomes,
                observations,
                masks,
            );
        }
        let chunk = n.div_ceil(threads.min(n));
        std::thread::scope(|scope| {
            let handles: Vec<_> = self
                .lanes
                .chunks_mut(chunk)
                .zip(actions.chunks(chunk))
                .zip(outcomes.chunks_mut(chunk))
                .zip(observations.chunks_mut(chunk * obs_size))
                .zip(masks.chunks_mut(chunk * acts))
                .map(|((((lanes, actions), outcomes), obs), masks)| {
                    scope.spawn(move || run(config, lanes, actions, outcomes, obs, masks))
                })
                .collect();
            handles
                .into_iter()
                .try_for_each(|h| h.join().expect("a lane's thread does not panic"))
        })
    }
}

/// Steps `lanes` one after another (see [`Tables::step`]).
fn run(
    config: &Config,
    lanes: &mut [Lane],
    actions: &[i64],
    outcomes: &mut [Outcome],
    observations: &mut [f32],
    masks: &mut [i8],
) -> Result<(), String> {
    let obs_size = observations.len() / lanes.len().max(1);
    let acts = masks.len() / lanes.len().max(1);
    for (i, lane) in lanes.iter_mut().enumerate() {
        outcomes[i] = lane.step(config, actions[i])?;
        lane.observe(
            config.seat,
            &mut observations[i * obs_size..(i + 1) * obs_size],
            &mut masks[i * acts..(i + 1) * acts],
        );
    }
    Ok(())
}

impl Lane {
    /// A new game from the lane's next seed, the bots playing until the
    /// learning seat's turn (dealt again if the game ends before it).
    fn reset(&mut self, config: &Config) -> Result<(), String> {
        for _ in 0..MAX_DEALS_AGAIN {
            let seed = self.seeds.next_u64();
            self.table.deal_again(seed)?;
            self.stack = config.rules.starting_chips;
            self.steps = 0;
            self.plan.clear();
            self.bots_play(config)?;
            if self.table.turn() == Turn::Seat(config.seat) {
                return Ok(());
            }
        }
        Err(format!(
            "the seat had no choice to make in {MAX_DEALS_AGAIN} games"
        ))
    }

    /// The bots' moves until the learning seat's turn or the end.
    fn bots_play(&mut self, config: &Config) -> Result<(), String> {
        while let Turn::Seat(seat) = self.table.turn() {
            if seat == config.seat {
                break;
            }
            // The rest of a five already chosen, while it may still be picked.
            if self
                .plan
                .last()
                .is_none_or(|&a| self.table.decode(a).is_none())
            {
                let bot = usize::from(seat) - usize::from(seat > config.seat);
                bot_steps(
                    self.bots[bot].as_mut(),
                    &self.table,
                    &mut self.bot_rng,
                    &mut self.plan,
                )?;
                self.plan.reverse();
            }
            let a = self.plan.pop().expect("a bot's plan has a step");
            self.table.act(a)?;
        }
        Ok(())
    }

    /// Plays the learning seat's `action`, then the bots; deals again at the end.
    fn step(&mut self, config: &Config, action: i64) -> Result<Outcome, String> {
        let legal = usize::try_from(action)
            .ok()
            .filter(|&a| self.table.decode(a).is_some());
        self.steps += 1;
        let cut = self.steps >= config.max_steps;
        let mut outcome = Outcome::default();
        if let Some(a) = legal {
            self.table.act(a)?;
            self.bots_play(config)?;
            let stack = self.table.game().stacks()[usize::from(config.seat)];
            outcome.reward = stack as f32 - self.stack as f32;
            self.stack = stack;
            outcome.terminated = self.table.turn() == Turn::Over;
        } else {
            outcome.reward = config.illegal_reward;
            outcome.illegal = true;
        }
        outcome.truncated = cut && !outcome.terminated;
        if outcome.terminated || outcome.truncated {
            self.reset(config)?;
        }
        Ok(outcome)
    }

    /// Writes the learning seat's observation (every number) and mask
    /// (zeroed first).
    fn observe(&self, seat: Seat, observation: &mut [f32], mask: &mut [i8]) {
        self.table.observe_into(seat, observation);
        mask.fill(0);
        if self.table.turn() == Turn::Seat(seat) {
            self.table.each_legal(|a| mask[a] = 1);
        }
    }
}
