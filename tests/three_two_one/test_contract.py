"""3-2-1 Countdown against the game contract: conformance, parameters, errors, saving."""

import json

import pytest

import tminus
from tests.three_two_one.helpers import COUNTDOWN_HAND, deal, legal_strings, new_game, play, turn
from tminus import IllegalActionError
from tminus.core.conformance import check_conformance
from tminus.games.three_two_one.game import NUM_ACTIONS, move_to_string

SEEDS = 300
CHUNKS = 2  # so that pytest -n auto can spread the seeds over cores

# With 6 to 8 players a game of random moves is long (5 rounds of ~500 actions), so those
# run one round; 2 and 3 players play their whole first-to-3 game.
CONFORMANCE = [
    (2, {}),
    (3, {}),
    (6, {"rounds": 1}),
    (7, {"rounds": 1}),
    (8, {"rounds": 1}),
]


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("players, params", CONFORMANCE)
def test_conformance_over_many_seeds(players, params, chunk):
    game = tminus.load_game("three_two_one", players=players, **params)
    size = SEEDS // CHUNKS
    report = check_conformance(
        game, seeds=range(chunk * size, (chunk + 1) * size), deep_checks_per_game=0.25
    )
    assert report.games == size
    assert report.deep_checks > 3 * size


@pytest.mark.parametrize("players", [4, 5, 8])
def test_conformance_with_default_rounds(players):
    game = tminus.load_game("three_two_one", players=players)
    report = check_conformance(game, seeds=range(15), deep_checks_per_game=0.25)
    assert report.games == 15


def test_conformance_when_the_turn_cap_ends_games():
    game = tminus.load_game("three_two_one", players=3, max_turns=40)
    report = check_conformance(game, seeds=range(100))
    assert report.max_length <= game.max_game_length


def test_player_count_error_says_which_counts_are_allowed():
    with pytest.raises(ValueError, match=r"'players' of three_two_one must be one of 2, 3, 4"):
        tminus.load_game("three_two_one", players=9)


def test_rounds_must_be_a_small_positive_integer():
    with pytest.raises(ValueError, match="'rounds' of three_two_one"):
        tminus.load_game("three_two_one", rounds=0)
    assert tminus.load_game("three_two_one", rounds=3).rounds == 3


def test_params_are_complete_with_defaults():
    game = tminus.load_game("three_two_one")
    assert dict(game.params) == {"players": 4, "rounds": 5, "max_turns": 20000}
    assert game.game_type.information == "imperfect"


def test_the_rules_version_says_the_start_rotation_and_blastoff_summary_changed():
    # Version 2: extra rounds rotate the start among the tied; a Blastoff! has no total.
    assert tminus.load_game("three_two_one").rules_version == 2


def test_move_strings_read_like_the_table_talk():
    state = deal(new_game(2), {0: COUNTDOWN_HAND, 1: [2] * 8 + [3] * 4})
    assert legal_strings(state) == [
        "discard 0 left", "discard 0 right", "discard 0,0 left", "discard 0,0 right",
        *[f"discard {','.join(['0'] * k)} {p}" for k in range(3, 9) for p in ("left", "right")],
        "discard 1 left", "discard 1 right", "discard 1,1 left", "discard 1,1 right",
        "discard 1,1,1 left", "discard 1,1,1 right", "discard 1,1,1,1 left",
        "discard 1,1,1,1 right", "countdown",
    ]  # fmt: skip
    with pytest.raises(ValueError, match="actions are 0 to 268"):
        move_to_string(NUM_ACTIONS)


def test_a_bad_action_is_refused_without_change():
    state = deal(new_game(2), {0: COUNTDOWN_HAND, 1: [2] * 8 + [3] * 4})
    before = (str(state), state.history())
    for action in (-1, NUM_ACTIONS, 264, 266):
        with pytest.raises(IllegalActionError):
            state.apply_action(action)
    with pytest.raises(IllegalActionError):
        state.apply_action("countdown")
    assert (str(state), state.history()) == before


def test_save_and_load_rebuild_a_game_with_hidden_cards():
    state = deal(new_game(3), {0: COUNTDOWN_HAND, 1: [2] * 8 + [3] * 4, 2: [4] * 11 + [6]})
    turn(state, [1, 1], 7)
    text = tminus.save_state(state)
    assert json.loads(text)["game"] == "three_two_one"
    loaded = tminus.load_state(text)
    assert str(loaded) == str(state)
    assert legal_strings(loaded) == legal_strings(state)


def test_history_strings_read_like_a_game_log():
    state = new_game(2)
    play(state, "deal 3 to seat 0", "deal 10 to seat 1")
    assert state.history_strings() == ["deal 3 to seat 0", "deal 10 to seat 1"]
