"""Sputnik in words: the buttons of a turn and the lines of the log.

"Lots are drawn: Carol starts", "Alice moves to c3", "Alice removes the galaxy on e5: Bob
is out". Cells are named as on the board (a column letter and a row number). Everything
is public, so every viewer reads the same line.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tminus.core.game import CHANCE
from tminus.games.phrasing import (
    Said,
    applied,
    check_action,
    check_decision,
    check_names,
    ending,
)
from tminus.games.sputnik.rules import OUT

if TYPE_CHECKING:
    from tminus.games.sputnik.game import SputnikState


def move_label(state: SputnikState, action: int, names: Sequence[str]) -> str:
    check_names(state, names)
    check_decision(state, action)
    return said(state, action, names)[0]


def narrate(state: SputnikState, action: int, names: Sequence[str]) -> str:
    """The log line of ``action`` and what follows from it at once: who is out, who won."""
    check_names(state, names)
    check_action(state, action)
    if state.current_player() == CHANCE:
        return f"Lots are drawn: {names[action]} starts"
    kind = state.game.decode(action)[0]
    return "; ".join([said(state, action, names)[1], *consequences(state, action, kind, names)])


def said(state: SputnikState, action: int, names: Sequence[str]) -> Said:
    """A player's move, both ways: its button and its log line."""
    who = names[state.current_player()]
    kind, k, cell = state.game.decode(action)
    to = state.game.board.names[cell]
    if kind == "remove":
        return remove(to, who)
    # With several rockets a move says which: "the rocket on d7".
    rocket = (
        f"the rocket on {rocket_cell_name(state, k)}" if state.game.rockets_per_player > 1 else ""
    )
    if kind == "help":
        return base_help(rocket, to, who)
    return move(rocket, to, is_own_base(state, k, cell), who)


def move(rocket: str, to: str, home: bool, who: str) -> Said:
    """A step onto a galaxy, or back onto the rocket's own base."""
    which = f" {rocket}" if rocket else ""
    if home:
        base = "its base" if rocket else "the base"
        return f"Move{which} to {to} (your base)", f"{who} moves{which} back onto {base} on {to}"
    return f"Move{which} to {to}", f"{who} moves{which} to {to}"


def base_help(rocket: str, to: str, who: str) -> Said:
    """ "He turns the base over to its galaxy side and then places his rocket on it"."""
    label = f"Base help for {rocket}" if rocket else "Base help"
    base = f"the base of {rocket}" if rocket else "the base"
    return (
        f"{label}: move the base to {to}",
        f"{who} moves {base} to {to} and the rocket onto it (base help)",
    )


def remove(to: str, who: str) -> Said:
    return f"Remove the galaxy on {to}", f"{who} removes the galaxy on {to}"


def consequences(state: SputnikState, action: int, kind: str, names: Sequence[str]) -> list[str]:
    """What the engine does at once after the action: no galaxy to take, rockets out, the end."""
    after = applied(state, action)
    told = []
    if kind == "move" and after.phase() != "remove":
        told.append("no galaxy can be taken")  # the ruling: the turn ends after the move
    game = state.game
    _, _, pos, _, _ = state.position()
    _, _, pos_after, _, _ = after.position()
    for rocket in after.eliminated()[len(state.eliminated()) :]:
        owner = game.rocket_owner[rocket]
        if all(pos_after[r] == OUT for r in game.rockets_of[owner]):
            told.append(f"{names[owner]} is out")
        else:
            told.append(f"the rocket of {names[owner]} on {game.board.names[pos[rocket]]} is out")
    if after.is_terminal():
        told.append(ending(after, names))
    return told


def rocket_cell_name(state: SputnikState, k: int) -> str:
    cell = state.rocket_cell(k)
    return "?" if cell is None else state.game.board.names[cell]


def is_own_base(state: SputnikState, k: int, cell: int) -> bool:
    """Is ``cell`` the unflipped base of the mover's rocket ``k``?"""
    _, _, _, base, _ = state.position()
    return base[state.game.rockets_of[state.current_player()][k]] == cell
