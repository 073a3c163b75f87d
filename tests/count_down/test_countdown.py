"""The countdown: complete rocket and 9 photo cards; 25 in three rolls; start on a high
number, at the latest on the fourth roll."""

from tests.count_down.helpers import (
    legal_strings,
    make_ready,
    money,
    new_game,
    play,
    reopen_turn,
    started,
    take_part,
    take_turn,
)
from tminus.games.count_down.game import CountDownState


def ready() -> CountDownState:
    """Seat 0 (centre 1) is ready; the turn goes round to it again."""
    state = started()
    state = make_ready(state, 1)
    return reopen_turn(state)  # seat 0's turn again, now that it is ready


def test_a_player_not_fully_ready_cannot_count_down():
    state = started()
    state = make_ready(state, 2)
    state = take_part(state, 2, "capsule")  # centre 2 misses the capsule
    take_turn(state)
    assert state.is_chance_node()  # seat 1 just rolls


def test_a_ready_player_chooses_between_moving_and_the_countdown():
    state = started()
    state = make_ready(state, 2)
    take_turn(state)
    assert state.current_player() == 1
    assert legal_strings(state) == ["roll", "count down"]
    play(state, "roll", "ball 4")
    assert state.observation(0)["positions"][1] == 20 and money(state, 2) == 1300


def test_twenty_five_in_three_rolls_wins():
    state = play(ready(), "count down", "ball 11", "start count", "ball 8", "ball 6")
    assert state.is_terminal() and state.winners() == [0]
    assert state.returns() == [1.0, -1 / 3, -1 / 3, -1 / 3]
    assert not state.ended_by_turn_cap()


def test_less_than_twenty_five_ends_the_turn_and_may_be_tried_again():
    state = play(ready(), "count down", "ball 12", "start count", "ball 6", "ball 6")
    assert not state.is_terminal()
    assert state.observation(0)["mover"] == 1
    take_turn(take_turn(take_turn(state)))
    assert legal_strings(state) == ["roll", "count down"]


def test_a_countdown_on_a_clone_leaves_the_original_as_it_was():
    # Outside its rolls a state and its clones share the countdown's record.
    state = play(ready(), "count down", "ball 12", "start count", "ball 6", "ball 6")
    take_turn(take_turn(take_turn(state)))  # a failed count: 12 + 6 + 6 is short of 25
    before = state.observation(0)["countdown"]
    copy = play(state.clone(), "count down", "ball 12")
    assert copy.observation(0)["countdown"] == {"waits": 1, "sum": 0, "rolls": 0}
    assert state.observation(0)["countdown"] == before == {"waits": 1, "sum": 24, "rolls": 0}


def test_waiting_for_a_high_number():
    state = play(ready(), "count down", "ball 2")
    assert legal_strings(state) == ["start count", "wait"]
    play(state, "wait", "ball 12", "start count", "ball 12", "ball 1")
    assert state.is_terminal() and state.winners() == [0]


def test_the_fourth_roll_starts_the_count_in_any_case():
    state = play(ready(), "count down", "ball 1", "wait", "ball 2", "wait", "ball 3", "wait")
    play(state, "ball 12")  # the fourth roll counts without a choice
    assert state.is_chance_node()
    play(state, "ball 12", "ball 1")
    assert state.is_terminal() and state.winners() == [0]


def test_the_fourth_roll_low_then_fails():
    state = play(ready(), "count down", "ball 1", "wait", "ball 2", "wait", "ball 3", "wait")
    play(state, "ball 2", "ball 12", "ball 10")
    assert not state.is_terminal() and state.observation(0)["mover"] == 1


def test_a_rocket_sabotaged_after_being_ready_can_no_longer_count_down():
    state = started()
    state = make_ready(state, 2)
    state = take_part(state, 2, "stage 1")
    take_turn(state)
    assert state.is_chance_node()


def test_a_team_counts_down_once_for_both_partners():
    state = started(6)
    state = reopen_turn(make_ready(state, 1))
    play(state, "count down", "ball 12", "start count", "ball 12", "ball 1")
    assert state.winners() == [0, 3]
    assert state.returns() == [1.0, -0.5, -0.5, 1.0, -0.5, -0.5]


def test_the_watching_fifth_seat_scores_nothing():
    state = started(5)
    state = reopen_turn(make_ready(state, 1))
    play(state, "count down", "ball 12", "start count", "ball 12", "ball 1")
    assert state.returns() == [1.0, -1 / 3, -1 / 3, -1 / 3, 0.0]


def test_the_turn_cap_ends_an_unfinished_game_as_a_draw():
    state = started(2, max_turns=3)
    take_turn(take_turn(state))
    assert state.is_terminal() and state.ended_by_turn_cap()
    assert state.returns() == [0.0, 0.0]


def test_a_tie_roll_off_that_reaches_the_cap_is_a_draw():
    state = play(new_game(2, max_turns=2), "ball 5", "ball 5", "ball 5", "ball 5")
    assert state.is_terminal() and state.ended_by_turn_cap()
