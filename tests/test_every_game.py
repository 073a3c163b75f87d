"""Promises every registered game keeps beyond the conformance checker: terminal play,
agents, and (for hidden-information games) views and search that never see secrets."""

import random

import numpy as np
import pytest
from typer.testing import CliRunner

import tminus
from tminus.agents import list_agents, make_agent
from tminus.cli import app
from tminus.core.playout import sample_chance
from tminus.sim import simulate

GAMES = tminus.list_games()


def quick(name):
    """Parameters that keep a smoke test short: a low turn cap where the game has one."""
    return {"max_turns": 40} if "max_turns" in tminus.load_game(name).params else {}


HIDDEN = [name for name in GAMES if tminus.load_game(name).game_type.information == "imperfect"]


def positions(game, count, seed):
    """Decision states met along random games."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(found) < count:
            if state.is_chance_node():
                state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
                continue
            if rng.random() < 0.1:
                found.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    return found


@pytest.mark.parametrize("name", GAMES)
def test_a_person_can_play_in_the_terminal(name):
    result = CliRunner().invoke(app, ["play", name, "--seed", "3"], input="1\n" * 40 + "q\n")
    assert result.exit_code == 0, result.output
    assert "your move>" in result.output


@pytest.mark.parametrize("name", GAMES)
def test_every_agent_finishes_games(name):
    game = tminus.load_game(name, **quick(name))
    for agent in list_agents(name):
        spec = f"{agent}:simulations=8" if agent in ("mcts", "ismcts") else agent
        summary = simulate(game, [spec] * game.num_players, games=2, seed=1)
        assert summary.games == 2


@pytest.mark.parametrize("name", HIDDEN)
def test_renders_show_a_seat_nothing_it_may_not_see(name):
    game = tminus.load_game(name)
    rng = np.random.default_rng(0)
    for state in positions(game, 30, seed=1):
        for seat in range(game.num_players):
            other = state.resample_hidden(seat, rng)
            assert other.render(seat) == state.render(seat)
            assert other.render(None) == state.render(None)


@pytest.mark.parametrize("name", HIDDEN)
def test_ismcts_decides_the_same_whatever_the_hidden_cards(name):
    game = tminus.load_game(name, **quick(name))
    rng = np.random.default_rng(1)
    for state in positions(game, 5, seed=2):
        seat = state.current_player()
        other = state.resample_hidden(seat, rng)
        assert other.observation(seat) == state.observation(seat)
        a = make_agent("ismcts:simulations=30", game, seed=7).step(state)
        b = make_agent("ismcts:simulations=30", game, seed=7).step(other)
        assert a == b


@pytest.mark.parametrize("name", GAMES)
def test_an_action_is_an_integer_of_any_kind_and_nothing_else(name):
    state = positions(tminus.load_game(name, **quick(name)), 1, seed=5)[0]
    action = state.legal_actions()[0]
    before = (str(state), state.history())
    for wrong in ("1", 1.0, None, [action]):
        with pytest.raises(tminus.IllegalActionError, match="an action is an integer"):
            state.apply_action(wrong)
        assert (str(state), state.history()) == before
    state.apply_action(np.int64(action))  # a NumPy integer is the same action
    assert state.history()[-1] == action and type(state.history()[-1]) is int
