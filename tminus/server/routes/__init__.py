"""The app's routes, one router a purpose; what each needs comes by FastAPI dependencies
(``deps``) from the app's state, set by ``tminus.server.app.create_app``.

- ``health``: liveness and readiness (``/healthz``, ``/readyz``)
- ``catalog``: the games offered, their rules as text, the server's limits, the socket's
  messages as JSON Schema
- ``games``: the games' REST API (``/api/games``)
- ``replays``: a finished game step by step, streamed or by pages
- ``reviews``: a finished game reviewed (JSON, and a page)
- ``sockets``: the WebSocket of each game; ``messages``: what its messages do
- ``accounts``: people's accounts and sessions, profiles and leaderboards
- ``puzzles``: the puzzles, a try at one, an account's progress
- ``tutorials``: Learn to play: a lesson's steps, a try at one
- ``pages``: the browser client's pages (the rules rendered here)
"""

from __future__ import annotations

from fastapi import APIRouter

from tminus.server.routes import (
    accounts,
    catalog,
    games,
    health,
    pages,
    puzzles,
    replays,
    reviews,
    sockets,
    tutorials,
)

# In this order (paths do not overlap; the schema lists them so).
ROUTERS: list[APIRouter] = [
    health.router,
    catalog.router,
    games.router,
    replays.router,
    reviews.router,
    sockets.router,
    accounts.router,
    puzzles.router,
    tutorials.router,
    pages.router,
]
