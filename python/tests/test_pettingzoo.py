"""PettingZoo's own tests, and what the environment promises."""

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from tripoley.pettingzoo import env, napalm_env


@pytest.mark.parametrize("preset", ["pagat", "michigan-casino", "cosmo"])
def test_pettingzoo_api_test(preset):
    api_test(env(preset=preset, players=4), num_cycles=1000)


def test_pettingzoo_seed_test():
    seed_test(lambda: env(preset="pagat", players=3), num_cycles=500)


def test_napalm_passes_the_api_and_seed_tests():
    api_test(napalm_env(players=3), num_cycles=1000)
    seed_test(lambda: napalm_env(players=4), num_cycles=500)


def test_rewards_are_chips_at_the_end_of_each_deal_and_sum_to_the_game():
    e = env(preset="pagat", players=4)
    e.reset(seed=11)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    rng = np.random.default_rng(0)
    nonzero_steps = 0
    for agent in e.agent_iter():
        obs, reward, done, truncated, info = e.last()
        totals[agent] += reward
        nonzero_steps += reward != 0
        mask = obs["action_mask"]
        e.step(None if done else int(rng.choice(np.flatnonzero(mask))))
    stacks = e.unwrapped._table.stacks()
    start = e.unwrapped._table.starting_chips
    assert [totals[a] for a in e.possible_agents] == [float(s - start) for s in stacks]
    assert sum(totals.values()) == 0
    assert nonzero_steps > 0


def test_only_the_seat_to_act_has_a_mask_and_render_is_text():
    e = env(preset="pagat", players=4, render_mode="ansi")
    e.reset(seed=2)
    acting = e.agent_selection
    for agent in e.possible_agents:
        mask = e.observe(agent)["action_mask"]
        assert mask.any() == (agent == acting)
    text = e.render()
    assert "player_0" in text and "your hand" in text
