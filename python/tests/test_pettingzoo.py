"""PettingZoo's own tests, and what the environment promises."""

import random

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import tripoley
from tripoley import Table, TripoleyError
from tripoley.pettingzoo import env, napalm_env, raw_env


@pytest.mark.parametrize("preset", ["pagat", "michigan-casino", "cosmo"])
def test_pettingzoo_api_test(preset):
    api_test(env(preset=preset, players=4), num_cycles=1000)


def test_pettingzoo_seed_test():
    seed_test(lambda: env(preset="pagat", players=3), num_cycles=500)


def test_the_fast_path_unwrapped_passes_the_api_and_seed_tests():
    api_test(raw_env("pagat", 4), num_cycles=1000)
    seed_test(lambda: raw_env("michigan-casino", 3), num_cycles=500)


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


@pytest.mark.parametrize("rules", [*tripoley.presets(), "napalm"])
def test_the_fast_path_observes_exactly_what_the_table_shows_each_seat(rules):
    """raw_env's observations and masks (written in place in Rust, per step) equal the
    integer table's for every agent at every step of random games of every preset and
    Napalm (the table's mask is the engine's legal actions: test_table.py), and its
    rewards add up to the chips each seat won."""
    napalm = rules == "napalm"
    rules, players = ({}, 3) if napalm else (rules, 4)
    # Seeds whose game gives somebody a choice (reset deals again otherwise: cosmo).
    seeds = [s for s in range(6) if Table(rules, players, seed=s, napalm=napalm).current() >= 0]
    for seed in seeds[:2]:
        e = raw_env(rules, players, napalm=napalm)
        e.reset(seed=seed)
        table = Table(rules, players, seed=seed, napalm=napalm)
        rng = random.Random(seed)
        totals = dict.fromkeys(e.possible_agents, 0.0)
        steps = 0
        deals, paid_at = table.deals_done(), [table.starting_chips] * players
        for agent in e.agent_iter():
            obs, reward, done, truncated, _ = e.last()
            totals[agent] += reward
            if done:
                e.step(None)
                continue
            assert agent == f"player_{table.current()}"
            for seat, other in enumerate(e.possible_agents):
                seen = e.observe(other)
                np.testing.assert_array_equal(seen["observation"], table.observation(seat))
                if not napalm:  # the first plane is the seat's hand, as its view holds it
                    hand = {tripoley.CARDS[i] for i in np.flatnonzero(seen["observation"][:52])}
                    assert hand == set(table.view(seat)["hand"])
                mask = table.mask() if other == agent else np.zeros(table.num_actions, np.int8)
                np.testing.assert_array_equal(seen["action_mask"], mask)
                assert np.flatnonzero(seen["action_mask"]).tolist() == (
                    table.legal() if other == agent else [])
                assert seen["observation"].dtype == np.float32 and seen["action_mask"].dtype == np.int8
            action = rng.choice(table.legal())
            e.step(action)
            table.step(action)
            steps += 1
            # This step's rewards: each stack's change since the last deal ended, once one
            # ends (or the game), else zero; the dict is written only where it changes.
            paid = table.deals_done() != deals or table.current() < 0
            stacks = table.stacks()
            expected = [float(now - then) if paid else 0.0 for now, then in zip(stacks, paid_at)]
            assert [e.rewards[a] for a in e.possible_agents] == expected
            if paid:
                deals, paid_at = table.deals_done(), stacks
        # cosmo forces most plays: a game there has a few choices, elsewhere many.
        assert steps >= (1 if rules == "cosmo" else 50) and e.agents == []
        assert [totals[a] for a in e.possible_agents] == table.returns()


def test_the_fast_path_refuses_what_pettingzoo_forbids():
    e = raw_env("pagat", 4)
    with pytest.raises(TripoleyError, match="reset"):
        e.step(0)
    with pytest.raises(TripoleyError, match="reset"):
        e.last()
    e.reset(seed=3)
    agent = e.agent_selection
    before = e.observe(agent)
    illegal = int(np.flatnonzero(before["action_mask"] == 0)[0])
    with pytest.raises(TripoleyError, match="not legal"):
        e.step(illegal)
    with pytest.raises(TripoleyError, match="must act"):
        e.step(None)
    after = e.observe(agent)
    assert e.agent_selection == agent
    np.testing.assert_array_equal(after["observation"], before["observation"])
    with pytest.raises(TripoleyError, match="no agent player_9"):
        e.observe("player_9")
    assert list(e.agent_iter(2)) == [agent, agent]  # nothing stepped: the same agent


