"""The Sputnik board drawn as text (Rich markup): hex rows offset by half a cell.

Galaxies show their cell name (so a move can be typed from the picture), bases are the
owner's colour in brackets, rockets are ▲ and the seat number in the owner's colour, and
empty cells are a faint dot.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tminus.games.sputnik.board import setup_data
from tminus.games.sputnik.rules import BASE, GALAXY, NOBODY, OUT

if TYPE_CHECKING:
    from tminus.games.sputnik.game import SputnikState


def colour(seat: int) -> str:
    colours = setup_data()["colours"]
    return colours[seat % len(colours)]


def cell_markup(state: SputnikState, cell: int) -> str:
    """One cell, four characters wide."""
    board, at, _, _, _ = state.position()
    game = state.game
    content, rocket = board[cell], at[cell]
    name = game.board.names[cell]
    if rocket != NOBODY:
        seat = game.rocket_owner[rocket]
        left, right = ("\\[", "]") if content >= BASE else (" ", " ")
        return f"[bold {colour(seat)}]{left}▲{seat}{right}[/]"
    if content >= BASE:
        seat = game.rocket_owner[content - BASE]
        return f"[{colour(seat)}]\\[{name:<2}][/]"
    if content == GALAXY:
        return f"[white] {name:<3}[/]"
    return "[dim]  · [/]"


def render(state: SputnikState, seat: int | None = None) -> str:
    game = state.game
    board = game.board
    _, _, pos, base, _ = state.position()
    lines = [
        f"[bold]Sputnik[/] · {game.num_players} players · turn {state.turn()} · {state.phase()}"
    ]
    width = 2 * board.radius + 1
    for row in game.rows:
        indent = "  " * (width - len(row))
        lines.append(indent + "".join(cell_markup(state, cell) for cell in row))
    for s in range(game.num_players):
        who = "you" if s == seat else f"seat {s}"
        marker = "▶" if state.current_player() == s else " "
        rockets = []
        for rocket in game.rockets_of[s]:
            where = "out" if pos[rocket] == OUT else board.names[pos[rocket]]
            help_left = "help left" if base[rocket] != OUT else "help used"
            rockets.append(f"▲ {where} ({help_left})")
        team = f" team {game.side_of_seat[s]}" if game.teams else ""
        lines.append(f"{marker} [bold {colour(s)}]{who}[/]{team}: " + ", ".join(rockets))
    winners = state.winners()
    if winners:
        lines.append(f"[bold green]won by seat(s) {', '.join(map(str, winners))}[/]")
    elif state.is_terminal():
        lines.append("[bold]draw: the turn cap was reached[/]")
    return "\n".join(lines)
