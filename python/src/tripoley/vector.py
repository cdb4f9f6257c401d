"""Many Tripoley tables stepped in one call from Rust: a Gymnasium vector environment.

Needs the ``gymnasium`` extra (``pip install 'tripoley[gymnasium]'``).

>>> from tripoley.vector import TripoleyVectorEnv
>>> envs = TripoleyVectorEnv(num_envs=1024, preset="pagat", players=4, opponents="heuristic")
>>> obs, infos = envs.reset(seed=1)
>>> masks = infos["action_mask"]                      # (num_envs, num_actions) int8
>>> actions = masks.argmax(axis=1)                    # any policy on the batch
>>> obs, rewards, terminated, truncated, infos = envs.step(actions)

* You play one seat (``seat``) at every table; our bots play the others inside Rust, and
  the step returns when it is your turn again at every table.
* Or, with ``opponents="self"``, you play every seat (self-play, as RLCard's and OpenSpiel's
  loops play every player): a step is one decision at each table, of whoever is to act;
  the row is that seat's view (seats counted from it, as always) and
  ``infos["to_play"]`` (uint8) says which seat it is. Rewards are then a row per table,
  ``(num_envs, players)``: every seat's chips won since the table's previous step, in seat
  order (an illegal action's ``illegal_reward`` goes to the seat that played it).
* Observations ``(num_envs, observation_size)`` (float32, or ``obs_dtype`` ``"uint16"`` or
  ``"uint8"``) and masks ``(num_envs, num_actions)`` int8 (``infos["action_mask"]``), rewards (chips since your previous step), ``terminated``
  and ``truncated`` are written by Rust into arrays made once: no Python object per table.
  The same arrays come back at every step (Gymnasium's ``copy=False``): copy what you keep.
  The ``infos`` dict is a new one at every step (wrappers add keys to it).
* A finished (or truncated) game is dealt again at the table's next step (Gymnasium's
  default, ``AutoresetMode.NEXT_STEP``, which its wrappers such as ``NormalizeObservation``
  require): the step that ends a game returns its last row; the next step ignores that
  table's action, deals the next game and returns its first row, with reward 0 and both flags
  false. ``autoreset_mode=AutoresetMode.SAME_STEP`` deals the next game in the step that ends
  one, the finished games' last rows kept in ``infos["final_obs"]`` and
  ``infos["final_info"]`` (``"_final_obs"``, ``"_final_info"`` say which tables), as
  Gymnasium's own vector environments do (arrays made once, as the others: only the marked
  rows are the last step's). Each table deals from its own stream of seeds drawn
  from ``reset``'s seed.
* A seed is None or an integer from 0 to 2**64 - 1 and an action an integer: anything else
  (a negative seed, a float action) is refused with ``TripoleyError``, never cast.
* ``copy.deepcopy`` copies the environment: the copy plays on as the original would.
* An action the mask forbids changes nothing at its table; it earns ``illegal_reward`` and
  ``infos["illegal"]`` marks it.
* ``threads`` > 1 steps the tables, and draws ``sample_actions``, on that many threads (at most
  the machine's cores; the GIL is released meanwhile; the same games on any number of threads).
* The observation is the single ``Table``'s, number for number: 0/1 card planes and flags,
  chips and sizes as whole counts. ``obs_dtype="uint8"`` writes the same numbers in a quarter
  of the memory (faster to write and to read), with counts above 255 written as 255 (chips:
  a stack of more than 255); ``"uint16"`` saturates at 65,535, beyond any preset's chips.
  Convert on your side as you like (``torch.from_numpy(obs).float()``).
* ``packed=True`` writes the same rows in bits: an observation's card planes (its first
  ``card_plane_numbers`` numbers, all 0 or 1, 52 a plane) as bits, eight bytes a plane,
  low bit first, each suit's 13 cards at 16 bits (the other three 0), then its other
  numbers as uint8 bytes (225 bytes a row at 4 seats, against 973 in uint8), and the mask
  a bit per action (61 bytes against 486). For learners that keep many rows (a replay
  buffer) or unpack them where they learn: ``envs.unpack_observations(obs)`` and
  ``envs.unpack_masks(masks)`` give back the uint8 observations and int8 masks exactly
  (NumPy's ``unpackbits(..., bitorder="little")``, less each suit's three spare bits), and
  ``sample_actions`` reads packed masks as they are, drawing the same actions as from the
  unpacked ones: with one seed, a packed and an unpacked environment play the same games.

``TripoleyEnvPool`` takes the same arguments and cuts the tables into batches of
``batch_size``, stepped asynchronously as EnvPool's are: ``recv()`` gives a batch ready,
``send(actions, env_id)`` sends its actions, and ``threads`` threads step the batches sent
while your policy chooses for another. No thread waits for another, nor for the policy:

>>> from tripoley.vector import TripoleyEnvPool
>>> pool = TripoleyEnvPool(num_envs=2048, batch_size=512, threads=2, opponents="self", packed=True)
>>> pool.async_reset(seed=1)
>>> for _ in range(1000):
...     obs, rewards, terminated, truncated, infos = pool.recv()   # one batch's rows
...     pool.send(pool.sample_actions(infos["action_mask"]), infos["env_id"])

* A batch's rows are the same as ``TripoleyVectorEnv``'s rows of those tables would be: with
  the same seed, table ``i`` deals the same games, and the same actions play the same.
  ``infos["env_id"]`` holds the batch's tables (``batch_size`` in a row, from a multiple of
  it).
* Which batch ``recv`` gives depends on which thread finishes first: keep a policy's state
  per table (``env_id``), not per call.
* ``recv`` returns views of arrays made once; a batch's views hold its rows until you send its
  actions and receive it again.
* ``threads`` defaults to the machine's idle cores (``free_cores()``: the cores this process
  may use less the load average, at least 1); more threads than idle cores only wait for one.
  Use ``num_envs`` = 2 x ``threads`` x ``batch_size``: a batch for each thread to step and one
  for each to wait, so none waits for your policy.
"""

