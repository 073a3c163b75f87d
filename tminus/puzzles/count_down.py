"""Count Down puzzles: "count now or wait?" in the COUNTDOWN.

"This consists in reaching a total of at least 25 points in three consecutive rolls of the
ball. However, they may choose to start counting only from the moment the ball stops on a
high number, but at the latest on the fourth roll." After each of the first three rolls of
an attempt the player chooses: start counting with this roll, or wait.

A value is the exact chance (a fraction, stored as the nearest float) that this attempt
succeeds, playing the rest of it perfectly: counting from the roll, P(roll + the next two
>= 25); waiting, the solved value of the next roll (``tminus.agents.solvers.count_down``,
for the game's ball and board). Nothing else happens during an attempt, and a failed one
leaves the same position whichever choice was made (the turn ends; the next attempt starts
afresh), so the choice with the better chance of success is also the one with the better
chance to win the game (strictly, unless the player would win anyway).

The margin, 0.02: of the 36 decisions (roll 1, 2 or 3 of an attempt, a face of 1 to 12),
34 are decided by more; the two closest, waiting on a 9 at the first roll (0.019) and on
a 7 at the third (0.016), are left out.

Why a set of 34 and not 200: the decision depends on nothing but the roll's number in the
attempt and the face (the ball and the board being the game's), so the same 34 questions
would come back in every position, whatever the rest of the game. The set holds each one
once, from the first bot game where it came up.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from tminus.core.game import Game, State
from tminus.puzzles.base import (
    closeness,
    every_decision,
    greedy_move,
    starting_rating,
    unique_best,
)

game = "count_down"
kind = "count_now_or_wait"
margin = 0.02
GAP_SCALE = 0.35  # the largest lead of all 36 decisions is 0.33
configurations: Sequence[Mapping[str, Any]] = ({"players": 2}, {"players": 3})
pairings: Sequence[Sequence[str]] = (("greedy",),)  # (the specs are cycled over the seats)


def exact_values(state: State[Game]) -> dict[int, Fraction] | None:
    """Start and wait's exact chances of success (None: not a countdown choice)."""
    from tminus.agents.solvers.count_down import (
        ball_of_game,
        solve_game_countdown,
        success_if_counting_from,
    )
    from tminus.games.count_down.actions import START_COUNT, WAIT
    from tminus.games.count_down.game import CountDownState

    if not isinstance(state, CountDownState) or state.phase() != "count choice":
        return None
    g = state.game
    solution = solve_game_countdown(g)
    ball = ball_of_game(g)
    board = g.board
    start = success_if_counting_from(
        state.last_roll(), ball, board.countdown_target, board.countdown_rolls
    )
    return {START_COUNT: start, WAIT: solution.value_of_waiting[state.countdown_waits()]}


def values(state: State[Game]) -> dict[int, float] | None:
    exact = exact_values(state)
    return None if exact is None else {a: float(v) for a, v in exact.items()}


def best(values: Mapping[int, float]) -> int | None:
    return unique_best(values, margin)


def key(state: State[Game]) -> Hashable:
    """The ball, the board's countdown, the roll's number in the attempt, the face."""
    from tminus.games.count_down.game import CountDownState

    assert isinstance(state, CountDownState)
    g = state.game
    board = g.board
    return (
        tuple(g.ball_weights),
        board.countdown_target,
        board.countdown_rolls,
        board.latest_start,
        state.countdown_waits(),
        state.last_roll(),
    )


ORDINALS = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}


def prompt(state: State[Game], values: Mapping[int, float], answer: int) -> str:
    from tminus.games.count_down.game import CountDownState

    assert isinstance(state, CountDownState)
    board = state.game.board
    n = state.countdown_waits()
    return (
        f"Count Down, {state.game.num_players} players: your COUNTDOWN, the "
        f"{ORDINALS.get(n, f'{n}th')} roll shows {state.last_roll()}. Start counting now "
        f"({board.countdown_target} or more in {board.countdown_rolls} rolls), or wait?"
    )


def rating(state: State[Game], values: Mapping[int, float], answer: int) -> int:
    near = closeness(values, answer, GAP_SCALE)
    return starting_rating(len(values), near, greedy_move(state) == answer)


def describe(value: float) -> str:
    return f"{100 * value:.1f}% that this attempt succeeds"


def decisions(
    positions: Sequence[State[Game]],
) -> Iterable[tuple[State[Game], dict[int, float]]]:
    return every_decision(positions, values)


def _distinct() -> int:
    """How many decisions the default game has with a lead of ``margin`` or more."""
    from tminus.agents.solvers.count_down import solve_countdown, success_if_counting_from
    from tminus.agents.solvers.count_down import uniform_ball as ball

    solution = solve_countdown()
    return sum(
        1
        for i, waiting in solution.value_of_waiting.items()
        for face in ball()
        if abs(success_if_counting_from(face, ball()) - waiting) >= Fraction(margin)
    )


most: int | None = _distinct()
