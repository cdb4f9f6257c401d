"""The vector environment under Gymnasium's own vector wrappers and a CleanRL-style loop
(issue 51): auto-reset modes, infos, final observations."""

import numpy as np
from gymnasium.vector import AutoresetMode
from gymnasium.wrappers.vector import DtypeObservation, NormalizeObservation, NormalizeReward, RecordEpisodeStatistics

from tripoley.vector import TripoleyVectorEnv


def _random_actions(masks, rng):
    return (rng.random(masks.shape) * masks).argmax(axis=1)


def test_the_default_is_gymnasiums_next_step_and_same_step_is_an_option():
    assert TripoleyVectorEnv(2, "pagat", 4, "random").metadata["autoreset_mode"] \
        == AutoresetMode.NEXT_STEP
    same = TripoleyVectorEnv(2, "pagat", 4, "random", autoreset_mode=AutoresetMode.SAME_STEP)
    assert same.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    # The class's own metadata is not changed by an instance's mode.
    assert TripoleyVectorEnv.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP


def test_every_step_returns_infos_of_its_own():
    envs = TripoleyVectorEnv(2, "pagat", 4, "random")
    _, first = envs.reset(seed=1)
    _, _, _, _, second = envs.step(envs.sample_actions(first["action_mask"]))
    assert second is not first
    _, _, _, _, third = envs.step(envs.sample_actions(second["action_mask"]))
    assert third is not second


def test_record_episode_statistics_counts_every_game():
    envs = RecordEpisodeStatistics(TripoleyVectorEnv(4, "pagat", 3, "random", max_steps=40))
    _, infos = envs.reset(seed=2)
    rng = np.random.default_rng(2)
    ended, reported = 0, 0
    for _ in range(400):
        _, _, terminated, truncated, infos = envs.step(_random_actions(infos["action_mask"], rng))
        ended += int((terminated | truncated).sum())
        if "episode" in infos:
            reported += int(infos["_episode"].sum())
    assert ended > 12 and reported == ended
    assert len(envs.return_queue) == min(ended, 100)


def test_next_step_shows_the_last_row_then_deals_and_ignores_the_action():
    envs = TripoleyVectorEnv(3, "pagat", 3, "random", max_steps=6)
    obs, infos = envs.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(6):
        obs, rewards, terminated, truncated, infos = envs.step(
            _random_actions(infos["action_mask"], rng))
    assert truncated.all()
    # The cut game's last row stays until the next step.
    last = obs.copy()
    masks = infos["action_mask"].copy()
    # Any action at a finished table is ignored, even one its old mask forbids.
    actions = np.array([int(np.flatnonzero(m == 0)[0]) for m in masks])
    obs, rewards, terminated, truncated, infos = envs.step(actions)
    assert not terminated.any() and not truncated.any() and not infos["illegal"].any()
    assert (rewards == 0).all()
    assert not np.array_equal(obs, last)
    assert all(infos["action_mask"][i].any() for i in range(3))


def test_same_step_gives_each_finished_games_final_observation_and_info():
    kwargs = dict(num_envs=3, preset="pagat", players=3, opponents="random", max_steps=8)
    same = TripoleyVectorEnv(**kwargs, autoreset_mode=AutoresetMode.SAME_STEP)
    nxt = TripoleyVectorEnv(**kwargs)
    _, same_infos = same.reset(seed=4)
    _, next_infos = nxt.reset(seed=4)
    rng = np.random.default_rng(4)
    for step in range(8):  # noqa: B007 (read after the loop)
        actions = _random_actions(same_infos["action_mask"], rng)
        obs, _, terminated, truncated, same_infos = same.step(actions)
        next_obs, _, _, _, next_infos = nxt.step(actions)
        done = terminated | truncated
        if not done.any():
            assert "final_obs" not in same_infos
            continue
        np.testing.assert_array_equal(same_infos["_final_obs"], done)
        np.testing.assert_array_equal(same_infos["_final_info"], done)
        np.testing.assert_array_equal(same_infos["final_obs"][done], next_obs[done])
        np.testing.assert_array_equal(same_infos["final_info"]["action_mask"][done],
                                      next_infos["action_mask"][done])
    assert truncated.all() and step == 7
    # The same step dealt the next games: the rows are theirs, as NEXT_STEP's next step's.
    next_obs, _, _, _, _ = nxt.step(np.zeros(3, np.int64))
    np.testing.assert_array_equal(obs, next_obs)


