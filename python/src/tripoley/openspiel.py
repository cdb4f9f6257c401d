"""Tripoley and Napalm poker as OpenSpiel games (``python_tripoley``, ``python_napalm``).
Needs the ``openspiel`` extra (``pip install 'tripoley[openspiel]'``).

Importing this module registers both games with ``pyspiel``:

>>> import pyspiel, tripoley.openspiel
>>> game = pyspiel.load_game("python_tripoley", {"preset": "michigan-casino", "players": 4})

Parameters of ``python_tripoley``: ``preset`` (a preset name), ``players``, and
``rules`` (a JSON object of options changed from the preset, e.g.
``'{"deals": 1}'``). ``python_napalm``: ``players`` and ``rules``.

* Chance deals the deck card by card from the top (51 chance nodes a deck, each
  card not yet dealt equally likely), then under ``cosmo`` the pay suit and the
  Sequence. Everything after that is the engine's.
* Actions are the fixed integer space of :class:`tripoley.Table` (the poker five
  is picked one card per step).
* Information state and observation (strings and tensors) come from the seat's
  view, which holds what the seat has seen of this deal and the public state of
  the game; it is not a full history of every past bet, so it does not have
  perfect recall. ``resample_from_infostate`` deals every card hidden from the
  seat again with the engine's information-set sampling (Tripoley and Napalm), for
  OpenSpiel's Python ISMCTS; the sampled state's ``history()`` plays it from the
  initial state. (Its C++ ``ISMCTSBot`` cannot use it: pyspiel does
  not forward ``ResampleFromInfostate`` from C++ to a Python state.)
* Returns are chips won or lost over the game: zero-sum, as the layout is paid
  out by the end, except under rules that keep its last chips for nobody
  (``final_pot = "keep"``, as ``cosmo``), which are general-sum.
"""

from __future__ import annotations

import json
import random
from typing import Any, NamedTuple, Optional

import numpy as np

from . import CARDS, _missing_extra, _rules_json, _tripoley

try:
    import pyspiel
except ImportError as error:  # the extra's library is missing
    raise _missing_extra(__name__, "openspiel", error) from error
from ._tripoley import TripoleyError

__all__ = ["EngineBot", "NapalmGame", "PlayerAction", "TripoleyGame", "TripoleyState"]

_DECK = 52


