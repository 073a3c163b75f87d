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
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

TARGET = 25
FACES = range(1, 13)
LAST_ROLL = 4


def uniform_ball() -> dict[int, Fraction]:
    return {face: Fraction(1, 12) for face in FACES}


def success_if_counting_from(roll: int, ball: dict[int, Fraction]) -> Fraction:
    """P(roll + next + next >= 25)."""
    return sum(
        (p * q for x, p in ball.items() for y, q in ball.items() if roll + x + y >= TARGET),
        Fraction(0),
    )


@dataclass(frozen=True)
class CountdownSolution:
    success: Fraction  # probability that one attempt succeeds, playing the rule below
    thresholds: dict[int, int | None]  # roll number -> lowest roll to start on (None: never)
    value_of_waiting: dict[int, Fraction]  # roll number -> success chance if one waits

    def should_start(self, roll_number: int, roll: int) -> bool:
        threshold = self.thresholds[roll_number]
        return threshold is not None and roll >= threshold


def solve_countdown(ball: dict[int, Fraction] | None = None) -> CountdownSolution:
    ball = ball or uniform_ball()
    if sum(ball.values()) != 1:
        raise ValueError("the ball's probabilities must add up to 1")
    success = {r: success_if_counting_from(r, ball) for r in ball}
    value = {LAST_ROLL: sum((p * success[r] for r, p in ball.items()), Fraction(0))}
    thresholds: dict[int, int | None] = {LAST_ROLL: min(ball)}
    for roll_number in range(LAST_ROLL - 1, 0, -1):
        waiting = value[roll_number + 1]
        starts = [r for r in sorted(ball) if success[r] >= waiting and success[r] > 0]
        thresholds[roll_number] = starts[0] if starts else None
        value[roll_number] = sum(
            (p * max(success[r], waiting) for r, p in ball.items()), Fraction(0)
        )
    waiting_values = {i: value[i + 1] for i in range(1, LAST_ROLL)}
    return CountdownSolution(value[1], thresholds, waiting_values)


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
