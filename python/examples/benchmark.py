"""Environment steps per second with random legal actions: our PettingZoo AEC
environment and OpenSpiel game, beside RLCard's limit hold'em (directly and
through PettingZoo's texas_holdem_v4, which wraps RLCard) as the anchor.

    python examples/benchmark.py [--seconds 3]

Every figure is measured in this one process, one after another, so a busy
machine slows them all alike. A step is one action of a player (OpenSpiel
also counts its chance steps separately: a deck is dealt card by card).
"""

import argparse
import random
import time

import numpy as np


def time_loop(seconds, step):
    """Calls ``step()`` (which returns the steps it took) until ``seconds`` pass."""
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        steps += step()
    return steps / (time.perf_counter() - start)


def aec_game(make, seed, rng):
    """One whole game of an AEC environment with random legal actions; returns its steps."""
    e = make()
    e.reset(seed=seed)
    steps = 0
    for agent in e.agent_iter():
        obs, _, done, truncated, _ = e.last()
        if done or truncated:
            e.step(None)
            continue
        e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        steps += 1
    return steps


def tripoley_aec(seconds):
    from tripoley.pettingzoo import env
    rng, seeds = random.Random(1), iter(range(1 << 30))
    return time_loop(seconds, lambda: aec_game(lambda: env("pagat", 4), next(seeds), rng))


def holdem_aec(seconds):
    from pettingzoo.classic import texas_holdem_v4
    rng, seeds = random.Random(1), iter(range(1 << 30))
    return time_loop(seconds, lambda: aec_game(lambda: texas_holdem_v4.env(num_players=4),
                                               next(seeds), rng))


def tripoley_table(seconds):
    from tripoley import Table
    rng, seeds = random.Random(1), iter(range(1 << 30))

    def one_game():
        table, steps = Table("pagat", 4, seed=next(seeds)), 0
        while table.current() >= 0:
            table.step(rng.choice(table.legal()))
            steps += 1
        return steps
    return time_loop(seconds, one_game)


def openspiel(seconds, counts):
    import pyspiel
    import tripoley.openspiel  # noqa: F401
    game = pyspiel.load_game("python_tripoley", {"preset": "pagat", "players": 4})
    rng = random.Random(1)

    def one_game():
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                counts["chance"] += 1
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
        return steps
    return time_loop(seconds, one_game)


def rlcard_holdem(seconds):
    import rlcard
    env = rlcard.make("limit-holdem", config={"seed": 1, "game_num_players": 4})
    rng = random.Random(1)

    def one_hand():
        state, _ = env.reset()
        steps = 0
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"].keys())))
            steps += 1
        return steps
    return time_loop(seconds, one_hand)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per environment")
    args = parser.parse_args()
    counts = {"chance": 0}
    rows = [("RLCard limit hold'em, 4 players (rlcard.make)", rlcard_holdem(args.seconds))]
    try:
        rows.append(("PettingZoo texas_holdem_v4 (RLCard), 4 players", holdem_aec(args.seconds)))
    except ImportError as e:  # PettingZoo's card games import pygame to draw themselves
        print(f"(PettingZoo texas_holdem_v4 skipped: {e})")
    rows += [
        ("tripoley.Table (integers, no framework), pagat, 4 players", tripoley_table(args.seconds)),
        ("tripoley.pettingzoo env, pagat, 4 players", tripoley_aec(args.seconds)),
        ("OpenSpiel python_tripoley, pagat, 4 players", openspiel(args.seconds, counts)),
    ]
    anchor = rows[0][1]
    width = max(len(name) for name, _ in rows)
    print(f"{'environment':<{width}}  {'steps/s':>10}  {'vs RLCard':>9}")
    for name, rate in rows:
        print(f"{name:<{width}}  {rate:>10,.0f}  {rate / anchor:>8.1f}x")
    print(f"(OpenSpiel also applied {counts['chance']:,} chance steps: the decks, card by card)")


if __name__ == "__main__":
    main()
