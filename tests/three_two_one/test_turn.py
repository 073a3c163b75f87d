"""On a player's turn: discard a set of one number onto a pile, then draw from the other
pile or the draw pile; reshuffling when the draw pile runs out."""

import pytest

from tests.three_two_one.helpers import deal, legal_strings, new_game, play, turn
from tminus import CHANCE, IllegalActionError

HAND_0 = [2, 2, 3, 4, 4, 4, 6, 7, 8, 9, 9, 10]
HAND_1 = [0, 1, 1, 3, 3, 5, 6, 6, 7, 8, 8, 10]


def started(left=5, right=6):
    return deal(new_game(2), {0: HAND_0, 1: HAND_1}, left=left, right=right)


def test_a_turn_offers_every_set_of_one_number_onto_either_pile():
    # "Discard at least one card onto either discard pile. ... Multiple cards of the same
    # number are discarded together": any number of the copies, never mixed numbers.
    moves = legal_strings(started())
    assert "discard 4 left" in moves and "discard 4 right" in moves
    assert "discard 4,4 left" in moves and "discard 4,4,4 right" in moves
    assert "discard 4,4,4,4 left" not in moves  # only three 4s in hand
    assert not any(m.startswith("discard 5") for m in moves)  # no 5 in hand
    discards = [m for m in moves if m.startswith("discard")]
    # 9 numbers held: 2 (x2), 3, 4 (x3), 6, 7, 8, 9 (x2), 10 -> 1+1+1+... sets, two piles each
    assert len(discards) == 2 * (2 + 1 + 3 + 1 + 1 + 1 + 2 + 1)
    assert "countdown" not in moves and "blastoff" not in moves


def test_mixed_numbers_cannot_be_discarded_together():
    state = started()
    with pytest.raises(IllegalActionError):
        state.string_to_action("discard 2,3 left")


def test_discarding_moves_the_cards_onto_the_chosen_pile_top_last():
    state = play(started(), "discard 4,4,4 right")
    obs = state.observation(0)
    assert obs["discard_piles"] == [[5], [6, 4, 4, 4]]
    assert obs["hand"] == [2, 2, 3, 6, 7, 8, 9, 9, 10]
    assert obs["hand_sizes"] == [9, 12]
    assert state.current_player() == 0  # the same player now draws


def test_the_draw_is_from_the_other_pile_or_the_draw_pile_never_the_same_pile():
    # "Draw a card from the other discard pile -or- risk drawing from the top of the draw pile."
    state = play(started(), "discard 10 left")
    assert legal_strings(state) == ["draw right", "draw pile"]
    state = play(started(), "discard 10 right")
    assert legal_strings(state) == ["draw left", "draw pile"]


def test_drawing_from_the_other_pile_takes_its_top_card_and_passes_the_turn():
    state = play(started(left=5, right=0), "discard 10 left", "draw right")
    obs = state.observation(1)
    assert obs["discard_piles"] == [[5, 10], []]
    assert obs["hand_sizes"] == [12, 12]
    assert state.hand(0) == [0, 2, 2, 3, 4, 4, 4, 6, 7, 8, 9, 9]
    assert state.current_player() == 1


def test_drawing_from_the_draw_pile_is_a_chance_node_weighted_by_the_cards_left():
    state = play(started(left=5, right=6), "discard 10 left", "draw pile")
    assert state.current_player() == CHANCE
    outcomes = dict(state.chance_outcomes())
    # Left in the draw pile: the deck less both hands and the two turned-up cards.
    assert outcomes[10] == pytest.approx((8 - 2) / 84)
    assert outcomes[0] == pytest.approx((8 - 1) / 84)
    assert outcomes[5] == pytest.approx((12 - 2) / 84)
    play(state, "seat 0 draws 0")
    assert state.observation(0)["draw_pile_size"] == 83
    assert 0 in state.hand(0) and state.current_player() == 1


def test_an_empty_discard_pile_must_take_the_discard():
    # "If a discard pile is empty, they must discard there."
    state = play(started(left=5, right=0), "discard 10 left", "draw right")
    assert state.observation(1)["discard_piles"][1] == []
    moves = legal_strings(state)
    assert "discard 10 right" in moves
    assert not any(m.endswith("left") for m in moves if m.startswith("discard"))


