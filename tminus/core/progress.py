"""What a long computation says while it runs, for a command to show (a bar, a status
line). Solvers and benchmarks take one of these callbacks, optional, call it now and then
and never print: what is shown, and where, is the command line's business."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

# How far it got, out of how much (positions, sweeps, digits settled; None: not known).
Step = Callable[[float, float | None], None]
# The same, with what it is doing ("adult rules: both greedy").
Steps = Callable[[str, float, float | None], None]


def step_of(progress: Steps | None, doing: str) -> Step:
    """One step's callback, telling ``progress`` what it counts as ``doing`` (with no
    ``progress``, nobody: the step calls it all the same)."""
    if progress is None:
        return lambda done, total: None
    return lambda done, total: progress(doing, done, total)


class Count(Protocol):
    """Work done: one more piece, or ``amount`` more."""

    def __call__(self, amount: float = 1) -> None: ...


def counting(progress: Step | None, total: float) -> Count:
    """A callback for work done bit by bit (games, decisions): each call adds its amount
    and tells ``progress`` the sum so far, out of ``total``."""
    done = 0.0

    def add(amount: float = 1) -> None:
        nonlocal done
        done += amount
        if progress is not None:
            progress(done, total)

    return add
