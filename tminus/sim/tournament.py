"""Tournaments: every agent in every seat, rated (Plackett-Luce, fitted to all the games at
once: ``tminus.sim.ratings``), with a head-to-head table.

A duplicate tournament (``duplicate=True``, as in duplicate bridge) plays deals of one game
per seating on the same luck, and adds each pair's paired edge: how much more often one
finished above the other than below it, deal by deal, where the luck that favoured a seat
favoured both of them once and cancels.

A tournament saved with its games (``to_dict(with_games=True)``) can be read back
(``TournamentResult.from_dict``) and pooled with others of the same game (``pool``): a
measurement too long for one sitting is played in runs of different seeds and judged over
all their games at once."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from itertools import permutations, product
from pathlib import Path
from typing import Any

from tminus.core.game import Game
from tminus.sim.backends import run_batch
from tminus.sim.ratings import fit_plackett_luce
from tminus.sim.runner import Batch, GameResult
from tminus.sim.stats import Z_95, mean_interval, wilson_interval


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
    elo: float  # Plackett-Luce, on the Elo scale; the agents' mean is 0
    error: float  # one standard error of ``elo``
    games: int
    wins: int

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% interval of ``elo``."""
        return (self.elo - Z_95 * self.error, self.elo + Z_95 * self.error)

    def elo_text(self) -> str:
        """The rating with its interval, as people read it: '+29 (+7 to +51)'."""
        low, high = self.interval
        return f"{self.elo:+.0f} ({low:+.0f} to {high:+.0f})"

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass
class TournamentResult:
    game: str
    params: dict[str, Any]
    agents: list[str]
    seeds: tuple[int, ...]  # of the runs pooled in it (one, for a tournament just played)
    games: int
    ratings: list[Rating]  # best first
    head_to_head: dict[str, dict[str, tuple[int, int, int]]]  # a -> b -> (wins, losses, draws)
    results: list[GameResult]
    paired: dict[str, dict[str, PairedEdge]] | None = None  # a duplicate tournament's edges

    def to_dict(self, with_games: bool = False) -> dict[str, Any]:
        """The result as JSON values; ``with_games`` adds every game's result, which is what
        ``from_dict`` needs to read it back and ``pool`` to pool it."""
        data = {
            "game": self.game,
            "params": self.params,
            "agents": self.agents,
            "seeds": list(self.seeds),
            "games": self.games,
            "ranking": [
                {
                    "agent": r.agent,
                    "elo": r.elo,
                    "elo_interval95": list(r.interval),
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
                    if e.deals  # (a pooled pair that never met has none)
                }
                for a, row in (self.paired or {}).items()
            },
        }
        if with_games:
            data["results"] = [game_to_dict(result) for result in self.results]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TournamentResult:
        """A tournament saved with its games; its tables are counted again from them."""
        if isinstance(data, dict) and "ranking" in data and "results" not in data:
            raise ValueError("this tournament was saved without its games: save it with them")
        try:
            results = [game_from_dict(game) for game in data["results"]]
            return summarize(
                data["game"], data["params"], data["agents"], tuple(data["seeds"]), results,
                data["duplicate"],
            )  # fmt: skip
        except (KeyError, TypeError, AttributeError) as error:
            raise ValueError(f"not a tournament saved with its games ({error!r})") from None


def load_tournament(path: str | Path) -> TournamentResult:
    """A tournament saved with its games (``to_dict(with_games=True)``) from a JSON file;
    ValueError naming the file when it cannot be read or is not one."""
    try:
        data = json.loads(Path(path).read_text())
    except OSError as error:
        raise ValueError(f"cannot read {path}: {error.strerror}") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"{path} is not JSON: {error}") from None
    try:
        return TournamentResult.from_dict(data)
    except ValueError as error:
        raise ValueError(f"{path}: {error}") from None


