"""Who gets isolated first: facts about a finished Sputnik game, read off its replay.

"When, on his turn, a player cannot move his rocket, he is eliminated": the state keeps
the rockets that left the game in order (``eliminated()``); replaying the history shows
at which turn each one left. Only the state's public queries are read.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tminus.games.sputnik.game import SputnikGame


def isolations(game: SputnikGame, history: Sequence[int]) -> list[tuple[int, int, int]]:
    """(rocket, its seat, turn) for every rocket eliminated, in the order they left.

    The turn is the state's turn count right after the action that isolated the rocket:
    the number of turns played when its owner's turn came and it could not move.
    """
    state = game.new_initial_state()
    out: list[tuple[int, int, int]] = []
    for action in history:
        state.apply_action(action)
        gone = state.eliminated()
        for rocket in gone[len(out) :]:
            out.append((rocket, game.rocket_owner[rocket], state.turn()))
    return out


def facts(game: SputnikGame, history: Sequence[int]) -> dict[str, Any]:
    """The report's facts: the isolations in order; the first is who got isolated first."""
    return {"isolated": [list(entry) for entry in isolations(game, history)]}
