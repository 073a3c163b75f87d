"""4-Way CountDown puzzles, two players: "the move that keeps the most chance to win".

A puzzle is a roll that offers two moves or more (flips, and on eleven the attack) where one
move's exact chance to win beats every other's by ``MARGIN`` or more. The chances are the
solved duel's (``tminus.agents.solvers.four_way_duel``: both players perfect from then on),
read through the ``solver`` agent's ``chance_to_win``; a move that flips the tenth key is
worth 1. The duel is solved without the turn cap (5,000 rolls by default): a game from
these positions reaches it with a chance far below the values' precision (about 1e-10).

The margin, 0.02 (two points of chance to win): luck is most of this game, and about half of
all choices are closer than 0.01, which nobody can tell apart at the table; 0.02 keeps
about a quarter of the decisions of bot games, each a choice a careful player can learn
to see (the first set: 0.02 to 0.45, median about 0.03).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from functools import cache
from typing import Any

from tminus.core.game import Game, State
from tminus.puzzles.base import (
    closeness,
    every_decision,
    greedy_move,
    starting_rating,
    unique_best,
)

game = "four_way"
kind = "best_chance"
margin = 0.02
GAP_SCALE = 0.1  # a lead of 0.1 or more counts as plain to see (rating)
configurations: Sequence[Mapping[str, Any]] = (
    {"players": 2, "variant": "adult"},
    {"players": 2, "variant": "junior"},
)
# Each pairing plays both variants (the two are cycled at different lengths).
pairings: Sequence[Sequence[str]] = (
    ("greedy", "random"),
    ("random", "greedy"),
    ("greedy", "greedy"),
    ("mcts:simulations=200", "greedy"),
    ("random", "mcts:simulations=200"),
)
most: int | None = None


@cache
def _solver(junior: bool) -> Any:
    from tminus.agents.solvers.four_way import FourWaySolverAgent
    from tminus.games.four_way.game import FourWayGame

    return FourWaySolverAgent(FourWayGame(players=2, variant="junior" if junior else "adult"))


def values(state: State[Game]) -> dict[int, float] | None:
    from tminus.games.four_way.game import FourWayState

    if not isinstance(state, FourWayState) or state.game.num_players != 2:
        return None
    if state.is_chance_node() or state.is_terminal():
        return None
    legal = state.legal_actions()
    if len(legal) < 2:
        return None
    solver = _solver(state.game.junior)
    return {a: float(solver.chance_to_win(state, a)) for a in legal}


def best(values: Mapping[int, float]) -> int | None:
    return unique_best(values, margin)


def key(state: State[Game]) -> Hashable:
    """The same roll against the same keys is the same puzzle, whatever came before."""
    from tminus.games.four_way.game import FourWayState

    assert isinstance(state, FourWayState)
    me = state.current_player()
    return (state.game.junior, state.dice(), state.keys_mask(me), state.keys_mask(1 - me))


def prompt(state: State[Game], values: Mapping[int, float], answer: int) -> str:
    from tminus.games.four_way.game import FourWayState

    assert isinstance(state, FourWayState)
    variant = "junior rules" if state.game.junior else "adult rules"
    a, b = state.dice() or (0, 0)
    return (
        f"4-Way CountDown, 2 players, {variant}: you rolled {a} and {b}. "
        "Which move keeps the most chance to win?"
    )


def rating(state: State[Game], values: Mapping[int, float], answer: int) -> int:
    near = closeness(values, answer, GAP_SCALE)
    return starting_rating(len(values), near, greedy_move(state) == answer)


def describe(value: float) -> str:
    return f"{100 * value:.1f}% to win"


def decisions(
    positions: Sequence[State[Game]],
) -> Iterable[tuple[State[Game], dict[int, float]]]:
    return every_decision(positions, values)
