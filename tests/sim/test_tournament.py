"""Tournaments: fair seating, ratings that order strong above weak, head-to-head counts."""

from collections import Counter

import pytest

import tminus
from tminus.sim.tournament import lineups, tournament


def test_every_agent_plays_every_seat_equally():
    for agents, players in ((["a", "b", "c"], 2), (["a", "b"], 3), (["a", "b", "c"], 4)):
        seatings = lineups(agents, players)
        for seat in range(players):
            counts = Counter(s[seat] for s in seatings)
            assert set(counts) == set(agents) and len(set(counts.values())) == 1
        assert all(set(s) == set(agents) or len(agents) > players for s in seatings)


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
