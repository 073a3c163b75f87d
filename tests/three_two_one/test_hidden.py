"""Hidden information: what each seat sees, per-seat move names, and resample_hidden."""

import json

import numpy as np
import pytest

from tests.three_two_one.helpers import COUNTDOWN_HAND, deal, new_game, play, turn
from tminus.games.three_two_one import rules

HAND_0 = [2, 2, 3, 4, 4, 4, 6, 7, 8, 9, 9, 10]
HAND_1 = [0, 1, 1, 3, 3, 5, 6, 6, 7, 8, 8, 10]
OTHER = [2] * 8 + [3] * 4
HAND_1B = [0, 0, 1, 2, 3, 5, 5, 6, 7, 9, 9, 10]  # another hand of the same size


def started(hand_1=HAND_1, players=2, **hands):
    return deal(new_game(players), {0: HAND_0, 1: hand_1, **hands}, left=5, right=6)


def test_observation_has_the_required_keys_and_shows_only_the_own_hand():
    state = started()
    obs = state.observation(0)
    assert obs["hand"] == HAND_0  # sorted values
    assert obs["hand_sizes"] == [12, 12]
    assert obs["discard_piles"] == [[5], [6]]
    assert obs["draw_pile_size"] == 84
    assert obs["scores"] == [0, 0] and obs["round"] == 1
    assert state.observation(1)["hand"] == HAND_1
    json.dumps(obs)
    assert "hand" not in state.public_observation()


def test_another_seats_hidden_cards_do_not_change_what_a_seat_sees():
    a, b = started(HAND_1), started(HAND_1B)
    assert a.observation(0) == b.observation(0)
    assert a.public_observation() == b.public_observation()
    assert np.array_equal(a.observation_tensor(0), b.observation_tensor(0))
    assert a.observation(1) != b.observation(1)


def test_discard_piles_are_public_top_card_last():
    state = turn(started(), [4, 4, 4], "right")
    play(state, "discard 8,8 right")
    assert state.observation(0)["discard_piles"] == [[5, 4, 4, 4], [8, 8]]
    assert state.public_observation()["discard_piles"] == [[5, 4, 4, 4], [8, 8]]


def test_a_card_taken_from_a_discard_pile_is_known_to_be_in_that_hand_until_discarded():
    state = turn(started(), [4, 4, 4], "right")  # seat 0 takes the 6
    assert state.observation(1)["known_cards"] == [[6], []]
    turn(state, [8, 8], "left", pile="right")  # seat 1 takes seat 0's 4
    assert state.observation(0)["known_cards"] == [[6], [4]]
    turn(state, [6, 6], 3, pile="right")  # seat 0 sheds both 6s; the known one is gone
    assert state.observation(1)["known_cards"] == [[], [4]]


def test_dealt_and_drawn_cards_are_named_only_to_the_seat_that_gets_them():
    state = new_game(2)
    assert state.action_to_string_for(0, 7) == "deal 7 to seat 0"
    assert state.action_to_string_for(1, 7) == "deal a card to seat 0"
    assert state.action_to_string_for(None, 7) == "deal a card to seat 0"
    state = play(started(), "discard 10 left", "draw pile")
    assert state.action_to_string_for(0, 3) == "seat 0 draws 3"
    assert state.action_to_string_for(1, 3) == "seat 0 draws a card"
    assert state.action_to_string_for(None, 3) == "seat 0 draws a card"


def test_moves_are_public():
    state = started()
    action = state.string_to_action("discard 9,9 left")
    assert state.action_to_string_for(1, action) == "discard 9,9 left"


def test_every_hand_is_revealed_at_the_end_of_the_game():
    state = new_game(2)
    for _ in range(5):
        starter = state.observation(0)["starter"]
        other = 1 - starter
        deal(state, {starter: COUNTDOWN_HAND, other: OTHER}, left=5, right=6)
        play(state, "countdown")
    assert state.is_terminal()
    assert state.public_observation()["last_round"]["hands"] == [COUNTDOWN_HAND, OTHER]


