"""Count Down's batch engine (``tminus.batch.count_down``, its rules compiled by Numba in
``count_down_rules``). Its games against the reference's, move by move, are in
``test_differential.py``; here: what random play seldom reaches (the COUNTDOWN, from a
position greedy players bring about), seeds, loads, row copies, shared luck, a full log,
the meeting's moves drawn without listing them, and what the engine refuses."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys

import numpy as np
import pytest

import tminus
from tminus.batch import count_down_rules as rules
from tminus.batch.count_down import CountDownBatch, cached
from tminus.core.game import TERMINAL
from tminus.core.playout import sample_chance
from tminus.games.count_down import phases
from tminus.games.count_down.actions import COUNT_DOWN, ROLL
from tminus.sim.runner import make_agents


def play_out(env, seed=0):
    rng = np.random.default_rng(seed)
    while not env.terminal().all():
        env.step(env.sample_legal(rng.random(env.batch_size)))


def a_position(agent="random", until=None, actions=60, seed=5, **params):
    """A reference position at a seat's decision: ``actions`` into a game of ``agent``
    players, or the first decision where ``until(state)`` holds."""
    game = tminus.load_game("count_down", **params)
    state = game.new_initial_state()
    players = make_agents([agent] * game.num_players, game, [seed])
    rng = np.random.default_rng(seed)
    while True:
        if state.is_terminal():
            raise AssertionError("the game ended before the position sought")
        if state.is_chance_node():
            state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
            continue
        if until(state) if until else len(state.history()) >= actions:
            return state
        state.apply_action(players[state.current_player()].step(state))


def follow_in_the_reference(env, row, state, seed=0):
    """Play row ``row`` of ``env`` (loaded with ``state``) to its end at random, replaying
    every entry of its history in ``state``: at each decision the seat, the legal moves and
    every seat's observation must be the reference's; at the end, the returns."""
    rng = np.random.default_rng(seed)
    replayed = 0
    while True:
        for action in env.history(row)[replayed:]:
            state.apply_action(action)
        replayed = len(env.history(row))
        assert env.current_player()[row] == state.current_player()
        if state.is_terminal():
            assert env.returns()[row].tolist() == state.returns()
            return
        assert np.flatnonzero(env.legal_mask()[row]).tolist() == state.legal_actions()
        for seat in range(env.num_players):
            assert np.array_equal(env.observation_tensor(seat)[row], state.observation_tensor(seat))
        where = np.zeros(env.batch_size, dtype=bool)
        where[row] = True
        env.step(env.sample_legal(rng.random(env.batch_size)), where=where)


def test_the_countdown_from_a_position_greedy_players_reach_plays_as_the_reference():
    # Random players seldom complete a rocket and a control card; greedy ones do.
    ready = a_position("greedy", until=lambda s: s.phase() == "turn start", players=3)
    first_moves = set()
    for seed in range(6):
        env = CountDownBatch(1, seed=seed, deal=False, players=3)
        env.load([0], ready)
        assert np.flatnonzero(env.legal_mask()[0]).tolist() == [ROLL, COUNT_DOWN]
        follow_in_the_reference(env, 0, ready.clone(), seed=seed)
        first_moves.add(env.history(0)[0])
    assert COUNT_DOWN in first_moves


def test_the_same_seed_gives_the_same_games_and_another_seed_others():
    first, again, other = (CountDownBatch(4, seed=s, players=3, max_turns=40) for s in (7, 7, 8))
    for env in (first, again, other):
        play_out(env, seed=3)
    assert [first.history(i) for i in range(4)] == [again.history(i) for i in range(4)]
    assert [first.history(i) for i in range(4)] != [other.history(i) for i in range(4)]


@pytest.mark.parametrize("players", [2, 5, 6])
def test_a_batch_speaks_the_reference_engines_terms(players):
    env = CountDownBatch(3, seed=1, players=players, max_turns=30)
    game = tminus.load_game("count_down", players=players, max_turns=30)
    assert env.legal_mask().shape == (3, game.num_distinct_actions)
    assert env.observation_tensor(0).shape == (3, *game.observation_tensor_shape())
    assert env.observation_tensor(0).dtype == np.float32
    play_out(env)
    assert (env.current_player() == TERMINAL).all() and not env.legal_mask().any()
    assert np.allclose(env.returns().sum(axis=1), 0.0)
    assert env.ended_by_turn_cap().all()  # (thirty random turns never win the countdown)


def test_a_loaded_row_is_the_reference_position_and_copies_play_apart():
    state = a_position(players=4)
    env = CountDownBatch(3, seed=2, deal=False, players=4)
    env.load([0, 1], state)
    assert env.current_player()[0] == state.current_player()
    assert np.flatnonzero(env.legal_mask()[1]).tolist() == state.legal_actions()
    assert np.array_equal(env.observation_tensor(2)[0], state.observation_tensor(2))
    env.copy_rows([2], [0])
    env.step(env.sample_legal(np.zeros(3)), where=np.array([True, False, False]))
    assert env.history(0) and not env.history(2)
    assert np.array_equal(env.observation_tensor(0)[2], state.observation_tensor(0))
    follow_in_the_reference(env, 2, state.clone())


def test_rows_of_one_stream_meet_the_same_luck():
    env = CountDownBatch(8, seed=4, deal=False, players=4, max_turns=120)
    env.load(np.arange(8), a_position(players=4, max_turns=120))
    env.share_luck(np.arange(8) % 2)
    while not env.terminal().all():
        env.step(env.sample_legal(env.uniforms(np.arange(8))), check=False)
    games = [env.history(row) for row in range(8)]
    assert all(games[row] == games[row % 2] for row in range(8))
    assert games[0] != games[1]


def test_a_log_filled_in_the_middle_of_chance_is_grown_and_the_games_go_on():
    # Room for one more entry at each step: chance runs out of room and is played on.
    normal, tight = (CountDownBatch(3, seed=9, players=4, max_turns=150) for _ in range(2))
    tight._log = lambda room, log=tight._log: log(1)
    play_out(normal, seed=2)
    play_out(tight, seed=2)
    assert [tight.history(i) for i in range(3)] == [normal.history(i) for i in range(3)]
    game = tminus.load_game("count_down", players=4, max_turns=150)
    state = game.new_initial_state()
    for action in tight.history(0):
        state.apply_action(action)
    assert state.is_terminal()


def test_a_meetings_moves_counted_and_drawn_are_the_moves_listed():
    # A sample draws a meeting's move by counting (``meeting_move_count``, ``..._at``).
    env = CountDownBatch(256, seed=3, players=4, record_history=False)
    rng = np.random.default_rng(0)
    moves = np.zeros(env.num_distinct_actions, dtype=np.int64)
    checked = 0
    for _ in range(400):
        for g in np.flatnonzero(env.rows[:, rules.PHASE] == phases.MEETING)[:8]:
            row = env.rows[g].copy()
            listed = sorted(moves[: rules.meeting_moves(row, env.K, moves)].tolist())
            count = rules.meeting_move_count(row, env.K, rules.ALL)
            drawn = sorted(rules.meeting_move_at(row, env.K, j) for j in range(count))
            assert drawn == listed
            checked += 1
        env.step(env.sample_legal(rng.random(256)))
    assert checked > 500


def test_a_board_with_more_than_a_row_holds_is_refused(tmp_path):
    from importlib.resources import files

    text = files("tminus.games.count_down").joinpath("board.toml").read_text(encoding="utf-8")
    extra = "".join(
        f'\n[[photo_cards]]\nname = "Extra {i}"\nvalue = 50\ncopies = 1\n' for i in range(20)
    )
    board = tmp_path / "board.toml"
    board.write_text(text + extra, encoding="utf-8")
    assert len(tminus.load_game("count_down", board=str(board)).board.photo_names) == 36
    with pytest.raises(ValueError, match="at most 16 photo cards"):
        CountDownBatch(2, board=str(board))


def test_without_numba_the_engine_says_what_to_install():
    code = (
        "import sys; sys.modules['numba'] = None\n"
        "try:\n    import tminus.batch.count_down\n"
        "except ValueError as error:\n    print(error)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert "needs Numba" in out.stdout and ".[numba]" in out.stdout


def test_memory_per_game_is_a_row_and_the_player_to_move():
    env = CountDownBatch(8, record_history=False)
    assert env.memory_per_game() == rules.ROW * 4 + 8


IS_COMPILED = "from tminus.batch.count_down import CountDownBatch as E; print(E.compiled())"


def test_the_engine_compiles_itself_ahead_when_asked(tmp_path):
    # (``tminus serve`` runs this in the background: reviews then find it compiled)
    done = subprocess.run(
        [sys.executable, "-m", "tminus.batch.count_down"], capture_output=True, text=True
    )
    assert done.returncode == 0 and "compiled and ready" in done.stdout
    # ... and a new process finds it on disk; one whose cache is elsewhere (empty) does not.
    found = subprocess.run([sys.executable, "-c", IS_COMPILED], capture_output=True, text=True)
    assert found.stdout.split() == ["True"], found.stderr
    elsewhere = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    found = subprocess.run(
        [sys.executable, "-c", IS_COMPILED], capture_output=True, text=True, env=elsewhere
    )
    assert found.stdout.split() == ["False"], found.stderr


def test_a_function_is_cached_once_compiled_for_its_source_as_it_is(tmp_path, monkeypatch):
    source = "from numba import njit\n\n@njit(cache=True)\ndef twice(x):\n    return {} * x\n"
    module = tmp_path / "compiled_here.py"
    module.write_text(source.format(2), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "compiled_here", raising=False)  # (a run before this one)
    compiled_here = importlib.import_module("compiled_here")
    assert not cached(compiled_here.twice)
    assert compiled_here.twice(21) == 42
    assert cached(compiled_here.twice)
    # The source changed (another size): the build on disk is for the old one.
    module.write_text(source.format(30), encoding="utf-8")
    assert not cached(importlib.reload(compiled_here).twice)


def test_a_turn_limit_whose_money_could_pass_32_bits_is_refused():
    CountDownBatch(1, max_turns=200_000)  # (the default board's amounts: up to 223,000)
    with pytest.raises(ValueError, match="money in 32 bits"):
        CountDownBatch(1, max_turns=1_000_000)
