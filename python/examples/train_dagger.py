"""Imitates our expert bot with DAgger and a small NumPy network, then measures the policy
against the heuristic and the expert on the same deals.

    python examples/train_dagger.py --eval-expert      # the measured run (docs/python-measurements.md)
    python examples/train_dagger.py --tables 32 --rounds 2 --steps 20 --eval-tables 64 --eval-games 1  # seconds

The learner plays seat 0 of ``--tables`` tables of the pagat preset at four seats, our
heuristic bots at the other three (``TripoleyVectorEnv(opponents="heuristic")``). At each of
its steps the environment's ``bot_actions("expert")`` gives what the expert (searching
``--teacher-playouts`` playouts a decision) would play in the learner's place: its teacher's
label on the learner's own position (DAgger). The network learns those labels from everything
gathered so far. The first round lets the expert drive; in later rounds the learner plays more
and more of its own moves (the expert drives a share ``--beta`` to the power of the round), so
it is taught where its own mistakes lead. A pick of a poker five is one card of the five the
expert would choose, so the choose-five stage is learned card by card, as the action space
plays it. Nothing of the rules is written here: the masks say what is legal, the engine plays,
the bots teach.

The network reads the observation (``log1p`` of its counts) and, by default, the heuristic's
move in the position (``--hint heuristic``: its one-hot, from ``bot_actions("heuristic")``,
plus a learned weight on that move's logit): two hidden layers of ReLUs, a logit per action
integer, the illegal ones masked out, trained by cross-entropy with Adam. The expert plays
the heuristic's move in most positions (all but a few of the choose-five picks; about two
thirds of the betting and the Michigan play): the network learns where it departs from it.
From the observation alone (``--hint none``) it learns the common moves but not those, and
loses to the heuristic. NumPy only, one BLAS thread (``OPENBLAS_NUM_THREADS`` changes it).

Then it plays ``--eval-games`` whole games at each of ``--eval-tables`` tables, seat 0, for
each of the policies: the learner, and our heuristic and expert bots (``--playouts``, the
environment's default 50) asked through ``bot_actions`` so they sit where the learner sits, all
on the same seeded tables: game ``k`` of table ``i`` is the same deal for each. It prints each
one's chips a game and the learner's margins over the others, paired by deal, with 95%
intervals: at tables of heuristic bots, and with ``--eval-expert`` also of expert bots.
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before NumPy loads its BLAS
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

from tripoley.vector import TripoleyVectorEnv  # noqa: E402

PRESET, PLAYERS = "pagat", 4


class Policy:
    """A masked softmax over the action integers from a two-layer ReLU network, with Adam.

    With ``hint`` (a bot kind) the network also reads that bot's move in the position (its
    one-hot, from ``bot_actions``), and a learned weight adds to the hinted move's logit: it
    learns where to follow the hint and where to play otherwise."""

    def __init__(self, n_obs, n_actions, hidden=256, seed=0, lr=1e-3, hint=None):
        rng = np.random.default_rng(seed)
        self.hint = hint
        self.n_actions = n_actions
        sizes = [n_obs + (n_actions if hint else 0), hidden, hidden, n_actions]
        self.params = []
        for a, b in zip(sizes[:-1], sizes[1:]):
            self.params += [(rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32),
                            np.zeros(b, np.float32)]
        self.params.append(np.zeros(1, np.float32))  # the hinted move's extra logit
        self.lr = lr
        self.moments = [(np.zeros_like(p), np.zeros_like(p)) for p in self.params]
        self.t = 0

    def hints(self, envs, seed):
        """The hint bot's moves at every table (-1 where a game has ended), or None."""
        return envs.bot_actions(self.hint, seed=seed) if self.hint else None

    def features(self, obs, hints):
        """The observation as the network reads it: counts (chips) squashed by ``log1p``,
        and the hint's one-hot."""
        x = np.log1p(np.asarray(obs, np.float32))
        if not self.hint:
            return x, None
        onehot = np.zeros((len(x), self.n_actions), np.float32)
        rows = np.flatnonzero(hints >= 0)
        onehot[rows, hints[rows]] = 1.0
        return np.concatenate([x, onehot], axis=1), onehot

    def _forward(self, x, onehot):
        w1, b1, w2, b2, w3, b3, skip = self.params
        h1 = np.maximum(x @ w1 + b1, 0)
        h2 = np.maximum(h1 @ w2 + b2, 0)
        z = h2 @ w3 + b3
        if onehot is not None:
            z += skip * onehot
        return h1, h2, z

    def logits(self, obs, masks, hints=None):
        """Masked logits (illegal actions at -inf)."""
        *_, z = self._forward(*self.features(obs, hints))
        return np.where(masks == 1, z, -np.inf)

    def act(self, obs, masks, hints=None):
        """The most likely legal action of each row (0 for a row with none: a finished game,
        whose action the environment ignores)."""
        z = self.logits(obs, masks, hints)
        actions = z.argmax(axis=1)
        actions[~np.isfinite(z.max(axis=1))] = 0
        return actions

    def train_batch(self, obs, masks, hints, labels):
        """One Adam step of cross-entropy towards ``labels``; returns the loss."""
        x, onehot = self.features(obs, hints)
        h1, h2, z = self._forward(x, onehot)
        z = np.where(masks == 1, z, -1e9)
        z = z - z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        n = len(labels)
        rows = np.arange(n)
        loss = float(-np.log(p[rows, labels] + 1e-12).mean())
        dz = p
        dz[rows, labels] -= 1.0
        dz /= n
        w1, b1, w2, b2, w3, b3, skip = self.params
        dh2 = (dz @ w3.T) * (h2 > 0)
        dh1 = (dh2 @ w2.T) * (h1 > 0)
        dskip = np.array([(dz * onehot).sum()], np.float32) if onehot is not None else skip * 0
        grads = [x.T @ dh1, dh1.sum(0), h1.T @ dh2, dh2.sum(0), h2.T @ dz, dz.sum(0), dskip]
        self.t += 1
        for p_, g, (m, v) in zip(self.params, grads, self.moments):
            m *= 0.9
            m += 0.1 * g
            v *= 0.999
            v += 0.001 * g * g
            mh = m / (1 - 0.9 ** self.t)
            vh = v / (1 - 0.999 ** self.t)
            p_ -= self.lr * mh / (np.sqrt(vh) + 1e-8)
        return loss

    def save(self, path):
        np.savez_compressed(path, *self.params)

    def load(self, path):
        with np.load(path) as saved:
            self.params = [saved[f"arr_{i}"] for i in range(len(self.params))]


