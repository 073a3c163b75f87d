"""Count Down against the game contract: conformance, errors, the board file, views."""

import json

import numpy as np
import pytest

import tminus
import tminus.core.serialize
from tests.count_down.helpers import ASTRONAUTS, arrive, legal_strings, play, started
from tminus import IllegalActionError
from tminus.core.conformance import check_conformance
from tminus.core.registry import rules_text
from tminus.games.count_down.actions import SELL_PART
from tminus.games.count_down.data import load_board, parse_board


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_conformance_over_many_seeds(players):
    # Short games (a 30-turn cap) so that many seeds stay quick; longer ones below.
    game = tminus.load_game("count_down", players=players, max_turns=30)
    report = check_conformance(game, seeds=range(150), deep_checks_per_game=2)
    assert report.games == 150 and report.deep_checks > 150


@pytest.mark.parametrize("players", [2, 4, 6])
def test_conformance_in_whole_games_with_the_default_turn_cap(players):
    game = tminus.load_game("count_down", players=players)
    report = check_conformance(game, seeds=range(2000, 2002), deep_checks_per_game=2)
    assert report.max_length > 1000


def test_the_rules_version_says_the_saturn_v_resale_changed():
    # Version 2: everyone met has a say, forced sales cannot be blocked, third players meet
    # a visitor in a forbidden zone, the Saturn V resells at cost, a strike hits the centre.
    # Version 3: a Saturn V bought whole is sold whole to players too, partners are a team
    # (declared), the ball's weights are a parameter.
    assert tminus.load_game("count_down").rules_version == 3


# A 2-player game to the Saturn V: Ann (1200) gets a free stage 2 on her way, Bob a free
# capsule; Bob leaves the Saturn V, then Ann buys it whole where Bob stands.
TO_THE_SATURN_V = [
    "ball 12", "ball 11",  # Ann takes centre 1 with 1200, Bob centre 2 with 1100
    "ball 12", "forward",  # Ann to Stage 2 (a free stage 2)
    "ball 12", "forward",  # Bob to Capsule (a free capsule)
    "ball 9", "decline",  # Ann to Return to Earth
    "ball 2", "decline",  # Bob to the Saturn V
    "ball 9", "buy Saturn V",  # Ann to the Saturn V: the meeting with Bob, Ann's say
]  # fmt: skip
# Under rules version 2 Ann could then offer Bob one part of the rocket she bought whole:
# this was the action of "offer seat 1: stage 1 for 200" (and is still its number).
V2_PART_OF_A_WHOLE_ROCKET = 813


def saturn_v_history():
    state = play(tminus.load_game("count_down", players=2).new_initial_state(), *TO_THE_SATURN_V)
    assert state.phase() == "meeting" and state.current_player() == 0
    return state


def test_a_version_2_save_that_sold_a_part_of_a_whole_saturn_v_is_refused_clearly():
    state = saturn_v_history()
    space = state.game.space
    part_sale = space.proposal(1, space.templates.index((SELL_PART, 0, 200)))
    assert part_sale == V2_PART_OF_A_WHOLE_ROCKET  # the numbers of v2's moves stand
    assert part_sale not in state.legal_actions()
    saved = {**tminus.core.serialize.state_to_dict(state), "rules_version": 2}
    saved["history"] = [*state.history(), part_sale]
    at = len(state.history())
    with pytest.raises(
        ValueError,
        match=rf"saved under rules version 2 of count_down, which are now version 3: "
        rf"history\[{at}\] no longer replays",
    ):
        tminus.core.serialize.state_from_dict(saved)


def test_a_version_2_save_that_kept_to_the_new_rulings_loads_as_it_was():
    state = saturn_v_history()
    play(state, "offer seat 1: stage 2 for 100", "refuse")  # a spare part: sold on its own
    saved = {**tminus.core.serialize.state_to_dict(state), "rules_version": 2}
    loaded = tminus.core.serialize.state_from_dict(saved)
    assert loaded.history() == state.history() and str(loaded) == str(state)


def test_parameters_are_checked():
    with pytest.raises(ValueError, match=r"'players' of count_down must be one of 2, 3, 4, 5, 6"):
        tminus.load_game("count_down", players=7)
    with pytest.raises(ValueError, match=r"'arrest_max' of count_down"):
        tminus.load_game("count_down", arrest_max=13)
    with pytest.raises(ValueError, match=r"'board' of count_down must be 'default' or"):
        tminus.load_game("count_down", board=3)
    with pytest.raises(ValueError, match=r"board file 'nope.toml' does not exist"):
        tminus.load_game("count_down", board="nope.toml")


def test_a_users_own_board_file_is_loaded(tmp_path):
    text = load_board().source
    assert text == "board.toml"
    default = (
        __import__("importlib.resources").resources.files("tminus.games.count_down") / "board.toml"
    ).read_text()
    own = tmp_path / "board.toml"
    own.write_text(default.replace("saturn_price = 500", "saturn_price = 450"))
    game = tminus.load_game("count_down", board=str(own))
    assert game.board.saturn_price == 450


def test_the_balls_weights_come_from_the_board_file(tmp_path):
    default = (
        __import__("importlib.resources").resources.files("tminus.games.count_down") / "board.toml"
    ).read_text()
    own = tmp_path / "heavy.toml"
    uniform = "weights = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]"
    own.write_text(default.replace(uniform, "weights = [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 2]"))
    state = tminus.load_game("count_down", board=str(own)).new_initial_state()
    assert state.chance_outcomes() == [(9, 0.25), (10, 0.25), (11, 0.5)]
    assert dict(tminus.load_game("count_down").new_initial_state().chance_outcomes()) == {
        face: pytest.approx(1 / 12) for face in range(12)
    }


