"""The COUNTDOWN solver: exact optimal stopping, checked against every rule and simulation."""

from fractions import Fraction
from importlib.resources import files
from itertools import product
from math import prod

import numpy as np
import pytest

import tminus
from tminus.agents.solvers.count_down import (
    ball_of_board,
    ball_of_game,
    solve_board_countdown,
    solve_countdown,
    solve_game_countdown,
    success_if_counting_from,
    uniform_ball,
)

BALL = uniform_ball()
SUCCESS = {face: success_if_counting_from(face, BALL) for face in BALL}


def value_of_thresholds(
    t1: int,
    t2: int,
    t3: int,
    ball: dict[int, Fraction] = BALL,
    success: dict[int, Fraction] = SUCCESS,
) -> Fraction:
    """Exact success chance of 'start on roll i when the ball shows at least t_i'."""
    total = Fraction(0)
    waiting = Fraction(1)
    for threshold in (t1, t2, t3):
        for face, p in ball.items():
            if face >= threshold:
                total += waiting * p * success[face]
        waiting *= sum((p for face, p in ball.items() if face < threshold), Fraction(0))
    return total + waiting * sum((p * success[face] for face, p in ball.items()), Fraction(0))


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


def test_success_counts_any_number_of_rolls_on_any_ball():
    ball = {10: Fraction(1, 4), 11: Fraction(1, 4), 12: Fraction(1, 2)}
    for rolls, target in ((1, 11), (2, 22), (4, 45)):
        brute = sum(
            (
                prod((ball[f] for f in more), start=Fraction(1))
                for more in product(ball, repeat=rolls - 1)
                if 11 + sum(more) >= target
            ),
            Fraction(0),
        )
        assert success_if_counting_from(11, ball, target, rolls) == brute


def test_no_threshold_rule_beats_the_solution_on_a_heavy_ball_and_a_higher_target():
    ball = {face: Fraction(face, 78) for face in range(1, 13)}  # 12 twelve times as likely
    success = {face: success_if_counting_from(face, ball, 30) for face in ball}
    solution = solve_countdown(ball, target=30)
    best = max(value_of_thresholds(*t, ball, success) for t in product(range(1, 14), repeat=3))
    assert solution.success == best
    rule = (solution.thresholds[i] for i in (1, 2, 3))
    assert value_of_thresholds(*rule, ball, success) == best


def test_a_later_last_start_waits_for_more_and_succeeds_more_often():
    later = solve_countdown(last_roll=6)
    assert [later.thresholds[i] for i in range(1, 7)] == [11, 10, 10, 9, 8, 1]
    assert later.success > solve_countdown().success


def test_the_board_file_sets_the_ball_the_target_the_rolls_and_the_last_start(tmp_path):
    assert solve_board_countdown(tminus.load_game("count_down").board) == solve_countdown()
    default = files("tminus.games.count_down").joinpath("board.toml").read_text()
    uniform, heavy = "[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]", "[0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 2]"
    changes = {
        f"weights = {uniform}": f"weights = {heavy}",
        "countdown_target = 25 ": "countdown_target = 45 ",
        "countdown_rolls = 3 ": "countdown_rolls = 4 ",
        "latest_start = 4 ": "latest_start = 2 ",
    }
    for old, new in changes.items():
        assert old in default
        default = default.replace(old, new)
    own = tmp_path / "own.toml"
    own.write_text(default)
    board = tminus.load_game("count_down", board=str(own)).board
    ball = {10: Fraction(1, 4), 11: Fraction(1, 4), 12: Fraction(1, 2)}
    assert ball_of_board(board) == ball
    assert solve_board_countdown(board) == solve_countdown(ball, 45, 4, 2)


def test_the_games_ball_weights_set_the_ball_of_its_countdown(tmp_path):
    """Rules v3: the weights are a game parameter (``ball_weights``); the solver, and the
    greedy player that follows it, use the ball of the game, not the board file's."""
    from tminus.agents.greedy.count_down import CountDownGreedy

    heavy = [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 2]
    ball = {10: Fraction(1, 4), 11: Fraction(1, 4), 12: Fraction(1, 2)}
    game = tminus.load_game("count_down", ball_weights=heavy)
    assert ball_of_game(game) == ball
    assert solve_game_countdown(game) == solve_countdown(ball)
    assert CountDownGreedy(game).countdown == solve_countdown(ball)
    assert ball_of_game(tminus.load_game("count_down")) == uniform_ball()
    # Weights that are not whole numbers give exact fractions all the same.
    halves = tminus.load_game("count_down", ball_weights=[0.5] * 6 + [1.5] * 6)
    assert ball_of_game(halves) == {f: Fraction(1, 24) if f <= 6 else Fraction(1, 8) for f in BALL}
    # The parameter outweighs the board file's weights.
    default = files("tminus.games.count_down").joinpath("board.toml").read_text()
    own = tmp_path / "own.toml"
    own.write_text(default.replace("[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]", str(heavy)))
    chosen = tminus.load_game("count_down", board=str(own), ball_weights="uniform")
    assert solve_game_countdown(chosen) == solve_countdown()


def test_a_ball_that_does_not_add_up_is_refused():
    with pytest.raises(ValueError, match="add up to 1"):
        solve_countdown({face: Fraction(1, 13) for face in range(1, 13)})
