"""Reviews of the hidden-card games sampled until precise (issue: reviews a player can
trust). Every value shown is known to ± 3 points (95%), reviews with other seeds agree on
the labels, a budget stops the sampling and the width reached is what is shown, and the
review tells how far it is."""

from __future__ import annotations

import time

import numpy as np
import pytest

from tests.review.helpers import recorded
from tminus.review import review_game
from tminus.review.judges import Estimate
from tminus.review.playouts import FIRST_ROUND, PRECISION, Z95, Playouts, Sampling

DECISIONS = 24  # the first decisions of a 3-player game: a review test, not a benchmark


@pytest.fixture(scope="module")
def opening():
    """A 3-player 3-2-1 game by greedy players, cut after its first ``DECISIONS``."""
    game, history = recorded("three_two_one", ["greedy"] * 3, seed=5, players=3)
    state, decisions = game.new_initial_state(), 0
    for end, action in enumerate(history):
        if not state.is_chance_node() and len(state.legal_actions()) > 1:
            decisions += 1
            if decisions > DECISIONS:
                return game, history[:end]
        state.apply_action(action)
    raise AssertionError("the game is shorter than the test needs")


def width(estimate: Estimate) -> float:
    return Z95 * estimate.error


def test_every_value_shown_is_within_three_points_and_seeds_agree_on_the_labels(opening):
    game, history = opening
    told = []
    first = review_game(game, history, seed=0, progress=lambda d, n: told.append((d, n)))
    second = review_game(game, history, seed=1)
    assert len(first.moves) == len(second.moves) == DECISIONS
    for move in first.moves + second.moves:
        assert not move.exact and move.after.count >= FIRST_ROUND
        for value in (move.before, move.after, move.loss):
            assert width(value) <= PRECISION + 1e-9, move
    labels = [(a.grade, b.grade) for a, b in zip(first.moves, second.moves, strict=True)]
    assert sum(a == b for a, b in labels) >= 0.95 * DECISIONS, labels
    # Progress: from none judged to all, never back.
    assert told[0] == (0, DECISIONS) and told[-1] == (DECISIONS, DECISIONS)
    assert [d for d, _ in told] == sorted(d for d, _ in told)


def test_a_budget_stops_the_sampling_and_the_width_reached_is_shown(opening):
    game, history = opening
    started = time.monotonic()
    review = review_game(game, history, seed=0, budget=0.01)
    took = time.monotonic() - started
    # Each decision had its first round of worlds, and no more: wider than ± 3 points.
    assert all(move.after.count == FIRST_ROUND for move in review.moves)
    assert any(width(move.after) > PRECISION for move in review.moves)
    assert took < 120  # (a bound on a runaway, not a speed target)


def test_the_race_drops_only_moves_shown_worse_and_never_the_move_played(opening):
    game, _ = opening
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    best, close, worse, played = state.legal_actions()[:4]
    decision = Sampling(state, [best, close, worse, played], (played,))
    rng = np.random.default_rng(0)
    luck = rng.random(400)  # the world's luck, shared by every move (common random numbers)
    decision.values = {
        best: list((luck < 0.6) * 1.0),
        close: list((luck < 0.59) * 1.0),  # one world in a hundred worse: not shown worse
        worse: list((luck < 0.3) * 1.0),  # shown worse by far more than three errors
        played: list((luck < 0.2) * 1.0),  # worse still, but its value is shown: kept
    }
    decision.worlds = 400
    Playouts(game).race(decision, indifferent=False)
    assert decision.live == [best, close, played]
    # A review is indifferent to a move that cannot beat the best by more than 3 points.
    Playouts(game).race(decision, indifferent=True)
    assert decision.live == [best, played]


def test_a_grade_near_its_threshold_is_sampled_on_until_it_is_settled(opening):
    """Two reviews disagree on a grade when the loss grading trusts (less two errors) lies
    near a threshold; such a decision is not done until it is far from every threshold."""
    game, _ = opening
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    best, played = state.legal_actions()[:2]

    def decision_losing(loss: float, worlds: int) -> Sampling:
        # The best wins in every other world; the move played loses ``loss`` of them.
        decision = Sampling(state, [best, played], (played,))
        wins = np.arange(worlds) % 2 == 0
        lost = np.zeros(worlds, dtype=bool)
        lost[np.flatnonzero(wins)[: round(loss * worlds)]] = True
        decision.values = {best: list(wins * 1.0), played: list((wins & ~lost) * 1.0)}
        decision.worlds = worlds
        return decision

    playouts = Playouts(game)
    # 1,200 worlds: the loss's error is about 0.008; 0.08 less two errors is 0.064, within
    # two errors of the inaccuracy's 0.05: not settled, though precise.
    near = decision_losing(0.08, 1200)
    assert playouts.precise(near) and not playouts.settled(near)
    assert not playouts.enough(near, settle=True) and playouts.enough(near, settle=False)
    assert playouts.next_round(near) == 1200  # as many worlds again
    # Far from every threshold (0.10 less two errors is 0.083): settled.
    assert playouts.settled(decision_losing(0.10, 1200))
    assert playouts.settled(decision_losing(0.0, 1200))
    # Settling has its own limit of worlds, never passes the decision's, and ends where one
    # more first-sized round would not fit (rounds are never smaller than the first).
    assert playouts.enough(decision_losing(0.08, 4096), settle=True)
    assert playouts.enough(decision_losing(0.08, 4090), settle=True)
    assert Playouts(game, max_samples=1500).next_round(near) == 300
