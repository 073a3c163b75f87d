"""`tminus bench`: throughput of playouts, search, simulation and batch engines."""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Callable
from functools import partial
from typing import Annotated, Any

import typer
from rich.table import Table

from tminus.cli.common import JsonOpt, console, fail, game_class_or_fail
from tminus.cli.progress import shown_steps
from tminus.core.progress import step_of
from tminus.core.registry import game_class, list_games, load_game
from tminus.sim.bench import bench_game


def bench(
    names: Annotated[list[str] | None, typer.Argument(help="Games (default: all).")] = None,
    runs: Annotated[int, typer.Option(help="Runs per game; the median is shown.")] = 5,
    seconds: Annotated[
        float,
        typer.Option(
            help="Seconds per playout run (with --batch: at least, each batch playing until "
            "it has finished as many games as it holds)."
        ),
    ] = 1.0,
    search: Annotated[bool, typer.Option(help="Also time MCTS at 100 simulations.")] = True,
    scaling: Annotated[bool, typer.Option(help="Also time simulation on 1 and 2 workers.")] = True,
    interop: Annotated[
        bool, typer.Option(help="Also race OpenSpiel's MCTSBot (needs the rl extra).")
    ] = True,
    batch: Annotated[
        bool, typer.Option(help="Time the batch engines against the reference engines.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Throughput: random playouts (one core), MCTS decisions, simulation scaling."""
    from tminus.sim.bench import bench_batch_report

    chosen = names or list_games()
    for name in chosen:
        game_class_or_fail(name)
    if runs < 1 or seconds <= 0:
        raise fail("--runs must be at least 1 and --seconds above 0")
    if batch:
        try:
            with shown_steps("Timing the batch engines") as progress:
                report = bench_batch_report(names, seconds, as_json, progress=progress)
        except ValueError as error:
            raise fail(str(error)) from None
        print(report)
        return
    interop = interop and importlib.util.find_spec("pyspiel") is not None
    todo = measurements(chosen, runs, seconds, search, scaling, interop)
    results: dict[str, list[Any]] = {kind: [] for kind in KINDS}
    with shown_steps("Timing") as progress:
        for count, (kind, doing, measure) in enumerate(todo, 1):
            told = step_of(progress, f"{doing} ({count} of {len(todo)})")
            results[kind].append(measure(progress=told))
    playouts, searches, scalings, races = (results[kind] for kind in KINDS)
    if as_json:
        print(
            json.dumps(
                {
                    "playouts": [r.__dict__ for r in playouts],
                    "search": [r.__dict__ for r in searches],
                    "scaling": [{**r.__dict__, "speedup": r.speedup} for r in scalings],
                    "openspiel": [{**r.__dict__, "ratio": r.ratio} for r in races],
                },
                indent=2,
            )
        )
        return
    table = Table(title=f"Random playouts, one core, median of {runs} runs of {seconds:g}s")
    for column in ("game", "parameters", "games/s", "actions/s", "actions/game"):
        table.add_column(column, justify="right")
    for r in playouts:
        params = ", ".join(f"{k}={v}" for k, v in r.params.items())
        table.add_row(
            r.game, params, f"{r.games_per_second:,.0f}", f"{r.actions_per_second:,.0f}",
            f"{r.actions_per_game:.0f}",
        )  # fmt: skip
    console.print(table)
    if searches:
        table = Table(title=f"Search at 100 simulations, median of {runs} runs")
        for column in ("game", "agent", "decisions/s"):
            table.add_column(column, justify="right")
        for r in searches:
            table.add_row(r.game, r.agent, f"{r.decisions_per_second:,.1f}")
        console.print(table)
    if scalings:
        table = Table(title="Simulation of random games, local processes")
        for column in ("game", "games", "1 worker games/s", "2 workers games/s", "ratio"):
            table.add_column(column, justify="right")
        for r in scalings:
            table.add_row(
                r.game, str(r.games), f"{r.games_per_second[1]:,.0f}",
                f"{r.games_per_second[2]:,.0f}", f"{r.speedup:.2f}",
            )  # fmt: skip
        console.print(table)
    if races:
        table = Table(title="MCTS, 100 simulations: T-minus against OpenSpiel's Python MCTSBot")
        columns = ("game", "ours", "ours decisions/CPU s", "OpenSpiel decisions/CPU s", "ratio")
        for column in columns:
            table.add_column(column, justify="right")
        for r in races:
            table.add_row(
                r.game, r.ours, f"{r.ours_per_second:,.1f}", f"{r.openspiel_per_second:,.1f}",
                f"{r.ratio:.1f}x",
            )  # fmt: skip
        console.print(table)
    if "sputnik" in chosen:
        print_endgame_figures()


def print_endgame_figures() -> None:
    """The solved Sputnik endgames: figures of the table on disk (building it takes minutes,
    so bench never does)."""
    from tminus.agents.solvers.sputnik_endgame import bench_figures

    figures = bench_figures()
    if figures is None:
        console.print(
            "Sputnik endgame table: not built here "
            "(python -m tminus.agents.solvers.sputnik_endgame build)"
        )
        return
    console.print(
        f"Sputnik endgame table (2 players, radius {figures['radius']}): at most "
        f"{figures['max_galaxies']} galaxies left, {figures['positions']:,} positions, "
        f"{figures['megabytes']:.1f} MB, built in {figures['build_seconds']:,.0f} s, "
        f"{figures['lookups_per_second']:,.0f} lookups/s"
    )


KINDS = ("playouts", "search", "scaling", "openspiel")
# Its kind, what it times, and the timing (called with the step's progress callback).
Measurement = tuple[str, str, Callable[..., Any]]


def measurements(
    chosen: list[str], runs: int, seconds: float, search: bool, scaling: bool, interop: bool
) -> list[Measurement]:
    """What bench times, in order, each ready to run: so that the status line can say
    which it is at and how far that one got."""
    from tminus.sim.bench import bench_scaling, bench_search, bench_vs_openspiel

    todo: list[Measurement] = []
    for name in chosen:
        for params in bench_configurations(name):
            said = "".join(f", {key}={value}" for key, value in params.items())
            game = load_game(name, **params)
            run = partial(bench_game, game, runs=runs, seconds=seconds)
            todo.append(("playouts", f"{name}: random playouts{said}", run))
    if search:
        for name in chosen:
            run = partial(bench_search, load_game(name), runs=runs)
            todo.append(("search", f"{name}: MCTS, 100 simulations", run))
    if scaling:
        for name in chosen:
            run = partial(bench_scaling, load_game(name))
            todo.append(("scaling", f"{name}: games on 1 and 2 workers", run))
    if interop:
        for name in chosen:
            run = partial(bench_vs_openspiel, load_game(name), runs=runs)
            todo.append(("openspiel", f"{name}: OpenSpiel's MCTSBot", run))
    return todo


def bench_configurations(name: str) -> list[dict[str, Any]]:
    """Default parameters, and the largest player count when the game has several."""
    players = game_class(name).parameters.get("players")
    if players is None or players.choices is None:
        return [{}]
    largest = max(players.choices)
    return [{}] if largest == players.default else [{}, {"players": largest}]
