"""What the commands share: the console, errors in one line, games and options read from
the command line."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from tminus.core.game import Game
from tminus.core.params import coerce_param
from tminus.core.registry import game_class, load_game

console = Console()

GameArg = Annotated[str, typer.Argument(help="Game name (see `tminus games`).")]
PlayersOpt = Annotated[int | None, typer.Option("--players", help="Number of players.")]
ParamOpt = Annotated[
    list[str] | None,
    typer.Option("--param", "-p", help="A game parameter as name=value (repeatable)."),
]
SeedOpt = Annotated[int, typer.Option("--seed", help="Seed: the same seed, the same games.")]
# Bots are named as the browser's lobby names them, or by the agent they are.
AGENTS_HELP = (
    "levels as in the browser (easy, medium, hard, expert) or agents (random, greedy, "
    "mcts:simulations=500, ...; a wrong name lists a game's agents)"
)


def fail(message: str) -> typer.Exit:
    # The message is plain text: "tminus[web]" must not be read as markup.
    console.print(f"[bold red]error:[/] {escape(message)}")
    return typer.Exit(code=2)


def build_game(name: str, players: int | None, param_texts: list[str] | None) -> Game:
    """load_game from command-line strings; every mistake becomes a one-line error."""
    try:
        declared = game_class(name).parameters
        params: dict[str, Any] = {}
        for text in param_texts or []:
            key, sep, value = text.partition("=")
            if not sep:
                raise ValueError(f"a parameter is written name=value, not {text!r}")
            params[key] = coerce_param(declared[key], value) if key in declared else value
        if players is not None:
            params["players"] = players
        return load_game(name, **params)
    except ValueError as error:
        raise fail(str(error)) from None


def split_names(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


def game_class_or_fail(name: str) -> type[Game]:
    try:
        return game_class(name)
    except ValueError as error:
        raise fail(str(error)) from None


JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable output.")]
