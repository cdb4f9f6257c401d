"""Environment steps per second with random legal actions: our PettingZoo AEC
environment and OpenSpiel game, beside RLCard's limit hold'em (directly and
through PettingZoo's texas_holdem_v4, which wraps RLCard) as the anchor.

    python examples/benchmark.py [--seconds 3] [--rounds 3]

Every environment runs in this one process, one after another, and the
whole list is run ``--rounds`` times; each figure is the best round, so a
moment of load from elsewhere on the machine spoils no single figure. Two
rates are printed: steps per second of wall time, and steps per second of the
process's CPU time (every thread's), which other programs on a busy machine
do not lower: per CPU second is per core. A step
is one action of a player; each loop does what its interface asks of a
player at each step (``last()`` and its observation for PettingZoo, the
state for RLCard) and picks uniformly among the legal actions it is given
(the mask's nonzero entries, or RLCard's ``legal_actions``). OpenSpiel's
chance steps (the deck, dealt card by card) are applied too but not counted.

The batched rows (``tripoley.vector``) step 1,024 tables per call (a table's step that only
deals its next game, Gymnasium's ``NEXT_STEP`` auto-reset, is not counted), you at one seat and
random bots at the other three inside Rust; a step there is one of your actions (at one
table), the bots' actions between yours not counted, the policy a random legal action per
table: drawn for the whole batch with NumPy, or by the environment's ``sample_actions`` (in
Rust, reading the masks once). They run on one thread, then on every core; observations in
float32, then in uint8 (``obs_dtype="uint8"``: the same numbers, a quarter of the bytes).
The self-play rows (``opponents="self"``) put you at every seat, as the RLCard loop plays
every player: each step is one decision at each table, whoever is to act, observed and
masked for that seat; these are the rows counted the same way as RLCard's. The packed rows
(``packed=True``) write the same rows in bits (card planes and masks), a quarter of the bytes.
The ``TripoleyEnvPool`` rows step the same 1,024 tables in batches (two for each thread),
received and sent asynchronously: the threads step batches while the policy draws for another.

Two rows measure no game at all, to show what the loop costs by itself: the
PettingZoo loop's policy on one fixed mask (the most any PettingZoo
environment could reach with this policy), and a PettingZoo environment that
does nothing, bare and in PettingZoo's ``OrderEnforcingWrapper`` (the
wrapper's own cost per step).
"""

import argparse
import multiprocessing
import os
import random
import statistics
import time

# numpy's BLAS threads otherwise spin beside the loops on a small machine (no loop here
# multiplies matrices); the same for every environment.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402


def time_loop(seconds, one_game):
    """Plays games (``one_game()`` returns its steps) until ``seconds`` pass; steps per second
    of wall time and per second of this process's CPU time (every thread's)."""
    steps, start, cpu = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        steps += one_game()
    return (steps / (time.perf_counter() - start),
            steps / max(time.process_time() - cpu, 1e-9))


def pick(rng, legal):
    """A uniformly random element of the list ``legal``: every loop's policy."""
    return legal[int(rng.random() * len(legal))]


_BOOL = np.dtype(np.bool_)


def legal_in(mask):
    """The legal actions of an int8 action mask, as a list. The mask's bytes are read as
    bool: numpy's ``nonzero`` on int8 calls a function per element, on bool it does not,
    and the policy should cost little beside the environments it drives."""
    return mask.view(_BOOL).nonzero()[0].tolist()


def aec_games(e):
    """Whole games of an AEC environment ``e`` (reset for each, as RLCard's is), random
    legal actions from the mask."""
    rng, seeds = random.Random(1), iter(range(1 << 30))

    def one_game():
        e.reset(seed=next(seeds))
        steps = 0
        for _ in e.agent_iter():
            obs, _, done, truncated, _ = e.last()
            if done or truncated:
                e.step(None)
                continue
            e.step(pick(rng, legal_in(obs["action_mask"])))
            steps += 1
        return steps
    return one_game


def tripoley_raw():
    from tripoley.pettingzoo import raw_env
    return aec_games(raw_env("pagat", 4))


def tripoley_wrapped():
    from tripoley.pettingzoo import env
    return aec_games(env("pagat", 4))


def holdem_aec():
    from pettingzoo.classic import texas_holdem_v4
    return aec_games(texas_holdem_v4.env(num_players=4))


def policy_alone():
    """The PettingZoo loop's own work on one fixed mask of seven legal actions among 500,
    with no environment: the ceiling of any PettingZoo environment under this policy."""
    rng = random.Random(1)
    mask = np.zeros(500, np.int8)
    mask[[3, 17, 52, 56, 61, 62, 300]] = 1
    obs = {"observation": np.zeros(973, np.float32), "action_mask": mask}
    last = (obs, 0.0, False, False, {})

    def one_game():
        for _ in range(100):
            obs, _, done, truncated, _ = last
            pick(rng, legal_in(obs["action_mask"]))
        return 100
    return one_game


