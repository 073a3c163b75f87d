"""Forbidden zones and the secret service: agent missions, arrest, ransom.

"With the exception of the owner of the launch ramp, any player who stops on this square
must justify their presence ... if they hold an espionage or sabotage card, they carry
out their mission." Agent cards are secret until their mission is carried out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tminus.core.game import CHANCE
from tminus.games.count_down import phases
from tminus.games.count_down.ledger import lose_part, transfer

if TYPE_CHECKING:
    from tminus.games.count_down.game import CountDownState

NO_MISSION = (-1, -1)  # (agent card, target centre) when no mission is under way


def start_mission(s: CountDownState, card: int) -> None:
    """The agent shows the card; the centre's owner rolls for an arrest."""
    centre = s.mover_centre()
    s.holdings[centre].agents[card] -= 1
    s.piles.agents[card] += 1  # "They return their card to the game leader" (arrested or not)
    s.meeting.mission = (card, s.meeting.zone_owner)
    s.meeting.justified = True  # a mission justifies the visit
    s._phase, s._player = phases.ARREST_ROLL, CHANCE


def arrest_roll(s: CountDownState, face: int) -> None:
    """The owner rolls: 1 to ``arrest_max`` (a parameter, 3 by ruling) arrests the agent."""
    s.turn.roll = face
    if face <= s.game.arrest_max:
        s._phase, s._player = phases.ARRESTED, s.turn.mover
    else:
        carry_out_mission(s)


def arrested(s: CountDownState, pay: bool) -> None:
    """ "they must either let three turns pass without playing, or pay a ransom of 300
    million to the owner of the centre where they are, in order to continue the game." """
    board = s.game.board
    if pay:
        transfer(s, s.mover_centre(), s.meeting.mission[1], board.ransom)
    else:
        s.turn.skip[s.turn.mover] += board.turns_out
    end_mission(s)


def mission_targets(s: CountDownState) -> list[int]:
    """What the mission may hit: photo ids, or part ids (+ the part offset) by card kind."""
    board, space = s.game.board, s.game.space
    card, target = s.meeting.mission
    kind = board.agent_kinds[card]
    if kind == "photo":
        held = s.holdings[target].photos
        if board.agent_green[card]:
            # Espionage: a copy of one of the target's cards from the leader's stock.
            return [space.take_photo + p for p, n in enumerate(held) if n and s.leader.photos[p]]
        return [space.take_photo + p for p, n in enumerate(held) if n]
    if kind == "part":
        return [space.take_part + p for p, n in enumerate(s.holdings[target].parts) if n]
    return []


def carry_out_mission(s: CountDownState) -> None:
    card, target = s.meeting.mission
    if s.game.board.agent_kinds[card] == "turn":
        for seat in s.seating.seats_of[target]:
            s.turn.skip[seat] += 1  # a lost turn for the target (each partner of a team)
        end_mission(s)
    elif mission_targets(s):
        s._phase, s._player = phases.TARGET, s.turn.mover
    else:
        end_mission(s)  # nothing to hit: no compensation


def hit_target(s: CountDownState, action: int) -> None:
    board, space = s.game.board, s.game.space
    card, target = s.meeting.mission
    if action >= space.take_part:
        part = action - space.take_part
        lose_part(s, target, part)  # sabotage: the part goes back to stock
        s.leader.parts[part] += 1
    else:
        photo = action - space.take_photo
        if board.agent_green[card]:
            s.leader.photos[photo] -= 1  # espionage: a copy from the leader
            s.holdings[s.mover_centre()].photos[photo] += 1
        else:
            s.holdings[target].photos[photo] -= 1  # sabotage: the card back to the leader
            s.leader.photos[photo] += 1
    end_mission(s)


def end_mission(s: CountDownState) -> None:
    """Back to the meeting: the others met still have their say."""
    s.meeting.mission = NO_MISSION
    s.after_mission()
