"""Moving with the ball: "moves their rocket in the direction of the arrow by the number
rolled"; "When the ball stops on 10, 11 or 12, the player may choose to move their rocket
forward or backward." """

from __future__ import annotations

from typing import TYPE_CHECKING

from tminus.games.count_down import phases, squares

if TYPE_CHECKING:
    from tminus.games.count_down.game import CountDownState

CHOICE_OF_DIRECTION = 10  # from this number up the player may go backward


def ball_roll(s: CountDownState, face: int) -> None:
    s.turn.roll = face
    if face >= CHOICE_OF_DIRECTION:
        s._phase = phases.DIRECTION
        s._player = s.turn.mover
    else:
        move(s, face)


def move(s: CountDownState, steps: int) -> None:
    """Move the mover's piece ``steps`` squares (negative: backward) and land."""
    seat = s.turn.mover
    s.turn.pos[seat] = (s.turn.pos[seat] + steps) % s.game.board.track_len
    squares.land(s)