from __future__ import annotations

import json
import os
import random
from typing import Any, Optional, Sequence, Union

import numpy as np

from . import TripoleyError, _missing_extra, _rules_json, _seed, _tripoley

try:
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
except ImportError as error:  # the extra's library is missing
    raise _missing_extra(__name__, "gymnasium", error) from error

__all__ = ["TripoleyEnvPool", "TripoleyVectorEnv", "free_cores"]

def free_cores() -> int:
    """The cores this process may run on that the machine's other work leaves idle: the
    cores it is allowed (``os.sched_getaffinity``, else every core) less the last minute's
    load average, rounded, at least 1. The pool's threads default to it: a thread more than
    the idle cores waits for a core, and on a busy machine two threads ran at 0.55x to 0.92x
    of one (issue 51)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # no affinity on this platform (macOS, Windows)
        cores = os.cpu_count() or 1
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # no load average (Windows)
        load = 0.0
    return max(1, min(cores, round(cores - load)))


# The types an observation is written in (see the module's notes).
_OBS_DTYPES = (np.dtype(np.float32), np.dtype(np.uint16), np.dtype(np.uint8))


class _Batched:
    """What the vector environment and the pool share: the tables' arguments, the rows'
    types and spaces, the arrays written at every step, and unpacking packed rows."""

    def __init__(self, num_envs: int, preset: Union[str, dict, None], players: int,
                 opponents: Union[str, Sequence[str]], seat: int, threads: int, max_steps: int,
                 illegal_reward: float, bot_playouts: int, seed: int,
                 obs_dtype: Union[str, type, np.dtype, None], packed: bool, next_step: bool):
        self_play = opponents == "self"
        if self_play:
            kinds: list = []
        elif isinstance(opponents, str):
            kinds = [opponents] * (players - 1)
        else:
            kinds = list(opponents)
        self._args = (_rules_json(preset), players, num_envs, kinds)
        self._options = dict(seat=None if self_play else seat, threads=threads,
                             max_steps=max_steps, illegal_reward=illegal_reward,
                             bot_playouts=bot_playouts, packed=bool(packed),
                             next_step=next_step)
        self._seeds = random.Random(_seed(seed))
        dtype = np.dtype(obs_dtype or ("uint8" if packed else "float32"))
        if dtype not in _OBS_DTYPES:
            raise ValueError(f"obs_dtype must be float32, uint16 or uint8, not {dtype}")
        if packed and dtype != np.uint8:
            raise ValueError(f"packed rows are bytes: obs_dtype must be uint8 (or left out), "
                             f"not {dtype}")
        self.packed = bool(packed)
        # The sizes of rows, from one table (whichever kind of environment this is).
        probe = _tripoley.VecTables(self._args[0], players, 1, kinds, **self._options)
        self.num_envs = num_envs
        n_obs, n_actions = probe.observation_size, probe.num_actions
        self._card_bits = probe.card_plane_numbers
        self.single_action_space = spaces.Discrete(n_actions)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, n_actions))
        high = np.inf if dtype == np.float32 else np.iinfo(dtype).max
        self.single_observation_space = spaces.Box(0, high, (n_obs,), dtype)
        self.observation_space = spaces.Box(0, high, (num_envs, n_obs), dtype)
        self._obs = np.zeros((num_envs, n_obs), dtype)
        self._masks = np.zeros((num_envs, probe.mask_size), np.uint8 if packed else np.int8)
        self._self_play = self_play
        self._rewards = np.zeros((num_envs, players) if self_play else num_envs, np.float32)
        self._to_play = np.full(num_envs, 0 if self_play else seat, np.uint8)
        self._terminated = np.zeros(num_envs, bool)
        self._truncated = np.zeros(num_envs, bool)
        self._illegal = np.zeros(num_envs, bool)
        # Rows whose game ended at the last step and is dealt at the next (NEXT_STEP).
        self._finished = np.zeros(num_envs, bool)

    def _new_tables(self) -> Any:
        """New tables, dealt from the next seed of the environment's generator."""
        return _tripoley.VecTables(*self._args, seed=self._seeds.getrandbits(64), **self._options)

    def sample_actions(self, masks: np.ndarray) -> np.ndarray:
        """A uniformly random legal action per row of ``masks`` (``infos["action_mask"]``,
        packed when the environment packs), drawn in Rust: the random policy at the cost of
        reading the masks once. A row with no legal action is refused, unless its game has
        just ended (its action is ignored: it gets -1)."""
        actions = np.empty(len(masks), np.int64)
        self._tables.sample_actions(np.ascontiguousarray(masks, dtype=self._masks.dtype),
                                    actions)
        stuck = (actions < 0) & ~self._finished[:len(actions)]
        if stuck.any():
            raise TripoleyError(f"row {int(np.flatnonzero(stuck)[0])} of the masks has no "
                                f"legal action")
        return actions

    def unpack_observations(self, rows: np.ndarray) -> np.ndarray:
        """Packed observation rows (``packed=True``; any leading shape) as the uint8
        observations an unpacked environment writes, number for number."""
        rows = np.asarray(rows, np.uint8)
        planes = self._card_bits // 52
        cut = 8 * planes
        # A plane is 64 bits, four suits of 16 whose first 13 are the ranks.
        bits = np.unpackbits(rows[..., :cut], axis=-1, bitorder="little")
        suits = bits.reshape(*rows.shape[:-1], 4 * planes, 16)[..., :13]
        cards = suits.reshape(*rows.shape[:-1], self._card_bits)
        return np.concatenate([cards, rows[..., cut:]], axis=-1)

    def unpack_masks(self, masks: np.ndarray) -> np.ndarray:
        """Packed masks (``packed=True``; any leading shape) as int8 masks of 0 and 1."""
        n_actions = self.single_action_space.n
        bits = np.unpackbits(np.asarray(masks, np.uint8), axis=-1, count=n_actions,
                             bitorder="little")
        return bits.view(np.int8)

    def record(self, i: int) -> dict:
        """Table ``i``'s game so far (the engine's record, replayable in Rust)."""
        return json.loads(self._tables.record(i))


