"""Adult rules, PLAY 3: two dice become one key by +, -, x or exact division."""

import math

import pytest

from tests.four_way.helpers import legal_strings, play, started
from tminus import CHANCE
from tminus.games.four_way.game import DICE
from tminus.games.four_way.rules import adult_keys


def test_two_dice_outcomes_are_exact():
    state = play(
        started(),
    )
    assert state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 21
    for action, p in outcomes:
        a, b = DICE[action]
        assert state.action_to_string(action) == f"dice {a},{b}"
        ordered = sum(1 for x in range(1, 7) for y in range(1, 7) if sorted((x, y)) == [a, b])
        assert p == pytest.approx(ordered / 36)
    assert math.fsum(p for _, p in outcomes) == pytest.approx(1.0)


def test_example_1_two_and_four():
    # Add 6, subtract 2, multiply 8, divide 2.
    state = play(started(), "dice 2,4")
    assert legal_strings(state) == ["flip 2", "flip 6", "flip 8"]


def test_example_2_five_and_three_has_only_two_options():
    # "If a player rolls a 5 and 3 there are only two options": 8 and 2.
    state = play(started(), "dice 3,5")
    assert legal_strings(state) == ["flip 2", "flip 8"]


def test_flipping_puts_the_key_up():
    state = play(started(), "dice 3,5", "flip 8")
    assert state.observation(1)["keys"] == [[8], []]


def test_a_key_already_up_cannot_be_flipped_again():
    state = play(started(), "dice 3,5", "flip 8", "dice 1,1", "flip 1", "dice 3,5")
    assert legal_strings(state) == ["flip 2"]


def test_no_option_means_the_turn_passes():
    state = play(started(), "dice 1,1", "flip 1", "dice 1,2", "flip 1", "dice 1,1", "flip 2")
    # Seat 1 has 1 up; rolling 1,1 offers keys 2 and 1; then seat 0 (1 and 2 up) rolls 1,1.
    play(state, "dice 1,2", "flip 3", "dice 1,1")
    assert state.current_player() == 0
    assert legal_strings(state) == ["pass"]
    play(state, "pass")
    assert state.current_player() == CHANCE
    assert state.observation(0)["keys"] == [[1, 2], [1, 3]]


@pytest.mark.parametrize(
    "a,b,keys",
    [
        (1, 1, [1, 2]),
        (3, 3, [1, 6, 9]),
        (5, 5, [1, 10]),
        (2, 5, [3, 7, 10]),
        (4, 6, [2, 10]),
        (1, 6, [5, 6, 7]),
    ],
)
def test_each_arithmetic_option_within_keys_one_to_ten(a, b, keys):
    assert adult_keys(a, b) == keys
    state = play(started(), f"dice {a},{b}")
    assert legal_strings(state) == [f"flip {k}" for k in keys]


# Every roll but the special ones (6,6 and 5,6), with its keys worked out by hand from
# "add, subtract, multiply or divide the two dice" (only keys 1 to 10, divisions exact).
KEYS_OF_EVERY_ROLL = {
    (1, 1): [1, 2], (1, 2): [1, 2, 3], (1, 3): [2, 3, 4], (1, 4): [3, 4, 5],
    (1, 5): [4, 5, 6], (1, 6): [5, 6, 7], (2, 2): [1, 4], (2, 3): [1, 5, 6],
    (2, 4): [2, 6, 8], (2, 5): [3, 7, 10], (2, 6): [3, 4, 8], (3, 3): [1, 6, 9],
    (3, 4): [1, 7], (3, 5): [2, 8], (3, 6): [2, 3, 9], (4, 4): [1, 8], (4, 5): [1, 9],
    (4, 6): [2, 10], (5, 5): [1, 10],
}  # fmt: skip


def test_every_roll_offers_exactly_the_arithmetic_keys():
    assert set(KEYS_OF_EVERY_ROLL) | {(6, 6), (5, 6)} == set(DICE)
    for (a, b), keys in KEYS_OF_EVERY_ROLL.items():
        state = play(started(), f"dice {a},{b}")
        assert legal_strings(state) == [f"flip {k}" for k in keys], (a, b)
