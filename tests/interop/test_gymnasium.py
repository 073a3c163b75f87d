"""Gymnasium: one seat against T-minus bots, checked by Gymnasium's own env_checker."""

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from tests.interop.conftest import every_configuration
from tminus.interop.gymnasium import TMinusEnv, register_all


@pytest.mark.parametrize("name, params", every_configuration())
def test_check_env_passes(name, params):
    check_env(TMinusEnv(name, opponents="greedy,random", **params), skip_render_check=True)


def test_registered_with_gymnasium_make():
    assert "tminus/four_way-v0" in register_all()
    e = gymnasium.make("tminus/four_way-v0", players=3, opponents="greedy")
    observation, _ = e.reset(seed=0)
    assert observation["action_mask"].sum() >= 1


def test_an_illegal_action_changes_nothing_and_says_why():
    e = TMinusEnv("four_way")
    observation, _ = e.reset(seed=3)
    before = e.state.history()
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = e.step(illegal)
    assert info["illegal_action"] and "illegal action" in info["error"]
    assert reward == e.illegal_reward and not (terminated or truncated)
    assert e.state.history() == before


def test_an_episode_ends_with_the_seats_return():
    e = TMinusEnv("four_way", seat=1, opponents="greedy")
    observation, _ = e.reset(seed=8)
    rng = np.random.default_rng(1)
    done, reward = False, 0.0
    while not done:
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, terminated, truncated, _ = e.step(action)
        done = terminated or truncated
    assert reward == e.state.returns()[1]


def test_bad_seat_and_bad_opponent_are_refused():
    with pytest.raises(ValueError, match="seats are 0 to 1"):
        TMinusEnv("four_way", seat=2)
    with pytest.raises(ValueError, match="unknown agent 'zzz'"):
        TMinusEnv("four_way", opponents="zzz")
