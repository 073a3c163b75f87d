"""Shared helpers of the server tests: a service on a temporary SQLite file, games played out."""

from __future__ import annotations

import json
import secrets

import anyio

from tminus.agents.registry import make_agent
from tminus.server.service import GameService, Table
from tminus.server.storage import PLAYING, Store

WAIT = 10.0  # seconds a test waits for a socket's next message before it fails

# The seat tokens of the games the tests made: the store keeps only their hashes.
TOKENS: dict[str, dict[int, str]] = {}


def seats(*kinds: str) -> list[dict]:
    """Seats from short names: "person", or a bot spec such as "greedy"."""
    return [{"kind": "person"} if k == "person" else {"kind": "bot", "bot": k} for k in kinds]


async def create(service: GameService, game: str, params: dict, kinds: list[dict]) -> Table:
    created = await service.create(game, params, kinds)
    TOKENS[created.table.id] = created.tokens
    return created.table


def token(table: Table, seat: int) -> str:
    return TOKENS[table.id][seat]


async def join_all(service: GameService, table: Table) -> None:
    for seat in table.record.seats:
        if seat.kind == "person":
            await service.join(table, seat.seat, token(table, seat.seat))


async def step(service: GameService, table: Table) -> None:
    """One decision: a bot's by its agent (made here), a person's as its first legal move."""
    seat = table.state.current_player()
    entry = table.record.seats[seat]
    if entry.kind == "bot":
        agent = make_agent(entry.bot, table.game, seed=secrets.randbits(32))
        action = int(agent.step(table.state.clone()))
        assert await service.bot_move(table, seat, table.move_number, action)
    else:
        action = table.state.legal_actions()[0]
        await service.move(table, seat, token(table, seat), table.move_number, action)


async def play_out(service: GameService, table: Table, limit: int = 100_000) -> None:
    for _ in range(limit):
        if table.status != PLAYING:
            return
        await step(service, table)
    raise AssertionError("the game did not end")


async def new_service(path, **options) -> GameService:
    store = await Store(f"sqlite:///{path}").open()
    return GameService(store, **options)


def receive_text(ws, awaited: str = "a message", seconds: float = WAIT) -> str:
    """The next text message on a TestClient socket (``ws``): a test failure naming what
    was ``awaited`` if none comes within ``seconds`` (``ws.receive_text()`` would wait for
    ever). Read from the session's own stream, with a deadline on the app's event loop: a
    wait given up takes nothing from the socket, the next read gets the next message."""

    async def next_message() -> dict:
        with anyio.fail_after(seconds):
            return await ws._send_rx.receive()

    try:
        message = ws.portal.call(next_message)
    except TimeoutError:
        raise AssertionError(f"no message within {seconds:g} s: awaited {awaited}") from None
    ws._raise_on_close(message)  # (closed: WebSocketDisconnect, as receive_text says)
    return message["text"]


def receive_json(ws, awaited: str = "a message", seconds: float = WAIT):
    """``receive_text``'s message, decoded."""
    return json.loads(receive_text(ws, awaited, seconds))
