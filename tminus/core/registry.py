"""Which games exist: name -> the module and class that implement it, imported on demand."""

from __future__ import annotations

import importlib
from typing import Any

from tminus.core.game import Game

# Imported lazily so that `import tminus` stays light and one game's import cost is paid
# only by whoever plays it.
_GAMES: dict[str, str] = {
    "four_way": "tminus.games.four_way.game:FourWayGame",
}


def list_games() -> list[str]:
    return sorted(_GAMES)


def game_class(name: str) -> type[Game]:
    if name not in _GAMES:
        raise ValueError(f"unknown game {name!r}; known games: {', '.join(list_games())}")
    module, cls = _GAMES[name].split(":")
    return getattr(importlib.import_module(module), cls)


def load_game(name: str, **params: Any) -> Game:
    """A game by name with its parameters, e.g. ``load_game("four_way", players=3)``."""
    return game_class(name)(**params)
