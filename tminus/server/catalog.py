"""What the lobby offers: the games installed, their parameters, and the bots for each."""

from __future__ import annotations

from typing import Any

from tminus.agents.levels import levels
from tminus.core.registry import game_class, list_games, manifest


def bot_levels(game_name: str, players: int | None = None) -> list[dict[str, str]]:
    """The bots a lobby offers for a game of ``players`` (None: its default count), weakest
    first: (spec, label), as measured in ``tminus.agents.levels``."""
    return levels(game_name, players)


def player_counts(cls) -> list[int]:
    """The numbers of players a game class allows (its ``players`` parameter)."""
    param = cls.parameters.get("players")
    if param is None:
        return []
    if param.choices is not None:
        return [int(n) for n in param.choices]
    return list(range(int(param.minimum), int(param.maximum) + 1))


def is_search(spec: str | None) -> bool:
    """A bot that searches (and so costs real CPU per move)."""
    return bool(spec and spec.split(":")[0] in ("mcts", "ismcts", "alphabeta", "solver"))


def title_of(game_name: str) -> str:
    try:
        return game_class(game_name).title
    except ValueError:  # a game no longer installed
        return game_name


def rules_version_of(game_name: str) -> str:
    try:
        return f"version {game_class(game_name).rules_version}"
    except ValueError:
        return "the game is not installed"


def catalog() -> list[dict[str, Any]]:
    """Every game with its parameters and bots, for the lobby."""
    games = []
    for name in list_games():
        cls = game_class(name)
        params = {
            key: {
                "default": p.default,
                "help": p.help,
                "choices": list(p.choices) if p.choices is not None else None,
                "minimum": p.minimum,
                "maximum": p.maximum,
                "local_only": p.local_only,  # a file on the server: not set from a browser
            }
            for key, p in cls.parameters.items()
        }
        games.append(
            {
                "name": name,
                "title": cls.title,
                "information": cls.information,
                "rules_version": cls.rules_version,
                "params": params,
                "bots": bot_levels(name),
                # The levels for each count of players (an expert may depend on it).
                "bots_by_players": {n: bot_levels(name, n) for n in player_counts(cls)},
                # From the game's manifest: the lobby's line, the board script's URL.
                "description": manifest(name).description,
                "luck": manifest(name).luck,  # what the committed seed decides, in words
                "board": manifest(name).board,
            }
        )
    return games


def refuse_local_only(game_name: str, params: dict[str, Any]) -> None:
    """A parameter naming a file on the server (a board file) is not for players to set."""
    declared = game_class(game_name).parameters
    for name, value in params.items():
        param = declared.get(name)
        if param is not None and param.local_only and value != param.default:
            raise ValueError(
                f"parameter {name!r} of {game_name} names a file on the server: "
                "it cannot be set from the browser"
            )


def printed_board(game: Any) -> dict[str, Any] | None:
    """A game's printed board (Count Down's track, cards and prices), which its drawing
    needs; None for a game without one. Public data."""
    return game.layout() if game.game_type.layout else None
