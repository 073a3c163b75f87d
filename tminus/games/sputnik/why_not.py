"""Why a move of Sputnik is not possible: the rule that forbids it, in words.

"Rockets cannot move onto an empty space on the board: there is no galaxy on c3", "At
the start of the game, it is forbidden to take a galaxy adjacent to a base: e2 is next to
the base of Bob". ``SputnikState._why_not`` asks here about an action of the game that is
not legal for the player to move (``State.why_not`` has said what every game shares).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tminus.games.sputnik.rules import BASE, EMPTY, NOBODY, OUT

if TYPE_CHECKING:
    from tminus.games.sputnik.game import SputnikState


def reason(state: SputnikState, action: int, names: Sequence[str]) -> str | None:
    """The rule that forbids ``action`` in this part of the turn (None: no decision)."""
    kind, k, cell = state.game.decode(action)
    phase = state.phase()
    if phase == "move":
        if kind == "remove":
            return move_first()
        rocket = state.game.rockets_of[state.current_player()][k]
        if state.position()[2][rocket] == OUT:
            return rocket_out()
        if kind == "move":
            return step(state, rocket, cell, names)
        return base_help(state, rocket, cell, names)
    if phase == "remove":
        return removal(state, cell, names) if kind == "remove" else moved_already()
    return None


def chance_first(state: SputnikState) -> str:
    return "Lots are drawn first to decide who starts: nobody moves before that."


# -- the order of a turn ----------------------------------------------------------------------
def move_first() -> str:
    """ "On his turn, each player carries out 2 actions: he moves his rocket, and he takes
    any uninhabited galaxy token." """
    return (
        "First move your rocket: a galaxy is taken after the move "
        "(\u201cafter moving his rocket, the player takes any uninhabited galaxy\u201d)."
    )


def moved_already() -> str:
    return "Your rocket has moved this turn: now take an uninhabited galaxy from the board."


def rocket_out() -> str:
    return "That rocket of yours is out of the game: move one that is still on the board."


# -- moving rockets ---------------------------------------------------------------------------
def step(state: SputnikState, rocket: int, cell: int, names: Sequence[str]) -> str | None:
    """ "Each player must move his rocket onto a galaxy or an adjacent base of his own
    color. Rockets cannot move onto an empty space on the board, onto a galaxy occupied by
    another player's rocket, or onto another player's base." """
    board, at, pos, _, _ = state.position()
    here, name = pos[rocket], cell_name(state, cell)
    if cell == here:
        return f"Your rocket is on {name} already: it must move one step each turn."
    if not state.game.board.adjacent(here, cell):
        return not_next_to("A rocket moves one step, onto a neighbouring cell", state, here, cell)
    if at[cell] != NOBODY:
        return (
            f"Rockets cannot move onto a galaxy occupied by another rocket: "
            f"{rocket_of(state, at[cell], names, 'your other rocket')} is on {name}."
        )
    if board[cell] == EMPTY:
        helped = state.is_legal(help_action(state, rocket, cell))
        tip = " Base help could move your base there." if helped else ""
        return f"Rockets cannot move onto an empty space: there is no galaxy on {name}.{tip}"
    if board[cell] >= BASE:
        owner = state.game.rocket_owner[board[cell] - BASE]
        if owner == state.current_player():
            return f"A rocket may go onto its own base only: {name} is your other rocket's base."
        return (
            f"Rockets cannot move onto another player's base: {name} is the base of {names[owner]}."
        )
    return None


def base_help(state: SputnikState, rocket: int, cell: int, names: Sequence[str]) -> str | None:
    """ "Each base may come to the aid of its rocket one time only": it moves "onto an
    empty space adjacent to his rocket" (ruling: not while the rocket stands on it)."""
    board, _, pos, base, _ = state.position()
    here, home = pos[rocket], base[rocket]
    if home == OUT:
        return "Each base may come to the aid of its rocket one time only: yours already has."
    if home == here:
        return "Base help is not allowed while your rocket stands on its base: move off it first."
    rule = "Base help moves your base onto an empty space adjacent to your rocket"
    if not state.game.board.adjacent(here, cell):
        return not_next_to(rule, state, here, cell)
    if board[cell] != EMPTY:
        return f"{rule}: {cell_name(state, cell)} is not empty, {contents(state, cell, names)}."
    return None


# -- removing galaxies ------------------------------------------------------------------------
def removal(state: SputnikState, cell: int, names: Sequence[str]) -> str | None:
    """ "Players cannot take from the board either an occupied galaxy or a space base,
    whether or not it is occupied. At the start of the game, it is forbidden to take a
    galaxy adjacent to a base." """
    board, at, _, _, _ = state.position()
    name = cell_name(state, cell)
    if board[cell] == EMPTY:
        return f"There is no galaxy on {name} to take: it is an empty space."
    if board[cell] >= BASE:
        return (
            f"Players cannot take a space base from the board, whether or not it is occupied: "
            f"{name} is {base_of(state, board[cell] - BASE, names)}."
        )
    if at[cell] != NOBODY:
        return (
            f"Players cannot take an occupied galaxy: {rocket_of(state, at[cell], names)} "
            f"is on {name}."
        )
    protector = protecting_base(state, cell)
    if protector is not None:
        return (
            f"At the start of the game it is forbidden to take a galaxy adjacent to a base: "
            f"{name} is next to {base_of(state, protector, names)}, whose "
            "rocket has not left it yet."
        )
    return None


def protecting_base(state: SputnikState, cell: int) -> int | None:
    """The rocket whose base protects ``cell`` (ruling: while the rocket is on the board and
    has never left its base), or None."""
    _, _, pos, base, unmoved = state.position()
    neighbours = state.game.board.neighbours
    for rocket, where in enumerate(pos):
        if where != OUT and unmoved[rocket] and cell in neighbours[base[rocket]]:
            return rocket
    return None


# -- names ------------------------------------------------------------------------------------
def cell_name(state: SputnikState, cell: int) -> str:
    return state.game.board.names[cell]


def not_next_to(rule: str, state: SputnikState, here: int, cell: int) -> str:
    return f"{rule}: {cell_name(state, cell)} is not next to {cell_name(state, here)}."


def rocket_of(
    state: SputnikState, rocket: int, names: Sequence[str], mine: str = "your rocket"
) -> str:
    """ "your rocket" (or ``mine``: "your other rocket"), "the rocket of Bob"."""
    owner = state.game.rocket_owner[rocket]
    return mine if owner == state.current_player() else f"the rocket of {names[owner]}"


def base_of(state: SputnikState, rocket: int, names: Sequence[str]) -> str:
    """ "your base", "the base of Bob"."""
    owner = state.game.rocket_owner[rocket]
    return "your base" if owner == state.current_player() else f"the base of {names[owner]}"


def contents(state: SputnikState, cell: int, names: Sequence[str]) -> str:
    """What stands on a cell that is not empty: "a galaxy is there", "it is Bob's base"."""
    board, at, _, _, _ = state.position()
    if board[cell] >= BASE:
        return f"it is {base_of(state, board[cell] - BASE, names)}"
    if at[cell] != NOBODY:
        return f"{rocket_of(state, at[cell], names)} is there"
    return "a galaxy is there"


def help_action(state: SputnikState, rocket: int, cell: int) -> int:
    """The base help of the mover's ``rocket`` onto ``cell``."""
    game = state.game
    k: int = game.rockets_of[state.current_player()].index(rocket)
    offset: int = game.help_offset
    return offset + k * game.cells + cell
