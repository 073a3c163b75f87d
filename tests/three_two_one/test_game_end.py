"""Rounds and the end of the game: rotating start, 5 rounds, extra rounds for tied leaders,
first to 3 round wins with 2-3 players, the turn cap, and the returns."""

import pytest

from tests.three_two_one.helpers import (
    BLASTOFF_HAND,
    COUNTDOWN_HAND,
    deal,
    fill,
    new_game,
    next_recipient,
    play,
    turn,
)
from tminus import TERMINAL
from tminus.games.three_two_one import rules

FILLER = [[2] * 8 + [3] * 4, [3] * 6 + [4] * 6, [6] * 10 + [7] * 2, [7] * 8 + [8] * 4,
          [8] * 6 + [9] * 6, [9] * 3 + [10] * 8 + [6]]  # fmt: skip


def quick_round(state, declarer_hand=COUNTDOWN_HAND, declaration="countdown", others=None):
    """The round's starter is dealt ``declarer_hand`` and declares at once; the other
    players get ``others`` (by seat) or rising filler hands."""
    obs = state.observation(0)
    starter, playing = obs["starter"], obs["playing"]
    fillers = iter(FILLER)
    hands = {s: (others or {}).get(s) or next(fillers) for s in playing if s != starter}
    hands[starter] = declarer_hand
    deal(state, hands, left=9, right=10)
    assert state.current_player() == starter
    return play(state, declaration)


def test_the_start_rotates_clockwise_each_round():
    # "The opportunity to play first rotates clockwise each round."
    state = new_game(4)
    starters = []
    for _ in range(4):
        starters.append(state.observation(0)["starter"])
        assert next_recipient(state) == starters[-1]  # the deal starts with them too
        quick_round(state)
    assert starters == [0, 1, 2, 3]


def test_four_players_play_five_rounds_and_the_highest_score_wins():
    # "Highest score after 5 rounds wins!" Each round's starter counts down (4 points);
    # seat 0 starts rounds 1 and 5, so it wins.
    state = new_game(4)
    for round_number in range(1, 6):
        assert not state.is_terminal()
        assert state.observation(0)["round"] == round_number
        quick_round(state)
    assert state.current_player() == TERMINAL
    # The others score by rank of the filler totals 28, 42 and 74: 2, 1 and 0.
    assert state.observation(0)["scores"] == [4 + 2 + 2 + 2 + 4, 2 + 4 + 1 + 1 + 2, 7, 4]
    assert state.winners() == [0]
    assert state.returns() == pytest.approx([1, -1 / 3, -1 / 3, -1 / 3])


def test_the_rounds_parameter_allows_three_rounds():
    # "With larger group sizes playing three rounds is an option."
    state = new_game(6, rounds=3)
    for _ in range(3):
        quick_round(state)
    assert state.is_terminal() and state.observation(0)["round"] == 3


def tie_seats_0_and_1_after_two_rounds():
    """Two rounds of Blastoff! that leave seats 0 and 1 tied on 5 points."""
    state = new_game(4, rounds=2)
    low, mid, high = [0] * 4 + [1] * 8, [2] * 8 + [3] * 4, [7] * 8 + [8] * 4
    quick_round(state, BLASTOFF_HAND, "blastoff", {1: low, 2: mid, 3: high})  # 3, 2, 1, 0
    quick_round(state, BLASTOFF_HAND, "blastoff", {0: low, 2: mid, 3: high})  # 2, 3, 1, 0
    assert state.observation(0)["scores"] == [5, 5, 2, 0]
    return state


def test_a_tie_plays_one_more_round_with_only_the_tied_players():
    # "In a tie, play one more round with only the tied players, while the others cheer."
    state = tie_seats_0_and_1_after_two_rounds()
    obs = state.observation(2)
    assert not state.is_terminal()
    assert obs["playing"] == [0, 1] and obs["extra_round"] and obs["round"] == 3
    recipients = set()
    for _ in range(24):  # 12 cards each: two players in this round
        recipients.add(next_recipient(state))
        state.apply_action(state.chance_outcomes()[0][0])
    assert recipients == {0, 1}
    assert state.observation(2)["hand_sizes"] == [12, 12, 0, 0]
    assert state.observation(2)["phase"] == "turn up"


def test_the_extra_round_starts_with_the_next_tied_player_in_the_rotation():
    state = tie_seats_0_and_1_after_two_rounds()
    # Round 3 would start with seat 2, who sits out; the next seat round the table that
    # plays is seat 0.
    assert state.observation(0)["starter"] == 0
    quick_round(state)
    assert state.is_terminal() and state.winners() == [0]
    assert state.observation(3)["scores"] == [9, 7, 2, 0]


