"""Moving: one step onto an adjacent galaxy or your own base; never onto empty, occupied or
another player's base. A turn is a move, then a removal by the same player."""

import pytest

from tests.sputnik.helpers import clear, legal_strings, play, rocket_cells, started
from tminus import IllegalActionError


def test_a_rocket_moves_one_step_onto_an_adjacent_galaxy():
    state = started(2)
    # d1's neighbours: e1, c2, d2 (a corner has three).
    assert legal_strings(state) == ["move e1", "move c2", "move d2"]
    play(state, "move d2")
    assert rocket_cells(state) == ["d2", "d7"]


def test_a_cell_two_steps_away_cannot_be_reached():
    state = started(2)
    with pytest.raises(IllegalActionError, match="possible: move e1, move c2, move d2"):
        play(state, "move d3")
    assert rocket_cells(state) == ["d1", "d7"]


def test_a_rocket_cannot_move_onto_an_empty_cell():
    state = clear(started(2), "d2")
    assert legal_strings(state) == ["move e1", "move c2"]


def test_a_rocket_cannot_move_onto_a_galaxy_occupied_by_another_rocket():
    state = play(
        started(2),
        "move d2", "remove a4", "move d6", "remove b4",
        "move d3", "remove a5", "move d5", "remove b5",
        "move d4", "remove a6",
    )  # fmt: skip
    assert rocket_cells(state) == ["d4", "d5"]
    assert state.current_player() == 1
    # d5's neighbours: e5, c5, d4 (seat 0 is there), d6, e4, c6.
    assert legal_strings(state) == ["move e4", "move c5", "move e5", "move c6", "move d6"]


def test_a_rocket_cannot_move_onto_another_players_base_but_may_return_to_its_own():
    # Six players on a board of radius 2: seat 0's base c1 and seat 1's base e1 share d1.
    state = play(started(6, radius=2), "move d1", "remove c3")
    for _ in range(1, 6):  # the others step off their bases, away from d1
        moves = [m for m in legal_strings(state) if m != "move d1"]
        play(state, moves[-1])
        if state.phase() == "remove":
            play(state, legal_strings(state)[0])
    assert state.current_player() == 0
    assert rocket_cells(state)[0] == "d1" and rocket_cells(state)[1] != "e1"
    moves = legal_strings(state)
    assert "move c1" in moves  # "or an adjacent base of his own color"
    assert "move e1" not in moves  # seat 1's base, even though no rocket stands on it


def test_a_player_must_move_there_is_no_pass():
    state = started(2)
    assert all(m.startswith("move ") for m in legal_strings(state))


def test_after_moving_the_same_player_removes_a_galaxy():
    state = play(started(2), "move d2")
    assert state.current_player() == 0 and state.phase() == "remove"
    assert all(m.startswith("remove ") for m in legal_strings(state))
    play(state, "remove d4")
    assert state.current_player() == 1 and state.phase() == "move"
    assert state.observation(0)["cells"][state.game.board.by_name["d4"]] == "empty"
