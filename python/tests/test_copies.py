"""Copies (issue 51): a Game pickles, a vector environment deep-copies, as a Table, OpenSpiel
states and PettingZoo environments do."""

import copy
import json
import pickle

import numpy as np

import tripoley
from tripoley.vector import TripoleyVectorEnv


def test_a_game_pickles_and_plays_on_as_the_original():
    game = tripoley.Game("pagat", players=4)
    bot = tripoley.Bot("random", "pagat")
    for _ in range(30):
        while game.needs_chance():
            game.chance(seed=3)
        seat = game.to_act()
        game.apply(seat, bot.act(game, seat, seed=1))
    again = pickle.loads(pickle.dumps(game))
    assert json.loads(again.record()) == json.loads(game.record())
    seat = game.to_act()
    action = bot.act(game, seat, seed=2)
    assert game.apply(seat, action) == again.apply(seat, action)
    assert game.view(seat) == again.view(seat)


def _play(envs, masks, steps):
    trace = []
    for _ in range(steps):
        obs, rewards, terminated, truncated, infos = envs.step(envs.sample_actions(masks))
        masks = infos["action_mask"]
        trace.append([x.copy() for x in (obs, rewards, terminated, truncated, masks)])
    return trace


def test_a_vector_env_deep_copies_and_its_copy_plays_the_same_games_apart():
    envs = TripoleyVectorEnv(3, "pagat", 4, "random", obs_dtype="uint8", max_steps=30)
    _, infos = envs.reset(seed=8)
    masks = _play(envs, infos["action_mask"], 5)[-1][-1]
    twin = copy.deepcopy(envs)
    records = [envs.record(i) for i in range(3)]
    assert [twin.record(i) for i in range(3)] == records
    theirs = _play(twin, masks, 40)
    # Stepping the copy left the original where it was; then it plays the same.
    assert [envs.record(i) for i in range(3)] == records
    for ours, its in zip(_play(envs, masks, 40), theirs):
        for x, y in zip(ours, its):
            np.testing.assert_array_equal(x, y)
