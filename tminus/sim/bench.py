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