def noop_env(wrapped):
    """A PettingZoo AEC environment with no game: four agents take turns for 100 steps,
    each seeing the same fixed observation. PettingZoo's own ``AECEnv`` supplies
    ``last()`` and ``agent_iter()``; ``wrapped`` puts it in the ``OrderEnforcingWrapper``
    as :func:`tripoley.pettingzoo.env` does, so the two rows differ by that wrapper alone."""
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers

    class Noop(AECEnv):
        metadata = {"name": "noop_v0", "render_modes": [], "is_parallelizable": False}

        def __init__(self):
            self.possible_agents = [f"player_{i}" for i in range(4)]
            mask = np.zeros(500, np.int8)
            mask[[3, 17, 52, 56, 61, 62, 300]] = 1
            self._obs = {"observation": np.zeros(973, np.float32), "action_mask": mask}
            space = spaces.Dict({
                "observation": spaces.Box(0.0, np.inf, (973,), np.float32),
                "action_mask": spaces.Box(0, 1, (500,), np.int8),
            })
            self.observation_spaces = dict.fromkeys(self.possible_agents, space)
            self.action_spaces = dict.fromkeys(self.possible_agents, spaces.Discrete(500))

        def observation_space(self, agent):
            return self.observation_spaces[agent]

        def action_space(self, agent):
            return self.action_spaces[agent]

        def reset(self, seed=None, options=None):
            self.agents = self.possible_agents[:]
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
            self.terminations = dict.fromkeys(self.agents, False)
            self.truncations = dict.fromkeys(self.agents, False)
            self.infos = {a: {} for a in self.agents}
            self._left, self._turn = 100, 0
            self.agent_selection = self.agents[0]

        def observe(self, agent):
            return self._obs

        def step(self, action):
            if self.terminations[self.agent_selection]:
                self._was_dead_step(action)
                return
            self._cumulative_rewards[self.agent_selection] = 0.0
            self._left -= 1
            if self._left == 0:
                self.terminations = dict.fromkeys(self.agents, True)
            self._turn = (self._turn + 1) % 4
            self.agent_selection = self.agents[self._turn]

    e = Noop()
    return aec_games(wrappers.OrderEnforcingWrapper(e) if wrapped else e)


def tripoley_table():
    from tripoley import Table
    rng, seeds = random.Random(1), iter(range(1 << 30))

    def one_game():
        table, steps = Table("pagat", 4, seed=next(seeds)), 0
        while table.current() >= 0:
            table.step(pick(rng, table.legal()))
            steps += 1
        return steps
    return one_game


def openspiel(counts):
    import pyspiel

    import tripoley.openspiel  # noqa: F401
    game = pyspiel.load_game("python_tripoley", {"preset": "pagat", "players": 4})
    rng = random.Random(1)

    def one_game():
        state = game.new_initial_state()
        steps = chance = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(pick(rng, state.chance_outcomes())[0])
                chance += 1
            else:
                state.apply_action(pick(rng, state.legal_actions()))
                steps += 1
        counts["player"] += steps
        counts["chance"] += chance
        return steps
    return one_game


def rlcard_holdem():
    import rlcard
    env = rlcard.make("limit-holdem", config={"seed": 1, "game_num_players": 4})
    rng = random.Random(1)

    def one_hand():
        state, _ = env.reset()
        steps = 0
        while not env.is_over():
            state, _ = env.step(pick(rng, list(state["legal_actions"])))
            steps += 1
        return steps
    return one_hand


def tripoley_vector(threads, numpy_policy, obs_dtype="float32", tables=1024,
                    opponents="random", packed=False):
    from tripoley.vector import TripoleyVectorEnv
    envs = TripoleyVectorEnv(tables, "pagat", 4, opponents=opponents, threads=threads,
                             obs_dtype=None if packed else obs_dtype, packed=packed)
    rng = np.random.default_rng(1)
    _, infos = envs.reset(seed=1)
    masks = infos["action_mask"]
    # Tables whose game ended at the last step: under Gymnasium's NEXT_STEP auto-reset (the
    # default) their next step deals the next game and ignores the action, so it is no step.
    done = np.zeros(tables, dtype=bool)

    def policy():
        if numpy_policy:
            return (rng.random(masks.shape) * masks).argmax(axis=1)
        return envs.sample_actions(masks)

    def one_batch():
        steps = 0
        for _ in range(10):
            steps += tables - int(done.sum())
            _, _, terminated, truncated, _ = envs.step(policy())
            np.logical_or(terminated, truncated, out=done)
        return steps
    return one_batch


