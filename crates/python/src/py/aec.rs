//! `Aec`: PettingZoo's AEC protocol done in Rust, one call per step.
//!
//! `tripoley.pettingzoo.raw_env` derives from both this class and
//! PettingZoo's `AECEnv`, so `step`, `last`, `observe` and `agent_iter` are
//! these methods, with no Python frame between the caller and the engine,
//! and the dicts PettingZoo's protocol reads (`rewards`, `terminations`,
//! ...) are updated here in place. In Python an AEC step cost about ten
//! times the engine's own work (dict loops, `last()`, the agent iterator);
//! here it costs a few hundred nanoseconds more than the engine. What is
//! rare or not per step stays in Python: spaces, `reset`'s seed, `render`,
//! and the dead steps at the end of a game (PettingZoo's own
//! `_was_dead_step`, so agents leave exactly as PettingZoo says).

use numpy::PyArray1;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use rand_core::Rng;
use tripoley_cards::seeded_rng;
use tripoley_engine::Seat;

use super::out::Out;
use super::table::Table;
use super::{action_index, refused};

/// What `_configure` fixed: how to make a table on each `reset`.
struct Setup {
    rules_json: String,
    players: usize,
    napalm: bool,
    /// `render_mode == "human"`: every step renders.
    human: bool,
    /// The agents' names, `player_0` ..., one per seat.
    names: Vec<Py<PyString>>,
    /// Each agent's observation, written in place by `observe`.
    observations: Vec<Observation>,
}

/// One agent's observation: the dict `observe` returns and its two arrays,
/// made once and written in place at each `observe`. A step then costs no
/// allocation: two fresh numpy arrays and a dict were a fifth of an AEC
/// step. (Like Gymnasium's vector environments with `copy=False`: an
/// observation to keep past the next `observe` of its agent is copied.)
struct Observation {
    dict: Py<PyDict>,
    numbers: Out<f32>,
    mask: Out<i8>,
}

/// Where `observe` writes before copying into an agent's arrays.
#[derive(Default)]
struct Scratch {
    numbers: Vec<f32>,
    mask: Vec<i8>,
}

impl Observation {
    fn new(py: Python<'_>, observation_size: usize, num_actions: usize) -> PyResult<Observation> {
        let numbers = PyArray1::<f32>::zeros(py, observation_size, false);
        let mask = PyArray1::<i8>::zeros(py, num_actions, false);
        let dict = PyDict::new(py);
        dict.set_item(intern!(py, "observation"), &numbers)?;
        dict.set_item(intern!(py, "action_mask"), &mask)?;
        Ok(Observation {
            dict: dict.unbind(),
            numbers: Out::new(&numbers)?,
            mask: Out::new(&mask)?,
        })
    }
}

/// The state PettingZoo's AEC protocol reads, kept as the Python objects
/// it reads so a step updates them in place.
#[pyclass(module = "tripoley._tripoley", subclass)]
pub struct Aec {
    setup: Option<Setup>,
    table: Option<Py<Table>>,
    #[pyo3(get, set)]
    agents: Py<PyList>,
    #[pyo3(get, set)]
    agent_selection: Py<PyAny>,
    #[pyo3(get, set)]
    rewards: Py<PyDict>,
    #[pyo3(get, set, name = "_cumulative_rewards")]
    cumulative_rewards: Py<PyDict>,
    #[pyo3(get, set)]
    terminations: Py<PyDict>,
    #[pyo3(get, set)]
    truncations: Py<PyDict>,
    #[pyo3(get, set)]
    infos: Py<PyDict>,
    /// Stacks and deals finished when the last reward was paid: a deal's
    /// reward is the change since.
    stacks: Vec<u32>,
    deals: u32,
    /// What `_cumulative_rewards` holds for each seat while the game is on,
    /// so a step writes that dict only where a value changes.
    cumulative: Vec<f64>,
    /// The observation being written, before it is copied to the agent's arrays.
    scratch: Scratch,
    /// Whether `rewards` holds what the last step paid (else all zero).
    paid: bool,
}

/// Games dealt at most by one `reset` looking for one in which a player acts.
const MAX_DEALS_AGAIN: u64 = 1000;

fn fresh_dict(py: Python<'_>) -> Py<PyDict> {
    PyDict::new(py).unbind()
}

/// `dict[agent]`, a `KeyError` as in Python when it is missing.
fn item<'py>(dict: &Py<PyDict>, agent: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    dict.bind(agent.py())
        .get_item(agent)?
        .ok_or_else(|| pyo3::exceptions::PyKeyError::new_err(agent.clone().unbind()))
}

