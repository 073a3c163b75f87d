"""Base help: once per base, the base moves onto an empty cell next to its rocket, is flipped
to a galaxy, and the rocket moves onto it; no galaxy is taken that turn."""

from tests.sputnik.helpers import (
    clear,
    clear_all_but,
    content,
    legal_strings,
    play,
    rocket_cells,
    started,
)


def helped_position():
    """Seat 0 on d2 with d3 empty next to it; its base d1 unused."""
    return play(started(2), "move d2", "remove a4", "move d6", "remove d3")


def test_help_moves_the_base_onto_an_empty_cell_next_to_the_rocket():
    state = helped_position()
    assert legal_strings(state) == [
        "move d1", "move e1", "move c2", "move e2", "move c3", "help d3",
    ]  # fmt: skip
    play(state, "help d3")
    assert rocket_cells(state)[0] == "d3"
    assert content(state, "d3") == "galaxy"  # "turns the base over to its galaxy side"
    assert content(state, "d1") == "empty"  # the base's old cell is left empty


def test_no_galaxy_is_taken_in_a_turn_of_base_help():
    state = helped_position()
    cells_before = state.observation(0)["cells"]
    play(state, "help d3")
    assert state.current_player() == 1 and state.phase() == "move"
    cells_after = state.observation(0)["cells"]
    assert cells_after.count("galaxy") == cells_before.count("galaxy") + 1
    assert cells_after.count("empty") == cells_before.count("empty")


def test_each_base_helps_one_time_only():
    state = play(helped_position(), "help d3", "move d5", "remove c4")
    clear(state, "d2")
    assert state.current_player() == 0
    assert not any(m.startswith("help") for m in legal_strings(state))
    assert state.observation(0)["rockets"][0]["base"] is None


def test_no_help_while_the_rocket_stands_on_its_base():
    state = clear(started(2), "c2")  # an empty cell next to seat 0, which is on its base
    assert legal_strings(state) == ["move e1", "move d2"]


def test_help_only_onto_empty_cells_next_to_the_rocket():
    state = helped_position()
    clear(state, "f4")  # empty but not next to d2
    helps = [m for m in legal_strings(state) if m.startswith("help")]
    assert helps == ["help d3"]


def test_a_flipped_helper_base_is_a_galaxy_anyone_may_take_or_enter():
    state = play(helped_position(), "help d3", "move d5", "remove c4", "move e3")
    assert "remove d3" in legal_strings(state)
    play(state, "remove a6", "move d4", "remove b5", "move f3", "remove a7")
    assert state.current_player() == 1
    assert "move d3" in legal_strings(state)  # seat 1 may step onto it too


def test_help_is_a_move_that_saves_a_rocket_from_elimination():
    state = play(
        started(2),
        "move d2", "remove a4", "move d6", "remove a5", "move d3", "remove a6", "move d5",
    )  # fmt: skip
    # Every galaxy around seat 0 (on d3) is gone: no step, but its base can still help.
    clear_all_but(state, "f4", "g4")
    play(state, "remove g4")
    assert state.current_player() == 0 and rocket_cells(state)[0] == "d3"
    assert legal_strings(state) == [
        "help d2", "help e2", "help c3", "help e3", "help c4", "help d4",
    ]  # fmt: skip
