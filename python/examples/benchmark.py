"""Environment steps per second with random legal actions: our PettingZoo AEC
environment and OpenSpiel game, beside RLCard's limit hold'em (directly and
through PettingZoo's texas_holdem_v4, which wraps RLCard) as the anchor.

    python examples/benchmark.py [--seconds 3] [--rounds 3]

Every environment runs in this one process, one after another, and the
whole list is run ``--rounds`` times; each figure is the best round, so a
moment of load from elsewhere on the machine spoils no single figure. A step
is one action of a player; each loop does what its interface asks of a
player at each step (``last()`` and its observation for PettingZoo, the
state for RLCard) and picks uniformly among the legal actions it is given
(the mask's nonzero entries, or RLCard's ``legal_actions``). OpenSpiel's
chance steps (the deck, dealt card by card) are applied too but not counted.
"""

import argparse
import random
import time

import numpy as np


def time_loop(seconds, one_game):
    """Plays games (``one_game()`` returns its steps) until ``seconds`` pass; steps per second."""
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        steps += one_game()
    return steps / (time.perf_counter() - start)


def pick(rng, legal):
    """A uniformly random element of the list ``legal``: every loop's policy."""
    return legal[int(rng.random() * len(legal))]


def legal_in(mask):
    """The legal actions of an int8 action mask, as a list. The mask's bytes are read as
    bool: numpy's ``nonzero`` on int8 calls a function per element, on bool it does not,
    and the policy should cost little beside the environments it drives."""
    return mask.view(np.bool_).nonzero()[0].tolist()


def aec_games(e):
    """Whole games of an AEC environment ``e`` (reset for each, as RLCard's is), random
    legal actions from the mask."""
    rng, seeds = random.Random(1), iter(range(1 << 30))

    def one_game():
        e.reset(seed=next(seeds))
        steps = 0
        for _ in e.agent_iter():
            obs, _, done, truncated, _ = e.last()
            if done or truncated:
                e.step(None)
                continue
            e.step(pick(rng, legal_in(obs["action_mask"])))
            steps += 1
        return steps
    return one_game


def tripoley_raw():
    from tripoley.pettingzoo import raw_env
    return aec_games(raw_env("pagat", 4))


def tripoley_wrapped():
    from tripoley.pettingzoo import env
    return aec_games(env("pagat", 4))


def holdem_aec():
    from pettingzoo.classic import texas_holdem_v4
    return aec_games(texas_holdem_v4.env(num_players=4))


def tripoley_table():
    from tripoley import Table
    rng, seeds = random.Random(1), iter(range(1 << 30))

    def one_game():
        table, steps = Table("pagat", 4, seed=next(seeds)), 0
        while table.current() >= 0:
            table.step(pick(rng, table.legal()))
            steps += 1
        return steps
    return one_game


def openspiel(counts):
    import pyspiel
    import tripoley.openspiel  # noqa: F401
    game = pyspiel.load_game("python_tripoley", {"preset": "pagat", "players": 4})
    rng = random.Random(1)

    def one_game():
        state = game.new_initial_state()
        steps = chance = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(pick(rng, state.chance_outcomes())[0])
                chance += 1
            else:
                state.apply_action(pick(rng, state.legal_actions()))
                steps += 1
        counts["player"] += steps
        counts["chance"] += chance
        return steps
    return one_game


def rlcard_holdem():
    import rlcard
    env = rlcard.make("limit-holdem", config={"seed": 1, "game_num_players": 4})
    rng = random.Random(1)

    def one_hand():
        state, _ = env.reset()
        steps = 0
        while not env.is_over():
            state, _ = env.step(pick(rng, list(state["legal_actions"])))
            steps += 1
        return steps
    return one_hand


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per environment and round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds over every environment")
    args = parser.parse_args()
    counts = {"player": 0, "chance": 0}
    loops = [("RLCard limit hold'em, 4 players (rlcard.make)", rlcard_holdem())]
    try:
        loops.append(("PettingZoo texas_holdem_v4 (RLCard), 4 players", holdem_aec()))
    except ImportError as e:  # PettingZoo's card games import pygame to draw themselves
        print(f"(PettingZoo texas_holdem_v4 skipped: {e})")
    loops += [
        ("tripoley.Table (integers, no framework), pagat, 4 players", tripoley_table()),
        ("tripoley.pettingzoo.raw_env (the fast path), pagat, 4 players", tripoley_raw()),
        ("tripoley.pettingzoo.env (OrderEnforcingWrapper), pagat, 4 players", tripoley_wrapped()),
        ("OpenSpiel python_tripoley, pagat, 4 players", openspiel(counts)),
    ]
    best = [0.0] * len(loops)
    for _ in range(args.rounds):
        for i, (_, loop) in enumerate(loops):
            best[i] = max(best[i], time_loop(args.seconds, loop))
    anchor = best[0]
    width = max(len(name) for name, _ in loops)
    print(f"{'environment':<{width}}  {'steps/s':>10}  {'vs RLCard':>9}")
    for (name, _), rate in zip(loops, best):
        print(f"{name:<{width}}  {rate:>10,.0f}  {rate / anchor:>8.1f}x")
    print(f"(OpenSpiel also applied {counts['chance'] / max(1, counts['player']):.2f} chance steps "
          "per player step: the decks, card by card)")


if __name__ == "__main__":
    main()
