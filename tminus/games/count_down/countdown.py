"""The countdown: "reaching a total of at least 25 points in three consecutive rolls".

"They may choose to start counting only from the moment the ball stops on a high number,
but at the latest on the fourth roll."
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tminus.core.game import CHANCE
from tminus.games.count_down import phases

if TYPE_CHECKING:
    from tminus.games.count_down.game import CountDownState


@dataclass(slots=True)
class Countdown:
    """The mover's COUNTDOWN: the rolls of this attempt made before the count started, and
    the points and rolls counted so far."""

    waits: int = 0
    total: int = 0
    rolls: int = 0

    def copy(self) -> Countdown:
        return Countdown(self.waits, self.total, self.rolls)


def rocket_complete(s: CountDownState, centre: int) -> bool:
    """Fully built: one of each part (three stages and the capsule)."""
    return all(s.holdings[centre].parts)


def missing_photos(s: CountDownState, centre: int) -> list[int]:
    held = s.holdings[centre].photos
    return [p for p in s.game.board.control[centre] if not held[p]]


def ready_for_countdown(s: CountDownState, centre: int) -> bool:
    """ "A player who has fully built their rocket and fulfilled all the conditions required
    by their control card may begin the COUNTDOWN." """
    return rocket_complete(s, centre) and not missing_photos(s, centre)


def begin_countdown(s: CountDownState) -> None:
    s.countdown = Countdown()  # a fresh record: clones shared the last one (game.py)
    s._phase = phases.COUNT_ROLL
    s._player = CHANCE


def countdown_roll(s: CountDownState, face: int) -> None:
    count = s.countdown
    if count.rolls == 0:
        count.waits += 1
        if count.waits >= s.game.board.latest_start:
            start_count(s, face)  # "at the latest on the fourth roll"
        else:
            s.turn.roll = face
            s._phase = phases.COUNT_CHOICE
            s._player = s.turn.mover
        return
    add_to_count(s, face)


def start_count(s: CountDownState, face: int) -> None:
    count = s.countdown
    count.rolls = 0
    count.total = 0
    add_to_count(s, face)


def add_to_count(s: CountDownState, face: int) -> None:
    board = s.game.board
    count = s.countdown
    count.total += face
    count.rolls += 1
    if count.rolls < board.countdown_rolls:
        s._phase = phases.COUNT_ROLL
        s._player = CHANCE
        return
    if count.total >= board.countdown_target:
        s.end_in_win(s.mover_centre())  # "The first to finish their COUNTDOWN ... wins"
        return
    # "If they do not reach 25 points, they wait for their next turn to try again."
    count.rolls = 0
    s.end_turn()


def count_choice(s: CountDownState, start: bool) -> None:
    if start:
        start_count(s, s.turn.roll)
    else:
        s._phase = phases.COUNT_ROLL
        s._player = CHANCE
