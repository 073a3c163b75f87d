"""Sputnik against the game contract: conformance, errors, views, saving."""

import json

import numpy as np
import pytest

import tminus
from tests.sputnik.helpers import legal_strings, play, started
from tminus import IllegalActionError
from tminus.core.conformance import check_conformance

CONFIGURATIONS = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 5},
    {"players": 6},
    {"players": 2, "rockets_per_player": 2},
    {"players": 2, "rockets_per_player": 3},
    {"players": 3, "rockets_per_player": 2},
    {"players": 4, "teams": True},
]


@pytest.mark.parametrize("params", CONFIGURATIONS, ids=lambda p: "-".join(map(str, p.values())))
def test_conformance_over_many_seeds(params):
    game = tminus.load_game("sputnik", **params)
    report = check_conformance(game, seeds=range(200), deep_checks_per_game=4)
    assert report.games == 200
    assert report.deep_checks > 600


@pytest.mark.parametrize("params", [{"players": 6, "radius": 2}, {"players": 2, "radius": 5}])
def test_conformance_on_other_board_sizes(params):
    check_conformance(tminus.load_game("sputnik", **params), seeds=range(100))


def test_conformance_when_the_turn_cap_ends_games():
    check_conformance(tminus.load_game("sputnik", players=3, max_turns=5), seeds=range(100))


def test_action_ids_are_cell_based_and_fixed_per_parameters():
    game = tminus.load_game("sputnik", players=2)
    assert game.num_distinct_actions == 3 * 37  # move, help, remove: one per cell each
    game = tminus.load_game("sputnik", players=2, rockets_per_player=3, radius=4)
    assert game.num_distinct_actions == (2 * 3 + 1) * 61
    state = started(2)
    d2 = state.game.board.by_name["d2"]
    assert state.string_to_action("move d2") == d2
    play(state, "move d2")
    assert state.string_to_action("remove d4") == 2 * 37 + state.game.board.by_name["d4"]


def test_params_are_frozen_and_complete():
    game = tminus.load_game("sputnik", players=3)
    assert dict(game.params) == {
        "players": 3, "radius": 3, "rockets_per_player": 1, "teams": False, "max_turns": 1000,
    }  # fmt: skip
    with pytest.raises(TypeError):
        game.params["players"] = 4


def test_bad_parameters_name_the_allowed_values():
    with pytest.raises(ValueError, match=r"'players' of sputnik must be one of 2, 3, 4, 5, 6"):
        tminus.load_game("sputnik", players=7)
    with pytest.raises(ValueError, match=r"'teams' of sputnik must be one of False, True"):
        tminus.load_game("sputnik", players=4, teams="yes")


def test_illegal_action_names_the_legal_ones_and_changes_nothing():
    state = started(2)
    before = (str(state), state.history())
    with pytest.raises(IllegalActionError, match=r"legal: .*\(move e1\), .*\(move d2\)"):
        state.apply_action(6)  # e2: two steps away
    with pytest.raises(IllegalActionError):
        state.apply_action(3 * 37)
    with pytest.raises(IllegalActionError):
        state.string_to_action("remove d4")  # a removal before moving
    assert (str(state), state.history()) == before


def test_observation_shows_the_board_the_rockets_and_what_may_be_taken():
    state = play(started(2), "move d2", "remove d4")
    obs = state.observation(1)
    json.dumps(obs)
    assert obs["seat"] == 1 and obs["current_player"] == 1 and obs["phase"] == "move"
    names = obs["cell_names"]
    assert obs["cells"][names.index("d4")] == "empty"
    assert obs["cells"][names.index("d1")] == "base of seat 0"
    assert obs["rockets"][0] == {"seat": 0, "cell": "d2", "base": "d1", "left_base": True}
    assert obs["rockets"][1]["left_base"] is False
    assert "c7" not in obs["removable"] and "e1" in obs["removable"]
    assert state.public_observation() == {k: v for k, v in obs.items() if k != "seat"}


def test_observation_of_a_seat_that_does_not_exist_is_refused():
    with pytest.raises(ValueError, match="seats are 0 to 1"):
        started(2).observation(2)


def test_observation_tensor_puts_the_observer_first():
    state = play(started(2), "move d2", "remove d4")
    n, cells = 2, 37
    mine, theirs = state.observation_tensor(0), state.observation_tensor(1)
    assert mine.shape == theirs.shape == ((3 + 2 * n) * cells + 2 + n,)
    d2 = state.game.board.by_name["d2"]
    rockets_mine = mine[(3 + n) * cells : (3 + 2 * n) * cells].reshape(n, cells)
    rockets_theirs = theirs[(3 + n) * cells : (3 + 2 * n) * cells].reshape(n, cells)
    assert rockets_mine[0, d2] == 1 and rockets_theirs[1, d2] == 1
    assert np.count_nonzero(mine[: 2 * cells]) == cells - 2  # all but the two bases


def test_save_and_load_rebuilds_the_state_by_replay():
    state = play(started(3, rockets_per_player=2, first=1), "move g1-f1", "remove d4")
    loaded = tminus.load_state(tminus.save_state(state))
    assert str(loaded) == str(state)
    assert legal_strings(loaded) == legal_strings(state)


def test_history_strings_read_like_a_game_log():
    state = play(started(2, first=1), "move d6", "remove d4", "move d2", "remove d5")
    assert state.history_strings() == [
        "lot: seat 1 starts", "move d6", "remove d4", "move d2", "remove d5",
    ]  # fmt: skip


def test_state_key_ignores_the_path_but_not_the_position():
    a = play(started(2), "move d2", "remove a4", "move d6", "remove a5")
    b = play(started(2), "move d2", "remove a5", "move d6", "remove a4")
    assert a.history() != b.history() and a.state_key() == b.state_key()
    play(a, "move d3")
    assert a.state_key() != b.state_key()
