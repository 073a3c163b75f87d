"""A finished game step by step (``/api/games/{id}/replay``): streamed as it is made, a
few replays at a time; or one page of it, kept in a small cache."""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from fastapi.responses import Response, StreamingResponse
from starlette.requests import HTTPConnection

from tminus.server.errors import documented
from tminus.server.routes.deps import Service

REPLAY_CACHE = 16 * 2**20  # bytes of replay pages kept

router = APIRouter()


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


async def replay_pages(connection: HTTPConnection) -> BytesCache:
    return connection.app.state.replay_pages


async def replays_at_once(connection: HTTPConnection) -> asyncio.Semaphore:
    """Replays built at once (``Limits.replays_at_once``): the others wait their turn."""
    return connection.app.state.replays


@router.get(
    "/api/games/{game_id}/replay",
    responses={
        **documented(400, 404, 409, 503),
        200: {"content": {"application/json": {"schema": {"type": "object"}}}},
    },
    response_class=StreamingResponse,
)
async def replay_game(
    game_id: str,
    service: Service,
    pages: Annotated[BytesCache, Depends(replay_pages)],
    turns: Annotated[asyncio.Semaphore, Depends(replays_at_once)],
    start: int = Query(0, ge=0, description="the first frame"),
    count: int | None = Query(None, ge=1, le=1000, description="frames (default: all)"),
) -> Response:
    """A finished game step by step, streamed as it is made; or one page of it (kept in
    a small cache: a finished game's pages never change)."""
    table = await service.get(game_id)
    frames = service.replay_frames(table, start, None if count is None else start + count)
    head = {**service.summary(table), "start": start, "total": table.move_number + 1}
    if count is None:
        replay = stream_replay(head, frames, turns)
        return StreamingResponse(replay, media_type="application/json")
    key = (game_id, start, count)
    page = pages.get(key)
    if page is None:
        page = "".join([text async for text in stream_replay(head, frames, turns)]).encode()
        pages.put(key, page)
    return Response(page, media_type="application/json")


async def stream_replay(head: dict[str, Any], frames, turns: asyncio.Semaphore):
    """The replay's JSON in pieces, each made in a worker thread, a few at a time."""
    async with turns:
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


def encoded(frames, n: int) -> str:
    """The next ``n`` frames of an iterator as JSON, comma-separated ("" at its end)."""
    chunk = []
    for frame in frames:
        chunk.append(json.dumps(frame))
        if len(chunk) == n:
            break
    return ",".join(chunk)
