"""Ending the round: Countdown! and Blastoff! at the start of a turn; every hand revealed."""

from tests.three_two_one.helpers import (
    BLASTOFF_HAND,
    COUNTDOWN_HAND,
    deal,
    legal_strings,
    new_game,
    play,
)
from tminus import CHANCE, IllegalActionError

OTHER = [2] * 8 + [3] * 4


def test_countdown_is_offered_with_a_total_of_5():
    # "if the face value of a player's hand totals 5 or less, they can ... declare Countdown!"
    state = deal(new_game(2), {0: [0] * 8 + [1] * 3 + [2], 1: OTHER})
    assert "countdown" in legal_strings(state)


def test_countdown_is_not_offered_with_a_total_of_6():
    state = deal(new_game(2), {0: [0] * 8 + [1] * 2 + [2] * 2, 1: OTHER})
    assert "countdown" not in legal_strings(state)


def test_declaring_is_optional():
    state = deal(new_game(2), {0: COUNTDOWN_HAND, 1: OTHER})
    moves = legal_strings(state)
    assert "countdown" in moves and "discard 1,1 left" in moves


def test_declarations_only_at_the_start_of_a_turn():
    # "First, at the start of a turn": not between the discard and the draw.
    state = play(deal(new_game(2), {0: COUNTDOWN_HAND, 1: OTHER}), "discard 1 left")
    assert legal_strings(state) == ["draw right", "draw pile"]
    try:
        state.string_to_action("countdown")
    except IllegalActionError:
        pass
    else:
        raise AssertionError("countdown offered in the middle of a turn")


def test_blastoff_is_offered_when_every_card_shows_the_same_number():
    # "if a player's hand consists entirely of cards with the same number, they can discard
    # their entire hand and declare Blastoff!"
    state = deal(new_game(2), {0: BLASTOFF_HAND, 1: OTHER}, left=9, right=9)
    moves = legal_strings(state)
    assert "blastoff" in moves and "countdown" not in moves
    assert "discard 5,5,5,5,5,5,5,5,5,5,5 left" in moves  # all but the last card


def test_blastoff_is_not_offered_with_two_numbers():
    state = deal(new_game(2), {0: [5] * 11 + [4], 1: OTHER}, left=9, right=9)
    assert "blastoff" not in legal_strings(state)


def test_a_hand_of_zeros_may_declare_either():
    state = deal(new_game(2), {0: OTHER, 1: COUNTDOWN_HAND})
    hands = state.position_dict()["hands"]
    hands[0] = [0] * 11
    hands[0][0] = 2
    state = state.with_position({"hands": hands})
    assert legal_strings(state)[-2:] == ["countdown", "blastoff"]


def test_a_single_card_allows_only_blastoff():
    # RULINGS: "With a single card left no discard is possible, so Blastoff is the only move."
    # No turn leaves one card (the last card is never discarded), so it is set by hand.
    state = deal(new_game(2), {0: OTHER, 1: COUNTDOWN_HAND})
    hands = state.position_dict()["hands"]
    hands[0] = [0] * 11
    hands[0][3] = 1
    state = state.with_position({"hands": hands})
    assert legal_strings(state) == ["blastoff"]


def test_a_declaration_ends_the_round_at_once_and_reveals_every_hand():
    # "In both scenarios, no further cards are played. After a round ends, all players must
    # reveal their cards and calculate the total face values."
    state = deal(new_game(3), {0: COUNTDOWN_HAND, 1: OTHER, 2: [3] * 7 + [4] * 5})
    play(state, "countdown")
    assert state.current_player() == CHANCE  # the next round's deal
    for seat in (0, 1, 2, None):
        obs = state.observation(seat) if seat is not None else state.public_observation()
        last = obs["last_round"]
        assert last["hands"] == [COUNTDOWN_HAND, OTHER, [3] * 7 + [4] * 5]
        assert last["totals"] == [4, 28, 41]
        assert last["declarer"] == 0 and last["declaration"] == "countdown"
    assert state.observation(1)["round"] == 2
    assert state.observation(1)["hand_sizes"] == [0, 0, 0]
    assert state.observation(1)["discard_piles"] == [[], []]


def test_blastoff_discards_the_whole_hand_and_ends_the_round():
    state = deal(new_game(2), {0: BLASTOFF_HAND, 1: OTHER}, left=9, right=9)
    play(state, "blastoff")
    last = state.observation(1)["last_round"]
    assert last["declaration"] == "blastoff" and last["points"] == [3, 2]
    assert state.observation(1)["phase"] == "deal"
