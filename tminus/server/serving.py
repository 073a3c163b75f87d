"""How `tminus serve` runs the app under uvicorn.

uvicorn loses whatever a client sends in the same packet as its WebSocket upgrade request:
its HTTP protocol drops the bytes after the request, and its WebSocket protocol reads frames
that arrived before the handshake was answered only when more data comes. A hello pipelined
with the handshake was never answered. ``PipelinedUpgrade`` hands those bytes on, and
``PipelinedMessages`` reads them as soon as the socket is accepted.

uvicorn also keeps a connection that never sends a whole request for good (a silent one, or
a "slowloris" sending its head a byte at a time), and any number of them from one address:
1,100 idle connections under a 1,024 file limit refused everyone. ``guarded_http`` gives each
request ``request_timeout`` seconds to arrive, head and body, and each address (but a
trusted proxy's) ``connections_per_address`` connections at once; a WebSocket, once
upgraded, is held to the app's own limits on sockets instead.

Python's garbage collector, left as it is, stopped the server for 110 to 140 ms every 2 or 3
seconds under load (a full collection looks at every object the process holds): the longest
round trips of moves were those pauses. ``settle_the_heap`` takes what the server made to
start out of its sight, keeps each collection of recent objects short, and all but stops
full ones: measured under load, a full collection freed almost nothing (0 to 8 objects every
12 s at 200 games), since what the server makes dies by its reference counts or young.
Freezing alone made it worse (CPython 3.11-3.13): Python runs a full collection when the
objects it knows to be old grow by a quarter, and after the first full one frozen objects
no longer count, so a full collection came about every 120th young one (measured: 0.47 ms of
CPU a move instead of 0.30).
"""

from __future__ import annotations

import asyncio
import gc
import threading
import time
from collections import Counter
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import (
    PerMessageDeflate,
    ServerPerMessageDeflateFactory,
)
from websockets.frames import BINARY, TEXT, Frame

from tminus.server.hub import WRITABLE

MAX_HEAD = 65_536  # bytes of a request head kept to find where an upgrade request ends
# Messages shorter than this go uncompressed: what one TCP segment carries (1,460 bytes on
# Ethernet) less TLS's record and the frame's own head. A 4-Way state is about 1.1 KB, a
# Count Down one 4 KB or more. Measured at 200 games of 4-Way: 0.315 and 0.35 ms of CPU a
# move against 0.351 and 0.385 compressing them all (run in turn).
COMPRESS_FROM = 1_400
# A collection of the young objects every 2,000 net allocations (CPython 3.11-3.13's
# default: 700), of the middle generation after every 5 of them (Python collects it at the
# 6th), and a full one only after 1,000 of those (Python's default: 10): every 4 to 8 minutes
# at 200 games. "Net" counts objects made less objects freed, old ones too: at 200 games the
# young generation held 25,000 to 80,000 objects by its collection with 10,000 here, and the
# pause grew with it (up to 100 ms; a middle collection 56 to 128 ms). With these, measured
# at 200 games of 4-Way (25 s, scripts/gc_pauses): young ones median 0.8 to 4 ms, longest 9
# ms; middle ones median 5 to 13 ms, longest 18 ms. They take 6 to 7% of the loop instead of
# 2%, for far shorter pauses.
YOUNG_COLLECTION_EVERY = 2_000
MIDDLE_COLLECTION_EVERY = 5  # young collections
FULL_COLLECTION_EVERY = 1_000  # middle collections
# A lightly loaded server makes few allocations, so its full collections could be hours
# apart; one runs at least this often (seconds) all the same, unless one ran meanwhile.
FULL_COLLECTION_AT_LEAST_EVERY = 600.0