#[pymethods]
impl Aec {
    /// An environment not yet set up; a subclass's `__init__` calls
    /// `_configure` (the arguments are the subclass's, for its `__init__`).
    #[new]
    #[pyo3(signature = (*_args, **_kwargs))]
    fn new(py: Python<'_>, _args: &Bound<'_, PyTuple>, _kwargs: Option<&Bound<'_, PyDict>>) -> Aec {
        Aec {
            setup: None,
            table: None,
            agents: PyList::empty(py).unbind(),
            agent_selection: py.None(),
            rewards: fresh_dict(py),
            cumulative_rewards: fresh_dict(py),
            terminations: fresh_dict(py),
            truncations: fresh_dict(py),
            infos: fresh_dict(py),
            stacks: Vec::new(),
            deals: 0,
            cumulative: Vec::new(),
            scratch: Scratch::default(),
            paid: false,
        }
    }

    /// Checks the rules (JSON, Napalm's with `napalm`) by making a table, and
    /// fixes the agents. Returns `(agents, action count, observation size)`.
    fn _configure(
        &mut self,
        py: Python<'_>,
        rules_json: String,
        players: usize,
        napalm: bool,
        human: bool,
    ) -> PyResult<(Vec<Py<PyString>>, usize, usize)> {
        let probe = Table::new(&rules_json, players, Some(0), napalm)?;
        let names: Vec<Py<PyString>> = (0..players)
            .map(|s| PyString::intern(py, &format!("player_{s}")).unbind())
            .collect();
        let sizes = (probe.num_actions(), probe.observation_size());
        self.agents = PyList::new(py, &names)?.unbind();
        self.scratch = Scratch {
            numbers: vec![0.0; sizes.1],
            mask: vec![0; sizes.0],
        };
        let observations = (0..players)
            .map(|_| Observation::new(py, sizes.1, sizes.0))
            .collect::<PyResult<_>>()?;
        self.setup = Some(Setup {
            rules_json,
            players,
            napalm,
            human,
            names: names.iter().map(|n| n.clone_ref(py)).collect(),
            observations,
        });
        Ok((names, sizes.0, sizes.1))
    }

    /// A new game dealt from `seed`: every agent back, rewards zero. A game
    /// in which nobody ever has a choice (under `cosmo` every play can be
    /// forced: about one game in fourteen at four players) is no AEC
    /// episode, whose agents must not be finished at `reset`: such a game is
    /// dealt again from seeds drawn from a generator seeded with `seed` (not
    /// from `seed + 1`, which would make it the game of the next seed).
    fn _restart(&mut self, py: Python<'_>, seed: u64) -> PyResult<()> {
        let setup = self.setup()?;
        let mut tries = 0..MAX_DEALS_AGAIN;
        let mut again = seeded_rng(seed);
        let mut next = seed;
        let table = loop {
            let table = Table::new(&setup.rules_json, setup.players, Some(next), setup.napalm)?;
            if table.current() >= 0 {
                break table;
            }
            if tries.next().is_none() {
                return Err(refused(format!(
                    "no player has a single choice to make in {MAX_DEALS_AGAIN} games under these rules"
                )));
            }
            next = again.next_u64();
        };
        let zero = 0.0_f64.into_pyobject(py)?;
        let (rewards, cumulative) = (PyDict::new(py), PyDict::new(py));
        let (terminations, truncations, infos) =
            (PyDict::new(py), PyDict::new(py), PyDict::new(py));
        for name in &setup.names {
            let name = name.bind(py);
            rewards.set_item(name, &zero)?;
            cumulative.set_item(name, &zero)?;
            terminations.set_item(name, false)?;
            truncations.set_item(name, false)?;
            infos.set_item(name, PyDict::new(py))?;
        }
        let agents = PyList::new(py, &setup.names)?.unbind();
        let players = setup.players;
        self.stacks = vec![table.starting_chips(); players];
        self.cumulative = vec![0.0; players];
        self.paid = false;
        self.agents = agents;
        self.deals = table.deals_done();
        self.rewards = rewards.unbind();
        self.cumulative_rewards = cumulative.unbind();
        self.terminations = terminations.unbind();
        self.truncations = truncations.unbind();
        self.infos = infos.unbind();
        self.table = Some(Py::new(py, table)?);
        self.select(py)
    }