def board_dict():
    import tomllib
    from importlib.resources import files

    return tomllib.loads(files("tminus.games.count_down").joinpath("board.toml").read_text())


def test_a_bad_board_names_the_entry_and_the_problem():
    data = board_dict()
    data["photo_cards"][1]["value"] = "lots"
    with pytest.raises(ValueError, match=r"photo_cards\[1\] 'Astronauts'\.value: .*integer"):
        parse_board(data)
    data = board_dict()
    data["control_cards"][2]["photos"][0] = "Sputnik"
    with pytest.raises(ValueError, match=r"control_cards\[2\] \(centre 3\): unknown .*'Sputnik'"):
        parse_board(data)
    data = board_dict()
    data["track"][5] = {"kind": "teleport"}
    with pytest.raises(ValueError, match=r"track\[5\]\.kind"):
        parse_board(data)
    data = board_dict()
    data["track"][1] = {"kind": "photo", "photo": "Venus"}
    with pytest.raises(ValueError, match=r"track\[1\] \(photo\): unknown photo card 'Venus'"):
        parse_board(data)
    data = board_dict()
    data["surprise_cards"][0]["amount"] = 205
    with pytest.raises(ValueError, match=r"surprise_cards\[0\] 'Government grant'.*multiple"):
        parse_board(data)
    data = board_dict()
    data["photo_cards"][8]["copies"] = 0
    with pytest.raises(ValueError, match=r"photo_cards\[8\] 'Stage separation'\.copies"):
        parse_board(data)


def test_a_board_that_is_not_toml_is_refused(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("this is = = not toml")
    with pytest.raises(ValueError, match="not valid TOML"):
        tminus.load_game("count_down", board=str(bad))


def test_illegal_action_names_the_legal_ones_and_changes_nothing():
    state = arrive(started(), ASTRONAUTS)
    before = (str(state), state.history())
    with pytest.raises(IllegalActionError, match=r"legal: 4 \(decline\), 19 \(buy photo Astr"):
        state.apply_action(0)
    assert (str(state), state.history()) == before


def test_a_seat_that_does_not_exist_is_refused():
    with pytest.raises(ValueError, match="seats are 0 to 3"):
        started().observation(4)


def test_observations_are_json_and_show_money_parts_and_photos():
    state = play(arrive(started(), ASTRONAUTS), "buy photo Astronauts")
    obs = state.observation(2)
    json.dumps(obs)
    assert obs["centres"][0]["photos"] == {"Astronauts": 1}
    assert obs["centres"][0]["money"] == 1050
    assert obs["seat"] == 2 and obs["centre"] == 3


def test_save_and_load_rebuild_the_state():
    state = play(started(), "ball 6", "surprise: Press conference", "ball 11", "backward")
    loaded = tminus.load_state(tminus.save_state(state))
    assert str(loaded) == str(state) and legal_strings(loaded) == legal_strings(state)


def test_render_draws_the_track_and_each_centre():
    state = play(arrive(started(), ASTRONAUTS), "buy photo Astronauts")
    text = state.render(0)
    assert "centre 1" in text and "Astronauts" in text and "track:" in text
    assert "agent cards" in text


def test_the_bench_and_cli_know_the_game():
    assert "count_down" in tminus.list_games()
    assert "T-minus rulings" in rules_text("count_down")


def test_observation_tensor_puts_the_observers_centre_first_and_hides_agents():
    state = play(arrive(started(), ASTRONAUTS), "buy photo Astronauts")
    mine, theirs = state.observation_tensor(0), state.observation_tensor(1)
    assert mine.shape == theirs.shape
    n, length, photos = 4, 64, len(state.game.board.photo_names)
    money = n * length
    assert mine[money] == pytest.approx(1.05) and theirs[money] == pytest.approx(1.1)
    # Centre 1's Astronauts card: first block for seat 0, last block for seat 1.
    astronauts = 1 + state.game.board.photo_names.index("Astronauts")
    assert mine[money + astronauts] == 1
    assert theirs[money + 3 * (7 + photos) + astronauts] == 1
    hidden = state.resample_hidden(1, np.random.default_rng(0))
    assert np.array_equal(hidden.observation_tensor(1), theirs)


def test_a_position_field_lands_in_the_record_that_keeps_it():
    state = started()
    changed = state.with_position(
        {"money": [10, 20, 30, 40], "lots": [3], "deal": [0, 1, 5], "debts": [[0, -1, 100]]}
    )
    assert [held.money for held in changed.holdings] == [10, 20, 30, 40]
    assert changed.auction.lots == [3]
    assert changed.meeting.deal == (0, 1, 5)  # kept as the rules keep it: never changed
    assert changed.debts == [(0, -1, 100)]
    assert changed.position_dict()["deal"] == [0, 1, 5]
    assert [held.money for held in state.holdings] == [1200, 1100, 1000, 900]


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"money": [0, 0, 0]}, "money: 3 entries, not 4"),
        ({"pos": [0, 0, 0, 99]}, "pos: 99 is not one of"),
        ({"deal": 7}, "deal: 7 is not shaped like"),
        ({"count_sum": "many"}, "count_sum: 'many' is not shaped like"),
        ({"zone_owner": 1}, "no position field zone_owner"),  # the field is fz_owner
    ],
)
def test_a_bad_position_field_is_refused_and_changes_nothing(changes, message):
    state = started()
    before = state.position_dict()
    with pytest.raises(ValueError, match=message):
        state.with_position(changes)
    assert state.position_dict() == before
