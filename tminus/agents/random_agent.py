"""Uniformly random legal moves: the baseline every other agent must beat."""

from __future__ import annotations

import numpy as np

from tminus.core.game import Game, State


class RandomAgent:
    name = "random"
    instant = True  # a move in microseconds (scripts/bot_think_time.py)

    def __init__(self, game: Game, seed: int | list[int] | None = None) -> None:
        self._rng = np.random.default_rng(seed)

    def step(self, state: State) -> int:
        legal = state.legal_actions()
        return legal[int(self._rng.integers(len(legal)))]
