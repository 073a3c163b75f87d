"""Sputnik in words: the buttons of a turn and the lines of the log.

"Lots are drawn: Carol starts", "Alice moves to c3", "Alice removes the galaxy on e5: Bob
is out". Cells are named as on the board (a column letter and a row number). Everything
is public, so every viewer reads the same line.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tminus.core.game import CHANCE
from tminus.games.phrasing import applied, check_action, check_decision, check_names, ending
from tminus.games.sputnik.rules import OUT

if TYPE_CHECKING:
    from tminus.games.sputnik.game import SputnikState


def move_label(state: SputnikState, action: int, names: Sequence[str]) -> str:
    check_names(state, names)
    check_decision(state, action)
    kind, k, cell = state.game.decode(action)
    to = state.game.board.names[cell]
    if kind == "remove":
        return f"Remove the galaxy on {to}"
    several = state.game.rockets_per_player > 1
    rocket = f" the rocket on {rocket_cell_name(state, k)}" if several else ""
    if kind == "help":
        for_rocket = f" for{rocket}" if several else ""
        return f"Base help{for_rocket}: move the base to {to}"
    home = " (your base)" if is_own_base(state, k, cell) else ""
    return f"Move{rocket} to {to}{home}"


def narrate(state: SputnikState, action: int, names: Sequence[str]) -> str:
    """The log line of ``action`` and what follows from it at once: who is out, who won."""
    check_names(state, names)
    check_action(state, action)
    if state.current_player() == CHANCE:
        return f"Lots are drawn: {names[action]} starts"
    who = names[state.current_player()]
    kind, k, cell = state.game.decode(action)
    to = state.game.board.names[cell]
    several = state.game.rockets_per_player > 1
    rocket = f" the rocket on {rocket_cell_name(state, k)}" if several else ""
    if kind == "remove":
        line = f"{who} removes the galaxy on {to}"
    elif kind == "help":
        what = f"the base of{rocket}" if several else "the base"
        line = f"{who} moves {what} to {to} and the rocket onto it (base help)"
    elif is_own_base(state, k, cell):
        line = f"{who} moves{rocket} back onto {'its' if several else 'the'} base on {to}"
    else:
        line = f"{who} moves{rocket} to {to}"
    return "; ".join([line, *consequences(state, action, kind, names)])


def consequences(state: SputnikState, action: int, kind: str, names: Sequence[str]) -> list[str]:
    """What the engine does at once after the action: no galaxy to take, rockets out, the end."""
    after = applied(state, action)
    said = []
    if kind == "move" and after.phase() != "remove":
        said.append("no galaxy can be taken")  # the ruling: the turn ends after the move
    game = state.game
    _, _, pos, _, _ = state.position()
    _, _, pos_after, _, _ = after.position()
    for rocket in after.eliminated()[len(state.eliminated()) :]:
        owner = game.rocket_owner[rocket]
        if all(pos_after[r] == OUT for r in game.rockets_of[owner]):
            said.append(f"{names[owner]} is out")
        else:
            said.append(f"the rocket of {names[owner]} on {game.board.names[pos[rocket]]} is out")
    if after.is_terminal():
        said.append(ending(after, names))
    return said


def rocket_cell_name(state: SputnikState, k: int) -> str:
    cell = state.rocket_cell(k)
    return "?" if cell is None else state.game.board.names[cell]


def is_own_base(state: SputnikState, k: int, cell: int) -> bool:
    """Is ``cell`` the unflipped base of the mover's rocket ``k``?"""
    _, _, _, base, _ = state.position()
    return base[state.game.rockets_of[state.current_player()][k]] == cell
