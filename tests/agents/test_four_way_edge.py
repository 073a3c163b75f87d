"""An agent's edge over greedy at 4-Way for two, on exact values: zero for greedy itself,
and for the perfect player the exact best reply to greedy that the duel equations give."""

import pytest

from tests.agents.test_mcts import nine_keys_and_eleven
from tminus.agents.solvers import four_way_duel as duel
from tminus.agents.solvers.four_way_edge import (
    both_greedy_values,
    edge_over,
    edge_over_greedy,
    greedy_continuation_value,
)


def test_a_move_is_worth_the_chance_to_win_after_it_with_both_greedy():
    state = nine_keys_and_eleven()  # seat 0: every key but 1 up, rolls eleven; seat 1: none
    flip, attack = state.legal_actions()
    values = both_greedy_values("adult")
    assert greedy_continuation_value(state, flip, values) == 1.0  # all ten keys: a win
    # The attack takes nothing from a seat with no keys up: seat 1 rolls next, 0 against 1022.
    mine = state.keys_mask(0)
    assert greedy_continuation_value(state, attack, values) == 1.0 - values[0, mine]
    assert 0.5 < greedy_continuation_value(state, attack, values) < 1.0


def test_greedy_has_no_edge_over_itself():
    edge = edge_over_greedy("greedy", games=40, seed=3)
    assert edge.mean == 0.0 and edge.differing_moves == 0


@pytest.mark.parametrize("variant", ["adult", "junior"])
def test_the_perfect_players_edge_is_the_exact_best_reply(variant):
    # The best reply's exact chance against greedy (duel.either_starts, kept on disk by the
    # duel table once worked out: ``tminus solve four_way``).
    exact = duel.duel_row(variant)["best_vs_greedy"] - 0.5
    edge = edge_over_greedy("solver", games=1000, seed=4, variant=variant)
    assert edge.differing_moves > 100
    # Counting wins over 1,000 games has a standard error of 0.016; this is 20 times tighter.
    assert edge.standard_error < 0.0008
    assert edge.mean == pytest.approx(exact, abs=3 * edge.standard_error)


def test_against_the_solver_the_sum_is_greedys_exact_loss():
    exact = 0.5 - duel.duel_row("adult")["best_vs_greedy"]  # greedy's side of the same duel
    edge = edge_over("greedy", "solver", games=400, seed=5)
    assert edge.baseline == "solver" and edge.differing_moves > 50
    assert edge.mean < 0 and edge.mean == pytest.approx(exact, abs=3 * edge.standard_error)
    assert edge_over("solver", "solver", games=5, seed=5).mean == 0.0


def test_an_unknown_baseline_is_refused():
    with pytest.raises(ValueError, match="unknown baseline 'mcts'; baselines: greedy, solver"):
        edge_over("greedy", "mcts", games=1)
