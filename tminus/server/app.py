"""The FastAPI app: the lobby's HTTP API, the WebSocket of each game, the static client.

The service (``tminus.server.service``) keeps the games and tells the app of each committed
change, whichever process committed it (``tminus.server.fanout``); the app holds the
sockets. Each socket has its own bounded queue and a writer task: a change only marks the
sockets of the game (nothing is sent under a game's lock), and a socket that does not read
within ``send_timeout`` or lets its queue fill is closed. Bots think in worker processes
(``tminus.server.bots``), in the one process that holds each game's bot lease. Every limit
is in ``Limits``.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import json
import logging
import re
from collections import Counter, OrderedDict, deque
from contextlib import asynccontextmanager
from importlib.resources import files
from typing import Any

from fastapi import FastAPI, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    Response,
    StreamingResponse,
)
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match
from starlette.websockets import WebSocketState

from tminus.core.registry import rules_text
from tminus.server.bots import BotPlayer, BotPool, Leases
from tminus.server.chores import Chores
from tminus.server.fanout import listener_for
from tminus.server.limits import Limits, RateLimiter, retry_after
from tminus.server.protocol import (
    Chat,
    CreateGame,
    GiveToBot,
    Hello,
    Hint,
    Move,
    Ping,
    Rematch,
    Rename,
    Resign,
    SeatKey,
    Start,
    Switch,
    TakeBack,
    TakeBackAnswer,
    client_message,
    error,
)
from tminus.server.reviews import ReviewBusy, Reviews
from tminus.server.service import GameError, GameService, Table, catalog, is_search
from tminus.server.storage import (
    DEFAULT_URL,
    FINISHED,
    ChatLine,
    Store,
    StoreError,
    hold_sqlite,
    is_shared,
    release_sqlite,
)

log = logging.getLogger("tminus.server")
WEB = files("tminus.web")
MAX_MESSAGE = 4096
CHAT_RATE, CHAT_BURST = 0.5, 5  # lines of table talk a seat may send a second, and at once
MAX_IDS = 50  # games asked for at once (a browser's own games)
REPLAY_CACHE = 16 * 2**20  # bytes of replay pages kept
HTTP_STATUS = {
    "not_found": 404, "forbidden": 403, "unknown_seat": 403, "bad_state": 409, "broken": 409,
    "bad_request": 400, "too_large": 413, "rate_limited": 429, "busy": 429, "unavailable": 503,
    "internal": 500,
}  # fmt: skip
RETRY_AFTER = {"unavailable": 1, "busy": 5}
SOCKET_CLOSE = {"forbidden": 4403, "unknown_seat": 4403, "not_found": 4404, "broken": 4409}


class Error(BaseModel):
    """Every error, over HTTP and over the socket: nothing was changed."""

    type: str = "error"
    code: str
    message: str


class Refused(Exception):
    """An HTTP request over a limit: answered 429 with Retry-After."""

    def __init__(self, code: str, message: str, seconds: float) -> None:
        super().__init__(message)
        self.code, self.message, self.seconds = code, message, seconds


def error_response(code: str, message: str, retry: float | None = None) -> JSONResponse:
    headers = {"Retry-After": retry_after(retry)} if retry is not None else None
    return JSONResponse(error(code, message), HTTP_STATUS.get(code, 400), headers=headers)


def message_page(
    title: str,
    text: str,
    back: str = "/",
    again: float | None = None,
    back_text: str = "",
    meter: tuple[int, int] | None = None,
) -> str:
    """A small page that says one thing, in the table's look, with a way back (``back``: the
    game's page, or the lobby); ``again``: seconds after which it reloads; ``meter``: (done,
    all) shown as a progress bar."""
    from html import escape

    reload = f'<meta http-equiv="refresh" content="{again:g}">' if again else ""
    bar = (
        f'<progress value="{meter[0]}" max="{max(meter[1], 1)}" aria-label="{escape(title)}">'
        f"{meter[0]} of {meter[1]}</progress>"
        if meter
        else ""
    )
    back_text = back_text or ("Back to the lobby" if back == "/" else "Back to the game")
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"{reload}<title>{escape(title)} · T-minus</title>"
        '<link rel="icon" href="/static/favicon.svg">'
        '<link rel="stylesheet" href="/static/css/app.css"></head>'
        f'<body><main class="message-page"><h1>{escape(title)}</h1><p role="status">'
        f'{escape(text)}</p>{bar}<p><a href="{escape(back)}">{escape(back_text)}</a></p></main>'
        "</body></html>"
    )


def wants_page(request: Request) -> bool:
    """A browser opening an address (not the API, not a socket): it is answered with a
    page, not with JSON."""
    path = request.url.path
    html = "text/html" in request.headers.get("accept", "")
    return html and request.method == "GET" and not path.startswith(("/api/", "/ws/"))


def documented(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The error answers a route documents in the OpenAPI schema."""
    return {status: {"model": Error, "description": "error"} for status in statuses}


