"""Rules v3: the ball gives 1-12, uniform *(option: weights, a game parameter that an online
table can set too)*. The parameter ``ball_weights``: "board" (the board file's weights,
uniform on T-minus's board), "uniform", or 12 numbers >= 0, not all 0, for the faces 1-12."""

import asyncio
import json
import random

import pytest

import tminus
from tests.count_down.helpers import new_game, play
from tminus.core.game import CHANCE
from tminus.core.playout import sample_chance
from tminus.games.count_down import phases

SKEWED = [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]  # a 1 twelve times as likely as a 12
HEAVY = [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 2]  # 10, 11 and 12 only
BALL_PHASES = {phases.ROLL_OFF, phases.ROLL, phases.ARREST_ROLL, phases.COUNT_ROLL}


def probabilities(weights):
    total = sum(weights)
    return {face - 1: w / total for face, w in enumerate(weights, 1) if w}


def chi_squared(counts, probs, draws):
    """Pearson's statistic of ``counts`` (face -> draws) against ``probs``."""
    return sum((counts.get(face, 0) - draws * p) ** 2 / (draws * p) for face, p in probs.items())


# Above 31.26 a fit to 11 degrees of freedom has less than a 0.1% chance; the draws below
# are made from fixed seeds, so the test is exact, not flaky.
CRITICAL_11 = 31.26


def test_the_default_ball_is_uniform():
    game = tminus.load_game("count_down")
    assert game.params["ball_weights"] == "board"
    assert dict(game.new_initial_state().chance_outcomes()) == pytest.approx(
        {face: 1 / 12 for face in range(12)}
    )


@pytest.mark.parametrize("players", [2, 6])
def test_every_ball_roll_of_the_game_uses_the_weights(players):
    """The rolls for capital, for moves, for arrests and for the countdown all roll the
    weighted ball: over random games the faces fall as the weights say (chi-squared)."""
    game = tminus.load_game("count_down", players=players, max_turns=300, ball_weights=SKEWED)
    probs = probabilities(SKEWED)
    rng = random.Random(7)
    counts: dict[int, int] = {}
    seen = set()
    while sum(counts.values()) < 6000:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                outcomes = state.chance_outcomes()
                action = sample_chance(outcomes, rng.random())
                if state._phase in BALL_PHASES:
                    assert dict(outcomes) == pytest.approx(probs)
                    seen.add(state._phase)
                    counts[action] = counts.get(action, 0) + 1
                state.apply_action(action)
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    draws = sum(counts.values())
    assert chi_squared(counts, probs, draws) < CRITICAL_11
    assert chi_squared(counts, probabilities([1] * 12), draws) > 10 * CRITICAL_11
    assert {phases.ROLL_OFF, phases.ROLL} <= seen


def test_faces_without_weight_never_come_up():
    state = new_game(4, ball_weights=HEAVY)
    assert state.chance_outcomes() == [(9, 0.25), (10, 0.25), (11, 0.5)]
    assert state.is_legal(11) and not state.is_legal(8)
    play(state, "ball 12", "ball 11", "ball 10", "ball 10", "ball 12", "ball 11")
    assert state.phase() == "roll" and state.chance_outcomes() == [(9, 0.25), (10, 0.25), (11, 0.5)]


def test_the_weights_may_be_any_non_negative_numbers():
    halves = [0.5] * 6 + [1.5] * 6
    game = tminus.load_game("count_down", ball_weights=halves)
    assert game.params["ball_weights"] == tuple(halves)
    assert dict(game.new_initial_state().chance_outcomes()) == pytest.approx(probabilities(halves))


def test_the_weights_from_the_command_line_are_numbers_between_commas():
    game = tminus.load_game("count_down", ball_weights="0,0,0,0,0,0,0,0,0,1,1,2")
    assert game.params["ball_weights"] == tuple(HEAVY)
    assert game.ball_weights == tuple(HEAVY)


def board_file(tmp_path, weights):
    from importlib.resources import files

    default = files("tminus.games.count_down").joinpath("board.toml").read_text()
    uniform = "weights = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]"
    own = tmp_path / "own.toml"
    own.write_text(default.replace(uniform, f"weights = {weights}"))
    return str(own)


