"""The Sputnik endgame table: its values are those of plain search, and its agent wins."""

import fcntl

import numpy as np
import pytest

from tests.sputnik.helpers import arrange
from tminus import load_game
from tminus.agents.solvers.sputnik import Solver
from tminus.agents.solvers.sputnik_endgame import (
    SputnikEndgameAgent,
    build,
    build_once,
    cache_path,
    cached_table,
    canonical,
    chance_to_win,
    forget_loaded_tables,
    images,
    positions,
)


@pytest.fixture(scope="module")
def table():
    return build(radius=3, max_galaxies=2)  # a fraction of a second; the real one is cached


def sample_positions(table, count, seed=0):
    every = [
        key for level in range(table.max_galaxies + 1) for key in positions(table.kernel, level)
    ]
    picks = np.random.default_rng(seed).choice(len(every), size=count, replace=False)
    return [every[i] for i in picks]


def test_table_values_are_plain_search_values_on_sampled_positions(table):
    solver = Solver(3)
    keys = sample_positions(table, 300)
    for key in keys:
        for image in images(table.kernel, key):  # every symmetric image, as stored
            assert table.wins(image) == solver.wins(image), image
    won = sum(table.wins(k) for k in keys)
    assert 0 < won < len(keys)  # both outcomes occur: the check can fail either way


def test_one_position_per_symmetry_class(table):
    keys = list(positions(table.kernel, 2))
    classes = {canonical(table.kernel, k) for k in keys}
    assert len(classes) == len(keys)


def test_a_position_with_more_galaxies_is_not_covered(table):
    k = table.kernel
    key = k.pack((1 << 10) | (1 << 11) | (1 << 12), (10, k.used, False), (11, k.used, False))
    assert not table.covers(key)
    with pytest.raises(ValueError, match="more than 2 galaxies"):
        table.wins(key)


def test_save_and_load_round_trip(table, tmp_path):
    path = tmp_path / "t.npy"
    table.save(path)
    loaded = type(table).load(path)
    assert loaded.max_galaxies == 2 and loaded.positions == table.positions
    assert np.array_equal(loaded.won, table.won)


@pytest.fixture
def empty_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("TMINUS_CACHE", str(tmp_path))
    forget_loaded_tables()
    yield tmp_path
    forget_loaded_tables()


def test_a_table_built_after_a_first_look_is_found_by_the_next(table, empty_cache):
    assert cached_table(3, 2) is None  # not built: a server's bots play by search alone
    table.save(cache_path(3, 2))  # ... until the build in the background saves it
    found = cached_table(3, 2)
    assert found is not None and np.array_equal(found.won, table.won)


def test_the_build_waits_for_nobody_and_builds_once(empty_cache):
    lock_path = cache_path(3, 1).with_suffix(".lock")
    with open(lock_path, "w") as held:  # another process of the server is building it
        fcntl.flock(held, fcntl.LOCK_EX)
        assert build_once(1) is None
        assert not cache_path(3, 1).exists()
    built = build_once(1)
    assert built is not None and cached_table(3, 1) is not None
    assert build_once(1) is None  # built already: not again


def test_a_build_shared_by_processes_finds_what_one_process_finds():
    alone, shared = build(3, 3, jobs=1), build(3, 3, jobs=2)
    assert shared.positions == alone.positions and np.array_equal(shared.won, alone.won)


def test_the_endgame_agent_plays_the_win_the_table_finds(table):
    # Two galaxies left (under the rockets); the mover stands next to its unused base, the
    # other's base has helped already: stepping home and removing the cell it left leaves
    # the other rocket nowhere to go. A random search would rarely find it.
    game = load_game("sputnik")
    board = game.board
    home = game.start[0]
    next_door = board.names[board.neighbours[home][0]]
    state = arrange(2, [next_door, "d4"], helped=(1,))
    agent = SputnikEndgameAgent(game, seed=0, search="random")
    agent.oracle = table
    assert chance_to_win(table, state, 0) == 1.0
    said = []
    while not state.is_terminal():
        mover = state.current_player()
        state.apply_action(agent.step(state))
        said.append((mover, agent.estimate))
    assert state.winners() == [0]
    # It knows: the winner's every decision is a sure win, the loser's a sure loss.
    assert all(estimate == (1.0 if mover == 0 else 0.0) for mover, estimate in said)
