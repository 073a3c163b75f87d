"""The `tminus` command: list games, read rules, play in the terminal, simulate, benchmark,
serve the browser table, verify and review games. One module per group of commands."""

from __future__ import annotations

import typer

from tminus.cli import about, benchmark, online, puzzle, review, simulation, tables, terminal
from tminus.cli.common import console
from tminus.cli.terminal import your_move

app = typer.Typer(
    help="T-minus: play and study four countdown games.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
for command in (
    about.games,
    about.rules,
    terminal.play,
    simulation.simulate,
    simulation.tournament,
    simulation.pool,
    simulation.report,
    about.solve,
    benchmark.bench,
    online.serve,
    online.verify,
    review.review,
    puzzle.puzzle,
):
    app.command()(command)
app.add_typer(tables.app, name="tables")


def main() -> None:  # pragma: no cover
    app()


__all__ = ["app", "console", "main", "your_move"]
