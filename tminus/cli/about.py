"""About the games: the list, their rules pages, what their exact solvers found."""

from __future__ import annotations

from rich.markdown import Markdown
from rich.table import Table

from tminus.agents.solvers import solver_report
from tminus.cli.common import GameArg, console, fail
from tminus.cli.progress import shown_steps
from tminus.core.registry import game_class, list_games, rules_text


def games() -> None:
    """List the games and their parameters."""
    table = Table(title="T-minus games")
    for column in ("name", "game", "parameters (default)"):
        table.add_column(column)
    for name in list_games():
        cls = game_class(name)
        params = ", ".join(
            f"{key}={param.default} ({param.allowed()})" for key, param in cls.parameters.items()
        )
        table.add_row(name, cls.title, params)
    console.print(table)


def rules(game: GameArg) -> None:
    """Show a game's rules page, with the T-minus rulings."""
    try:
        text = rules_text(game)
    except ValueError as error:
        raise fail(str(error)) from None
    console.print(Markdown(text))


def solve(game: GameArg) -> None:
    """Print what the exact solvers know about a game (Sputnik's take a minute or so)."""
    try:
        with shown_steps(f"Solving {game}") as progress:
            report = solver_report(game, progress)
    except ValueError as error:
        raise fail(str(error)) from None
    console.print(Markdown(report))
