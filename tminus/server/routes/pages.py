"""The browser client: the lobby, a game's page and a game's rules (rendered here), the
account page, a player's page and the leaderboard (each a page whose script reads the API),
the favicon; the static files are mounted by ``create_app`` (``/static``)."""

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


@router.get("/account")
def account_page() -> FileResponse:
    """Sign in or up; signed in, the account's settings (all read and changed by its script)."""
    return FileResponse(str(WEB / "account.html"))


@router.get("/player/{name}")
def player_page(name: str) -> FileResponse:
    """A player's ratings, their history and games (a name nobody has: the page says so)."""
    return FileResponse(str(WEB / "player.html"))


@router.get("/leaderboard")
def leaderboard_page() -> FileResponse:
    return FileResponse(str(WEB / "leaderboard.html"))


@router.get("/puzzles")
def puzzles_page() -> FileResponse:
    """A game's puzzles, one at a time (the page's script reads ``/api/puzzles``)."""
    return FileResponse(str(WEB / "puzzles.html"))


@router.get("/learn")
def learn_page() -> FileResponse:
    """Learn to play: a game's guided first game (the page's script reads ``/api/lessons``)."""
    return FileResponse(str(WEB / "learn.html"))


@router.get("/rules/{game}")
def rules(game: str) -> HTMLResponse:
    """The rules as a page (a game not installed here: a page that says so, as a 404)."""
    page, status = rules_page(game)
    return HTMLResponse(page, status_code=status)


@router.get("/favicon.ico")
def favicon() -> FileResponse:  # (browsers ask for it whatever the page says)
    return FileResponse(str(WEB / "favicon.svg"), media_type="image/svg+xml")
