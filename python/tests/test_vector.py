"""The batched environment: tables stepped in Rust, outputs in preallocated arrays."""

import json

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import tripoley
from tripoley.vector import TripoleyEnvPool, TripoleyVectorEnv


def _random_actions(masks, rng):
    return (rng.random(masks.shape) * masks).argmax(axis=1)


def _run(envs, seed, steps):
    obs, infos = envs.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace = []
    for _ in range(steps):
        obs, rewards, terminated, truncated, infos = envs.step(_random_actions(infos["action_mask"], rng))
        trace.append((obs.copy(), rewards.copy(), terminated.copy(), truncated.copy()))
    return trace


def test_threads_and_seeds_give_the_same_games():
    one = _run(TripoleyVectorEnv(8, "pagat", 3, "heuristic", threads=1), 4, 60)
    two = _run(TripoleyVectorEnv(8, "pagat", 3, "heuristic", threads=3), 4, 60)
    for a, b in zip(one, two):
        for x, y in zip(a, b):
            np.testing.assert_array_equal(x, y)
    other = _run(TripoleyVectorEnv(8, "pagat", 3, "heuristic"), 5, 5)
    assert not np.array_equal(one[4][0], other[4][0])


def test_sample_actions_draws_the_same_on_any_threads():
    runs = []
    for threads in (1, 2, 3):
        envs = TripoleyVectorEnv(7, "pagat", 4, opponents="self", threads=threads, obs_dtype="uint8")
        _, infos = envs.reset(seed=9)
        picks = []
        for _ in range(40):
            actions = envs.sample_actions(infos["action_mask"])
            assert all(infos["action_mask"][i, a] == 1 for i, a in enumerate(actions))
            picks.append(actions.copy())
            _, _, _, _, infos = envs.step(actions)
        runs.append(picks)
    assert all(np.array_equal(a, b) for run in runs[1:] for a, b in zip(runs[0], run))


def test_rows_are_each_tables_own_view_and_rewards_are_its_chips():
    # Dealt in the step that ends a game: every step's row is a game's own.
    envs = TripoleyVectorEnv(4, "rummoli", 4, ["random", "heuristic", "random"], seat=1,
                             autoreset_mode=AutoresetMode.SAME_STEP)
    obs, infos = envs.reset(seed=2)
    rng = np.random.default_rng(0)
    finished, first = 0, [True] * 4
    for _ in range(150):
        before = [tripoley.Game.from_record(json.dumps(envs.record(i))) for i in range(4)]
        masks = infos["action_mask"].copy()
        for i, game in enumerate(before):
            assert game.to_act() == 1
            table_mask = np.flatnonzero(masks[i])
            assert len(table_mask) > 0
        obs, rewards, terminated, truncated, infos = envs.step(_random_actions(masks, rng))
        for i in range(4):
            if terminated[i] or truncated[i]:
                finished, first[i] = finished + 1, True
                continue
            after = tripoley.Game.from_record(json.dumps(envs.record(i)))
            # The first reward of a game counts the first deal's antes, paid at the deal.
            start = 100 if first[i] else before[i].stacks()[1]
            assert rewards[i] == after.stacks()[1] - start
            first[i] = False
    assert finished > 0
    assert obs.dtype == np.float32 and obs.shape == (4, envs.single_observation_space.shape[0])


def test_self_play_gives_every_seat_its_turn_and_every_seats_rewards():
    envs = TripoleyVectorEnv(4, "pagat", 4, "self", autoreset_mode=AutoresetMode.SAME_STEP)
    obs, infos = envs.reset(seed=3)
    rng = np.random.default_rng(1)
    seen, finished, first = set(), 0, [True] * 4
    for _ in range(200):
        before = [tripoley.Game.from_record(json.dumps(envs.record(i))) for i in range(4)]
        for i, game in enumerate(before):
            assert game.to_act() == infos["to_play"][i]
            seen.add(int(infos["to_play"][i]))
        obs, rewards, terminated, truncated, infos = envs.step(
            _random_actions(infos["action_mask"], rng))
        assert rewards.shape == (4, 4)
        for i in range(4):
            if terminated[i] or truncated[i]:
                finished, first[i] = finished + 1, True
                continue
            after = tripoley.Game.from_record(json.dumps(envs.record(i)))
            start = [100] * 4 if first[i] else before[i].stacks()
            assert list(rewards[i]) == [a - b for a, b in zip(after.stacks(), start)]
            first[i] = False
    assert seen == {0, 1, 2, 3} and finished > 0


