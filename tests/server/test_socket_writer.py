"""A socket's writer stops when it is told to, even as a send ends (the server's stop waits
for every task it cancels: one that runs on waits for ever)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest

from tminus.server.hub import Connection

pytestmark = pytest.mark.anyio


async def test_a_writer_cancelled_as_its_send_ends_stops():
    """On Python 3.11 ``asyncio.wait_for`` returns the result of work that ended just as the
    waiting task was cancelled, and the cancellation is lost (gh-86296): a writer sending that
    way went back to wait for its next message, for ever."""
    writer: asyncio.Task | None = None

    class Socket:
        async def send_text(self, text: str) -> None:
            assert writer is not None
            asyncio.get_running_loop().call_soon(writer.cancel)  # (before the send's end is seen)

    hub = SimpleNamespace(limits=SimpleNamespace(send_timeout=5.0, send_queue=8))
    connection = Connection(Socket(), hub, "client")  # type: ignore[arg-type]
    writer = asyncio.get_running_loop().create_task(connection.writer())
    connection.push({"type": "chat", "lines": []})
    await asyncio.wait({writer}, timeout=2)
    assert writer.done() and writer.cancelled()
