"""Facts about a finished game that its report figures need, read off the replayed history.

A game with figures of its own names in its manifest (``GameManifest.facts``) a function
``facts(game, history) -> dict`` of plain, picklable data (in a small ``analysis`` module
of its package). A batch that asks for facts computes them where the game was played, so
they come back with the results from every backend; a game is reproduced exactly by its
parameters and history.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tminus.core.game import Game
from tminus.core.manifest import resolve
from tminus.core.registry import manifest


def game_facts(game: Game, history: Sequence[int]) -> dict[str, Any] | None:
    """The game's report facts, None for a game with no extractor."""
    path = manifest(game.name).facts
    return None if path is None else resolve(path)(game, history)