def test_after_discarding_onto_an_empty_pile_the_other_pile_still_offers_its_top():
    state = play(started(left=5, right=0), "discard 10 left", "draw right")
    play(state, "discard 8 right")
    assert legal_strings(state) == ["draw left", "draw pile"]


def test_the_draw_pile_is_the_only_draw_when_the_other_pile_is_empty():
    # Since a discard must go onto an empty pile, the other pile is never empty in play;
    # the rule is still there: the pile is emptied by hand here.
    state = play(started(), "discard 10 left")
    state = state.with_position({"piles": [state.discard_piles()[0], []]})
    assert legal_strings(state) == ["draw pile"]


def test_the_last_card_can_never_be_discarded():
    # Two cards of one number: only one may go (emptying the hand is Blastoff! only).
    state = started()
    two_nines = [0] * 9 + [2, 0]
    state = state.with_position({"hands": [two_nines, *state.position_dict()["hands"][1:]]})
    assert legal_strings(state) == ["discard 9 left", "discard 9 right", "blastoff"]


def test_hands_never_shrink_below_two_cards_in_play():
    state = started()
    turn(state, [4, 4, 4], "right")  # 12 - 3 + 1 = 10
    assert state.observation(0)["hand_sizes"][0] == 10


def test_reshuffle_turns_both_piles_but_their_tops_into_a_new_draw_pile():
    # "Draw pile empty when a card must come from it: shuffle both discard piles, except
    # their top cards, into a new draw pile." The draw pile is emptied here by hand.
    state = started(left=5, right=6)
    play(state, "discard 4,4,4 left")
    taken = state.position_dict()["draw"]
    state = state.with_position({"piles": [[5, 1, 4, 4, 4], [6, 2, 2, 7]], "draw": [0] * 11})
    assert legal_strings(state) == ["draw right", "draw pile"]
    play(state, "draw pile")
    obs = state.observation(0)
    assert obs["discard_piles"] == [[4], [7]]
    assert obs["draw_pile_size"] == 7
    assert obs["reshuffled"] == [1, 2, 2, 4, 4, 5, 6]
    assert dict(state.chance_outcomes()) == pytest.approx(
        {1: 1 / 7, 2: 2 / 7, 4: 2 / 7, 5: 1 / 7, 6: 1 / 7}
    )
    play(state, "seat 0 draws 2")
    assert state.observation(0)["draw_pile_size"] == 6
    assert sum(taken) > 0  # the cards removed by hand were really there


def test_no_reshuffle_while_the_draw_pile_has_cards():
    state = play(started(), "discard 4,4,4 left", "draw pile")
    assert state.observation(0)["discard_piles"] == [[5, 4, 4, 4], [6]]
    assert state.observation(0)["reshuffled"] is None


def test_nothing_left_to_draw_ends_the_round_with_no_declarer():
    # "Nothing left to draw at all: the round ends with no declarer." Unreachable with 110
    # cards, so the piles are emptied by hand: the other pile is empty, the draw pile too,
    # and the pile discarded onto has only the cards just discarded as its top.
    state = started().with_position({"draw": [0] * 11, "piles": [[], []]})
    play(state, "discard 10 left")
    last = state.observation(0)["last_round"]
    assert last["declarer"] is None and last["declaration"] == "nothing to draw"
    # Scored by plain ranks: 68 - 10 = 58 against 58, a tie for the lowest: 3 points each.
    assert last["totals"] == [58, 58]
    assert last["points"] == [3, 3]
    assert state.observation(0)["round"] == 2


def test_illegal_moves_name_the_legal_ones_and_change_nothing():
    state = started()
    before = (str(state), state.history())
    with pytest.raises(IllegalActionError, match=r"legal: .*discard 2 left"):
        state.apply_action(state.string_to_action("discard 4,4,4 left") + 10_000)
    with pytest.raises(IllegalActionError, match="possible:"):
        state.string_to_action("draw pile")
    assert (str(state), state.history()) == before
