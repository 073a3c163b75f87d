"""simulate_batch: the simulation summary, from batch games."""

import pytest

import tminus
from tminus.sim.batch_simulate import simulate_batch


def test_every_game_is_counted_once_and_the_summary_adds_up():
    game = tminus.load_game("four_way", players=3)
    summary = simulate_batch(game, ["greedy", "random", "random"], 500, seed=1, batch_size=64)
    assert summary.games == 500
    assert sum(s.wins for s in summary.seats) + summary.draws >= 500
    assert 20 < summary.length_mean < 200 and summary.length_median <= summary.length_p95
    assert summary.to_dict()["agents"] == ["greedy", "random", "random"]


def test_the_same_seed_gives_the_same_summary():
    game = tminus.load_game("three_two_one", players=4, rounds=1)
    runs = [simulate_batch(game, ["random"] * 4, 60, seed=5, batch_size=16).to_dict()
            for _ in range(2)]  # fmt: skip
    assert runs[0] == runs[1]


def test_greedy_beats_random_at_sputnik():
    game = tminus.load_game("sputnik")
    summary = simulate_batch(game, ["greedy", "random"], 300, seed=2)
    assert summary.seats[0].win_rate > 0.9


def test_games_ended_by_the_turn_cap_are_draws():
    game = tminus.load_game("four_way", players=4, max_turns=4)  # the roll-off takes them all
    summary = simulate_batch(game, ["random"] * 4, 50, seed=3)
    assert summary.turn_cap_draws == summary.draws == 50
    assert summary.length_mean == 0


def test_bad_line_ups_are_refused():
    game = tminus.load_game("three_two_one")
    with pytest.raises(ValueError, match="needs that many agents"):
        simulate_batch(game, ["random"], 10)
    with pytest.raises(ValueError, match="vectorised agents"):
        simulate_batch(game, ["greedy"] * 4, 10)
    with pytest.raises(ValueError, match="at least 1"):
        simulate_batch(game, ["random"] * 4, 0)


def test_the_batch_summary_agrees_with_the_reference_simulation():
    from tminus.sim.simulate import simulate

    game = tminus.load_game("four_way", players=3)
    seats = ["greedy", "random", "random"]
    batch = simulate_batch(game, seats, 600, seed=4, batch_size=128)
    reference = simulate(game, seats, 600, seed=4)
    for ours, theirs in zip(batch.seats, reference.seats, strict=True):
        (low, high), (their_low, their_high) = ours.interval, theirs.interval
        assert low < their_high and their_low < high, (ours, theirs)
    assert batch.seats[0].win_rate > 0.38  # greedy is greedy in both
    assert abs(batch.length_mean - reference.length_mean) < 6  # (their spread is about 40)
