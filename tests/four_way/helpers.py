"""Drive 4-Way CountDown through its readable action strings, as a player would."""

from __future__ import annotations

import tminus
from tminus.games.four_way.game import FourWayState


def new_game(players: int = 2, variant: str = "adult", **params) -> FourWayState:
    return tminus.load_game(
        "four_way", players=players, variant=variant, **params
    ).new_initial_state()


def play(state: FourWayState, *moves: str) -> FourWayState:
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


def started(players: int = 2, variant: str = "adult", **params) -> FourWayState:
    """A game where seat 0 won the roll-off (it rolled 6, the others 1)."""
    return play(new_game(players, variant, **params), "die 6", *["die 1"] * (players - 1))


def legal_strings(state: FourWayState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def with_keys(state: FourWayState, *masks: int) -> FourWayState:
    """Set each seat's keys (10-bit masks) in a started game: positions that would take
    many rolls to reach, for checking solvers against the engine's own moves."""
    return state.with_position({"keys": list(masks)})
