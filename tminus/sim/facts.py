"""Facts about a finished game that its report figures need, read off the replayed history.

A game with figures of its own names here a function ``facts(game, history) -> dict`` of
plain, picklable data (in a small ``analysis`` module of its package). A batch that asks
for facts computes them where the game was played, so they come back with the results
from every backend; a game is reproduced exactly by its parameters and history.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import import_module
from typing import Any

from tminus.core.game import Game

EXTRACTORS = {
    "count_down": "tminus.games.count_down.analysis:facts",
    "sputnik": "tminus.games.sputnik.analysis:facts",
}


def game_facts(game: Game, history: Sequence[int]) -> dict[str, Any] | None:
    """The game's report facts, None for a game with no extractor."""
    path = EXTRACTORS.get(game.name)
    if path is None:
        return None
    module, name = path.split(":")
    return getattr(import_module(module), name)(game, history)
