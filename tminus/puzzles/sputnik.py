"""Sputnik puzzles, two players, one rocket each, the 37-cell board: "win in N".

A value is the exact game-theoretic result of a move with perfect play by both, in turns:
``+n`` wins with the mover's n-th turn, this one counted (after it the opponent cannot
move, and is out), ``-n`` loses on the opponent's n-th turn from now (the longest defence).
Sputnik with two rockets has no draws (a game ends long before the turn cap: see
``tminus.agents.solvers.sputnik_kernel``), so every move has such a value.

The values come from a complete search of the position (``Search``): every turn of both
sides on the kernel's packed positions, a table of positions already valued (a position
and its mirror image in the axis through both bases share a value), and a win in one turn
spotted without listing the turns (``Kernel.wins_at_once``). It is exact, not a bounded
look-ahead, so it is run only where it is small: a decision is kept when its search stores
at most ``LIMIT`` positions, which is true of the last few turns of most games (rockets
walled into small regions), never of the open middle game. The big endgame table is not
used: a puzzle is proved by this search alone, on any machine.

A puzzle: the one move that wins fastest. Its margin is one turn: every other move wins at
least one turn later, or loses. Puzzles come from both decisions of a turn: the move (a
step or the base's help; a step's value is that of its best removal) and the removal.
"""

from __future__ import annotations

import sys
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any

from tminus.agents.solvers.sputnik_kernel import Kernel, kernel
from tminus.core.game import Game, State
from tminus.puzzles.base import greedy_move, starting_rating

game = "sputnik"
kind = "win_in_n"
margin: float = 1  # turns
configurations: Sequence[Mapping[str, Any]] = ({"players": 2},)
pairings: Sequence[Sequence[str]] = (
    ("greedy", "greedy"),
    ("greedy", "random"),
    ("random", "greedy"),
    ("mcts:simulations=100", "greedy"),
    ("greedy", "mcts:simulations=100"),
    ("random", "random"),
)
most: int | None = None
LIMIT = 100_000  # positions (each mirror image counted) a decision's search may store
RADIUS = 3


class OverBudget(Exception):
    """The search stored more than its limit of positions."""


class Search:
    """Exact values (the module's ``+n``/``-n`` in turns) of kernel positions, for the
    player to move at the start of a turn; ``0``: it cannot move, it has lost."""

    def __init__(self, radius: int = RADIUS, limit: int | None = LIMIT) -> None:
        self.kernel: Kernel = kernel(radius)
        self.limit = limit
        self.table: dict[int, int] = {}

    def value(self, key: int) -> int:
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 10 * self.kernel.cells + 1000))
        try:
            return self._value(key)
        finally:
            sys.setrecursionlimit(limit)

    def _value(self, key: int) -> int:
        table = self.table
        known = table.get(key)
        if known is not None:
            return known
        if self.limit is not None and len(table) >= self.limit:
            raise OverBudget(f"more than {self.limit:,} positions")
        k = self.kernel
        if k.wins_at_once(key):
            value = 1
        else:
            value = 0  # no turn at all: eliminated
            for child in k.successors(key):
                turn = after_turn(self._value(child))
                if value == 0 or rank(turn) > rank(value):
                    value = turn
                    if value == 2:
                        break  # no win in one turn here (above): two is the fastest
        table[key] = value
        table[k.mirror(key)] = value
        return value


def after_turn(theirs: int) -> int:
    """The mover's value of a turn after which the opponent, to move, has value ``theirs``."""
    return 1 - theirs if theirs <= 0 else -theirs


def rank(value: float) -> tuple[bool, float]:
    """Larger is better: a win before a loss, a faster win, a slower loss."""
    return (value > 0, -value)


def better(a: int, b: int) -> int:
    return a if rank(a) >= rank(b) else b


def values(state: State[Game], limit: int | None = LIMIT) -> dict[int, float] | None:
    """Every legal move's value, or None: not a two-rocket decision on the board of
    ``RADIUS``, a single legal move, or a search beyond ``limit`` positions."""
    from tminus.games.sputnik.game import SputnikState

    if not isinstance(state, SputnikState) or not _applies(state.game):
        return None
    if state.is_terminal() or state.is_chance_node():
        return None
    legal = state.legal_actions()
    if len(legal) < 2:
        return None
    search = Search(state.game.board.radius, limit)
    try:
        return {a: move_value(search, state, a) for a in legal}
    except OverBudget:
        return None


def _applies(g: Game) -> bool:
    p = g.params
    return p["players"] == 2 and p["rockets_per_player"] == 1 and p["radius"] == RADIUS


def move_value(search: Search, state: State[Game], action: int) -> int:
    """The value of ``action`` for the player to move in the engine's ``state``."""
    me = state.current_player()
    after = state.clone()
    after.apply_action(action)
    if after.is_terminal():
        return 1 if me in after.winners() else 0  # (two players: the mover has won)
    if after.current_player() == me:  # a step: the removal is still to come
        best = None
        for removal in after.legal_actions():
            value = move_value(search, after, removal)
            best = value if best is None else better(best, value)
        assert best is not None
        return best
    return after_turn(search.value(search.kernel.position_of(after)))  # type: ignore[arg-type]


def best(values: Mapping[int, float]) -> int | None:
    """The one fastest win (None: no win, or two moves win as fast)."""
    if len(values) < 2:
        return None
    ordered = sorted(values, key=lambda a: rank(values[a]), reverse=True)
    first, second = values[ordered[0]], values[ordered[1]]
    if first <= 0 or (second > 0 and second - first < margin):
        return None
    return ordered[0]


def key(state: State[Game]) -> Hashable:
    """The position (board, rockets, whose turn, phase), not how the game got there."""
    return state.state_key()


def turns(value: float) -> int:
    return int(abs(value))


def prompt(state: State[Game], values: Mapping[int, float], answer: int) -> str:
    n = turns(values[answer])
    win = f"Win in {n}" if n > 1 else "Win in 1: this turn"
    if state.phase() == "remove":
        return f"Sputnik, 2 players: you have moved; take a galaxy. {win}" + (
            " (this turn counted)." if n > 1 else "."
        )
    return f"Sputnik, 2 players: your turn. Move your rocket. {win}" + (
        " (this turn counted)." if n > 1 else "."
    )


def rating(state: State[Game], values: Mapping[int, float], answer: int) -> int:
    n = turns(values[answer])
    others = [values[a] for a in values if a != answer and values[a] > 0]
    # Another way to win, one turn slower: close; two turns: half as close; none: far.
    near = max((1.0 / (v - n) for v in others), default=0.0)
    return starting_rating(len(values), near, greedy_move(state) == answer, 150 * (n - 1))


def describe(value: float) -> str:
    n = turns(value)
    plural = "" if n == 1 else "s"
    return f"wins in {n} turn{plural}" if value > 0 else f"loses in {n} turn{plural}"


def decisions(
    positions: Sequence[State[Game]],
) -> Iterable[tuple[State[Game], dict[int, float]]]:
    """A game's decisions from the last back, while the search stays within its budget
    (it grows as the board opens up: two decisions over it in a row end the scan)."""
    over = 0
    for state in reversed(positions):
        found = values(state)
        if found is None:
            if len(state.legal_actions()) > 1:
                over += 1
                if over >= 2:
                    return
            continue
        over = 0
        yield state, found
