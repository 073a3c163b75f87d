"""Whose moves are better: two agents judged on the same positions."""

import numpy as np
import pytest

from tests.review.helpers import duel_chance_after, recorded
from tminus.agents.solvers.four_way_duel import solve
from tminus.review.judges import Estimate
from tminus.review.quality import (
    Comparison,
    choices,
    compare_moves,
    judge_position,
    sample_positions,
)


def four_way_positions(every=1.0):
    game, first = recorded("four_way", ["greedy", "random"], seed=1)
    _, second = recorded("four_way", ["random", "greedy"], seed=2)
    return game, sample_positions(game, [first, second], every, seed=3)


def test_positions_are_the_decisions_with_a_choice_each_taken_with_the_given_chance():
    game, history = recorded("four_way", ["greedy", "random"], seed=1)
    state = game.new_initial_state()
    choices = []
    for step, action in enumerate(history):
        if not state.is_chance_node() and len(state.legal_actions()) > 1:
            choices.append(tuple(history[:step]))
        state.apply_action(action)
    everything = sample_positions(game, [history], 1.0)
    assert [p.history for p in everything] == choices
    some = sample_positions(game, [history], 0.5, seed=4)
    assert 0 < len(some) < len(choices) and {p.history for p in some} <= set(choices)
    with pytest.raises(ValueError, match="a chance"):
        sample_positions(game, [history], 0.0)


def test_the_solver_gains_the_exact_difference_wherever_it_chooses_unlike_random():
    game, positions = four_way_positions()
    duel = solve(False)
    comparison = compare_moves(game, ["solver", "random"], positions)
    assert comparison.judges == ["the solved duel (exact)"]
    assert comparison.positions == len(positions) and comparison.differing
    for position, gain in zip(positions, comparison.gains, strict=True):
        state = game.new_initial_state()
        for action in position.history:
            state.apply_action(action)
        chosen = choices(game, ["solver", "random"], state, position.key)
        if chosen[0] == chosen[1]:
            assert gain is None
            continue
        first, second = (duel_chance_after(state, a, duel) for a in chosen)
        exact = first - second
        assert gain.error == 0 and round(gain.mean, 6) == round(exact, 6) and gain.mean >= 0
    first, second = comparison.decided()
    assert second == 0 and first > 0
    mean = np.mean([0.0 if g is None else g.mean for g in comparison.gains])
    assert mean > 0 and comparison.gain().mean == pytest.approx(mean)


def test_an_agent_against_itself_chooses_alike_everywhere_and_gains_nothing():
    game, positions = four_way_positions(every=0.5)
    comparison = compare_moves(game, ["solver", "solver"], positions)
    assert comparison.differing == [] and comparison.gain().mean == 0.0


def test_without_a_solver_the_judge_is_playouts_with_a_standard_error():
    game, history = recorded("three_two_one", ["greedy", "random"], seed=5, players=2)
    positions = sample_positions(game, [history], 1.0, seed=6)
    verdicts = [
        judge_position(game.name, dict(game.params), ["greedy", "random"], p, 8) for p in positions
    ]
    judged = [(gain, name) for gain, name in verdicts if gain is not None]
    assert judged and all(name.startswith("8 playouts") for _, name in judged)
    assert any(gain.error > 0 for gain, _ in judged)


def test_it_compares_two_agents_only():
    game, positions = four_way_positions(every=0.5)
    with pytest.raises(ValueError, match="two agents"):
        compare_moves(game, ["solver"], positions)


def test_the_gains_error_counts_a_group_of_positions_as_one_draw():
    gains = [Estimate(1.0, 0.0), Estimate(1.0, 0.0), None, None]
    alone = Comparison(("a", "b"), gains, [], [0, 1, 2, 3]).gain()
    assert alone.mean == 0.5 and alone.error == pytest.approx(Estimate.of([1, 1, 0, 0]).error)
    # The same gains as two deals of two repeated positions: half as many draws.
    paired = Comparison(("a", "b"), gains, [], ["x", "x", "y", "y"]).gain()
    assert paired.mean == 0.5 and paired.error == pytest.approx(0.5)
    with pytest.raises(ValueError, match="two groups"):
        Comparison(("a", "b"), gains, [], ["x"] * 4).gain()


def test_positions_carry_their_games_group():
    game, history = recorded("four_way", ["greedy", "random"], seed=1)
    positions = sample_positions(game, [history, history], 1.0, groups=["deal", "deal"])
    assert {p.group for p in positions} == {"deal"}
    with pytest.raises(ValueError, match="one group"):
        sample_positions(game, [history], 1.0, groups=[])
