"""The WebSocket of each game (``/ws/games/{id}``): admitted under the server's limits, it
says hello (who is there: a seat and its token, or a spectator), then sends messages, each
done by its handler (``tminus.server.routes.messages``), while its writer sends the seat's
view after each change (``tminus.server.hub``)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Annotated, Any

from fastapi import APIRouter, Depends, WebSocket
from pydantic import ValidationError
from starlette.websockets import WebSocketState

from tminus.server.errors import SOCKET_CLOSE, describe
from tminus.server.hub import Connection
from tminus.server.limits import RateLimiter
from tminus.server.outbound import chat, error
from tminus.server.protocol import Hello, SeatKey, client_message
from tminus.server.routes.deps import Client
from tminus.server.routes.messages import Parts, handle, socket_parts
from tminus.server.service import GameError, joins_anew

log = logging.getLogger("tminus.server")
MAX_MESSAGE = 4096

router = APIRouter()


@router.websocket("/ws/games/{game_id}")
async def game_socket(
    socket: WebSocket,
    game_id: str,
    client: Client,
    parts: Annotated[Parts, Depends(socket_parts)],
) -> None:
    service, hub, limits = parts.service, parts.hub, parts.limits
    await socket.accept()
    refusal = hub.admit(client)
    if refusal:
        await refuse(socket, parts, "rate_limited", refusal, 4429)
        return
    try:
        await service.exists(game_id)
    except GameError as e:
        hub.leave(client)
        await refuse(socket, parts, e.code, e.message, SOCKET_CLOSE.get(e.code, 4400))
        return
    connection = Connection(socket, hub, client)
    writer = asyncio.create_task(connection.writer())
    try:
        await converse(parts, connection, game_id)
    finally:
        hub.detach(connection)
        hub.leave(client)
        connection.finish()
        # Let the writer send what is queued (an error, a last view) before closing.
        with contextlib.suppress(Exception):
            async with asyncio.timeout(limits.send_timeout):
                await writer
        writer.cancel()
        if connection.closed.is_set():
            log.info("socket of game %s closed: %s", game_id, connection.reason)
        if socket.client_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(1):
                    await socket.close(code=connection.close_code, reason=connection.reason)


async def refuse(socket: WebSocket, parts: Parts, code: str, message: str, close: int) -> None:
    with contextlib.suppress(Exception):
        async with asyncio.timeout(parts.limits.send_timeout):
            await socket.send_json(error(code, message))
        async with asyncio.timeout(1):
            await socket.close(code=close)


async def converse(parts: Parts, connection: Connection, game_id: str) -> None:
    """The hello, then the seat's messages, until the socket closes or is closed."""
    limits = parts.limits
    rate = RateLimiter(limits.messages_per_second, limits.message_burst)
    first = True
    while not connection.closed.is_set():
        text = await next_text(connection, limits.hello_timeout if first else None)
        if text is None:
            return
        try:
            if isinstance(text, bytes):
                connection.close_code = 1003
                raise GameError("bad_request", "binary frames are not accepted: send JSON text")
            if not first and rate.take("socket"):
                raise GameError(
                    "rate_limited",
                    f"too many messages ({limits.messages_per_second:g} a second at most): "
                    "this one was dropped",
                )
            message = parse(text)
            if first:
                await hello(parts, connection, game_id, message)
                first = False
            else:
                await handle(parts, connection, message)
        except GameError as e:
            connection.push(error(e.code, e.message))
            if first or connection.close_code == 1003:
                connection.close_code = SOCKET_CLOSE.get(e.code, connection.close_code)
                if connection.close_code == 1000:
                    connection.close_code = 4400
                return


async def next_text(connection: Connection, timeout: float | None) -> str | bytes | None:
    """The next frame's text (bytes: a binary frame); None when the socket closed, was
    closed, or (``timeout``: the hello's) said nothing in time."""
    receive = asyncio.ensure_future(connection.socket.receive())
    closed = asyncio.ensure_future(connection.closed.wait())
    done, _ = await asyncio.wait(
        {receive, closed}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
    )
    closed.cancel()
    if receive not in done:
        receive.cancel()
        if timeout is not None and not connection.closed.is_set():
            connection.push(error("bad_request", f"no hello within {timeout:g} s"))
            connection.close_code = 4408
            connection.reason = "no hello"
        return None
    event = receive.result()
    if event["type"] == "websocket.disconnect":
        return None
    text = event.get("text")
    return text if text is not None else (event.get("bytes") or b"")


def parse(text: str) -> Any:
    """The message a text frame holds (a ``GameError`` if it holds none)."""
    if len(text) > MAX_MESSAGE:
        raise GameError("bad_request", f"message longer than {MAX_MESSAGE} characters")
    try:
        return client_message.validate_python(json.loads(text))
    except (json.JSONDecodeError, RecursionError):
        raise GameError("bad_request", "a message is a JSON object, not too deep") from None
    except ValidationError as e:
        raise GameError("bad_request", describe(e.errors())) from None


async def hello(parts: Parts, connection: Connection, game_id: str, message: Any) -> None:
    """The first message says who is there; it is answered to this socket only, unless
    a person took their seat (then everyone sees them arrive)."""
    service = parts.service
    if not isinstance(message, Hello):
        raise GameError("bad_request", "the first message must be a hello")
    table = await service.get(game_id, current=False)  # (watched below: made current)
    held: dict[int, str] = {}
    if message.seat is not None:
        keys: list[Hello | SeatKey] = [message, *message.seats]
        for key in keys:
            seat = service.authorize(table, key.seat, key.token)
            assert key.token is not None  # (authorize refuses a token that is not a str)
            held[seat] = key.token
    elif message.seats:
        raise GameError("bad_request", "a hot-seat hello names its first seat too")
    refusal = await parts.hub.attach(connection, table)
    if refusal:
        raise GameError("rate_limited", refusal)
    connection.seat, connection.token, connection.held = message.seat, message.token, held
    names = {seat: message.name if seat == message.seat else None for seat in held}
    # They are here: a paused game goes on. (A seat joined or named anew is marked so by its
    # join, in the same transaction.)
    seated = [seat for seat in held if not joins_anew(table.record.seats[seat], names[seat])]
    await service.renew_seen([(table.id, seat) for seat in seated])
    changed = False
    for seat, token in held.items():
        changed |= await service.join(table, seat, token, names[seat])
    if not changed:
        connection.push_state(await service.get(game_id))
    history = await service.chat_history(table)
    if history:
        connection.push(chat(history, history=True))
