"""The turn: whose turn, turns lost, "play once more", the end of a turn and the turn cap."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tminus.core.game import CHANCE
from tminus.games.count_down import auction, phases
from tminus.games.count_down.countdown import ready_for_countdown

if TYPE_CHECKING:
    from tminus.games.count_down.game import CountDownState


def start_next_turn(s: CountDownState) -> None:
    """ "When player no. 1 has settled their affairs, it is the turn of the player on their
    left": the next seat in centre order. A seat with turns to sit out loses this one."""
    order = s.seating.order
    while True:
        if s._turns >= s.game.max_turns:
            s._end_in_draw()  # the turn cap: an unfinished game is a draw
            return
        s._turns += 1
        s._turn_at = (s._turn_at + 1) % len(order)
        seat = order[s._turn_at]
        if s._skip[seat] > 0:
            s._skip[seat] -= 1
            continue
        break
    s._mover = seat
    s._again = False
    if ready_for_countdown(s, s.seating.centre[seat]):
        s._phase = phases.TURN_START
        s._player = seat
    else:
        s._phase = phases.ROLL
        s._player = CHANCE


def end_move(s: CountDownState) -> None:
    """After the square and any meeting: play once more if entitled, else end the turn."""
    if s._again and s._turns < s.game.max_turns:
        s._phase = phases.PLAY_AGAIN
        s._player = s._mover
    else:
        end_turn(s)


def play_once_more(s: CountDownState, again: bool) -> None:
    """ "may play once more": another roll in the same turn (it counts towards the cap)."""
    s._again = False
    if again:
        s._turns += 1
        s._phase = phases.ROLL
        s._player = CHANCE
    else:
        end_turn(s)


def end_turn(s: CountDownState) -> None:
    s._again = False
    s.meeting.zone_owner = -1  # nobody is met any more
    s.meeting.partners = []
    if auction.should_start(s):
        auction.start_auction(s)
    else:
        start_next_turn(s)
