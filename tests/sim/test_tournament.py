"""Tournaments: fair seating, ratings that order strong above weak, head-to-head counts."""

from collections import Counter

import pytest

import tminus
from tminus.sim.tournament import lineups, tournament


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
