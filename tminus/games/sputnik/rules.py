"""Sputnik's rules as pure functions of the board, named after the rulebook's sections.

The position is plain lists, indexed by cell number (see ``board.py``):
- ``board[cell]``: ``EMPTY``, ``GALAXY``, or ``BASE + rocket`` for the base of that rocket;
- ``at[cell]``: the rocket standing there, or ``NOBODY``;
and, per rocket, ``pos[rocket]`` (its cell, or ``OUT``), ``base[rocket]`` (its base's cell,
or ``OUT`` once the base has helped) and ``unmoved[rocket]`` (it has never left its base).

These are the rules as written. On its hot path the engine (``game.py``) answers the same
questions from bit masks of cells that it updates move by move; ``tests/sputnik/
test_fast_path.py`` checks on many random positions that both agree.
"""

from __future__ import annotations

from collections.abc import Sequence

EMPTY = 0
GALAXY = 1
BASE = 2  # board value of rocket j's base: BASE + j
NOBODY = -1
OUT = -1


def can_land(board: Sequence[int], at: Sequence[int], cell: int, rocket: int) -> bool:
    """ "Move his rocket onto a galaxy or an adjacent base of his own color."

    "Rockets cannot move onto an empty space on the board, onto a galaxy occupied by
    another player's rocket, or onto another player's base."
    """
    return at[cell] == NOBODY and (board[cell] == GALAXY or board[cell] == BASE + rocket)


def step_targets(
    board: Sequence[int], at: Sequence[int], neighbours: Sequence[int], rocket: int
) -> list[int]:
    """The cells one step away (``neighbours`` of the rocket's cell) it may move onto."""
    return [cell for cell in neighbours if can_land(board, at, cell, rocket)]


def help_targets(
    board: Sequence[int], neighbours: Sequence[int], rocket_cell: int, base_cell: int
) -> list[int]:
    """Base help: "move his base onto an empty space adjacent to his rocket".

    "Each base may come to the aid of its rocket one time only" (a used base is ``OUT``),
    and not while the rocket stands on that base.
    """
    if base_cell in (OUT, rocket_cell):
        return []
    return [cell for cell in neighbours if board[cell] == EMPTY]


def can_move(
    board: Sequence[int],
    at: Sequence[int],
    neighbours: Sequence[int],
    rocket: int,
    rocket_cell: int,
    base_cell: int,
) -> bool:
    """Whether a rocket has any move, a step or its base's help (else it is eliminated)."""
    for cell in neighbours:
        if can_land(board, at, cell, rocket):
            return True
    return bool(help_targets(board, neighbours, rocket_cell, base_cell))


def start_restricted(
    neighbours: Sequence[Sequence[int]],
    pos: Sequence[int],
    base: Sequence[int],
    unmoved: Sequence[bool],
) -> set[int]:
    """ "At the start of the game, it is forbidden to take a galaxy adjacent to a base."

    Ruling: a base protects its neighbours while its rocket is on the board and has not
    yet left it.
    """
    restricted: set[int] = set()
    for rocket, cell in enumerate(pos):
        if cell != OUT and unmoved[rocket]:
            restricted.update(neighbours[base[rocket]])
    return restricted


def can_remove(board: Sequence[int], at: Sequence[int], cell: int, restricted: set[int]) -> bool:
    """ "Take any uninhabited galaxy"; "not ... an occupied galaxy or a space base"."""
    return board[cell] == GALAXY and at[cell] == NOBODY and cell not in restricted


def removable_galaxies(board: Sequence[int], at: Sequence[int], restricted: set[int]) -> list[int]:
    """Every cell for which ``can_remove`` holds."""
    return [
        cell
        for cell, content in enumerate(board)
        if content == GALAXY and at[cell] == NOBODY and cell not in restricted
    ]


def sides_left(owner_of_side: Sequence[int], pos: Sequence[int]) -> set[int]:
    """The sides (players, or teams) that still have a rocket on the board."""
    return {owner_of_side[rocket] for rocket, cell in enumerate(pos) if cell != OUT}
