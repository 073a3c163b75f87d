"""What the features of the game service share, declared once.

``GameService`` (``tminus.server.service``) is put together from its features, each a class
of its own module: ``Lifecycle`` (create, find, seats, moves, resign) and ``Together`` (what
the people at a table do together: away seats, take-backs, rematch, table talk), and
``Timekeeping`` (clocks running out). They share
the parts below, made by ``GameService``, and call a few of each other's methods: those are
declared here, so that each feature is type-checked on its own.
"""

from __future__ import annotations

import time
from typing import Any

from tminus.server.memory import Memory
from tminus.server.pipeline import Pipeline
from tminus.server.replication import Replicator
from tminus.server.storage import Store, StoredGame
from tminus.server.tables import Table, authorize, seat_names


class ServiceParts:
    store: Store  # the one truth
    memory: Memory  # the games in memory, and who is told of their changes
    replicator: Replicator  # keeps them up to date with what other processes commit
    pipeline: Pipeline  # commits a change, then puts it in memory

    def now(self) -> float:
        """The time the clocks read, as Unix seconds (the database's, as tests move it)."""
        return time.time() + self.store.clock.ahead

    @staticmethod
    def names(table: Table | StoredGame) -> list[str]:
        """What people call each seat: the names they chose ("Player 2" if they did not)."""
        return seat_names(table)

    @staticmethod
    def authorize(table: Table, seat: Any, token: Any) -> int:
        """The seat if ``token`` is its token; GameError otherwise."""
        return authorize(table, seat, token)

    # -- what one feature calls of another --------------------------------------------------
    async def get(self, game_id: Any, current: bool = True) -> Table:
        raise NotImplementedError  # (``Lifecycle.get``)

    async def join(self, table: Table, seat: int, token: str, name: str | None = None) -> bool:
        raise NotImplementedError  # (``Lifecycle.join``)

    async def tell(self, table: Table, seat: int | None, words: str) -> None:
        raise NotImplementedError  # (``Together.tell``)

    async def resign_seat(self, table: Table, seat: int, reason: str = "resigned") -> None:
        raise NotImplementedError  # (``Lifecycle.resign_seat``)
