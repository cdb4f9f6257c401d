"""Tripoley and Napalm poker for game-AI research.

The rules are played by the project's Rust engine (exact, tested rule by
rule); this package is a thin binding. Three ways in:

* :class:`Game`: the engine's own interface, with actions, views, events and
  records as plain Python values (dicts, lists, strings).
* :class:`Table`: the same game in integers (a fixed action space with a mask,
  observations as numpy arrays), what :mod:`tripoley.pettingzoo` and
  :mod:`tripoley.openspiel` are built on.
* :class:`Bot`, :func:`simulate`, :func:`best_five`: our bots, the
  simulator, the poker evaluator.

Errors from the engine are raised as :class:`TripoleyError` with the
engine's own message.
"""

from __future__ import annotations

import json
from typing import Any, Iterable, Optional, Union

import numpy as np

from . import _tripoley
from ._tripoley import TripoleyError

__all__ = [
    "Bot",
    "CARDS",
    "CHOOSE_FIVE_KEY",
    "Game",
    "Table",
    "TripoleyError",
    "best_five",
    "presets",
    "rules",
    "rules_from_toml",
    "rules_to_toml",
    "simulate",
]

RulesLike = Union[None, str, dict]

#: The 52 cards in the order of the action space and observations: clubs 2 .. spades ace.
CARDS: list[str] = [r + s for s in "CDHS"
                    for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]]

#: The key of the engine's action "these five cards are my poker hand": ``{CHOOSE_FIVE_KEY: cards}``.
CHOOSE_FIVE_KEY: str = _tripoley.choose_five_key()


def _missing_extra(module: str, extra: str, error: ImportError) -> ImportError:
    """The error a module raises when a library of one of the package's extras is missing:
    the package itself needs numpy only, so the message says which extra to install."""
    return ImportError(f"{module} needs {error.name or 'a library'}, from the package's "
                       f"{extra!r} extra: pip install 'tripoley[{extra}]'", name=error.name)


def _seed(seed: Any) -> Optional[int]:
    """``seed`` as every interface takes it: Gymnasium's rule (None or a non-negative
    integer, Python's or NumPy's), bounded by the engine's 64 bits. Anything else is refused,
    never cast or reduced: -1 is not 1, and 2**64 is not 0."""
    if seed is None:
        return None
    if (isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer))
            or not 0 <= seed < 1 << 64):
        raise TripoleyError(f"a seed is None or an integer from 0 to 2**64 - 1, not {seed!r}")
    return int(seed)


def presets() -> list[str]:
    """The names of the preset rule sets: pagat, tripoley, michigan-casino, rummoli, cosmo."""
    return list(_tripoley.presets())


def rules(preset: Optional[str] = None, **options: Any) -> dict:
    """Validated rules as a dict: a preset (``pagat`` if none) with any option changed.

    >>> rules("pagat", bet_limit=5)["bet_limit"]
    5
    """
    spec = dict(options)
    if preset is not None:
        spec["preset"] = preset
    return json.loads(_tripoley.rules_json(json.dumps(spec)))


def rules_from_toml(text: str) -> dict:
    """Validated rules from the text of a house-rule file (TOML, as ``tripoley rules --toml`` writes)."""
    return json.loads(_tripoley.rules_from_toml(text))


def rules_to_toml(rules_: RulesLike) -> str:
    """Rules as the text of a house-rule file."""
    return _tripoley.rules_to_toml(_rules_json(rules_))


def _rules_json(rules_: RulesLike, napalm: bool = False) -> str:
    """Rules given as None (the default), a preset name, or a dict of options, as JSON."""
    if rules_ is None:
        return "{}"
    if isinstance(rules_, str):
        if napalm:
            raise TripoleyError("Napalm has no presets: give its options as a dict")
        return json.dumps({"preset": rules_})
    if isinstance(rules_, dict):
        return json.dumps(rules_)
    raise TypeError(f"rules must be None, a preset name or a dict, not {type(rules_).__name__}")


def best_five(cards: Iterable[str], ace_always_high: bool = False) -> tuple[list[str], str, int]:
    """The best poker five of ``cards`` (texts such as ``"10H"``, ``"AS"``).

    Returns the five (arranged as the hand reads), the hand's name, and its
    value (larger beats smaller).
    """
    five, name, value = _tripoley.best_five(list(cards), ace_always_high)
    return list(five), name, value


