"""Puzzles over HTTP (``/api/puzzles``; see ``tminus.server.puzzles``), and a signed-in
person's progress (``/api/account/puzzles``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, ConfigDict, StrictInt

from tminus.server.errors import documented
from tminus.server.puzzles import PuzzleBook
from tminus.server.routes.accounts import COOKIE, People, SignedIn
from tminus.server.routes.deps import GameStore

router = APIRouter()


async def puzzle_book(request: Request) -> PuzzleBook:
    return request.app.state.puzzles


Book = Annotated[PuzzleBook, Depends(puzzle_book)]


class Try(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: StrictInt
    rating: float = 1500.0  # the solver's puzzle rating, kept by their browser


@router.get("/api/puzzles", responses=documented(400))
async def puzzles(book: Book, game: str = Query(max_length=64)) -> list[dict[str, Any]]:
    """A game's puzzles, easiest first (each with its rating as players found it)."""
    return await book.listing(game)


@router.get("/api/puzzles/{puzzle_id}", responses=documented(404))
async def puzzle(puzzle_id: str, book: Book) -> dict[str, Any]:
    """A puzzle, and its position as the table's state for the seat to move."""
    return await book.show(puzzle_id)


@router.post("/api/puzzles/{puzzle_id}/try", responses=documented(400, 404))
async def try_puzzle(
    puzzle_id: str, body: Try, request: Request, book: Book, people: People
) -> dict[str, Any]:
    """A move tried: right or wrong, with every move's exact value; both ratings move (a
    signed-in person's first try is kept for their account). No CSRF token is asked: a
    forged try only moves a puzzle's rating, as any visitor may."""
    found = await people.session(request.cookies.get(COOKIE))
    account_id = found[0].id if found else None
    return await book.answer(puzzle_id, body.action, body.rating, account_id)


@router.get("/api/account/puzzles", responses=documented(401))
async def my_puzzles(session: SignedIn, store: GameStore) -> dict[str, Any]:
    """The account's first tries, how many it solved, and its streak (solved in a row, the
    latest last)."""
    tries = await store.tries_of(session.account.id)
    streak = 0
    for _, solved in reversed(tries):
        if not solved:
            break
        streak += 1
    return {"tries": [{"puzzle": p, "solved": s} for p, s in tries],
            "solved": sum(s for _, s in tries), "streak": streak}  # fmt: skip
