"""Reaching the database: the asyncio engine for a URL (aiosqlite for SQLite, asyncpg for
PostgreSQL), the SQLite file made private and served by one process only, and database
errors said in words."""

from __future__ import annotations

import functools
import os
from pathlib import Path

from filelock import FileLock, Timeout
from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from tminus.server.limits import BUSY_TIMEOUT
from tminus.server.store_values import StoreError

DEFAULT_URL = "sqlite:///tminus.db"


def async_url(url: str) -> str:
    """The URL with the asyncio driver: aiosqlite for SQLite, asyncpg for PostgreSQL (any
    driver named in the URL, e.g. ``postgresql+psycopg://``, is replaced)."""
    parsed = make_url(url)
    backend = parsed.get_backend_name()
    driver = {"sqlite": "aiosqlite", "postgresql": "asyncpg"}.get(backend)
    if driver is None:
        raise StoreError(f"unsupported database {url!r}: use sqlite:///FILE or postgresql://...")
    return parsed.set(drivername=f"{backend}+{driver}").render_as_string(hide_password=False)


def sqlite_path(url: str) -> Path | None:
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database)


def make_engine(url: str, busy_timeout: float = BUSY_TIMEOUT) -> AsyncEngine:
    """An engine for ``url``. SQLite gets write-ahead logging (commits survive a killed
    process) and gives up on a locked file after ``busy_timeout`` seconds."""
    if make_url(url).get_backend_name() == "sqlite":
        # One connection: SQLite takes one writer at a time, and writers that wait for each
        # other sleep in SQLite's busy handler (milliseconds each) instead of queueing here.
        engine = create_async_engine(
            async_url(url),
            connect_args={"timeout": busy_timeout},
            pool_size=1,
            max_overflow=0,
            pool_timeout=busy_timeout + 5,
        )

        @event.listens_for(engine.sync_engine, "connect")
        def _sqlite_pragmas(connection, _record) -> None:
            cursor = connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    # No ping before each use (a round trip per transaction): a connection found broken is
    # dropped by the pool, and the request that met it is answered `unavailable` (retry).
    return create_async_engine(async_url(url), pool_size=10, max_overflow=10)


@functools.cache  # (asked at every short write: parsing the URL each time showed)
def is_shared(url: str) -> bool:
    """Whether several server processes may use this database (PostgreSQL: yes)."""
    return make_url(url).get_backend_name() == "postgresql"


def listen_dsn(url: str) -> str:
    """The URL for a plain asyncpg connection (the one that LISTENs)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


_held: dict[Path, list] = {}  # SQLite files this process serves: [lock, holders]


def hold_sqlite(url: str) -> None:
    """Refuse to serve a SQLite file another process serves (SQLite is for one process).

    The lock (``FILE.lock``, next to it) is held until ``release_sqlite`` or the process
    ends, however it ends. One process may hold it more than once."""
    path = sqlite_path(url)
    if path is None:
        return
    path = path.resolve()
    if path in _held:
        _held[path][1] += 1
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    lock = FileLock(f"{path}.lock", mode=0o600)
    try:
        lock.acquire(timeout=0)
    except Timeout:
        raise StoreError(
            f"another T-minus server is already using {path}: a SQLite file is served by one "
            "process. Stop that one, or run several processes on PostgreSQL "
            "(--db postgresql://...)"
        ) from None
    _held[path] = [lock, 1]


def release_sqlite(url: str) -> None:
    path = sqlite_path(url)
    if path is None:
        return
    held = _held.get(path.resolve())
    if held is not None:
        held[1] -= 1
        if held[1] <= 0:
            held[0].release()
            del _held[path.resolve()]


def private_file(path: Path) -> None:
    """Create the SQLite file readable and writable by its owner only (it holds the seeds)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
    if path.stat().st_mode & 0o077:
        path.chmod(0o600)


def unavailable(error: DBAPIError, url: str) -> StoreError:
    """A database error in words, with the database named and no password shown."""
    reason = str(getattr(error, "orig", None) or error).splitlines()[0]
    where = make_url(url).render_as_string(hide_password=True)
    return StoreError(f"the game store {where} cannot be used: {reason}")
