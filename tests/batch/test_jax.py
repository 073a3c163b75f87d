"""The JAX backends: the same games as the reference engines, on CPU."""

import numpy as np
import pytest

pytest.importorskip("jax")

import tminus.batch as tb
from tminus.batch.differential import check_against_reference


@pytest.mark.parametrize(
    "name, params",
    [("four_way", {"players": 4, "variant": "junior"}),
     ("four_way", {"players": 3, "max_turns": 4}),
     ("sputnik", {"players": 2, "rockets_per_player": 3, "radius": 4, "max_turns": 25}),
     ("three_two_one", {"players": 5, "max_turns": 60})],
)  # fmt: skip
def test_jax_games_replay_identically_in_the_reference_engine(name, params):
    games = 3 if name == "three_two_one" else 30
    report = check_against_reference(name, games, seed=5, backend="jax", **params)
    assert report.ok, report.line()
    assert report.games == games


def test_jax_batches_are_reproducible_and_restart_finished_games():
    first, again = (tb.make("four_way", 30, seed=3, backend="jax", auto_reset=True,
                            players=4, variant="junior") for _ in range(2))  # fmt: skip
    rng = [np.random.default_rng(0), np.random.default_rng(0)]
    for _ in range(150):
        for env, r in zip((first, again), rng, strict=True):
            env.step(env.sample_legal(r.random(30)))
    assert [first.history(i) for i in range(30)] == [again.history(i) for i in range(30)]
    assert first.games_finished > 0 and not first.terminal().all()


def test_jax_refuses_an_illegal_action():
    env = tb.make("four_way", 30, backend="jax", players=4, variant="junior")
    actions = env.sample_legal(np.zeros(30))
    actions[0] = int(np.flatnonzero(~env.legal_mask()[0])[0])
    with pytest.raises(ValueError, match="illegal action"):
        env.step(actions)


def test_no_jax_engine_for_count_down():
    with pytest.raises(ValueError, match="no jax batch engine for 'count_down'"):
        tb.make("count_down", 2, backend="jax")
