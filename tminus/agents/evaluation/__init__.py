"""Position evaluations for search agents, one module per game, named in its manifest
(``GameManifest.evaluation``).

Such a module provides ``evaluate(state, seat) -> float`` (how good the position is for
``seat``: positive is good, within about +-1000) and may provide
``order_actions(state, actions) -> list[int]`` (the most promising actions first).
"""

from __future__ import annotations

from types import ModuleType

from tminus.core.manifest import resolve
from tminus.core.registry import manifest


def evaluation_module(game_name: str) -> ModuleType:
    path = manifest(game_name).evaluation
    if path is None:
        raise ValueError(f"no evaluation for {game_name}: searching agents cannot play it")
    return resolve(path)