    /// Plays `action` for `agent_selection`; for an agent whose game is over
    /// only None, which lets it leave (PettingZoo's dead step).
    #[pyo3(signature = (action))]
    fn step(slf: &Bound<'_, Self>, action: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let py = slf.py();
        let human = {
            let mut me = slf.borrow_mut();
            let current = me.table_for("step()")?.borrow(py).current();
            if me.is_dead(py)? {
                drop(me);
                slf.call_method1(intern!(py, "_was_dead_step"), (action,))?;
                return Ok(());
            }
            let Ok(seat) = usize::try_from(current) else {
                return Err(refused("the game is over: reset() the environment"));
            };
            let Some(action) = action else {
                return Err(refused(format!(
                    "{} must act: None is the action only of an agent whose game is over",
                    me.agent_selection.bind(py)
                )));
            };
            let a = action_index(action)?;
            me.table()?.borrow_mut(py).play(a)?;
            if me.cumulative[seat] != 0.0 {
                me.cumulative[seat] = 0.0;
                let agent = me.setup()?.names[seat].bind(py);
                me.cumulative_rewards.bind(py).set_item(agent, 0.0)?;
            }
            me.pay(py)?;
            me.select(py)?;
            me.setup()?.human
        };
        if human {
            slf.call_method0(intern!(py, "render"))?;
        }
        Ok(())
    }

    /// `(observation, reward, termination, truncation, info)` of
    /// `agent_selection`; the observation is None unless `observe`.
    #[pyo3(signature = (observe = true))]
    fn last<'py>(&mut self, py: Python<'py>, observe: bool) -> PyResult<Bound<'py, PyTuple>> {
        let agent = self.agent_selection.clone_ref(py).into_bound(py);
        if agent.is_none() {
            return Err(refused("reset() the environment before last()"));
        }
        let agent = &agent;
        let observation = if observe {
            self.observe(py, agent)?.into_any()
        } else {
            py.None().into_bound(py)
        };
        PyTuple::new(
            py,
            [
                observation,
                item(&self.cumulative_rewards, agent)?,
                item(&self.terminations, agent)?,
                item(&self.truncations, agent)?,
                item(&self.infos, agent)?,
            ],
        )
    }

    /// What `agent` sees: `{"observation": float32 array, "action_mask":
    /// int8 array}` (the mask is all zero unless the agent is to act; int8
    /// as Gymnasium's `Discrete.sample(mask)` asks). The agent's own dict
    /// and arrays, written again at each call (see [`Observation`]).
    fn observe<'py>(
        &mut self,
        py: Python<'py>,
        agent: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let seat = self.seat_of(agent)?;
        let table = self.table()?.clone_ref(py);
        let table = table.borrow(py);
        let scratch = &mut self.scratch;
        table.observe_into(seat, &mut scratch.numbers);
        scratch.mask.fill(0);
        if table.current() == i64::from(seat) {
            for a in table.legal() {
                scratch.mask[a] = 1;
            }
        }
        let buffers = &self
            .setup
            .as_ref()
            .expect("checked by seat_of")
            .observations[usize::from(seat)];
        buffers.numbers.write(py, &scratch.numbers)?;
        buffers.mask.write(py, &scratch.mask)?;
        Ok(buffers.dict.bind(py).clone())
    }

    /// The agents in turn while any is left, at most `max_iter` times.
    #[pyo3(signature = (max_iter = 1 << 63))]
    fn agent_iter(slf: &Bound<'_, Self>, max_iter: u64) -> AgentIter {
        AgentIter {
            env: slf.clone().unbind(),
            left: max_iter,
        }
    }

    /// Everything a copy needs besides what `__init__` makes: the table,
    /// the protocol's values and the reward bookkeeping, as picklable
    /// values (the dicts are the live ones: `copy.deepcopy` and pickle copy
    /// them).
    fn _snapshot<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let protocol = (
            self.table()?.borrow(py).clone(),
            self.agents.clone_ref(py),
            self.agent_selection.clone_ref(py),
            self.rewards.clone_ref(py),
            self.cumulative_rewards.clone_ref(py),
            self.terminations.clone_ref(py),
            self.truncations.clone_ref(py),
            self.infos.clone_ref(py),
        );
        let books = (
            self.stacks.clone(),
            self.deals,
            self.cumulative.clone(),
            self.paid,
        );
        (protocol, books).into_pyobject(py)
    }

    /// Takes a [`Aec::_snapshot`] (of an environment with the same setup),
    /// its table and dicts already copies (`copy.deepcopy` or pickle made them).
    #[allow(clippy::type_complexity)]
    fn _restore(
        &mut self,
        snapshot: (
            (
                Py<Table>,
                Py<PyList>,
                Py<PyAny>,
                Py<PyDict>,
                Py<PyDict>,
                Py<PyDict>,
                Py<PyDict>,
                Py<PyDict>,
            ),
            (Vec<u32>, u32, Vec<f64>, bool),
        ),
    ) -> PyResult<()> {
        let (protocol, books) = snapshot;
        self.setup()?;
        self.table = Some(protocol.0);
        self.agents = protocol.1;
        self.agent_selection = protocol.2;
        self.rewards = protocol.3;
        self.cumulative_rewards = protocol.4;
        self.terminations = protocol.5;
        self.truncations = protocol.6;
        self.infos = protocol.7;
        (self.stacks, self.deals, self.cumulative, self.paid) = books;
        Ok(())
    }

    /// The game (the integer table), for `render` and `record`.
    #[getter]
    fn _table(&self, py: Python<'_>) -> PyResult<Py<Table>> {
        Ok(self.table()?.clone_ref(py))
    }
}

