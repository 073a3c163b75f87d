"""Drive Sputnik through its readable action strings, as a player would, and set up boards."""

from __future__ import annotations

import tminus
from tminus.games.sputnik.game import SputnikState
from tminus.games.sputnik.rules import BASE, EMPTY, GALAXY, NOBODY, OUT


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
    state.rebuild_masks()
    return state


def clear_all_but(state: SputnikState, *keep: str) -> SputnikState:
    """Empty every uninhabited galaxy except those named."""
    board, at, _, _, _ = state.position()
    kept = {cell(state, name) for name in keep}
    for c, value in enumerate(board):
        if value == GALAXY and at[c] < 0 and c not in kept:
            board[c] = EMPTY
    state.rebuild_masks()
    return state


def arrange(
    players: int,
    rockets: list[str | None],
    galaxies: str = "",
    helped: tuple[int, ...] = (),
    first: int = 0,
    **params,
) -> SputnikState:
    """A position set up by hand (not reachable by replaying its history): every cell
    empty except the named galaxies, the rockets' cells and the bases that have not helped
    (rockets listed by number, ``None`` for one already out). Seat ``first`` is to move."""
    state = started(players, first, **params)
    board, at, pos, base, unmoved = (list(part) for part in state.position())
    game = state.game
    for c in range(len(board)):
        board[c] = EMPTY
        at[c] = NOBODY
    for rocket, start in enumerate(game.start):
        if rocket in helped:
            base[rocket] = OUT
        else:
            board[start] = BASE + rocket
    for name in galaxies.split():
        board[cell(state, name)] = GALAXY
    for rocket, name in enumerate(rockets):
        if name is None:
            pos[rocket] = OUT
            continue
        c = cell(state, name)
        if board[c] == EMPTY:
            board[c] = GALAXY
        at[c] = rocket
        pos[rocket] = c
        unmoved[rocket] = c == game.start[rocket]
    return state.with_position(
        {"board": board, "at": at, "pos": pos, "base": base, "unmoved": unmoved}
    )
