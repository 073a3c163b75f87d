"""Rulebook PLAY 1-2: keys down, the roll-off for who goes first, play to the left."""

import pytest

from tests.four_way.helpers import new_game, play
from tminus import CHANCE


@pytest.mark.parametrize("players", [2, 3, 4])
def test_all_keys_start_down(players):
    # "Players press down all 10 keys on their sides of the CountDown unit."
    assert new_game(players).observation(0)["keys"] == [[]] * players


def test_roll_off_is_one_die_per_player_with_exact_probabilities():
    state = new_game(3)
    assert state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    assert [state.action_to_string(a) for a, _ in outcomes] == [f"die {f}" for f in range(1, 7)]
    assert all(p == pytest.approx(1 / 6) for _, p in outcomes)


def test_highest_roll_begins():
    # "Player with the highest roll will begin the game."
    state = play(new_game(3), "die 2", "die 5", "die 4")
    assert state.current_player() == CHANCE
    assert state.public_observation()["phase"] == "roll"
    play(state, "dice 1,2")
    assert state.current_player() == 1


def test_tied_highest_roll_again_and_only_they_roll():
    state = play(new_game(4), "die 6", "die 3", "die 6", "die 6")
    roll_off = state.public_observation()["roll_off"]
    assert roll_off == {"contenders": [0, 2, 3], "rolls": []}
    play(state, "die 2", "die 5", "die 5")  # seats 2 and 3 tie again
    assert state.public_observation()["roll_off"]["contenders"] == [2, 3]
    play(state, "die 1", "die 4", "dice 1,2")
    assert state.current_player() == 3


@pytest.mark.parametrize("players", [2, 3, 4])
def test_play_moves_to_the_left(players):
    # "Play then moves to the left": seat order, wrapping round.
    state = play(new_game(players), *["die 1"] * (players - 1), "die 6")
    seen = []
    for _ in range(players + 1):
        play(state, "dice 1,2")
        seen.append(state.current_player())
        play(state, state.action_to_string(state.legal_actions()[0]))
    starter = players - 1
    assert seen == [(starter + i) % players for i in range(players + 1)]
