"""Where each field of a Count Down position lives.

The state keeps its fields in small records, one per phase module (``s.meeting``,
``s.auction``, ``s.countdown``, each centre's ``s.holdings[c]`` …). The position API of
the contract (``position_dict``, ``with_position``) reads and writes a field ``name`` as the
attribute ``_name``: these descriptors lead that attribute to the record that keeps it.
Rules read and write the records themselves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tminus.core.positions import check_length


class RecordField:
    """A position field kept as ``state.<record>.<attribute>``; ``kept_as`` turns the JSON
    value set into the attribute's type (a tuple for a list never changed in place)."""

    __slots__ = ("attribute", "kept_as", "record")

    def __init__(
        self, record: str, attribute: str, kept_as: Callable[[Any], Any] | None = None
    ) -> None:
        self.record = record
        self.attribute = attribute
        self.kept_as = kept_as

    def __get__(self, state: Any, owner: Any = None) -> Any:
        if state is None:
            return self
        return getattr(getattr(state, self.record), self.attribute)

    def __set__(self, state: Any, value: Any) -> None:
        # On a copy of the record: a clone may share a record that will not change again.
        record = getattr(state, self.record).copy()
        setattr(record, self.attribute, value if self.kept_as is None else self.kept_as(value))
        setattr(state, self.record, record)


class StateField:
    """A position field kept as the state's own attribute ``attribute`` (``kept_as`` as in
    ``RecordField``)."""

    __slots__ = ("attribute", "kept_as")

    def __init__(self, attribute: str, kept_as: Callable[[Any], Any] | None = None) -> None:
        self.attribute = attribute
        self.kept_as = kept_as

    def __get__(self, state: Any, owner: Any = None) -> Any:
        if state is None:
            return self
        return getattr(state, self.attribute)

    def __set__(self, state: Any, value: Any) -> None:
        setattr(state, self.attribute, value if self.kept_as is None else self.kept_as(value))


class CentreField:
    """A position field kept per centre, as ``state.holdings[c].<attribute>``: read as a
    tuple of the four centres' values (a view: set it with ``with_position``)."""

    __slots__ = ("attribute", "name")

    def __init__(self, name: str, attribute: str) -> None:
        self.name = name
        self.attribute = attribute

    def __get__(self, state: Any, owner: Any = None) -> Any:
        if state is None:
            return self
        return tuple(getattr(held, self.attribute) for held in state.holdings)

    def __set__(self, state: Any, values: Any) -> None:
        check_length(self.name, values, len(state.holdings))
        holdings = [held.copy() for held in state.holdings]
        for held, value in zip(holdings, values, strict=True):
            setattr(held, self.attribute, value)
        state.holdings = holdings


def lead_to_records(cls: type, fields: dict[str, RecordField | StateField | CentreField]) -> None:
    """Give ``cls`` the attribute ``_name`` of each position field kept in a record."""
    for name, field in fields.items():
        setattr(cls, "_" + name, field)
