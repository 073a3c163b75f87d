"""Which games exist: name -> the module and class that implement it, imported on demand."""

from __future__ import annotations

import importlib
import importlib.resources
from typing import Any

from tminus.core.game import Game

# Imported lazily so that `import tminus` stays light and one game's import cost is paid
# only by whoever plays it.
_GAMES: dict[str, str | type[Game]] = {
    "count_down": "tminus.games.count_down.game:CountDownGame",
    "four_way": "tminus.games.four_way.game:FourWayGame",
    "sputnik": "tminus.games.sputnik.game:SputnikGame",
    "three_two_one": "tminus.games.three_two_one.game:ThreeTwoOneGame",
}


def register_game(cls: type[Game]) -> None:
    """Add a game class under ``cls.name`` (for games that live outside T-minus, or tests)."""
    _GAMES[cls.name] = cls


def unregister_game(name: str) -> None:
    _GAMES.pop(name, None)


def list_games() -> list[str]:
    return sorted(_GAMES)


def game_class(name: str) -> type[Game]:
    if name not in _GAMES:
        raise ValueError(f"unknown game {name!r}; known games: {', '.join(list_games())}")
    entry = _GAMES[name]
    if isinstance(entry, type):
        return entry
    module, cls = entry.split(":")
    return getattr(importlib.import_module(module), cls)


def load_game(name: str, **params: Any) -> Game:
    """A game by name with its parameters, e.g. ``load_game("four_way", players=3)``."""
    return game_class(name)(**params)


def load_game_from(name: str, params: dict[str, Any]) -> Game:
    """``load_game`` with the parameters as one mapping (what pickling needs)."""
    return load_game(name, **params)


def rules_text(name: str) -> str:
    """The game's rules page (Markdown), with the T-minus rulings, from its package."""
    package = game_class(name).__module__.rsplit(".", 1)[0]
    return importlib.resources.files(package).joinpath("RULES.md").read_text(encoding="utf-8")
