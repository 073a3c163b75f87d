"""The Sputnik board: a hexagon of hex cells in axial coordinates, with readable cell names.

A cell is ``(q, r)`` with ``|q|, |r|, |q + r| <= radius``. Cells are numbered in reading
order (row ``r`` from the top, then ``q`` from the left); that number is what actions use.
A cell's name is a column letter for ``q`` and a row number for ``r``: with radius 3 the
columns are a-g (q = -3..3) and the rows 1-7 (r = -3..3), so the centre is ``d4``.
"""

from __future__ import annotations

import string
from functools import cache
from typing import Annotated

from pydantic import Field, model_validator

from tminus.games.data_files import DataModel, read_json

# The six neighbours of a hex cell in axial coordinates.
DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
MAX_RADIUS = (len(string.ascii_lowercase) - 1) // 2


CORNERS = range(6)  # numbered clockwise from the top-left corner of the hexagon


class SetupFile(DataModel):
    """``setup.json``, the setup table (reconstructed: RULINGS.md)."""

    # The corners that hold the bases, by the number of bases in play, clockwise; base j of
    # the list belongs to seat j mod players.
    corners_in_play: dict[int, list[Annotated[int, Field(ge=0, le=5)]]]
    colours: list[Annotated[str, Field(min_length=1)]]  # the seats' colours, seat 0 first

    @model_validator(mode="after")
    def _one_base_a_corner(self) -> SetupFile:
        if sorted(self.corners_in_play) != list(range(2, len(CORNERS) + 1)):
            raise ValueError("corners_in_play: one entry for each number of bases 2 to 6")
        for bases, corners in self.corners_in_play.items():
            if len(corners) != bases or corners != sorted(set(corners)):
                raise ValueError(f"corners_in_play.{bases}: {bases} corners, clockwise, none twice")
        if len(self.colours) != len(CORNERS) or len(set(self.colours)) != len(CORNERS):
            raise ValueError("colours: six different colours, one a base")
        return self


@cache
def setup_data() -> SetupFile:
    """The setup table (which corners hold bases, seat colours) from ``setup.json``."""
    return read_json(__package__, "setup.json", SetupFile, "Sputnik setup")


class HexBoard:
    """The cells of a hexagonal board of a given radius and everything precomputed about them."""

    def __init__(self, radius: int) -> None:
        if not 1 <= radius <= MAX_RADIUS:
            raise ValueError(f"a board radius is 1 to {MAX_RADIUS}, not {radius}")
        self.radius = radius
        self.cells: list[tuple[int, int]] = [
            (q, r)
            for r in range(-radius, radius + 1)
            for q in range(-radius, radius + 1)
            if abs(q + r) <= radius
        ]
        self.size = len(self.cells)
        self.index = {cell: i for i, cell in enumerate(self.cells)}
        # Sorted neighbour indices: legal moves come out sorted without a sort.
        self.neighbours: list[tuple[int, ...]] = [
            tuple(sorted(self.index[(q + dq, r + dr)] for dq, dr in DIRECTIONS
                         if (q + dq, r + dr) in self.index))
            for q, r in self.cells
        ]  # fmt: skip
        # The same as bit masks (bit ``c`` for cell ``c``), for the engine's set arithmetic.
        self.neighbour_masks = [sum(1 << n for n in around) for around in self.neighbours]
        self.row_numbers = range(-radius, radius + 1)
        self.names = [self.cell_name(q, r) for q, r in self.cells]
        self.by_name = {name: i for i, name in enumerate(self.names)}
        # The six corners, clockwise from the top-left one as the board is drawn.
        self.corners = [
            self.index[(q * radius, r * radius)]
            for q, r in ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
        ]

    def cell_name(self, q: int, r: int) -> str:
        return f"{string.ascii_lowercase[q + self.radius]}{r + self.radius + 1}"

    def adjacent(self, a: int, b: int) -> bool:
        return b in self.neighbours[a]

    def distance(self, a: int, b: int) -> int:
        (q1, r1), (q2, r2) = self.cells[a], self.cells[b]
        return (abs(q1 - q2) + abs(r1 - r2) + abs(q1 + r1 - q2 - r2)) // 2

    def rows(self) -> list[list[int]]:
        """Cell indices row by row, top to bottom, left to right."""
        return [[i for i, (_, r) in enumerate(self.cells) if r == row] for row in self.row_numbers]


@cache
def hex_board(radius: int) -> HexBoard:
    return HexBoard(radius)


def base_corners(board: HexBoard, bases: int) -> list[int]:
    """The cells of the bases in play, clockwise ("according to the number of players")."""
    corners = setup_data().corners_in_play[bases]
    return [board.corners[c] for c in corners]