def tripoley_pool(threads, numpy_policy, obs_dtype="float32", tables=1024, opponents="random",
                  packed=False):
    """The same tables as ``tripoley_vector`` in a ``TripoleyEnvPool``: two batches for each
    thread, received and sent, the same policy for each batch."""
    from tripoley.vector import TripoleyEnvPool
    batches = 2 * threads
    pool = TripoleyEnvPool(tables, tables // batches, "pagat", 4, opponents=opponents,
                           threads=threads, obs_dtype=None if packed else obs_dtype,
                           packed=packed)
    pool.async_reset(seed=1)
    rng = np.random.default_rng(1)

    def one_batch():
        for _ in range(10 * batches):
            _, _, _, _, infos = pool.recv()
            masks = infos["action_mask"]
            actions = ((rng.random(masks.shape) * masks).argmax(axis=1) if numpy_policy
                       else pool.sample_actions(masks))
            pool.send(actions, infos["env_id"])
        return 10 * tables
    return one_batch


OPENSPIEL = "OpenSpiel python_tripoley, pagat, 4 players"


_WORKER_LOOP = None


def _worker_start(options):
    """A process of the machine's own ceiling: one thread's loop of its own."""
    global _WORKER_LOOP
    _WORKER_LOOP = tripoley_vector(1, **options)


def _worker_window(task):
    seconds, barrier = task
    barrier.wait()
    return time_loop(seconds, _WORKER_LOOP)[0]


def scaling(windows, seconds):
    """Every core's threads against one thread, batched at 1,024 tables, in alternating windows
    of ``seconds``: on a shared virtual machine the host takes a core for seconds at a time, so
    two rows of the table measured a minute apart can compare different machines. The threads
    step the vector environment together (``threads``), or step the batches of a
    ``TripoleyEnvPool`` of the same tables (``pool``). Beside them, the machine's own ceiling:
    as many separate processes as cores, one thread each, their steps added (what the cores
    give when nothing is shared). Prints the medians and the ranges of the windows' ratios to
    the vector environment on one thread."""
    cores = os.cpu_count()
    print(f"\n{cores} threads (together, and as a pool), and {cores} processes of one thread, "
          f"against 1 thread, alternating {seconds} s windows ({windows} each):")
    sample = dict(numpy_policy=False)
    for name, options in [("self-play, packed", dict(sample, opponents="self", packed=True)),
                          ("self-play, uint8", dict(sample, opponents="self", obs_dtype="uint8")),
                          ("with bots, uint8", dict(sample, obs_dtype="uint8")),
                          ("with bots, uint8, NumPy policy",
                           dict(numpy_policy=True, obs_dtype="uint8"))]:
        one, many = (tripoley_vector(threads, **options) for threads in (1, cores))
        pooled = tripoley_pool(cores, **options)
        threads, pools, processes = [], [], []
        with multiprocessing.Manager() as manager, multiprocessing.get_context("fork").Pool(
                cores, _worker_start, (options,)) as pool:
            barrier = manager.Barrier(cores)
            for _ in range(windows):
                alone = time_loop(seconds, one)[0]
                threads.append(time_loop(seconds, many)[0] / alone)
                pools.append(time_loop(seconds, pooled)[0] / alone)
                processes.append(sum(pool.map(_worker_window, [(seconds, barrier)] * cores,
                                              chunksize=1)) / alone)
        print(f"  {name:<30} " + "; ".join(
            f"{what} median {statistics.median(r):.2f}x ({min(r):.2f}x to {max(r):.2f}x)"
            for what, r in [("threads", threads), ("pool", pools), ("processes", processes)]))


