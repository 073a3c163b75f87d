"""3-2-1 Countdown in words: every kind of move by name, and a card dealt or drawn named
only to the player who gets it."""

import numpy as np
import pytest

import tminus
from tests.three_two_one.helpers import (
    BLASTOFF_HAND,
    COUNTDOWN_HAND,
    deal,
    new_game,
    play,
)
from tminus.games.three_two_one import words
from tminus.games.three_two_one.game import ThreeTwoOneGame
from tminus.games.words_check import WordsError, check_words

NAMES = ["Ann", "Bob", "Cy"]
HAND_0 = [2, 2, 3, 4, 4, 4, 6, 7, 8, 9, 9, 10]
HAND_1 = [0, 1, 1, 3, 3, 5, 6, 6, 7, 8, 8, 10]
HAND_1B = [0, 0, 1, 2, 3, 5, 5, 6, 7, 9, 9, 10]  # another hand of the same size
NO_0_OR_5 = [1, 1, 2, 2, 3, 3, 6, 6, 7, 8, 8, 10]


def started(hand_0=HAND_0, hand_1=HAND_1):
    return deal(new_game(2), {0: hand_0, 1: hand_1}, left=4, right=8)


def line(state, move, viewer=None, reveal=False):
    action = state.string_to_action(move)
    return state.narrate(action, NAMES[: state.game.num_players], viewer, reveal=reveal)


def labels(state):
    return [state.move_label(a, NAMES[:2]) for a in state.legal_actions()]


def test_a_dealt_card_is_named_only_to_the_player_who_gets_it():
    state = new_game(2)
    assert line(state, "deal 7 to seat 0", viewer=0) == "Ann is dealt a 7"
    assert line(state, "deal 8 to seat 0", viewer=0) == "Ann is dealt an 8"
    assert line(state, "deal 7 to seat 0", viewer=1) == "A card is dealt to Ann"
    assert line(state, "deal 7 to seat 0") == "A card is dealt to Ann"  # a spectator
    assert line(state, "deal 7 to seat 0", reveal=True) == "Ann is dealt a 7"


def test_the_discard_piles_start_face_up():
    state = new_game(2)
    while state.next_recipient() is not None:  # the deal
        state.apply_action(state.chance_outcomes()[0][0])
    assert line(state, "turn up 5 left") == "A 5 is turned up to start the left pile"
    play(state, "turn up 5 left")
    assert line(state, "turn up 8 right") == "An 8 is turned up to start the right pile"


def test_discards_and_draws_say_what_moved_where():
    state = started()
    assert "Discard three 4s on the left pile" in labels(state)
    assert "Discard a 10 on the right pile" in labels(state)
    assert line(state, "discard 4,4,4 left") == "Ann discards three 4s on the left pile"
    play(state, "discard 4,4,4 left")
    assert labels(state) == ["Take the 8 from the right pile", "Draw from the draw pile"]
    assert line(state, "draw right") == "Ann takes the 8 from the right pile"
    assert line(state, "draw pile") == "Ann draws from the draw pile"


def test_a_drawn_card_is_named_only_to_the_player_who_draws_it():
    state = play(started(), "discard 10 left", "draw pile")
    assert line(state, "seat 0 draws 3", viewer=0) == "Ann draws a 3"
    assert line(state, "seat 0 draws 3", viewer=1) == "Ann draws a card"
    assert line(state, "seat 0 draws 3") == "Ann draws a card"
    assert line(state, "seat 0 draws 3", reveal=True) == "Ann draws a 3"


def test_drawing_from_an_empty_draw_pile_says_the_piles_are_reshuffled():
    state = play(started(), "discard 4,4,4 left")
    state = state.with_position({"draw": [0] * 11})  # emptied by hand, as in test_turn
    assert line(state, "draw pile") == (
        "Ann draws from the draw pile: it is empty, so both discard piles but their top "
        "cards are shuffled into a new one"
    )


def test_declarations():
    state = started(COUNTDOWN_HAND, NO_0_OR_5)
    assert labels(state)[-1] == "Declare Countdown!"
    assert line(state, "countdown") == "Ann declares Countdown!"
    state = started(BLASTOFF_HAND, NO_0_OR_5)
    assert labels(state)[-1] == "Declare Blastoff!"
    assert line(state, "blastoff") == "Ann declares Blastoff!"


def test_what_another_player_holds_never_changes_what_a_seat_reads():
    # Two tables that differ only in Bob's hand: Ann reads every move alike, Bob does not.
    a, b = started(hand_1=HAND_1), started(hand_1=HAND_1B)
    for move in ("discard 4,4,4 left", "draw pile"):
        assert line(a, move, viewer=0) == line(b, move, viewer=0)
        play(a, move), play(b, move)
    assert line(a, "seat 0 draws 3", viewer=1) == line(b, "seat 0 draws 3", viewer=1)
    play(a, "seat 0 draws 3"), play(b, "seat 0 draws 3")
    assert line(a, "discard 10 right", viewer=0) == line(b, "discard 10 right", viewer=0)


@pytest.mark.parametrize("params", ThreeTwoOneGame.configurations()[:4])
def test_random_games_read_well_and_hide_the_cards(params):
    game = tminus.load_game("three_two_one", **params)
    assert check_words(game, range(2), max_steps=150) == 300


def test_the_check_catches_a_dealt_card_shown_to_everyone(monkeypatch):
    def leaky(state, value, names, viewer, reveal):
        return f"{names[state.next_recipient()]} is dealt {value}"

    monkeypatch.setattr(words, "deal", leaky)
    with pytest.raises(WordsError, match="look alike"):
        check_words(tminus.load_game("three_two_one", players=2), [0], max_steps=5)


def test_the_check_catches_a_drawn_card_shown_to_everyone(monkeypatch):
    def leaky(state, value, names, viewer, reveal):
        return f"{names[state.mover()]} draws {value}"

    monkeypatch.setattr(words, "card_drawn", leaky)
    with pytest.raises(WordsError, match="look alike"):
        check_words(tminus.load_game("three_two_one", players=2), [0], max_steps=80)


def test_resampled_worlds_read_alike_to_the_seat_that_cannot_tell_them_apart():
    state = play(started(), "discard 10 left", "draw pile")
    rng = np.random.default_rng(0)
    for viewer in (0, 1):
        other = state.resample_hidden(viewer, rng)
        for value, _ in other.chance_outcomes():
            if state.is_legal(value):
                assert other.narrate(value, NAMES[:2], viewer) == state.narrate(
                    value, NAMES[:2], viewer
                )
