"""The long solvers tell how far they got, through a callback (they never print): the
command line shows it as a bar with the time left."""

import pytest

from tminus.agents.solvers import four_way_duel as duel
from tminus.agents.solvers import solver_report
from tminus.agents.solvers.sputnik import NODES_TO_SOLVE, OutOfBudget, Solver, solve_first_player
from tminus.agents.solvers.sputnik_kernel import kernel
from tminus.games.four_way.game import FourWayGame


def test_the_sputnik_search_tells_the_positions_searched_of_the_whole_solve():
    told = []
    solution = solve_first_player(2, max_nodes=200_000, progress=lambda *step: told.append(step))
    assert solution.first_player_wins is None  # (stopped early: the budget, not the test)
    assert told == [(n * 0x10000, NODES_TO_SOLVE[2]) for n in (1, 2, 3)]


def test_a_board_never_solved_here_has_no_total_to_tell():
    told = []
    solver = Solver(3, max_nodes=70_000, progress=lambda *step: told.append(step))
    with pytest.raises(OutOfBudget):
        solver.wins(kernel(3).start())
    assert told == [(0x10000, None)]


def test_the_duel_tells_the_digits_settled_sweep_by_sweep_up_to_those_wanted():
    greedy = duel.greedy_policy(FourWayGame(players=2))
    told = []
    duel.duel_values(False, greedy, greedy, 1e-6, lambda *step: told.append(step))
    assert len(told) > 3 and {total for _, total in told} == {6.0}
    assert told[-1] == (6.0, 6.0) and all(0 <= done <= 6 for done, _ in told)


def test_a_quick_solver_that_tells_nothing_is_run_all_the_same():
    told = []
    report = solver_report("count_down", lambda *step: told.append(step))
    assert "COUNTDOWN" in report and told == []