def simulate(
    rules: RulesLike = None,
    bots: Iterable[str] = ("heuristic", "heuristic", "heuristic", "heuristic"),
    deals: int = 1000,
    seed: int = 1,
) -> dict:
    """Self-play on every core: chips per deal per seat and bot with 95%
    intervals, per stage and layout space, poker and Michigan counts (the
    statistics of ``tripoley sim``)."""
    return json.loads(_tripoley.simulate(_rules_json(rules), list(bots), deals, _seed(seed)))


class Game:
    """A game of Tripoley (or of Napalm with ``napalm=True``) with the engine's own actions.

    Actions are the engine's JSON forms: ``"keep"``, ``{"bid": 3}``,
    ``{CHOOSE_FIVE_KEY: ["AS", "KS", "QS", "JS", "10S"]}``, ``{"lead": "7H"}``; Napalm's
    ``"yes"``, ``"no"``, ``"challenge"``, ``"decline"``. Every step is
    recorded: :meth:`record` is replayable in Rust (``tripoley replay``).
    """

    def __init__(self, rules: RulesLike = None, players: int = 4, *, napalm: bool = False,
                 names: Optional[list[str]] = None, _inner: Any = None):
        self._g = _inner if _inner is not None else _tripoley.Game(
            _rules_json(rules, napalm), players, napalm, names)

    @classmethod
    def from_record(cls, record: Union[str, dict]) -> "Game":
        """The game a record describes (JSON text or dict), every step replayed."""
        text = record if isinstance(record, str) else json.dumps(record)
        return cls(_inner=_tripoley.Game.from_record(text))

    @property
    def players(self) -> int:
        return self._g.players

    @property
    def napalm(self) -> bool:
        return self._g.napalm

    def rules(self) -> dict:
        return json.loads(self._g.rules())

    def stacks(self) -> list[int]:
        return list(self._g.stacks())

    def pending(self) -> Any:
        """What the game waits for: ``{"decide": {"seat": s, "decision": {...}}}``,
        ``{"chance": kind}`` (Napalm: ``"deck"``) or ``"game_over"``."""
        return json.loads(self._g.pending())

    def to_act(self) -> Optional[int]:
        """The seat that must decide now, if any."""
        p = self.pending()
        return p["decide"]["seat"] if isinstance(p, dict) and "decide" in p else None

    def needs_chance(self) -> bool:
        p = self.pending()
        return p == "deck" or (isinstance(p, dict) and "chance" in p)

    def legal(self, seat: int) -> list:
        """Every legal action of ``seat`` now (empty if it is not its turn)."""
        return json.loads(self._g.legal(seat))

    def apply(self, seat: int, action: Any, viewer: Optional[int] = None) -> list:
        """Plays ``seat``'s action; returns the events (only those ``viewer`` may see, if given).
        An illegal action raises :class:`TripoleyError` and changes nothing."""
        return json.loads(self._g.apply(seat, json.dumps(action), viewer))

    def chance(self, seed: Optional[int] = None, deck: Optional[list[str]] = None,
               pay_suit: Optional[str] = None, sequence: Optional[str] = None,
               viewer: Optional[int] = None) -> list:
        """Supplies chance: a deck shuffled from ``seed``, or an explicit ``deck`` of 52 cards dealt
        from the first; under ``cosmo`` the pay suit and Sequence (random from ``seed`` if not given)."""
        return json.loads(self._g.chance(_seed(seed), deck, pay_suit, sequence, viewer))

    def view(self, seat: Optional[int] = None) -> dict:
        """What ``seat`` may know (a spectator's view for None): never a hidden card."""
        return json.loads(self._g.view(seat))

    def card_locations(self) -> tuple[list[list[str]], list[str], list[str]]:
        """Where every card is (hands, spare, played): for checks, not for players."""
        return self._g.card_locations()

    def is_over(self) -> bool:
        return self._g.is_over()

    def sample_world(self, seat: int, seed: int) -> "Game":
        """A game that looks exactly the same from ``seat``, hidden cards dealt again (Tripoley)."""
        return Game(_inner=self._g.sample_world(seat, _seed(seed)))

    def record(self) -> str:
        """Every step so far as a JSON record."""
        return self._g.record()

    def clone(self) -> "Game":
        return Game(_inner=self._g.clone())

    __copy__ = clone

    def __deepcopy__(self, memo: dict) -> "Game":
        return self.clone()

    def __reduce__(self) -> tuple:
        """Pickled as its record, replayed by the engine on load."""
        return (Game.from_record, (self.record(),))


