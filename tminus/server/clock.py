"""The server's clock: the database's, in seconds since 1970, so that every process reads
the same time (who is away, which games to pause, whose bot lease ran out). Tests move it
forward (``Clock.advance``) instead of sleeping past a limit."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Float, literal
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.elements import ColumnElement
from sqlalchemy.sql.expression import FunctionElement


class db_clock(FunctionElement[float]):
    """The database's clock in seconds since 1970: one clock for every process."""

    type = Float()
    inherit_cache = True


@compiles(db_clock, "postgresql")
def _postgresql_clock(_element: Any, _compiler: Any, **_kw: Any) -> str:
    return "extract(epoch from clock_timestamp())"


@compiles(db_clock, "sqlite")
def _sqlite_clock(_element: Any, _compiler: Any, **_kw: Any) -> str:
    return "((julianday('now') - 2440587.5) * 86400.0)"


class Clock:
    """The time a store reads: the database's, ``ahead`` seconds later (0 but in tests)."""

    def __init__(self) -> None:
        self.ahead = 0.0

    def now(self) -> ColumnElement[float]:
        """The time, as an SQL expression (read in the statement that uses it)."""
        return db_clock() + literal(self.ahead, Float()) if self.ahead else db_clock()

    def advance(self, seconds: float) -> None:
        """Move the clock ``seconds`` forward, as if that time had passed."""
        self.ahead += seconds
