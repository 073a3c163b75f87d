"""Removing: after moving, take any uninhabited galaxy; never an occupied one or a base; not,
at the start, one next to a base whose rocket has not yet left it."""

from tests.sputnik.helpers import arrange, clear_all_but, content, legal_strings, play, started

NEXT_TO_D7 = {"remove c7", "remove d6", "remove e6"}


def test_an_occupied_galaxy_cannot_be_taken():
    state = play(started(2), "move d2")
    removes = legal_strings(state)
    assert "remove d2" not in removes  # the mover's own rocket stands there
    play(state, "remove a4", "move d6")
    assert "remove d2" not in legal_strings(state)  # the other player's rocket


def test_a_base_is_never_taken_occupied_or_not():
    state = play(started(2), "move d2")
    removes = legal_strings(state)
    assert "remove d1" not in removes  # the mover's base, left empty
    assert "remove d7" not in removes  # the other base, occupied
    play(state, "remove a4", "move d6")
    assert "remove d7" not in legal_strings(state)  # its rocket has left it


def test_every_other_uninhabited_galaxy_can_be_taken():
    state = play(started(2), "move d2")
    galaxies = {f"remove {name}" for name in state.game.board.names}
    expected = galaxies - {"remove d1", "remove d2", "remove d7"} - NEXT_TO_D7
    assert set(legal_strings(state)) == expected


def test_galaxies_next_to_a_base_are_protected_until_its_rocket_leaves():
    state = play(started(2), "move d2")
    assert not NEXT_TO_D7 & set(legal_strings(state))
    # Seat 0 has left d1, so the galaxies around d1 may go.
    assert {"remove e1", "remove c2"} <= set(legal_strings(state))
    play(state, "remove a4", "move d6")
    # Seat 1 has left d7 now: the restriction around it lifts.
    assert {"remove c7", "remove e6"} <= set(legal_strings(state))


def test_the_restriction_stays_lifted_when_the_rocket_comes_back_to_its_base():
    state = play(started(2), "move d2", "remove a4", "move d6", "remove a5")
    play(state, "move d3", "remove a6", "move d7")  # seat 1 back on its base
    assert {"remove c7", "remove e6"} <= set(legal_strings(state))


def test_with_nothing_that_may_be_taken_the_turn_ends_after_the_move():
    # Only d2 and the galaxies protected by seat 1's unmoved base are left.
    state = clear_all_but(started(2), "d2", "c7", "d6", "e6")
    play(state, "move d2")
    assert state.current_player() == 1 and state.phase() == "move"
    assert content(state, "c7") == "galaxy"


def test_a_removal_is_required_when_one_is_possible():
    state = play(started(2), "move d2")
    assert state.phase() == "remove" and legal_strings(state)
    assert not any(m.startswith("move") for m in legal_strings(state))


def test_the_base_of_a_rocket_eliminated_without_leaving_it_protects_nothing():
    # Seat 3 never left d7 and is walled in there by seats 4, 5 and 0.
    state = arrange(6, ["c7", "f2", "e3", "d7", "d6", "e6"], "d5 e5 c6 f3 e4 b5", first=1)
    play(state, "move f3", "remove b5", "move e4", "remove f2")
    assert state.eliminated() == [3] and state.current_player() == 4
    play(state, "move d5")
    assert "remove d6" in legal_strings(state)  # next to d7, whose rocket is gone
