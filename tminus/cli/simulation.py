"""Many games between agents: `simulate`, `tournament` and `report`."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from itertools import cycle, islice
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import Progress
from rich.table import Table

from tminus.agents.registry import make_agent
from tminus.cli.common import (
    AGENTS_HELP,
    GameArg,
    JsonOpt,
    ParamOpt,
    PlayersOpt,
    SeedOpt,
    build_game,
    console,
    fail,
    game_class_or_fail,
    split_names,
)
from tminus.cli.progress import advance, progress_bar
from tminus.core.game import Game
from tminus.core.registry import game_class
from tminus.sim.simulate import SimulationSummary
from tminus.sim.simulate import simulate as run_simulation
from tminus.sim.tournament import TournamentResult, load_tournament
from tminus.sim.tournament import pool as pool_runs
from tminus.sim.tournament import tournament as run_tournament

BackendOpt = Annotated[
    str, typer.Option(help="local (a process pool on this machine) or ray (a Ray cluster).")
]
WorkersOpt = Annotated[
    int | None, typer.Option(help="Local processes (default: all cores; 1 plays in-process).")
]
AddressOpt = Annotated[
    str | None, typer.Option(help="Ray cluster address (default: start Ray locally).")
]
GamesOpt = Annotated[int, typer.Option("-n", "--games", min=1, help="How many games.")]


@dataclass(frozen=True)
class RunOptions:
    """How many games are played, from which seed, and where: what `simulate`,
    `tournament` and `report` share, handed to ``tminus.sim`` in one piece."""

    games: int
    seed: int = 0
    backend: str = "local"  # local processes, or ray
    workers: int | None = None  # local processes (None: all cores; 1: in this process)
    address: str | None = None  # a Ray cluster's
    facts: bool = False  # also what the game's report figures need (``tminus.sim.facts``)

    def simulate(self, game: Game, seats: list[str], progress: Progress) -> SimulationSummary:
        """The agent of each seat plays every game in that seat."""
        return run_simulation(game, seats, progress=advance(progress), **asdict(self))

    def tournament(
        self,
        game: Game,
        agents: list[str],
        progress: Progress,
        duplicate: bool = False,
        moves: bool = False,
    ) -> TournamentResult:
        """Every agent in every seat (with ``duplicate``, every seating on the same luck;
        with ``moves``, each game's moves kept)."""
        return run_tournament(
            game, agents, progress=advance(progress), duplicate=duplicate, moves=moves,
            **asdict(self),
        )  # fmt: skip


def compiled_here(game: str) -> bool:
    """Whether ``game``'s batch engine runs at full speed from its first step (one that
    compiles first, Count Down's, is said so, or the bar sits still). True where there is
    no engine: ``simulate_batch`` says so."""
    from tminus.batch import batch_class
    from tminus.batch.base import compiles_first

    try:
        return not compiles_first(batch_class(game))
    except ValueError:
        return True


def seat_agents(game: str, agents: str, players: int | None, param: list[str] | None):
    """The game and the agent spec of every seat (cycled from the list given)."""
    names = split_names(agents)
    if not names:
        raise fail("name at least one agent, e.g. --agents greedy,random")
    if players is None and len(names) > 1 and "players" in game_class_or_fail(game).parameters:
        players = len(names)
    the_game = build_game(game, players, param)
    for spec in set(names):
        try:
            make_agent(spec, the_game, seed=0)
        except ValueError as error:
            raise fail(str(error)) from None
    return the_game, names


def simulate(
    game: GameArg,
    games: GamesOpt = 1000,
    agents: Annotated[
        str,
        typer.Option(
            help=f"Agents by seat, comma-separated (cycled to fill the seats): {AGENTS_HELP}."
        ),
    ] = "random",
    players: PlayersOpt = None,
    seed: SeedOpt = 0,
    param: ParamOpt = None,
    backend: BackendOpt = "local",
    workers: WorkersOpt = None,
    address: AddressOpt = None,
    batch: Annotated[
        bool, typer.Option(help="Play thousands at a time on the batch engine (random, greedy).")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Play many games between agents and report win rates and game lengths."""
    the_game, names = seat_agents(game, agents, players, param)
    seats = list(islice(cycle(names), the_game.num_players))
    options = RunOptions(games, seed, backend, workers, address)
    label = f"{game}: games played"
    if batch and not compiled_here(game):
        label += " (its batch engine compiles first, once: a minute or so)"
    with progress_bar(label, games) as bar:
        try:
            if batch:
                from tminus.sim.batch_simulate import simulate_batch

                summary = simulate_batch(the_game, seats, games, seed, progress=advance(bar))
            else:
                summary = options.simulate(the_game, seats, bar)
        except ValueError as error:
            raise fail(str(error)) from None
    if as_json:
        print(json.dumps(summary.to_dict(), indent=2))
        return
    table = Table(title=f"{game_class(game).title}: {games} games, seed {seed}")
    for column in ("seat", "agent", "wins", "win rate", "95% interval"):
        table.add_column(column, justify="right")
    for s in summary.seats:
        low, high = s.interval
        table.add_row(
            str(s.seat), s.agent, str(s.wins), f"{s.win_rate:.1%}", f"{low:.1%} – {high:.1%}"
        )
    console.print(table)
    console.print(
        f"moves per game: mean {summary.length_mean:.1f}, median {summary.length_median:.0f}, "
        f"95th percentile {summary.length_p95:.0f}"
    )
    console.print(f"draws: {summary.draws} (turn cap reached: {summary.turn_cap_draws})")


def tournament(
    game: GameArg,
    agents: Annotated[str, typer.Option(help=f"The agents, comma-separated: {AGENTS_HELP}.")],
    games: GamesOpt = 1000,
    players: PlayersOpt = None,
    seed: SeedOpt = 0,
    param: ParamOpt = None,
    backend: BackendOpt = "local",
    workers: WorkersOpt = None,
    address: AddressOpt = None,
    duplicate: Annotated[
        bool,
        typer.Option(
            help="Deal the same luck to every seating of a deal (as in duplicate bridge) "
            "and add each pair's paired edge, in which that luck cancels."
        ),
    ] = False,
    save: Annotated[
        Path | None,
        typer.Option(
            help="Also write the result with every game's, moves included, to this JSON "
            "file, to pool it later with runs of other seeds (tminus pool) or replay its games."
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Every agent in every seat: ratings and a head-to-head table."""
    if players is None and "players" in game_class_or_fail(game).parameters:
        players = game_class(game).parameters["players"].default
    the_game, names = seat_agents(game, agents, players, param)
    options = RunOptions(games, seed, backend, workers, address)
    with progress_bar(f"{game}: games played", games) as bar:
        try:
            result = options.tournament(the_game, names, bar, duplicate, moves=save is not None)
        except ValueError as error:
            raise fail(str(error)) from None
    if save is not None:
        save.write_text(json.dumps(result.to_dict(with_games=True)))
    show_tournament(result, as_json)


def pool(
    runs: Annotated[
        list[Path], typer.Argument(help="Tournaments saved with --save, of different seeds.")
    ],
    as_json: JsonOpt = False,
) -> None:
    """Pool saved tournaments of one game: the tables over all their games."""
    try:
        result = pool_runs([load_tournament(path) for path in runs])
    except ValueError as error:
        raise fail(str(error)) from None
    show_tournament(result, as_json)


def show_tournament(result: TournamentResult, as_json: bool) -> None:
    if as_json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        print_tournament(result)


def print_tournament(result) -> None:
    seeds = ", ".join(map(str, result.seeds))
    title = f"{game_class(result.game).title}: {result.games} games (seed {seeds}), ranking"
    ranking = Table(
        title=title,
        caption="ratings fitted to all the games at once (Plackett-Luce), on the Elo scale: "
        "the agents' mean is 0, and 400 points are odds of 10 to 1",
    )
    for column in ("rank", "agent", "rating (95% interval)", "games", "win rate"):
        # (folded onto more lines, never cut: an agent's spec is what to type again)
        ranking.add_column(column, justify="right", overflow="fold")
    for rank, r in enumerate(result.ratings, 1):
        ranking.add_row(str(rank), r.agent, r.elo_text(), str(r.games), f"{r.win_rate:.1%}")
    console.print(ranking)
    console.print(
        pair_grid(
            "head to head: row finished above / below / level with column",
            result.agents,
            lambda a, b: (
                "{} / {} / {}".format(*result.head_to_head[a][b])
                if any(result.head_to_head[a][b])
                else "not met"  # (pooled runs)
            ),
        )
    )
    if result.paired:
        console.print(
            pair_grid(
                "paired edge, deal by deal on the same luck: (above - below) / games met, "
                "mean (95% interval) over the deals",
                result.agents,
                lambda a, b: edge_cell(result.paired[a][b]),
            )
        )


def edge_cell(edge) -> str:
    if not edge.deals:  # a pooled pair that never met
        return "not met"
    return f"{edge.edge:+.3f}\n({edge.low:+.2f}, {edge.high:+.2f})"


def pair_grid(title: str, agents: list[str], cell) -> Table:
    """A table of every pair of agents: row ``a``, column ``b``, ``cell(a, b)`` (— on the
    diagonal). Rows are numbered and columns named by number, as in a chess crosstable: a
    column too narrow for a long spec would cut it, and two specs cut alike read the same."""
    grid = Table(title=title)
    grid.add_column("", overflow="fold")
    for number in range(1, len(agents) + 1):
        grid.add_column(str(number), justify="right")
    for number, a in enumerate(agents, 1):
        grid.add_row(f"{number}. {a}", *("—" if a == b else cell(a, b) for b in agents))
    return grid


def report(
    game: GameArg,
    agents: Annotated[
        str, typer.Option(help=f"Agents, comma-separated: {AGENTS_HELP}.")
    ] = "greedy,random",
    games: GamesOpt = 1000,
    out: Annotated[str, typer.Option(help="Where to write the HTML page.")] = "report.html",
    as_tournament: Annotated[
        bool, typer.Option("--tournament", help="Every agent in every seat, with ratings.")
    ] = False,
    players: PlayersOpt = None,
    seed: SeedOpt = 0,
    param: ParamOpt = None,
    backend: BackendOpt = "local",
    workers: WorkersOpt = None,
    address: AddressOpt = None,
) -> None:
    """Run a simulation or tournament and write an HTML report with figures."""
    from tminus.sim.report import build_report

    try:  # before the games are played, not after
        import matplotlib  # noqa: F401
    except ImportError:
        raise fail("reports need matplotlib: pip install 'tminus[analysis]'") from None
    the_game, names = seat_agents(game, agents, players, param)
    title = f"{game_class(game).title}: {', '.join(names)}"
    # The per-game figures need facts read off each game's history (tminus.sim.facts).
    options = RunOptions(games, seed, backend, workers, address, facts=True)
    with progress_bar(f"{game}: games played", games) as bar:
        try:
            if as_tournament:
                result = options.tournament(the_game, names, bar)
                results, ratings = result.results, result.ratings
                rows = [
                    (f"#{i} {r.agent}", f"rating {r.elo_text()}, won {r.win_rate:.1%}")
                    for i, r in enumerate(ratings, 1)
                ]
            else:
                seats = list(islice(cycle(names), the_game.num_players))
                summary = options.simulate(the_game, seats, bar)
                results, ratings = summary.results, None
                rows = []
                for s in summary.seats:
                    low, high = s.interval
                    rows.append(
                        (
                            f"seat {s.seat}: {s.agent}",
                            f"won {s.win_rate:.1%} ({low:.1%}–{high:.1%})",
                        )
                    )
        except ValueError as error:
            raise fail(str(error)) from None
    lengths = sorted(r.moves for r in results)
    rows.append(("median moves per game", str(lengths[len(lengths) // 2])))
    rows.append(("turn-cap draws", str(sum(r.turn_cap for r in results))))
    rows.append(("seed", str(seed)))
    try:
        page = build_report(game, dict(the_game.params), results, title, rows, ratings)
    except ValueError as error:
        raise fail(str(error)) from None
    with open(out, "w", encoding="utf-8") as handle:
        handle.write(page)
    console.print(f"report written to [bold]{out}[/]")
