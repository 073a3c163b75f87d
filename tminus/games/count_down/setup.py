"""Starting capital, space centres and the order of play.

"Each player rolls the ball once along their rail and receives one hundred million
multiplied by the number they rolled ... The player who rolled the highest number places
their figure ... on space centre no. 1, the next player on launch ramp no. 2, and so on."
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tminus.games.count_down import phases
from tminus.games.count_down.data import BoardData

if TYPE_CHECKING:
    from tminus.games.count_down.game import CountDownState


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
    unit = s._contenders[len(s._tie_rolls)]
    s._tie_rolls.append(face)
    if s._first_round:
        # In the first round every seat of a unit rolls (teams add their two rolls).
        seats = s._units[unit]
        rolled = len(s._capital_rolls[unit])
        s._capital_rolls[unit].append(face)
        if rolled + 1 < len(seats):
            s._tie_rolls.pop()  # the unit's key is complete only with its last seat
            return
        s._tie_rolls[-1] = sum(s._capital_rolls[unit])
    if len(s._tie_rolls) < len(s._contenders):
        return
    split_tied_group(s)


def split_tied_group(s: CountDownState) -> None:
    """Order the group that just rolled, highest first; tied units roll again."""
    group, rolls = s._contenders, s._tie_rolls
    keys = sorted(set(rolls), reverse=True)
    split = [[u for u, r in zip(group, rolls, strict=True) if r == k] for k in keys]
    at = s._groups.index(group)
    s._groups[at : at + 1] = split
    s._first_round = False
    s._tie_rolls = []
    s._turns += 1  # a round of the roll-off counts towards the turn cap
    tied = next((g for g in s._groups if len(g) > 1), None)
    if tied is not None:
        s._contenders = tied
        if s._turns >= s.game.max_turns:
            s._end_in_draw()
        return
    assign_centres(s)


def assign_centres(s: CountDownState) -> None:
    """Highest roll takes centre 1 and its launch ramp, the next centre 2, and so on."""
    board = s.game.board
    for centre, (unit,) in enumerate(s._groups):
        seats = s._units[unit]
        for seat in seats:
            s._centre[seat] = centre
            s._pos[seat] = board.ramp[centre]
        s._seats_of[centre] = list(seats)
        capital = sum(s._capital_rolls[unit]) * board.capital_per_pip
        s._money[centre] += capital
        s._bank -= capital
    # Play goes in centre order; team partners play on the second round of the order.
    first = [s._seats_of[c][0] for c in range(4) if s._seats_of[c]]
    second = [s._seats_of[c][1] for c in range(4) if len(s._seats_of[c]) > 1]
    s._order = first + second
    s._turn_at = -1
    s._contenders = []
    s.start_next_turn()


def start_roll_off(s: CountDownState) -> None:
    units = list(range(len(s._units)))
    s._groups = [units]
    s._contenders = units
    s._first_round = True
    s._tie_rolls = []
    s._phase = phases.ROLL_OFF
