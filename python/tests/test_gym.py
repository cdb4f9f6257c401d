"""The Gymnasium single-agent environment: Gymnasium's own checker, seeds, masks, rewards."""

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import tripoley.gym  # noqa: F401  (registers tripoley/Tripoley-v0)
from tripoley.gym import TripoleyEnv


@pytest.mark.parametrize("kwargs", [dict(preset="pagat", players=4, opponents="heuristic"),
                                    dict(preset="cosmo", players=3, opponents="random", seat=2),
                                    dict(players=3, napalm=True)])
def test_gymnasiums_check_env_passes(kwargs):
    check_env(TripoleyEnv(**kwargs), skip_render_check=True)


def _episode(env, seed, rng):
    obs, _ = env.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        assert env.unwrapped.action_masks()[action]
        obs, reward, terminated, truncated, info = env.step(action)
        assert not info["illegal"]
        total += reward
        steps += 1
        if terminated or truncated:
            return total, steps, terminated, env.unwrapped._table


def test_a_seeded_episode_is_reproducible_and_rewards_add_up_to_the_chips_won():
    env = gymnasium.make("tripoley/Tripoley-v0", preset="pagat", players=3, opponents="heuristic")
    first = _episode(env, 5, np.random.default_rng(0))
    again = _episode(env, 5, np.random.default_rng(0))
    assert first[:3] == again[:3]
    total, _, terminated, table = first
    assert terminated
    assert total == table.stacks()[0] - table.starting_chips


def test_an_illegal_action_changes_nothing_and_is_told_and_long_games_are_truncated():
    env = TripoleyEnv("pagat", 3, opponents="random", max_steps=3)
    obs, _ = env.reset(seed=2)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    record = env._table.record()
    after, reward, terminated, truncated, info = env.step(illegal)
    assert info["illegal"] and reward == -1.0 and not terminated and not truncated
    assert env._table.record() == record
    np.testing.assert_array_equal(after["observation"], obs["observation"])
    for _ in range(2):
        obs, _, terminated, truncated, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert truncated and not terminated


def test_seeds_and_actions_follow_the_packages_rule():
    """Issue 51: a seed is None or an integer from 0 to 2**64 - 1, an action an integer (one
    the mask forbids earns the illegal reward); anything else is refused, never cast."""
    env = TripoleyEnv("pagat", 4, opponents="random")
    for seed in (-1, 2**64, 1.5):
        with pytest.raises(tripoley.TripoleyError, match="seed"):
            env.reset(seed=seed)
    obs, _ = env.reset(seed=2**64 - 1)
    legal = int(obs["action_mask"].argmax())
    for action in (legal + 0.5, str(legal)):
        with pytest.raises(tripoley.TripoleyError, match="integer"):
            env.step(action)
    env.step(np.int64(legal))
