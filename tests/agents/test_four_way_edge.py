"""An agent's edge over greedy at 4-Way for two, on exact values: zero for greedy itself,
and for the perfect player the exact best reply to greedy that the duel equations give."""

import pytest

from tminus.agents.solvers import four_way_duel as duel
from tminus.agents.solvers.four_way_edge import edge_over_greedy
from tminus.games.four_way.game import FourWayGame


def test_greedy_has_no_edge_over_itself():
    edge = edge_over_greedy("greedy", games=40, seed=3)
    assert edge.mean == 0.0 and edge.differing_moves == 0


@pytest.mark.parametrize("variant", ["adult", "junior"])
def test_the_perfect_players_edge_is_the_exact_best_reply(variant):
    game = FourWayGame(players=2, variant=variant)
    greedy = duel.greedy_policy(game)
    exact = duel.either_starts(game.junior, duel.PERFECT, greedy, duel.TABLE_TOLERANCE) - 0.5
    edge = edge_over_greedy("solver", games=1000, seed=4, variant=variant)
    assert edge.differing_moves > 100
    # Counting wins over 1,000 games has a standard error of 0.016; this is 20 times tighter.
    assert edge.standard_error < 0.0008
    assert edge.mean == pytest.approx(exact, abs=3 * edge.standard_error)
