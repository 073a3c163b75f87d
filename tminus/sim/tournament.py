"""Tournaments: every agent in every seat, rated with openskill, with a head-to-head table.

A duplicate tournament (``duplicate=True``, as in duplicate bridge) plays deals of one game
per seating on the same luck, and adds each pair's paired edge: how much more often one
finished above the other than below it, deal by deal, where the luck that favoured a seat
favoured both of them once and cancels."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import permutations, product
from typing import Any

from tminus.core.game import Game
from tminus.sim.backends import run_batch
from tminus.sim.runner import Batch, GameResult
from tminus.sim.stats import mean_interval, wilson_interval


def lineups(agents: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """Every way to seat the agents so that each plays every seat equally often.

    With at least as many agents as seats: every ordered choice of distinct agents.
    With fewer: every seating (repeats allowed) in which each agent plays.
    """
    if len(set(agents)) != len(agents):
        raise ValueError("name each agent once")
    if len(agents) < 2:
        raise ValueError("a tournament needs at least two agents")
    if len(agents) >= players:
        return list(permutations(agents, players))
    return [seats for seats in product(agents, repeat=players) if set(seats) == set(agents)]


@dataclass
class Rating:
    agent: str
    mu: float
    sigma: float
    games: int
    wins: int

    @property
    def ordinal(self) -> float:
        """A conservative skill estimate: mu - 3 sigma."""
        return self.mu - 3 * self.sigma

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass
class TournamentResult:
    game: str
    params: dict[str, Any]
    agents: list[str]
    seed: int
    games: int
    ratings: list[Rating]  # best first
    head_to_head: dict[str, dict[str, tuple[int, int, int]]]  # a -> b -> (wins, losses, draws)
    results: list[GameResult]
    paired: dict[str, dict[str, PairedEdge]] | None = None  # a duplicate tournament's edges

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "params": self.params,
            "agents": self.agents,
            "seed": self.seed,
            "games": self.games,
            "ranking": [
                {
                    "agent": r.agent,
                    "mu": r.mu,
                    "sigma": r.sigma,
                    "ordinal": r.ordinal,
                    "games": r.games,
                    "wins": r.wins,
                    "win_rate": r.win_rate,
                    "interval95": list(wilson_interval(r.wins, r.games)),
                }
                for r in self.ratings
            ],
            "head_to_head": {
                a: {b: list(wld) for b, wld in row.items()} for a, row in self.head_to_head.items()
            },
            "duplicate": self.paired is not None,
            "paired": {
                a: {
                    b: {"deals": e.deals, "edge": e.edge, "interval95": [e.low, e.high]}
                    for b, e in row.items()
                }
                for a, row in (self.paired or {}).items()
            },
        }


def rate(agents: Sequence[str], results: Sequence[GameResult]) -> list[Rating]:
    """Plackett-Luce ratings (openskill), updated game by game in order.

    Each seat is one competitor ranked by its result (equal results share a rank). An
    agent in several seats of one game gets the mean of its seats' updates.
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current = {name: model.rating(name=name) for name in agents}
    games = dict.fromkeys(agents, 0)
    wins = dict.fromkeys(agents, 0)
    for result in results:
        teams = [[current[name]] for name in result.agents]
        ranks = [-r for r in result.returns]  # openskill: lower rank is better
        updated = model.rate(teams, ranks=ranks)
        for name in set(result.agents):
            seats = [s for s, n in enumerate(result.agents) if n == name]
            mus = [updated[s][0].mu for s in seats]
            sigmas = [updated[s][0].sigma for s in seats]
            current[name] = model.rating(
                mu=sum(mus) / len(seats), sigma=sum(sigmas) / len(seats), name=name
            )
            games[name] += 1
            wins[name] += any(s in result.winners for s in seats)
    ratings = [Rating(n, current[n].mu, current[n].sigma, games[n], wins[n]) for n in agents]
    return sorted(ratings, key=lambda r: r.ordinal, reverse=True)


def head_to_head(
    agents: Sequence[str], results: Sequence[GameResult]
) -> dict[str, dict[str, tuple[int, int, int]]]:
    """For each pair of agents met at one table: how often a finished above, below, level."""
    table = {a: {b: [0, 0, 0] for b in agents if b != a} for a in agents}
    for result in results:
        for i, a in enumerate(result.agents):
            for j, b in enumerate(result.agents):
                if a == b:
                    continue
                ri, rj = result.returns[i], result.returns[j]
                table[a][b][0 if ri > rj else 1 if ri < rj else 2] += 1
    return {
        a: {b: (above, below, level) for b, (above, below, level) in row.items()}
        for a, row in table.items()
    }


@dataclass(frozen=True)
class PairedEdge:
    """One agent's edge over another on the same luck: per deal, (games it finished above
    the other - games below) / games they met in, averaged over the deals they met in."""

    deals: int
    edge: float  # in [-1, 1]: 0 is even, 1 finished above in every game
    low: float  # the 95% t interval of the mean (``mean_interval``)
    high: float


def paired_edges(
    agents: Sequence[str], results: Sequence[GameResult]
) -> dict[str, dict[str, PairedEdge]]:
    """Each pair's ``PairedEdge`` over the deals of a duplicate tournament (a deal: the
    games of one luck seed)."""
    deals: dict[tuple[int, ...], list[GameResult]] = {}
    for result in results:
        deals.setdefault(result.seed, []).append(result)
    scores: dict[str, dict[str, list[float]]] = {
        a: {b: [] for b in agents if b != a} for a in agents
    }
    for games in deals.values():
        tallies: dict[tuple[str, str], list[int]] = {}  # (a, b) -> [above - below, games]
        for result in games:
            seats = list(enumerate(result.agents))
            for (i, a), (j, b) in permutations(seats, 2):
                if a != b:
                    tally = tallies.setdefault((a, b), [0, 0])
                    mine, theirs = result.returns[i], result.returns[j]
                    tally[0] += (mine > theirs) - (mine < theirs)
                    tally[1] += 1
        for (a, b), (net, met) in tallies.items():
            scores[a][b].append(net / met)
    return {
        a: {b: PairedEdge(len(v), *mean_interval(v)) for b, v in row.items()}
        for a, row in scores.items()
    }


def tournament(
    game: Game,
    agents: Sequence[str],
    games: int,
    seed: int = 0,
    progress: Callable[[int], None] | None = None,
    backend: str = "local",
    workers: int | None = 1,
    address: str | None = None,
    facts: bool = False,
    duplicate: bool = False,
) -> TournamentResult:
    seatings = lineups(agents, game.num_players)
    if duplicate and games % len(seatings):
        raise ValueError(
            f"a duplicate tournament plays whole deals of {len(seatings)} games (one for "
            f"each seating): ask for a multiple of {len(seatings)}, not {games}"
        )
    batch = Batch(
        game.name, dict(game.params), tuple(seatings), seed, facts=facts, duplicate=duplicate
    )
    results = run_batch(batch, games, backend, workers, address, progress)
    return TournamentResult(
        game=game.name,
        params=dict(game.params),
        agents=list(agents),
        seed=seed,
        games=games,
        ratings=rate(agents, results),
        head_to_head=head_to_head(agents, results),
        results=results,
        paired=paired_edges(agents, results) if duplicate else None,
    )