class TripoleyVectorEnv(_Batched, VectorEnv):
    """``num_envs`` tables of ``preset`` (a name, or a dict of options) with ``players`` seats;
    you at ``seat``, ``opponents`` (one kind, or one per other seat) at the others, or with
    ``opponents="self"`` you at every seat."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs: int = 1024, preset: Union[str, dict, None] = "pagat",
                 players: int = 4, opponents: Union[str, Sequence[str]] = "heuristic",
                 seat: int = 0, threads: int = 1, max_steps: int = 10_000,
                 illegal_reward: float = -1.0, bot_playouts: int = 50, seed: int = 0,
                 obs_dtype: Union[str, type, np.dtype, None] = None, packed: bool = False,
                 autoreset_mode: AutoresetMode = AutoresetMode.NEXT_STEP):
        if autoreset_mode not in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP):
            raise TripoleyError(f"autoreset_mode must be NEXT_STEP or SAME_STEP, "
                                f"not {autoreset_mode!r}")
        # The tables always deal at the next step; SAME_STEP deals at once after keeping
        # the finished games' last rows (see step).
        super().__init__(num_envs, preset, players, opponents, seat, threads, max_steps,
                         illegal_reward, bot_playouts, seed, obs_dtype, packed, True)
        self.metadata = {**type(self).metadata, "autoreset_mode": autoreset_mode}
        self._tables = self._new_tables()
        # SAME_STEP's final rows (see _final_infos), made at the first game's end.
        self._final: Optional[tuple[np.ndarray, ...]] = None
        # bot_actions' randomness when given no seed (apart from the deals' generator).
        self._teacher_seeds = random.Random(0)

    def bot_actions(self, kind: str = "expert", seed: Optional[int] = None) -> np.ndarray:
        """The integer our bot of ``kind`` ("random", "heuristic" or "expert", with the
        environment's ``bot_playouts``) would play now at each table, for the seat whose row
        it is: a teacher's label on your own positions, for imitation (DAgger). A pick of a
        poker five is the bot's next card of the five it would choose. A table whose game has
        just ended or was cut (dealt at its next step) gets -1. The bot's randomness comes
        from ``seed`` (else from a generator of its own), never from the tables' nor from the
        deals': asking changes no game. ``TripoleyVectorEnv`` only (not the pool)."""
        actions = np.empty(self.num_envs, np.int64)
        seed = _seed(seed)
        if seed is None:
            seed = self._teacher_seeds.getrandbits(64)
        self._tables.bot_actions(kind, actions, seed)
        return actions

    def _infos(self) -> dict[str, Any]:
        """A step's infos: a dict of its own (wrappers add keys to it, such as
        ``RecordEpisodeStatistics``'s ``episode``), holding the arrays made once."""
        return {"action_mask": self._masks, "illegal": self._illegal, "to_play": self._to_play}

    def reset(self, *, seed: Optional[int] = None,
              options: Optional[dict] = None) -> tuple[np.ndarray, dict[str, Any]]:
        """New games at every table, dealt from ``seed`` (else from the environment's own
        generator, which the last seed given seeded: as Gymnasium's)."""
        seed = _seed(seed)
        if seed is not None:
            self._seeds = random.Random(seed)
        self._tables = self._new_tables()
        self._tables.observe(self._obs, self._masks)
        self._tables.to_play(self._to_play)
        self._illegal[:] = False
        self._finished[:] = False
        return self._obs, self._infos()

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        """Plays one action per table (integers: anything else is refused, never cast). Under
        NEXT_STEP a game's last step shows its last row, and the table's next step deals the
        next game, its action ignored; under SAME_STEP the next game is dealt at once and
        ``infos["final_obs"]`` and ``infos["final_info"]`` keep the last rows (with
        ``"_final_obs"`` and ``"_final_info"`` saying which), as Gymnasium's own."""
        actions = np.asarray(actions)
        if not np.issubdtype(actions.dtype, np.integer):
            raise TripoleyError(f"actions must be integers, not {actions.dtype}")
        actions = np.ascontiguousarray(actions, dtype=np.int64)
        to_play = self._to_play if self._self_play else None
        self._tables.step(actions, self._rewards, self._terminated, self._truncated,
                          self._illegal, self._obs, self._masks, to_play)
        np.logical_or(self._terminated, self._truncated, out=self._finished)
        infos = self._infos()
        if self.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP and self._finished.any():
            infos.update(self._final_infos())
            self._tables.deal_finished(self._obs, self._masks, to_play)
            self._finished[:] = False
        return self._obs, self._rewards, self._terminated, self._truncated, infos

    def _final_infos(self) -> dict[str, Any]:
        """The finished games' last rows (SAME_STEP), kept before the next games are dealt,
        in Gymnasium's form: arrays of every table, the finished ones marked. Like the other
        arrays they are made once and only the finished tables' rows are written (a copy of
        every row cost more than the step itself at a thousand tables): read the marked rows."""
        if self._final is None:
            self._final = tuple(np.zeros_like(a) for a in (
                self._obs, self._masks, self._illegal, self._to_play, self._finished))
        obs, masks, illegal, to_play, done = self._final
        done[:] = self._finished
        for kept, now in ((obs, self._obs), (masks, self._masks), (illegal, self._illegal),
                          (to_play, self._to_play)):
            kept[done] = now[done]
        final = {"action_mask": masks, "illegal": illegal, "to_play": to_play}
        final.update({f"_{key}": done for key in list(final)})
        return {"final_obs": obs, "_final_obs": done, "final_info": final, "_final_info": done}


class TripoleyEnvPool(_Batched):
    """``TripoleyVectorEnv``'s tables in batches of ``batch_size``, received and sent
    asynchronously (EnvPool's ``recv``/``send``; see the module's notes)."""

    def __init__(self, num_envs: int = 2048, batch_size: int = 512,
                 preset: Union[str, dict, None] = "pagat", players: int = 4,
                 opponents: Union[str, Sequence[str]] = "heuristic", seat: int = 0,
                 threads: Optional[int] = None, max_steps: int = 10_000,
                 illegal_reward: float = -1.0, bot_playouts: int = 50, seed: int = 0,
                 obs_dtype: Union[str, type, np.dtype, None] = None, packed: bool = False):
        if not 0 < batch_size <= num_envs or num_envs % batch_size:
            raise ValueError(f"batch_size must divide num_envs ({num_envs}), not {batch_size}")
        # The idle cores, when not told: a thread beyond them only waits for a core.
        self.threads = free_cores() if threads is None else threads
        threads = self.threads
        super().__init__(num_envs, preset, players, opponents, seat, threads, max_steps,
                         illegal_reward, bot_playouts, seed, obs_dtype, packed, False)
        self.batch_size = batch_size
        self._tables: Any = None
        # Each batch's views of the arrays, made once (a receive only writes their rows).
        ids = np.arange(num_envs, dtype=np.int64)
        self._batches = []
        for first in range(0, num_envs, batch_size):
            rows = slice(first, first + batch_size)
            infos = {"env_id": ids[rows], "action_mask": self._masks[rows],
                     "illegal": self._illegal[rows], "to_play": self._to_play[rows]}
            self._batches.append((self._obs[rows], self._rewards[rows], self._terminated[rows],
                                  self._truncated[rows], infos))

    def async_reset(self, seed: Optional[int] = None) -> None:
        """New games at every table, dealt from ``seed`` (else from the pool's own generator),
        every batch ready to be received."""
        seed = _seed(seed)
        if seed is not None:
            self._seeds = random.Random(seed)
        self._tables = None  # the old pool's threads end first
        self._tables = _tripoley.VecPool(self._new_tables(), self.batch_size)

    def recv(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """A batch ready (stepped since its actions were sent, or as dealt): its observations,
        rewards, terminated and truncated, and infos (``env_id``, ``action_mask``,
        ``illegal``, ``to_play``), as ``TripoleyVectorEnv.step`` gives them for every table.
        Waits for one if none is; refused if you hold every batch (send one first)."""
        if self._tables is None:
            raise RuntimeError("call async_reset() first")
        first = self._tables.recv(self._rewards, self._terminated, self._truncated,
                                  self._illegal, self._to_play, self._obs, self._masks)
        return self._batches[first // self.batch_size]

    def send(self, actions: Any, env_id: Any) -> None:
        """Sends a batch's actions, one a table of ``env_id`` (the batch's ``infos["env_id"]``
        as received): a thread steps it while you go on."""
        if self._tables is None:
            raise RuntimeError("call async_reset() first")
        first, size = int(env_id[0]), len(env_id)
        # Its ends and length say which batch (a batch's tables are consecutive).
        if size != self.batch_size or first % size or int(env_id[-1]) != first + size - 1:
            raise ValueError("env_id must be a batch's infos['env_id'], as received")
        self._tables.send(first, np.ascontiguousarray(actions, dtype=np.int64))

    def sample_actions(self, masks: np.ndarray) -> np.ndarray:
        """A uniformly random legal action per row of ``masks`` (a batch's
        ``infos["action_mask"]``), drawn in Rust from the pool's own generator."""
        if self._tables is None:
            raise RuntimeError("call async_reset() first")
        return super().sample_actions(masks)
