"""What the store hands out and takes in: games, seats, saves and chat lines as plain
values (no database rows), the statuses and seat kinds, and the store's errors."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypedDict

from tminus.server.store_notices import MAX_NOTICE, Moves, Reload, said_by

WAITING, PLAYING, FINISHED, BROKEN = "waiting", "playing", "finished", "broken"
EXPIRED = "expired"  # waited too long for its players: never started, kept for its links
PERSON, BOT = "person", "bot"


def token_hash(token: str) -> str:
    """What the store keeps of a seat's token: its SHA-256, compared in constant time."""
    return hashlib.sha256(token.encode()).hexdigest()


class StoreError(Exception):
    """The store cannot be used now (locked, unreachable, damaged); nothing was changed."""


class Refusal(Exception):
    """A change the store refused, checked under the game's lock: nothing was changed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


class ClaimLost(Exception):
    """Another writer claimed the same place in a game's log first (or changed the game's
    status since the change was worked out)."""


@dataclass
class Save:
    """A committed change of one game: new log rows (index, action, seat, note, estimate)
    from ``at``,
    perhaps a new status and result; ``expect`` is the status it was worked out for."""

    game_id: str
    at: int
    rows: list[tuple[int, int, int, str | None, float | None]]
    status: str | None = None
    result: dict[str, Any] | None = None
    expect: str | None = None
    to_move: int | None = None  # whose turn it is after the change (-1: nobody's)
    clocked: bool = False  # the game has a clock: the turn's end charges it
    clocks: dict[str, Any] | None = None  # (the clocks after it, filled in when written)

    def notice(self, origin: str = "") -> str:
        """What other processes are told: enough to apply the change to their copy (and
        which store said it: ``origin``, so that its own process need not hear it)."""
        moves = [(action, note, estimate) for _, action, _, note, estimate in self.rows]
        news = Moves(
            by=origin, at=self.at, moves=moves, status=self.status, result=self.result,
            clocks=self.clocks,
        )  # fmt: skip
        payload = news.model_dump_json()  # ("by" first: see ``own_notice``)
        if len(payload.encode()) > MAX_NOTICE:  # too big to tell: listeners read the store
            payload = said_by(origin, Reload(at=self.at))
        return payload


class ChatLine(TypedDict):
    """A line of table talk as it is told (``Store.say``, ``Store.chat``)."""

    index: int
    seat: int | None  # None: the table's own notice
    text: str
    at: str  # ISO 8601


@dataclass
class Seat:
    seat: int
    kind: str
    bot: str | None
    token_hash: str | None
    name: str
    joined: bool = False
    stand_in: bool = False  # a bot plays for the person, whose time ran out, till they return


@dataclass
class StoredGame:
    id: str
    game: str
    params: dict[str, Any]
    rules_version: int
    commitment: str
    seed: str
    status: str
    seats: list[Seat]
    actions: list[int]
    result: dict[str, Any] | None
    created: datetime
    problem: str | None = None
    moves: int = 0  # the log's length (also when ``actions`` were not loaded)
    actors: list[int] = field(default_factory=list)  # who made each action (-1: chance)
    notes: list[str | None] = field(default_factory=list)  # said before each action
    estimates: list[float | None] = field(default_factory=list)  # a bot's, with each action
    listed: bool = False
    to_move: int | None = None
    rematch: str | None = None  # the game that follows this one ("Play again")
    paused: bool = False  # its people all left long ago: its bots wait for one to come back
    draw_rule: int = 1  # how chance is drawn from the seed (fairness.DRAW_RULES)
    undo: bool = False  # a player may ask to take back a move
    take_back: dict[str, Any] | None = None  # the last such request (see ``GameRow``)
    hints: bool = False  # a player may ask for the best move (the table is told)
    rated: bool = False  # its result changes its players' ratings (``ratings``)
    clock: dict[str, Any] | None = None  # its clock's settings (``tminus.server.clocks``)
    # The clocks now: {"left": each seat's bank, "to_move", "deadline"} (None: no clock).
    clocks: dict[str, Any] | None = None
