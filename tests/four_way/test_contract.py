"""4-Way CountDown against the game contract: conformance, errors, views, saving."""

import json

import numpy as np
import pytest

import tminus
from tests.four_way.helpers import legal_strings, play, started
from tminus import IllegalActionError
from tminus.core.conformance import check_conformance


@pytest.mark.parametrize("variant", ["adult", "junior"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_conformance_over_many_seeds(players, variant):
    game = tminus.load_game("four_way", players=players, variant=variant)
    report = check_conformance(game, seeds=range(300))
    assert report.games == 300
    assert report.deep_checks > 300


def test_conformance_when_the_turn_cap_ends_games():
    game = tminus.load_game("four_way", players=4, max_turns=30)
    check_conformance(game, seeds=range(200))


def test_unknown_game_names_the_known_ones():
    with pytest.raises(ValueError, match=r"unknown game 'nope'.*four_way"):
        tminus.load_game("nope")


def test_player_count_error_says_which_counts_are_allowed():
    with pytest.raises(ValueError, match=r"'players' of four_way must be one of 2, 3, 4; got 7"):
        tminus.load_game("four_way", players=7)


def test_unknown_parameter_is_named():
    with pytest.raises(
        ValueError, match=r"unknown parameter 'colour'.*max_turns, players, variant"
    ):
        tminus.load_game("four_way", colour="red")


def test_bad_variant_lists_the_variants():
    with pytest.raises(ValueError, match="'adult', 'junior'"):
        tminus.load_game("four_way", variant="expert")


def test_params_are_frozen_and_complete():
    game = tminus.load_game("four_way", players=3)
    assert dict(game.params) == {"players": 3, "variant": "adult", "max_turns": 5000}
    with pytest.raises(TypeError):
        game.params["players"] = 4


def test_illegal_action_names_the_legal_ones_and_changes_nothing():
    state = play(started(), "dice 3,5")
    before = (str(state), state.history())
    with pytest.raises(IllegalActionError, match=r"legal: 1 \(flip 2\), 7 \(flip 8\)"):
        state.apply_action(2)
    with pytest.raises(IllegalActionError):
        state.apply_action(1.5)
    assert (str(state), state.history()) == before


def test_a_move_string_that_is_not_possible_is_refused():
    state = play(started(), "dice 3,5")
    with pytest.raises(IllegalActionError, match="possible: flip 2, flip 8"):
        state.string_to_action("flip 3")


def test_observation_lists_each_seats_keys_sorted():
    state = play(started(3), "dice 3,5", "flip 8", "dice 2,4", "flip 2", "dice 1,1", "flip 1")
    play(state, "dice 3,5", "flip 2")
    obs = state.observation(1)
    assert obs["keys"] == [[2, 8], [2], [1]]
    assert obs["seat"] == 1
    json.dumps(obs)
    assert state.public_observation()["keys"] == obs["keys"]


def test_observation_of_a_seat_that_does_not_exist_is_refused():
    state = started()
    with pytest.raises(ValueError, match="seats are 0 to 1"):
        state.observation(2)


def test_observation_tensor_puts_the_observer_first():
    state = play(started(), "dice 3,5", "flip 8")
    mine, theirs = state.observation_tensor(0), state.observation_tensor(1)
    assert mine.shape == theirs.shape == (2 * 10 + 2 + 21 + 4,)
    assert mine[7] == 1 and theirs[10 + 7] == 1
    assert np.count_nonzero(mine[:20]) == 1


def test_save_and_load_rebuilds_the_state_by_replay():
    state = play(started(3, "junior"), "dice 3,5", "flip 3+5", "dice 5,6")
    text = tminus.save_state(state)
    data = json.loads(text)
    assert data["game"] == "four_way" and data["params"]["variant"] == "junior"
    loaded = tminus.load_state(text)
    assert str(loaded) == str(state)
    assert legal_strings(loaded) == legal_strings(state)


def test_loading_a_bad_save_is_a_clear_error():
    with pytest.raises(ValueError, match="not valid JSON"):
        tminus.load_state("{")
    with pytest.raises(ValueError, match="not a saved T-minus state"):
        tminus.load_state("[]")
    good = json.loads(tminus.save_state(started()))
    good["history"].append(99)
    with pytest.raises(IllegalActionError):
        tminus.load_state(json.dumps(good))


def test_history_strings_read_like_a_game_log():
    state = play(started(), "dice 5,6", "attack seat 1", "dice 6,6", "reset", "dice 1,1")
    assert state.history_strings() == [
        "die 6", "die 1", "dice 5,6", "attack seat 1", "dice 6,6", "reset", "dice 1,1",
    ]  # fmt: skip