# -- sockets -------------------------------------------------------------------------------
STATE = object()  # in a socket's queue: "send this seat's view as it is now"


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
                        text = json.dumps(item)
                    await asyncio.wait_for(self.socket.send_text(text), timeout)
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
        message = {"type": "chat", "messages": lines}
        for connection in self.connections.get(table.id, ()):
            connection.push(message)

    def changed(self, table: Table) -> None:
        for connection in self.connections.get(table.id, ()):
            connection.push_state(table)

    def render(self, table: Table, seat: int | None, log_from: int) -> str:
        key = (table.copy, table.version, seat, log_from)
        text = self.rendered.get(key)
        if text is None:
            text = json.dumps(self.service.view(table, seat, log_from))
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


def create_app(
    db_url: str = DEFAULT_URL, bot_delay: float = 0.6, limits: Limits | None = None
) -> FastAPI:
    limits = limits or Limits()
    store = Store(db_url, busy_timeout=limits.busy_timeout)
    listener = listener_for(db_url, store.origin)
    service = GameService(store, cache_size=limits.cache_size, listener=listener)
    hub = Hub(service, limits)
    pool = BotPool(limits.bot_workers or None, limits.bot_budget)
    leases = Leases(store, limits.bot_lease)
    bots = BotPlayer(service, pool, bot_delay, leases, limits.max_bot_games)
    creations = RateLimiter(limits.creates_per_minute / 60, max(1, limits.creates_per_minute))
    replays = asyncio.Semaphore(limits.replays_at_once)
    replay_pages = BytesCache(REPLAY_CACHE)
    reviews = Reviews(limits.review_samples, limits.reviews_at_once, hint_budget=limits.hint_budget)
    hinting: set[asyncio.Task] = set()
    chores = Chores()
    presence_every = min(10.0, limits.away_after / 3, limits.pause_after / 3)

    async def caught_up(game_ids: set[str]) -> None:
        """The listener was down a while: read what the watched games missed meanwhile."""
        for game_id in game_ids:
            table = service.tables.get(game_id)
            if table is not None:
                with contextlib.suppress(GameError, StoreError):
                    await service.catch_up(table)

    async def expire_waiting_games() -> None:
        """The games that waited too long for their players expire."""
        await service.expire_waiting(limits.waiting_expiry)

    async def pause_abandoned_games() -> None:
        """The games in play whose people all left long ago are paused."""
        await service.pause_abandoned(limits.pause_after)

    async def renew_presence() -> None:
        """The seats with a socket open here are marked as here in the store (so every
        process knows who left: see ``GameService.give_to_bot``)."""
        await service.renew_seen(hub.present())

    def start_chores() -> None:
        if limits.waiting_expiry > 0:
            chores.start("expiring waiting games", min(60.0, limits.waiting_expiry / 4),
                         expire_waiting_games)  # fmt: skip
        chores.start("renewing who is here", presence_every, renew_presence)
        chores.start("pausing abandoned games", min(60.0, limits.pause_after / 4),
                     pause_abandoned_games)  # fmt: skip
        if bots.keeper is not None:
            chores.watch("keeping the bots' leases", bots.keeper)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        hold_sqlite(db_url)  # SQLite: one process (StoreError if another serves the file)
        try:
            await store.open()
            await listener.start(service.heard, caught_up)
            pool.start()
            if not is_shared(db_url):
                # Alone on the file: the games in play resume here, whoever played them.
                await store.release_leases(None)
                resumed, broken = await service.resume()
                for game_id, problem in broken.items():
                    log.error("game %s cannot resume and is marked broken: %s", game_id, problem)
                for table in resumed:
                    bots.changed(table)
            # Shared: the games whose bots nobody plays (any more) are taken over by sweeps.
            bots.start()
            start_chores()
            yield
        finally:
            await chores.stop()
            for task in list(hinting):
                task.cancel()
            reviews.close()
            await bots.stop()
            await listener.stop()
            await store.close()
            release_sqlite(db_url)

    app = FastAPI(
        title="T-minus",
        summary="Play countdown games online: lobby, games, exports and replays.",
        lifespan=lifespan,
    )
    app.state.service = service
    app.state.hub = hub
    app.state.bots = bots
    app.state.limits = limits
    app.state.replay_pages = replay_pages
    app.state.reviews = reviews
    app.add_middleware(SecurityHeaders)
    app.add_middleware(BodyLimit, max_body=limits.max_body)

    # -- one shape for every error -----------------------------------------------------------
    @app.exception_handler(GameError)
    async def game_error(_request, e: GameError) -> JSONResponse:
        return error_response(e.code, e.message, RETRY_AFTER.get(e.code))

    @app.exception_handler(Refused)
    async def refused(_request, e: Refused) -> JSONResponse:
        return error_response(e.code, e.message, e.seconds)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, e: StarletteHTTPException) -> Response:
        if e.status_code == 404 and wants_page(request):
            text = "There is no page at this address. Games are made and found in the lobby."
            return HTMLResponse(message_page("Page not found", text), status_code=404)
        code = {404: "not_found", 405: "bad_request"}.get(e.status_code, "bad_request")
        response = JSONResponse(error(code, str(e.detail)), status_code=e.status_code)
        if e.headers:
            response.headers.update(e.headers)
        if e.status_code == 405:  # every method of the path, not only the first route's
            response.headers["Allow"] = ", ".join(allowed_methods(app, request))
        return response

    @app.exception_handler(RequestValidationError)
    async def request_error(_request, e: RequestValidationError) -> JSONResponse:
        return error_response("bad_request", describe(e.errors()))

    @app.exception_handler(Exception)
    async def internal_error(_request, e: Exception) -> JSONResponse:
        log.exception("internal error")
        return error_response("internal", "the server failed on this request; it was logged")

    # -- health, for a load balancer or an orchestrator ------------------------------------
    @app.get("/healthz", responses={503: {"description": "a background chore stopped"}})
    def healthz() -> JSONResponse:
        """Liveness: the process answers and every background chore still runs."""
        running = chores.running()
        ok = all(running.values())
        body = {"status": "ok" if ok else "failing", "chores": running}
        return JSONResponse(body, status_code=200 if ok else 503)

    @app.get("/readyz", responses={503: {"description": "the database cannot be reached"}})
    async def readyz() -> JSONResponse:
        """Readiness: whether the database answers now (send players elsewhere if not)."""
        try:
            await store.ping()
        except StoreError as error:
            body = {"status": "unavailable", "database": str(error)}
            return JSONResponse(body, status_code=503)
        return JSONResponse({"status": "ok", "database": "reachable"})

    # -- HTTP API --------------------------------------------------------------------------
    @app.get("/api/catalog")
    def get_catalog() -> list[dict[str, Any]]:
        return catalog()

    @app.get("/api/rules/{game}", response_class=PlainTextResponse, responses=documented(404))
    def get_rules(game: str) -> str:
        try:
            return rules_text(game)
        except ValueError as e:
            raise GameError("not_found", str(e)) from None

    @app.get("/api/limits")
    def get_limits() -> dict[str, Any]:
        """The limits this server enforces (see the README)."""
        return {name: getattr(limits, name) for name in Limits.documented()}

    @app.post("/api/games", status_code=201, responses=documented(400, 413, 429, 503))
    async def create_game(body: CreateGame, request: Request) -> dict[str, Any]:
        client = request.client.host if request.client else "unknown"
        seats = [seat.model_dump() for seat in body.seats]
        admit(client, [s.get("bot") or "random" for s in seats if s.get("kind") == "bot"])
        created = await service.create(
            body.game, body.params, seats, body.listed, body.undo, body.hints
        )
        table = created.table
        bots.changed(table)
        return {
            **service.summary(table),
            "spectate": f"/game/{table.id}",
            "invites": [
                {
                    "seat": seat,
                    "name": table.record.seats[seat].name,
                    "token": token,
                    "url": f"/game/{table.id}#seat={seat}&token={token}",
                }
                for seat, token in created.tokens.items()
            ],
        }

    def admit(client: str, specs: list[str], new_game: bool = True) -> None:
        """One set of limits for every way a game or a bot comes to be (a game created, a
        rematch made, a seat handed to a bot): the games an address may make a minute, and
        the bots the server can play (``specs``: the bots it would add)."""
        wait = creations.take(client) if new_game else 0
        if wait:
            raise Refused(
                "rate_limited",
                f"too many games created from your address ({limits.creates_per_minute:g} a "
                f"minute at most): try again in {retry_after(wait)} s",
                wait,
            )
        admit_bots(specs)

    def admitted_here(connection: Connection, specs: list[str], new_game: bool) -> None:
        """``admit`` for a socket's request: a refusal is its answer, nothing changes."""
        try:
            admit(connection.client, specs, new_game)
        except Refused as refused:
            raise GameError(refused.code, refused.message) from None

    def admit_bots(specs: list[str]) -> None:
        """Refuse new bots while the server's bots already use what it allows."""
        if not specs:
            return
        thinking = bots.thinking()
        if len(thinking) >= limits.max_bot_games:
            raise Refused(
                "busy",
                f"the server is busy: {len(thinking)} games have bots playing: try again in "
                "a minute",
                60,
            )
        searching = sum(
            is_search(s.bot) for t in thinking for s in t.record.seats if s.kind == "bot"
        )
        wanted = sum(is_search(spec) for spec in specs)
        if wanted and searching + wanted > limits.max_search_bots:
            raise Refused(
                "busy",
                f"the server is busy: {searching} search bots are playing (at most "
                f"{limits.max_search_bots}): pick a lighter bot or try again in a minute",
                60,
            )

    @app.get("/api/games", responses=documented(400, 503))
    async def list_games(
        limit: int = Query(30, ge=1, le=200, description="how many of the newest games"),
        ids: str | None = Query(
            None, max_length=MAX_IDS * 33, description="these games (comma-separated ids)"
        ),
    ) -> list[dict[str, Any]]:
        """The listed games in play, newest first; or, with ``ids``, those games (any
        status, listed or not: e.g. the games a browser holds seats in)."""
        if ids is None:
            return await service.recent(limit, listed=True)
        wanted = [i for i in ids.split(",") if i]
        if len(wanted) > MAX_IDS:
            raise GameError("bad_request", f"at most {MAX_IDS} ids at once")
        return await service.some(wanted)

    @app.get("/api/games/{game_id}", responses=documented(404, 503))
    async def get_game(game_id: str) -> dict[str, Any]:
        return service.summary(await service.record(game_id))

    @app.get("/api/games/{game_id}/export", responses=documented(404, 503))
    async def export_game(game_id: str) -> dict[str, Any]:
        return await service.export_broken(game_id)

    @app.get(
        "/api/games/{game_id}/replay",
        responses={
            **documented(400, 404, 409, 503),
            200: {"content": {"application/json": {"schema": {"type": "object"}}}},
        },
        response_class=StreamingResponse,
    )
    async def replay_game(
        game_id: str,
        start: int = Query(0, ge=0, description="the first frame"),
        count: int | None = Query(None, ge=1, le=1000, description="frames (default: all)"),
    ) -> Response:
        """A finished game step by step, streamed as it is made; or one page of it (kept in
        a small cache: a finished game's pages never change)."""
        table = await service.get(game_id)
        frames = service.replay_frames(table, start, None if count is None else start + count)
        head = {**service.summary(table), "start": start, "total": table.move_number + 1}
        if count is None:
            return StreamingResponse(stream_replay(head, frames), media_type="application/json")
        key = (game_id, start, count)
        page = replay_pages.get(key)
        if page is None:
            page = "".join([text async for text in stream_replay(head, frames)]).encode()
            replay_pages.put(key, page)
        return Response(page, media_type="application/json")

    async def stream_replay(head: dict[str, Any], frames):
        """The replay's JSON in pieces, each made in a worker thread, a few at a time."""
        async with replays:
            yield json.dumps(head)[:-1] + ', "frames": ['
            first = True
            while True:
                chunk = await asyncio.to_thread(encoded, frames, 16)
                if chunk:
                    yield ("" if first else ",") + chunk
                    first = False
                else:
                    break
            yield "]}"

    async def asked_review(game_id: str):
        """The review of a finished game, or None while it is being made (now started)."""
        table = await service.get(game_id)
        if table.status != FINISHED:
            raise GameError("bad_state", "a game is reviewed once it is over")
        record = table.record
        try:
            return reviews.ask(
                game_id, type(table.game), record.params, table.state.history(),
                service.names(table),
            )  # fmt: skip
        except ReviewBusy as busy:
            raise GameError("busy", str(busy)) from None
        except RuntimeError as failed:  # the review's process failed: asking again retries
            raise GameError("unavailable", str(failed)) from None

    @app.get(
        "/api/games/{game_id}/review",
        responses={
            **documented(404, 409, 429, 503),
            202: {"description": "being made: ask again (Retry-After)"},
        },
    )
    async def review_game_route(game_id: str) -> Response:
        """A finished game reviewed: for each decision its chance to win before and after
        the move played, the best move and the loss (``status``: ``ready``); ``working``
        (202) while the review is being made: ask again."""
        review = await asked_review(game_id)
        if review is None:
            so_far = [move.to_dict() for move in reviews.so_far(game_id)]
            working = {"status": "working", **reviews.progress(game_id), "moves": so_far}
            return JSONResponse(working, status_code=202, headers={"Retry-After": "2"})
        return JSONResponse({"status": "ready", **review.to_dict()})

    @app.get("/game/{game_id}/review", include_in_schema=False)
    async def review_page(game_id: str) -> HTMLResponse:
        """The review as a page (no script): the curve, the graded moves; while it is being
        made, a page that asks again by itself."""
        from tminus.review import Review
        from tminus.review.report import html_report

        back = f"/game/{game_id}"
        try:
            review = await asked_review(game_id)
        except GameError as refused:
            # (no game there: no game to go back to)
            page = message_page(
                "No review", refused.message, "/" if refused.code == "not_found" else back
            )
            return HTMLResponse(page, status_code=HTTP_STATUS.get(refused.code, 400))
        if review is None:
            where = reviews.progress(game_id)
            text, meter = "The game is being reviewed: every move is played out many times. ", None
            if "judged" in where:
                meter = (where["judged"], where["decisions"])
                text += f"{meter[0]} of {meter[1]} decisions judged"
                left = where["seconds_left"]
                text += f", about {max(1, round(left))} s left. " if left is not None else ". "
            elif where.get("waiting"):
                text += f"It starts after {where['waiting']} other review(s). "
            so_far = reviews.so_far(game_id)
            if so_far:  # the moves judged so far, filled in as they come
                table = await service.get(game_id)
                names = service.names(table)
                partial = Review(table.game.name, dict(table.record.params), names, so_far, None)
                text += "The moves judged so far are below; the rest follow."
                return HTMLResponse(html_report(partial, back=back, waiting=(text, meter)))
            text += "This page shows the review as soon as it is ready."
            page = message_page("Reviewing the game…", text, back, again=2, meter=meter)
            return HTMLResponse(page)
        return HTMLResponse(html_report(review, back=back))

    @app.get("/api/games/{game_id}/layout", responses=documented(404, 409, 503))
    async def game_layout(game_id: str) -> dict[str, Any]:
        """The game's printed board (e.g. Count Down's track), if it has one: public data."""
        game = (await service.get(game_id)).game
        return game.layout() if game.game_type.layout else {}

    @app.get("/api/games/{game_id}/verify", responses=documented(404, 503))
    async def verify_game(game_id: str) -> dict[str, Any]:
        from tminus.server.fairness import verify_export

        export = await service.export_broken(game_id)
        result = await asyncio.to_thread(verify_export, export)
        return {"ok": result.ok, "chance_checked": result.chance_checked,
                "moves_checked": result.moves_checked, "taken_back": result.taken_back,
                "problems": result.problems}  # fmt: skip

    # -- WebSocket -------------------------------------------------------------------------
    @app.websocket("/ws/games/{game_id}")
    async def game_socket(socket: WebSocket, game_id: str) -> None:
        client = socket.client.host if socket.client else "unknown"
        await socket.accept()
        refusal = hub.admit(client)
        if refusal:
            await refuse(socket, "rate_limited", refusal, 4429)
            return
        try:
            await service.exists(game_id)
        except GameError as e:
            hub.leave(client)
            await refuse(socket, e.code, e.message, SOCKET_CLOSE.get(e.code, 4400))
            return
        connection = Connection(socket, hub, client)
        writer = asyncio.create_task(connection.writer())
        try:
            await converse(connection, game_id)
        finally:
            hub.detach(connection)
            hub.leave(client)
            connection.finish()
            # Let the writer send what is queued (an error, a last view) before closing.
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, limits.send_timeout)
            writer.cancel()
            if connection.closed.is_set():
                log.info("socket of game %s closed: %s", game_id, connection.reason)
            if socket.client_state == WebSocketState.CONNECTED:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(
                        socket.close(code=connection.close_code, reason=connection.reason), 1
                    )

    async def refuse(socket: WebSocket, code: str, message: str, close_code: int) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(socket.send_json(error(code, message)), limits.send_timeout)
            await asyncio.wait_for(socket.close(code=close_code), 1)

    async def converse(connection: Connection, game_id: str) -> None:
        """The hello, then the seat's messages, until the socket closes or is closed."""
        socket = connection.socket
        rate = RateLimiter(limits.messages_per_second, limits.message_burst)
        first = True
        while not connection.closed.is_set():
            receive = asyncio.ensure_future(socket.receive())
            closed = asyncio.ensure_future(connection.closed.wait())
            timeout = limits.hello_timeout if first else None
            done, _ = await asyncio.wait(
                {receive, closed}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
            )
            closed.cancel()
            if receive not in done:
                receive.cancel()
                if first and not connection.closed.is_set():
                    connection.push(error("bad_request", "no hello within "
                                          f"{limits.hello_timeout:g} s"))  # fmt: skip
                    connection.close_code = 4408
                    connection.reason = "no hello"
                return
            event = receive.result()
            if event["type"] == "websocket.disconnect":
                return
            try:
                text = event.get("text")
                if text is None:
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
                    await hello(connection, game_id, message)
                    first = False
                else:
                    await handle(connection, message)
            except GameError as e:
                connection.push(error(e.code, e.message))
                if first or connection.close_code == 1003:
                    connection.close_code = SOCKET_CLOSE.get(e.code, connection.close_code)
                    if connection.close_code == 1000:
                        connection.close_code = 4400
                    return

    async def hello(connection: Connection, game_id: str, message: Any) -> None:
        """The first message says who is there; it is answered to this socket only, unless
        a person took their seat (then everyone sees them arrive)."""
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
        refusal = await hub.attach(connection, table)
        if refusal:
            raise GameError("rate_limited", refusal)
        connection.seat, connection.token, connection.held = message.seat, message.token, held
        await service.renew_seen([(table.id, seat) for seat in held])  # (a paused game goes on)
        changed = False
        for seat, token in held.items():
            name = message.name if seat == message.seat else None
            changed |= await service.join(table, seat, token, name)
        if not changed:
            connection.push_state(await service.get(game_id))
        history = await service.chat_history(table)
        if history:
            connection.push({"type": "chat", "messages": history, "history": True})

    async def handle(connection: Connection, message: Any) -> None:
        if isinstance(message, Ping):
            connection.push({"type": "pong"})
            return
        if isinstance(message, Hello):
            raise GameError("bad_request", "already said hello")
        if connection.seat is None:
            raise GameError("forbidden", "spectators watch; they do not play")
        # (Its hello attached the socket to the game, and authorized the seat's token.)
        assert connection.table is not None and connection.token is not None
        table = await service.get(connection.table.id)
        if isinstance(message, Switch):
            return switch(connection, table, message.seat)
        seat, token = connection.seat, connection.token
        if isinstance(message, Move):
            await service.move(table, seat, token, message.move_number, message.action)
        elif isinstance(message, Start):
            await service.start(table, seat, token)
        elif isinstance(message, Resign):
            await service.resign(table, seat, token)
        elif isinstance(message, Rename):
            with heard_at_the_table(table, seat, "renaming"):
                await service.join(table, seat, token, message.name)
        elif isinstance(message, Rematch):
            if table.record.rematch is None:  # (a new game: made under the same limits)
                service.authorize(table, seat, token)
                playing = [s.bot or "random" for s in table.record.seats if s.kind == "bot"]
                admitted_here(connection, playing, new_game=True)
            await service.rematch(table, seat, token)
        elif isinstance(message, GiveToBot):
            service.authorize(table, seat, token)
            admitted_here(connection, [str(message.bot)], new_game=False)
            away = limits.away_after
            with heard_at_the_table(table, seat, "asking for bots"):
                given = await service.give_to_bot(
                    table, seat, token, message.seat, message.bot, away
                )
            if given:
                bots.changed(table)
        elif isinstance(message, TakeBack):
            seat, token = held(connection, message.seat)
            await service.take_back(table, seat, token, message.move_number)
        elif isinstance(message, TakeBackAnswer):
            seat, token = held(connection, message.seat)
            number, accept = message.move_number, message.accept
            await service.answer_take_back(table, seat, token, number, accept)
        elif isinstance(message, Hint):
            seat, token = held(connection, message.seat)
            position = (table.id, message.move_number, seat)
            known = reviews.hint_known(position)  # (told the table once a position)
            if not known:
                try:
                    reviews.check_hint_room()
                except ReviewBusy as busy:
                    raise GameError("busy", str(busy)) from None
            state = await service.hint(table, seat, token, message.move_number, announce=not known)
            task = asyncio.get_running_loop().create_task(
                tell_hint(connection, table, state, seat, message.move_number)
            )
            hinting.add(task)  # (worked out aside: the socket goes on reading meanwhile)
            task.add_done_callback(hinting.discard)
        elif isinstance(message, Chat):
            with heard_at_the_table(table, seat, "chatting"):
                await service.say(table, seat, token, message.text)

    @contextlib.contextmanager
    def heard_at_the_table(table: Table, seat: int | None, doing: str):
        """What a seat may repeat at will that the whole table hears of (table talk, a new
        name, a vote for a bot) draws on one allowance per seat, the table talk's: a line
        every 2 s, five at once. Over it, nothing is done (votes and renames flooded the
        talk and the sockets); a request refused for another reason did nothing, and costs
        nothing. Take-backs need none: each needs a move of one's own to take back, and a
        move is asked about once."""
        key = f"{table.id}:{seat}"
        wait = hub.talk.take(key)
        if wait:
            raise GameError(
                "rate_limited",
                f"you are {doing} too fast: wait {retry_after(wait)} s (nothing was done)",
            )
        try:
            yield
        except GameError:
            hub.talk.give_back(key)
            raise

    async def tell_hint(connection: Connection, table: Table, state, seat: int, number: int):
        """Work a hint out and tell it to the socket that asked (nobody else)."""
        position = (table.id, number, seat)
        try:
            found = await reviews.hint(
                position, type(table.game), table.record.params, state.history()
            )
        except ReviewBusy as busy:
            connection.push(error("busy", str(busy)))
            return
        except Exception as failed:  # the hints process failed: asking again retries
            log.warning("a hint in game %s failed: %s", table.id, failed)
            connection.push(error("unavailable", "the hint could not be worked out: try again"))
            return
        names = service.names(table)
        label = state.move_label(found["action"], names)
        labels = [state.move_label(a, names) for a in found["equal"]]
        connection.push({"type": "hint", "seat": seat, "move_number": number, "label": label,
                         "labels": labels, **found})  # fmt: skip

    def held(connection: Connection, seat: int | None) -> tuple[int, str]:
        """The seat a message speaks for, with its token: the one the socket plays now, or
        (hot-seat) another its hello named."""
        if seat is None:
            # (handle refused spectators; a seat's token was authorized in its hello)
            assert connection.seat is not None and connection.token is not None
            return connection.seat, connection.token
        if seat not in connection.held:
            raise GameError("forbidden", "this device does not hold that seat (not in its hello)")
        return seat, connection.held[seat]

    def switch(connection: Connection, table: Table, seat: int) -> None:
        """Hot-seat: the socket now plays (and sees) another seat its hello named."""
        connection.seat, connection.token = held(connection, seat)
        connection.sent = 0  # the whole log, as that seat reads it
        connection.push_state(table)

    def parse(text: str):
        if len(text) > MAX_MESSAGE:
            raise GameError("bad_request", f"message longer than {MAX_MESSAGE} characters")
        try:
            return client_message.validate_python(json.loads(text))
        except (json.JSONDecodeError, RecursionError):
            raise GameError("bad_request", "a message is a JSON object, not too deep") from None
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

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> FileResponse:  # (browsers ask for it whatever the page says)
        return FileResponse(str(WEB / "favicon.svg"), media_type="image/svg+xml")

    app.mount("/static", StaticFiles(directory=str(WEB)), name="static")
    # FastAPI's documented way to change the schema (a method replaced on the instance).
    app.openapi = lambda: openapi_schema(app)  # type: ignore[method-assign]
    return app