def _game_type(short_name: str, long_name: str, min_players: int, max_players: int,
               params: dict, general_sum: bool = False) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(pyspiel.GameType.Utility.GENERAL_SUM if general_sum
                 else pyspiel.GameType.Utility.ZERO_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players,
        min_num_players=min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


_TRIPOLEY_TYPE = _game_type("python_tripoley", "Tripoley (Python binding of the Rust engine)",
                            2, 9, {"preset": "pagat", "players": 4, "rules": "{}"})
_NAPALM_TYPE = _game_type("python_napalm", "Napalm poker (Python binding of the Rust engine)",
                          2, 7, {"players": 3, "rules": "{}"})


class _IntegerGame(pyspiel.Game):
    """A game whose states are :class:`tripoley.Table` with chance drawn from outside."""

    def __init__(self, game_type: pyspiel.GameType, params: Optional[dict], napalm: bool):
        params = dict(game_type.parameter_specification, **(params or {}))
        options = json.loads(params["rules"]) if params["rules"] else {}
        if not isinstance(options, dict):
            raise TripoleyError("rules must be a JSON object of options")
        if not napalm:
            options.setdefault("preset", params["preset"])
        self._rules_json = _rules_json(options, napalm)
        self._napalm = napalm
        players = int(params["players"])
        # Every new state is a copy of this one (C++ Clone makes a new state
        # first, then copies the old one's table into it).
        self._initial = _tripoley.Table(self._rules_json, players, None, napalm)
        probe = self._initial
        start = probe.starting_chips
        self._observation_size = probe.observation_size
        # Zero-sum unless the rules keep the layout's last chips for nobody (E2 `keep`).
        zero_sum = napalm or json.loads(
            _tripoley.rules_json(self._rules_json))["final_pot"] != "keep"
        if not zero_sum:
            game_type = _game_type(game_type.short_name, game_type.long_name,
                                   game_type.min_num_players, game_type.max_num_players,
                                   game_type.parameter_specification, general_sum=True)
        info = pyspiel.GameInfo(
            num_distinct_actions=probe.num_actions,
            max_chance_outcomes=_DECK,
            num_players=players,
            min_utility=-float(start),
            max_utility=float(start * (players - 1)),
            utility_sum=0.0 if zero_sum else None,
            max_game_length=probe.max_length,
        )
        super().__init__(game_type, info, params)

    def new_initial_state(self) -> "TripoleyState":
        return TripoleyState(self, self._initial.clone())

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "_Observer":
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        return _Observer(self._observation_size, self.num_players(), iig_obs_type)


class TripoleyGame(_IntegerGame):
    """``python_tripoley``: parameters ``preset``, ``players``, ``rules`` (JSON options)."""

    def __init__(self, params: Optional[dict] = None):
        super().__init__(_TRIPOLEY_TYPE, params, napalm=False)


class NapalmGame(_IntegerGame):
    """``python_napalm``: parameters ``players``, ``rules`` (JSON options)."""

    def __init__(self, params: Optional[dict] = None):
        super().__init__(_NAPALM_TYPE, params, napalm=True)


class PlayerAction(NamedTuple):
    """One entry of :meth:`TripoleyState.full_history` (pyspiel's ``PlayerAction``
    has no constructor in Python): who acted (-1 for chance) and the action."""

    player: int
    action: int


class TripoleyState(pyspiel.State):
    """A state: a table in integers, chance drawn by OpenSpiel.

    Every method is one call into Rust. The first group is what pyspiel's C++
    calls back (through its trampolines, so they must be Python functions);
    the second answers Python callers directly instead of going through C++:
    each call from C++ back into Python costs about a microsecond, and
    pyspiel's ``ApplyAction`` makes two, ``LegalActions`` five, ``Clone``
    goes through ``new_initial_state`` and ``copy.deepcopy``. So moves made
    from Python (``apply_action``, ``child``) never pass through C++, and
    the history is the table's: ``history()``, ``full_history()``,
    ``history_str()``, ``move_number()`` and ``is_initial_state()`` answer
    from it, for moves made from Python or from C++ alike. (pyspiel's C++
    methods read a history of their own, which holds only the moves made
    through C++: call these methods, not ``pyspiel.State.history(state)``.)
    The state's only attribute is its table, which C++ ``Clone`` deep-copies.
    """

    def __init__(self, game: _IntegerGame, table: Any):
        super().__init__(game)
        self._table = table

    # Called back from C++ (and from Python).
    def current_player(self) -> int:
        return self._table.current()  # OpenSpiel's ids: a seat, -1 chance, -4 terminal

    def _legal_actions(self, player: int) -> list[int]:
        return self._table.legal()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._table.chance_pairs()

    def _apply_action(self, action: int) -> None:
        self._table.apply(action)

    def is_terminal(self) -> bool:
        return self._table.is_over()

    def returns(self) -> list[float]:
        return self._table.returns()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._table.chance_progress() < _DECK - 1:
                return f"deal {CARDS[action]}"
            if len(self._table.chance_outcomes()) == 4:
                return f"pay suit {['clubs', 'diamonds', 'hearts', 'spades'][action]}"
            return f"Sequence from {CARDS[action][:-1]}"
        return self._table.describe(action)

    def __str__(self) -> str:
        return self._table.render(None)

    # Answered in Python: the same results as pyspiel's C++, without its round trips.
    def legal_actions(self, player: Optional[int] = None) -> list[int]:
        return self._table.legal_actions(player)

    def is_chance_node(self) -> bool:
        return self._table.is_chance()

    def apply_action(self, action: int) -> None:
        self._table.apply(action)

    def clone(self) -> "TripoleyState":
        return TripoleyState(self.get_game(), self._table.clone())

    def child(self, action: int) -> "TripoleyState":
        state = self.clone()
        state._table.apply(action)
        return state

    def history(self) -> list[int]:
        return self._table.history()

    def full_history(self) -> list[PlayerAction]:
        return [PlayerAction(p, a) for p, a in self._table.full_history()]

    def history_str(self) -> str:
        return ", ".join(map(str, self._table.history()))

    def move_number(self) -> int:
        return self._table.moves()

    def is_initial_state(self) -> bool:
        return self._table.moves() == 0

    def information_state_string(self, player: Optional[int] = None) -> str:
        """What ``player`` knows (the player to act if None: there is none at chance or at
        the end, where this raises ``pyspiel.SpielError`` as OpenSpiel's own games do)."""
        if player is None:
            player = self._table.current()
        if player < 0:
            raise pyspiel.SpielError(f"information state of player {player}: player >= 0 needed")
        return self._table.information(player)

    observation_string = information_state_string

    def information_state_tensor(self, player: Optional[int] = None) -> np.ndarray:
        """What ``player`` (the player to act if None) knows, as a new float32 array written
        by Rust: a tenth of the time of pyspiel's own, which builds a list of Python floats.
        (An array where OpenSpiel gives a list: ``np.asarray`` and indexing work alike.)"""
        if player is None:
            player = self._table.current()
        if player < 0:
            raise pyspiel.SpielError(f"information state of player {player}: player >= 0 needed")
        tensor = np.empty(self.get_game()._observation_size, np.float32)
        self._table.observe_into_array(player, tensor)
        return tensor

    observation_tensor = information_state_tensor

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> "TripoleyState":
        """A state ``player_id`` cannot tell from this one, hidden cards dealt again, with a
        history of its own that plays it from the initial state: the sampled deal as chance's
        draws, the others' hidden choices made again (see the README). Where no sample replays
        (rare, under M9), the engine's sample alone: as far into the game (``move_number``),
        its ``history()`` the moves made since."""
        seed = int(probability_sampler() * (1 << 53))
        return TripoleyState(self.get_game(), self._table.resample(player_id, seed))

    def record(self) -> str:
        """The game so far as a JSON record, replayable in Rust."""
        return self._table.record()


class EngineBot(pyspiel.Bot):
    """One of our bots (``random``, ``heuristic``, ``expert``; Napalm: random, heuristic) as an
    OpenSpiel bot for these games. It decides from the seat's information set only; a poker
    five it chooses is played as its picks, one per step."""

    def __init__(self, game: _IntegerGame, kind: str, millis: Optional[int] = None,
                 playouts: Optional[int] = None, seed: int = 0):
        pyspiel.Bot.__init__(self)
        self._bot = _tripoley.Bot(kind, game._rules_json, game._napalm, millis, playouts)
        self._rng = random.Random(seed)
        self._plan: list[int] = []

    def restart_at(self, state: TripoleyState) -> None:
        self._plan = []

    def inform_action(self, state: TripoleyState, player_id: int, action: int) -> None:
        pass

    def step(self, state: TripoleyState) -> int:
        # The rest of a five already chosen, while it is still what may be picked.
        if not (self._plan and self._plan[0] in state.legal_actions()):
            self._plan = list(self._bot.steps(state._table, self._rng.getrandbits(63)))
        return self._plan.pop(0)


class _Observer:
    """What a player observes, of the type OpenSpiel asks for (``pyspiel.IIGObservationType``):
    the public part (what a spectator sees, laid out from the player's seat) if
    ``public_info``; the private part (what the player sees beyond it) for
    ``PrivateInfoType.SINGLE_PLAYER``, or every player's in turn for ``ALL_PLAYERS``; nothing
    private for ``NONE``. As a tensor each part is an observation vector (the private part:
    the player's numbers where they differ from the public ones), the parts side by side,
    except that public and private together (the information state) are the player's whole
    observation, written straight from Rust into the tensor; as text the view's fields. ``perfect_recall`` changes nothing: the seat's view holds
    this deal and the public state, not every past bet (see the module's notes), so the
    information state is that view, not a perfect-recall history."""

    def __init__(self, size: int, players: int, iig_obs_type: Any = None):
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        private = kind.private_info
        self._public = kind.public_info
        self._private = ([] if private == pyspiel.PrivateInfoType.NONE else
                         ["all"] if private == pyspiel.PrivateInfoType.ALL_PLAYERS else ["own"])
        self._players = players
        self._size = size
        # Public and own private info: one part, the whole observation.
        self._whole = self._public and self._private == ["own"]
        parts = 1 if self._whole else int(self._public) + (
            players if self._private == ["all"] else len(self._private))
        self.tensor = np.zeros(size * parts, np.float32)
        self.dict = {"observation": self.tensor}

    def _seats(self, player: int) -> list[int]:
        if self._private == ["all"]:
            return list(range(self._players))
        return [player] if self._private else []

    def set_from(self, state: TripoleyState, player: int) -> None:
        table, size = state._table, self._size
        if self._whole:
            table.observe_into_array(player, self.tensor)
            return
        public = np.frombuffer(table.public_observation(player), dtype="<f4")
        at = 0
        if self._public:
            self.tensor[:size] = public
            at = size
        for seat in self._seats(player):
            own = np.frombuffer(table.observation(seat), dtype="<f4")
            base = public if seat == player else np.frombuffer(table.public_observation(seat),
                                                               dtype="<f4")
            self.tensor[at:at + size] = np.where(own != base, own, 0.0)
            at += size

    def string_from(self, state: TripoleyState, player: int) -> str:
        table = state._table
        if self._public and self._private == ["own"]:
            return table.information(player)  # the information state string
        public = json.loads(table.view(None))
        parts = []
        if self._public:
            parts.append("public " + json.dumps(public, sort_keys=True))
        for seat in self._seats(player):
            own = json.loads(table.view(seat))
            private = {k: v for k, v in own.items() if public.get(k) != v and k != "seat"}
            picked = table.picked() if table.current() == seat else []
            parts.append(f"private {seat} " + json.dumps(private, sort_keys=True)
                         + f"|picked {picked}")
        return "\n".join(parts)


pyspiel.register_game(_TRIPOLEY_TYPE, TripoleyGame)
pyspiel.register_game(_NAPALM_TYPE, NapalmGame)
