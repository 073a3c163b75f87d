"""OpenSpiel: every game registered, passing pyspiel's own random_sim_test; MCTSBot plays."""

import json

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import mcts  # noqa: E402

import tminus  # noqa: E402
from tests.interop.conftest import every_configuration  # noqa: E402
from tminus.interop import openspiel as adapter  # noqa: E402

# Whole random games per configuration: fewer where one game is thousands of steps long.
SIMULATIONS = {"three_two_one": 10, "count_down": 30, "sputnik": 25, "four_way": 40}


@pytest.mark.parametrize("name, params", every_configuration())
def test_random_sim_test_passes(name, params):
    game = pyspiel.load_game(adapter.PREFIX + name, params)
    sims = SIMULATIONS.get(name, 100)
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


@pytest.mark.parametrize("name, params", every_configuration())
def test_game_info_matches_the_tminus_game(name, params):
    game = pyspiel.load_game(adapter.PREFIX + name, params)
    ours = tminus.load_game(name, **params)
    assert game.num_players() == ours.num_players
    assert game.num_distinct_actions() == ours.num_distinct_actions
    assert game.max_chance_outcomes() == ours.max_chance_outcomes
    assert game.max_game_length() == ours.max_game_length
    assert (game.min_utility(), game.max_utility()) == (ours.min_utility, ours.max_utility)
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    perfect = ours.game_type.information == "perfect"
    assert (kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION) == perfect


def test_parameters_pass_through_and_bad_ones_fail():
    game = pyspiel.load_game("tminus_four_way", {"players": 3, "variant": "junior"})
    assert game.tminus.params["variant"] == "junior"
    with pytest.raises(Exception, match="must be one of 2, 3, 4"):
        pyspiel.load_game("tminus_four_way", {"players": 7})


def test_observers_give_the_tminus_views():
    game = pyspiel.load_game("tminus_four_way", {"players": 2})
    state = game.new_initial_state()
    for action in (5, 0, 3):  # die 6, die 1, dice 1,4
        state.apply_action(action)
    assert json.loads(state.observation_string(0)) == state.tminus.observation(0)
    assert np.array_equal(state.observation_tensor(1), state.tminus.observation_tensor(1))
    assert state.information_state_string(0).splitlines()[1:] == ["die 6", "die 1", "dice 1,4"]


@pytest.mark.parametrize("name", tminus.list_games())
def test_openspiel_mcts_bot_plays_whole_games(name):
    # A low turn cap keeps the long games (random rollouts of Count Down) short.
    cap = {"max_turns": 40} if "max_turns" in tminus.load_game(name).params else {}
    game = pyspiel.load_game(adapter.PREFIX + name, cap)
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(game, 1.4, 20, evaluator, random_state=rng, solve=False)
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(actions, p=probabilities)))
            else:
                state.apply_action(bot.step(state))
        assert len(state.returns()) == game.num_players()
