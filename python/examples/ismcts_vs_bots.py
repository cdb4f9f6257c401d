"""OpenSpiel's ISMCTS against our heuristic and expert bots, over duplicate deals.

    python examples/ismcts_vs_bots.py --preset pagat --deals 20 --millis 100

Each deal is a one-deal game (``deals = 1``: the deal, then the final pot) at a
table of four: ISMCTS in seats 0 and 2 and our bot in 1 and 3, then the same
cards again with the seats swapped, so the luck of the cards cancels. ISMCTS
(the stock Python ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` with random
rollouts) gets the same time per decision as our expert: it runs simulations
until ``--millis`` have passed (at least two: the first only expands the root).
Prints chips per deal per seat, ISMCTS minus our bot, with a 95% interval, and
ISMCTS's simulations per decision.

OpenSpiel's C++ ISMCTSBot cannot play any Python game (its own
``python_kuhn_poker`` included): pyspiel's C++ stand-in for a Python state
(``PyState`` in ``open_spiel/python/pybind11/python_games.h``) does not forward
``ResampleFromInfostate`` to Python, so the search stops with "not implemented"
(``get_policy``), and ``step`` releases the GIL before its first call back into
Python and crashes. ``tests/test_openspiel.py`` checks the first, and fails on
the day pyspiel forwards resampling.
"""

import argparse
import math
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import tripoley.openspiel  # noqa: F401  (registers the games)
from tripoley.openspiel import EngineBot


class TimedISMCTS(ismcts.ISMCTSBot):
    """The stock ISMCTS, searching for a wall-clock budget instead of a simulation count."""

    def __init__(self, game, rng, millis):
        super().__init__(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 1, random_state=rng)
        self._millis = millis
        self.simulations = 0
        self.searches = 0

    def run_search(self, state):
        self.reset()
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        self.searches += 1
        deadline = time.perf_counter() + self._millis / 1000
        # The first simulation only expands the root: at least one more picks an action.
        while True:
            self.run_simulation(self.sample_root_state(state))
            self.simulations += 1
            if time.perf_counter() >= deadline and self._root_node.total_visits > 0:
                break
        return self.get_final_policy(state, self._root_node)


def play(game, bots, chance_seed):
    """One game; chance from its own generator, so both orientations get the same cards."""
    chance = np.random.RandomState(chance_seed)
    state = game.new_initial_state()
    for bot in bots:
        if isinstance(bot, EngineBot):  # the Python ISMCTSBot has no restart_at
            bot.restart_at(state)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[chance.randint(len(outcomes))][0])
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state.returns()


def interval(xs):
    mean = sum(xs) / len(xs)
    var = sum((x - mean) ** 2 for x in xs) / max(1, len(xs) - 1)
    return mean, 1.96 * math.sqrt(var / len(xs))


def report(label, kind, diffs, search, start):
    mean, half = interval(diffs)
    print(f"{label} - {kind}: {mean:+.2f} ± {half:.2f} chips per deal per seat over "
          f"{len(diffs)} duplicate deals ({search.simulations / max(1, search.searches):.0f} "
          f"ISMCTS simulations a decision over {search.searches:,} decisions, "
          f"{time.perf_counter() - start:.0f} s)", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="pagat")
    parser.add_argument("--deals", type=int, default=20, help="duplicate deals (each played twice)")
    parser.add_argument("--millis", type=int, default=100, help="time per decision, both sides")
    parser.add_argument("--opponents", default="heuristic,expert")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--minutes", type=float, default=0,
                        help="stop each opponent's match after this long (at most --deals)")
    parser.add_argument("--every", type=int, default=0,
                        help="also print the running figure every this many deals")
    args = parser.parse_args()
    game = pyspiel.load_game("python_tripoley", {"preset": args.preset, "players": 4,
                                                 "rules": '{"deals": 1}'})
    print(f"{args.preset}, 4 players, {args.deals} duplicate deals, {args.millis} ms a decision", flush=True)
    for kind in args.opponents.split(","):
        rng = np.random.RandomState(args.seed)
        search = TimedISMCTS(game, rng, args.millis)
        ours = EngineBot(game, kind, millis=args.millis if kind == "expert" else None, seed=args.seed)
        diffs, start = [], time.perf_counter()
        for d in range(args.deals):
            if args.minutes and time.perf_counter() - start > args.minutes * 60:
                break
            seed = args.seed * 1_000_003 + d
            a = play(game, [search, ours, search, ours], seed)
            b = play(game, [ours, search, ours, search], seed)
            ismcts_chips = (a[0] + a[2] + b[1] + b[3]) / 4
            our_chips = (a[1] + a[3] + b[0] + b[2]) / 4
            diffs.append(ismcts_chips - our_chips)
            if args.every and len(diffs) % args.every == 0:
                report("  so far", kind, diffs, search, start)
        report("ISMCTS", kind, diffs, search, start)


if __name__ == "__main__":
    main()
