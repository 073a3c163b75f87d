"""Tournaments: fair seating, ratings that order strong above weak, head-to-head counts."""

from collections import Counter

import pytest

import tminus
from tminus.sim.runner import Batch, GameResult
from tminus.sim.tournament import lineups, paired_edges, tournament


@pytest.mark.parametrize(
    ("agents", "players", "seatings"),
    [
        # As many agents as seats or more: every ordered choice of distinct agents (3 * 2).
        (["a", "b", "c"], 2, 6),
        # Fewer: every seating in which each agent plays (2^3 less aaa and bbb;
        # 3^4 less the 3 * 2^4 - 3 that leave an agent out).
        (["a", "b"], 3, 6),
        (["a", "b", "c"], 4, 36),
    ],
)
def test_every_agent_plays_every_seat_equally(agents, players, seatings):
    found = lineups(agents, players)
    assert len(found) == len(set(found)) == seatings
    for seat in range(players):
        counts = Counter(s[seat] for s in found)
        assert set(counts) == set(agents) and len(set(counts.values())) == 1
    if len(agents) >= players:
        assert all(len(set(s)) == players for s in found)  # nobody plays two seats
    else:
        assert all(set(s) == set(agents) for s in found)  # nobody is left out


def test_lineup_errors():
    with pytest.raises(ValueError, match="at least two"):
        lineups(["a"], 2)
    with pytest.raises(ValueError, match="once"):
        lineups(["a", "a"], 2)


def test_ratings_put_greedy_above_random_and_count_every_game():
    game = tminus.load_game("four_way", players=2)
    result = tournament(game, ["random", "greedy"], games=600, seed=4)
    assert [r.agent for r in result.ratings] == ["greedy", "random"]
    assert all(r.games == 600 for r in result.ratings)
    wins, losses, draws = result.head_to_head["greedy"]["random"]
    assert wins + losses + draws == 600
    assert result.head_to_head["random"]["greedy"] == (losses, wins, draws)
    assert wins > losses


def test_a_duplicate_batch_deals_the_same_luck_to_every_lineup_of_a_deal():
    # The same deterministic player in both seats: the two games of a deal are one game.
    same = (("greedy", "greedy"), ("greedy", "greedy"))
    duplicate = Batch("count_down", {"players": 2}, same, seed=4, keep_history=True, duplicate=True)
    first, second, next_deal = (duplicate.play(i) for i in range(3))
    assert first.seed == second.seed != next_deal.seed
    assert first.history == second.history != next_deal.history
    # Not duplicate: each game its own luck.
    plain = Batch("count_down", {"players": 2}, same, seed=4, keep_history=True)
    assert plain.play(0).history != plain.play(1).history


def _result(seed, agents, returns):
    return GameResult(
        seed=seed, agents=agents, returns=returns, winners=[], moves=0, moves_by_seat=[0, 0],
        first_mover=0, turn_cap=False,
    )  # fmt: skip


def test_paired_edges_count_each_deal_once_and_cancel_the_seats_luck():
    results = [
        _result((0, 0), ("a", "b"), [1, -1]), _result((0, 0), ("b", "a"), [-1, 1]),  # a twice
        _result((0, 1), ("a", "b"), [1, -1]), _result((0, 1), ("b", "a"), [1, -1]),  # the seat
        _result((0, 2), ("a", "b"), [1, -1]), _result((0, 2), ("b", "a"), [0, 0]),  # a, a draw
    ]  # fmt: skip
    edges = paired_edges(["a", "b"], results)
    a_over_b, b_over_a = edges["a"]["b"], edges["b"]["a"]
    assert a_over_b.deals == 3
    assert a_over_b.edge == pytest.approx((1 + 0 + 0.5) / 3)
    assert b_over_a.edge == pytest.approx(-a_over_b.edge)
    assert a_over_b.low < a_over_b.edge < a_over_b.high