def test_extra_rounds_rotate_the_start_among_the_tied_players():
    # RULINGS: "the start passes clockwise one seat each round to the next seat still
    # playing (in extra rounds it so rotates among the tied players)". Round 2 was seat 1's;
    # seats 0 and 1 stay tied through all five extra rounds (both end on 3).
    state = tie_seats_0_and_1_after_two_rounds()
    starters = []
    for _ in range(rules.MAX_EXTRA_ROUNDS):
        starters.append(state.observation(0)["starter"])
        tied_countdown_round(state)
    assert starters == [0, 1, 0, 1, 0]
    assert state.is_terminal() and state.winners() == [0, 1]


def test_extra_rounds_rotate_among_tied_players_who_do_not_sit_side_by_side():
    state = quick_round(new_game(5))  # seat 0 started round 1; round 2 is seat 1's
    for starter in (3, 1, 3):  # only seats 1 and 3 play on: the start skips the others
        state._start_round([1, 3])
        assert state.observation(0)["starter"] == starter


def test_turns_skip_the_players_who_sit_out():
    state = tie_seats_0_and_1_after_two_rounds()
    deal(state, {0: FILLER[0], 1: FILLER[1]}, left=9, right=10)
    turn(state, [3, 3, 3, 3], "right")
    assert state.current_player() == 1
    turn(state, [4, 4, 4, 4, 4, 4], "left", pile="right")
    assert state.current_player() == 0


def test_extra_round_hand_size_follows_the_players_in_that_round():
    # Seven players hold 10 cards; an extra round between two of them deals 12 each.
    state = new_game(7)
    state._start_round([2, 5])
    assert len(state._deal_to) == 24 and state._deal_to[:4] == [2, 5, 2, 5]
    assert rules.hand_size(7) == 10 and rules.hand_size(2) == 12


def test_still_tied_after_five_extra_rounds_share_the_win():
    scores = [9, 9, 4, 1]
    assert rules.after_points_round(scores, [0, 1], 0, 4) == (None, [0, 1])
    assert rules.after_points_round(scores, [0, 1], 0, 5) == ([0, 1], [0, 1])
    assert rules.after_points_round([9, 8, 4, 1], [0, 1], 0, 1) == ([0], [0])
    assert rules.after_points_round(scores, [0, 1, 2, 3], 2, 0) == (None, [0, 1, 2, 3])


def test_shared_wins_split_the_result_and_still_sum_to_zero():
    state = new_game(4)
    state = state.with_position({"winners": [0, 1], "phase": 5, "player": TERMINAL})
    assert state.returns() == pytest.approx([1 / 3, 1 / 3, -1 / 3, -1 / 3])
    assert sum(state.returns()) == pytest.approx(0)


# -- 2 and 3 players: first to win 3 rounds ---------------------------------------------------
def test_two_players_first_to_win_three_rounds_wins():
    # "In a game with 2 or 3 players, the first player to win 3 rounds wins." Starters
    # alternate and always win: seat 0 wins rounds 1, 3, 5.
    state = new_game(2, rounds=1)  # the rounds parameter does not end a 2-player game
    for round_number in range(1, 6):
        assert not state.is_terminal(), round_number
        quick_round(state)
    assert state.observation(0)["round_wins"] == [3, 2]
    assert state.is_terminal() and state.winners() == [0]
    assert state.returns() == [1.0, -1.0]


def test_three_players_first_to_win_three_rounds_wins():
    state = new_game(3)
    for _ in range(3):
        quick_round(state)  # seats 0, 1, 2 each win one
    assert state.observation(0)["round_wins"] == [1, 1, 1]
    for _ in range(3):
        quick_round(state)
    assert state.observation(0)["round_wins"] == [2, 2, 2]
    quick_round(state)  # seat 0 again
    assert state.is_terminal() and state.winners() == [0]
    assert state.returns() == pytest.approx([1, -0.5, -0.5])


def tied_countdown_round(state):
    """The two players of the round both end on 3 and the starter declares: both win it."""
    obs = state.observation(0)
    first = obs["starter"]
    second = next(s for s in obs["playing"] if s != first)
    deal(state, {first: fill([0, 0, 1, 1], 10, 8), second: fill([0, 0, 1, 1], 9, 7)})
    for junk0, junk1, draw in ((10, 9, 1), (8, 7, 0)):
        turn(state, [junk0] * 4, draw)
        turn(state, [junk1] * 4, draw)
    return play(state, "countdown")


