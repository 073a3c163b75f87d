"""Every backend plays exactly the same games for the same seed."""

from dataclasses import replace

import pytest

from tminus.sim.backends import run_batch
from tminus.sim.runner import Batch

BATCH = Batch("four_way", {"players": 3}, (("greedy", "random", "solver"),), seed=11)
FACTS_BATCH = Batch("sputnik", {"players": 3}, (("greedy", "random", "greedy"),), 12, facts=True)


def fingerprint(results):
    return [(r.seed, r.returns, r.moves_by_seat, r.first_mover) for r in results]


def test_one_process_and_a_pool_agree_whatever_the_chunks():
    serial = run_batch(BATCH, 60, workers=1)
    pooled = run_batch(BATCH, 60, workers=2, chunk_size=7)
    assert fingerprint(serial) == fingerprint(pooled)
    assert [r.seed for r in serial] == [(11, i) for i in range(60)]


def test_ray_started_locally_agrees_with_one_process():
    ray = pytest.importorskip("ray")
    serial = run_batch(BATCH, 24, workers=1)
    # The facts of the per-game report figures, read off histories in the workers, too.
    facts = [
        FACTS_BATCH,
        replace(FACTS_BATCH, game="count_down", params={"players": 2}, lineups=(("greedy",) * 2,)),
    ]
    serial_facts = [run_batch(batch, 6, workers=1) for batch in facts]
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        on_ray = run_batch(BATCH, 24, backend="ray", chunk_size=5)
        on_ray_facts = [run_batch(batch, 6, backend="ray", chunk_size=4) for batch in facts]
    finally:
        ray.shutdown()
    assert fingerprint(on_ray) == fingerprint(serial)
    assert [[r.facts for r in rs] for rs in on_ray_facts] == [
        [r.facts for r in rs] for rs in serial_facts
    ]
    assert all(r.facts is not None for rs in serial_facts for r in rs)


def test_bad_backend_arguments_are_refused():
    with pytest.raises(ValueError, match="unknown backend 'gpu'"):
        run_batch(BATCH, 10, backend="gpu")
    with pytest.raises(ValueError, match="at least one game"):
        run_batch(BATCH, 0)
