"""4-Way CountDown for two players solved: the equations against the engine's own moves,
theory against simulated duels, and the solver agent that plays the solution."""

import json

import numpy as np
import pytest

from tests.four_way.helpers import legal_strings, play, started, with_keys
from tminus.agents import make_agent
from tminus.agents.solvers import four_way_duel as duel
from tminus.agents.solvers.four_way import ROLL_PROBABILITIES
from tminus.games.four_way.game import DICE, FourWayGame
from tminus.games.four_way.rules import ALL_KEYS_UP

POSITIONS = [(0, 0), (1, 0), (0, 1), (1, 1), (0b1111111110, 0), (0b0111111111, 0b0111111111)]
POSITIONS += [(int(m), int(o)) for m, o in np.random.default_rng(7).integers(0, 1023, (40, 2))]


def engine_value(
    values: np.ndarray, junior: bool, mine: int, theirs: int, pick=max, theirs_values=None
) -> float:
    """The right side of the equations, built from the engine: for each roll, the best of
    the legal moves (or ``pick`` of them), each worth 1 when it wins at once, else
    1 - V(opponent to roll), V the opponent's values (``theirs_values``, else ``values``)."""
    theirs_values = values if theirs_values is None else theirs_values
    total = 0.0
    for roll, p in enumerate(ROLL_PROBABILITIES):
        state = with_keys(started(variant="junior" if junior else "adult"), mine, theirs)
        play(state, "dice {},{}".format(*DICE[roll]))
        worths = []
        for action in state.legal_actions():
            after = state.clone()
            after.apply_action(action)
            if after.is_terminal():
                worths.append(1.0 if 0 in after.winners() else 0.0)
            else:
                worths.append(1.0 - theirs_values[after.keys_mask(1), after.keys_mask(0)])
        total += p * pick(worths)
    return total


def mean(values):
    return sum(values) / len(values)


@pytest.mark.parametrize("junior", [False, True])
def test_the_solution_satisfies_the_equations_of_the_engines_moves(junior):
    values = duel.solve(junior)
    for mine, theirs in POSITIONS:
        assert values[mine, theirs] == pytest.approx(
            engine_value(values, junior, mine, theirs), abs=1e-9
        )


@pytest.mark.parametrize("junior", [False, True])
def test_a_random_player_takes_each_legal_move_of_the_engine_alike(junior):
    # The random side's equations average the engine's legal moves (the pass, eleven's
    # attack); the perfect side's take the best of them, against the random side's values.
    # (Solved to 1e-6 a sweep, the equations hold to 1e-5; a move that the engine offers and
    # the solver does not, or the reverse, changes a value by its roll's chance, 1/36 or
    # more, times what the move is worth: far more, unless the two moves are worth the same.)
    randoms, perfects = duel.duel_values(junior, duel.RANDOM, duel.PERFECT, tolerance=1e-6)
    for mine, theirs in POSITIONS:
        assert randoms[mine, theirs] == pytest.approx(
            engine_value(randoms, junior, mine, theirs, mean, perfects), abs=1e-5
        )
        assert perfects[mine, theirs] == pytest.approx(
            engine_value(perfects, junior, mine, theirs, max, randoms), abs=1e-5
        )
    assert perfects[0, 0] > 0.5 > randoms[0, 0]


def test_the_first_to_roll_has_the_edge_and_perfect_play_is_fair_over_the_roll_off():
    values = duel.solve(False)
    assert 0.5 < values[0, 0] < 0.52
    assert values[ALL_KEYS_UP - 1, 0] > values[0, ALL_KEYS_UP - 1]


def test_a_fixed_policy_scores_no_more_than_the_best_reply_to_its_opponent():
    greedy = duel.greedy_policy(FourWayGame(players=2))
    solver = duel.perfect_policy(False)
    best_first, _ = duel.duel_values(False, duel.PERFECT, greedy, tolerance=1e-8)
    solver_first, _ = duel.duel_values(False, solver, greedy, tolerance=1e-8)
    assert (solver_first <= best_first + 1e-7).all()
    assert best_first[0, 0] > duel.duel_values(False, greedy, greedy)[0][0, 0]