def test_each_agent_has_its_own_observation_written_again_at_each_observe():
    """No allocation per step: observe() writes the agent's own arrays in place, so an
    observation kept past the next observe() of the same agent is copied first. Agents
    never share arrays, and observing one leaves the others' as they were."""
    e = raw_env("pagat", 4)
    e.reset(seed=1)
    agent = e.agent_selection
    first = e.observe(agent)
    kept = {k: v.copy() for k, v in first.items()}
    others = [e.observe(other) for other in e.possible_agents if other != agent]
    for other in others:
        for key in kept:
            assert not np.shares_memory(other[key], first[key])
    for key in kept:
        np.testing.assert_array_equal(first[key], kept[key])
    seat = int(agent.split("_")[1])
    table = Table("pagat", 4, seed=1)
    action = int(np.flatnonzero(first["action_mask"])[0])
    e.step(action)
    table.step(action)
    again = e.observe(agent)
    assert again is first and again["observation"] is first["observation"]
    np.testing.assert_array_equal(again["observation"], table.observation(seat))
    assert not np.array_equal(again["observation"], kept["observation"])
    assert not again["action_mask"].any()  # no longer its turn


def test_a_game_with_no_choice_for_anyone_is_dealt_again():
    """Under cosmo the table from seed 9 was over as soon as it was dealt (every play
    forced); since a lead with one card is asked (M10), it is not. reset(seed=9) leaves the
    agents playing (the same game each time), as PettingZoo asks."""
    first, again = raw_env("cosmo", 4), raw_env("cosmo", 4)
    for e in (first, again):
        e.reset(seed=9)
        assert not any(e.terminations.values()) and e._table.current() >= 0
    np.testing.assert_array_equal(first.last()[0]["observation"], again.last()[0]["observation"])


def _record_after(seeds):
    e = raw_env("pagat", 3)
    for s in seeds:
        e.reset(seed=s)
    return e.record()


def test_a_reset_without_a_seed_after_a_seeded_one_is_reproducible_as_in_gymnasium():
    assert _record_after([4, None]) == _record_after([4, None])
    assert _record_after([4, None, None]) == _record_after([4, None, None])
    assert _record_after([4, None]) != _record_after([4])
    assert _record_after([4, None]) != _record_after([4, None, None])


def test_cosmo_games_of_adjacent_seeds_differ():
    e = raw_env("cosmo", 4)
    records = []
    for seed in range(120):
        e.reset(seed=seed)
        records.append(e.record())
    assert len(set(records)) == len(records)


@pytest.mark.parametrize("make", [lambda: env(preset="pagat", players=3), lambda: napalm_env(players=3)])
def test_environments_deep_copy_and_pickle(make):
    import copy
    import pickle

    e = make()
    e.reset(seed=2)
    rng = random.Random(0)
    for _ in range(25):
        obs, _, done, _, _ = e.last()
        e.step(None if done else rng.choice(list(np.flatnonzero(obs["action_mask"]))))
    copies = [copy.deepcopy(e), pickle.loads(pickle.dumps(e))]
    for c in copies:
        assert c.unwrapped.record() == e.unwrapped.record()
    # Each goes on as the original does, without touching it.
    for c in copies:
        original = copy.deepcopy(e)
        for agent in c.agent_iter(40):
            obs, reward, done, trunc, info = c.last()
            obs2, reward2, done2, trunc2, info2 = original.last()
            assert original.agent_selection == agent
            np.testing.assert_array_equal(obs["observation"], obs2["observation"])
            assert (reward, done, trunc, info) == (reward2, done2, trunc2, info2)
            action = None if done else int(np.flatnonzero(obs["action_mask"])[0])
            c.step(action)
            original.step(action)
    # A later reset() draws from the copied seed generator, as the original's does.
    c = copy.deepcopy(e)
    c.reset()
    e.reset()
    assert c.unwrapped.record() == e.unwrapped.record()
