"""The Sputnik board drawn as text (Rich markup): hex rows offset by half a cell.

Galaxies show their cell name (so a move can be typed from the picture), bases are the
owner's colour in brackets, rockets are ▲ and the player's number in the owner's colour
(numbered from 1 when the players have names, else from 0 as seats are), and empty cells
are a faint dot.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.markup import escape

from tminus.games.layout import fit
from tminus.games.phrasing import board_name, join, piece_marks, seat_labels
from tminus.games.sputnik.board import setup_data
from tminus.games.sputnik.rules import BASE, GALAXY, NOBODY, OUT

if TYPE_CHECKING:
    from tminus.games.sputnik.game import SputnikState


def colour(seat: int) -> str:
    colours = setup_data().colours
    return colours[seat % len(colours)]


def cell_markup(state: SputnikState, cell: int, marks: Sequence[str]) -> str:
    """One cell, four characters wide."""
    board, at, _, _, _ = state.position()
    game = state.game
    content, rocket = board[cell], at[cell]
    name = game.board.names[cell]
    if rocket != NOBODY:
        seat = game.rocket_owner[rocket]
        left, right = ("\\[", "]") if content >= BASE else (" ", " ")
        return f"[bold {colour(seat)}]{left}▲{marks[seat]}{right}[/]"
    if content >= BASE:
        seat = game.rocket_owner[content - BASE]
        return f"[{colour(seat)}]\\[{name:<2}][/]"
    if content == GALAXY:
        return f"[white] {name:<3}[/]"
    return "[dim]  · [/]"


def render(
    state: SputnikState,
    seat: int | None = None,
    names: Sequence[str] | None = None,
    width: int | None = None,
) -> str:
    """The board as ``seat`` sees it, its words in ``width`` columns (the rows of cells are
    as wide as the board); seats called by ``names`` (default: "you", "seat N")."""
    game = state.game
    labels = seat_labels(state, seat, names)
    marks = piece_marks(state, names)
    board = game.board
    _, _, pos, base, _ = state.position()
    heading = (
        f"[bold]Sputnik[/] · {game.num_players} players · turn {state.turn()} · {state.phase()}"
    )
    cells_across = 2 * board.radius + 1
    rows = [
        "  " * (cells_across - len(row)) + "".join(cell_markup(state, cell, marks) for cell in row)
        for row in game.rows
    ]
    lines = []
    for s in range(game.num_players):
        who = f"▲{marks[s]} {board_name(labels[s], s == seat and names is not None)}"
        marker = "▶" if state.current_player() == s else " "
        rockets = []
        for rocket in game.rockets_of[s]:
            where = "out" if pos[rocket] == OUT else board.names[pos[rocket]]
            help_left = "help left" if base[rocket] != OUT else "help used"
            rockets.append(f"{where} ({help_left})")
        team = f" team {game.side_of_seat[s]}" if game.teams else ""
        lines.append(f"{marker} [bold {colour(s)}]{who}[/]{team}: " + ", ".join(rockets))
    winners = state.winners()
    if winners:
        won = join([escape(labels[s]) for s in winners])
        lines.append(f"[bold green]won by {won}[/]")
    elif state.is_terminal():
        lines.append("[bold]draw: the turn cap was reached[/]")
    return "\n".join([*fit([heading], width), *rows, *fit(lines, width)])
