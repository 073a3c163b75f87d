"""The contract's own rules, decided once for every game (``tminus.core.game``)."""

from __future__ import annotations

import pytest

from tminus.core.game import TERMINAL, State


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
