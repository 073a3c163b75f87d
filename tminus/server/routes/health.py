"""Health, for a load balancer or an orchestrator: whether the process runs its chores
(liveness), and whether the database answers (readiness)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from tminus.server.routes.deps import BackgroundChores, GameStore
from tminus.server.storage import StoreError

router = APIRouter()


@router.get("/healthz", responses={503: {"description": "a background chore stopped"}})
def healthz(chores: BackgroundChores) -> JSONResponse:
    """Liveness: the process answers and every background chore still runs."""
    running = chores.running()
    ok = all(running.values())
    body = {"status": "ok" if ok else "failing", "chores": running}
    return JSONResponse(body, status_code=200 if ok else 503)


@router.get("/readyz", responses={503: {"description": "the database cannot be reached"}})
async def readyz(store: GameStore) -> JSONResponse:
    """Readiness: whether the database answers now (send players elsewhere if not)."""
    try:
        await store.ping()
    except StoreError as error:
        body = {"status": "unavailable", "database": str(error)}
        return JSONResponse(body, status_code=503)
    return JSONResponse({"status": "ok", "database": "reachable"})
