"""The contract's own rules, decided once for every game (``tminus.core.game``)."""

from __future__ import annotations

import pytest

from tminus.core.game import TERMINAL, Game, GameType, IllegalActionError, State
from tminus.core.registry import game_class, list_games, load_game


class Finished(State):
    """A state that only knows whose turn it is and its returns."""

    def __init__(self, returns: list[float], player: int = TERMINAL) -> None:
        self._returns = returns
        self._player = player

    def current_player(self) -> int:
        return self._player

    def returns(self) -> list[float]:
        return self._returns


@pytest.mark.parametrize(
    ("returns", "winners"),
    [
        ([1.0, -1.0], [0]),
        ([-0.5, 1.0, -0.5], [1]),
        ([1.0, -1.0, 1.0, -1.0], [0, 2]),  # a team
        ([0.0, 0.0, 0.0], []),  # a draw
        ([1 / 3, 1 / 3, 1 / 3], []),  # a win shared by everyone: nobody beat anybody
        ([1.0, -1.0, 0.0], [0]),  # a seat that watched is not a loser
    ],
)
def test_winners_are_the_best_returns_unless_everyone_is_equal(returns, winners):
    assert Finished(returns).winners() == winners


def test_nobody_has_won_while_the_game_goes_on():
    assert Finished([1.0, -1.0], player=0).winners() == []


def test_phase_is_a_name_and_over_at_the_end():
    assert Finished([0.0, 0.0]).phase() == "over"
    assert Finished([0.0, 0.0], player=1).phase() == "play"


def test_a_game_type_refuses_unknown_information_and_utility():
    with pytest.raises(ValueError, match="information"):
        GameType(information="partial")
    with pytest.raises(ValueError, match="utility"):
        GameType(utility="win_lose")


def test_the_capabilities_are_declared_on_each_game_class():
    types = {name: game_class(name).game_type for name in list_games()}
    assert types["three_two_one"] == GameType(information="imperfect", rounds=True)
    assert types["count_down"] == GameType(information="imperfect", layout=True, teams=True)
    assert types["sputnik"] == GameType(teams=True, position_keys=True)
    assert types["four_way"] == GameType()
    # The loose names only mirror the record.
    assert all(game_class(n).information == t.information for n, t in types.items())


def test_a_class_declaring_information_loose_has_it_in_its_record():
    class Loose(Game):
        information = "imperfect"

    assert Loose.game_type.information == "imperfect" and Loose.information == "imperfect"
    assert Game.game_type.information == "perfect"


def test_a_game_without_teams_wins_alone():
    assert load_game("four_way").allies(1) == [1]
    assert load_game("sputnik", players=4, teams=True).allies(1) == [1, 3]


def test_structs_name_the_parts_of_a_move_and_map_back():
    state = load_game("four_way", players=3).new_initial_state()
    assert state.action_to_struct(2) == {"kind": "die", "value": 3}
    for die in (5, 0, 0):  # seat 0 rolls a six, the others ones: seat 0 starts
        state.apply_action(die)
    assert state.action_to_struct(20) == {"kind": "dice", "dice": [6, 6]}
    state.apply_action(20)  # a double six sends seat 0 back to the start
    assert state.legal_actions() == [30] and state.struct_to_action({"kind": "reset"}) == 30
    with pytest.raises(IllegalActionError, match="not possible now"):
        state.struct_to_action({"kind": "attack", "seat": 9})


def test_a_game_that_does_not_describe_its_moves_gets_a_generic_struct():
    from tests.server.secret_game import SecretGame

    state = SecretGame().new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    for action in state.legal_actions():
        struct = state.action_to_struct(action)
        name = state.action_to_string(action)
        assert struct == {"kind": "action", "action": action, "name": name}
        assert state.struct_to_action(struct) == action
