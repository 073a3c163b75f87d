"""Sets of cells as bit masks (bit ``c`` for cell ``c``), read back as lists of actions.

The engine keeps the sets it asks about at every decision (uninhabited galaxies, empty
cells, protected galaxies) as masks, updated move by move (``game.py``). Legal actions
are ``offset + cell`` for the cells of a mask, ascending; these read them out fast.
"""

from __future__ import annotations


def byte_tables(size: int, offset: int) -> list[list[tuple[int, ...]]]:
    """For reading any mask of ``size`` cells a byte at a time (``actions_in``):
    ``tables[i][byte]`` holds ``offset + cell`` for the cells of ``byte``, the mask's i-th
    byte, ascending."""
    return [
        [tuple(offset + 8 * i + j for j in range(8) if byte >> j & 1) for byte in range(256)]
        for i in range((size + 7) // 8)
    ]


def actions_in(mask: int, tables: list[list[tuple[int, ...]]]) -> list[int]:
    """``offset + cell`` for the cells of ``mask``, ascending (``tables`` from ``byte_tables``)."""
    actions: list[int] = []
    for table in tables:
        if not mask:
            break
        actions += table[mask & 255]
        mask >>= 8
    return actions


class NeighbourActions(dict[int, tuple[int, ...]]):
    """``self[mask]``: ``offset + cell`` for the cells of ``mask``, ascending, as a tuple.

    A memo for masks within one cell's neighbours: a cell's six neighbours have at most 64
    subsets, so the memo stays small (64 entries a cell at most), and after the first time
    a look-up is one dict read.
    """

    def __init__(self, offset: int) -> None:
        super().__init__()
        self.offset = offset

    def __missing__(self, mask: int) -> tuple[int, ...]:
        actions = tuple(self.offset + c for c in range(mask.bit_length()) if mask >> c & 1)
        self[mask] = actions
        return actions
