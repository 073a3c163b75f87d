"""Accounts over HTTP (``/api/account``), and what anyone may read of the people who have
one: a player's profile (``/api/players/{name}``) and the leaderboards
(``/api/leaderboard``). See ``tminus.server.accounts``.

The session is a cookie (HttpOnly, SameSite=Lax, Secure when served over HTTPS); every
request that changes an account repeats the session's CSRF token in ``X-CSRF-Token``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field

from tminus.core.registry import game_class
from tminus.server.accounts import Accounts
from tminus.server.errors import documented
from tminus.server.html import confirm_page, message_page
from tminus.server.routes.deps import Client, GameStore, ServerLimits
from tminus.server.service import GameError
from tminus.server.store_accounts import Account

COOKIE = "tminus_session"
CSRF_HEADER = "X-CSRF-Token"

router = APIRouter()


async def accounts(request: Request) -> Accounts:
    return request.app.state.accounts


People = Annotated[Accounts, Depends(accounts)]


@dataclass(frozen=True)
class Session:
    account: Account
    csrf: str
    cookie: str


async def signed_in(request: Request, people: People) -> Session:
    """The session the request's cookie is signed in as (401 if none)."""
    cookie = request.cookies.get(COOKIE)
    found = await people.session(cookie)
    if found is None or cookie is None:
        raise GameError("unauthorized", "you are not signed in (or your session ended)")
    account, csrf = found
    return Session(account=account, csrf=csrf, cookie=cookie)


async def changing(request: Request, session: Annotated[Session, Depends(signed_in)]) -> Session:
    """A signed-in request that changes something: it must repeat the CSRF token."""
    Accounts.check_csrf(session.csrf, request.headers.get(CSRF_HEADER))
    return session


SignedIn = Annotated[Session, Depends(signed_in)]
Changing = Annotated[Session, Depends(changing)]


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=200)
    password: str = Field(max_length=1000)


class SignUp(Credentials):
    email: str | None = Field(default=None, max_length=254)
    reminders: bool = False  # reminders by e-mail allowed


class Changes(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str | None = Field(default=None, max_length=200)
    email: str | None = Field(default=None, max_length=254)
    reminders: bool | None = None
    password: str | None = Field(default=None, max_length=1000)  # the current one
    new_password: str | None = Field(default=None, max_length=1000)


class HoldSeat(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=32)
    seat: int
    token: str = Field(max_length=100)


class Confirm(BaseModel):
    model_config = ConfigDict(extra="forbid")
    password: str = Field(max_length=1000)


def me(account: Account, csrf: str) -> dict[str, Any]:
    return {"name": account.name, "email": account.email, "reminders": account.reminders,
            "created": account.created.isoformat(), "csrf": csrf}  # fmt: skip


def set_session(response: Response, request: Request, cookie: str, days: float) -> None:
    response.set_cookie(
        COOKIE, cookie, max_age=int(days * 86_400), path="/", httponly=True, samesite="lax",
        secure=request.url.scheme == "https",
    )  # fmt: skip


@router.post("/api/account", status_code=201, responses=documented(400, 409, 429))
async def sign_up(
    body: SignUp,
    request: Request,
    response: Response,
    people: People,
    client: Client,
    limits: ServerLimits,
) -> dict[str, Any]:
    """Sign up (and in): the session cookie is set."""
    people.limit_sign_ups(client)
    account, cookie, csrf = await people.sign_up(
        body.name, body.password, body.email, body.reminders
    )
    set_session(response, request, cookie, limits.session_days)
    return me(account, csrf)


@router.post("/api/session", responses=documented(400, 401, 429))
async def sign_in(
    body: Credentials,
    request: Request,
    response: Response,
    people: People,
    client: Client,
    limits: ServerLimits,
) -> dict[str, Any]:
    """Sign in: the session cookie is set."""
    account, cookie, csrf = await people.sign_in(body.name, body.password, client)
    set_session(response, request, cookie, limits.session_days)
    return me(account, csrf)


@router.delete("/api/session", status_code=204, responses=documented(401, 403))
async def sign_out(session: Changing, people: People, response: Response) -> None:
    await people.sign_out(session.account, session.cookie)
    response.delete_cookie(COOKIE, path="/")


@router.get("/api/account", responses=documented(401))
async def my_account(session: SignedIn) -> dict[str, Any]:
    """Who this browser is signed in as, and the CSRF token its changes must repeat."""
    return me(session.account, session.csrf)


@router.patch("/api/account", responses=documented(400, 401, 403, 409))
async def change_account(body: Changes, session: Changing, people: People) -> dict[str, Any]:
    """A new name, e-mail address, reminders switch, or password (with the current one)."""
    changes = body.model_dump(exclude_unset=True)
    account = await people.change(session.account, changes, session.cookie)
    return me(account, session.csrf)


@router.delete("/api/account", status_code=204, responses=documented(401, 403))
async def delete_account(
    body: Confirm, session: Changing, people: People, response: Response
) -> None:
    """Delete the account (its password confirms it): past games keep a neutral name."""
    await people.delete(session.account, body.password)
    response.delete_cookie(COOKIE, path="/")


@router.post("/api/account/seats", status_code=204, responses=documented(400, 401, 403, 404))
async def hold_seat(body: HoldSeat, session: Changing, people: People) -> None:
    """The account holds a seat this browser has the invite token of: the game follows the
    account to its other devices."""
    await people.hold(session.account, body.game, body.seat, body.token)


@router.get("/api/account/games", responses=documented(401))
async def my_games(session: SignedIn, people: People) -> list[dict[str, Any]]:
    """The account's games, newest first, each with the links of the seats it holds."""
    return await people.games(session.account)


@router.get("/api/account/export", responses=documented(401))
async def export_account(session: SignedIn, people: People) -> dict[str, Any]:
    """Everything kept of the account, with its games' exports (JSON)."""
    return await people.export(session.account)


@router.get("/api/players/{name}", responses=documented(404))
async def player(name: str, people: People) -> dict[str, Any]:
    """A player's ratings, their history and their games."""
    return await people.profile(name[:200])


@router.get("/api/leaderboard", responses=documented(400))
async def leaderboard(
    store: GameStore,
    game: str = Query(max_length=64, description="the game, e.g. four_way"),
    players: int = Query(ge=2, le=16, description="its player count"),
    limit: int = Query(50, ge=1, le=200),
) -> list[dict[str, Any]]:
    """The best-rated players of a game at a player count."""
    try:
        game_class(game)
    except ValueError as error:
        raise GameError("bad_request", str(error)) from None
    return [vars(s) for s in await store.leaderboard(game, players, limit)]


@router.get("/unsubscribe/{token}", include_in_schema=False)
async def unsubscribe_page(token: str) -> HTMLResponse:
    """A reminder's unsubscribe link, opened: it asks first (mail scanners open links)."""
    text = "Stop the e-mails that tell you it is your turn?"
    return HTMLResponse(
        confirm_page("Unsubscribe", text, f"/unsubscribe/{token[:64]}", "Stop them")
    )


@router.post("/unsubscribe/{token}", include_in_schema=False)
async def unsubscribe(token: str, store: GameStore) -> HTMLResponse:
    """No more reminders (the page's button, or the mail client's one click: RFC 8058)."""
    name = await store.unsubscribe(token[:64])
    if name is None:
        text = "This link does not unsubscribe anybody (the account may be gone)."
        return HTMLResponse(message_page("Unknown link", text), status_code=404)
    text = f"{name} gets no more e-mails from T-minus. Turn them on again on your account page."
    return HTMLResponse(message_page("Unsubscribed", text, back="/account", back_text="Account"))
