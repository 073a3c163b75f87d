"""What the routes need, as FastAPI dependencies: each part of the server is read from the
app's state, where ``create_app`` put it (``HTTPConnection``: a request or a socket alike).

A route names what it uses by type, e.g. ``service: Service``; a test may swap any part
with ``app.dependency_overrides``.
"""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from tminus.server.admission import Admission
from tminus.server.bots import BotPlayer
from tminus.server.chores import Chores
from tminus.server.hub import Hub
from tminus.server.limits import Limits
from tminus.server.reviews import Reviews
from tminus.server.service import GameService
from tminus.server.storage import Store


# (async: a plain function would be run in a worker thread, for nothing)
async def game_service(connection: HTTPConnection) -> GameService:
    return connection.app.state.service


async def server_limits(connection: HTTPConnection) -> Limits:
    return connection.app.state.limits


async def socket_hub(connection: HTTPConnection) -> Hub:
    return connection.app.state.hub


async def bot_player(connection: HTTPConnection) -> BotPlayer:
    return connection.app.state.bots


async def review_jobs(connection: HTTPConnection) -> Reviews:
    return connection.app.state.reviews


async def admission(connection: HTTPConnection) -> Admission:
    return connection.app.state.admission


async def store(connection: HTTPConnection) -> Store:
    return connection.app.state.service.store


async def chores(connection: HTTPConnection) -> Chores:
    return connection.app.state.chores


async def hint_tasks(connection: HTTPConnection) -> set[asyncio.Task]:
    """The hints being worked out (cancelled when the app stops)."""
    return connection.app.state.hinting


async def client_address(connection: HTTPConnection) -> str:
    """The address a request or a socket comes from (limits count per address)."""
    return connection.client.host if connection.client else "unknown"


Service = Annotated[GameService, Depends(game_service)]
ServerLimits = Annotated[Limits, Depends(server_limits)]
SocketHub = Annotated[Hub, Depends(socket_hub)]
Bots = Annotated[BotPlayer, Depends(bot_player)]
ReviewJobs = Annotated[Reviews, Depends(review_jobs)]
Admit = Annotated[Admission, Depends(admission)]
GameStore = Annotated[Store, Depends(store)]
BackgroundChores = Annotated[Chores, Depends(chores)]
HintTasks = Annotated[set[asyncio.Task], Depends(hint_tasks)]
Client = Annotated[str, Depends(client_address)]
