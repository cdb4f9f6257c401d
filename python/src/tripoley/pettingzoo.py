"""Tripoley (and Napalm poker) as a PettingZoo AEC environment. Needs the ``pettingzoo`` extra
(``pip install 'tripoley[pettingzoo]'``: PettingZoo and Gymnasium).

>>> from tripoley.pettingzoo import raw_env
>>> e = raw_env("pagat", 4)  # env(preset="pagat", players=4): in PettingZoo's wrapper
>>> e.reset(seed=1)
>>> for agent in e.agent_iter():
...     obs, reward, done, truncated, info = e.last()
...     e.step(None if done else int(np.flatnonzero(obs["action_mask"])[0]))

* Agents ``player_0`` .. ``player_{n-1}``, one per seat; the seat to act is
  ``agent_selection`` (chance is dealt inside the environment, from the seed
  given to ``reset``).
* Actions: a fixed ``Discrete`` space (``docs/python-reference.md``): a
  card (0..52, to lead it or pick it into the poker five), the spare options,
  pass, the four suits, check, call, fold, play, withhold, then bets, raises
  and bids by amount. Choosing the poker five takes five steps, one card each,
  in increasing card order; the mask shows exactly what may come next.
* Observations: ``{"observation": float32 vector, "action_mask": int8 vector}``
  built from the seat's own view only (own hand, known cards per seat, cards
  played, layout, stacks, betting, auction, stage), seats counted from the
  observer. The mask is all zero except for the seat to act. Each agent has
  one observation dict whose arrays each ``observe``/``last`` writes again in
  place (no allocation per step): copy an observation to keep it past the
  next ``observe`` of the same agent. Agents never share arrays.
* Rewards: chips, at the end of each deal: the change in each stack since the
  previous deal ended (so the antes of the next deal, paid at once, count in
  the deal that just ended); over a game they add up to chips won or lost.
  Napalm pays at the end of each hand.
* Illegal actions raise :class:`tripoley.TripoleyError` with the engine's message.
* :func:`env` is PettingZoo's convention, the environment in its
  ``OrderEnforcingWrapper``; :class:`raw_env` is the same environment unwrapped,
  its per-step methods in Rust: the fast path, about six times faster (the
  wrapper's Python ``__getattr__`` costs more than a whole step).
"""

from __future__ import annotations

import random as _random
from typing import Optional, Union

import numpy as np

from . import _missing_extra, _rules_json, _seed, _tripoley

try:
    import gymnasium
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as error:  # the extra's library is missing
    raise _missing_extra(__name__, "pettingzoo", error) from error

from ._tripoley import TripoleyError

__all__ = ["env", "napalm_env", "raw_env"]


def env(preset: str = "pagat", players: int = 4, rules: Optional[dict] = None,
        render_mode: Optional[str] = None) -> AECEnv:
    """Tripoley: ``preset`` with any options of ``rules`` changed, ``players`` seats,
    in PettingZoo's order-enforcing wrapper (:func:`raw_env` is the fast path)."""
    return _wrap(raw_env(_tripoley_rules(preset, rules), players, render_mode=render_mode))


def napalm_env(players: int = 3, rules: Optional[dict] = None,
               render_mode: Optional[str] = None) -> AECEnv:
    """Napalm poker: two actions (0 says yes, 1 says no), ``players`` seats (2-7)."""
    return _wrap(raw_env(dict(rules or {}), players, napalm=True, render_mode=render_mode))


def _tripoley_rules(preset: str, rules: Optional[dict]) -> dict:
    spec = dict(rules or {})
    spec.setdefault("preset", preset)
    return spec


def _wrap(e: AECEnv) -> AECEnv:
    # No AssertOutOfBoundsWrapper: the engine refuses any integer that is not
    # legal, out of bounds or not, with a message.
    return wrappers.OrderEnforcingWrapper(e)


class raw_env(_tripoley.Aec, AECEnv):
    """The environment without PettingZoo's checking wrappers: the fast path.

    ``step``, ``last``, ``observe`` and ``agent_iter`` are the Rust methods of
    :class:`tripoley._tripoley.Aec`, which keeps ``agents``, ``agent_selection``,
    ``rewards``, ``terminations``, ``truncations`` and ``infos`` (the same dicts
    PettingZoo's protocol reads, updated in place) and each agent's observation
    arrays (written in place at each ``observe``). Stepping before ``reset`` or
    with an illegal action raises :class:`tripoley.TripoleyError`.

    ``raw_env(preset_or_rules, players)``: rules as a preset name or a dict of
    options (Napalm's options with ``napalm=True``).
    """

    metadata = {
        "render_modes": ["human", "ansi"],
        "name": "tripoley_v0",
        "is_parallelizable": False,
    }

    def __init__(self, rules: Union[str, dict, None] = "pagat", players: int = 4,
                 napalm: bool = False, render_mode: Optional[str] = None):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self._init_args = (rules, players, napalm, render_mode)
        agents, n_actions, n_obs = self._configure(_rules_json(rules, napalm), players, napalm,
                                                   render_mode == "human")
        if napalm:
            self.metadata = dict(self.metadata, name="napalm_v0")
        self.render_mode = render_mode
        self.possible_agents = agents
        self.action_spaces = {a: spaces.Discrete(n_actions) for a in agents}
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(low=0.0, high=np.inf, shape=(n_obs,), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(n_actions,), dtype=np.int8),
            })
            for a in agents
        }

    def observation_space(self, agent: str) -> gymnasium.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.Space:
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        """A new game dealt from ``seed`` (random if None). The first deal's antes are
        paid as the table is made: they count in that deal's reward. A game in which no
        player would ever have a choice (``cosmo`` deals some: every play forced) is dealt
        again from a seed drawn from ``seed``, as no agent may be finished at ``reset``.

        Seeds behave as Gymnasium's: ``reset(seed=s)`` also seeds the environment's own
        generator, from which every later ``reset()`` draws its game, so a run seeded once
        is reproducible; the first ``reset()`` without any seed seeds it from the system."""
        seed = _seed(seed)
        if seed is not None:
            self._seeds = _random.Random(seed)
        elif getattr(self, "_seeds", None) is None:
            self._seeds = _random.Random()
        if seed is None:
            seed = self._seeds.getrandbits(64)
        self._restart(seed)

    def __reduce__(self) -> tuple:
        """Copies (``copy.deepcopy``) and pickles: the environment is made again from its
        arguments, then given the game, the protocol's dicts and the seed generator."""
        try:
            snapshot = self._snapshot()
        except TripoleyError:
            snapshot = None  # not reset yet
        return (_rebuild, (type(self), self._init_args, snapshot, getattr(self, "_seeds", None)))

    def render(self) -> Optional[str]:
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        try:
            table = self._table
        except TripoleyError:
            return None  # not reset yet: nothing to show
        seat = table.current()
        text = table.render(seat if seat >= 0 else None)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def record(self) -> str:
        """The game so far as a JSON record, replayable in Rust (``tripoley replay``)."""
        return self._table.record()

    def close(self) -> None:
        pass


def _rebuild(cls: type, init_args: tuple, snapshot: Optional[tuple],
             seeds: Optional[_random.Random]) -> "raw_env":
    """An environment of ``cls`` from what :meth:`raw_env.__reduce__` kept."""
    e = cls(*init_args)
    if snapshot is not None:
        e._restore(snapshot)
    e._seeds = seeds
    return e
