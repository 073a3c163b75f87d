"""A game in memory: its record, its state rebuilt from the log, and the log as people read it.

``Table`` is the game as this process knows it, ``Draft`` a change being worked out on a copy
(``tminus.server.pipeline``), ``GameError`` a refused request. The small helpers here say who
is to move, what each seat is called, who may do what now, and turn a store that cannot be
used into an error.
"""

from __future__ import annotations

import asyncio
import hmac
import itertools
import re
from collections import deque
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from tminus.core.game import Game, State
from tminus.server.storage import (
    BOT,
    EXPIRED,
    FINISHED,
    PLAYING,
    WAITING,
    ChatLine,
    Seat,
    StoredGame,
    StoreError,
    token_hash,
)
from tminus.server.store_notices import SeatNews

T = TypeVar("T")

EXPIRED_WORDS = "this game expired before it started: make a new one in the lobby"
# Log lines are narrated with these marks in place of names, and the current names are put
# in when a line is sent: a person who renames themselves is renamed in the whole log.
SEAT_MARK = "\x1f{}\x1f"
SEAT_MARK_PATTERN = re.compile("\x1f(\\d+)\x1f")


def seat_marks(n: int) -> list[str]:
    return [SEAT_MARK.format(seat) for seat in range(n)]


def put_names(text: str, names: list[str]) -> str:
    """A narrated line with each seat's mark replaced by the seat's name."""
    return SEAT_MARK_PATTERN.sub(lambda m: names[int(m.group(1))], text)


class GameError(Exception):
    """A refused request: nothing changed. ``code`` is for programs, the message for people."""

    problem: str | None  # (set on a "broken" error only: see ``broken_error``)

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Unreplayable(Exception):
    """A stored game whose log does not replay under the rules installed now."""


@dataclass
class LogEntry:
    index: int
    actor: int  # the seat that moved, or CHANCE
    action: int
    text: str  # the full truth, for people: shown to no one before the end
    seen: list[str]  # how each seat saw it, then (last) how a spectator saw it
    note: str | None = None  # said before it (a bot that fell back on a random move)
    takes_back: int | None = None  # a take-back row: the index of the entry it undid
    estimate: float | None = None  # a searching bot's chance to win, as it reckoned its move
    # (All narrated with seat marks for names: see ``put_names``.)


@dataclass
class Table:
    """A game in memory: its stored record, its state rebuilt from the log, and its lock."""

    record: StoredGame
    game: Game
    state: State
    log: list[LogEntry] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    version: int = 0  # counts the changes seen in memory (views rendered once per version)
    # Which copy of the game this is, unique in the process: a copy rebuilt from the store
    # starts again at version 0, so views are cached by (copy, version).
    copy: int = field(default_factory=itertools.count().__next__)
    news: deque[str] = field(default_factory=deque)  # heard from other processes, in order
    hearing: asyncio.Task | None = None  # applies the news, one at a time
    chat: list[ChatLine] | None = None  # the last lines of table talk (None: not read)
    taken: int = 0  # rows of the log that do not stand: moves taken back and take-backs

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def status(self) -> str:
        return self.record.status

    @property
    def move_number(self) -> int:
        """How many actions (chance ones too) the log holds: a move names the one it follows."""
        return len(self.log)

    def bot_to_move(self) -> int | None:
        """The bot's seat if a bot is to move now (never in a paused game)."""
        seat = self.state.current_player()
        playing = self.status == PLAYING and not self.record.paused
        if playing and seat >= 0 and self.record.seats[seat].kind == BOT:
            return seat
        return None


@dataclass
class Draft:
    """A change being worked out on a copy of a game, put in memory only once committed."""

    state: State
    start: int  # the log's length when the draft began
    expect: str  # the game's status when the draft began (the store checks it is still so)
    entries: list[LogEntry] = field(default_factory=list)
    status: str | None = None
    result: dict[str, Any] | None = None
    taken: int = 0  # rows that do not stand (see ``Table.taken``)

    @property
    def move_number(self) -> int:
        return self.start + len(self.entries)

    @property
    def standing(self) -> int:
        """How many actions stand: the index of the next chance outcome's draw."""
        return self.move_number - self.taken


@dataclass
class Created:
    table: Table
    tokens: dict[int, str]  # each person's seat token: told once, stored only hashed


def seat_names(table: Table | StoredGame) -> list[str]:
    """What people call each seat: the names they chose ("Player 2" if they did not)."""
    record = table.record if isinstance(table, Table) else table
    return [s.name for s in record.seats]


