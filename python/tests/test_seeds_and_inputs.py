"""One rule for seeds and actions everywhere (issue 51): a seed is None or an integer from
0 to 2**64 - 1, an action a non-negative integer; anything else is refused with
``TripoleyError``, never cast or reduced."""

import numpy as np
import pytest

import tripoley
from tripoley import Table, TripoleyError
from tripoley.pettingzoo import raw_env
from tripoley.vector import TripoleyVectorEnv

BAD_SEEDS = [-1, 2**64, 2**70, 1.5, "3", True]


@pytest.mark.parametrize("seed", BAD_SEEDS)
def test_a_table_refuses_a_seed_outside_the_rule(seed):
    with pytest.raises(TripoleyError, match="seed"):
        Table("pagat", 4, seed=seed)


@pytest.mark.parametrize("seed", BAD_SEEDS)
def test_raw_env_refuses_a_seed_outside_the_rule(seed):
    e = raw_env("pagat", 4)
    with pytest.raises(TripoleyError, match="seed"):
        e.reset(seed=seed)


@pytest.mark.parametrize("seed", BAD_SEEDS)
def test_the_vector_env_refuses_a_seed_outside_the_rule(seed):
    envs = TripoleyVectorEnv(2, "pagat", 4, "random")
    with pytest.raises(TripoleyError, match="seed"):
        envs.reset(seed=seed)
    with pytest.raises(TripoleyError, match="seed"):
        TripoleyVectorEnv(2, "pagat", 4, "random", seed=seed)


def test_every_seed_of_the_rule_is_taken_alike_everywhere():
    for seed in (0, 2**64 - 1, np.uint64(7), np.int64(7)):
        Table("pagat", 4, seed=seed)
        raw_env("pagat", 4).reset(seed=seed)
        TripoleyVectorEnv(2, "pagat", 4, "random").reset(seed=seed)


def test_negative_seeds_no_longer_play_their_absolute_values_games():
    a = TripoleyVectorEnv(2, "pagat", 4, "random")
    with pytest.raises(TripoleyError):
        a.reset(seed=-5)


@pytest.mark.parametrize("action", [-1, 1.7, "52", None, 2.0])
def test_a_table_refuses_an_action_that_is_not_a_non_negative_integer(action):
    t = Table("pagat", 4, seed=1)
    record = t.record()
    with pytest.raises(TripoleyError, match="action"):
        t.step(action)
    assert t.record() == record


@pytest.mark.parametrize("action", [-1, 1.7, "52"])
def test_raw_env_refuses_an_action_that_is_not_a_non_negative_integer(action):
    e = raw_env("pagat", 4)
    e.reset(seed=1)
    with pytest.raises(TripoleyError, match="action"):
        e.step(action)


def test_numpy_integers_are_actions():
    t = Table("pagat", 4, seed=1)
    t.step(np.int64(t.legal()[0]))
    e = raw_env("pagat", 4)
    e.reset(seed=1)
    obs = e.observe(e.agent_selection)
    e.step(np.int32(obs["action_mask"].nonzero()[0][0]))


def test_the_vector_env_refuses_actions_that_are_not_integers():
    envs = TripoleyVectorEnv(2, "pagat", 4, "random")
    _, infos = envs.reset(seed=1)
    actions = infos["action_mask"].argmax(axis=1)
    with pytest.raises(TripoleyError, match="integer"):
        envs.step(actions + 0.7)
    envs.step(actions.astype(np.int32))


def test_sample_actions_refuses_a_row_with_no_legal_action():
    envs = TripoleyVectorEnv(2, "pagat", 4, "random")
    _, infos = envs.reset(seed=1)
    masks = infos["action_mask"].copy()
    masks[1] = 0
    with pytest.raises(TripoleyError, match="row 1"):
        envs.sample_actions(masks)


def test_every_other_seed_the_package_takes_follows_the_rule():
    game = tripoley.Game("pagat", players=4)
    with pytest.raises(TripoleyError, match="seed"):
        game.chance(seed=-1)
    while game.needs_chance():
        game.chance(seed=1)
    seat = game.to_act()
    bot = tripoley.Bot("random", "pagat")
    for call in (lambda: game.sample_world(seat, -1), lambda: bot.act(game, seat, seed=2**64),
                 lambda: bot.act_on_view(game.view(seat), seed=-3),
                 lambda: bot.steps(Table("pagat", 4, seed=1), seed=1.5),
                 lambda: tripoley.simulate("pagat", deals=1, seed=-1)):
        with pytest.raises(TripoleyError, match="seed"):
            call()


@pytest.mark.parametrize("action", [-1, 1.7, "52"])
def test_a_tables_other_integer_inputs_are_refused_as_actions_are(action):
    t = Table("pagat", 4, seed=1)
    for call in (t.describe, t.engine_action):
        with pytest.raises(TripoleyError, match="integer"):
            call(action)
    outside = Table("pagat", 4, seed=None)
    with pytest.raises(TripoleyError, match="integer"):
        outside.apply_chance(action)
