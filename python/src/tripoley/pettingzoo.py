"""Tripoley (and Napalm poker) as a PettingZoo AEC environment.

>>> from tripoley.pettingzoo import env
>>> e = env(preset="pagat", players=4)
>>> e.reset(seed=1)
>>> for agent in e.agent_iter():
...     obs, reward, done, truncated, info = e.last()
...     e.step(None if done else int(np.flatnonzero(obs["action_mask"])[0]))

* Agents ``player_0`` .. ``player_{n-1}``, one per seat; the seat to act is
  ``agent_selection`` (chance is dealt inside the environment, from the seed
  given to ``reset``).
* Actions: a fixed ``Discrete`` space (see ``docs`` in ``python/README.md``): a
  card (0..52, to lead it or pick it into the poker five), the spare options,
  pass, the four suits, check, call, fold, play, withhold, then bets, raises
  and bids by amount. Choosing the poker five takes five steps, one card each,
  in increasing card order; the mask shows exactly what may come next.
* Observations: ``{"observation": float32 vector, "action_mask": int8 vector}``
  built from the seat's own view only (own hand, known cards per seat, cards
  played, layout, stacks, betting, auction, stage), seats counted from the
  observer. The mask is all zero except for the seat to act.
* Rewards: chips, at the end of each deal: the change in each stack since the
  previous deal ended (so the antes of the next deal, paid at once, count in
  the deal that just ended); over a game they add up to chips won or lost.
  Napalm pays at the end of each hand.
* Illegal actions raise :class:`tripoley.TripoleyError` with the engine's message.
"""

from __future__ import annotations

import random as _random
from typing import Any, Optional

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import Table, _rules_json, _tripoley

__all__ = ["env", "napalm_env", "raw_env"]


def env(preset: str = "pagat", players: int = 4, rules: Optional[dict] = None,
        render_mode: Optional[str] = None) -> AECEnv:
    """Tripoley: ``preset`` with any options of ``rules`` changed, ``players`` seats."""
    spec = dict(rules or {})
    spec.setdefault("preset", preset)
    return _wrap(raw_env(spec, players, napalm=False, render_mode=render_mode))


def napalm_env(players: int = 3, rules: Optional[dict] = None,
               render_mode: Optional[str] = None) -> AECEnv:
    """Napalm poker: two actions (0 says yes, 1 says no), ``players`` seats (2-7)."""
    return _wrap(raw_env(dict(rules or {}), players, napalm=True, render_mode=render_mode))


def _wrap(e: AECEnv) -> AECEnv:
    # No AssertOutOfBoundsWrapper: the engine refuses any integer that is not
    # legal, out of bounds or not, with a message, and the wrapper's checks
    # cost a quarter of a step.
    return wrappers.OrderEnforcingWrapper(e)


class raw_env(AECEnv):
    """The environment without PettingZoo's checking wrappers (use :func:`env`)."""

    metadata = {
        "render_modes": ["human", "ansi"],
        "name": "tripoley_v0",
        "is_parallelizable": False,
    }

    def __init__(self, rules: dict, players: int, napalm: bool = False,
                 render_mode: Optional[str] = None):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self._rules = rules
        self._napalm = napalm
        self._players = players
        self.render_mode = render_mode
        # Builds a table once to check the rules and learn the sizes.
        probe = Table(rules, players, 0, napalm=napalm)
        if napalm:
            self.metadata = dict(self.metadata, name="napalm_v0")
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self.agents = self.possible_agents[:]
        self._index = {a: s for s, a in enumerate(self.possible_agents)}
        n_actions, n_obs = probe.num_actions, probe.observation_size
        self._zero_mask = np.zeros(n_actions, dtype=np.int8)
        self.action_spaces = {a: spaces.Discrete(n_actions) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(low=0.0, high=np.inf, shape=(n_obs,), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(n_actions,), dtype=np.int8),
            })
            for a in self.possible_agents
        }
        self._table: Optional[_tripoley.Table] = None

    def observation_space(self, agent: str) -> gymnasium.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.Space:
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        if seed is None:
            seed = _random.getrandbits(64)
        self._table = _tripoley.Table(_rules_json(self._rules, self._napalm), self._players,
                                      int(seed) % (1 << 64), self._napalm)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        # The first deal's antes are paid as the table is made: they count in its reward.
        self._stacks = [self._table.starting_chips] * self._players
        self._deals = self._table.deals_done()
        self._select()

    def _select(self) -> None:
        """Points ``agent_selection`` at the seat to act; at the end, everyone is terminated."""
        current = self._table.current()
        if current >= 0:
            self.agent_selection = self.possible_agents[current]
        else:
            self.terminations = dict.fromkeys(self.agents, True)
            # After the game, agents leave one by one through dead steps.
            if self.agent_selection not in self.agents:
                self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self._index[agent]
        obs = np.frombuffer(self._table.observation(seat), dtype="<f4").copy()
        if self._table.current() == seat:
            mask = np.frombuffer(self._table.mask(), dtype=np.int8).copy()
        else:
            mask = self._zero_mask.copy()
        return {"observation": obs, "action_mask": mask}

    def step(self, action: Optional[int]) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._table.step(int(action))
        for a in self.agents:
            self.rewards[a] = 0.0
        deals = self._table.deals_done()
        over = self._table.current() < 0
        if deals != self._deals or over:
            stacks = self._table.stacks()
            for s, a in enumerate(self.possible_agents):
                self.rewards[a] = float(stacks[s] - self._stacks[s])
            self._stacks, self._deals = list(stacks), deals
        self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Optional[str]:
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        if self._table is None:
            return None
        seat = self._table.current()
        text = self._table.render(seat if seat >= 0 else None)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def record(self) -> str:
        """The game so far as a JSON record, replayable in Rust (``tripoley replay``)."""
        return self._table.record()

    def close(self) -> None:
        pass
