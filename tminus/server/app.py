"""The FastAPI app: the lobby's HTTP API, the WebSocket of each game, the static client.

``create_app`` builds the server's parts and keeps them in the app's state; the routes
(``tminus.server.routes``, one router a purpose) get what they need from there as FastAPI
dependencies. The service (``tminus.server.service``) keeps the games and tells the app of
each committed change, whichever process committed it (``tminus.server.fanout``); the hub
(``tminus.server.hub``) holds the sockets. Bots think in worker processes
(``tminus.server.bots``), in the one process that holds each game's bot lease. Every limit
is in ``Limits``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from contextlib import asynccontextmanager
from functools import partial
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import State

from tminus.server.accounts import Accounts
from tminus.server.admission import Admission
from tminus.server.bots import BotPlayer, BotPool, Leases
from tminus.server.chores import Chores
from tminus.server.errors import add_error_handlers
from tminus.server.fanout import listener_for
from tminus.server.html import WEB
from tminus.server.hub import Hub
from tminus.server.limits import Limits
from tminus.server.middleware import BodyLimit, SecurityHeaders
from tminus.server.puzzles import PuzzleBook
from tminus.server.reminders import Mail, send_reminders
from tminus.server.reviews import Reviews
from tminus.server.routes import ROUTERS
from tminus.server.routes.replays import REPLAY_CACHE, BytesCache
from tminus.server.service import GameError, GameService
from tminus.server.storage import (
    DEFAULT_URL,
    Store,
    StoreError,
    hold_sqlite,
    is_shared,
    release_sqlite,
)

log = logging.getLogger("tminus.server")
RATING_EVERY = 5.0  # seconds between looks for finished rated games to apply
CLOCK_EVERY = 2.0  # seconds between looks for clocks run out
REMINDERS_EVERY = 60.0  # seconds between looks for reminders to send (if e-mail is on)


async def act_on_timeouts(state: State) -> None:
    """Act on the clocks run out (each timeout by one process): a bot standing in plays."""
    for table in await state.service.act_on_timeouts():
        state.bots.changed(table)


async def rate_finished(store: Store) -> int:
    """Apply every finished rated game not applied yet (each once, whichever process gets
    it: ``Store.apply_ratings``): how many this process applied."""
    applied = 0
    for game_id in await store.games_to_rate():
        applied += bool(await store.apply_ratings(game_id))
    return applied


def create_app(
    db_url: str = DEFAULT_URL,
    bot_delay: float = 0.6,
    limits: Limits | None = None,
    mail: Mail | None = None,
) -> FastAPI:
    """The app; ``mail``: where reminders go out (None: as the environment says, and without
    TMINUS_SMTP_HOST no e-mail at all)."""
    limits = limits or Limits()
    app = FastAPI(
        title="T-minus",
        summary="Play countdown games online: lobby, games, exports and replays.",
        lifespan=lifespan,
    )
    state = app.state
    state.db_url, state.limits = db_url, limits
    state.store = Store(db_url, busy_timeout=limits.busy_timeout)
    state.listener = listener_for(db_url, state.store.origin)
    state.service = GameService(state.store, cache_size=limits.cache_size, listener=state.listener)
    state.hub = Hub(state.service, limits)
    pool = BotPool(limits.bot_workers or None, limits.bot_budget)
    leases = Leases(state.store, limits.bot_lease)
    state.bots = BotPlayer(state.service, pool, bot_delay, leases, limits.max_bot_games)
    state.admission = Admission(limits, state.bots)
    state.accounts = Accounts(state.store, state.service, limits)
    state.mail = mail or Mail.from_environment()
    state.puzzles = PuzzleBook(state.store)
    state.replays = asyncio.Semaphore(limits.replays_at_once)
    state.replay_pages = BytesCache(REPLAY_CACHE)
    state.reviews = Reviews(
        limits.review_samples,
        limits.reviews_at_once,
        hint_budget=limits.hint_budget,
        hint_worlds=limits.hint_worlds,
    )
    state.hinting = set()  # the hints being worked out (asyncio tasks)
    state.chores = Chores()
    app.add_middleware(SecurityHeaders)
    app.add_middleware(BodyLimit, max_body=limits.max_body)
    add_error_handlers(app)
    for router in ROUTERS:
        app.include_router(router)
    app.mount("/static", StaticFiles(directory=str(WEB)), name="static")
    # FastAPI's documented way to change the schema (a method replaced on the instance).
    app.openapi = lambda: openapi_schema(app)  # type: ignore[method-assign]
    return app


@asynccontextmanager
async def lifespan(app: FastAPI):
    """Open the store and the listener, resume the games (alone on the database), start the
    bots and the chores; stop them all when the server stops."""
    state = app.state
    service, bots = state.service, state.bots
    hold_sqlite(state.db_url)  # SQLite: one process (StoreError if another serves the file)
    try:
        await state.store.open()
        await state.listener.start(service.heard, partial(caught_up, service))
        bots.pool.start()
        if not is_shared(state.db_url):
            # Alone on the file: the games in play resume here, whoever played them.
            await state.store.release_leases(None)
            resumed, broken = await service.resume()
            for game_id, problem in broken.items():
                log.error("game %s cannot resume and is marked broken: %s", game_id, problem)
            for table in resumed:
                bots.changed(table)
        # Shared: the games whose bots nobody plays (any more) are taken over by sweeps.
        bots.start()
        start_chores(state)
        yield
    finally:
        await state.chores.stop()
        for task in list(state.hinting):
            task.cancel()
        state.reviews.close()
        await bots.stop()
        await state.listener.stop()
        await state.store.close()
        release_sqlite(state.db_url)


async def caught_up(service: GameService, game_ids: set[str]) -> None:
    """The listener was down a while: read what the watched games missed meanwhile."""
    for game_id in game_ids:
        table = service.tables.get(game_id)
        if table is not None:
            with contextlib.suppress(GameError, StoreError):
                await service.catch_up(table)


def start_chores(state: State) -> None:
    """The background chores: waiting games expire, the seats with a socket open here are
    marked as here in the store (so every process knows who left: see
    ``GameService.give_to_bot``), abandoned games are paused, the bots' leases kept."""
    limits: Limits = state.limits
    service: GameService = state.service
    chores: Chores = state.chores
    hub: Hub = state.hub
    if limits.waiting_expiry > 0:
        chores.start("expiring waiting games", min(60.0, limits.waiting_expiry / 4),
                     lambda: service.expire_waiting(limits.waiting_expiry))  # fmt: skip
    presence_every = min(10.0, limits.away_after / 3, limits.pause_after / 3)
    chores.start("renewing who is here", presence_every,
                 lambda: service.renew_seen(hub.present()))  # fmt: skip
    chores.start("pausing abandoned games", min(60.0, limits.pause_after / 4),
                 lambda: service.pause_abandoned(limits.pause_after))  # fmt: skip
    chores.start("rating finished games", RATING_EVERY, partial(rate_finished, state.store))
    chores.start("acting on clocks run out", CLOCK_EVERY, partial(act_on_timeouts, state))
    if state.mail is not None:
        chores.start("sending reminders", REMINDERS_EVERY,
                     partial(send_reminders, state.store, state.mail))  # fmt: skip
    if state.bots.keeper is not None:
        chores.watch("keeping the bots' leases", state.bots.keeper)


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
