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
    assert all(
        0 < r.reference_decisions_per_second <= r.reference_actions_per_second for r in results
    )
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
    assert rows[0]["decision_ratio"] == (
        rows[0]["decisions_per_second"] / rows[0]["reference_decisions_per_second"]
    )


def test_a_random_playout_counts_the_players_decisions_apart_from_chance():
    import random

    from tminus.core.playout import random_playout_counts
    from tminus.core.registry import load_game

    game = load_game("four_way")  # a roll (chance) before every decision to flip keys
    state = game.new_initial_state()
    actions, decisions = random_playout_counts(state, random.Random(3))
    assert actions == len(state.history())
    replay, chance = game.new_initial_state(), 0
    for action in state.history():
        chance += replay.is_chance_node()
        replay.apply_action(action)
    assert chance > 0 and 0 < decisions == actions - chance


def test_the_batch_timing_covers_whole_games_however_short_the_while():
    from tminus.batch import batch_class
    from tminus.sim.bench import batch_rate

    env = batch_class("four_way")(8, seed=0, auto_reset=True, record_history=False)
    actions, decisions = batch_rate(env, seconds=0.0)
    assert env.games_finished >= 8  # as many games finished as the batch holds
    assert 0 < decisions < actions
