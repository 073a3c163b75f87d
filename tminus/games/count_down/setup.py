"""Starting capital, space centres and the order of play.

"Each player rolls the ball once along their rail and receives one hundred million
multiplied by the number they rolled ... The player who rolled the highest number places
their figure ... on space centre no. 1, the next player on launch ramp no. 2, and so on."
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tminus.games.count_down import phases
from tminus.games.count_down.data import BoardData
from tminus.games.count_down.ledger import BANK, transfer

if TYPE_CHECKING:
    from tminus.games.count_down.game import CountDownState


@dataclass(slots=True)
class Seating:
    """Who plays which centre, settled by the roll-off: each seat's ``centre`` (-1 for the
    watching fifth seat, and before the roll-off), each centre's ``seats_of``, the turn
    ``order`` of the seats, and the centres ``in_service``."""

    centre: list[int]
    seats_of: list[list[int]]
    order: list[int]
    in_service: list[bool]

    def copy(self) -> Seating:
        return Seating(
            self.centre.copy(),
            [seats.copy() for seats in self.seats_of],
            self.order.copy(),
            self.in_service.copy(),
        )


@dataclass(slots=True)
class RollOff:
    """The rolls for capital and the order of play: each unit's ``capital_rolls``, the
    ``groups`` of units in order so far (a group of two or more is tied), the tied
    ``contenders`` rolling now with their ``tie_rolls``, and whether this is the
    ``first_round`` (the rolls for capital)."""

    capital_rolls: list[list[int]]
    groups: list[list[int]] = field(default_factory=list)
    contenders: list[int] = field(default_factory=list)
    tie_rolls: list[int] = field(default_factory=list)
    first_round: bool = True

    def copy(self) -> RollOff:
        return RollOff(
            [rolls.copy() for rolls in self.capital_rolls],
            [group.copy() for group in self.groups],
            self.contenders.copy(),
            self.tie_rolls.copy(),
            self.first_round,
        )


def units_for(players: int) -> list[tuple[int, ...]]:
    """Who plays as one centre: seats alone, teams of two for 6, no watcher for 5."""
    if players == 6:
        # "Two players are associated on each of the other three centres."
        return [(t, t + 3) for t in range(3)]
    if players == 5:
        return [(s,) for s in range(4)]  # seat 4 watches with the leader
    return [(s,) for s in range(players)]


def centres_in_service(players: int) -> list[bool]:
    """2 or 3 players: "Unoccupied centres remain out of service"; 6: centre 4 is free."""
    used = len(units_for(players))
    return [c < used for c in range(4)]


def initial_stock(board: BoardData, in_service: list[bool]) -> tuple[list[int], list[int]]:
    """The leader's photo cards and rocket parts, without those of centres out of service.

    The stock holds one of each part per centre in service; an out-of-service centre
    removes one copy of each photo card on its control card.
    """
    photos = list(board.photo_copies)
    for centre, active in enumerate(in_service):
        if not active:
            for p in board.control[centre]:
                photos[p] -= 1
    return photos, [sum(in_service)] * 4


def roll_off(s: CountDownState, face: int) -> None:
    """One roll of the start: the first round gives capital; ties roll again for order."""
    rolls = s.roll_off
    unit = rolls.contenders[len(rolls.tie_rolls)]
    rolls.tie_rolls.append(face)
    if rolls.first_round:
        # In the first round every seat of a unit rolls (teams add their two rolls).
        seats = s.game.units[unit]
        capital = rolls.capital_rolls[unit]
        capital.append(face)
        if len(capital) < len(seats):
            rolls.tie_rolls.pop()  # the unit's key is complete only with its last seat
            return
        rolls.tie_rolls[-1] = sum(capital)
    if len(rolls.tie_rolls) < len(rolls.contenders):
        return
    split_tied_group(s)


def split_tied_group(s: CountDownState) -> None:
    """Order the group that just rolled, highest first; tied units roll again."""
    rolls = s.roll_off
    group, keys_rolled = rolls.contenders, rolls.tie_rolls
    keys = sorted(set(keys_rolled), reverse=True)
    split = [[u for u, r in zip(group, keys_rolled, strict=True) if r == k] for k in keys]
    at = rolls.groups.index(group)
    rolls.groups[at : at + 1] = split
    rolls.first_round = False
    rolls.tie_rolls = []
    s.turn.number += 1  # a round of the roll-off counts towards the turn cap
    tied = next((g for g in rolls.groups if len(g) > 1), None)
    if tied is not None:
        rolls.contenders = tied
        if s.turn.number >= s.game.max_turns:
            s.end_in_draw()
        return
    assign_centres(s)


def assign_centres(s: CountDownState) -> None:
    """Highest roll takes centre 1 and its launch ramp, the next centre 2, and so on."""
    board = s.game.board
    rolls, seating = s.roll_off, s.seating
    for centre, (unit,) in enumerate(rolls.groups):
        seats = s.game.units[unit]
        for seat in seats:
            seating.centre[seat] = centre
            s.turn.pos[seat] = board.ramp[centre]
        seating.seats_of[centre] = list(seats)
        transfer(s, BANK, centre, sum(rolls.capital_rolls[unit]) * board.capital_per_pip)
    # Play goes in centre order; team partners play on the second round of the order.
    seats_of = seating.seats_of
    first = [seats_of[c][0] for c in range(4) if seats_of[c]]
    second = [seats_of[c][1] for c in range(4) if len(seats_of[c]) > 1]
    seating.order = first + second
    s.turn.at = -1
    rolls.contenders = []
    s.start_next_turn()


def start_roll_off(s: CountDownState) -> None:
    units = list(range(len(s.game.units)))
    rolls = s.roll_off
    rolls.groups = [units]
    rolls.contenders = units
    rolls.first_round = True
    rolls.tie_rolls = []
    s._phase = phases.ROLL_OFF
