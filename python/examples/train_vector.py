"""Trains a small policy on the batched environment with plain NumPy, then plays it against
the random policy: both at seat 0 of the same freshly dealt tables, against our random bots.

    python examples/train_vector.py [--tables 512] [--steps 300] [--threads 1]

The policy is the simplest that can learn anything here: a value per integer of the action
space and per stage of the game (the observation's one-hot stage), learned from the reward the
step brought (chips since your previous step, the bots' moves between included), played
greedily among the legal integers. It learns what a chip-counting player learns first: which
bids, bets and calls cost more than they bring back at each stage. Prints the chips a step each
policy wins and how long the training took.
"""

import argparse
import time

import numpy as np

from tripoley.vector import TripoleyVectorEnv

#: Where the observation's one-hot stage starts and how many stages (see tripoley's observe.rs):
#: found from the layout at run time by :func:`stage_slice`.
STAGES = 10


def stage_slice(players):
    """The observation's stage numbers: after the card planes (5 + 3 per seat, of 52)."""
    start = 52 * (5 + 3 * players)
    return slice(start, start + STAGES)


def play(envs, choose, steps, seed):
    """Mean reward a step over ``steps`` batched steps of ``choose(obs, masks)``."""
    obs, infos = envs.reset(seed=seed)
    total = 0.0
    for _ in range(steps):
        obs, rewards, _, _, infos = envs.step(choose(obs, infos["action_mask"]))
        total += float(rewards.mean())
    return total / steps


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=512)
    parser.add_argument("--steps", type=int, default=300, help="training steps (batched)")
    parser.add_argument("--eval-steps", type=int, default=200)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args(argv)
    players = 4
    envs = TripoleyVectorEnv(args.tables, "pagat", players, opponents="random",
                             threads=args.threads)
    stages = stage_slice(players)
    n_actions = envs.single_action_space.n
    value = np.zeros((STAGES, n_actions))
    seen = np.zeros((STAGES, n_actions))
    rng = np.random.default_rng(0)

    def greedy(obs, masks, explore=0.0):
        stage = obs[:, stages].argmax(axis=1)
        scores = value[stage] + rng.random(masks.shape) * 1e-6  # random among ties
        if explore:
            scores = np.where(rng.random((len(masks), 1)) < explore, rng.random(masks.shape),
                              scores)
        return np.where(masks == 1, scores, -np.inf).argmax(axis=1)

    start = time.perf_counter()
    obs, infos = envs.reset(seed=1)
    finished = np.zeros(args.tables, bool)
    for _ in range(args.steps):
        stage = obs[:, stages].argmax(axis=1).copy()
        actions = greedy(obs, infos["action_mask"], explore=0.3)
        # A finished game's table deals the next at this step, its action ignored (NEXT_STEP).
        live = ~finished
        obs, rewards, terminated, truncated, infos = envs.step(actions)
        finished = terminated | truncated
        stage, played = stage[live], actions[live]
        np.add.at(seen, (stage, played), 1.0)
        np.add.at(value, (stage, played),
                  (rewards[live] - value[stage, played]) / seen[stage, played])
    trained_in = time.perf_counter() - start

    def random_policy(obs, masks):
        return (rng.random(masks.shape) * masks).argmax(axis=1)

    learned = play(envs, greedy, args.eval_steps, seed=99)
    uniform = play(envs, random_policy, args.eval_steps, seed=99)
    print(f"trained on {args.steps * args.tables:,} steps in {trained_in:.1f} s")
    print(f"chips a step: learned {learned:+.3f}, random {uniform:+.3f} "
          f"(over {args.eval_steps * args.tables:,} steps each, the same deals)")
    return learned, uniform, trained_in


if __name__ == "__main__":
    main()
