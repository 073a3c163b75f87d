"""bench_batch prints the batch engines' speed against the reference's, at each size."""

from tminus.sim.bench import batch_bench_table, bench_batch


def test_bench_batch_times_every_game_at_every_size():
    results = bench_batch(sizes=(1, 8), seconds=0.02)
    games = sorted({r.game for r in results})
    assert games == ["count_down", "four_way", "sputnik", "three_two_one"]
    assert sorted((r.game, r.batch_size) for r in results) == [
        (game, size) for game in games for size in (1, 8)
    ]
    assert all(r.actions_per_second > 0 and r.reference_actions_per_second > 0 for r in results)
    assert all(r.decisions_per_second <= r.actions_per_second for r in results)
    table = batch_bench_table(results)
    assert len(table.splitlines()) == 1 + len(results) and "bytes/game" in table


def test_bench_batch_refuses_a_game_without_a_batch_engine():
    import pytest

    with pytest.raises(ValueError, match="no numpy batch engine for 'chess'"):
        bench_batch(["chess"], sizes=(1,), seconds=0.01)


def test_an_engine_whose_extra_is_missing_is_left_out_of_the_table_saying_why(monkeypatch):
    import tminus.batch
    from tminus.sim.bench import bench_batch_report

    real = tminus.batch.batch_class

    def without_numba(name, backend="numpy"):
        if name == "count_down":
            raise ValueError("Count Down's batch engine needs Numba")
        return real(name, backend)

    monkeypatch.setattr(tminus.batch, "batch_class", without_numba)
    report = bench_batch_report(seconds=0.01, sizes=(2,))
    games = [line.split()[0] for line in report.splitlines()[1:4]]
    assert games == ["four_way", "sputnik", "three_two_one"]
    assert report.splitlines()[-1] == "count_down: not timed: Count Down's batch engine needs Numba"


def test_the_batch_bench_report_is_the_table_or_its_json():
    import json

    from tminus.sim.bench import bench_batch_report

    table = bench_batch_report(["sputnik"], seconds=0.01, sizes=(2,))
    assert table.splitlines()[1].split()[:2] == ["sputnik", "2"]
    rows = json.loads(bench_batch_report(["sputnik"], seconds=0.01, as_json=True, sizes=(2,)))
    assert [(r["game"], r["batch_size"]) for r in rows] == [("sputnik", 2)]
    assert (
        rows[0]["ratio"] == rows[0]["actions_per_second"] / rows[0]["reference_actions_per_second"]
    )
