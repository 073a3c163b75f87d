"""Position evaluations for search agents, one module per game.

A module ``tminus.agents.evaluation.GAME`` provides ``evaluate(state, seat) -> float`` (how
good the position is for ``seat``: positive is good, within about +-1000) and may provide
``order_actions(state, actions) -> list[int]`` (the most promising actions first).
"""

from __future__ import annotations

import importlib
from types import ModuleType


def evaluation_module(game_name: str) -> ModuleType:
    try:
        return importlib.import_module(f"{__name__}.{game_name}")
    except ModuleNotFoundError:
        raise ValueError(
            f"no evaluation for {game_name}: searching agents cannot play it"
        ) from None
