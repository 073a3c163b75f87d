"""The contract's "Why can't I?" (``State.why_not``): what every game shares, and the words
a game without reasons of its own gives."""

from __future__ import annotations

import pytest

from tests.core.toy_game import ADD, STOP, ToyGame, ToyState
from tminus.core.game import NOT_POSSIBLE_NOW


class OnlyAddState(ToyState):
    """The toy game where stopping is never allowed: an action of the game that is illegal
    at every decision, with no reason of the game's own."""

    def legal_actions(self) -> list[int]:
        return [] if self.current_player() < 0 else [ADD]


class OnlyAddGame(ToyGame):
    name = "toy_only_add"

    def new_initial_state(self) -> OnlyAddState:
        return OnlyAddState(self)


def at_decision(game: ToyGame) -> ToyState:
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(0)
    return state


def test_a_legal_move_has_no_reason():
    state = at_decision(ToyGame())
    assert state.why_not(ADD) is None and state.why_not(STOP) is None


def test_a_move_is_a_whole_number():
    state = at_decision(ToyGame())
    assert state.why_not("add") == "A move is a whole number (the move's id), not 'add'."
    assert "not 1.5" in state.why_not(1.5)
    long = state.why_not("x" * 100)  # a long value is cut short
    assert "xxx..." in long and len(long) < 100


def test_an_integer_of_any_kind_is_asked_about_like_an_int():
    numpy = pytest.importorskip("numpy")
    state = at_decision(ToyGame())
    assert state.why_not(numpy.int64(ADD)) is None


def test_an_action_outside_the_game():
    state = at_decision(ToyGame())
    for action in (-1, 2, 10**9):
        assert state.why_not(action) == (
            f"There is no move {action} in Toy: moves are numbered 0 to 1."
        )


def test_nothing_is_possible_once_the_game_is_over():
    state = at_decision(ToyGame())
    state.apply_action(STOP)
    assert state.is_terminal()
    assert state.why_not(ADD) == "The game is over: no more moves can be made."


def test_at_a_chance_node_nobody_moves_not_even_to_name_an_outcome():
    state = ToyGame().new_initial_state()
    assert state.is_chance_node() and state.is_legal(0)  # 0 is a chance outcome here ...
    assert state.why_not(0) == (  # ... but not a move anyone may make
        "Nobody can move now: chance goes first (a roll or a card to draw)."
    )


def test_a_game_without_reasons_of_its_own_says_the_move_is_not_possible_now():
    state = at_decision(OnlyAddGame())
    assert state.why_not(ADD) is None
    assert state.why_not(STOP) == NOT_POSSIBLE_NOW == "That move is not possible now."


def test_names_are_checked_like_everywhere_else():
    state = at_decision(OnlyAddGame())
    assert state.why_not(STOP, ["Ann", "Bob"]) == NOT_POSSIBLE_NOW
    with pytest.raises(ValueError, match="2 names are needed"):
        state.why_not(STOP, ["Ann"])
    with pytest.raises(ValueError, match="2 names are needed"):
        state.why_not(STOP, "Ann")


def test_asking_changes_nothing():
    state = at_decision(ToyGame())
    before = (str(state), state.history(), state.legal_actions())
    for action in (-1, ADD, STOP, 2, "x"):
        state.why_not(action)
    assert (str(state), state.history(), state.legal_actions()) == before
