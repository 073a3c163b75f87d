"""Contents and Setup: the 110-card deck, the deal, the two discard piles, who starts."""

import pytest

from tests.three_two_one.helpers import (
    COUNTDOWN_HAND,
    deal,
    legal_strings,
    new_game,
    next_recipient,
    play,
)
from tminus import CHANCE
from tminus.games.three_two_one import rules


def test_the_deck_has_110_cards_in_the_printed_counts():
    # "0, 10: eight cards; 1, 9: nine; 2, 8: ten; 3, 4, 6 & 7: eleven; 5: twelve"
    expected = {0: 8, 10: 8, 1: 9, 9: 9, 2: 10, 8: 10, 3: 11, 4: 11, 6: 11, 7: 11, 5: 12}
    assert {v: rules.DECK[v] for v in rules.VALUES} == expected
    assert rules.DECK_SIZE == 110


def test_the_first_card_dealt_is_a_value_weighted_by_its_copies():
    state = new_game()
    assert state.current_player() == CHANCE
    outcomes = dict(state.chance_outcomes())
    assert outcomes == pytest.approx({v: rules.DECK[v] / 110 for v in rules.VALUES})


def test_each_dealt_card_is_weighted_by_the_copies_left():
    state = new_game()
    for _ in range(8):
        play(state, f"deal 0 to seat {next_recipient(state)}")
    outcomes = dict(state.chance_outcomes())
    assert 0 not in outcomes  # all eight zeros are out
    assert outcomes[5] == pytest.approx(12 / 102)
    with pytest.raises(ValueError, match="not possible"):
        play(state, f"deal 0 to seat {next_recipient(state)}")


@pytest.mark.parametrize(
    "players, size", [(2, 12), (3, 12), (4, 12), (5, 12), (6, 12), (7, 10), (8, 10)]
)
def test_hand_size_depends_on_the_number_of_players(players, size):
    # "2-6 players: 12 cards each; 7-8 players: 10 cards each"
    state = new_game(players)
    while state.observation(0)["phase"] == "deal":
        state.apply_action(state.chance_outcomes()[-1][0])
    assert state.observation(0)["hand_sizes"] == [size] * players
    assert state.observation(0)["draw_pile_size"] == 110 - size * players


def test_cards_are_dealt_one_at_a_time_around_the_table_from_the_starter():
    state = new_game(3)
    recipients = []
    for _ in range(6):
        recipients.append(next_recipient(state))
        state.apply_action(state.chance_outcomes()[0][0])
    assert recipients == [0, 1, 2, 0, 1, 2]


def test_the_top_two_cards_start_the_two_discard_piles():
    # "Flip the top two cards face up, one on either side of the draw pile"
    state = new_game(2)
    hands = {0: COUNTDOWN_HAND, 1: [2] * 10 + [3] * 2}
    deal(state, hands, left=7, right=9)
    obs = state.observation(1)
    assert obs["discard_piles"] == [[7], [9]]
    assert obs["draw_pile_size"] == 110 - 24 - 2
    assert obs["hand"] == [2] * 10 + [3] * 2


def test_turning_up_a_card_is_a_chance_node_seen_by_all():
    state = new_game(2)
    while state.observation(0)["phase"] == "deal":
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.current_player() == CHANCE
    assert state.observation(0)["phase"] == "turn up"
    assert state.action_to_string_for(1, 4) == "turn up 4 left"
    assert state.action_to_string_for(None, 4) == "turn up 4 left"


def test_the_youngest_player_seat_0_starts_the_first_round():
    state = deal(new_game(4), {0: COUNTDOWN_HAND, 1: [2] * 10 + [3] * 2,
                                2: [3] * 9 + [4] * 3, 3: [4] * 8 + [6] * 4})  # fmt: skip
    assert state.current_player() == 0
    assert "countdown" in legal_strings(state)
