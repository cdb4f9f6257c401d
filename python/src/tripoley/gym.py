"""Tripoley (or Napalm poker) as a Gymnasium single-agent environment: you at one seat,
our bots at the others. Needs the ``gymnasium`` extra (``pip install 'tripoley[gymnasium]'``).

>>> import gymnasium, tripoley.gym
>>> env = gymnasium.make("tripoley/Tripoley-v0", preset="pagat", players=4, opponents="heuristic")
>>> obs, info = env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.step(int(obs["action_mask"].argmax()))

* Observations: ``{"observation": float32 vector, "action_mask": int8 vector}``, the seat's
  own view as in :mod:`tripoley.pettingzoo`; :meth:`TripoleyEnv.action_masks` gives the mask
  too (the method sb3-contrib's ``MaskablePPO`` calls).
* Actions: the fixed ``Discrete`` space of :class:`tripoley.Table` (a poker five is picked one
  card per step). An action the mask forbids changes nothing: it earns ``illegal_reward``
  (-1 chip by default) and ``info["illegal"]`` is True, so a learner is told, and random
  actions (Gymnasium's ``check_env``) never break the game.
* Rewards: chips, the change in your stack since your previous step (the bots' moves in
  between included): over a game they add up to what you won or lost.
* The episode terminates when the game is over and is truncated after ``max_steps`` of your
  steps. The bots play inside ``step`` and ``reset`` until it is your turn; their randomness
  comes from the table's own stream, so a seeded episode is reproducible.
"""

from __future__ import annotations

import operator
from typing import Any, Optional, Sequence, Union

import numpy as np

from . import Bot, Table, TripoleyError, _missing_extra, _seed

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as error:  # the extra's library is missing
    raise _missing_extra(__name__, "gymnasium", error) from error

__all__ = ["TripoleyEnv"]

#: Games dealt at most by one ``reset`` looking for one in which you have a choice.
_MAX_DEALS_AGAIN = 1000


def _integer_action(action: Any) -> int:
    """``action`` as an integer (Python's, NumPy's, a 0-d integer array), never cast: a float
    or a string is refused. Any integer is an action here: one the mask forbids, negative
    ones included, earns the illegal reward."""
    if isinstance(action, (bool, np.bool_)):
        raise TripoleyError(f"an action is an integer, not {action!r}")
    try:
        return operator.index(action)
    except TypeError:
        raise TripoleyError(f"an action is an integer, not {action!r}") from None


class TripoleyEnv(gymnasium.Env):
    """You at ``seat`` against ``opponents`` (one bot kind for every other seat, or one per
    other seat in seat order): ``random``, ``heuristic``, ``expert`` (Napalm: random,
    heuristic). ``preset``: a preset name or a dict of options (Napalm's with ``napalm``);
    None is ``pagat``, or Napalm's defaults."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, preset: Union[str, dict, None] = None, players: int = 4,
                 opponents: Union[str, Sequence[str]] = "heuristic", seat: int = 0,
                 napalm: bool = False, max_steps: int = 10_000, illegal_reward: float = -1.0,
                 bot_playouts: Optional[int] = 50, render_mode: Optional[str] = None):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        if not 0 <= seat < players:
            raise ValueError(f"seat must be one of 0..{players - 1}")
        if max_steps < 1:
            raise ValueError("max_steps must be at least 1")
        kinds = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(kinds) != players - 1:
            raise ValueError(f"{players - 1} opponents needed, {len(kinds)} given")
        self._rules = preset  # None: pagat, or Napalm's defaults
        self._napalm = napalm
        self._players = players
        self._seat = seat
        self._max_steps = max_steps
        self._illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        probe = Table(self._rules, players, seed=0, napalm=napalm)
        others = [s for s in range(players) if s != seat]
        self._bots = {s: Bot(kind, self._rules, napalm=napalm,
                             playouts=bot_playouts if kind == "expert" else None)
                      for s, kind in zip(others, kinds)}
        self.action_space = spaces.Discrete(probe.num_actions)
        self.observation_space = spaces.Dict({
            # Chips, counts and 0/1 planes: bounded by every chip at the table.
            "observation": spaces.Box(0.0, float(probe.starting_chips * players + 52),
                                      (probe.observation_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (probe.num_actions,), np.int8),
        })
        self._table: Optional[Table] = None

    def reset(self, *, seed: Optional[int] = None,
              options: Optional[dict] = None) -> tuple[dict, dict]:
        """A new game, dealt from the environment's generator (seeded by ``seed``, as
        Gymnasium's), the bots playing until it is your turn. A game that ends before you
        have a choice is dealt again."""
        super().reset(seed=_seed(seed))
        for _ in range(_MAX_DEALS_AGAIN):
            self._table = Table(self._rules, self._players,
                                seed=int(self.np_random.integers(0, 2 ** 63)),
                                napalm=self._napalm)
            self._stack = self._table.starting_chips
            self._steps = 0
            self._plans: dict[int, list[int]] = {}
            self._bots_play()
            if self._table.current() == self._seat:
                return self._observe(), {}
        raise TripoleyError(f"you had no choice to make in {_MAX_DEALS_AGAIN} games")

    def step(self, action: Any) -> tuple[dict, float, bool, bool, dict]:
        table = self._require_table()
        if table.current() != self._seat:
            raise TripoleyError("the episode is over: reset() the environment")
        self._steps += 1
        truncated = self._steps >= self._max_steps
        a = _integer_action(action)
        if not (0 <= a < self.action_space.n and table.mask()[a]):
            return self._observe(), self._illegal_reward, False, truncated, {"illegal": True}
        table.step(a)
        self._bots_play()
        stack = table.stacks()[self._seat]
        reward = float(stack - self._stack)
        self._stack = stack
        terminated = table.current() == Table.TERMINAL
        return self._observe(), reward, terminated, truncated and not terminated, {"illegal": False}

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as booleans."""
        table = self._require_table()
        if table.current() != self._seat:
            return np.zeros(self.action_space.n, bool)
        return table.mask().astype(bool)

    def render(self) -> Optional[str]:
        if self.render_mode is None or self._table is None:
            return None
        return self._table.render(self._seat)

    def _require_table(self) -> Table:
        if self._table is None:
            raise TripoleyError("reset() the environment first")
        return self._table

    def _bots_play(self) -> None:
        """The bots' moves until it is your turn or the game is over."""
        table = self._require_table()
        while 0 <= (seat := table.current()) != self._seat:
            plan = self._plans.get(seat)
            if not (plan and table.mask()[plan[0]]):
                plan = self._plans[seat] = self._bots[seat].steps(table)
            table.step(plan.pop(0))

    def _observe(self) -> dict:
        table = self._require_table()
        mask = (table.mask() if table.current() == self._seat
                else np.zeros(self.action_space.n, np.int8))
        return {"observation": table.observation(self._seat), "action_mask": mask}


gymnasium.register("tripoley/Tripoley-v0", entry_point="tripoley.gym:TripoleyEnv")
