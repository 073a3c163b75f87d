"""Double six (reset, forced) and eleven (flip 1, or attack any opponent)."""

from tests.four_way.helpers import legal_strings, play, started


def test_double_six_forces_a_reset_of_all_your_keys():
    # "he must flip all of his keys back down and start over"
    state = play(started(), "dice 3,5", "flip 8", "dice 1,1", "flip 1", "dice 6,6")
    assert legal_strings(state) == ["reset"]
    play(state, "reset")
    assert state.observation(0)["keys"] == [[], [1]]


def test_double_six_with_no_keys_up_is_still_the_reset():
    state = play(started(), "dice 6,6")
    assert legal_strings(state) == ["reset"]


def test_eleven_is_key_one_or_an_attack_on_any_opponent():
    state = play(started(4), "dice 5,6")
    assert legal_strings(state) == ["flip 1", "attack seat 1", "attack seat 2", "attack seat 3"]


def test_attack_puts_all_the_chosen_opponents_keys_down():
    state = play(started(3), "dice 3,5", "flip 8", "dice 2,4", "flip 6", "dice 1,2", "flip 3")
    play(state, "dice 5,6", "attack seat 1")
    assert state.observation(0)["keys"] == [[8], [], [3]]


def test_attack_is_legal_even_when_key_one_is_up():
    state = play(started(), "dice 1,1", "flip 1", "dice 1,2", "flip 3", "dice 5,6")
    assert legal_strings(state) == ["attack seat 1"]


def test_attack_on_an_opponent_with_no_keys_up_is_allowed():
    state = play(started(), "dice 5,6")
    assert "attack seat 1" in legal_strings(state)


def test_junior_eleven_is_an_attack_or_both_keys_six_and_five():
    state = play(started(2, "junior"), "dice 5,6")
    assert legal_strings(state) == ["flip 5+6", "attack seat 1"]


def test_junior_double_six_is_a_reset():
    state = play(started(2, "junior"), "dice 6,6")
    assert legal_strings(state) == ["reset"]
