"""Why can't I? The rule that forbids a 3-2-1 Countdown move, said to the player, who is
told nothing of the cards they cannot see."""

import numpy as np
import pytest

import tminus
from tests.core.why_not_checks import action_named, reasons_agree_with_legality, sampled_states
from tests.three_two_one.helpers import deal, new_game, play
from tminus.games.three_two_one.actions import NUM_ACTIONS

HAND_0 = [2, 2, 3, 4, 4, 4, 6, 7, 8, 9, 9, 10]  # totals 68
HAND_1 = [0, 1, 1, 3, 3, 5, 6, 6, 7, 8, 8, 10]


def started(hand_0=HAND_0, hand_1=HAND_1, left=5, right=6):
    """Seat 0 to start its turn, both piles started."""
    return deal(new_game(2), {0: hand_0, 1: hand_1}, left=left, right=right)


def counts(values):
    hand = [0] * 11
    for value in values:
        hand[value] += 1
    return hand


def with_hand(state, values):
    """Seat 0's hand replaced (the cards come from, or go back to, the draw pile)."""
    position = state.position_dict()
    hands, draw = position["hands"], position["draw"]
    draw = [d + h - n for d, h, n in zip(draw, hands[0], counts(values), strict=True)]
    hands[0] = counts(values)
    return state.with_position({"hands": hands, "draw": draw})


def why(state, move: str) -> str:
    return state.why_not(action_named(state, move))


def test_countdown_needs_a_total_of_five_or_less():
    assert why(started(), "countdown") == (
        "You may declare Countdown! only when your hand totals 5 or less; yours totals 68."
    )


def test_blastoff_needs_one_number():
    assert why(started(), "blastoff") == (
        "You may declare Blastoff! only when every card in your hand shows the same number; "
        "yours shows 2, 3, 4, 6, 7, 8, 9 and 10."
    )


def test_only_cards_in_hand_are_discarded():
    state = started()
    assert why(state, "discard 5 left") == "You have no 5s in your hand to discard."
    assert why(state, "discard 4,4,4,4 right") == (
        "You have only three 4s: you cannot discard four 4s."
    )
    assert why(state, "discard 3,3 left") == "You have only a 3: you cannot discard two 3s."


def test_never_the_last_card():
    state = with_hand(started(), [4, 4, 4])
    assert why(state, "discard 4,4,4 left") == (
        "You may never discard your last card: emptying your hand is Blastoff! only "
        "(declare it instead)."
    )


def test_a_single_card_can_only_blast_off():
    state = with_hand(started(), [3])  # a total of 3, but no Countdown! with one card
    single = (
        "With a single card left no discard is possible (your last card is never discarded): "
        "declare Blastoff!"
    )
    assert why(state, "countdown") == single
    assert why(state, "discard 3 left") == single


def test_an_empty_pile_must_be_discarded_on():
    state = started().with_position({"piles": [[5], []]})
    assert why(state, "discard 4 left") == (
        "If a discard pile is empty, you must discard there: the right pile is empty."
    )
    assert state.why_not(action_named(state, "discard 4 right")) is None


def test_discard_first_then_draw():
    assert why(started(), "draw left") == (
        "First discard at least one card; then draw, from the other discard pile or the draw pile."
    )


def test_the_draw_comes_from_the_other_pile_or_the_draw_pile():
    state = play(started(), "discard 4 left")
    assert why(state, "draw left") == (
        "Draw from the other discard pile: you have just discarded on the left pile."
    )
    assert why(state, "discard 9 right") == "You have discarded this turn: now draw a card."
    assert why(state, "countdown") == (
        "Countdown! and Blastoff! are declared at the start of a turn, before discarding."
    )


def test_an_empty_pile_or_draw_pile_cannot_be_drawn_from():
    state = play(started(), "discard 4 left").with_position({"piles": [[5, 4], []]})
    assert why(state, "draw right") == "The right discard pile is empty: draw from the draw pile."
    position = state.position_dict()
    drained = state.with_position(
        {"draw": [0] * 11, "piles": [[4], [6]], "hands": position["hands"]}
    )
    assert why(drained, "draw pile") == (
        "The draw pile is empty and there is nothing to shuffle into it: take the top card "
        "of the right pile."
    )


def test_while_the_cards_are_dealt():
    assert new_game(2).why_not(0) == (
        "The cards are being dealt: play starts once every hand is dealt."
    )
    state = play(started(), "discard 4 left", "draw pile")
    assert state.why_not(0) == "The card drawn from the draw pile comes first."


@pytest.mark.parametrize("players", [2, 3, 5, 8])
def test_a_reason_exactly_for_each_move_that_is_not_legal(players):
    game = tminus.load_game("three_two_one", players=players, rounds=1, max_turns=300)
    for state in sampled_states(game, 80, seed=players, rate=0.05):
        reasons_agree_with_legality(state)


@pytest.mark.parametrize("players", [2, 4, 7])
def test_a_reason_tells_nothing_the_player_cannot_see(players):
    """The reasons are the same in every state the player to move cannot tell from this
    one: the other hands and the draw pile redrawn."""
    game = tminus.load_game("three_two_one", players=players, rounds=1, max_turns=300)
    rng = np.random.default_rng(players)
    for state in sampled_states(game, 60, seed=10 + players, rate=0.05):
        seat = state.current_player()
        if seat < 0:
            continue
        reasons = [state.why_not(a) for a in range(NUM_ACTIONS)]
        for _ in range(2):
            other = state.resample_hidden(seat, rng)
            assert [other.why_not(a) for a in range(NUM_ACTIONS)] == reasons


def test_no_reason_names_a_card_only_others_hold():
    # Bob holds every 0, 1 and 10 Ann has not seen: no reason Ann reads names them,
    # except about a move of her own that names the number.
    hand_0 = [2, 2, 3, 4, 4, 4, 6, 7, 8, 9, 9, 9]
    hand_1 = [0] * 8 + [1] * 2 + [10] * 2
    state = started(hand_0, hand_1)
    secrets = {"0", "1", "10"}
    for action, reason in reasons_agree_with_legality(state).items():
        move = state.action_to_string(action)
        said = set(reason.replace(",", " ").replace(";", " ").replace(".", " ").split())
        named = said & secrets
        assert named <= set(move.replace(",", " ").split()), (move, reason)
