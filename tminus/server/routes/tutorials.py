"""Learn to play over HTTP (``/api/lessons``; see ``tminus.server.tutorials``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Path
from pydantic import BaseModel, ConfigDict, StrictInt

from tminus.server import tutorials
from tminus.server.errors import documented

router = APIRouter()
Number = Path(ge=1, le=100)


class Try(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: StrictInt


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
