"""Hearing the changes other server processes commit: PostgreSQL's LISTEN/NOTIFY.

A save publishes each change on its game's channel in the transaction that commits it
(``storage.notify``). A process follows a game while it has a socket on it or plays its
bots: ``follow`` LISTENs on the game's channel (on one connection of its own, with asyncpg,
which hands every notification to ``heard(game_id, payload)`` in the order of the commits),
``unfollow`` stops when nobody needs the game any more. If that connection is lost, it is
made again, every followed game is listened to again, and ``caught_up(game_ids)`` is called
so that what was missed meanwhile is read from the store.

With SQLite (one process) there is nobody else to hear: ``Listener`` does nothing and every
game counts as followed.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from tminus.server.storage import StoreError, channel, is_shared, listen_dsn, own_notice

log = logging.getLogger("tminus.server.fanout")
RECONNECT = (0.1, 0.5, 1.0, 2.0, 5.0)  # seconds between attempts to listen again

Notified = Callable[[Any, int, str, str], None]  # (connection, pid, channel, payload)


class ListenConnection(Protocol):
    """What is used here of an asyncpg connection (asyncpg has no type hints)."""

    def add_termination_listener(self, callback: Callable[[Any], None]) -> None: ...

    async def add_listener(self, channel: str, callback: Notified) -> None: ...

    async def remove_listener(self, channel: str, callback: Notified) -> None: ...

    async def close(self, *, timeout: float | None = None) -> None: ...


class Listener:
    """One process on its own database: nothing to hear, every game in memory is fresh."""

    def following(self, game_id: str) -> bool:
        return True

    async def start(self, heard, caught_up) -> None:
        pass

    async def follow(self, game_id: str) -> bool:
        """Hear the game's changes from now on: whether this began to listen just now (the
        caller then reads what changed before)."""
        return False

    def unfollow(self, game_id: str) -> None:
        pass

    async def stop(self) -> None:
        pass


class PostgresListener(Listener):
    """LISTEN on the channel of each followed game, on a connection of its own."""

    def __init__(self, url: str, origin: str = "") -> None:
        self.url = url
        self.origin = origin  # this process's store: what it published, it knows already
        self.wanted: Counter[str] = Counter()  # game id -> how many follow it here
        self.listening: set[str] = set()
        self.connection: ListenConnection | None = None
        self.lock = asyncio.Lock()  # one command at a time on the connection
        self.heard: Callable[[str, str], None] = lambda _game_id, _payload: None
        self.caught_up: Callable[[set[str]], Awaitable[None]] | None = None
        self.tasks: set[asyncio.Task] = set()
        self.stopping = False

    def following(self, game_id: str) -> bool:
        return game_id in self.listening and self.connection is not None

    async def start(self, heard, caught_up) -> None:
        self.heard, self.caught_up = heard, caught_up
        await self._connect()

    async def _connect(self) -> None:
        import asyncpg

        try:
            connection = await asyncpg.connect(listen_dsn(self.url))
        except (OSError, asyncpg.PostgresError) as error:
            raise StoreError(f"cannot listen to the game store: {error}") from None
        connection.add_termination_listener(self._lost)
        self.connection = connection

    def _notified(self, _connection, _pid: int, name: str, payload: str) -> None:
        if not own_notice(self.origin, payload):
            self.heard(name.removeprefix("tminus_"), payload)

    async def follow(self, game_id: str) -> bool:
        """(Every call, failed or not, is undone by one ``unfollow``.)"""
        self.wanted[game_id] += 1
        if game_id in self.listening:
            return False
        async with self.lock:
            if game_id in self.listening or not self.wanted[game_id]:
                return False
            if self.connection is None:
                raise StoreError("the game store's notifications are down: try again")
            try:
                await self.connection.add_listener(channel(game_id), self._notified)
            except Exception as error:  # (the caller unfollows)
                raise StoreError(f"cannot listen to the game store: {error}") from None
            self.listening.add(game_id)
            return True

    def unfollow(self, game_id: str) -> None:
        self.wanted[game_id] -= 1
        if self.wanted[game_id] <= 0:
            del self.wanted[game_id]
            self._spawn(self._unlisten(game_id))

    async def _unlisten(self, game_id: str) -> None:
        async with self.lock:
            if game_id in self.wanted or game_id not in self.listening:
                return
            self.listening.discard(game_id)
            if self.connection is not None:
                with contextlib.suppress(Exception):
                    await self.connection.remove_listener(channel(game_id), self._notified)

    def _lost(self, _connection) -> None:
        """The listening connection ended: listen again, and read what was missed."""
        self.connection = None
        self.listening.clear()
        if not self.stopping:
            log.warning("lost the connection that listens for other processes' moves")
            self._spawn(self._reconnect())

    async def _reconnect(self) -> None:
        for attempt in itertools.count():
            await asyncio.sleep(RECONNECT[min(attempt, len(RECONNECT) - 1)])
            if self.stopping:
                return
            try:
                async with self.lock:
                    await self._connect()
                    for game_id in list(self.wanted):
                        if self.connection is None:  # (lost again meanwhile: try again)
                            raise StoreError("the connection was lost again")
                        await self.connection.add_listener(channel(game_id), self._notified)
                        self.listening.add(game_id)
                break
            except Exception as error:
                log.warning("cannot listen again yet: %s", error)
                if self.connection is not None:
                    with contextlib.suppress(Exception):
                        await self.connection.close()
                self.connection = None
                self.listening.clear()
        log.info("listening again to %d games", len(self.listening))
        if self.caught_up is not None:
            await self.caught_up(set(self.listening))

    def _spawn(self, work) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def stop(self) -> None:
        self.stopping = True
        for task in list(self.tasks):
            task.cancel()
        if self.connection is not None:
            with contextlib.suppress(Exception):
                await self.connection.close(timeout=2)
        self.connection = None


def listener_for(url: str, origin: str = "") -> Listener:
    """What hears other processes on this database (nothing, for SQLite); ``origin``: the
    store of this process, whose own notices are not heard."""
    return PostgresListener(url, origin) if is_shared(url) else Listener()