class Table:
    """A game played in integers: a fixed action space and an action mask, observations as
    float32 numpy arrays from one seat's view. Chance comes from ``seed``, or, with
    ``seed=None``, outcome by outcome from outside (:meth:`chance_outcomes`, :meth:`apply_chance`)."""

    CHANCE = -1
    TERMINAL = -4

    def __init__(self, rules: RulesLike = None, players: int = 4, seed: Optional[int] = 0, *,
                 napalm: bool = False, _inner: Any = None):
        self._t = _inner if _inner is not None else _tripoley.Table(
            _rules_json(rules, napalm), players, _seed(seed), napalm)
        self.players = self._t.players
        self.num_actions = self._t.num_actions
        self.observation_size = self._t.observation_size
        self.starting_chips = self._t.starting_chips
        self.max_length = self._t.max_length
        self.napalm = napalm

    def current(self) -> int:
        """The seat to act, :attr:`CHANCE` (-1) or :attr:`TERMINAL` (-4)."""
        return self._t.current()

    def legal(self) -> list[int]:
        return self._t.legal()

    def picked(self) -> list[str]:
        """The cards picked so far into the poker five being chosen (private to the seat)."""
        return list(self._t.picked())

    def mask(self) -> np.ndarray:
        """1 for each legal integer, as int8."""
        return np.frombuffer(self._t.mask(), dtype=np.int8).copy()

    def step(self, action: int) -> None:
        """Plays ``action``, an integer of the action space (refused if it is anything else,
        or not legal now)."""
        self._t.step(action)

    def chance_outcomes(self) -> list[int]:
        return self._t.chance_outcomes()

    def apply_chance(self, outcome: int) -> None:
        self._t.apply_chance(outcome)

    def observation(self, seat: int) -> np.ndarray:
        return np.frombuffer(self._t.observation(seat), dtype="<f4").copy()

    def information(self, seat: int) -> str:
        return self._t.information(seat)

    def view(self, seat: Optional[int] = None) -> dict:
        return json.loads(self._t.view(seat))

    def stacks(self) -> list[int]:
        return list(self._t.stacks())

    def returns(self) -> list[float]:
        """Chips won (negative: lost) by each seat since the start."""
        return [float(s - self.starting_chips) for s in self._t.stacks()]

    def deals_done(self) -> int:
        return self._t.deals_done()

    def describe(self, action: int) -> str:
        return self._t.describe(action)

    def engine_action(self, action: int) -> Any:
        """What ``action`` does now in the engine's form (``{"pick": card}`` for a card picked
        into a five), or None if it is not legal."""
        text = self._t.engine_action(action)
        return None if text is None else json.loads(text)

    def engine_legal(self) -> list:
        """The engine's own list of legal actions now (to check the mask against)."""
        return json.loads(self._t.engine_legal())

    def record(self) -> str:
        return self._t.record()

    def render(self, seat: Optional[int] = None) -> str:
        return self._t.render(seat)

    def resample(self, seat: int, seed: int) -> "Table":
        t = Table.__new__(Table)
        t.__dict__.update(self.__dict__)
        t._t = self._t.resample(seat, _seed(seed))
        return t

    def clone(self) -> "Table":
        t = Table.__new__(Table)
        t.__dict__.update(self.__dict__)
        t._t = self._t.clone()
        return t

    __copy__ = clone

    def __deepcopy__(self, memo: dict) -> "Table":
        return self.clone()


class Bot:
    """One of our bots: ``"random"``, ``"heuristic"``, ``"expert"`` (Napalm: random, heuristic).

    The expert searches ``millis`` milliseconds a decision (10 by default), or exactly
    ``playouts`` playouts (deterministic). A bot sees only its seat's view.
    """

    def __init__(self, kind: str, rules: RulesLike = None, *, napalm: bool = False,
                 millis: Optional[int] = None, playouts: Optional[int] = None):
        self._b = _tripoley.Bot(kind, _rules_json(rules, napalm), napalm, millis, playouts)
        self.kind = kind

    def act(self, game: Game, seat: int, seed: int = 0) -> Any:
        """The bot's action for ``seat`` in ``game`` (its turn), in the engine's form."""
        return json.loads(self._b.act(game._g, seat, _seed(seed)))

    def act_on_view(self, view: dict, seed: int = 0) -> Any:
        """The bot's action on a bare view (whose ``decision`` is set). The expert, with no
        game to sample worlds from, plays as its heuristic would."""
        return json.loads(self._b.act_on_view(json.dumps(view), _seed(seed)))

    def steps(self, table: Table, seed: Optional[int] = None) -> list[int]:
        """The integers that play the bot's choice at ``table``'s decision (the picks of a
        poker five, or one integer)."""
        return list(self._b.steps(table._t, _seed(seed)))
