"""Random-playout throughput of each game: games/s and actions/s, median of several runs."""

from __future__ import annotations

import itertools
import json
import random
import statistics
import time
from dataclasses import asdict, dataclass

from tminus.core.game import Game, State
from tminus.core.playout import random_playout, random_playout_counts, sample_chance
from tminus.core.progress import Step, Steps, counting


@dataclass(frozen=True)
class BenchResult:
    game: str
    params: dict
    runs: int
    games_per_second: float
    actions_per_second: float
    actions_per_game: float


def bench_game(
    game: Game, runs: int = 5, seconds: float = 1.0, seed: int = 0, progress: Step | None = None
) -> BenchResult:
    """Play random games for ``seconds`` per run, ``runs`` times; report the medians (each
    run told to ``progress`` when done)."""
    rng = random.Random(seed)
    game_rates, action_rates, lengths = [], [], []
    run_done = counting(progress, runs)
    for _ in range(runs):
        games = actions = 0
        start = time.perf_counter()
        deadline = start + seconds
        while True:
            actions += random_playout(game.new_initial_state(), rng)
            games += 1
            now = time.perf_counter()
            if now >= deadline:
                break
        elapsed = now - start
        game_rates.append(games / elapsed)
        action_rates.append(actions / elapsed)
        lengths.append(actions / games)
        run_done()
    return BenchResult(
        game=game.name,
        params=dict(game.params),
        runs=runs,
        games_per_second=statistics.median(game_rates),
        actions_per_second=statistics.median(action_rates),
        actions_per_game=statistics.median(lengths),
    )


def search_positions(game: Game, count: int, seed: int) -> list[State]:
    """Decision states met along random games: the positions a search bot is timed on."""
    rng = random.Random(seed)
    positions: list[State] = []
    while len(positions) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(positions) < count:
            if state.is_chance_node():
                state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
            else:
                legal = state.legal_actions()
                if len(legal) > 1 and rng.random() < 0.2:
                    positions.append(state.clone())
                state.apply_action(rng.choice(legal))
    return positions


@dataclass(frozen=True)
class SearchBenchResult:
    game: str
    agent: str
    simulations: int
    decisions_per_second: float


def bench_search(
    game: Game,
    simulations: int = 100,
    runs: int = 3,
    positions: int = 10,
    progress: Step | None = None,
):
    """Decisions per second of MCTS (IS-MCTS where the game hides information), each
    decision told to ``progress``."""
    from tminus.agents.registry import make_agent

    name = "mcts" if game.game_type.information == "perfect" else "ismcts"
    agent = make_agent(f"{name}:simulations={simulations}", game, seed=0)
    states = search_positions(game, positions, seed=1)
    decided = counting(progress, runs * len(states))
    rates = []
    for _ in range(runs):
        start = time.perf_counter()
        for state in states:
            agent.step(state)
            decided()
        rates.append(len(states) / (time.perf_counter() - start))
    return SearchBenchResult(game.name, name, simulations, statistics.median(rates))


@dataclass(frozen=True)
class ScalingBenchResult:
    game: str
    games: int
    games_per_second: dict[int, float]  # workers -> games/s

    @property
    def speedup(self) -> float:
        one, most = self.games_per_second[1], self.games_per_second[max(self.games_per_second)]
        return most / one


def bench_scaling(
    game: Game,
    games: int = 2000,
    workers: tuple[int, ...] = (1, 2),
    progress: Step | None = None,
):
    """Simulation games/s of random agents with 1 and more local worker processes (the
    games played told to ``progress``)."""
    from tminus.sim.backends import run_batch
    from tminus.sim.runner import Batch

    batch = Batch(game.name, dict(game.params), (("random",) * game.num_players,), seed=0)
    played = counting(progress, games * len(workers))
    rates = {}
    for count in workers:
        start = time.perf_counter()
        run_batch(batch, games, workers=count, progress=played)
        rates[count] = games / (time.perf_counter() - start)
    return ScalingBenchResult(game.name, games, rates)


@dataclass(frozen=True)
class InteropBenchResult:
    game: str
    simulations: int
    ours: str
    ours_per_second: float
    openspiel_per_second: float

    @property
    def ratio(self) -> float:
        return self.ours_per_second / self.openspiel_per_second


