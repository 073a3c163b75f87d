"""A batch starts its games from given reference positions (a review's playouts): the loaded
row is the same position, move for move, as the reference state it came from."""

from __future__ import annotations

import numpy as np
import pytest

import tminus
import tminus.batch as tb
from tminus.core.playout import sample_chance
from tminus.games.three_two_one.game import DRAW_PILE


def decisions_along_a_random_game(game, seed):
    """Every decision (and the end) of a random game of ``game``."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while True:
        if state.is_chance_node():
            state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
            continue
        yield state.clone()
        if state.is_terminal():
            return
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])


def assert_rows_are(batch, rows, states):
    players = batch.current_player()
    legal = batch.legal_mask()
    seen = [batch.observation_tensor(seat) for seat in range(batch.num_players)]
    returns = batch.returns()
    for row, state in zip(rows, states, strict=True):
        assert players[row] == state.current_player()
        assert np.flatnonzero(legal[row]).tolist() == state.legal_actions()
        for seat, tensors in enumerate(seen):
            assert np.array_equal(tensors[row], state.observation_tensor(seat))
        if state.is_terminal():
            assert returns[row].tolist() == pytest.approx(state.returns())


@pytest.mark.parametrize("players", [2, 3, 6])
def test_a_loaded_row_is_the_reference_position_and_plays_on_alike(players):
    game = tminus.load_game("three_two_one", players=players)
    positions = list(decisions_along_a_random_game(game, seed=players))
    batch = tb.make("three_two_one", batch_size=len(positions), seed=1, players=players)
    batch.load(np.arange(len(positions)), positions)
    assert_rows_are(batch, range(len(positions)), positions)
    # One move more, the same in both where no card is drawn (a discard, a pile's top card,
    # a declaration): the rows go on as the reference does.
    actions = np.zeros(len(positions), dtype=np.int64)
    after = []
    for row, state in enumerate(positions):
        moves = [a for a in state.legal_actions() if a != DRAW_PILE]
        actions[row] = moves[0] if moves else 0
        state = state.clone()
        if moves:
            state.apply_action(moves[0])
        after.append(state)
    batch.step(actions)
    rows = [row for row, state in enumerate(after) if not state.is_chance_node()]
    assert len(rows) > len(after) / 2
    assert_rows_are(batch, rows, [after[row] for row in rows])


def test_loading_refuses_a_state_of_another_game_or_a_chance_node():
    batch = tb.make("three_two_one", batch_size=2, players=3)
    other = tminus.load_game("three_two_one", players=4).new_initial_state()
    with pytest.raises(ValueError, match="does not fit"):
        batch.load([0], [other])
    dealing = tminus.load_game("three_two_one", players=3).new_initial_state()
    with pytest.raises(ValueError, match="chance"):
        batch.load([0], dealing)
    with pytest.raises(ValueError, match="games are 0 to 1"):
        batch.load([2], dealing)


@pytest.mark.parametrize(
    "params",
    [{"players": 2}, {"players": 3, "rockets_per_player": 2}, {"players": 4, "teams": True},
     {"players": 2, "radius": 2}],
)  # fmt: skip
def test_a_loaded_sputnik_row_is_the_reference_position_and_plays_on_alike(params):
    game = tminus.load_game("sputnik", **params)
    positions = list(decisions_along_a_random_game(game, seed=len(params)))
    batch = tb.make("sputnik", batch_size=len(positions), seed=1, **params)
    batch.load(np.arange(len(positions)), positions)
    assert_rows_are(batch, range(len(positions)), positions)
    # Sputnik draws no chance after the lot: every row plays on as its reference does, here
    # with each row's last legal move, a few turns (bases' help and eliminations included).
    rng = np.random.default_rng(0)
    for _ in range(6):
        actions = np.zeros(len(positions), dtype=np.int64)
        for row, state in enumerate(positions):
            if not state.is_terminal():
                legal = state.legal_actions()
                actions[row] = legal[int(rng.integers(len(legal)))]
                state.apply_action(int(actions[row]))
        batch.step(actions)
        assert_rows_are(batch, range(len(positions)), positions)
