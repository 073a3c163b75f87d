"""The store's connection to its database: opened (tables made or migrated), one
transaction per call (database errors turned into ``StoreError``/``ClaimLost``), closed.
Every part of ``storage.Store`` runs its reads and writes through it."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from typing import Any, Self

from sqlalchemy import func, select
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from tminus.server.clock import Clock
from tminus.server.limits import BUSY_TIMEOUT
from tminus.server.migrate import migrate
from tminus.server.store_engine import (
    DEFAULT_URL,
    is_shared,
    make_engine,
    private_file,
    sqlite_path,
    unavailable,
)
from tminus.server.store_notices import News
from tminus.server.store_rows import Base
from tminus.server.store_values import ClaimLost, StoreError

SCHEMA_LOCK = 7_355_608  # the advisory lock that lets one process at a time make the tables


class StoreBase:
    """Opens, closes and runs transactions; each method of a store is one. Call ``open``
    first."""

    def __init__(
        self, url: str = DEFAULT_URL, busy_timeout: float = BUSY_TIMEOUT, clock: Clock | None = None
    ) -> None:
        self.url = url
        self.busy_timeout = busy_timeout
        self.clock = clock or Clock()  # (the database's: one for every process)
        self._lease_upsert: tuple[float, Any] | None = None  # (see ``take_lease``)
        self.engine: AsyncEngine | None = None
        self.reader: AsyncEngine | None = None  # the engine for reads (one snapshot each)
        self.autocommit: AsyncEngine | None = None  # (PostgreSQL: each statement by itself)
        self.held: AsyncConnection | None = None  # its connection, kept open (``_run_held``)
        self.pending: list = []  # saves and short writes waiting for the next group commit
        self.origin = secrets.token_hex(6)  # names this store in the notices it publishes
        self.writer: asyncio.Task | None = None

    async def open(self) -> Self:
        """Connect, create the tables (and the SQLite file, 0600) and bring old files up to date.

        A damaged or foreign file raises StoreError with a sentence, not a traceback."""
        path = sqlite_path(self.url)
        if path is not None:
            private_file(path)
        self.engine = make_engine(self.url, self.busy_timeout)
        # A read of several statements (a game's row, seats and log) sees one moment of the
        # database, not a change committed between two of them (SQLite's one connection
        # does that already).
        self.reader = (
            self.engine.execution_options(isolation_level="REPEATABLE READ")
            if is_shared(self.url)
            else self.engine
        )
        self.autocommit = self.engine.execution_options(isolation_level="AUTOCOMMIT")
        try:
            async with self.engine.begin() as connection:
                if is_shared(self.url):  # processes starting together make the tables once
                    await connection.execute(select(func.pg_advisory_xact_lock(SCHEMA_LOCK)))
                await connection.run_sync(migrate, Base.metadata)
        except DBAPIError as error:
            await self.engine.dispose()
            hint = " (is it a T-minus database? move it away or restore a backup)" * bool(path)
            raise StoreError(str(unavailable(error, self.url)) + hint) from None
        return self

    async def check(self) -> None:
        """Open and close: StoreError with a sentence if the database cannot be used."""
        await self.open()
        await self.close()

    async def close(self) -> None:
        if self.writer is not None:  # (a group commit under way ends on its connection)
            await asyncio.wait({self.writer}, timeout=self.busy_timeout + 5)
        self.autocommit = None  # (no commit opens a connection after this)
        await self._drop_held()
        if self.engine is not None:
            await self.engine.dispose()

    async def _run(self, work, *, write: bool = True, autocommit: bool = False):
        """One transaction (``autocommit``: the group commit's work of one statement, on the
        connection held for it, which commits each statement by itself: ``_run_held``);
        database errors become StoreError, a lost claim ClaimLost."""
        # (The engines are made by ``open``, which must come first.)
        assert self.engine and self.reader, "Store.open() first"
        try:
            if autocommit:
                return await self._run_held(work)
            context = self.engine.begin() if write else self.reader.connect()
            async with context as connection:
                return await work(connection)
        except IntegrityError:
            raise ClaimLost() from None
        except DBAPIError as error:
            raise unavailable(error, self.url) from None
        except OSError as error:
            raise StoreError(f"the game store cannot be used: {error}") from None

    async def _run_held(self, work):
        """``work`` on the connection that commits each statement by itself, held open from
        one call to the next: taking a connection from the pool and giving it back waits
        for three turns of the event loop, as many as the statement itself. Only the group
        commit's writer calls it, one batch at a time (it is one task: ``Store.save``), on
        PostgreSQL (SQLite's one connection, held, would keep every other transaction
        waiting). After anything but a lost claim (a refused statement) the connection is
        dropped: the database restarted, the statement was cancelled, or a bug. The next
        call opens another."""
        if not is_shared(self.url):
            raise ValueError("a connection is held for group commits on PostgreSQL only")
        if self.autocommit is None:
            raise StoreError("the game store is closed")
        if self.held is None:
            self.held = await self.autocommit.connect()
        try:
            return await work(self.held)
        except (ClaimLost, IntegrityError):
            raise
        except BaseException:  # (cancelled, or the database gone: the connection is unsure)
            await self._drop_held()
            raise

    async def _drop_held(self) -> None:
        held, self.held = self.held, None
        if held is not None:
            with contextlib.suppress(Exception):
                await held.invalidate()

    async def _run_soon(self, work):
        """A short write that refuses nothing by itself (a game made, a seat joined, a lease
        taken), as one transaction or, on SQLite, in the next group commit with the saves.
        SQLite has one connection: these writes, each in a transaction of its own, kept it
        from the saves for most of a move's round trip under load. PostgreSQL writes on
        several connections at once, and a long transaction there would lock rows across
        processes in no set order."""
        if is_shared(self.url):
            return await self._run(work)
        return await self._in_group_commit(work)

    async def _in_group_commit(self, item):
        """(``storage.Store`` does it: saves and short writes committed together.)"""
        raise NotImplementedError

    async def ping(self) -> None:
        """Reach the database once (StoreError if it cannot be reached): `/readyz`."""

        async def work(connection) -> None:
            await connection.scalar(select(1))

        await self._run(work, write=False)

    async def transaction(self, work, *, write: bool = True):
        """``work(connection)`` in one transaction, as every method here runs (for the
        server's other modules: take-backs, ``tminus.server.undo``)."""
        return await self._run(work, write=write)

    async def tell(self, connection, news: list[tuple[str, News]]) -> None:
        """Publish (game id, news) said by this store, in the caller's transaction.
        (``storage.Store`` does it, with ``storage.notify``: the one place to listen in.)"""
        raise NotImplementedError
