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


def _rolls_by_stream(result):
    """Each stream of the ball's rolls in a played game: stream -> the faces, in order."""
    state = tminus.load_game("count_down", players=2).new_initial_state()
    rolls = {}
    for action in result.history:
        if state.is_chance_node() and state.phase() == "roll":
            rolls.setdefault(state.chance_stream(), []).append(action)
        state.apply_action(action)
    return rolls


def test_a_duplicate_deal_gives_each_seat_the_same_rolls_in_every_lineup():
    lineups = (("greedy", "random"), ("random", "greedy"))
    duplicate = Batch("count_down", {"players": 2}, lineups, 4, keep_history=True, duplicate=True)
    first, second, next_deal = (duplicate.play(i) for i in range(3))
    assert first.seed == second.seed != next_deal.seed
    assert first.history != second.history  # different players in the seats
    mine, theirs = _rolls_by_stream(first), _rolls_by_stream(second)
    assert len(mine) == 2  # each seat's rolls to move
    for stream, faces in mine.items():
        common = min(len(faces), len(theirs[stream]))
        assert common > 5 and faces[:common] == theirs[stream][:common]
    # Not duplicate: each game its own luck.
    plain = Batch("count_down", {"players": 2}, lineups, 4, keep_history=True)
    one, two = _rolls_by_stream(plain.play(0)), _rolls_by_stream(plain.play(1))
    assert all(one[k][:5] != two[k][:5] for k in one)


def test_a_duplicate_tournament_plays_whole_deals_only():
    game = tminus.load_game("four_way", players=2)
    with pytest.raises(ValueError, match=r"whole deals of 2 games \(one for each seating\)") as e:
        tournament(game, ["greedy", "random"], 3, duplicate=True)
    assert str(e.value).endswith("not 3")


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
