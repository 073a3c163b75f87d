"""Boards drawn for a terminal of a given width (Rich markup): a line of words too long
for it is wrapped at its spaces, its next lines indented two columns past its own, so
that the terminal never breaks a line where it likes."""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Console
from rich.text import Text

HANG = 2  # columns a wrapped line's next lines are indented past its own indent
# Only handed to Rich's wrapping, which asks nothing of it for plain left-aligned text.
_CONSOLE = Console()


def fit(lines: Iterable[str], width: int | None) -> list[str]:
    """``lines`` wrapped to ``width`` columns (None: as they are)."""
    if width is None:
        return list(lines)
    return [piece for line in lines for piece in wrap_line(line, width)]


def wrap_line(line: str, width: int) -> list[str]:
    """One markup line as lines of at most ``width`` columns."""
    text = Text.from_markup(line)
    if text.cell_len <= width:
        return [line]
    indent = len(text.plain) - len(text.plain.lstrip(" "))
    pieces = text[indent:].wrap(_CONSOLE, max(1, width - indent - HANG))
    lines = []
    for i, piece in enumerate(pieces):
        piece.rstrip()
        lines.append(" " * (indent + (HANG if i else 0)) + piece.markup)
    return lines