def game_to_dict(result: GameResult) -> dict[str, Any]:
    """A game's result as JSON values: its moves too when it kept them (every action,
    chance outcomes included: it replays in ``load_game``)."""
    game = asdict(result)
    del game["facts"]  # (a report's: a tournament's tables read the rest)
    if result.history is None:
        del game["history"]
    return game


def game_from_dict(data: dict[str, Any]) -> GameResult:
    return GameResult(**{**data, "seed": tuple(data["seed"]), "agents": tuple(data["agents"])})


def rate(agents: Sequence[str], results: Sequence[GameResult]) -> list[Rating]:
    """Each agent's rating (``tminus.sim.ratings``: fitted to all the games at once, so the
    order they were played in does not matter), games and wins, best first. An agent in
    several seats of one game plays each of them with its one strength."""
    index = {name: i for i, name in enumerate(agents)}
    fit = fit_plackett_luce(
        len(agents), [([index[a] for a in r.agents], r.returns) for r in results]
    )
    games = dict.fromkeys(agents, 0)
    wins = dict.fromkeys(agents, 0)
    for result in results:
        for name in set(result.agents):
            games[name] += 1
            wins[name] += any(result.agents[s] == name for s in result.winners)
    ratings = [
        Rating(name, float(fit.elo[i]), float(fit.error[i]), games[name], wins[name])
        for i, name in enumerate(agents)
    ]
    return sorted(ratings, key=lambda r: r.elo, reverse=True)


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
    moves: bool = False,
) -> TournamentResult:
    """Every seating of ``agents`` in turn, ``games`` games (see ``Batch``); ``moves``: each
    game's result keeps its moves (``GameResult.history``)."""
    seatings = lineups(agents, game.num_players)
    if duplicate and games % len(seatings):
        raise ValueError(
            f"a duplicate tournament plays whole deals of {len(seatings)} games (one for "
            f"each seating): ask for a multiple of {len(seatings)}, not {games}"
        )
    batch = Batch(
        game.name, dict(game.params), tuple(seatings), seed,
        keep_history=moves, facts=facts, duplicate=duplicate,
    )  # fmt: skip
    results = run_batch(batch, games, backend, workers, address, progress)
    return summarize(game.name, dict(game.params), list(agents), (seed,), results, duplicate)


def summarize(
    game: str,
    params: dict[str, Any],
    agents: list[str],
    seeds: tuple[int, ...],
    results: list[GameResult],
    duplicate: bool,
) -> TournamentResult:
    """The tables of a tournament, counted from its games."""
    return TournamentResult(
        game=game,
        params=params,
        agents=agents,
        seeds=seeds,
        games=len(results),
        ratings=rate(agents, results),
        head_to_head=head_to_head(agents, results),
        results=results,
        paired=paired_edges(agents, results) if duplicate else None,
    )


def pool(runs: Sequence[TournamentResult]) -> TournamentResult:
    """Runs of one game (same parameters) as one tournament over all their games: the
    agents of every run (in order of first appearance), ratings and head-to-head counted
    over all games, and paired edges over all deals when every run was a duplicate one.
    A pair's figures count only the games it met in.

    Runs must not share a deal (the same games counted twice would narrow every interval
    for nothing): pool runs of different seeds."""
    if not runs:
        raise ValueError("pool at least one tournament")
    first = runs[0]
    for run in runs[1:]:
        if (run.game, run.params) != (first.game, first.params):
            raise ValueError(
                f"runs of different games cannot be pooled: {first.game} {first.params} "
                f"and {run.game} {run.params}"
            )
    seeds = [seed for run in runs for seed in run.seeds]
    repeated = sorted({seed for seed in seeds if seeds.count(seed) > 1})
    if repeated:
        raise ValueError(
            f"runs of the same seed share their deals: seed {repeated[0]} is in two runs"
        )
    agents = list(dict.fromkeys(agent for run in runs for agent in run.agents))
    results = [result for run in runs for result in run.results]
    duplicate = all(run.paired is not None for run in runs)
    return summarize(first.game, first.params, agents, tuple(seeds), results, duplicate)