def settle_the_heap(full_at_least_every: float = FULL_COLLECTION_AT_LEAST_EVERY) -> None:
    """Before serving: what exists now (modules, schemas, the app) lives as long as the
    process, so it is frozen out of the collector's sight; collections of recent objects
    stay short, and full ones are rare, but never further apart than
    ``full_at_least_every`` seconds."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_COLLECTION_EVERY, MIDDLE_COLLECTION_EVERY, FULL_COLLECTION_EVERY)
    threading.Thread(
        target=collect_fully_now_and_then, args=(full_at_least_every,), daemon=True,
        name="full collections",
    ).start()  # fmt: skip


def full_collections() -> int:
    """How many full collections this process has run."""
    return gc.get_stats()[2]["collections"]


def collect_unless_collected(seen: int) -> int:
    """A full collection unless one ran since ``seen`` full ones were counted; the count."""
    if full_collections() == seen:
        gc.collect()
    return full_collections()


def collect_fully_now_and_then(seconds: float) -> None:
    seen = full_collections()
    while True:
        time.sleep(seconds)
        seen = collect_unless_collected(seen)


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
            protocol = self.transport.get_protocol()  # (now the WebSocket's)
            assert isinstance(protocol, asyncio.Protocol)  # (uvicorn's protocols all are)
            protocol.data_received(rest)


class SmallMessagesPlain(PerMessageDeflate):
    """Compression (permessage-deflate) of the messages that need it: one that fits in a
    single TCP segment goes as it is (RFC 7692 lets a sender leave any message uncompressed;
    the receiver inflates only those marked compressed), since squeezing it saves bytes but
    neither a packet nor a round trip, and costs the server's CPU on every move."""

    def encode(self, frame: Frame) -> Frame:
        if frame.opcode in (TEXT, BINARY) and frame.fin and len(frame.data) < COMPRESS_FROM:
            return frame
        return super().encode(frame)


class DeflateTheLargeOnes(ServerPerMessageDeflateFactory):
    """uvicorn's permessage-deflate, as negotiated, with ``SmallMessagesPlain``'s encoding."""

    def process_request_params(self, params, accepted_extensions):
        response, agreed = super().process_request_params(params, accepted_extensions)
        extension = SmallMessagesPlain(
            agreed.remote_no_context_takeover, agreed.local_no_context_takeover,
            agreed.remote_max_window_bits, agreed.local_max_window_bits, self.compress_settings,
        )  # fmt: skip
        return response, extension


class PipelinedMessages(WebSocketsSansIOProtocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # uvicorn's factory, unless compression is turned off: its settings, our encoding
        # (the factory's attributes are its constructor's parameters)
        self.conn.available_extensions = [
            DeflateTheLargeOnes(**vars(factory))
            if isinstance(factory, ServerPerMessageDeflateFactory)
            else factory
            for factory in self.conn.available_extensions or []
        ]

    async def send(self, message) -> None:
        await super().send(message)
        if message["type"] == "websocket.accept" and self.handshake_complete:
            self.data_received(b"")  # frames that came with the handshake: read them now

    def handle_connect(self, event) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)  # (made unless the handshake was refused)
        if scope is not None:
            scope["extensions"][WRITABLE] = self.writable


class GuardedHttp(PipelinedUpgrade):
    """HTTP with a time limit on each request's arrival and a cap on connections an address.
    ``guarded_http`` sets the class's limits."""

    request_timeout = 20.0
    per_address = 64
    trusted: frozenset[str] = frozenset()
    open_by_address: Counter[str] = Counter()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.address = self.client[0] if self.client else None
        self.timer: asyncio.TimerHandle | None = None
        if self.address is not None and self.address not in self.trusted:
            if self.open_by_address[self.address] >= self.per_address:
                self.address = None  # (not counted: it is closed at once)
                transport.close()
                return
            self.open_by_address[self.address] += 1
        self._arm()

    def _arm(self) -> None:
        """The next request has ``request_timeout`` seconds to arrive whole."""
        self._disarm()
        self.timer = self.loop.call_later(self.request_timeout, self._too_slow)

    def _disarm(self) -> None:
        timer: asyncio.TimerHandle | None = getattr(self, "timer", None)
        if timer is not None:
            timer.cancel()
            self.timer = None

    def _too_slow(self) -> None:
        self.timer = None
        if not self.transport.is_closing():
            self.transport.close()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self.timer is None:  # (idle until now: uvicorn's keep-alive timer was on)
            self._arm()

    def on_message_complete(self) -> None:
        self._disarm()
        super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        self._disarm()
        self._forget()  # a socket now: the app's limits on sockets hold it
        super().handle_websocket_upgrade()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._forget()
        super().connection_lost(exc)

    def _forget(self) -> None:
        address: str | None = getattr(self, "address", None)
        if address is not None:
            self.open_by_address[address] -= 1
            if self.open_by_address[address] <= 0:
                del self.open_by_address[address]
            self.address = None


def guarded_http(request_timeout: float, per_address: int, trusted: list[str]) -> type[Any]:
    """The HTTP protocol `tminus serve` runs, with these limits (``trusted``: the reverse
    proxies, whose connections carry many people's requests and are not capped)."""
    return type(
        "GuardedHttp",
        (GuardedHttp,),
        {
            "request_timeout": request_timeout,
            "per_address": per_address,
            "trusted": frozenset(trusted),
            "open_by_address": Counter(),
        },
    )
