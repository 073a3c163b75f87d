"""Gymnasium's vector environment and PettingZoo's parallel environment over batch engines."""

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
pettingzoo_test = pytest.importorskip("pettingzoo.test")

import tminus.interop.gymnasium  # noqa: E402,F401 - registers tminus/<game>-v0
from tminus.interop.gymnasium_vector import TMinusVectorEnv  # noqa: E402
from tminus.interop.pettingzoo_parallel import parallel_env  # noqa: E402


def random_masked(observation, rng):
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0
                     for m in observation["action_mask"]])  # fmt: skip


@pytest.mark.parametrize(
    "name, params",
    [("four_way", {"players": 3, "opponents": "greedy"}), ("sputnik", {"opponents": "greedy"}),
     ("three_two_one", {"players": 4, "rounds": 1})],
)  # fmt: skip
def test_make_vec_plays_whole_episodes_with_rewards_at_the_end(name, params):
    envs = gymnasium.make_vec(f"tminus/{name}-v0", num_envs=6, **params)
    assert isinstance(envs, TMinusVectorEnv)
    observation, _ = envs.reset(seed=1)
    assert observation in envs.observation_space
    rng = np.random.default_rng(0)
    finished, steps = 0, 0
    while finished < 6 and steps < 3000:
        actions = random_masked(observation, rng)
        observation, reward, terminated, truncated, _ = envs.step(actions)
        assert observation in envs.observation_space
        done = terminated | truncated
        assert (reward[~done] == 0).all()
        assert np.array_equal(reward[done], envs.batch.returns()[done, 0])
        finished += done.sum()
        steps += 1
    assert finished >= 6


@pytest.mark.parametrize("name", ["four_way", "sputnik", "three_two_one"])
def test_the_vector_environment_passes_gymnasiums_determinism_and_data_checks(name):
    # Gymnasium has no checker for vector environments: these are check_env's checks of
    # reset and step determinism and of returned data not reused, over a whole batch.
    from gymnasium.utils.env_checker import data_equivalence

    envs = [gymnasium.make_vec(f"tminus/{name}-v0", num_envs=5) for _ in range(2)]
    first, again = (env.reset(seed=123) for env in envs)
    assert data_equivalence(first, again, exact=True)
    assert not data_equivalence(first, envs[0].reset(seed=124), exact=True)
    first, again = (env.reset(seed=123) for env in envs)
    handed_out = first[0]
    held = {key: value.copy() for key, value in handed_out.items()}
    for step in range(40):
        actions = random_masked(first[0], np.random.default_rng(step))
        first, again = (env.step(actions) for env in envs)
        assert data_equivalence(first, again, exact=True)
    assert data_equivalence(handed_out, held, exact=True)  # steps did not write into it


def test_a_finished_game_starts_again_at_the_next_step():
    envs = TMinusVectorEnv("four_way", num_envs=4, max_turns=30)
    observation, _ = envs.reset(seed=2)
    rng = np.random.default_rng(1)
    done = np.zeros(4, dtype=bool)
    while not done.any():
        observation, _, terminated, truncated, _ = envs.step(random_masked(observation, rng))
        done = terminated | truncated
    observation, reward, terminated, truncated, _ = envs.step(random_masked(observation, rng))
    assert (reward[done] == 0).all() and not (terminated | truncated)[done].any()
    assert not envs.batch.terminal()[done].any()


def test_an_illegal_action_changes_nothing_in_its_game_and_costs_the_illegal_reward():
    envs = TMinusVectorEnv("sputnik", num_envs=2)
    observation, _ = envs.reset(seed=3)
    actions = random_masked(observation, np.random.default_rng(0))
    before = envs.batch.observation_tensor(0).copy()
    mine = envs.batch.current_player() == 0
    illegal = int(np.flatnonzero(observation["action_mask"][0] == 0)[0])
    actions[0] = illegal
    _, reward, _, _, info = envs.step(actions)
    if mine[0]:
        assert info["illegal_action"][0] and reward[0] == envs.illegal_reward
        assert np.array_equal(envs.batch.observation_tensor(0)[0], before[0])


def test_bad_seat_and_bad_opponent_are_refused():
    with pytest.raises(ValueError, match="seats are 0 to 1"):
        TMinusVectorEnv("four_way", seat=2)
    with pytest.raises(ValueError, match="vectorised agents"):
        TMinusVectorEnv("three_two_one", opponents="greedy")


@pytest.mark.parametrize(
    "name, params",
    [("four_way", {"players": 4, "variant": "junior"}), ("sputnik", {"players": 3}),
     ("three_two_one", {"players": 5, "rounds": 1})],
)  # fmt: skip
def test_the_parallel_environment_passes_pettingzoos_api_test(name, params):
    pettingzoo_test.parallel_api_test(parallel_env(name, **params), num_cycles=1000)


def random_moves(observations, rng):
    """A random legal action for each agent that has one (the mover)."""
    return {agent: rng.choice(np.flatnonzero(o["action_mask"]))
            for agent, o in observations.items() if o["action_mask"].any()}  # fmt: skip


def test_the_parallel_environment_is_deterministic_by_seed():
    # PettingZoo's parallel_seed_test samples unmasked actions, which this environment
    # refuses; this is its check with masked ones.
    from gymnasium.utils.env_checker import data_equivalence

    envs = [parallel_env("four_way", players=3) for _ in range(2)]
    outcomes = [env.reset(seed=42) for env in envs]
    rng = [np.random.default_rng(0), np.random.default_rng(0)]
    while envs[0].agents:
        assert data_equivalence(*outcomes, exact=True)
        outcomes = [
            env.step(random_moves(observations, r))
            for env, (observations, *_), r in zip(envs, outcomes, rng, strict=True)
        ]
    assert data_equivalence(*outcomes, exact=True) and any(outcomes[0][1].values())


def test_the_parallel_environment_refuses_an_illegal_move_and_changes_nothing():
    env = parallel_env("four_way")
    observations, _ = env.reset(seed=4)
    mover = next(a for a, o in observations.items() if o["action_mask"].any())
    illegal = int(np.flatnonzero(observations[mover]["action_mask"] == 0)[0])
    before = env.batch.observation_tensor(0).copy()
    with pytest.raises(ValueError, match="illegal action"):
        env.step({mover: illegal})
    assert np.array_equal(env.batch.observation_tensor(0), before)