def when_and_what():
    """The run's date, the machine's load and the versions measured: a figure means little
    without them (other work on the machine slows every row, the anchor's too)."""
    import platform
    from importlib.metadata import PackageNotFoundError, version

    def v(name):
        try:
            return version(name)
        except PackageNotFoundError:
            return "not installed"
    names = ["tripoley", "rlcard", "numpy", "pettingzoo", "gymnasium", "open_spiel"]
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    return (f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; load average {load} "
            f"(1, 5, 15 min) on {os.cpu_count()} cores; Python "
            f"{platform.python_version()}; " + ", ".join(f"{n} {v(n)}" for n in names))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per environment and round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds over every environment")
    parser.add_argument("--scaling-windows", type=int, default=10,
                        help="pairs of windows comparing threads with one thread (0: none)")
    args = parser.parse_args()
    print(when_and_what())
    counts = {"player": 0, "chance": 0}
    loops = [
        ("RLCard limit hold'em, 4 players (rlcard.make)", rlcard_holdem()),
        ("PettingZoo texas_holdem_v4 (RLCard in 3 wrappers), 4 players", holdem_aec()),
        ("tripoley.Table (integers, no framework), pagat, 4 players", tripoley_table()),
        ("tripoley.pettingzoo.raw_env (the fast path), pagat, 4 players", tripoley_raw()),
        ("tripoley.pettingzoo.env (OrderEnforcingWrapper), pagat, 4 players", tripoley_wrapped()),
        (OPENSPIEL, openspiel(counts)),
        ("tripoley.vector, 1,024 tables, 1 thread, NumPy policy", tripoley_vector(1, True)),
        ("tripoley.vector, 1,024 tables, 1 thread, sample_actions", tripoley_vector(1, False)),
        ("tripoley.vector, 1,024 tables, 1 thread, sample_actions, uint8",
         tripoley_vector(1, False, "uint8")),
        (f"tripoley.vector, 1,024 tables, {os.cpu_count()} threads, sample_actions",
         tripoley_vector(os.cpu_count(), False)),
        (f"tripoley.vector, 1,024 tables, {os.cpu_count()} threads, sample_actions, uint8",
         tripoley_vector(os.cpu_count(), False, "uint8")),
        ("tripoley.vector, 1,024 tables, self-play, 1 thread, sample_actions, uint8",
         tripoley_vector(1, False, "uint8", opponents="self")),
        (f"tripoley.vector, 1,024 tables, self-play, {os.cpu_count()} threads, "
         "sample_actions, uint8", tripoley_vector(os.cpu_count(), False, "uint8",
                                                  opponents="self")),
        ("tripoley.vector, 1,024 tables, self-play, 1 thread, sample_actions, packed",
         tripoley_vector(1, False, opponents="self", packed=True)),
        (f"tripoley.vector, 1,024 tables, self-play, {os.cpu_count()} threads, "
         "sample_actions, packed", tripoley_vector(os.cpu_count(), False, opponents="self",
                                                   packed=True)),
        ("tripoley.vector, 1,024 tables, 1 thread, sample_actions, packed",
         tripoley_vector(1, False, packed=True)),
        (f"tripoley.vector, 1,024 tables, {os.cpu_count()} threads, NumPy policy, uint8",
         tripoley_vector(os.cpu_count(), True, "uint8")),
        (f"TripoleyEnvPool, 1,024 tables, {os.cpu_count()} threads, NumPy policy, uint8",
         tripoley_pool(os.cpu_count(), True, "uint8")),
        (f"TripoleyEnvPool, 1,024 tables, {os.cpu_count()} threads, sample_actions, uint8",
         tripoley_pool(os.cpu_count(), False, "uint8")),
        (f"TripoleyEnvPool, 1,024 tables, self-play, {os.cpu_count()} threads, "
         "sample_actions, packed", tripoley_pool(os.cpu_count(), False, opponents="self",
                                                 packed=True)),
        ("no game: the PettingZoo loop's policy on a fixed mask", policy_alone()),
        ("no game: a PettingZoo environment that does nothing", noop_env(wrapped=False)),
        ("no game: the same in OrderEnforcingWrapper", noop_env(wrapped=True)),
    ]
    best = [0.0] * len(loops)
    best_cpu = [0.0] * len(loops)
    for _ in range(args.rounds):
        for i, (_, loop) in enumerate(loops):
            rate, cpu_rate = time_loop(args.seconds, loop)
            best[i], best_cpu[i] = max(best[i], rate), max(best_cpu[i], cpu_rate)
    anchor, cpu_anchor = best[0], best_cpu[0]
    width = max(len(name) for name, _ in loops)
    print(f"{'environment':<{width}}  {'steps/s':>10}  {'vs RLCard':>9}  "
          f"{'per CPU s':>10}  {'vs RLCard':>9}")
    for (name, _), rate, cpu_rate in zip(loops, best, best_cpu):
        print(f"{name:<{width}}  {rate:>10,.0f}  {rate / anchor:>8.1f}x  "
              f"{cpu_rate:>10,.0f}  {cpu_rate / cpu_anchor:>8.1f}x")
    rates = dict(zip((name for name, _ in loops), best))
    per_player = counts["chance"] / max(1, counts["player"])
    print(f"(OpenSpiel also applied {per_player:.2f} chance steps per player step, the decks "
          f"card by card: {rates[OPENSPIEL] * (1 + per_player):,.0f} actions/s in all)")
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.scaling_windows > 0:
        scaling(args.scaling_windows, 0.5)
        print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
