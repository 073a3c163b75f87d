"""Random-playout throughput of each game: games/s and actions/s, median of several runs."""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass

from tminus.core.game import Game
from tminus.core.playout import random_playout, sample_chance


@dataclass(frozen=True)
class BenchResult:
    game: str
    params: dict
    runs: int
    games_per_second: float
    actions_per_second: float
    actions_per_game: float


def bench_game(game: Game, runs: int = 5, seconds: float = 1.0, seed: int = 0) -> BenchResult:
    """Play random games for ``seconds`` per run, ``runs`` times; report the medians."""
    rng = random.Random(seed)
    game_rates, action_rates, lengths = [], [], []
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
    return BenchResult(
        game=game.name,
        params=dict(game.params),
        runs=runs,
        games_per_second=statistics.median(game_rates),
        actions_per_second=statistics.median(action_rates),
        actions_per_game=statistics.median(lengths),
    )


def search_positions(game: Game, count: int, seed: int) -> list:
    """Decision states met along random games: the positions a search bot is timed on."""
    rng = random.Random(seed)
    positions = []
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


def bench_search(game: Game, simulations: int = 100, runs: int = 3, positions: int = 10):
    """Decisions per second of MCTS (IS-MCTS where the game hides information)."""
    from tminus.agents.registry import make_agent

    name = "mcts" if game.information == "perfect" else "ismcts"
    agent = make_agent(f"{name}:simulations={simulations}", game, seed=0)
    states = search_positions(game, positions, seed=1)
    rates = []
    for _ in range(runs):
        start = time.perf_counter()
        for state in states:
            agent.step(state)
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


def bench_scaling(game: Game, games: int = 2000, workers: tuple[int, ...] = (1, 2)):
    """Simulation games/s of random agents with 1 and more local worker processes."""
    from tminus.sim.backends import run_batch
    from tminus.sim.runner import Batch

    batch = Batch(game.name, dict(game.params), (("random",) * game.num_players,), seed=0)
    rates = {}
    for count in workers:
        start = time.perf_counter()
        run_batch(batch, games, workers=count)
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


def bench_vs_openspiel(game: Game, simulations: int = 100, positions: int = 6, runs: int = 3):
    """T-minus MCTS against OpenSpiel's Python MCTSBot through the adapter, same positions
    and simulations, random rollouts on both sides: decisions per CPU second (the process's
    own time, so other work on a shared machine does not skew the ratio), median of runs."""
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
    name = "mcts" if game.information == "perfect" else "ismcts"
    # Plain UCT played to the game's end, as OpenSpiel's bot does.
    spec = f"{name}:simulations={simulations}:rollout=random:root=uct:horizon=game"
    ours = make_agent(spec, game, seed=0)
    rng = np.random.RandomState(0)
    evaluator = openspiel_mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    theirs = openspiel_mcts.MCTSBot(
        spiel_game, 1.4, simulations, evaluator, random_state=rng, solve=False
    )
    our_rates, their_rates = [], []
    for _ in range(runs):
        start = time.process_time()
        for state in states:
            ours.step(state)
        our_rates.append(len(states) / (time.process_time() - start))
        start = time.process_time()
        for state in spiel_states:
            theirs.step(state)
        their_rates.append(len(states) / (time.process_time() - start))
    return InteropBenchResult(
        game.name, simulations, name, statistics.median(our_rates), statistics.median(their_rates)
    )
