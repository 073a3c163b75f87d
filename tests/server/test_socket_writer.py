"""A socket's writer stops when it is told to, even as a send ends (the server's stop waits
for every task it cancels: one that runs on waits for ever); it times a send only when the
socket may make it wait, and closes a socket whose send takes too long."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest

from tminus.server import hub as hub_module
from tminus.server.hub import WRITABLE, Connection

pytestmark = pytest.mark.anyio


async def test_a_writer_cancelled_as_its_send_ends_stops():
    """On Python 3.11 ``asyncio.wait_for`` returns the result of work that ended just as the
    waiting task was cancelled, and the cancellation is lost (gh-86296): a writer sending that
    way went back to wait for its next message, for ever."""
    writer: asyncio.Task | None = None

    class Socket:
        scope: dict = {}

        async def send_text(self, text: str) -> None:
            assert writer is not None
            asyncio.get_running_loop().call_soon(writer.cancel)  # (before the send's end is seen)

    hub = SimpleNamespace(limits=SimpleNamespace(send_timeout=5.0, send_queue=8))
    connection = Connection(Socket(), hub, "client")  # type: ignore[arg-type]
    writer = asyncio.get_running_loop().create_task(connection.writer())
    connection.push({"type": "chat", "lines": []})
    await asyncio.wait({writer}, timeout=2)
    assert writer.done() and writer.cancelled()


class Stuck:
    """A socket whose transport takes nothing more (uvicorn's ``writable`` is cleared): each
    send waits until it is."""

    def __init__(self, writable: asyncio.Event) -> None:
        self.scope = {"extensions": {WRITABLE: writable}}
        self.writable = writable
        self.sent: list[str] = []

    async def send_text(self, text: str) -> None:
        await self.writable.wait()  # (as uvicorn's send does)
        self.sent.append(text)


async def test_a_send_is_timed_only_when_the_socket_may_make_it_wait(monkeypatch):
    timers = []

    class TimersCounted:
        """``asyncio`` as the hub sees it, its timers counted (asyncio itself is untouched)."""

        def __getattr__(self, name):
            return getattr(asyncio, name)

        def timeout(self, delay):
            timers.append(delay)
            return asyncio.timeout(delay)

    monkeypatch.setattr(hub_module, "asyncio", TimersCounted())
    writable = asyncio.Event()
    writable.set()
    socket = Stuck(writable)
    hub = SimpleNamespace(limits=SimpleNamespace(send_timeout=0.2, send_queue=8))
    connection = Connection(socket, hub, "client")  # type: ignore[arg-type]
    writer = asyncio.get_running_loop().create_task(connection.writer())
    connection.push({"type": "chat", "lines": []})
    await asyncio.sleep(0.05)
    assert len(socket.sent) == 1 and timers == []  # written at once: no timer
    writable.clear()  # the client stopped reading: its buffers are full
    connection.push({"type": "chat", "lines": []})
    await asyncio.wait({writer}, timeout=2)
    assert timers == [0.2] and len(socket.sent) == 1
    assert connection.closed.is_set() and "more than 0.2 s" in connection.reason
