"""How `tminus serve` runs the app under uvicorn.

uvicorn loses whatever a client sends in the same packet as its WebSocket upgrade request:
its HTTP protocol drops the bytes after the request, and its WebSocket protocol reads frames
that arrived before the handshake was answered only when more data comes. A hello pipelined
with the handshake was never answered. ``PipelinedUpgrade`` hands those bytes on, and
``PipelinedMessages`` reads them as soon as the socket is accepted.
"""

from __future__ import annotations

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

MAX_HEAD = 65_536  # bytes of a request head kept to find where an upgrade request ends


class PipelinedUpgrade(HttpToolsProtocol):
    def data_received(self, data: bytes) -> None:
        received = getattr(self, "received", b"") + data
        self.received = received if len(received) <= MAX_HEAD else b""
        super().data_received(data)

    def on_message_complete(self) -> None:
        if not self.parser.should_upgrade():
            self.received = b""  # a plain request ended: the next one starts afresh
        super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        super().handle_websocket_upgrade()
        head_end = self.received.find(b"\r\n\r\n")
        rest = self.received[head_end + 4 :] if self.received.startswith(b"GET ") else b""
        self.received = b""
        if head_end >= 0 and rest:
            self.transport.get_protocol().data_received(rest)


class PipelinedMessages(WebSocketsSansIOProtocol):
    async def send(self, message) -> None:
        await super().send(message)
        if message["type"] == "websocket.accept" and self.handshake_complete:
            self.data_received(b"")  # frames that came with the handshake: read them now
