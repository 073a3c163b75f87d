"""Tournaments: fair seating, ratings that order strong above weak, head-to-head counts."""

import json
from collections import Counter

import pytest

import tminus
from tminus.sim.runner import Batch, GameResult
from tminus.sim.tournament import TournamentResult, lineups, paired_edges, pool, tournament


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


def test_a_tournament_saved_with_its_games_reads_back_the_same():
    game = tminus.load_game("four_way", players=2)
    played = tournament(game, ["greedy", "random"], 8, seed=3, duplicate=True)
    saved = json.loads(json.dumps(played.to_dict(with_games=True)))  # through JSON text
    again = TournamentResult.from_dict(saved)
    assert again.to_dict(with_games=True) == played.to_dict(with_games=True)
    assert again.results == played.results
    with pytest.raises(ValueError, match="saved without its games"):
        TournamentResult.from_dict(played.to_dict())


def test_pooled_runs_count_every_deal_of_every_run_once():
    game = tminus.load_game("four_way", players=2)
    runs = [tournament(game, ["greedy", "random"], 6, seed=s, duplicate=True) for s in (1, 2)]
    pooled = pool(runs)
    assert pooled.games == 12 and pooled.seeds == (1, 2)
    assert pooled.paired["greedy"]["random"].deals == 6
    # The same as one tournament of all these games: counted over every game at once.
    everything = paired_edges(["greedy", "random"], runs[0].results + runs[1].results)
    assert pooled.paired["greedy"]["random"] == everything["greedy"]["random"]
    wins = sum(run.head_to_head["greedy"]["random"][0] for run in runs)
    assert pooled.head_to_head["greedy"]["random"][0] == wins


def test_pooled_runs_of_other_agents_meet_only_where_they_played():
    game = tminus.load_game("four_way", players=2)
    one = tournament(game, ["greedy", "random"], 4, seed=1, duplicate=True)
    two = tournament(game, ["mcts:simulations=5", "greedy"], 4, seed=2, duplicate=True)
    pooled = pool([one, two])
    assert pooled.agents == ["greedy", "random", "mcts:simulations=5"]
    assert pooled.paired["random"]["mcts:simulations=5"].deals == 0  # never met
    assert pooled.head_to_head["random"]["mcts:simulations=5"] == (0, 0, 0)
    assert (
        pooled.paired["greedy"]["random"].deals
        == pooled.paired["greedy"]["mcts:simulations=5"].deals
        == 2
    )
    assert "mcts:simulations=5" not in pooled.to_dict()["paired"]["random"]
    by_agent = {r.agent: r.games for r in pooled.ratings}
    assert by_agent == {"greedy": 8, "random": 4, "mcts:simulations=5": 4}


def test_pooling_refuses_the_same_deals_twice_and_other_games():
    game = tminus.load_game("four_way", players=2)
    run = tournament(game, ["greedy", "random"], 2, seed=1, duplicate=True)
    with pytest.raises(ValueError, match="seed 1 is in two runs"):
        pool([run, run])
    junior = tminus.load_game("four_way", players=2, variant="junior")
    other = tournament(junior, ["greedy", "random"], 2, seed=2, duplicate=True)
    with pytest.raises(ValueError, match="different games"):
        pool([run, other])
    with pytest.raises(ValueError, match="at least one"):
        pool([])
