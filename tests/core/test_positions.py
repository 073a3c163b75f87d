"""Positions: a game sets up a state from a dict, validated field by field."""

import pytest

from tminus.core.registry import load_game


def test_a_set_up_position_is_played_from_there():
    game = load_game("four_way", players=2)
    state = game.set_up({"phase": 1, "keys": [1023, 0], "mover": 1})  # 1 is the roll
    assert state.history() == []
    assert state.is_chance_node()
    assert state.observation(0)["keys"] == [list(range(1, 11)), []]
    state.apply_action(0)  # double one, rolled by seat 1
    assert state.current_player() == 1


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"colour": 3}, "no position field colour"),
        ({"keys": 7}, "keys: 7 is not shaped like"),
        ({"keys": [0, 1024]}, "keys: 1024 is not one of"),
        ({"keys": [0]}, "keys: 1 entries, not 2"),
        ({"phase": 9}, "phase: 9 is not one of"),
        ({"mover": 2}, "mover: 2 is not one of"),
        ({"keys": [0, {1}]}, "a position is JSON data"),
    ],
)
def test_a_bad_field_is_refused_and_changes_nothing(changes, message):
    game = load_game("four_way", players=2)
    state = game.new_initial_state()
    before = state.position_dict()
    with pytest.raises(ValueError, match=message):
        state.with_position(changes)
    assert state.position_dict() == before


def test_with_position_copies_what_it_is_given():
    state = load_game("four_way", players=2).new_initial_state()
    keys = [3, 0]
    changed = state.with_position({"keys": keys})
    keys[0] = 0
    assert changed.position_dict()["keys"] == [3, 0]
    assert state.position_dict()["keys"] == [0, 0]


def test_every_game_of_t_minus_declares_its_position():
    # Positions are optional for games from outside (the conformance checker then skips the
    # round trip), so that the four games keep theirs is checked here.
    from tminus.core.registry import game_class

    for name in ("count_down", "four_way", "sputnik", "three_two_one"):
        state = game_class(name)().new_initial_state()
        assert state.position_fields, name
        assert game_class(name)().set_up(state.position_dict()).position_dict() == (
            state.position_dict()
        )