def gather(envs, policy, steps, beta, rng, seed):
    """``steps`` batched steps with the expert's labels at every learner position: the expert
    drives a table's step with probability ``beta``, the learner otherwise. Returns the
    observations, masks, hints and labels of the positions (not of finished games)."""
    obs, infos = envs.reset(seed=seed)
    kept = []
    for k in range(steps):
        masks = infos["action_mask"]
        labels = envs.bot_actions("expert", seed=seed * 100_003 + k)
        hints = policy.hints(envs, seed=seed * 100_019 + k)
        live = labels >= 0
        kept.append((obs[live].copy(), masks[live].copy(),
                     np.zeros(0) if hints is None else hints[live], labels[live]))
        mine = policy.act(obs, masks, hints)
        actions = np.where((rng.random(len(labels)) < beta) & live, labels, mine)
        obs, _, _, _, infos = envs.step(actions)
    data = tuple(np.concatenate(column) for column in zip(*kept))
    return data if policy.hint else data[:2] + (None,) + data[3:]


def fit(policy, data, epochs, batch, rng):
    """``epochs`` passes over ``data`` in shuffled minibatches; the last pass's mean loss."""
    obs, masks, hints, labels = data
    loss = 0.0
    for _ in range(epochs):
        order = rng.permutation(len(labels))
        losses = [policy.train_batch(obs[i], masks[i], None if hints is None else hints[i],
                                     labels[i])
                  for i in np.array_split(order, max(1, len(order) // batch))]
        loss = float(np.mean(losses))
    return loss


def agreement(policy, data):
    """The share of positions where the learner plays the expert's label, and with a hint
    the share of those where the expert departs from the hint (None without one)."""
    obs, masks, hints, labels = data
    cut = [slice(i, i + 4096) for i in range(0, len(labels), 4096)]
    same = np.concatenate([
        policy.act(obs[c], masks[c], None if hints is None else hints[c]) == labels[c]
        for c in cut])
    departs = None if hints is None else float(same[hints != labels].mean())
    return float(same.mean()), departs


def play_games(envs, choose, games, seed):
    """Seat 0's chips in each of the first ``games`` games of every table, ``(tables, games)``,
    ``choose(envs, obs, masks, k)`` playing seat 0. Every table deals the same games from the
    same seed whoever plays, so two policies' rows are paired by deal."""
    obs, infos = envs.reset(seed=seed)
    n = envs.num_envs
    won = np.zeros((n, games))
    done = np.zeros(n, int)
    rows = np.arange(n)
    k = 0
    while (done < games).any():
        actions = choose(envs, obs, infos["action_mask"], k)
        obs, rewards, terminated, truncated, infos = envs.step(actions)
        counting = done < games
        won[rows[counting], done[counting]] += rewards[counting]
        done += (terminated | truncated) & counting
        k += 1
    return won


def learner(policy):
    return lambda envs, obs, masks, k: policy.act(obs, masks, policy.hints(envs, 8_000_000 + k))


def bot(kind):
    """Our bot of ``kind`` in seat 0, through ``bot_actions`` (0 where a game has ended)."""
    def choose(envs, obs, masks, k):
        return np.maximum(envs.bot_actions(kind, seed=7_000_000 + k), 0)
    return choose


def interval(x):
    """Mean and the half-width of its 95% interval (normal)."""
    x = np.asarray(x, float).ravel()
    return float(x.mean()), float(1.96 * x.std(ddof=1) / np.sqrt(len(x)))


def evaluate(policy, opponents, tables, games, threads, playouts, seed, with_expert=True):
    """Each policy's chips a game at ``tables`` tables of ``opponents``, the same deals."""
    envs = TripoleyVectorEnv(tables, PRESET, PLAYERS, opponents=opponents, threads=threads,
                             bot_playouts=playouts)
    players = {"learner": learner(policy), "heuristic": bot("heuristic")}
    if with_expert:
        players["expert"] = bot("expert")
    return {name: play_games(envs, choose, games, seed) for name, choose in players.items()}


def report(title, results):
    print(title)
    games = results["learner"].size
    for name, won in results.items():
        mean, half = interval(won)
        print(f"  {name:9} {mean:+8.2f} ± {half:5.2f} chips a game ({games} games)")
    for name in results:
        if name != "learner":
            mean, half = interval(results["learner"] - results[name])
            print(f"  learner − {name}: {mean:+.2f} ± {half:.2f} chips a game (paired by deal)")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=256, help="tables gathering data")
    parser.add_argument("--rounds", type=int, default=8, help="DAgger rounds")
    parser.add_argument("--steps", type=int, default=80, help="batched steps a round")
    parser.add_argument("--beta", type=float, default=0.5,
                        help="the expert drives a share beta**round of the steps")
    parser.add_argument("--epochs", type=int, default=2, help="passes over the data a round")
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--hint", default="heuristic",
                        help="the bot whose move the network also reads ('none': the observation only)")
    parser.add_argument("--teacher-playouts", type=int, default=200,
                        help="the teaching expert's playouts a decision")
    parser.add_argument("--playouts", type=int, default=50,
                        help="the measured expert's playouts (the environment's default)")
    parser.add_argument("--eval-tables", type=int, default=512)
    parser.add_argument("--eval-games", type=int, default=4, help="games at each table")
    parser.add_argument("--eval-expert", action="store_true",
                        help="also play at tables of expert opponents")
    parser.add_argument("--no-eval", action="store_true")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", help="write the trained weights (.npz)")
    parser.add_argument("--load", help="skip training: read weights written by --save")
    args = parser.parse_args(argv)

    # uint16 rows: the same whole numbers as float32 (no stack reaches 65,535), half the memory.
    envs = TripoleyVectorEnv(args.tables, PRESET, PLAYERS, opponents="heuristic",
                             threads=args.threads, bot_playouts=args.teacher_playouts,
                             obs_dtype="uint16")
    policy = Policy(envs.single_observation_space.shape[0], envs.single_action_space.n,
                    args.hidden, seed=args.seed, lr=args.lr,
                    hint=None if args.hint == "none" else args.hint)
    rng = np.random.default_rng(args.seed)
    start = time.perf_counter()
    history = []
    if args.load:
        policy.load(args.load)
    else:
        data = None
        for r in range(args.rounds):
            fresh = gather(envs, policy, args.steps, args.beta ** r, rng, seed=args.seed * 1000 + r)
            # The learner's agreement with the expert on positions it has not learned from.
            seen, departs = agreement(policy, fresh)
            data = fresh if data is None else tuple(
                None if old is None else np.concatenate([old, new]) for old, new in zip(data, fresh))
            loss = fit(policy, data, args.epochs, args.batch, rng)
            history.append((seen, departs))
            print(f"round {r}: {len(data[3]):,} positions; before learning them, plays the "
                  f"expert's move in {seen:.3f} of the new ones"
                  + ("" if departs is None else f" ({departs:.3f} of those where the expert "
                     f"departs from the {policy.hint})")
                  + f"; loss {loss:.3f} ({time.perf_counter() - start:.0f} s)", flush=True)
        if args.save:
            policy.save(args.save)
    trained_in = time.perf_counter() - start
    print(f"trained in {trained_in:.0f} s")
    results = {}
    if not args.no_eval:
        results["heuristic"] = evaluate(policy, "heuristic", args.eval_tables, args.eval_games,
                                        args.threads, args.playouts, seed=args.seed + 10_000)
        report(f"seat 0 at {args.eval_tables} tables of three heuristic bots, {PRESET}",
               results["heuristic"])
        if args.eval_expert:
            results["expert"] = evaluate(policy, "expert", args.eval_tables, args.eval_games,
                                         args.threads, args.playouts, seed=args.seed + 20_000)
            report(f"seat 0 at {args.eval_tables} tables of three expert bots, {PRESET}",
                   results["expert"])
        print(f"trained and measured in {time.perf_counter() - start:.0f} s")
    return policy, history, results, trained_in


if __name__ == "__main__":
    main()
