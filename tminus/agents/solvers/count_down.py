"""Count Down's COUNTDOWN, solved: when to start counting, and the chance of success.

"This consists in reaching a total of at least 25 points in three consecutive rolls of
the ball. However, they may choose to start counting only from the moment the ball
stops on a high number, but at the latest on the fourth roll."

After each of the first three rolls the player starts counting (that roll plus the next
two) or waits; the fourth roll starts the count in any case. With exact fractions:
    success(r)  = P(r + X + Y >= 25)                 X, Y: the next two rolls
    value(4)    = E[success(R)]                       the fourth roll must count
    value(i)    = E[max(success(R), value(i + 1))]    i = 1, 2, 3
so the optimal rule is to start on roll i when success(r) >= value(i + 1): a threshold.

A board file may change the target, the rolls counted and the latest start, and the game
parameter ``ball_weights`` the ball (by default the board file's weights: uniform on the
default board); ``solve_game_countdown`` solves the countdown of any game the same way (the
Count Down greedy agent plays its solution), ``solve_board_countdown`` that of a board
with the board file's ball.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tminus.games.count_down.data import BoardData
    from tminus.games.count_down.game import CountDownGame

TARGET = 25
FACES = range(1, 13)
ROLLS = 3
LAST_ROLL = 4


def uniform_ball() -> dict[int, Fraction]:
    return {face: Fraction(1, 12) for face in FACES}


def ball_of_board(board: BoardData) -> dict[int, Fraction]:
    """The board file's ball as exact probabilities of the faces it can show."""
    return ball_of_weights(board.spec.ball.weights)


def ball_of_game(game: CountDownGame) -> dict[int, Fraction]:
    """The ball the game rolls (its ``ball_weights``) as exact probabilities."""
    return ball_of_weights(game.ball_weights)


def ball_of_weights(weights: Sequence[int | float]) -> dict[int, Fraction]:
    """Relative weights of the faces 1-12 (numbers >= 0: a float is an exact fraction too)
    as exact probabilities of the faces with a weight."""
    exact = [Fraction(w) for w in weights]
    total = sum(exact, Fraction(0))
    return {face: w / total for face, w in enumerate(exact, 1) if w > 0}


def success_if_counting_from(
    roll: int, ball: dict[int, Fraction], target: int = TARGET, rolls: int = ROLLS
) -> Fraction:
    """P(roll + the next ``rolls - 1`` rolls >= target), by default P(roll + next + next >= 25)."""
    totals = {roll: Fraction(1)}  # distribution of the count so far
    for _ in range(rolls - 1):
        after: dict[int, Fraction] = {}
        for total, p in totals.items():
            for face, q in ball.items():
                after[total + face] = after.get(total + face, Fraction(0)) + p * q
        totals = after
    return sum((p for total, p in totals.items() if total >= target), Fraction(0))


@dataclass(frozen=True)
class CountdownSolution:
    success: Fraction  # probability that one attempt succeeds, playing the rule below
    thresholds: dict[int, int | None]  # roll number -> lowest roll to start on (None: never)
    value_of_waiting: dict[int, Fraction]  # roll number -> success chance if one waits

    def should_start(self, roll_number: int, roll: int) -> bool:
        threshold = self.thresholds[roll_number]
        return threshold is not None and roll >= threshold


def solve_countdown(
    ball: dict[int, Fraction] | None = None,
    target: int = TARGET,
    rolls: int = ROLLS,
    last_roll: int = LAST_ROLL,
) -> CountdownSolution:
    """The optimal rule: ``target`` or more in ``rolls`` consecutive rolls, counting from
    a roll of the player's choice, at the latest roll number ``last_roll``."""
    ball = ball or uniform_ball()
    if sum(ball.values()) != 1:
        raise ValueError("the ball's probabilities must add up to 1")
    success = {r: success_if_counting_from(r, ball, target, rolls) for r in ball}
    value = {last_roll: sum((p * success[r] for r, p in ball.items()), Fraction(0))}
    thresholds: dict[int, int | None] = {last_roll: min(ball)}
    for roll_number in range(last_roll - 1, 0, -1):
        waiting = value[roll_number + 1]
        starts = [r for r in sorted(ball) if success[r] >= waiting and success[r] > 0]
        thresholds[roll_number] = starts[0] if starts else None
        value[roll_number] = sum(
            (p * max(success[r], waiting) for r, p in ball.items()), Fraction(0)
        )
    waiting_values = {i: value[i + 1] for i in range(1, last_roll)}
    return CountdownSolution(value[1], thresholds, waiting_values)


def solve_board_countdown(board: BoardData) -> CountdownSolution:
    """The optimal rule for the countdown of a board: its ball, target, rolls, latest start."""
    return solve_countdown_of(ball_of_board(board), board)


def solve_game_countdown(game: CountDownGame) -> CountdownSolution:
    """The optimal rule for the countdown of a game: the ball it rolls (``ball_weights``),
    its board's target, rolls and latest start."""
    return solve_countdown_of(ball_of_game(game), game.board)


def solve_countdown_of(ball: dict[int, Fraction], board: BoardData) -> CountdownSolution:
    faces = tuple(sorted(ball.items()))
    return _solve_cached(faces, board.countdown_target, board.countdown_rolls, board.latest_start)


@lru_cache(maxsize=32)
def _solve_cached(
    ball: tuple[tuple[int, Fraction], ...], target: int, rolls: int, last_roll: int
) -> CountdownSolution:
    return solve_countdown(dict(ball), target, rolls, last_roll)


def report(ball: dict[int, Fraction] | None = None) -> str:
    solution = solve_countdown(ball)
    p = solution.success
    lines = [
        "# Count Down: the COUNTDOWN",
        "",
        "At least 25 in three consecutive rolls of the ball (1-12, uniform), counting from",
        "a roll of the player's choice, at the latest the fourth.",
        "",
        "| roll | start counting on | chance if waiting instead |",
        "|---|---|---|",
    ]
    for roll_number in range(1, LAST_ROLL + 1):
        threshold = solution.thresholds[roll_number]
        start = "always" if threshold == 1 else f"{threshold} or more" if threshold else "never"
        waiting = solution.value_of_waiting.get(roll_number)
        shown = f"{float(waiting):.4f}" if waiting is not None else "—"
        lines.append(f"| {roll_number} | {start} | {shown} |")
    lines += ["", f"Chance that one attempt succeeds: **{p}** = {float(p):.4f}"]
    return "\n".join(lines)
