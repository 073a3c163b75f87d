"""Random-playout throughput of each game: games/s and actions/s, median of several runs."""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass

from tminus.core.game import Game
from tminus.core.playout import random_playout


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