def test_several_reaching_three_wins_in_one_round_play_on():
    # RULINGS: "Several reach 3 in the same round: play on until one player has more round
    # wins than the others." Rounds 1-4 alternate (2 wins each); round 5 is tied.
    state = new_game(2)
    for _ in range(4):
        quick_round(state)
    assert state.observation(0)["round_wins"] == [2, 2]
    tied_countdown_round(state)
    assert state.observation(0)["last_round"]["points"] == [3, 3]
    assert state.observation(0)["round_wins"] == [3, 3]
    assert not state.is_terminal()
    quick_round(state)  # round 6: seat 1 starts and wins
    assert state.is_terminal() and state.winners() == [1]


def test_a_tie_at_the_lowest_counts_as_a_round_win_for_each():
    state = tied_countdown_round(new_game(2))
    assert state.observation(0)["round_wins"] == [1, 1]


# -- the turn cap ------------------------------------------------------------------------------
def test_the_turn_cap_ends_the_game_as_a_draw():
    state = deal(new_game(2, max_turns=2), {0: FILLER[0], 1: FILLER[1]}, left=9, right=10)
    turn(state, [3, 3, 3, 3], "right")
    assert not state.is_terminal()
    turn(state, [4, 4, 4, 4, 4, 4], "left", pile="right")
    assert state.is_terminal() and state.ended_by_turn_cap()
    assert state.returns() == [0.0, 0.0] and state.winners() == []


def test_a_declaration_counts_as_a_turn_for_the_cap():
    state = quick_round(new_game(3, max_turns=1))
    assert state.is_terminal() and state.ended_by_turn_cap()


def test_a_draw_at_the_turn_cap_places_everyone_first_whatever_the_rounds_won():
    """The end screen said "Draw" and yet "1st" beside the one who had won a round."""
    state = new_game(3, max_turns=1).with_position({"wins": [0, 1, 0]})
    quick_round(state)  # the round is scored, then the cap ends the game: nobody won
    assert state.ended_by_turn_cap() and state.winners() == []
    assert state.observation(0)["round_wins"] != [0, 0, 0]
    assert state.placings() == [1, 1, 1]


def test_max_game_length_is_a_true_bound():
    game = new_game(8, max_turns=5, rounds=3).game
    # 3 actions a turn at most, and a deal of 8 x 10 + 2 cards for each possible round.
    assert game.max_game_length == 3 * 5 + 82 * 5
    assert new_game(4, max_turns=100, rounds=3).game.max_game_length == 300 + 50 * 8


# -- the last round's result, for searches that stop at the round's end -------------------------
def test_no_round_is_scored_before_the_first_round_ends():
    state = new_game(2)
    assert state.rounds_finished() == 0
    with pytest.raises(ValueError, match="no round"):
        state.round_returns()


def test_a_won_round_counts_as_a_win_with_two_players():
    state = quick_round(new_game(2))  # seat 0 declares strictly lowest: 4 points to 2
    assert state.rounds_finished() == 1 and not state.is_terminal()
    assert state.round_returns() == [1.0, -1.0]


def test_a_round_won_by_both_is_a_shared_win():
    state = tied_countdown_round(new_game(2))
    assert state.round_returns() == [0.0, 0.0]


def test_with_four_players_a_round_counts_its_points():
    state = quick_round(new_game(4))  # 4, 2, 1, 0 points; a round gives at most 4
    assert last_round(state)["points"] == [4, 2, 1, 0]
    assert state.round_returns() == pytest.approx([1.0, 1 / 3, 0.0, -1 / 3])
    assert state.rounds_finished() == 1


def last_round(state):
    return state.observation(0)["last_round"]


def test_with_three_players_places_follow_rounds_won_not_points():
    """The winner first, then rounds won: 2 rounds won places above none, whatever the
    points (the end screen showed both as =2nd)."""
    state = new_game(3).with_position({"wins": [2, 2, 0], "scores": [8, 8, 11]})
    quick_round(state)  # seat 0 starts, counts down and wins its third round
    assert state.is_terminal() and state.winners() == [0]
    wins, scores = state.observation(0)["round_wins"], state.observation(0)["scores"]
    assert wins == [3, 2, 0] and scores[2] > scores[1]  # points would rank them the other way
    assert state.placings() == [1, 2, 3]


def test_with_five_players_places_follow_points_and_equal_points_share_a_place():
    state = new_game(5).with_position({"scores": [8, 4, 5, 4, 0], "round": 5})
    quick_round(state)  # the starter, seat 4 in round 5, counts down: 4 points
    scores = state.observation(0)["scores"]
    assert state.is_terminal()
    expected = [1 + sum(other > mine for other in scores) for mine in scores]
    assert state.placings() == expected and len(set(expected)) < 5, scores
