"""Drive Sputnik through its readable action strings, as a player would, and set up boards."""

from __future__ import annotations

import tminus
from tminus.games.sputnik.game import SputnikState
from tminus.games.sputnik.rules import EMPTY, GALAXY


def new_game(players: int = 2, **params) -> SputnikState:
    return tminus.load_game("sputnik", players=players, **params).new_initial_state()


def play(state: SputnikState, *moves: str) -> SputnikState:
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


def started(players: int = 2, first: int = 0, **params) -> SputnikState:
    """A game where the lot chose seat ``first`` to start."""
    return play(new_game(players, **params), f"lot: seat {first} starts")


def legal_strings(state: SputnikState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def cell(state: SputnikState, name: str) -> int:
    return state.game.board.by_name[name]


def content(state: SputnikState, name: str) -> str:
    return state.observation(0)["cells"][cell(state, name)]


def rocket_cells(state: SputnikState) -> list[str | None]:
    return [r["cell"] for r in state.observation(0)["rockets"]]


def clear(state: SputnikState, *names: str) -> SputnikState:
    """Empty galaxy cells, as if taken in earlier turns (a shortcut to set up a position)."""
    board = state.position()[0]
    for name in names:
        assert board[cell(state, name)] == GALAXY, f"{name} is not an empty galaxy"
        board[cell(state, name)] = EMPTY
    return state


def clear_all_but(state: SputnikState, *keep: str) -> SputnikState:
    """Empty every uninhabited galaxy except those named."""
    board, at, _, _, _ = state.position()
    kept = {cell(state, name) for name in keep}
    for c, value in enumerate(board):
        if value == GALAXY and at[c] < 0 and c not in kept:
            board[c] = EMPTY
    return state
