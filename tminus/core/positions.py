"""Checks that a game's ``_check_position`` shares: each names the field it rejects."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any


def check_in(field: str, value: Any, allowed: Collection[Any]) -> None:
    """``value`` is one of ``allowed`` (a phase, a seat, a cell)."""
    if value not in allowed:
        raise ValueError(f"position field {field}: {value!r} is not one of {sorted(allowed)}")


def check_each_in(field: str, values: Sequence[Any], allowed: Collection[Any]) -> None:
    for value in values:
        check_in(field, value, allowed)


def check_length(field: str, values: Sequence[Any], length: int) -> None:
    """One entry per seat (or cell, or rocket)."""
    if len(values) != length:
        raise ValueError(f"position field {field}: {len(values)} entries, not {length}")


def check_counts(field: str, counts: Sequence[int], kinds: int) -> None:
    """How many cards of each kind (value): one count per kind, none negative."""
    check_length(field, counts, kinds)
    if any(not isinstance(count, int) or count < 0 for count in counts):
        raise ValueError(f"position field {field}: counts are whole numbers, not {counts!r}")
