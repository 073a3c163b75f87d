"""Sputnik in words: every kind of move by name, and what follows at once (no galaxy to
take, a rocket out, the winner)."""

import pytest

import tminus
from tests.sputnik.helpers import arrange, new_game, play, started
from tminus.games.sputnik.game import SputnikGame
from tminus.games.words_check import check_words

NAMES = ["Ann", "Bob", "Cy", "Dee"]


def line(state, move):
    return state.narrate(state.string_to_action(move), NAMES[: state.game.num_players])


def labels(state):
    return [state.move_label(a, NAMES[: state.game.num_players]) for a in state.legal_actions()]


def test_the_lot_names_who_starts():
    assert line(new_game(3), "lot: seat 2 starts") == "Lots are drawn: Cy starts"


def test_a_move_then_a_removal():
    state = started(2)
    assert labels(state) == ["Move to e1", "Move to c2", "Move to d2"]
    assert line(state, "move d2") == "Ann moves to d2"
    play(state, "move d2")
    assert "Remove the galaxy on e5" in labels(state)
    assert line(state, "remove e5") == "Ann removes the galaxy on e5"


def test_back_onto_the_own_base():
    state = play(started(2), "move d2", "remove e5", "move d6", "remove e6")
    assert "Move to d1 (your base)" in labels(state)
    assert line(state, "move d1") == "Ann moves back onto the base on d1"


def test_base_help():
    # Ann on c3 with d2 empty beside her: her base (d1) can come to d2, the rocket onto it.
    state = arrange(2, ["c3", "g4"], galaxies="b3 b4 f4 g3")
    assert "Base help: move the base to d2" in labels(state)
    assert line(state, "help d2") == "Ann moves the base to d2 and the rocket onto it (base help)"


def test_a_move_with_nothing_to_take_says_so():
    # Ann steps off her base: the only galaxies left are next to Bob's base, which his
    # rocket never left, so they are protected.
    state = arrange(2, ["d1", "d7"], galaxies="e1 d6 e6")
    state = state.with_position({"unmoved": [False, True]})
    assert line(state, "move e1") == "Ann moves to e1; no galaxy can be taken"


def test_a_removal_that_leaves_a_player_stuck_says_who_is_out_and_who_wins():
    # Bob on g4 can go only to f4: Ann takes it and Bob is out when his turn comes.
    state = arrange(2, ["c3", "g4"], galaxies="b3 b4 f4", helped=(1,))
    play(state, "move b3")
    assert line(state, "remove f4") == (
        "Ann removes the galaxy on f4; Bob is out; Ann wins the game"
    )


def test_several_rockets_are_named_by_their_cells():
    state = started(2, rockets_per_player=2)
    assert labels(state)[0] == "Move the rocket on d1 to e1"
    assert line(state, "move d1-e1") == "Ann moves the rocket on d1 to e1"
    helped = arrange(2, ["c3", "g4", "d7", "a4"], galaxies="b3 c4 d6", rockets_per_player=2)
    assert "Base help for the rocket on c3: move the base to d2" in labels(helped)
    assert line(helped, "help c3-d2") == (
        "Ann moves the base of the rocket on c3 to d2 and the rocket onto it (base help)"
    )


def test_a_team_wins_together():
    # Dee is out already; Bob on f2 (his base used) has only g2 to go to.
    state = arrange(4, ["c3", "f2", "f4", None], galaxies="b3 g2", teams=True, helped=(1,))
    play(state, "move b3")
    assert line(state, "remove g2") == (
        "Ann removes the galaxy on g2; Bob is out; Ann and Cy win the game"
    )


@pytest.mark.parametrize("params", SputnikGame.configurations())
def test_random_games_read_well_with_any_names(params):
    assert check_words(tminus.load_game("sputnik", **params), range(3)) > 100


def test_bad_requests_are_clear_errors():
    state = started(2)
    with pytest.raises(ValueError, match="2 names are needed"):
        state.move_label(state.legal_actions()[0], "Ann")
    with pytest.raises(ValueError, match="seat 2 does not exist"):
        state.narrate(state.legal_actions()[0], NAMES[:2], viewer=2)
    with pytest.raises(ValueError, match="no Sputnik action"):
        state.narrate(10_000, NAMES[:2])