def test_normalize_and_dtype_observation_wrappers_accept_the_environment():
    envs = TripoleyVectorEnv(4, "pagat", 4, "random", obs_dtype="uint8")
    envs = DtypeObservation(envs, np.float32)
    envs = NormalizeObservation(envs)
    envs = NormalizeReward(envs)
    obs, infos = envs.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(200):
        obs, rewards, _, _, infos = envs.step(_random_actions(infos["action_mask"], rng))
        assert obs.dtype == np.float32 and np.isfinite(obs).all() and np.isfinite(rewards).all()


def test_a_cleanrl_style_policy_gradient_loop_runs_thousands_of_steps():
    """CleanRL's PPO loop in miniature: Gymnasium's wrappers, rollouts into buffers, a masked
    softmax policy (linear, numpy), episode statistics from RecordEpisodeStatistics."""
    num_envs, num_steps, iterations = 8, 64, 6   # 3,072 steps
    envs = TripoleyVectorEnv(num_envs, "pagat", 3, "random", obs_dtype="uint8")
    envs = RecordEpisodeStatistics(NormalizeObservation(DtypeObservation(envs, np.float32)))
    n_obs = envs.single_observation_space.shape[0]
    n_act = envs.single_action_space.n
    rng = np.random.default_rng(6)
    weights = np.zeros((n_obs, n_act), np.float32)
    obs, infos = envs.reset(seed=6)
    returns = []
    for _ in range(iterations):
        buf_obs = np.zeros((num_steps, num_envs, n_obs), np.float32)
        buf_masks = np.zeros((num_steps, num_envs, n_act), bool)
        buf_actions = np.zeros((num_steps, num_envs), np.int64)
        buf_rewards = np.zeros((num_steps, num_envs), np.float32)
        buf_dones = np.zeros((num_steps, num_envs), bool)
        for t in range(num_steps):
            masks = infos["action_mask"].astype(bool)
            logits = np.where(masks, obs @ weights, -np.inf)
            # A finished game's row (NEXT_STEP) has no legal action: its action is ignored.
            logits[~masks.any(axis=1)] = 0.0
            probs = np.exp(logits - logits.max(axis=1, keepdims=True))
            probs /= probs.sum(axis=1, keepdims=True)
            actions = (probs.cumsum(axis=1) > rng.random((num_envs, 1))).argmax(axis=1)
            buf_obs[t], buf_masks[t], buf_actions[t] = obs, masks, actions
            obs, rewards, terminated, truncated, infos = envs.step(actions)
            buf_rewards[t], buf_dones[t] = rewards, terminated | truncated
            if "episode" in infos:
                returns.extend(infos["episode"]["r"][infos["_episode"]])
        # Returns to go, cut at each game's end; a REINFORCE step on the masked softmax.
        to_go, running = np.zeros_like(buf_rewards), np.zeros(num_envs, np.float32)
        for t in reversed(range(num_steps)):
            running = buf_rewards[t] + 0.99 * running * ~buf_dones[t]
            to_go[t] = running
        advantages = (to_go - to_go.mean()) / (to_go.std() + 1e-8)
        flat_obs = buf_obs.reshape(-1, n_obs)
        flat_masks = buf_masks.reshape(-1, n_act)
        logits = np.where(flat_masks, flat_obs @ weights, -np.inf)
        logits[~flat_masks.any(axis=1)] = 0.0
        probs = np.exp(logits - logits.max(axis=1, keepdims=True))
        probs /= probs.sum(axis=1, keepdims=True)
        grad = -probs
        grad[np.arange(len(grad)), buf_actions.reshape(-1)] += 1.0
        grad *= advantages.reshape(-1, 1) * flat_masks.any(axis=1, keepdims=True)
        weights += 1e-3 * (flat_obs.T @ grad) / len(grad)
        assert np.isfinite(weights).all()
    assert len(returns) > 0 and np.isfinite(returns).all()
