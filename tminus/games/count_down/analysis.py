"""When players become ready for the countdown: facts about a finished Count Down game.

"A player who has fully built their rocket and fulfilled all the conditions required by
their control card may begin the COUNTDOWN" at the start of a turn: the engine then asks
them to ``roll`` or ``count down`` (the phase ``turn start``). Replaying the history
shows when each seat was first asked, and how often it tried. Only the state's public
queries are read.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tminus.games.count_down import phases
from tminus.games.count_down.actions import COUNT_DOWN
from tminus.games.count_down.game import CountDownGame


def facts(game: CountDownGame, history: Sequence[int]) -> dict[str, Any]:
    """Per seat: ``playing`` (False for the watching fifth seat), ``ready_turn``, the game
    turn at which the seat could first count down (None if it never could), and
    ``attempts``, its countdowns; and ``turns``, the game's turns at the end (every seat's
    turns, as the turn cap counts them)."""
    n = game.num_players
    ready_turn: list[int | None] = [None] * n
    attempts = [0] * n
    state = game.new_initial_state()
    for action in history:
        if state.phase() == phases.NAMES[phases.TURN_START]:
            seat = state.current_player()
            if ready_turn[seat] is None:
                ready_turn[seat] = state.public_observation()["turn"]
            attempts[seat] += action == COUNT_DOWN
        state.apply_action(action)
    return {
        "playing": [state.centre_of(seat) >= 0 for seat in range(n)],
        "ready_turn": ready_turn,
        "attempts": attempts,
        "turns": state.public_observation()["turn"],
    }
