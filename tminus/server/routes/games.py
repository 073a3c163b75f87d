"""The games' REST API (``/api/games``): create a game, list them, and read one: its
summary, its export (even a broken game's), its printed board, and whether it verifies."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Query

from tminus.server.catalog import printed_board
from tminus.server.errors import documented
from tminus.server.protocol import CreateGame
from tminus.server.routes.deps import Admit, Bots, Client, Service
from tminus.server.service import GameError
from tminus.server.tables import move_labels

MAX_IDS = 50  # games asked for at once (a browser's own games)

router = APIRouter()


@router.post("/api/games", status_code=201, responses=documented(400, 413, 429, 503))
async def create_game(
    body: CreateGame, service: Service, bots: Bots, admission: Admit, client: Client
) -> dict[str, Any]:
    seats = [seat.model_dump() for seat in body.seats]
    admission.admit(client, [s.get("bot") or "random" for s in seats if s.get("kind") == "bot"])
    created = await service.create(
        body.game,
        body.params,
        seats,
        body.listed,
        body.undo,
        body.hints,
        body.rated,
        body.clock,
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


@router.get("/api/games", responses=documented(400, 503))
async def list_games(
    service: Service,
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


@router.get("/api/games/{game_id}", responses=documented(404, 503))
async def get_game(game_id: str, service: Service) -> dict[str, Any]:
    return service.summary(await service.record(game_id))


@router.get("/api/games/{game_id}/export", responses=documented(404, 503))
async def export_game(game_id: str, service: Service) -> dict[str, Any]:
    return await service.export_broken(game_id)


@router.get("/api/games/{game_id}/layout", responses=documented(404, 409, 503))
async def game_layout(game_id: str, service: Service) -> dict[str, Any]:
    """The game's printed board (e.g. Count Down's track), if it has one: public data."""
    return printed_board((await service.get(game_id)).game) or {}


@router.get("/api/games/{game_id}/moves", responses=documented(404, 409, 503))
async def game_moves(game_id: str, service: Service) -> dict[str, Any]:
    """Every move that can be named in the game's position, legal or not (a player asks why
    one is not possible: the socket's ``why``)."""
    table = await service.get(game_id)
    return {"move_number": table.move_number, "moves": move_labels(table)}


@router.get("/api/games/{game_id}/verify", responses=documented(404, 503))
async def verify_game(game_id: str, service: Service) -> dict[str, Any]:
    from tminus.server.fairness import verify_export

    export = await service.export_broken(game_id)
    result = await asyncio.to_thread(verify_export, export)
    return {"ok": result.ok, "chance_checked": result.chance_checked,
            "moves_checked": result.moves_checked, "taken_back": result.taken_back,
            "problems": result.problems}  # fmt: skip
