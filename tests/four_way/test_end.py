"""Winning with all ten keys up, returns, and the turn cap (a draw)."""

import pytest

from tests.four_way.helpers import legal_strings, play, started
from tminus import TERMINAL

# Seat 0 flips 1..10 while seat 1 always flips key 1 or passes.
TEN_FLIPS = [
    ("dice 1,1", "flip 1"), ("dice 1,1", "flip 2"), ("dice 1,2", "flip 3"),
    ("dice 1,3", "flip 4"), ("dice 1,4", "flip 5"), ("dice 1,5", "flip 6"),
    ("dice 1,6", "flip 7"), ("dice 2,4", "flip 8"), ("dice 3,3", "flip 9"),
]  # fmt: skip


def play_to_nine_keys(players=2):
    state = started(players)
    for roll, flip in TEN_FLIPS:
        play(state, roll, flip)
        for _ in range(players - 1):
            play(state, "dice 1,1")
            play(state, legal_strings(state)[0])
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_all_ten_keys_up_wins_at_once(players):
    state = play_to_nine_keys(players)
    assert state.observation(0)["keys"][0] == list(range(1, 10))
    play(state, "dice 4,6", "flip 10")
    assert state.current_player() == TERMINAL
    assert state.winners() == [0]
    loss = -1 / (players - 1)
    assert state.returns() == pytest.approx([1.0] + [loss] * (players - 1))
    assert state.legal_actions() == [] and state.chance_outcomes() == []


def test_returns_are_zero_while_playing():
    assert play_to_nine_keys().returns() == [0.0, 0.0]


def test_turn_cap_ends_the_game_as_a_draw():
    # The roll-off takes two rolls; each turn is one more roll.
    state = started(2, max_turns=4)
    play(state, "dice 1,2", "flip 3")
    assert not state.is_terminal()
    play(state, "dice 1,2", "flip 3")
    assert state.is_terminal()
    assert state.winners() == []
    assert state.returns() == [0.0, 0.0]
    assert "draw" in str(state)


def test_turn_cap_can_end_a_long_roll_off():
    state = started(2, max_turns=2)
    assert state.is_terminal() and state.returns() == [0.0, 0.0]


def test_max_game_length_bounds_every_game():
    game = started(3, max_turns=7).game
    assert game.max_game_length == 14
