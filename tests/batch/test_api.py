"""The batch API: making a batch, stepping it, refusing bad input, seeds, resets, history."""

import numpy as np
import pytest

import tminus
import tminus.batch as tb
from tminus import TERMINAL, IllegalActionError


def play_out(env, seed=0):
    rng = np.random.default_rng(seed)
    while not env.terminal().all():
        env.step(env.sample_legal(rng.random(env.batch_size)))


@pytest.mark.parametrize(
    "name, params",
    [("four_way", {"players": 3}), ("sputnik", {"players": 2, "rockets_per_player": 2}),
     ("three_two_one", {"players": 5, "rounds": 1}), ("count_down", {"players": 3})],
)  # fmt: skip
def test_a_batch_speaks_the_reference_engines_terms(name, params):
    env = tb.make(name, 6, seed=1, **params)
    game = tminus.load_game(name, **params)
    assert env.legal_mask().shape == (6, game.num_distinct_actions)
    assert env.observation_tensor(1).shape == (6, *game.observation_tensor_shape())
    assert env.observation_tensor(1).dtype == np.float32
    assert env.returns().shape == (6, game.num_players)
    assert ((env.current_player() >= 0) & (env.current_player() < game.num_players)).all()
    play_out(env)
    assert (env.current_player() == TERMINAL).all() and not env.legal_mask().any()
    assert np.allclose(env.returns().sum(axis=1), 0.0) or name == "sputnik"


def test_the_same_seed_gives_the_same_games_and_another_seed_others():
    first, again, other = (tb.make("four_way", 5, seed=s) for s in (7, 7, 8))
    for env in (first, again, other):
        play_out(env, seed=3)
    assert [first.history(i) for i in range(5)] == [again.history(i) for i in range(5)]
    assert [first.history(i) for i in range(5)] != [other.history(i) for i in range(5)]


def test_an_illegal_action_is_refused_and_changes_nothing():
    env = tb.make("sputnik", 3, seed=2)
    before = [env.history(i) for i in range(3)], env.observation_tensor(0).copy()
    actions = env.sample_legal(np.zeros(3))
    illegal = int(np.flatnonzero(~env.legal_mask()[1])[0])
    actions[1] = illegal
    with pytest.raises(IllegalActionError, match=f"illegal action {illegal} in game 1"):
        env.step(actions)
    assert [env.history(i) for i in range(3)] == before[0]
    assert np.array_equal(env.observation_tensor(0), before[1])
    with pytest.raises(IllegalActionError, match="one integer action per game"):
        env.step([0, 1])
    with pytest.raises(IllegalActionError, match="one integer action per game"):
        env.step(np.zeros(3))  # floats
    with pytest.raises(IllegalActionError):
        env.step(np.array([10**6, 0, 0]))


def test_bad_parameters_are_refused_clearly():
    with pytest.raises(ValueError, match="no numpy batch engine for 'chess'"):
        tb.make("chess", 4)
    with pytest.raises(ValueError, match="backend"):
        tb.make("four_way", 4, backend="torch")
    with pytest.raises(ValueError, match="batch_size"):
        tb.make("four_way", 0)
    with pytest.raises(ValueError, match="parameter 'players' of four_way"):
        tb.make("four_way", 4, players=7)
    env = tb.make("four_way", 2)
    with pytest.raises(ValueError, match="seats are 0 to 1"):
        env.observation_tensor(2)
    with pytest.raises(ValueError, match="games are 0 to 1"):
        env.history(2)
    with pytest.raises(ValueError, match="record_history"):
        tb.make("four_way", 2, record_history=False).history(0)


def test_the_history_replays_the_game_in_the_reference_engine():
    env = tb.make("three_two_one", 2, seed=4, players=4, rounds=1)
    play_out(env)
    game = tminus.load_game("three_two_one", players=4, rounds=1)
    for i in range(2):
        state = game.new_initial_state()
        for action in env.history(i):
            state.apply_action(action)
        assert state.is_terminal() and state.returns() == env.returns()[i].tolist()


def test_auto_reset_starts_a_finished_game_at_the_next_step():
    env = tb.make("four_way", 4, seed=5, auto_reset=True, max_turns=40)
    rng = np.random.default_rng(0)
    while not env.terminal().any():
        env.step(env.sample_legal(rng.random(4)))
    over = np.flatnonzero(env.terminal())
    final = env.returns()[over]
    assert env.history(int(over[0]))  # the finished game can still be read
    env.step(env.sample_legal(rng.random(4)))
    assert not env.terminal()[over].any() and final.shape == (len(over), 2)
    # The new game's history starts with its roll-off dice.
    assert len(env.history(int(over[0]))) < 4 + 2


def test_where_moves_only_the_chosen_games():
    env = tb.make("four_way", 3, seed=6)
    before = [env.history(i) for i in range(3)]
    env.step(env.sample_legal(np.zeros(3)), where=np.array([True, False, True]))
    assert env.history(1) == before[1]
    assert len(env.history(0)) > len(before[0]) and len(env.history(2)) > len(before[2])


def test_reset_refuses_games_that_do_not_exist():
    env = tb.make("four_way", 2)
    with pytest.raises(ValueError, match="games are 0 to 1"):
        env.reset([2])


@pytest.mark.parametrize("name", ["four_way", "sputnik", "three_two_one", "count_down"])
def test_sample_legal_picks_legal_moves_uniformly(name):
    # Evenly spread numbers on one position: every legal move comes up equally often.
    env = tb.make(name, 1, seed=9)
    env.step(env.sample_legal(np.array([0.5])))
    legal = np.flatnonzero(env.legal_mask()[0])
    uniform = (np.arange(1000) + 0.5) / 1000
    picks = np.array([env.sample_legal(np.array([u]))[0] for u in uniform])
    counts = np.array([(picks == a).sum() for a in legal])
    assert set(picks) == set(legal)
    assert counts.max() - counts.min() <= 1


@pytest.mark.parametrize(
    "name, params, limit",
    [("four_way", {"players": 4}, 1024), ("three_two_one", {"players": 8}, 1024),
     ("sputnik", {"players": 6, "radius": 3}, 4096), ("count_down", {"players": 6}, 2048)],
)  # fmt: skip
def test_memory_per_game_is_within_the_issues_targets(name, params, limit):
    assert tb.make(name, 8, record_history=False, **params).memory_per_game() < limit