def test_the_parameter_outweighs_a_board_files_weights(tmp_path):
    own = board_file(tmp_path, HEAVY)
    assert tminus.load_game("count_down", board=own).ball_weights == tuple(HEAVY)
    chosen = tminus.load_game("count_down", board=own, ball_weights=SKEWED)
    assert dict(chosen.new_initial_state().chance_outcomes()) == pytest.approx(
        probabilities(SKEWED)
    )
    uniform = tminus.load_game("count_down", board=own, ball_weights="uniform")
    assert uniform.ball_weights == (1,) * 12


@pytest.mark.parametrize(
    "weights",
    [
        [1] * 11,  # too few
        [1] * 13,  # too many
        [1] * 11 + [-1],  # negative
        [0] * 12,  # all zero
        [1] * 11 + ["x"],  # not a number
        [1] * 11 + [True],  # a truth value is not a weight
        [1] * 11 + [None],
        [1] * 11 + [float("nan")],
        [1] * 11 + [float("inf")],
        "heavy",  # not a name the parameter knows
        "1,2,3",
        "1,1,1,1,1,1,1,1,1,1,1,x",
        7,
        {"1": 2},
        None,
    ],
)
def test_malformed_weights_are_refused_naming_the_parameter(weights):
    with pytest.raises(ValueError, match=r"parameter 'ball_weights' of count_down must be"):
        tminus.load_game("count_down", ball_weights=weights)


def test_the_error_says_what_is_allowed():
    with pytest.raises(ValueError) as refused:
        tminus.load_game("count_down", ball_weights=[0] * 12)
    message = str(refused.value)
    assert "12 numbers" in message and "not all 0" in message and "'uniform'" in message


# -- an online table -----------------------------------------------------------------------
def online(params):
    """An online table made as the server makes one from a browser's JSON body."""
    pytest.importorskip("sqlalchemy")
    from tempfile import TemporaryDirectory

    from tminus.server.service import GameService
    from tminus.server.storage import Store

    body = json.loads(json.dumps({"game": "count_down", "params": params}))
    seats = [{"kind": "person"} for _ in range(params.get("players", 4))]

    async def create():
        with TemporaryDirectory() as folder:
            store = await Store(f"sqlite:///{folder}/games.db").open()
            try:
                service = GameService(store)
                created = await service.create(body["game"], body["params"], seats)
                stored = await store.load(created.table.id)
                return created.table, stored
            finally:
                await store.close()

    return asyncio.run(create())


def test_an_online_table_rolls_the_ball_with_the_weights_it_was_made_with():
    from tminus.server.fairness import draw_chance

    table, stored = online({"players": 2, "ball_weights": SKEWED})
    assert stored.params["ball_weights"] == SKEWED  # stored as JSON: a list
    assert list(table.game.params["ball_weights"]) == SKEWED
    # The chance outcomes the server draws from its committed seed, at many log positions.
    outcomes = table.state.chance_outcomes()
    draws = 6000
    counts: dict[int, int] = {}
    for index in range(draws):
        face = draw_chance(table.record.seed, index, outcomes)
        counts[face] = counts.get(face, 0) + 1
    assert chi_squared(counts, probabilities(SKEWED), draws) < CRITICAL_11
    assert chi_squared(counts, probabilities([1] * 12), draws) > 10 * CRITICAL_11
    # The game rebuilt from the store rolls the same ball.
    again = tminus.load_game("count_down", **stored.params)
    assert again.new_initial_state().chance_outcomes() == outcomes


def test_an_online_table_refuses_malformed_weights():
    from tminus.server.service import GameError

    for weights in ([1] * 11, [0] * 12, [1] * 11 + [-2], "loaded"):
        with pytest.raises(GameError, match="parameter 'ball_weights' of count_down must be"):
            online({"players": 2, "ball_weights": weights})


def test_the_lobby_lists_the_weights_as_a_parameter_anyone_may_set():
    pytest.importorskip("sqlalchemy")
    from tminus.server.catalog import catalog, refuse_local_only

    (entry,) = [game for game in catalog() if game["name"] == "count_down"]
    assert entry["params"]["ball_weights"]["default"] == "board"
    refuse_local_only("count_down", {"ball_weights": SKEWED})  # not a file: allowed
