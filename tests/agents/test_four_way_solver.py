"""The 4-Way CountDown solo solver: Bellman equations, theory against simulation, the agent."""

import numpy as np
import pytest

from tests.four_way.helpers import legal_strings, play, started
from tminus.agents import make_agent
from tminus.agents.solvers.four_way import (
    DICE,
    ROLL_PROBABILITIES,
    expected_turns_table,
    next_mask,
    simulate_solo,
    solo_moves,
    solve,
)
from tminus.games.four_way.rules import ALL_KEYS_UP


@pytest.mark.parametrize("junior", [False, True])
def test_the_solution_satisfies_the_bellman_equations(junior):
    e = solve(junior).expected
    assert e[ALL_KEYS_UP] == 0
    for mask in range(0, 1024, 7):
        if mask == ALL_KEYS_UP:
            continue
        best = [min(e[next_mask(mask, a)] for a in solo_moves(junior, r, mask)) for r in range(21)]
        assert e[mask] == pytest.approx(1 + float(ROLL_PROBABILITIES @ np.array(best)), abs=1e-9)


@pytest.mark.parametrize("junior", [False, True])
def test_theory_agrees_with_100000_simulated_solo_games(junior):
    turns = simulate_solo(junior, 100_000, seed=2026)
    half_width = 2.5758 * turns.std(ddof=1) / np.sqrt(len(turns))  # 99% interval
    assert abs(turns.mean() - solve(junior).from_start) < half_width


def test_solver_is_no_worse_than_greedy_which_beats_random():
    table = expected_turns_table()
    for variant in ("adult", "junior"):
        row = table[variant]
        assert row["solver"] <= row["greedy"] + 1e-9 < row["random"]


def test_double_six_sends_the_solver_back_to_the_start():
    policy = solve(False).policy
    assert (policy[DICE.index((6, 6))] == 0).all()


def test_solver_agent_plays_the_arg_min_flip():
    state = play(started(), "dice 2,4")  # keys 2, 6 or 8
    agent = make_agent("solver", state.game)
    e = solve(False).expected
    choice = agent.step(state)
    assert e[next_mask(0, choice)] == min(e[1 << 1], e[1 << 5], e[1 << 7])


def test_solver_agent_attacks_a_leader_close_to_finishing():
    state = started()
    for roll, flip in [("dice 1,1", "flip 1"), ("dice 1,2", "flip 3"), ("dice 2,4", "flip 8"),
                       ("dice 3,3", "flip 9"), ("dice 1,4", "flip 5")]:  # fmt: skip
        play(state, "dice 6,6", "reset", roll, flip)  # seat 0 stays at nothing
    play(state, "dice 5,6")
    assert state.observation(0)["keys"] == [[], [1, 3, 5, 8, 9]]
    assert legal_strings(state) == ["flip 1", "attack seat 1"]
    agent = make_agent("solver", state.game)
    assert state.action_to_string(agent.step(state)) == "attack seat 1"


def test_solver_agent_flips_rather_than_attack_a_player_with_nothing_up():
    state = play(started(), "dice 5,6")
    agent = make_agent("solver", state.game)
    assert state.action_to_string(agent.step(state)) == "flip 1"