def allowed_methods(app: FastAPI, request: Request) -> list[str]:
    methods: set[str] = set()
    for route in app.routes:
        match, _ = route.matches(request.scope)
        route_methods: set[str] | None = getattr(route, "methods", None)  # (HTTP routes only)
        if match != Match.NONE and route_methods:
            methods |= route_methods
    return sorted(methods)


def encoded(frames, n: int) -> str:
    """The next ``n`` frames of an iterator as JSON, comma-separated ("" at its end)."""
    chunk = []
    for frame in frames:
        chunk.append(json.dumps(frame))
        if len(chunk) == n:
            break
    return ",".join(chunk)


class BytesCache:
    """The most recently used answers, up to ``budget`` bytes in all."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.items: OrderedDict[Any, bytes] = OrderedDict()
        self.size = 0

    def get(self, key: Any) -> bytes | None:
        if key in self.items:
            self.items.move_to_end(key)
        return self.items.get(key)

    def put(self, key: Any, value: bytes) -> None:
        if len(value) > self.budget:
            return
        self.items[key] = value
        self.size += len(value)
        while self.size > self.budget:
            _, dropped = self.items.popitem(last=False)
            self.size -= len(dropped)


def openapi_schema(app: FastAPI) -> dict[str, Any]:
    """FastAPI's schema, saying what this server answers: 400 (not 422) for a bad request."""
    if app.openapi_schema is None:
        schema = get_openapi(title=app.title, version="1", summary=app.summary, routes=app.routes)
        for path in schema["paths"].values():
            for operation in path.values():
                responses = operation.get("responses", {})
                for status, answer in responses.items():
                    content = answer.get("content", {})
                    if status[0] in "45" and "text/plain" in content:  # errors are JSON
                        content["application/json"] = content.pop("text/plain")
                if responses.pop("422", None) is not None and "400" not in responses:
                    error_schema = {"$ref": "#/components/schemas/Error"}
                    responses["400"] = {
                        "description": "error",
                        "content": {"application/json": {"schema": error_schema}},
                    }
        for name in ("HTTPValidationError", "ValidationError"):
            schema.get("components", {}).get("schemas", {}).pop(name, None)
        app.openapi_schema = schema
    return app.openapi_schema