def authorize(table: Table, seat: Any, token: Any) -> int:
    """The seat if ``token`` is its token; GameError otherwise."""
    seats = table.record.seats
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise GameError("bad_request", f"a seat is a number, not {seat!r}")
    if not 0 <= seat < len(seats):
        raise GameError(
            "unknown_seat",
            f"this link names a seat the game does not have: it has {len(seats)} players",
        )
    expected = seats[seat].token_hash
    if expected is None:
        raise GameError("forbidden", f"{seats[seat].name} is a bot: nobody takes that seat")
    if not isinstance(token, str) or not hmac.compare_digest(expected, token_hash(token)):
        raise GameError("forbidden", f"this invite link is not valid for {seats[seat].name}'s seat")
    return seat


def check_move(table: Table, seat: int, move_number: Any, action: Any) -> None:
    """``seat`` may play ``action`` now (see ``check_turn``), a legal move."""
    check_turn(table, seat, move_number)
    is_int = isinstance(action, int) and not isinstance(action, bool)
    if not (is_int and table.state.is_legal(action)):
        names = seat_names(table)
        reason = table.state.why_not(action, names)
        legal = ", ".join(
            f"{a} ({table.state.move_label(a, names)})" for a in table.state.legal_actions()
        )
        raise GameError("illegal", f"illegal move {action!r}: {reason} (legal moves: {legal})")


def why_not(table: Table, seat: int, action: Any) -> str | None:
    """Why ``seat`` cannot play ``action`` now, in the rule's words (None: it can): the
    engine's reason (``State.why_not``), or that it is not their turn or the game's."""
    names = seat_names(table)
    if table.status != PLAYING:
        return f"No moves now: the game has {status_words(table)}."
    to_move = table.state.current_player()
    if to_move != seat:
        who = f"{names[to_move]} is" if to_move >= 0 else "the dice are"
        return f"It is not your turn: {who} to move."
    return table.state.why_not(action, names)


def move_labels(table: Table) -> list[dict[str, Any]]:
    """Every move of the game that can be named in this position (legal or not), for a
    player to ask why one is not possible."""
    names = seat_names(table)
    labels = []
    for action in range(table.game.num_distinct_actions):
        try:
            label = table.state.move_name(action, names)
        except Exception:  # (a move of another phase: this position cannot name it)
            continue
        labels.append({"action": action, "label": label})
    return labels


def stale(table: Table, move_number: int) -> GameError:
    return GameError(
        "stale",
        f"stale move: it was made for move {move_number}, the game is at move {table.move_number}",
    )


def check_turn(table: Table, seat: int, move_number: Any) -> None:
    """``seat`` is to move in the game in play, which is at ``move_number``. A move made
    for a position the game has left is stale, even if the game has ended since: two
    processes raced for a game's last move, and the one that lost heard of the end first."""
    if isinstance(move_number, bool) or not isinstance(move_number, int):
        raise GameError("bad_request", f"move_number must be an integer, not {move_number!r}")
    if move_number < table.move_number:
        raise stale(table, move_number)
    if table.status != PLAYING:
        raise GameError("bad_state", f"no moves now: the game has {status_words(table)}")
    if move_number != table.move_number:
        raise stale(table, move_number)
    to_move = table.state.current_player()
    if to_move != seat:
        who = f"{seat_names(table)[to_move]}'s" if to_move >= 0 else "chance's"
        raise GameError("not_your_turn", f"not your turn: it is {who} turn")


def seat_state(seat: Seat) -> SeatNews:
    """A seat as the other processes are told of it (``store_seats.seat_news``)."""
    return SeatNews(
        joined=seat.joined, name=seat.name, kind=seat.kind, bot=seat.bot, stand_in=seat.stand_in
    )


def rematch_seat(seat: int, players: int) -> int:
    """Where a seat sits in the rematch: one place earlier, so the second player starts."""
    return (seat - 1) % players


def whose_turn(state: State, status: str) -> int:
    """The seat to move in a game in play, else -1 (nobody's: chance, over, not started)."""
    return max(-1, state.current_player()) if status == PLAYING else -1


def to_move_of(table: Table) -> int | None:
    """The seat to move, as the store keeps it (None: nobody's)."""
    turn = whose_turn(table.state, table.status)
    return turn if turn >= 0 else None


def status_words(table: Table) -> str:
    return {WAITING: "not started", PLAYING: "started", FINISHED: "ended",
            EXPIRED: "expired"}[table.status]  # fmt: skip


async def await_store(work: Awaitable[T]) -> T:
    """Await the store; a store that cannot be used is a clear, retryable error."""
    try:
        return await work
    except StoreError as error:
        raise unavailable(error) from None


def unavailable(error: StoreError) -> GameError:
    return GameError("unavailable", f"{error}. Nothing was changed: try again in a moment.")


def broken_error(record: StoredGame) -> GameError:
    error = GameError(
        "broken",
        f"this game cannot go on: {record.problem or 'its log no longer replays'}. "
        "Its export still has the whole log.",
    )
    error.problem = record.problem
    return error
