"""Undo in friendly games: a player asks to take back their last move, the others answer.

A person may ask when the last standing action of a game in play is their own decision (no
chance outcome and no other seat's move after it) and the game allows take-backs: by
default a game of persons only; a game with a bot only if its creator said so, and then
its bots accept at once. Every other person answers; the move is taken back once all of
them accepted, and one refusal ends the request. A request is for one position: anything
that happens (a move) ends it. One request is open at a time, and a seat asks once per move
(after a refusal, not again for that move).

The request lives in the game's row (``take_back``: {"seat", "at", "accepted", "answer"},
"at" being the log's length when it was asked), so that every process sees it; asking and
answering lock that row and check that the log is still that long. The take-back itself is
a row of the log (``tminus.server.takeback``) claimed like a move, in the same transaction
as the last acceptance: a move and a take-back racing for one place cannot both succeed.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select, update

from tminus.server.storage import (
    PERSON,
    PLAYING,
    ActionRow,
    ClaimLost,
    GameRow,
    Refusal,
    Save,
    SeatRow,
    notify,
    said_by,
    write_saves,
)
from tminus.server.store_notices import TakeBack
from tminus.server.takeback import last_standing

ASKED, REFUSED, ACCEPTED = "asked", "refused", "accepted"  # a request's answer so far


def default_undo(kinds) -> bool:
    """Take-backs are on in a game of persons only, off with a bot (unless asked for)."""
    return all(kind == PERSON for kind in kinds)


# -- what a game in memory (``tables.Table``) says ------------------------------------------
def open_request(table) -> dict[str, Any] | None:
    """The take-back asked for and not answered yet, if the game has not moved since."""
    request = table.record.take_back
    if request and request["answer"] == ASKED and request["at"] == table.move_number:
        return request
    return None


def may_ask(table) -> int | None:
    """The seat that may ask now to take back its last move, if any: a person whose own
    decision is the last standing action of a game in play that allows take-backs, and
    who has not asked for that move already (still open, or refused)."""
    record = table.record
    if not record.undo or table.status != PLAYING:
        return None
    entry = last_standing(reversed(table.log))
    if entry is None or entry.actor < 0 or record.seats[entry.actor].kind != PERSON:
        return None
    request = record.take_back
    if request and request["at"] == table.move_number:
        return None
    return entry.actor


def waiting_for(table, request: dict[str, Any]) -> list[int]:
    """The people who have not answered a request yet (bots accept at once)."""
    return [
        s.seat
        for s in table.record.seats
        if s.kind == PERSON and s.seat != request["seat"] and s.seat not in request["accepted"]
    ]


def ask(table, seat: int, move_number: Any) -> dict[str, Any]:
    """The request of ``seat`` to take back its last move, made for the position after
    ``move_number`` rows of the log; Refusal (nothing changed) if it may not ask."""
    check_position(table, move_number)
    if not table.record.undo:
        raise Refusal(
            "bad_state", "take-backs are off in this game (its creator did not allow them)"
        )
    if table.status != PLAYING:
        raise Refusal("bad_state", f"no take-back now: the game is {table.status}")
    if open_request(table):
        raise Refusal("bad_state", "a take-back is asked for already: wait for the answer")
    if may_ask(table) != seat:
        entry = last_standing(reversed(table.log))
        request = table.record.take_back
        if entry is not None and entry.actor == seat and request and request["answer"] == REFUSED:
            raise Refusal("bad_state", "your take-back of this move was refused: play on")
        raise Refusal(
            "bad_state",
            "only the last move can be taken back, by its player, before any roll, deal or "
            "other player's move follows it",
        )
    return {"seat": seat, "at": table.move_number, "accepted": [], "answer": ASKED}


def check_answer(table, seat: int, move_number: Any) -> dict[str, Any]:
    """The open request ``seat`` may answer now; Refusal if there is none for it."""
    check_position(table, move_number)
    request = open_request(table)
    if request is None:
        raise Refusal("bad_state", "no take-back is asked for now (the game may have moved on)")
    if seat not in waiting_for(table, request):
        mine = seat == request["seat"]
        raise Refusal("bad_state", "it is your own request" if mine else "you answered already")
    return request


def check_position(table, move_number: Any) -> None:
    if isinstance(move_number, bool) or not isinstance(move_number, int):
        raise Refusal("bad_request", f"move_number must be an integer, not {move_number!r}")
    if move_number != table.move_number:
        raise Refusal(
            "stale",
            f"stale: it was meant for move {move_number}, the game is at move {table.move_number}",
        )


# -- the store: the request in the game's row, the take-back claimed with the last yes -------
async def stored_request(connection, game_id: str, at: int) -> dict[str, Any] | None:
    """(Locks the game's row.) The last request as stored, if the game is still in play
    with a log ``at`` rows long; else the claim is lost (the game moved on)."""
    row = (
        await connection.execute(
            select(GameRow.status, GameRow.take_back).where(GameRow.id == game_id).with_for_update()
        )
    ).first()
    rows = await connection.scalar(
        select(func.count()).select_from(ActionRow).where(ActionRow.game_id == game_id)
    )
    if row is None or row.status != PLAYING or rows != at:
        raise ClaimLost()  # (the caller's copy of the game is behind: it catches up)
    return row.take_back


async def store_ask(
    origin: str, game_id: str, request: dict[str, Any], save: Save | None, connection
) -> dict[str, Any]:
    """Store a request (and, with ``save``, the take-back at once: nobody has to answer);
    refused if one is open or this one was refused already. The request as stored."""
    before = await stored_request(connection, game_id, request["at"])
    if before and before["at"] == request["at"]:
        raise Refusal("bad_state", "a take-back of this move was asked for already")
    if save is not None:
        request = {**request, "answer": ACCEPTED}
    await settle(origin, game_id, request, save, connection)
    return request


async def store_answer(
    origin: str, game_id: str, seat: int, at: int, accept: bool, save: Save | None, connection
) -> tuple[dict[str, Any], bool]:
    """Store ``seat``'s answer to the request open at ``at``; the last yes writes ``save``
    (the take-back row; None with a refusal) too. (The request as stored, whether the move
    was taken back.)"""
    request = await stored_request(connection, game_id, at)
    if not request or request["at"] != at or request["answer"] != ASKED:
        raise Refusal("bad_state", "no take-back is asked for now (it was answered already)")
    people = await connection.scalars(
        select(SeatRow.seat).where(SeatRow.game_id == game_id, SeatRow.kind == PERSON)
    )
    others = {s for s in people if s != request["seat"]}
    if seat not in others or seat in request["accepted"]:
        raise Refusal("bad_state", "you answered already")
    request = {**request, "accepted": [*request["accepted"], seat]} if accept else request
    done = accept and others <= set(request["accepted"])
    answer = ACCEPTED if done else ASKED if accept else REFUSED
    request = {**request, "answer": answer}
    await settle(origin, game_id, request, save if done else None, connection)
    return request, done


async def settle(
    origin: str, game_id: str, request: dict[str, Any], save: Save | None, connection
) -> None:
    """Store the request, and the take-back row if any; tell the other processes."""
    await connection.execute(update(GameRow).where(GameRow.id == game_id).values(take_back=request))
    await notify(connection, [(game_id, said_by(origin, TakeBack(take_back=request)))])
    if save is not None:
        await write_saves(connection, [save], origin)


# -- what the table talk says ------------------------------------------------------------------
def asked_words(asker: str, move: str) -> str:
    return f"{asker} asks to take back their move: “{move}”"


def answer_words(who: str, accept: bool, done: bool, waiting: list[str]) -> str:
    if not accept:
        return f"{who} refuses: the move stands"
    if done:
        return f"{who} accepts: the move is taken back"
    return f"{who} accepts (waiting for {' and '.join(waiting)})"
