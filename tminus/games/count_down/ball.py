"""The ball: "the ball is rolled" and stops on 1 to 12, uniform by ruling *(option: weights, a
game parameter that an online table can set too)*.

The parameter ``ball_weights`` is "board" (the weights of the board file: uniform on the
board T-minus ships, as the ruling says), "uniform", or the 12 relative weights of the
faces 1 to 12: numbers >= 0, not all 0. From JSON (an online table) they are a list; on the
command line, numbers between commas (``-p ball_weights=1,1,1,1,1,1,1,1,1,1,2,2``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tminus.core.params import Param
from tminus.games.count_down.data import BALL_FACES, BoardData

BOARD = "board"
UNIFORM = "uniform"

Weights = tuple[int | float, ...]


@dataclass(frozen=True)
class BallWeightsParam(Param):
    """``ball_weights``: "board", "uniform", or 12 weights (kept as a tuple of numbers)."""

    def allowed(self) -> str:
        return (
            f"'{BOARD}' (the board file's weights), '{UNIFORM}', or {BALL_FACES} numbers >= 0, "
            f"not all 0, for the faces 1 to {BALL_FACES} (a list, or numbers between commas)"
        )

    def validate(self, game: str, name: str, value: Any) -> Any:
        if value in (BOARD, UNIFORM) and isinstance(value, str):
            return value
        weights = parse_weights(value)
        if weights is None:
            raise ValueError(
                f"parameter {name!r} of {game} must be {self.allowed()}; got {value!r}"
            )
        return weights


def parse_weights(value: Any) -> Weights | None:
    """12 weights from a list or tuple of numbers, or from numbers between commas; None
    if they are not 12 finite numbers >= 0, not all 0."""
    if isinstance(value, str):
        items: Sequence[Any] = [number(text.strip()) for text in value.split(",")]
    elif isinstance(value, (list, tuple)):
        items = value
    else:
        return None
    if len(items) != BALL_FACES:
        return None
    for w in items:
        if isinstance(w, bool) or not isinstance(w, (int, float)):
            return None
        if not math.isfinite(w) or w < 0:
            return None
    if not sum(items) > 0:
        return None
    return tuple(items)


def number(text: str) -> int | float | None:
    """A weight written on the command line: "2", "0.5" (None: not a number)."""
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return None


def weights_of(value: str | Weights, board: BoardData) -> Weights:
    """The 12 weights a validated ``ball_weights`` stands for on ``board``."""
    if value == BOARD:
        return tuple(board.spec.ball.weights)
    if value == UNIFORM:
        return (1,) * BALL_FACES
    assert not isinstance(value, str)
    return value


def chance_outcomes(weights: Weights) -> tuple[tuple[int, float], ...]:
    """The ball's chance outcomes: (face - 1, probability) for each face with a weight."""
    total = sum(weights)
    return tuple((face - 1, w / total) for face, w in enumerate(weights, 1) if w > 0)
