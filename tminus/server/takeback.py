"""Take-backs in a game's log: what is standing, and the state without its last decision.

The log is append-only. A move taken back stays in it, and the take-back is a row of its
own (its action ``TAKE_BACK``, its seat the player whose move it takes back) that undoes
the last *standing* action: the log's actions minus those taken back. Each take-back row
pops one standing action, so the standing actions are found as on a stack.

A take-back is allowed only when the last standing action is a player's own decision (no
chance outcome after it), so chance outcome number ``i`` (see ``tminus.server.fairness``)
counts standing actions only: a chance drawn after a move played again is the one that
would have been drawn had the first move never been made. The request and its answers are
in ``tminus.server.undo``. Plain Python: ``tminus verify`` reads take-backs with this.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, TypeVar

from tminus.core.game import Game, State

TAKE_BACK = -1  # the action of a take-back row (no game has a negative action)


class Entry(Protocol):
    """A log row as the server keeps it (``tables.LogEntry``)."""

    index: int
    actor: int
    action: int


E = TypeVar("E", bound=Entry)  # (the caller gets back its own kind of entry)


def last_standing(entries_backwards: Iterable[E]) -> E | None:
    """The last standing entry of a log given from its end (None: nothing stands)."""
    popped = 0
    for entry in entries_backwards:
        if entry.action == TAKE_BACK:
            popped += 1
        elif popped:
            popped -= 1
        else:
            return entry
    return None


def taken_back(rows: Iterable[tuple[int, int]]) -> set[int]:
    """The indexes of the rows (index, action) of a log that a later take-back undid."""
    standing: list[int] = []
    undone = set()
    for index, action in rows:
        if action == TAKE_BACK:
            undone.add(standing.pop())
        else:
            standing.append(index)
    return undone


def without_last(game: Game, state: State) -> State:
    """The state before its last action (states do not undo: replayed without it)."""
    history = state.history()
    if not history:
        raise ValueError("nothing to take back: no action was played")
    earlier = game.new_initial_state()
    for action in history[:-1]:
        earlier.apply_action(action)
    return earlier


def play_row(game: Game, state: State, action: int) -> State:
    """The state after one row of the log: an action, or a take-back."""
    if action == TAKE_BACK:
        return without_last(game, state)
    state.apply_action(action)
    return state
