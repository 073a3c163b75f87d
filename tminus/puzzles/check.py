"""A puzzle proved, and a player's move judged.

``prove`` replays a puzzle and works every legal move's value out again with the game's
exact solver or search, then checks the stored values, the answer and its margin; it
raises ``ProofError`` saying what does not hold. ``verdict`` tells a player whether their
move was the answer, with every move's value in words (what the terminal and the server
show after a try).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tminus.puzzles.generate import maker_of
from tminus.puzzles.model import Puzzle, state_of

# Values read from a table solved by iteration (4-Way's duel, to 1e-11 a sweep) may move in
# their last digits with another numpy; exact values (fractions, turns) must match exactly.
TOLERANCE = {"four_way": 1e-9}


class ProofError(AssertionError):
    """A shipped puzzle that its solver does not confirm."""


def prove(puzzle: Puzzle) -> dict[int, float]:
    """The values worked out again (ProofError when anything stored is not confirmed)."""
    maker = maker_of(puzzle.game)
    where = f"puzzle {puzzle.id} ({puzzle.game})"
    if puzzle.kind != maker.kind or puzzle.margin != maker.margin:
        raise ProofError(f"{where}: kind {puzzle.kind} / margin {puzzle.margin} are not the game's")
    state = state_of(puzzle)
    legal = state.legal_actions()
    if sorted(puzzle.values) != legal:
        raise ProofError(f"{where}: values for {sorted(puzzle.values)}, legal moves {legal}")
    values = maker.values(state)
    if values is None:
        raise ProofError(f"{where}: the solver gives no exact values here")
    tolerance = TOLERANCE.get(puzzle.game, 0.0)
    for action in legal:
        if abs(values[action] - puzzle.values[action]) > tolerance:
            raise ProofError(
                f"{where}: move {action} is worth {values[action]!r}, "
                f"stored {puzzle.values[action]!r}"
            )
    lead = answer_lead(puzzle.kind, values, puzzle.answer)
    if lead < puzzle.margin - tolerance:
        raise ProofError(f"{where}: the answer leads by {lead}, less than {puzzle.margin}")
    return values


def answer_lead(kind: str, values: Mapping[int, float], answer: int) -> float:
    """How far ``answer`` is ahead of the best other move, in the kind's unit (chances; for
    ``win_in_n`` turns: how much later the next fastest win comes, infinity when every
    other move loses, and minus infinity when the answer does not win)."""
    others = [v for a, v in values.items() if a != answer]
    if not others:
        return float("-inf")
    mine = values[answer]
    if kind == "win_in_n":
        if mine <= 0:
            return float("-inf")
        wins = [v for v in others if v > 0]
        return min(wins) - mine if wins else float("inf")
    return mine - max(others)


def describe(puzzle: Puzzle, value: float) -> str:
    """A value of this puzzle's moves in words: "wins in 3 turns", "62.1% to win"."""
    return maker_of(puzzle.game).describe(value)


def verdict(puzzle: Puzzle, action: int) -> dict[str, Any]:
    """A try judged, JSON-safe: ``correct``, the ``answer``, and each move's value and its
    words, best first."""
    if action not in puzzle.values:
        raise ValueError(f"move {action} is not legal in puzzle {puzzle.id}")
    maker = maker_of(puzzle.game)
    order = sorted(puzzle.values, key=lambda a: _rank(puzzle.kind, puzzle.values[a]), reverse=True)
    return {
        "puzzle": puzzle.id,
        "correct": action == puzzle.answer,
        "chosen": action,
        "answer": puzzle.answer,
        "moves": [
            {
                "action": a,
                "move": puzzle.moves.get(a, str(a)),
                "value": puzzle.values[a],
                "said": maker.describe(puzzle.values[a]),
            }
            for a in order
        ],
    }


def _rank(kind: str, value: float) -> tuple[bool, float]:
    if kind == "win_in_n":
        return (value > 0, -value)
    return (True, value)
