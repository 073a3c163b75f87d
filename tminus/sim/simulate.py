"""Simulations: many games between fixed seats, summarised as win rates and game lengths."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tminus.core.game import Game
from tminus.sim.backends import run_batch
from tminus.sim.runner import Batch, GameResult
from tminus.sim.stats import percentile, wilson_interval


@dataclass
class SeatSummary:
    seat: int
    agent: str
    wins: int
    games: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)


@dataclass
class SimulationSummary:
    game: str
    params: dict[str, Any]
    agents: list[str]
    seed: int
    games: int
    seats: list[SeatSummary]
    length_mean: float
    length_median: float
    length_p95: float
    turn_cap_draws: int
    draws: int
    results: list[GameResult] = field(default_factory=list, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "params": self.params,
            "agents": self.agents,
            "seed": self.seed,
            "games": self.games,
            "seats": [
                {
                    "seat": s.seat,
                    "agent": s.agent,
                    "wins": s.wins,
                    "win_rate": s.win_rate,
                    "interval95": list(s.interval),
                }
                for s in self.seats
            ],
            "moves": {
                "mean": self.length_mean,
                "median": self.length_median,
                "p95": self.length_p95,
            },
            "draws": self.draws,
            "turn_cap_draws": self.turn_cap_draws,
        }


def summarise(
    game: Game, agents: list[str], seed: int, results: list[GameResult]
) -> SimulationSummary:
    wins = [0] * game.num_players
    for result in results:
        for seat in result.winners:
            wins[seat] += 1
    lengths = sorted(r.moves for r in results)
    games = len(results)
    return SimulationSummary(
        game=game.name,
        params=dict(game.params),
        agents=agents,
        seed=seed,
        games=games,
        seats=[SeatSummary(s, agents[s], wins[s], games) for s in range(game.num_players)],
        length_mean=sum(lengths) / games,
        length_median=percentile(lengths, 0.5),
        length_p95=percentile(lengths, 0.95),
        turn_cap_draws=sum(r.turn_cap for r in results),
        draws=sum(not r.winners for r in results),
        results=list(results),
    )


def simulate(
    game: Game,
    agent_names: Sequence[str],
    games: int,
    seed: int = 0,
    progress: Callable[[int], None] | None = None,
    backend: str = "local",
    workers: int | None = 1,
    address: str | None = None,
    facts: bool = False,
) -> SimulationSummary:
    """Play ``games`` games, agent i in seat i, and summarise who won and how long it took.

    ``facts``: also extract what the game's report figures need (``tminus.sim.facts``).
    """
    names = list(agent_names)
    if len(names) != game.num_players:
        raise ValueError(f"{game.name} with {game.num_players} players needs that many agents")
    batch = Batch(game.name, dict(game.params), (tuple(names),), seed, facts=facts)
    results = run_batch(batch, games, backend, workers, address, progress)
    return summarise(game, names, seed, results)