@pytest.mark.parametrize("junior", [False, True])
def test_theory_agrees_with_100000_simulated_duels(junior):
    greedy = duel.greedy_policy(FourWayGame(players=2, variant="junior" if junior else "adult"))
    solver = duel.perfect_policy(junior)
    first_wins = duel.simulate_duel(junior, solver, greedy, 100_000, seed=2026)
    exact = duel.duel_values(junior, solver, greedy, tolerance=1e-8)[0][0, 0]
    half_width = 2.5758 * np.sqrt(exact * (1 - exact) / len(first_wins))  # 99% interval
    assert abs(first_wins.mean() - exact) < half_width


def test_the_greedy_table_is_what_the_greedy_bot_plays():
    game = FourWayGame(players=2)
    table = duel.greedy_policy(game)
    bot = make_agent("greedy", game)
    attack = duel.options(False).attack
    for mine, theirs in POSITIONS:
        for roll in range(len(DICE)):
            state = with_keys(started(), mine, theirs)
            play(state, "dice {},{}".format(*DICE[roll]))
            legal = state.legal_actions()
            k = table.choice[roll, mine * 1024 + theirs]
            expected = legal[-1] if k == attack else legal[min(k, len(legal) - 1)]
            assert bot.step(state) == expected


def test_the_solver_agent_plays_the_best_chance_to_win():
    agent = make_agent("solver", FourWayGame(players=2))
    values = duel.solve(False)
    for mine, theirs in POSITIONS[:12]:
        state = with_keys(started(), mine, theirs)
        play(state, "dice 5,6")  # eleven: flip key 1 (if down) or attack
        choice = agent.step(state)
        best = max(agent.chance_to_win(state, a) for a in state.legal_actions())
        assert agent.chance_to_win(state, choice) == best
        assert agent.estimate == best  # what it says it thinks: the exact chance
        if theirs == 0 and mine & 1 == 0:
            assert state.action_to_string(choice) == "flip 1"  # nothing to take from them
    assert legal_strings(with_keys(play(started(), "dice 5,6"), 1, 0)) == ["attack seat 1"]
    assert agent.chance_to_win(play(with_keys(started(), 0, 0), "dice 6,6"), 30) == (
        pytest.approx(1 - values[0, 0])
    )


def test_the_solved_duel_is_kept_on_disk_and_read_back(tmp_path, monkeypatch):
    """Solved once, then read by every process (a bot's or a hint's first move would
    otherwise spend seconds solving); a damaged file is solved again."""
    expected = duel.solve(False)
    monkeypatch.setenv("TMINUS_CACHE", str(tmp_path))
    duel.solve.cache_clear()
    try:
        assert np.array_equal(duel.solve(False), expected)  # solved here, and written
        path = duel.solved_path(False)
        assert path.exists() and not list(tmp_path.glob("*.part"))
        duel.solve.cache_clear()
        monkeypatch.setattr(duel, "duel_values", lambda *a: pytest.fail("solved again"))
        assert np.array_equal(duel.solve(False), expected)  # read from the file
        path.write_bytes(b"not an array")
        duel.solve.cache_clear()
        monkeypatch.undo()
        monkeypatch.setenv("TMINUS_CACHE", str(tmp_path))
        assert np.array_equal(duel.solve(False), expected)  # solved again, rewritten
        assert np.array_equal(np.load(path), expected)
    finally:
        duel.solve.cache_clear()


def test_the_duel_table_is_kept_on_disk_per_rules_and_per_greedy(monkeypatch, tmp_path):
    """`tminus solve four_way` works its table out once (about a minute) and then reads it;
    a change to greedy's moves names another file, so no stale figure is ever read."""
    monkeypatch.setenv("TMINUS_CACHE", str(tmp_path))
    greedy = duel.greedy_policy(FourWayGame(players=2))
    path = duel.duel_row_path("adult", greedy)
    assert path.parent == tmp_path and "rules1" in path.name
    kept = {"first_perfect": 0.25, "first_greedy": 0.5, "best_vs_greedy": 0.75}
    path.write_text(json.dumps(kept))
    assert duel.duel_row("adult") == kept  # read back, not worked out again
    other = duel.Policy("other", greedy.fixed_choice().copy())
    other.choice[0, 0] += 1
    assert duel.duel_row_path("adult", other) != path
