"""The driver: play one game from a seed with a list of agents, and many games in a row.

Chance outcomes are drawn with NumPy's seeded generator, and each agent gets a seed of
its own derived from the game's, so the same seed always gives the same game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tminus.agents.base import Agent
from tminus.agents.registry import make_agent
from tminus.core.game import Game
from tminus.core.playout import sample_chance
from tminus.sim.stats import percentile, wilson_interval


@dataclass(frozen=True)
class GameResult:
    seed: tuple[int, ...]
    returns: list[float]
    winners: list[int]  # seats with the best result; empty on a draw where all are equal
    moves: int  # decisions taken by players (chance outcomes not counted)
    turn_cap: bool
    history: list[int] = field(repr=False)


def game_seed(seed: int, index: int) -> tuple[int, int]:
    """The seed of game ``index`` of a run seeded with ``seed`` (independent streams)."""
    return (seed, index)


def make_agents(names: Sequence[str], game: Game, seed: Sequence[int]) -> list[Agent]:
    return [make_agent(name, game, seed=[*seed, seat]) for seat, name in enumerate(names)]


def play_game(game: Game, agents: Sequence[Agent], seed: Sequence[int] | int) -> GameResult:
    """Play one game to the end: agents move for their seats, chance comes from ``seed``."""
    if len(agents) != game.num_players:
        raise ValueError(f"{game.name} with {game.num_players} players needs that many agents")
    seed = (seed,) if isinstance(seed, int) else tuple(seed)
    rng = np.random.default_rng(list(seed))
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
        else:
            state.apply_action(agents[state.current_player()].step(state))
            moves += 1
    returns = state.returns()
    best = max(returns)
    winners = [] if best == min(returns) else [s for s, r in enumerate(returns) if r == best]
    return GameResult(seed, returns, winners, moves, state.ended_by_turn_cap(), state.history())


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


def simulate(
    game: Game,
    agent_names: Sequence[str],
    games: int,
    seed: int = 0,
    progress: Callable[[int], None] | None = None,
) -> SimulationSummary:
    """Play ``games`` games, agent i in seat i, and summarise who won and how long it took."""
    names = list(agent_names)
    if len(names) != game.num_players:
        raise ValueError(f"{game.name} with {game.num_players} players needs that many agents")
    if games < 1:
        raise ValueError("play at least one game")
    wins = [0] * game.num_players
    lengths: list[int] = []
    capped = draws = 0
    for index in range(games):
        seeds = game_seed(seed, index)
        result = play_game(game, make_agents(names, game, seeds), seeds)
        for seat in result.winners:
            wins[seat] += 1
        lengths.append(result.moves)
        capped += result.turn_cap
        draws += not result.winners
        if progress:
            progress(1)
    lengths.sort()
    return SimulationSummary(
        game=game.name,
        params=dict(game.params),
        agents=names,
        seed=seed,
        games=games,
        seats=[SeatSummary(s, names[s], wins[s], games) for s in range(game.num_players)],
        length_mean=sum(lengths) / games,
        length_median=percentile(lengths, 0.5),
        length_p95=percentile(lengths, 0.95),
        turn_cap_draws=capped,
        draws=draws,
    )
