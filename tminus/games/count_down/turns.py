"""The turn: whose turn, turns lost, "play once more", the end of a turn and the turn cap."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tminus.core.game import CHANCE
from tminus.games.count_down import auction, phases
from tminus.games.count_down.countdown import ready_for_countdown

if TYPE_CHECKING:
    from tminus.games.count_down.game import CountDownState


@dataclass(slots=True)
class Turn:
    """Whose turn it is and where everyone stands: per seat, the square of its piece
    (``pos``, -1 off the board) and the turns it must ``skip``; the ``number`` of turns
    played (the turn cap counts them), the place ``at`` in the turn order, the ``mover``
    (-1 before the first turn), the ball's last ``roll``, and whether the mover may play
    ``again``."""

    pos: list[int]
    skip: list[int]
    number: int = 0
    at: int = -1
    mover: int = -1
    roll: int = 0
    again: bool = False

    def copy(self) -> Turn:
        return Turn(
            self.pos.copy(),
            self.skip.copy(),
            self.number,
            self.at,
            self.mover,
            self.roll,
            self.again,
        )


def start_next_turn(s: CountDownState) -> None:
    """ "When player no. 1 has settled their affairs, it is the turn of the player on their
    left": the next seat in centre order. A seat with turns to sit out loses this one."""
    order = s.seating.order
    turn = s.turn
    while True:
        if turn.number >= s.game.max_turns:
            s.end_in_draw()  # the turn cap: an unfinished game is a draw
            return
        turn.number += 1
        turn.at = (turn.at + 1) % len(order)
        seat = order[turn.at]
        if turn.skip[seat] > 0:
            turn.skip[seat] -= 1
            continue
        break
    turn.mover = seat
    turn.again = False
    if ready_for_countdown(s, s.seating.centre[seat]):
        s._phase = phases.TURN_START
        s._player = seat
    else:
        s._phase = phases.ROLL
        s._player = CHANCE


def end_move(s: CountDownState) -> None:
    """After the square and any meeting: play once more if entitled, else end the turn."""
    turn = s.turn
    if turn.again and turn.number < s.game.max_turns:
        s._phase = phases.PLAY_AGAIN
        s._player = turn.mover
    else:
        end_turn(s)


def play_once_more(s: CountDownState, again: bool) -> None:
    """ "may play once more": another roll in the same turn (it counts towards the cap)."""
    s.turn.again = False
    if again:
        s.turn.number += 1
        s._phase = phases.ROLL
        s._player = CHANCE
    else:
        end_turn(s)


def end_turn(s: CountDownState) -> None:
    s.turn.again = False
    s.meeting.zone_owner = -1  # nobody is met any more
    s.meeting.partners = []
    if auction.should_start(s):
        auction.start_auction(s)
    else:
        start_next_turn(s)
