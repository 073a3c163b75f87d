"""Learn to play over HTTP (``/api/lessons``; see ``tminus.server.tutorials``), and the
lessons a signed-in person finished (``/api/account/lessons``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Path
from pydantic import BaseModel, ConfigDict, Field, StrictInt

from tminus.server import tutorials
from tminus.server.errors import documented
from tminus.server.routes.accounts import Changing, SignedIn
from tminus.server.routes.deps import GameStore

router = APIRouter()
Number = Path(ge=1, le=100)


class Try(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: StrictInt


class Finished(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=64)


@router.get("/api/lessons")
def lessons() -> list[dict[str, Any]]:
    """Every game's lesson: its title, first and last words, and how many steps."""
    return tutorials.listing()


@router.get("/api/lessons/{game}/{number}", responses=documented(404))
def step(game: str, number: int = Number) -> dict[str, Any]:
    """One step: the rule it teaches, where to act, the move it waits for, the position as
    the learner's seat sees it, and every move that position can name."""
    return tutorials.show(game, number)


@router.post("/api/lessons/{game}/{number}/try", responses=documented(400, 404))
def try_step(game: str, body: Try, number: int = Number) -> dict[str, Any]:
    """A move tried: right (the step's closing words), or the reason it is not: the rule
    that forbids it, or why this step asks for another move."""
    return tutorials.judge(game, number, body.action)


@router.get("/api/account/lessons", responses=documented(401))
async def my_lessons(session: SignedIn, store: GameStore) -> dict[str, Any]:
    """The games whose lesson the account finished."""
    return {"finished": await store.lessons_of(session.account.id)}


@router.post("/api/account/lessons", responses=documented(401, 403, 404))
async def finish_lesson(body: Finished, session: Changing, store: GameStore) -> dict[str, Any]:
    """A lesson finished, kept for the account (on every device): the games finished."""
    tutorials.lesson_of(body.game)  # (a game with no lesson: 404, nothing kept)
    await store.finish_lesson(session.account.id, body.game)
    return {"finished": await store.lessons_of(session.account.id)}
