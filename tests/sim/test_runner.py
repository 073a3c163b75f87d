"""The driver and simulations: seeded, reproducible, summarised honestly."""

import pytest

import tminus
from tminus.agents import RandomAgent, make_agent
from tminus.sim import play_game, simulate
from tminus.sim.runner import make_agents
from tminus.sim.stats import percentile, wilson_interval


def test_the_same_seed_gives_the_same_game():
    game = tminus.load_game("four_way", players=3)
    names = ["greedy", "random", "random"]
    first = play_game(game, make_agents(names, game, [5]), [5])
    again = play_game(game, make_agents(names, game, [5]), [5])
    other = play_game(game, make_agents(names, game, [6]), [6])
    assert first.history == again.history and first.returns == again.returns
    assert first.history != other.history


def test_a_played_game_is_a_legal_replayable_game():
    game = tminus.load_game("four_way", players=2, variant="junior")
    result = play_game(game, [RandomAgent(game, 1), RandomAgent(game, 2)], 3)
    state = game.new_initial_state()
    for action in result.history:
        state.apply_action(action)
    assert state.is_terminal() and state.returns() == result.returns
    assert result.winners == state.winners()


def test_wrong_number_of_agents_is_refused():
    game = tminus.load_game("four_way", players=3)
    with pytest.raises(ValueError, match="needs that many agents"):
        play_game(game, [RandomAgent(game)], 1)


def test_unknown_agent_names_the_known_ones():
    game = tminus.load_game("four_way")
    with pytest.raises(ValueError, match=r"unknown agent 'clever'.*greedy, mcts, random, solver"):
        make_agent("clever", game)


def test_simulation_is_reproducible_and_counts_every_game():
    game = tminus.load_game("four_way", players=2)
    a = simulate(game, ["greedy", "random"], games=200, seed=3)
    b = simulate(game, ["greedy", "random"], games=200, seed=3)
    assert a.to_dict() == b.to_dict()
    assert sum(s.wins for s in a.seats) + a.draws == 200
    assert a.length_median <= a.length_p95


def test_turn_cap_draws_are_counted():
    game = tminus.load_game("four_way", players=2, max_turns=6)
    summary = simulate(game, ["random", "random"], games=50, seed=1)
    assert summary.turn_cap_draws == summary.draws == 50


def test_wilson_interval_matches_known_values():
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson_interval(0, 10)[0] == 0.0
    # Exactly 0 and 1 at the ends (the rounding must not put a bar outside its whiskers).
    assert all(wilson_interval(0, n)[0] == 0.0 for n in range(1, 100))
    assert all(wilson_interval(n, n)[1] == 1.0 for n in range(1, 100))


def test_percentile_interpolates():
    assert percentile([1, 2, 3, 4], 0.5) == 2.5
    assert percentile([5], 0.95) == 5
