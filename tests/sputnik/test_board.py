"""The board: hex cells in axial coordinates, bases on corners, unused bases flipped."""

import pytest

from tests.sputnik.helpers import content, legal_strings, new_game, play, rocket_cells, started
from tminus.games.sputnik.board import HexBoard, hex_board


@pytest.mark.parametrize(("radius", "cells"), [(2, 19), (3, 37), (4, 61)])
def test_a_hexagon_of_radius_r_has_3r_r_plus_1_plus_1_cells(radius, cells):
    board = hex_board(radius)
    assert board.size == cells
    assert all(max(abs(q), abs(r), abs(q + r)) <= radius for q, r in board.cells)


def test_inner_cells_have_six_neighbours_and_corners_three():
    board = hex_board(3)
    centre = board.by_name["d4"]
    assert board.cells[centre] == (0, 0)
    assert sorted(board.names[n] for n in board.neighbours[centre]) == [
        "c4", "c5", "d3", "d5", "e3", "e4",
    ]  # fmt: skip
    for corner in board.corners:
        assert len(board.neighbours[corner]) == 3
    assert len(board.neighbours[board.by_name["b7"]]) == 4  # an edge cell between corners


def test_adjacency_is_symmetric_and_means_distance_one():
    board = hex_board(3)
    for a in range(board.size):
        for b in range(board.size):
            assert board.adjacent(a, b) == (board.distance(a, b) == 1) == board.adjacent(b, a)


def test_cell_names_are_column_letter_and_row_number():
    board = hex_board(3)
    assert board.names[0] == "d1"  # the top-left corner: q = 0, r = -3
    assert board.names[-1] == "d7"
    assert [board.names[c] for c in board.corners] == ["d1", "g1", "g4", "d7", "a7", "a4"]
    assert len(set(board.names)) == board.size


def test_radius_out_of_range_is_refused():
    with pytest.raises(ValueError, match="radius"):
        HexBoard(0)
    with pytest.raises(ValueError, match="'radius' of sputnik"):
        new_game(radius=1)


CORNERS = ["d1", "g1", "g4", "d7", "a7", "a4"]


@pytest.mark.parametrize(
    ("players", "bases"),
    [
        (2, ["d1", "d7"]),  # opposite corners
        (3, ["d1", "g4", "a7"]),  # alternate corners
        (4, ["d1", "g1", "d7", "a7"]),  # two pairs of opposite corners
        (5, ["d1", "g1", "g4", "d7", "a7"]),
        (6, CORNERS),
    ],
)
def test_bases_stand_on_corners_by_player_count_with_a_rocket_each(players, bases):
    state = new_game(players)
    assert rocket_cells(state) == bases
    for seat, name in enumerate(bases):
        assert content(state, name) == f"base of seat {seat}"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_unused_bases_are_flipped_to_galaxies(players):
    state = new_game(players)
    used = set(rocket_cells(state))
    unused = [name for name in CORNERS if name not in used]
    assert len(unused) == 6 - players
    for name in unused:
        assert content(state, name) == "galaxy"


def test_every_other_cell_holds_a_galaxy():
    state = new_game(6)
    kinds = state.observation(0)["cells"]
    assert kinds.count("galaxy") == 37 - 6
    assert "empty" not in kinds


def test_an_unused_flipped_base_is_an_ordinary_galaxy_that_can_be_taken():
    state = play(started(2), "move d2")
    assert "remove g1" in legal_strings(state)
    # and it does not protect its neighbours as a base would
    assert {"remove f1", "remove f2", "remove g2"} <= set(legal_strings(state))


def test_text_board_draws_cells_bases_rockets_and_empty_cells():
    state = play(started(2), "move d2", "remove d4")
    text = str(state)
    rows = text.splitlines()[1:8]
    assert rows[0].split() == ["b0", "**", "**", "**"]  # d1 is seat 0's base, now left
    assert rows[1].split()[1] == "R0"  # the rocket on d2
    assert rows[3].split()[3] == ".."  # d4 taken
    assert rows[6].split()[3] == "H1"  # seat 1 on its base
    drawn = state.render(0)
    assert "▲0" in drawn and "▲1" in drawn and " e1 " in drawn and "·" in drawn
    assert "[red]\\[d1][/]" in drawn  # seat 0's base in its colour
    assert "[bold blue]\\[▲1][/]" in drawn  # seat 1's rocket on its own base