def test_an_illegal_self_play_action_costs_only_the_seat_that_played_it():
    envs = TripoleyVectorEnv(2, "pagat", 4, "self")
    _, infos = envs.reset(seed=4)
    masks, seat = infos["action_mask"].copy(), int(infos["to_play"][0])
    actions = masks.argmax(axis=1)
    actions[0] = int(np.flatnonzero(masks[0] == 0)[0])
    record = envs.record(0)
    _, rewards, _, _, infos = envs.step(actions)
    expected = [0.0] * 4
    expected[seat] = -1.0
    assert list(rewards[0]) == expected and envs.record(0) == record
    assert list(infos["illegal"]) == [True, False] and infos["to_play"][0] == seat


def test_an_illegal_action_changes_nothing_at_its_table():
    envs = TripoleyVectorEnv(3, "pagat", 3, "random")
    obs, infos = envs.reset(seed=1)
    masks = infos["action_mask"].copy()
    actions = masks.argmax(axis=1)
    actions[1] = int(np.flatnonzero(masks[1] == 0)[0])
    record = envs.record(1)
    _, rewards, _, _, infos = envs.step(actions)
    assert list(infos["illegal"]) == [False, True, False]
    assert rewards[1] == -1.0 and envs.record(1) == record


def test_bad_arguments_are_refused_with_a_message():
    with pytest.raises(tripoley.TripoleyError, match="num_envs"):
        TripoleyVectorEnv(0)
    with pytest.raises(tripoley.TripoleyError, match="bots needed"):
        TripoleyVectorEnv(2, players=4, opponents=["random"])
    with pytest.raises(tripoley.TripoleyError, match="no seat 5"):
        TripoleyVectorEnv(2, players=4, seat=5, opponents="random")
    envs = TripoleyVectorEnv(2, players=4, opponents="random")
    wrong = np.zeros((2, envs.single_observation_space.shape[0]), np.float64)
    with pytest.raises(tripoley.TripoleyError, match="float32, uint16 or uint8, not float64"):
        envs._tables.observe(wrong, np.zeros((2, envs.single_action_space.n), np.int8))


def test_the_training_example_learns_a_policy_that_beats_random_play():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).parent.parent / "examples" / "train_vector.py"
    spec = importlib.util.spec_from_file_location("train_vector", path)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    learned, uniform, seconds = example.main(["--tables", "128", "--steps", "150",
                                              "--eval-steps", "100"])
    assert learned > uniform + 0.5
    assert seconds < 60


def test_sampled_actions_are_legal_and_spread_over_the_legal_ones():
    envs = TripoleyVectorEnv(16, "pagat", 4, "random")
    _, infos = envs.reset(seed=3)
    masks = infos["action_mask"]
    chosen = set()
    for _ in range(40):
        actions = envs.sample_actions(masks)
        assert all(masks[i, a] == 1 for i, a in enumerate(actions))
        chosen.add(int(actions[0]))
    assert len(chosen) > 1 or masks[0].sum() == 1
    _, _, _, _, infos = envs.step(actions)
    assert not infos["illegal"].any()


def test_uint16_and_uint8_observations_are_the_float32_numbers_saturated():
    wide = _run(TripoleyVectorEnv(4, "pagat", 4, "random"), 6, 80)
    for dtype in (np.uint16, np.uint8):
        envs = TripoleyVectorEnv(4, "pagat", 4, "random", obs_dtype=dtype)
        assert envs.single_observation_space.dtype == dtype
        narrow = _run(envs, 6, 80)
        for (a, *_), (b, *_) in zip(wide, narrow):
            assert b.dtype == dtype
            np.testing.assert_array_equal(np.minimum(a, np.iinfo(dtype).max).astype(dtype), b)
    with pytest.raises(ValueError, match="obs_dtype"):
        TripoleyVectorEnv(2, obs_dtype=np.float64)