def test_observation_of_a_seat_that_does_not_exist_is_refused():
    state = started()
    with pytest.raises(ValueError, match="seats are 0 to 1"):
        state.observation(2)
    with pytest.raises(ValueError):
        state.resample_hidden(5, np.random.default_rng(0))


# -- resample_hidden ---------------------------------------------------------------------------
def all_cards(state):
    """Every card of the deck, wherever it is: hands, piles and the draw pile."""
    counts = state.draw_pile_counts()
    for seat in range(state.game.num_players):
        for value in state.hand(seat):
            counts[value] += 1
    for pile in state.observation(0)["discard_piles"]:
        for value in pile:
            counts[value] += 1
    return counts


def test_resample_keeps_what_the_seat_knows_and_redeals_the_rest():
    state = turn(started_three(), [4, 4, 4], "right")
    rng = np.random.default_rng(1)
    others_hands = set()
    for _ in range(30):
        world = state.resample_hidden(0, rng)
        assert world.observation(0) == state.observation(0)
        assert world.public_observation() == state.public_observation()
        assert all_cards(world) == list(rules.DECK)
        assert world.hand(0) == state.hand(0)
        others_hands.add((tuple(world.hand(1)), tuple(world.hand(2))))
    assert len(others_hands) > 20  # really redrawn


def started_three():
    hand_2 = [0, 0, 1, 2, 3, 5, 5, 7, 7, 9, 10, 10]
    return deal(new_game(3), {0: HAND_0, 1: HAND_1, 2: hand_2}, left=5, right=6)


def test_resample_keeps_cards_others_were_seen_to_pick_up():
    state = turn(started(), [4, 4, 4], "right")  # seat 0 takes the 6 in sight of seat 1
    rng = np.random.default_rng(2)
    for _ in range(30):
        world = state.resample_hidden(1, rng)
        assert 6 in world.hand(0)
        assert world.hand(1) == HAND_1


def test_resample_after_a_reshuffle_keeps_the_draw_pile_within_the_reshuffled_cards():
    state = started()
    play(state, "discard 4,4,4 left")
    state = state.with_position({"piles": [[5, 1, 4, 4, 4], [6, 2, 2, 7]], "draw": [0] * 11})
    play(state, "draw pile", "seat 0 draws 2")  # reshuffled: 1 2 2 4 4 5 6; seat 0 took a 2
    turn(state, [8, 8], 4, pile="right")  # seat 1 draws a card unseen by seat 0
    allowed = [0, 1, 1, 0, 2, 1, 1, 0, 0, 0, 0]  # the reshuffled cards less seat 0's 2
    rng = np.random.default_rng(3)
    seen_piles = set()
    for _ in range(40):
        world = state.resample_hidden(0, rng)
        pile = world.draw_pile_counts()
        assert sum(pile) == 5
        assert all(p <= a for p, a in zip(pile, allowed, strict=True))
        assert world.observation(0) == state.observation(0)
        seen_piles.add(tuple(pile))
    assert len(seen_piles) > 1


def test_resample_leaves_a_finished_game_as_it_is():
    state = new_game(2, max_turns=1)
    deal(state, {0: COUNTDOWN_HAND, 1: OTHER})
    play(state, "countdown")
    assert state.is_terminal()
    world = state.resample_hidden(1, np.random.default_rng(0))
    assert str(world) == str(state)


def test_render_shows_the_own_hand_and_only_card_backs_for_others():
    state = started()
    text = state.render(0)
    assert "total 68" in text and text.count("▮") == 12
    assert "you" in text and "seat 1" in text
    spectator = state.render(None)
    assert "total" not in spectator and spectator.count("▮") == 24


def test_observation_tensor_has_a_fixed_size_and_puts_the_observer_first():
    state = started_three()
    sizes = {state.observation_tensor(s).shape for s in range(3)}
    assert sizes == {(11 + 3 * 16 + 4 * 11 + 1 + 6,)}
    mine = state.observation_tensor(0)
    assert mine[4] == pytest.approx(3 / 12)  # three 4s in seat 0's hand
    assert state.observation_tensor(1)[0] == pytest.approx(1 / 12)  # seat 1's single 0
