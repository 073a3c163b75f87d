"""Vectorised players: the greedy ones decide as the reference agents do."""

import numpy as np
import pytest

import tminus.batch as tb
from tminus.agents.registry import make_agent
from tminus.batch.agents import SeatedAgents, make_batch_agent


def greedy_decisions(name, games, **params):
    """(reference state, the batch greedy's move there) for every decision of ``games``
    batch games played by the vectorised greedy player in every seat."""
    env = tb.make(name, games, seed=1, **params)
    agent = make_batch_agent("greedy", env, seed=2)
    while not env.terminal().all():
        env.step(agent.act())
    for i in range(games):
        state = env.game.new_initial_state()
        for action in env.history(i):
            if state.current_player() >= 0:
                yield state, action
            state.apply_action(action)


@pytest.mark.parametrize(
    "params", [{"players": 2}, {"players": 3}, {"players": 4, "variant": "junior"}]
)
def test_four_way_greedy_takes_the_reference_greedy_move_every_time(params):
    reference = None
    decisions = 0
    for state, action in greedy_decisions("four_way", 30, **params):
        reference = reference or make_agent("greedy", state.game, seed=0)
        assert reference.step(state) == action, str(state)
        decisions += 1
    assert decisions > 1000


@pytest.mark.parametrize("params", [{}, {"players": 4, "teams": True},
                                    {"players": 2, "rockets_per_player": 3}])  # fmt: skip
def test_sputnik_greedy_takes_one_of_the_reference_greedy_best_moves(params):
    reference = None
    decisions = 0
    for state, action in greedy_decisions("sputnik", 20, **params):
        reference = reference or make_agent("greedy", state.game, seed=0)
        value = reference.removal_value if state.phase() == "remove" else reference.move_value
        best = max(value(state, a) for a in state.legal_actions())
        assert value(state, action) == best, str(state)
        decisions += 1
    assert decisions > 500


@pytest.mark.parametrize("players", [2, 3, 5, 6])
def test_count_down_greedy_takes_the_reference_greedy_move_every_time(players):
    reference = None
    decisions = 0
    for state, action in greedy_decisions("count_down", 4, players=players):
        reference = reference or make_agent("greedy", state.game, seed=0)
        assert reference.step(state) == action, str(state)
        decisions += 1
    assert decisions > 500


def test_count_down_greedy_decides_as_the_reference_in_every_phase_of_random_games():
    # Greedy players never hold an auction; random ones reach every decision there is.
    env = tb.make("count_down", 16, seed=3, players=4, max_turns=400)
    greedy = make_batch_agent("greedy", env)
    reference = make_agent("greedy", env.game, seed=0)
    states = [env.game.new_initial_state() for _ in range(16)]
    rng = np.random.default_rng(0)
    phases = set()
    while not env.terminal().all():
        chosen = greedy.act()
        for i, state in enumerate(states):
            for action in env.history(i, len(state.history())):
                state.apply_action(action)
            if state.current_player() >= 0:
                assert reference.step(state) == chosen[i], str(state)
                phases.add(state.phase())
        env.step(env.sample_legal(rng.random(16)))
    assert phases >= {"bid", "debt", "target", "arrested", "ask", "counter", "Saturn V"}


def test_sputnik_greedy_breaks_ties_at_random():
    # After the first step, many galaxies are equally good to remove: two seeds differ.
    env = tb.make("sputnik", 64, seed=0)
    env.step(make_batch_agent("greedy", env, seed=1).act())
    a = make_batch_agent("greedy", env, seed=1).act()
    b = make_batch_agent("greedy", env, seed=2).act()
    assert (a != b).any()
    assert env.legal_mask()[np.arange(64), a].all() and env.legal_mask()[np.arange(64), b].all()


def test_mixed_seats_each_play_their_own_agent():
    env = tb.make("four_way", 50, seed=3, players=2)
    seated = SeatedAgents(env, ["greedy", "random"], seed=4)
    greedy = make_batch_agent("greedy", env)
    for _ in range(30):
        actions = seated.act()
        seat0 = env.current_player() == 0
        assert (actions[seat0] == greedy.act()[seat0]).all()
        env.step(actions)


def test_unknown_or_unvectorised_agents_are_refused():
    env = tb.make("three_two_one", 2)
    with pytest.raises(ValueError, match="vectorised agents: random"):
        make_batch_agent("greedy", env)
    with pytest.raises(ValueError, match="needs that many agents"):
        SeatedAgents(env, ["random"])
    actions = make_batch_agent("random", env).act()
    assert env.legal_mask()[np.arange(2), actions].all()