@pytest.mark.parametrize("players,opponents", [(3, "self"), (4, "self"), (4, "heuristic")])
def test_packed_rows_unpack_to_the_uint8_rows_and_play_the_same_games(players, opponents):
    plain = TripoleyVectorEnv(6, "pagat", players, opponents, obs_dtype="uint8", seed=2)
    packed = TripoleyVectorEnv(6, "pagat", players, opponents, packed=True, seed=2)
    assert packed.single_observation_space.dtype == np.uint8
    assert packed.single_observation_space.shape[0] < plain.single_observation_space.shape[0] / 4
    obs, infos = plain.reset(seed=8)
    pobs, pinfos = packed.reset(seed=8)
    assert pinfos["action_mask"].dtype == np.uint8
    assert pinfos["action_mask"].shape == (6, (plain.single_action_space.n + 7) // 8)
    for _ in range(150):
        np.testing.assert_array_equal(packed.unpack_observations(pobs), obs)
        np.testing.assert_array_equal(packed.unpack_masks(pinfos["action_mask"]),
                                      infos["action_mask"])
        # Each suit's three spare bits are 0: NumPy's packbits of the plain rows, each
        # suit's 13 cards padded to 16, gives the same bytes.
        suits = obs[:, :packed._card_bits].reshape(6, -1, 13)
        padded = np.concatenate([suits, np.zeros((6, suits.shape[1], 3), np.uint8)], axis=2)
        cut = packed._card_bits // 52 * 8
        np.testing.assert_array_equal(
            np.packbits(padded.reshape(6, -1), axis=1, bitorder="little"), pobs[:, :cut])
        actions = plain.sample_actions(infos["action_mask"])
        np.testing.assert_array_equal(packed.sample_actions(pinfos["action_mask"]), actions)
        obs, rewards, terminated, truncated, infos = plain.step(actions)
        pobs, prewards, pterminated, ptruncated, pinfos = packed.step(actions)
        np.testing.assert_array_equal(prewards, rewards)
        np.testing.assert_array_equal(pterminated, terminated)
        assert not pinfos["illegal"].any()


def test_packed_arguments_and_arrays_are_checked():
    with pytest.raises(ValueError, match="packed rows are bytes"):
        TripoleyVectorEnv(2, packed=True, obs_dtype="float32")
    envs = TripoleyVectorEnv(2, packed=True, opponents="random")
    masks = np.zeros((2, envs._tables.mask_size), np.uint8)
    with pytest.raises(tripoley.TripoleyError, match="packed observations are uint8"):
        envs._tables.observe(np.zeros((2, envs.single_observation_space.shape[0]), np.float32),
                             masks)
    with pytest.raises(tripoley.TripoleyError, match="row per table of the right size"):
        envs._tables.observe(np.zeros((2, 973), np.uint8), masks)
    with pytest.raises(tripoley.TripoleyError, match="packed masks are uint8"):
        envs._tables.observe(np.zeros((2, envs.single_observation_space.shape[0]), np.uint8),
                             np.zeros((2, envs._tables.mask_size), np.int8))


def _choose(table, step, mask):
    """A legal action chosen from the table and its step only (so any order of batches gives
    each table the same actions)."""
    legal = np.flatnonzero(mask)
    return legal[(table * 7919 + step * 104729) % len(legal)]


@pytest.mark.parametrize("opponents, packed, batch_size, threads",
                         [("heuristic", False, 2, 2), ("self", True, 4, 2), ("self", False, 1, 1)])
def test_a_pool_plays_the_vector_envs_games_in_any_order_of_batches(opponents, packed,
                                                                    batch_size, threads):
    """Each table of the pool deals and plays what the same table of a vector environment
    with the same seed does, whichever batch comes back first."""
    options = dict(preset="pagat", players=4, opponents=opponents, packed=packed, seed=5)
    # A pool deals a finished game again in the step that ended it.
    envs = TripoleyVectorEnv(8, **options, autoreset_mode=AutoresetMode.SAME_STEP)
    pool = TripoleyEnvPool(8, batch_size, threads=threads, **options)
    unpack = envs.unpack_masks if packed else (lambda m: m)
    obs, infos = envs.reset(seed=6)
    together = [[(obs[i].copy(), 0, infos["to_play"][i])] for i in range(8)]
    for step in range(50):
        masks = unpack(infos["action_mask"])
        actions = [_choose(i, step, masks[i]) for i in range(8)]
        obs, rewards, terminated, truncated, infos = envs.step(actions)
        for i in range(8):
            together[i].append((obs[i].copy(), rewards[i].sum(), infos["to_play"][i]))
    pool.async_reset(seed=6)
    pooled = [[] for _ in range(8)]
    while min(len(p) for p in pooled) < 51:
        obs, rewards, terminated, truncated, infos = pool.recv()
        ids = infos["env_id"]
        masks = unpack(infos["action_mask"])
        for row, i in enumerate(ids):
            pooled[i].append((obs[row].copy(), rewards[row].sum() if len(pooled[i]) else 0,
                              infos["to_play"][row]))
        if len(pooled[ids[0]]) < 51:
            pool.send([_choose(i, len(pooled[i]) - 1, masks[row]) for row, i in enumerate(ids)],
                      ids)
    for i in range(8):
        for (a, r, s), (b, q, t) in zip(together[i], pooled[i]):
            np.testing.assert_array_equal(a, b)
            assert (r, s) == (q, t)


def test_a_pool_refuses_misuse_with_a_message_and_loses_nothing():
    with pytest.raises(ValueError, match="batch_size must divide num_envs"):
        TripoleyEnvPool(6, 4)
    pool = TripoleyEnvPool(4, 2, opponents="random", threads=2)
    with pytest.raises(RuntimeError, match="async_reset"):
        pool.recv()
    pool.async_reset(seed=1)
    rows, _, _, _, first = pool.recv()
    before = rows.copy()
    _, _, _, _, second = pool.recv()
    assert sorted([first["env_id"][0], second["env_id"][0]]) == [0, 2]
    with pytest.raises(tripoley.TripoleyError, match="send a batch's actions first"):
        pool.recv()
    with pytest.raises(ValueError, match="env_id must be a batch's"):
        pool.send([0, 0], [1, 2])
    with pytest.raises(tripoley.TripoleyError, match="2 actions expected"):
        pool.send([0, 0, 0], first["env_id"])
    game = pool.record(int(first["env_id"][1]))
    assert game["steps"]
    actions = pool.sample_actions(first["action_mask"])
    pool.send(actions, first["env_id"])
    with pytest.raises(tripoley.TripoleyError, match="sent and not received since"):
        pool.send(actions, first["env_id"])
    with pytest.raises(tripoley.TripoleyError, match="being stepped"):
        pool.record(int(first["env_id"][1]))
    rows, _, _, _, again = pool.recv()
    assert np.array_equal(again["env_id"], first["env_id"])
    # The refusals lost nothing: the batch's actions, sent once, were played once.
    assert not again["illegal"].any()
    assert (rows != before).any(axis=1).all()


def test_bot_actions_are_legal_labels_that_change_no_game():
    envs = TripoleyVectorEnv(8, "pagat", 4, "heuristic")
    other = TripoleyVectorEnv(8, "pagat", 4, "heuristic")
    obs, infos = envs.reset(seed=5)
    other.reset(seed=5)
    for k in range(30):
        masks = infos["action_mask"]
        for kind in ("heuristic", "expert"):
            labels = envs.bot_actions(kind, seed=k)
            assert np.array_equal(labels, envs.bot_actions(kind, seed=k))  # seeded
            live = labels >= 0
            assert (masks.sum(axis=1)[~live] == 0).all()  # only finished games get -1
            assert (masks[np.flatnonzero(live), labels[live]] == 1).all()
        actions = np.maximum(labels, 0)
        obs, rewards, _, _, infos = envs.step(actions)
        # Asking the bots changed nothing: the same game as a table never asked.
        obs2, rewards2, _, _, _ = other.step(actions)
        assert np.array_equal(obs, obs2) and np.array_equal(rewards, rewards2)
    with pytest.raises(tripoley.TripoleyError):
        envs.bot_actions("nobody")
