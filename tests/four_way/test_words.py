"""4-Way CountDown in words: every kind of move has a button label and a log line by name."""

import pytest

import tminus
from tests.four_way.helpers import new_game, play, started, with_keys
from tminus.games.four_way.game import FourWayGame
from tminus.games.words_check import check_words

NAMES = ["Ann", "Bob", "Cy", "Dee"]


def line(state, move, viewer=None):
    return state.narrate(state.string_to_action(move), NAMES[: state.game.num_players], viewer)


def labels(state):
    return [state.move_label(a, NAMES[: state.game.num_players]) for a in state.legal_actions()]


def test_the_roll_off_says_who_rolls_and_then_who_starts():
    state = new_game(3)
    assert line(state, "die 4") == "Ann rolls 4 to see who starts"
    play(state, "die 4", "die 6")
    assert line(state, "die 2") == "Cy rolls 2 to see who starts: Bob starts"
    assert line(state, "die 6") == "Cy rolls 6 to see who starts: Bob and Cy tie and roll again"


def test_dice_lines_name_the_mover_and_explain_the_special_rolls():
    state = started(2)  # Ann won the roll-off
    assert line(state, "dice 2,4") == "Ann rolls 2 and 4"
    assert line(state, "dice 5,6") == "Ann rolls 6 and 5: eleven"
    assert line(state, "dice 6,6") == "Ann rolls double six: every key must go back down"
    state = with_keys(state, 0b0000001110, 0)  # keys 2, 3 and 4 up: 1 and 3 give nothing
    assert line(state, "dice 1,3") == "Ann rolls 1 and 3: no key can be flipped"


def test_flips_say_how_the_dice_make_the_key():
    state = play(started(2), "dice 2,4")
    assert labels(state) == ["Flip 2 (4 − 2)", "Flip 6 (2 + 4)", "Flip 8 (2 × 4)"]
    assert line(state, "flip 6") == "Ann flips 6 (2 + 4)"
    state = play(started(2), "dice 3,6")
    assert "Flip 2 (6 ÷ 3)" in labels(state)


def test_junior_flips_a_double_or_both_dice():
    state = play(started(2, "junior"), "dice 3,3")
    assert labels(state) == ["Flip 3 (double 3)", "Flip 6 (3 + 3)"]
    state = play(started(2, "junior"), "dice 3,5")
    assert labels(state) == ["Flip 8 (3 + 5)", "Flip 3 and 5"]
    assert line(state, "flip 3+5") == "Ann flips 3 and 5"


def test_eleven_attacks_a_player_by_name():
    state = play(started(3), "dice 5,6")
    assert labels(state) == ["Flip 1 (6 − 5)", "Attack Bob", "Attack Cy"]
    assert line(state, "attack seat 2") == (
        "Ann calls eleven and attacks Cy, whose keys all go back down"
    )


def test_pass_and_reset():
    state = play(with_keys(started(2), 0b0000001110, 0), "dice 1,3")
    assert labels(state) == ["Pass"]
    assert line(state, "pass") == "Ann has no key to flip and passes"
    state = play(started(2), "dice 6,6")
    assert labels(state) == ["Put every key down"]
    assert line(state, "reset") == "Ann puts every key back down (double six)"


def test_the_winning_flip_and_the_turn_cap_say_how_the_game_ends():
    state = play(with_keys(started(2), 0b1111011111, 0), "dice 1,5")  # all but key 6 up
    assert line(state, "flip 6") == "Ann flips 6 (1 + 5): Ann wins the game"
    state = play(new_game(2, max_turns=3), "die 6", "die 1", "dice 2,4")
    assert line(state, "flip 6") == ("Ann flips 6 (2 + 4): the turn limit ends the game in a draw")


@pytest.mark.parametrize("params", FourWayGame.configurations())
def test_random_games_read_well_with_any_names(params):
    assert check_words(tminus.load_game("four_way", **params), range(3)) > 100


def test_bad_requests_are_clear_errors():
    state = started(2)
    with pytest.raises(ValueError, match="2 names are needed"):
        state.narrate(0, ["Ann"])
    with pytest.raises(ValueError, match="seat 5 does not exist"):
        state.narrate(0, NAMES[:2], viewer=5)
    with pytest.raises(ValueError, match="actions are 0 to 30"):
        state.narrate(99, NAMES[:2])
    with pytest.raises(ValueError, match="nobody decides here"):
        state.move_label(0, NAMES[:2])  # the dice are to be rolled
    with pytest.raises(ValueError, match="illegal action 9"):
        play(started(2), "dice 2,4").narrate(9, NAMES[:2])  # flip 10 is not possible on 2, 4
