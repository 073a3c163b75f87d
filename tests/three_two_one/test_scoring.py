"""Scoring: dense ranks of hand totals, the Countdown! bonus or penalty, Blastoff!.

Each rulebook example is checked twice: on the scoring function, and in a played round.
"""

from tests.three_two_one.helpers import (
    BLASTOFF_HAND,
    COUNTDOWN_HAND,
    deal,
    fill,
    new_game,
    play,
    turn,
)
from tminus.games.three_two_one import rules


# -- the scoring functions ----------------------------------------------------------------------
def test_lowest_gets_3_second_2_third_1_everyone_else_0():
    # "The lowest hand total gets 3 points, the second-lowest 2, and the third-lowest 1.
    # Everyone else gets 0."
    assert rules.score_round([30, 10, 20, 40, 50], None, None) == [1, 3, 2, 0, 0]


def test_equal_totals_share_points_and_scoring_continues_for_the_others():
    # "In a tie, players with the same hand value get the same points, and scoring
    # continues as normal for the others." Dense ranks: 10, 20, 20, 30 -> 3, 2, 2, 1.
    assert rules.score_round([20, 10, 30, 20, 40], None, None) == [2, 3, 1, 2, 0]
    assert rules.dense_ranks([7, 3, 7, 9]) == [2, 1, 2, 3]


def test_countdown_declarer_strictly_lowest_gets_3_plus_1_bonus():
    assert rules.score_round([4, 9, 12], 0, rules.COUNTDOWN) == [4, 2, 1]


def test_countdown_declarer_beaten_gets_0_and_their_total_still_takes_its_rank():
    # "If any player's hand total is lower than the 'Countdown!' declarer, the declarer gets 0.
    # The lowest hand total gets 3 points, the second-lowest 2, and the third-lowest 1."
    assert rules.score_round([5, 2, 9, 12], 0, rules.COUNTDOWN) == [0, 3, 1, 0]


def test_countdown_declarer_tied_for_lowest_all_tied_get_3_no_bonus():
    # "all tied players get 3 points, second-lowest 2, third-lowest 1, and others score 0."
    assert rules.score_round([3, 3, 8, 10, 11], 0, rules.COUNTDOWN) == [3, 3, 2, 1, 0]


def test_blastoff_declarer_gets_3_and_the_others_are_ranked_among_themselves():
    # "the player who declares it gets 3 points, second-lowest 2, third-lowest 1, and all
    # others get 0" — the declarer's own total does not count.
    assert rules.score_round([60, 20, 30, 40], 0, rules.BLASTOFF) == [3, 2, 1, 0]


def test_blastoff_with_ties_among_the_others():
    assert rules.score_round([4, 28, 28, 76, 80], 0, rules.BLASTOFF) == [3, 2, 2, 1, 0]
    # A declarer total lower than everyone's changes nothing for the others.
    assert rules.score_round([60, 2, 28, 28], 0, rules.BLASTOFF) == [3, 2, 1, 1]


def test_winning_a_round_means_scoring_at_least_3():
    assert [rules.won_round(p) for p in (0, 1, 2, 3, 4)] == [False, False, False, True, True]


# -- played rounds ------------------------------------------------------------------------------
def last_round(state):
    return state.observation(0)["last_round"]


def test_played_countdown_strictly_lowest_scores_4():
    state = deal(new_game(2), {0: COUNTDOWN_HAND, 1: [2] * 10 + [3] * 2})
    play(state, "countdown")
    assert last_round(state)["totals"] == [4, 26]
    assert last_round(state)["points"] == [4, 2]
    assert state.observation(0)["scores"] == [4, 2]


def two_turn_round(draws, players=2):
    """Seats shed two sets of four each, drawing the given values; then seat 0 declares."""
    hands = {
        0: fill([0, 0, 1, 1], 10, 8),
        1: fill([0, 0, 1, 1], 9, 7),
        2: fill([2, 2, 3, 3], 6, 6),
    }
    junk = {0: (10, 8), 1: (9, 7), 2: (6, 6)}
    state = deal(new_game(players), {s: hands[s] for s in range(players)})
    for step in range(2):
        for seat in range(players):
            assert state.current_player() == seat
            turn(state, [junk[seat][step]] * 4, draws[seat][step])
    return play(state, "countdown")


def test_played_countdown_tied_for_lowest_gives_all_tied_3():
    state = two_turn_round({0: (1, 0), 1: (1, 0)})
    assert last_round(state)["totals"] == [3, 3]
    assert last_round(state)["points"] == [3, 3]


def test_played_countdown_beaten_scores_0_and_the_rest_rank_around_it():
    state = two_turn_round({0: (1, 1), 1: (0, 0), 2: (3, 3)}, players=3)
    assert last_round(state)["totals"] == [4, 2, 16]
    # Seat 1 is lowest (3); the declarer's 4 is second-lowest but scores 0; 16 is third (1).
    assert last_round(state)["points"] == [0, 3, 1]
    assert last_round(state)["declarer"] == 0


def test_played_blastoff_with_ties_among_the_others():
    tied = [0, 0, 0, 0, 3, 3, 3, 3, 4, 4, 4, 4]
    hands = {0: BLASTOFF_HAND, 1: tied, 2: tied, 3: [6] * 8 + [7] * 4}
    state = deal(new_game(4), hands, left=9, right=10)
    play(state, "blastoff")
    assert last_round(state)["declaration"] == "blastoff"
    assert last_round(state)["points"] == [3, 2, 2, 1]
    # "they can discard their entire hand and declare Blastoff!": the declarer has no hand
    # left to total (twelve 5s are not a total of 60).
    assert last_round(state)["totals"] == [None, 28, 28, 76]
    assert last_round(state)["hands"][0] == []


def test_the_round_summary_after_a_blastoff_says_blastoff_not_a_total():
    hands = {0: BLASTOFF_HAND, 1: [2] * 8 + [3] * 4}
    state = play(deal(new_game(2), hands, left=9, right=10), "blastoff")
    summary = [line for line in state.render(1).splitlines() if "seat 0:" in line]
    assert summary == ["    seat 0: Blastoff! → 3 points"]
    assert "60" not in state.render(0)