def describe(errors) -> str:
    """Pydantic's validation errors in one line: where, and what is wrong."""
    problems = "; ".join(
        f"{'.'.join(str(p) for p in d['loc']) or 'message'}: {d['msg']}" for d in errors
    )
    return f"malformed message: {problems}"


# -- middleware (pure ASGI: it must not hold up streamed answers or sockets) ----------------
def inline_script_hashes() -> list[str]:
    """The CSP hashes of the inline scripts of the pages served (so only they may run)."""
    hashes = []
    for page in ("index.html", "game.html", "rules.html"):
        html = (WEB / page).read_text(encoding="utf-8")
        for body in re.findall(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", html, re.S):
            digest = base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
            hashes.append(f"'sha256-{digest}'")
    return hashes


class SecurityHeaders:
    """Content-Security-Policy, X-Frame-Options, nosniff and Referrer-Policy on every answer."""

    def __init__(self, app) -> None:
        self.app = app
        scripts = " ".join(["'self'", *inline_script_hashes()])
        policy = (
            f"default-src 'self'; script-src {scripts}; style-src 'self' 'unsafe-inline'; "
            "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
            "form-action 'self'; frame-ancestors 'none'"
        )
        self.headers = [
            (b"content-security-policy", policy.encode()),
            (b"x-frame-options", b"DENY"),
            (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"no-referrer"),
        ]

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *self.headers]
            await send(message)

        await self.app(scope, receive, with_headers)


class BodyLimit:
    """Refuse a request body over ``max_body`` bytes (413) before reading more of it."""

    def __init__(self, app, max_body: int) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_large = error_response(
            "too_large", f"the request body is over {self.max_body} bytes: nothing was read"
        )
        length = dict(scope.get("headers", [])).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await too_large(scope, receive, send)
            return
        seen = 0
        answered = False  # the 413 went out: whatever the app answers later is dropped

        async def counted():
            nonlocal seen, answered
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body and not answered:
                    answered = True
                    await too_large(scope, receive, send)
                    return {"type": "http.disconnect"}  # the app stops reading
            return message

        async def unless_answered(message) -> None:
            if not answered:
                await send(message)

        await self.app(scope, counted, unless_answered)
