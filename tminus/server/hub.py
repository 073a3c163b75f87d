"""The sockets of this process: each game's, with a bounded queue and a writer task each.

A change the service commits (whichever process committed it, ``tminus.server.fanout``) only
marks the sockets of its game: nothing is sent under a game's lock. Each socket's writer
then sends the seat's view as the game is then; a socket that does not read within
``send_timeout``, or lets its queue fill, is closed.
"""

from __future__ import annotations

import asyncio
from collections import Counter, OrderedDict, deque
from typing import Any

from fastapi import WebSocket
from pydantic_core import to_json

from tminus.server.limits import Limits, RateLimiter
from tminus.server.outbound import chat
from tminus.server.service import GameService, Table
from tminus.server.storage import ChatLine

CHAT_RATE, CHAT_BURST = 0.5, 5  # lines of table talk a seat may send a second, and at once
STATE = object()  # in a socket's queue: "send this seat's view as it is now"
# In a socket's scope (put there by ``serving.PipelinedMessages``): an event set while its
# transport takes more. uvicorn's ``send`` then writes the frame without waiting at all (its
# one wait is for this), so the writer sends with no time limit of its own: a timer for every
# message was 2% of a busy server's loop.
WRITABLE = "tminus.writable"


def as_text(message: dict[str, Any]) -> str:
    """A message as its frame says it: JSON (three times as fast as ``json.dumps``)."""
    return to_json(message).decode()


class Connection:
    """One socket: its seat, its bounded queue of messages and the writer that sends them."""

    def __init__(self, socket: WebSocket, hub: Hub, client: str) -> None:
        self.socket = socket
        self.hub = hub
        self.client = client
        self.seat: int | None = None
        self.table: Table | None = None
        self.sent = 0  # log entries this socket has been sent
        self.queue: deque[Any] = deque()
        self.ready = asyncio.Event()
        self.state_queued = False
        self.closed = asyncio.Event()  # closed at once (it does not read)
        self.finishing = False  # closing once what is queued is sent
        self.reason = ""
        self.close_code = 1000
        self.token: str | None = None
        self.held: dict[int, str] = {}  # hot-seat: every seat this device plays, its token

    def push(self, message: Any) -> None:
        """Queue a message (or STATE); a socket whose queue is full is not reading: close it."""
        if self.closed.is_set():
            return
        if len(self.queue) >= self.hub.limits.send_queue:
            self.close("it does not read what it is sent")
            return
        self.queue.append(message)
        self.ready.set()

    def push_state(self, table: Table) -> None:
        """The seat's view is sent once the writer gets to it, as the game is then."""
        self.table = table
        if not self.state_queued:
            self.state_queued = True
            self.push(STATE)

    def close(self, reason: str) -> None:
        """Stop sending now: the socket is closed as soon as its handler sees this."""
        self.reason = reason
        self.close_code = 1008
        self.closed.set()
        self.ready.set()

    def finish(self) -> None:
        """Send what is queued, then stop."""
        self.finishing = True
        self.ready.set()

    async def writer(self) -> None:
        """Send queued messages, each within ``send_timeout``; close the socket if one is not."""
        timeout = self.hub.limits.send_timeout
        writable = self.socket.scope.get("extensions", {}).get(WRITABLE)
        try:
            while not self.closed.is_set():
                await self.ready.wait()
                self.ready.clear()
                while self.queue and not self.closed.is_set():
                    item = self.queue.popleft()
                    if item is STATE:
                        self.state_queued = False
                        if self.table is None:  # (its attach failed after a change was queued)
                            raise LookupError("no game to show")  # (closed below)
                        text = self.hub.render(self.table, self.seat, self.sent)
                        self.sent = self.table.move_number
                    else:
                        text = as_text(item)
                    if writable is not None and writable.is_set():
                        await self.socket.send_text(text)  # (written at once: see WRITABLE)
                    else:
                        async with asyncio.timeout(timeout):
                            await self.socket.send_text(text)
                if self.finishing:
                    return
        except TimeoutError:
            self.close(f"a message took more than {timeout:g} s to be sent")
        except Exception:  # the socket went away
            self.close("the socket closed")


class Hub:
    """The sockets of each game, told of every change the service commits."""

    def __init__(self, service: GameService, limits: Limits) -> None:
        self.service = service
        self.limits = limits
        self.connections: dict[str, set[Connection]] = {}
        self.per_client: Counter[str] = Counter()
        self.sockets = 0
        # Views already rendered, by game version, seat and log start: spectators share them.
        self.rendered: OrderedDict[tuple, str] = OrderedDict()
        # Table talk one seat may send: a line every 2 s, five at once.
        self.talk = RateLimiter(CHAT_RATE, CHAT_BURST)
        service.listen(self.changed)
        service.listen_chat(self.said)

    def said(self, table: Table, lines: list[ChatLine]) -> None:
        message = chat(lines)
        for connection in self.connections.get(table.id, ()):
            connection.push(message)

    def changed(self, table: Table) -> None:
        for connection in self.connections.get(table.id, ()):
            connection.push_state(table)

    def render(self, table: Table, seat: int | None, log_from: int) -> str:
        key = (table.copy, table.version, seat, log_from)
        text = self.rendered.get(key)
        if text is None:
            text = as_text(self.service.view(table, seat, log_from))
            self.rendered[key] = text
            if len(self.rendered) > 256:
                self.rendered.popitem(last=False)
        return text

    def present(self) -> list[tuple[str, int]]:
        """(game, seat) of every seat with a socket open here (hot-seat: each one held)."""
        return [
            (game_id, seat)
            for game_id, sockets in self.connections.items()
            for connection in sockets
            for seat in connection.held
        ]

    def admit(self, client: str) -> str | None:
        """Count a new socket in, or say why it is refused."""
        limits = self.limits
        if self.sockets >= limits.max_sockets:
            return f"the server has {limits.max_sockets} sockets open: try again later"
        if self.per_client[client] >= limits.sockets_per_client:
            return (
                f"too many sockets from your address ({limits.sockets_per_client} at most): "
                "close some game pages"
            )
        self.sockets += 1
        self.per_client[client] += 1
        return None

    def leave(self, client: str) -> None:
        self.sockets -= 1
        self.per_client[client] -= 1
        if self.per_client[client] <= 0:
            del self.per_client[client]

    async def attach(self, connection: Connection, table: Table) -> str | None:
        """Count the socket in on its game, which is watched while it has sockets here."""
        sockets = self.connections.setdefault(table.id, set())
        if len(sockets) >= self.limits.sockets_per_game:
            return f"this game has {self.limits.sockets_per_game} sockets open: try again later"
        sockets.add(connection)
        connection.table = table
        try:
            await self.service.watch(table)
        except BaseException:
            sockets.discard(connection)
            connection.table = None
            raise
        return None

    def detach(self, connection: Connection) -> None:
        table = connection.table
        if table is None:  # (never attached)
            return
        sockets = self.connections.get(table.id)
        if sockets and connection in sockets:
            sockets.discard(connection)
            if not sockets:
                del self.connections[table.id]
            self.service.unwatch(table)
