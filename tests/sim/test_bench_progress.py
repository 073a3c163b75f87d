"""Each of bench's timings tells how far it got (runs, decisions, games), never printing:
`tminus bench` shows it as a status line with the time left."""

from tminus.core.registry import load_game
from tminus.sim.bench import bench_batch, bench_game, bench_scaling, bench_search


def recorder():
    told = []
    return told, lambda *step: told.append(step)


def test_playouts_tell_each_run_and_search_each_decision():
    game = load_game("four_way")
    told, progress = recorder()
    bench_game(game, runs=2, seconds=0.01, progress=progress)
    assert told == [(1, 2), (2, 2)]
    told, progress = recorder()
    bench_search(game, runs=2, positions=2, progress=progress)
    assert told == [(1, 4), (2, 4), (3, 4), (4, 4)]


def test_scaling_tells_the_games_played_on_every_worker_count():
    told, progress = recorder()
    bench_scaling(load_game("four_way"), games=8, workers=(1,), progress=progress)
    assert [done for done, _ in told] == sorted({done for done, _ in told}) and told[-1] == (8, 8)


def test_the_batch_bench_names_each_timing_before_it_starts():
    told, progress = recorder()
    bench_batch(["sputnik"], sizes=(1, 4), seconds=0.01, progress=progress)
    assert told == [
        ("sputnik: reference engine", 0, 3),
        ("sputnik: batch of 1 games", 1, 3),
        ("sputnik: batch of 4 games", 2, 3),
    ]
