"""The FastAPI app: the lobby's HTTP API, the WebSocket of each game, bots, static client.

One process owns the live games (their states and sockets are in memory; the store keeps
them durable). Every change happens under the game's lock: the action is committed, then
every socket of the game is sent its own view.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from contextlib import asynccontextmanager
from dataclasses import dataclass
from importlib.resources import files
from typing import Any

from fastapi import FastAPI, HTTPException, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError

from tminus.core.registry import rules_text
from tminus.server.protocol import (
    CreateGame,
    Hello,
    Move,
    Ping,
    Rename,
    Resign,
    Start,
    client_message,
    error,
)
from tminus.server.service import GameError, GameService, Table, catalog
from tminus.server.storage import DEFAULT_URL, FINISHED, PERSON, Store

log = logging.getLogger("tminus.server")
WEB = files("tminus.web")
MAX_MESSAGE = 4096
HTTP_STATUS = {"not_found": 404, "forbidden": 403, "bad_state": 409, "bad_request": 400}


@dataclass(eq=False)
class Connection:
    socket: WebSocket
    seat: int | None
    sent: int = 0  # log entries this socket has been sent


class Hub:
    """Live games: their locks, their sockets and their bots."""

    def __init__(self, service: GameService, bot_delay: float) -> None:
        self.service = service
        self.bot_delay = bot_delay
        self.locks: dict[str, asyncio.Lock] = {}
        self.connections: dict[str, set[Connection]] = {}
        self.bot_tasks: dict[str, asyncio.Task] = {}

    def lock(self, game_id: str) -> asyncio.Lock:
        return self.locks.setdefault(game_id, asyncio.Lock())

    async def send(self, connection: Connection, table: Table) -> None:
        message = self.service.view(table, connection.seat, connection.sent)
        connection.sent = table.move_number
        await connection.socket.send_text(json.dumps(message))

    async def broadcast(self, table: Table) -> None:
        """Every socket of the game gets its own view (called under the game's lock)."""
        for connection in list(self.connections.get(table.id, ())):
            try:
                await self.send(connection, table)
            except Exception:  # a socket that went away
                self.connections[table.id].discard(connection)

    async def changed(self, table: Table) -> None:
        await self.broadcast(table)
        self.schedule_bots(table)

    def schedule_bots(self, table: Table) -> None:
        task = self.bot_tasks.get(table.id)
        if table.bot_to_move() is not None and (task is None or task.done()):
            self.bot_tasks[table.id] = asyncio.create_task(self.play_bots(table))

    async def play_bots(self, table: Table) -> None:
        """Bots move while it is a bot's turn, each after a short visible delay."""
        while (seat := table.bot_to_move()) is not None:
            await asyncio.sleep(self.bot_delay)
            move_number = table.move_number
            if table.bot_to_move() != seat:
                continue
            snapshot = table.state.clone()
            try:
                action = int(await asyncio.to_thread(table.bots[seat].step, snapshot))
                if not snapshot.is_legal(action):
                    raise ValueError(f"the bot chose the illegal action {action}")
            except Exception:
                # A broken bot must not stall the game: it plays a random legal move instead.
                log.exception("bot in seat %s of game %s failed", seat, table.id)
                action = secrets.choice(snapshot.legal_actions())
            async with self.lock(table.id):
                if self.service.bot_move(table, seat, move_number, action):
                    await self.broadcast(table)

    def release(self, table: Table, connection: Connection) -> None:
        """A socket closed; a finished game nobody watches leaves memory (the store keeps it)."""
        connections = self.connections.get(table.id, set())
        connections.discard(connection)
        if not connections and table.status == FINISHED:
            self.connections.pop(table.id, None)
            self.locks.pop(table.id, None)
            self.bot_tasks.pop(table.id, None)
            self.service.forget(table.id)

    async def stop(self) -> None:
        for task in self.bot_tasks.values():
            task.cancel()
        for task in self.bot_tasks.values():
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


def create_app(db_url: str = DEFAULT_URL, bot_delay: float = 0.6) -> FastAPI:
    store = Store(db_url)
    service = GameService(store)
    hub = Hub(service, bot_delay)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        for table in service.resume_all():
            hub.schedule_bots(table)
        yield
        await hub.stop()
        store.close()

    app = FastAPI(title="T-minus", lifespan=lifespan)
    app.state.service = service
    app.state.hub = hub

    def table_or_404(game_id: str) -> Table:
        try:
            return service.get(game_id)
        except GameError as e:
            raise HTTPException(404, e.message) from None

    @app.exception_handler(GameError)
    async def game_error(_request, e: GameError) -> JSONResponse:
        return JSONResponse(error(e.code, e.message), status_code=HTTP_STATUS.get(e.code, 400))

    @app.exception_handler(HTTPException)
    async def http_error(_request, e: HTTPException) -> JSONResponse:
        return JSONResponse(error("http", str(e.detail)), status_code=e.status_code)

    @app.exception_handler(RequestValidationError)
    async def request_error(_request, e: RequestValidationError) -> JSONResponse:
        return JSONResponse(error("bad_request", describe(e.errors())), status_code=400)

    # -- HTTP API --------------------------------------------------------------------------
    @app.get("/api/catalog")
    def get_catalog() -> list[dict[str, Any]]:
        return catalog()

    @app.get("/api/rules/{game}", response_class=PlainTextResponse)
    def get_rules(game: str) -> str:
        try:
            return rules_text(game)
        except ValueError as e:
            raise HTTPException(404, str(e)) from None

    @app.post("/api/games", status_code=201)
    async def create_game(request: CreateGame) -> dict[str, Any]:
        seats = [seat.model_dump() for seat in request.seats]
        table = service.create(request.game, request.params, seats)
        async with hub.lock(table.id):
            await hub.changed(table)
        return {
            **service.summary(table),
            "spectate": f"/game/{table.id}",
            "invites": [
                {
                    "seat": s.seat,
                    "token": s.token,
                    "url": f"/game/{table.id}#seat={s.seat}&token={s.token}",
                }
                for s in table.record.seats
                if s.kind == PERSON
            ],
        }

    @app.get("/api/games")
    def list_games(limit: int = 30) -> list[dict[str, Any]]:
        return service.recent(min(max(limit, 1), 200))

    @app.get("/api/games/{game_id}")
    def get_game(game_id: str) -> dict[str, Any]:
        return service.summary(table_or_404(game_id))

    @app.get("/api/games/{game_id}/export")
    def export_game(game_id: str) -> dict[str, Any]:
        return service.export(table_or_404(game_id))

    @app.get("/api/games/{game_id}/replay")
    def replay_game(game_id: str) -> dict[str, Any]:
        return service.replay(table_or_404(game_id))

    @app.get("/api/games/{game_id}/layout")
    def game_layout(game_id: str) -> dict[str, Any]:
        """The game's printed board (e.g. Count Down's track), if it has one: public data."""
        layout = getattr(table_or_404(game_id).game, "layout", None)
        return layout() if callable(layout) else {}

    @app.get("/api/games/{game_id}/verify")
    def verify_game(game_id: str) -> dict[str, Any]:
        from tminus.server.fairness import verify_export

        result = verify_export(service.export(table_or_404(game_id)))
        return {"ok": result.ok, "chance_checked": result.chance_checked,
                "moves_checked": result.moves_checked, "problems": result.problems}  # fmt: skip

    # -- WebSocket -------------------------------------------------------------------------
    @app.websocket("/ws/games/{game_id}")
    async def game_socket(socket: WebSocket, game_id: str) -> None:
        await socket.accept()
        try:
            table = service.get(game_id)
        except GameError as e:
            await socket.send_json(error(e.code, e.message))
            await socket.close(code=4404)
            return
        connection = await hello(socket, table)
        if connection is None:
            return
        try:
            while True:
                text = await socket.receive_text()
                await handle(connection, table, text)
        except (WebSocketDisconnect, RuntimeError):  # closed, or found closed by a broadcast
            pass
        finally:
            hub.release(table, connection)

    async def hello(socket: WebSocket, table: Table) -> Connection | None:
        """The first message says who is there; a wrong token closes the socket."""
        try:
            message = parse(await socket.receive_text())
            if not isinstance(message, Hello):
                raise GameError("bad_request", "the first message must be a hello")
            async with hub.lock(table.id):
                if message.seat is not None:
                    service.join(table, message.seat, message.token, message.name)
                connection = Connection(socket, message.seat)
                hub.connections.setdefault(table.id, set()).add(connection)
                await hub.changed(table)
            return connection
        except GameError as e:
            await socket.send_json(error(e.code, e.message))
            await socket.close(code=4403 if e.code in ("forbidden", "unknown_seat") else 4400)
        except (WebSocketDisconnect, RuntimeError):
            pass
        return None

    async def handle(connection: Connection, table: Table, text: str) -> None:
        try:
            message = parse(text)
            if isinstance(message, Ping):
                await connection.socket.send_json({"type": "pong"})
                return
            if isinstance(message, Hello):
                raise GameError("bad_request", "already said hello")
            if connection.seat is None:
                raise GameError("forbidden", "spectators watch; they do not play")
            token = table.record.seats[connection.seat].token
            async with hub.lock(table.id):
                if isinstance(message, Move):
                    service.move(table, connection.seat, token, message.move_number, message.action)
                elif isinstance(message, Start):
                    service.start(table, connection.seat, token)
                elif isinstance(message, Resign):
                    service.resign(table, connection.seat, token)
                elif isinstance(message, Rename):
                    service.join(table, connection.seat, token, message.name)
                await hub.changed(table)
        except GameError as e:
            await connection.socket.send_json(error(e.code, e.message))

    def parse(text: str):
        if len(text) > MAX_MESSAGE:
            raise GameError("bad_request", f"message longer than {MAX_MESSAGE} characters")
        try:
            return client_message.validate_python(json.loads(text))
        except json.JSONDecodeError:
            raise GameError("bad_request", "a message is a JSON object") from None
        except ValidationError as e:
            raise GameError("bad_request", describe(e.errors())) from None

    # -- the browser client ----------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    def lobby_page() -> FileResponse:
        return FileResponse(str(WEB / "index.html"))

    @app.get("/game/{game_id}", include_in_schema=False)
    def game_page(game_id: str) -> FileResponse:
        return FileResponse(str(WEB / "game.html"))

    @app.get("/rules/{game}", include_in_schema=False)
    def rules_page(game: str) -> FileResponse:
        return FileResponse(str(WEB / "rules.html"))

    app.mount("/static", StaticFiles(directory=str(WEB)), name="static")
    return app


def describe(errors) -> str:
    """Pydantic's validation errors in one line: where, and what is wrong."""
    problems = "; ".join(
        f"{'.'.join(str(p) for p in d['loc']) or 'message'}: {d['msg']}" for d in errors
    )
    return f"malformed message: {problems}"
