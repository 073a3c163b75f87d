"""PettingZoo: every game, several player counts, through PettingZoo's own api_test."""

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test

from tests.interop.conftest import every_configuration
from tminus.interop.pettingzoo import env, raw_env


@pytest.mark.parametrize("name, params", every_configuration())
def test_api_test_passes(name, params):
    api_test(env(name, **params), num_cycles=300, verbose_progress=False)


def test_a_game_plays_to_the_end_with_rewards_that_are_the_returns():
    e = raw_env("four_way", players=3)
    e.reset(seed=5)
    rng = np.random.default_rng(0)
    final = {}
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, _ = e.last()
        if terminated or truncated:
            final[agent] = reward
            e.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        e.step(int(rng.choice(legal)))
    assert e.state.is_terminal() and e.agents == []
    assert [final[a] for a in e.possible_agents] == e.state.returns()


def test_seeded_resets_replay_the_same_game():
    histories = []
    for _ in range(2):
        e = raw_env("four_way", players=2)
        e.reset(seed=11)
        for agent in e.agent_iter(max_iter=60):
            observation, *_ = e.last()
            if e.terminations[agent] or e.truncations[agent]:
                e.step(None)
            else:
                e.step(int(np.flatnonzero(observation["action_mask"])[0]))
        histories.append(e.state.history())
    assert histories[0] == histories[1]


def test_an_illegal_action_is_refused_without_change():
    e = raw_env("four_way", players=2)
    e.reset(seed=1)
    before = e.state.history()
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="illegal action"):
        e.step(illegal)
    assert e.state.history() == before


def test_text_render():
    e = raw_env("four_way", render_mode="ansi")
    e.reset(seed=2)
    assert "4-Way CountDown" in e.render()
