"""The COUNTDOWN solver: exact optimal stopping, checked against every rule and simulation."""

from fractions import Fraction
from itertools import product

import numpy as np
import pytest

from tminus.agents.solvers.count_down import (
    solve_countdown,
    success_if_counting_from,
    uniform_ball,
)

BALL = uniform_ball()
SUCCESS = {face: success_if_counting_from(face, BALL) for face in BALL}


def value_of_thresholds(t1: int, t2: int, t3: int) -> Fraction:
    """Exact success chance of 'start on roll i when the ball shows at least t_i'."""
    total = Fraction(0)
    waiting = Fraction(1)
    for threshold in (t1, t2, t3):
        for face, p in BALL.items():
            if face >= threshold:
                total += waiting * p * SUCCESS[face]
        waiting *= sum((p for face, p in BALL.items() if face < threshold), Fraction(0))
    return total + waiting * sum((p * SUCCESS[face] for face, p in BALL.items()), Fraction(0))


def test_success_from_a_roll_counts_the_next_two():
    pairs = list(product(range(1, 13), repeat=2))
    assert SUCCESS[12] == Fraction(sum(x + y >= 13 for x, y in pairs), 144)
    assert SUCCESS[1] == Fraction(1, 144)  # 1 + 12 + 12 = 25: only a double twelve


def test_no_threshold_rule_beats_the_solution():
    solution = solve_countdown()
    best = max(value_of_thresholds(*t) for t in product(range(1, 14), repeat=3))
    assert solution.success == best
    assert value_of_thresholds(10, 9, 8) == solution.success


def test_the_exact_answer():
    solution = solve_countdown()
    assert solution.success == Fraction(3769, 10368)
    assert [solution.thresholds[i] for i in (1, 2, 3, 4)] == [10, 9, 8, 1]


def test_simulated_attempts_agree_within_the_99_percent_interval():
    solution = solve_countdown()
    rng = np.random.default_rng(25)
    rolls = rng.integers(1, 13, size=(200_000, 6))
    thresholds = np.array([solution.thresholds[i] for i in (1, 2, 3, 4)])
    start = np.argmax(rolls[:, :4] >= thresholds, axis=1)  # the fourth always qualifies
    rows = np.arange(len(rolls))
    totals = rolls[rows, start] + rolls[rows, start + 1] + rolls[rows, start + 2]
    wins = int((totals >= 25).sum())
    p = float(solution.success)
    half_width = 2.5758 * np.sqrt(p * (1 - p) / len(rolls))
    assert abs(wins / len(rolls) - p) < half_width


def test_a_ball_that_does_not_add_up_is_refused():
    with pytest.raises(ValueError, match="add up to 1"):
        solve_countdown({face: Fraction(1, 13) for face in range(1, 13)})
