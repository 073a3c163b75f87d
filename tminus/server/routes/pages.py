"""The browser client: the lobby, a game's page and a game's rules (rendered here), the
favicon; the static files are mounted by ``create_app`` (``/static``)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import FileResponse, HTMLResponse

from tminus.server.html import WEB, rules_page

router = APIRouter(include_in_schema=False)


@router.get("/")
def lobby_page() -> FileResponse:
    return FileResponse(str(WEB / "index.html"))


@router.get("/game/{game_id}")
def game_page(game_id: str) -> FileResponse:
    return FileResponse(str(WEB / "game.html"))


@router.get("/rules/{game}")
def rules(game: str) -> HTMLResponse:
    """The rules as a page (a game not installed here: a page that says so)."""
    return HTMLResponse(rules_page(game))


@router.get("/favicon.ico")
def favicon() -> FileResponse:  # (browsers ask for it whatever the page says)
    return FileResponse(str(WEB / "favicon.svg"), media_type="image/svg+xml")
