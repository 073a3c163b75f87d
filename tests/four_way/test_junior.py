"""Junior rules: ADDITION or SCORE KEYS; both dice must be used except on a double."""

from tests.four_way.helpers import legal_strings, play, started


def test_example_five_and_three_is_five_and_three_or_eight():
    # "he may turn over the 5 key and the 3 key OR ... flip only the 8 key"
    state = play(started(2, "junior"), "dice 3,5")
    assert legal_strings(state) == ["flip 8", "flip 3+5"]


def test_score_keys_flips_both():
    state = play(started(2, "junior"), "dice 3,5", "flip 3+5")
    assert state.observation(0)["keys"] == [[3, 5], []]


def test_no_subtraction_multiplication_or_division():
    state = play(started(2, "junior"), "dice 2,4")
    assert legal_strings(state) == ["flip 6", "flip 2+4"]


def test_both_dice_must_be_used():
    # "if a 3 and a 5 are rolled and the player has already flipped over the 8 and 3 key ...
    # the player cannot flip the 5 key on that turn because both dice must be used."
    state = play(
        started(2, "junior"),
        "dice 3,5", "flip 8",
        "dice 1,1", "flip 2",
        "dice 1,2", "flip 3",
        "dice 1,1", "flip 1",
        "dice 3,5",
    )  # fmt: skip
    assert state.observation(0)["keys"] == [[3, 8], [1, 2]]
    assert legal_strings(state) == ["pass"]


def test_a_double_can_use_one_die():
    # "If two 5's are rolled and the 10 key has already been flipped, the player can still
    # flip over the 5 key."
    state = play(started(2, "junior"), "dice 5,5", "flip 10", "dice 1,1", "flip 2", "dice 5,5")
    assert legal_strings(state) == ["flip 5"]


def test_a_double_offers_the_sum_or_the_single_key():
    state = play(started(2, "junior"), "dice 2,2")
    assert legal_strings(state) == ["flip 2", "flip 4"]


def test_sum_over_ten_offers_only_score_keys():
    state = play(started(2, "junior"), "dice 4,6", "flip 10", "dice 1,1", "flip 2", "dice 4,6")
    assert legal_strings(state) == ["flip 4+6"]