impl Aec {
    fn setup(&self) -> PyResult<&Setup> {
        self.setup
            .as_ref()
            .ok_or_else(|| refused("the environment is not set up (raw_env.__init__ does it)"))
    }

    fn table(&self) -> PyResult<&Py<Table>> {
        self.table_for("playing")
    }

    /// The table, or the error that `reset()` must come before `what`.
    fn table_for(&self, what: &str) -> PyResult<&Py<Table>> {
        self.table
            .as_ref()
            .ok_or_else(|| refused(format!("reset() the environment before {what}")))
    }

    /// Whether the agent to move has finished (terminated or truncated), as
    /// PettingZoo's dicts say (a wrapper may have changed them).
    fn is_dead(&self, py: Python<'_>) -> PyResult<bool> {
        let agent = self.agent_selection.bind(py);
        Ok(item(&self.terminations, agent)?.is_truthy()?
            || item(&self.truncations, agent)?.is_truthy()?)
    }

    fn seat_of(&self, agent: &Bound<'_, PyAny>) -> PyResult<Seat> {
        let names = &self.setup()?.names;
        // The agent asked about is nearly always one of our own (interned) names.
        let seat = match names.iter().position(|n| n.is(agent)) {
            Some(seat) => Some(seat),
            None => names
                .iter()
                .position(|n| n.bind(agent.py()).as_any().eq(agent).unwrap_or(false)),
        };
        seat.map(|s| s as Seat)
            .ok_or_else(|| refused(format!("there is no agent {agent} at this table")))
    }

    /// Sets this step's rewards: the change in each stack since the last
    /// deal ended, once a deal (Napalm: a hand) or the game ends; zero
    /// otherwise. Adds them to the rewards `last()` reports. The dicts are
    /// written only where a value changes: most steps pay nothing.
    fn pay(&mut self, py: Python<'_>) -> PyResult<()> {
        let (deals, over) = {
            let table = self.table()?.borrow(py);
            (table.deals_done(), table.current() < 0)
        };
        let paid = deals != self.deals || over;
        if !paid && !self.paid {
            return Ok(());
        }
        let stacks = self.table()?.borrow(py).stacks();
        let setup = self.setup.as_ref().expect("a table is made from a setup");
        let (rewards, cumulative) = (self.rewards.bind(py), self.cumulative_rewards.bind(py));
        for (seat, name) in setup.names.iter().enumerate() {
            let name = name.bind(py);
            let reward = if paid {
                f64::from(stacks[seat]) - f64::from(self.stacks[seat])
            } else {
                0.0
            };
            rewards.set_item(name, reward)?;
            if reward != 0.0 {
                self.cumulative[seat] += reward;
                cumulative.set_item(name, self.cumulative[seat])?;
            }
        }
        if paid {
            self.stacks = stacks;
            self.deals = deals;
        }
        self.paid = paid;
        Ok(())
    }

    /// Points `agent_selection` at the seat to act; once the game is over
    /// every agent is terminated, and they leave one by one through dead
    /// steps.
    fn select(&mut self, py: Python<'_>) -> PyResult<()> {
        let current = self.table()?.borrow(py).current();
        let setup = self.setup()?;
        if let Ok(seat) = usize::try_from(current) {
            self.agent_selection = setup.names[seat].clone_ref(py).into_any();
            return Ok(());
        }
        let terminations = self.terminations.bind(py);
        for name in &setup.names {
            terminations.set_item(name.bind(py), true)?;
        }
        let agents = self.agents.bind(py);
        if !agents.contains(self.agent_selection.bind(py))? && !agents.is_empty() {
            self.agent_selection = agents.get_item(0)?.unbind();
        }
        Ok(())
    }
}

/// `agent_iter`: the agent to act, while any agent is left.
#[pyclass(module = "tripoley._tripoley")]
pub struct AgentIter {
    env: Py<Aec>,
    left: u64,
}

#[pymethods]
impl AgentIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> Option<Py<PyAny>> {
        let env = self.env.borrow(py);
        if self.left == 0 || env.agents.bind(py).is_empty() {
            return None;
        }
        self.left -= 1;
        Some(env.agent_selection.clone_ref(py))
    }
}
