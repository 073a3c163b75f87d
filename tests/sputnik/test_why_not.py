"""Why can't I? The rule that forbids a Sputnik move, said to the player."""

import pytest

import tminus
from tests.core.why_not_checks import action_named, reasons_agree_with_legality, sampled_states
from tests.sputnik.helpers import arrange, cell, clear, new_game, play, started
from tminus.games.sputnik.game import SputnikGame

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]


def why(state, move: str) -> str:
    return state.why_not(action_named(state, move), NAMES[: state.game.num_players])


def helped_position():
    """Ann on d2 with d3 empty next to her; her base d1 unused."""
    return play(started(2), "move d2", "remove a4", "move d6", "remove d3")


def test_a_rocket_moves_one_step():
    state = helped_position()
    assert why(state, "move d5") == (
        "A rocket moves one step, onto a neighbouring cell: d5 is not next to d2."
    )
    assert why(state, "move d2") == "Your rocket is on d2 already: it must move one step each turn."


def test_never_onto_an_empty_space_but_base_help_may_go_there():
    assert why(helped_position(), "move d3") == (
        "Rockets cannot move onto an empty space: there is no galaxy on d3. "
        "Base help could move your base there."
    )


def test_never_onto_another_players_base():
    state = arrange(2, ["d6", "a4"], galaxies="c6 e6")
    assert why(state, "move d7") == (
        "Rockets cannot move onto another player's base: d7 is the base of Bob."
    )


def test_never_onto_an_occupied_galaxy():
    state = arrange(2, ["d4", "d5"], galaxies="c4 e4")
    assert why(state, "move d5") == (
        "Rockets cannot move onto a galaxy occupied by another rocket: the rocket of Bob is on d5."
    )


def test_base_help_goes_onto_an_empty_space_next_to_the_rocket():
    state = helped_position()
    rule = "Base help moves your base onto an empty space adjacent to your rocket"
    assert why(state, "help c2") == f"{rule}: c2 is not empty, a galaxy is there."
    assert why(state, "help d5") == f"{rule}: d5 is not next to d2."


def test_no_base_help_from_the_base_itself():
    state = clear(started(2), "c2")
    assert why(state, "help c2") == (
        "Base help is not allowed while your rocket stands on its base: move off it first."
    )


def test_each_base_helps_one_time_only():
    state = play(helped_position(), "help d3", "move d5", "remove c4")
    clear(state, "d2")
    assert why(state, "help d2") == (
        "Each base may come to the aid of its rocket one time only: yours already has."
    )


def test_move_then_take_a_galaxy():
    state = started(2)
    assert why(state, "remove a4").startswith("First move your rocket: a galaxy is taken after")
    play(state, "move d2")
    assert why(state, "move e2") == (
        "Your rocket has moved this turn: now take an uninhabited galaxy from the board."
    )


def test_what_cannot_be_taken():
    state = play(started(2), "move d2")
    assert why(state, "remove d1") == (
        "Players cannot take a space base from the board, whether or not it is occupied: d1 "
        "is your base."
    )
    assert why(state, "remove d2") == (
        "Players cannot take an occupied galaxy: your rocket is on d2."
    )
    assert why(state, "remove d6") == (
        "At the start of the game it is forbidden to take a galaxy adjacent to a base: d6 is "
        "next to the base of Bob, whose rocket has not left it yet."
    )
    clear(state, "a4")
    assert why(state, "remove a4") == "There is no galaxy on a4 to take: it is an empty space."


def test_several_rockets_each_to_its_own_base_and_none_once_out():
    # Two rockets each: Ann's on d1 and d7, Bob's on g1 and a7.
    state = arrange(2, ["c7", "g2", "d4", None], galaxies="b7 d5", rockets_per_player=2)
    assert why(state, "move c7-d7") == (
        "A rocket may go onto its own base only: d7 is your other rocket's base."
    )
    alone = arrange(2, ["c3", "g2", None, "a6"], galaxies="c4", rockets_per_player=2)
    # Ann's second rocket (number 1 of hers) is out: its moves name no cell to come from.
    second = alone.game.cells + cell(alone, "c4")
    assert alone.why_not(second) == (
        "That rocket of yours is out of the game: move one that is still on the board."
    )


def test_before_the_lot():
    assert new_game().why_not(0) == (
        "Lots are drawn first to decide who starts: nobody moves before that."
    )


@pytest.mark.parametrize("params", SputnikGame.configurations())
def test_a_reason_exactly_for_each_move_that_is_not_legal(params):
    game = tminus.load_game("sputnik", **params)
    for state in sampled_states(game, 60, seed=len(params), rate=0.3):
        reasons_agree_with_legality(state)


def test_a_reason_on_a_large_board():
    game = tminus.load_game("sputnik", players=3, radius=6)
    for state in sampled_states(game, 40, seed=1, rate=0.1):
        reasons_agree_with_legality(state)