def bench_vs_openspiel(
    game: Game,
    simulations: int = 100,
    positions: int = 6,
    runs: int = 3,
    progress: Step | None = None,
):
    """T-minus MCTS against OpenSpiel's Python MCTSBot through the adapter, same positions
    and simulations, random rollouts on both sides: decisions per CPU second (the process's
    own time, so other work on a shared machine does not skew the ratio), median of runs;
    each decision, either side's, told to ``progress``."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts as openspiel_mcts

    from tminus.agents.registry import make_agent
    from tminus.interop.openspiel import PREFIX

    spiel_game = pyspiel.load_game(PREFIX + game.name, dict(game.params))
    states = search_positions(game, positions, seed=1)
    spiel_states = []
    for state in states:
        spiel_state = spiel_game.new_initial_state()
        for action in state.history():
            spiel_state.apply_action(action)
        spiel_states.append(spiel_state)
    name = "mcts" if game.game_type.information == "perfect" else "ismcts"
    # Plain UCT played to the game's end, as OpenSpiel's bot does.
    spec = f"{name}:simulations={simulations}:rollout=random:root=uct:horizon=game"
    ours = make_agent(spec, game, seed=0)
    rng = np.random.RandomState(0)
    evaluator = openspiel_mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    theirs = openspiel_mcts.MCTSBot(
        spiel_game, 1.4, simulations, evaluator, random_state=rng, solve=False
    )
    decided = counting(progress, 2 * runs * len(states))
    our_rates, their_rates = [], []
    for _ in range(runs):
        start = time.process_time()
        for state in states:
            ours.step(state)
            decided()
        our_rates.append(len(states) / (time.process_time() - start))
        start = time.process_time()
        for state in spiel_states:
            theirs.step(state)
            decided()
        their_rates.append(len(states) / (time.process_time() - start))
    return InteropBenchResult(
        game.name, simulations, name, statistics.median(our_rates), statistics.median(their_rates)
    )


BATCH_SIZES = (1, 64, 1024, 16384, 65536)  # the four sizes, and one larger


@dataclass(frozen=True)
class BatchBenchResult:
    game: str
    params: dict
    batch_size: int
    actions_per_second: float  # history entries (moves and chance outcomes) per CPU second
    decisions_per_second: float  # moves by players only
    reference_actions_per_second: float
    reference_decisions_per_second: float
    memory_per_game: float  # bytes of state per game (the history log not counted)

    @property
    def ratio(self) -> float:
        return self.actions_per_second / self.reference_actions_per_second

    @property
    def decision_ratio(self) -> float:
        """The players' decisions a CPU second against the reference's."""
        return self.decisions_per_second / self.reference_decisions_per_second


def reference_rate(game: Game, seconds: float = 1.0, seed: int = 0) -> tuple[float, float]:
    """(actions, decisions) per CPU second of the reference engine's random playouts (as
    ``bench_game``)."""
    rng = random.Random(seed)
    actions = decisions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        played, decided = random_playout_counts(game.new_initial_state(), rng)
        actions, decisions = actions + played, decisions + decided
    elapsed = time.process_time() - start
    return actions / elapsed, decisions / elapsed


def batch_rate(env, seconds: float = 1.0, seed: int = 0) -> tuple[float, float]:
    """(actions, decisions) per CPU second of uniformly random play on a batch engine whose
    games start again (``auto_reset``), from a fresh deal for at least ``seconds`` and until
    the batch has finished as many games as it holds, so that the timing covers the games'
    whole lives as the reference's playouts do.

    A fixed while alone would time the openings only at large batches: a second holds a
    few hundred of a batch's steps, and a random game of Count Down lasts about 3,600
    decisions, whose later meetings cost more than its first rolls."""
    import numpy as np

    rng = np.random.default_rng(seed)
    size = env.batch_size
    env.step(env.sample_legal(rng.random(size)), check=False)  # warm up (and load compiled code)
    env.reset()
    actions, finished, decisions = env.actions_applied, env.games_finished, 0
    start = time.process_time()
    while time.process_time() - start < seconds or env.games_finished - finished < size:
        decisions += size - np.count_nonzero(env.terminal())  # (those over start again)
        env.step(env.sample_legal(rng.random(size)), check=False)
    elapsed = time.process_time() - start
    return (env.actions_applied - actions) / elapsed, decisions / elapsed


def bench_batch(
    names: list[str] | None = None,
    sizes: tuple[int, ...] = BATCH_SIZES,
    seconds: float = 1.0,
    backend: str = "numpy",
    progress: Steps | None = None,
) -> list[BatchBenchResult]:
    """Random play on the batch engines against the reference engines, in one process
    pinned to one core, timed in CPU seconds (other work on a shared machine does not
    count): actions/s at each batch size, and the memory of a game's state. Each timing
    is told to ``progress`` before it starts.

    An action is what the reference counts: one entry of a game's history, a move or a
    chance outcome."""
    import os

    from tminus.batch import batch_class, list_batch_games
    from tminus.batch.base import keep_freed_memory
    from tminus.core.registry import load_game

    left_out = unusable_engines(backend)
    chosen = names or [name for name in list_batch_games(backend) if name not in left_out]
    for name in chosen:
        batch_class(name, backend)  # a game without a batch engine fails here, clearly
    keep_freed_memory()
    pinned = hasattr(os, "sched_setaffinity")
    if pinned:
        cores = os.sched_getaffinity(0)
        os.sched_setaffinity(0, {min(cores)})
    try:
        results = []
        started, timings = itertools.count(), len(chosen) * (1 + len(sizes))

        def timing(what: str) -> None:
            if progress is not None:
                progress(what, next(started), timings)

        for name in chosen:  # each game with its default parameters
            timing(f"{name}: reference engine")
            reference = reference_rate(load_game(name), seconds)  # (actions, decisions)
            for size in sizes:
                timing(f"{name}: batch of {size:,} games")
                env = batch_class(name, backend)(
                    size, seed=0, auto_reset=True, record_history=False
                )
                actions, decisions = batch_rate(env, seconds)
                results.append(
                    BatchBenchResult(
                        name, dict(env.params), size, actions, decisions, *reference,
                        env.memory_per_game(),
                    )
                )  # fmt: skip
        return results
    finally:
        if pinned:
            os.sched_setaffinity(0, cores)


def unusable_engines(backend: str = "numpy") -> dict[str, str]:
    """The batch engines that cannot be made here (their extra not installed: Count Down's
    needs Numba), each with the reason."""
    from tminus.batch import batch_class, list_batch_games

    reasons = {}
    for name in list_batch_games(backend):
        try:
            batch_class(name, backend)
        except ValueError as error:
            reasons[name] = str(error)
    return reasons


def bench_batch_report(
    names: list[str] | None = None, seconds: float = 1.0, as_json: bool = False, **options
) -> str:
    """What ``tminus bench --batch`` prints: the table of ``bench_batch``, or its JSON."""
    results = bench_batch(names, seconds=seconds, **options)
    if as_json:
        return json.dumps(
            [{**asdict(r), "ratio": r.ratio, "decision_ratio": r.decision_ratio} for r in results],
            indent=2,
        )
    left_out = {} if names else unusable_engines(options.get("backend", "numpy"))
    notes = [f"{name}: not timed: {reason}" for name, reason in left_out.items()]
    return "\n".join([batch_bench_table(results), *notes])


def batch_bench_table(results: list[BatchBenchResult]) -> str:
    """The results as a plain-text table (what ``tminus bench --batch`` prints): actions
    and players' decisions a CPU second, each beside the reference engine's and the ratio."""
    lines = [
        f"{'game':<14}{'batch':>7}{'actions/s':>13}{'reference':>11}{'ratio':>7}"
        f"{'decisions/s':>13}{'reference':>11}{'ratio':>7}{'bytes/game':>11}"
    ]
    for r in results:
        lines.append(
            f"{r.game:<14}{r.batch_size:>7,}{r.actions_per_second:>13,.0f}"
            f"{r.reference_actions_per_second:>11,.0f}{r.ratio:>6.1f}x"
            f"{r.decisions_per_second:>13,.0f}{r.reference_decisions_per_second:>11,.0f}"
            f"{r.decision_ratio:>6.1f}x{r.memory_per_game:>11,.0f}"
        )
    return "\n".join(lines)
