"""Moving with the ball: forward by the roll, forward or backward on 10, 11 or 12."""

from tests.count_down.helpers import (
    CAPSULE,
    RAMP,
    STAGE_2,
    TRACK,
    legal_strings,
    parts,
    place,
    play,
    started,
)


def test_the_rocket_moves_forward_by_the_number_rolled():
    state = place(started(), 0, STAGE_2 - 9)
    play(state, "ball 9")
    assert state.observation(0)["positions"][0] == STAGE_2
    assert parts(state, 1) == {"stage 2": 1}


def test_below_ten_there_is_no_choice_of_direction():
    state = place(started(), 0, STAGE_2 - 9)
    play(state, "ball 9")
    assert state.observation(0)["mover"] == 1


def test_ten_eleven_and_twelve_may_go_forward_or_backward():
    for face in (10, 11, 12):
        state = play(started(), f"ball {face}")
        assert legal_strings(state) == ["forward", "backward"]


def test_backward_wraps_around_the_track():
    state = play(started(), "ball 11", "backward")
    assert state.observation(0)["positions"][0] == (RAMP[0] - 11) % TRACK


def test_forward_on_twelve():
    state = place(started(), 0, CAPSULE - 12)
    play(state, "ball 12", "forward")
    assert state.observation(0)["positions"][0] == CAPSULE
