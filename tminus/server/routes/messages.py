"""What a socket's messages do, after its hello: each type of message
(``tminus.server.protocol``) has its handler, found in a table by the message's class.

``ANY_SOCKET``: what any socket may send (a spectator's too). ``SEAT_MESSAGES``: what a seat
does; the socket's hello attached it to the game and authorized the seat's token, and each
handler gets the game as it is now.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Any

from tminus.server.admission import Admission
from tminus.server.bots import BotPlayer
from tminus.server.hub import Connection, Hub
from tminus.server.limits import Limits, retry_after
from tminus.server.outbound import HintMessage, error, pong
from tminus.server.protocol import (
    Chat,
    GiveToBot,
    Hello,
    Hint,
    Message,
    Move,
    Ping,
    Rematch,
    Rename,
    Resign,
    Start,
    Switch,
    TakeBack,
    TakeBackAnswer,
    Why,
)
from tminus.server.reviews import ReviewBusy, Reviews
from tminus.server.routes.deps import (
    Admit,
    Bots,
    HintTasks,
    ReviewJobs,
    ServerLimits,
    Service,
    SocketHub,
)
from tminus.server.service import GameError, GameService, Table
from tminus.server.tables import why_not

log = logging.getLogger("tminus.server")


@dataclass(frozen=True)
class Parts:
    """The parts of the server a socket's messages act on."""

    service: GameService
    hub: Hub
    limits: Limits
    bots: BotPlayer
    reviews: Reviews
    admission: Admission
    hinting: set[asyncio.Task]  # the hints being worked out


async def socket_parts(
    service: Service,
    hub: SocketHub,
    limits: ServerLimits,
    bots: Bots,
    reviews: ReviewJobs,
    admission: Admit,
    hinting: HintTasks,
) -> Parts:
    """The dependency of the socket's route: its parts, each a dependency of its own."""
    return Parts(service, hub, limits, bots, reviews, admission, hinting)


async def handle(parts: Parts, connection: Connection, message: Message) -> None:
    """Do what a message after the hello asks (a ``GameError``: refused, nothing done)."""
    anyone = ANY_SOCKET.get(type(message))
    if anyone is not None:
        return anyone(connection)
    if connection.seat is None:
        raise GameError("forbidden", "spectators watch; they do not play")
    # (Its hello attached the socket to the game, and authorized the seat's token.)
    assert connection.table is not None and connection.token is not None
    table = await parts.service.get(connection.table.id)
    await SEAT_MESSAGES[type(message)](parts, connection, table, message)


def held(connection: Connection, seat: int | None = None) -> tuple[int, str]:
    """The seat a message speaks for, with its token: the one the socket plays now, or
    (hot-seat) another its hello named."""
    if seat is None:
        # (handle refused spectators; a seat's token was authorized in its hello)
        assert connection.seat is not None and connection.token is not None
        return connection.seat, connection.token
    if seat not in connection.held:
        raise GameError("forbidden", "this device does not hold that seat (not in its hello)")
    return seat, connection.held[seat]


@contextlib.contextmanager
def heard_at_the_table(hub: Hub, table: Table, seat: int, doing: str) -> Iterator[None]:
    """What a seat may repeat at will that the whole table hears of (table talk, a new
    name, a vote for a bot) draws on one allowance per seat, the table talk's: a line
    every 2 s, five at once. Over it, nothing is done (votes and renames flooded the
    talk and the sockets); a request refused for another reason did nothing, and costs
    nothing. Take-backs need none: each needs a move of one's own to take back, and a
    move is asked about once."""
    key = f"{table.id}:{seat}"
    wait = hub.talk.take(key)
    if wait:
        raise GameError(
            "rate_limited",
            f"you are {doing} too fast: wait {retry_after(wait)} s (nothing was done)",
        )
    try:
        yield
    except GameError:
        hub.talk.give_back(key)
        raise


# -- any socket ----------------------------------------------------------------------------
def ping(connection: Connection) -> None:
    connection.push(pong())


def hello_again(connection: Connection) -> None:
    raise GameError("bad_request", "already said hello")


# -- a seat --------------------------------------------------------------------------------
async def switch(parts: Parts, connection: Connection, table: Table, message: Switch) -> None:
    """Hot-seat: the socket now plays (and sees) another seat its hello named."""
    connection.seat, connection.token = held(connection, message.seat)
    connection.sent = 0  # the whole log, as that seat reads it
    connection.push_state(table)


async def move(parts: Parts, connection: Connection, table: Table, message: Move) -> None:
    seat, token = held(connection)
    await parts.service.move(table, seat, token, message.move_number, message.action)


async def start(parts: Parts, connection: Connection, table: Table, message: Start) -> None:
    await parts.service.start(table, *held(connection))


async def resign(parts: Parts, connection: Connection, table: Table, message: Resign) -> None:
    await parts.service.resign(table, *held(connection))


async def rename(parts: Parts, connection: Connection, table: Table, message: Rename) -> None:
    seat, token = held(connection)
    with heard_at_the_table(parts.hub, table, seat, "renaming"):
        await parts.service.join(table, seat, token, message.name)


async def rematch(parts: Parts, connection: Connection, table: Table, message: Rematch) -> None:
    seat, token = held(connection)
    if table.record.rematch is None:  # (a new game: made under the same limits)
        parts.service.authorize(table, seat, token)
        playing = [s.bot or "random" for s in table.record.seats if s.kind == "bot"]
        parts.admission.admit_here(connection.client, playing, new_game=True)
    await parts.service.rematch(table, seat, token)


async def give_to_bot(
    parts: Parts, connection: Connection, table: Table, message: GiveToBot
) -> None:
    seat, token = held(connection)
    parts.service.authorize(table, seat, token)
    parts.admission.admit_here(connection.client, [str(message.bot)], new_game=False)
    away = parts.limits.away_after
    with heard_at_the_table(parts.hub, table, seat, "asking for bots"):
        given = await parts.service.give_to_bot(table, seat, token, message.seat, message.bot, away)
    if given:
        parts.bots.changed(table)


async def take_back(parts: Parts, connection: Connection, table: Table, message: TakeBack) -> None:
    seat, token = held(connection, message.seat)
    await parts.service.take_back(table, seat, token, message.move_number)


async def answer_take_back(
    parts: Parts, connection: Connection, table: Table, message: TakeBackAnswer
) -> None:
    seat, token = held(connection, message.seat)
    number, accept = message.move_number, message.accept
    await parts.service.answer_take_back(table, seat, token, number, accept)


async def hint(parts: Parts, connection: Connection, table: Table, message: Hint) -> None:
    """Announce the hint to the table (once a position), then work it out aside: the socket
    goes on reading meanwhile."""
    seat, token = held(connection, message.seat)
    position = (table.id, message.move_number, seat)
    known = parts.reviews.hint_known(position)  # (told the table once a position)
    if not known:
        try:
            parts.reviews.check_hint_room()
        except ReviewBusy as busy:
            raise GameError("busy", str(busy)) from None
    state = await parts.service.hint(table, seat, token, message.move_number, announce=not known)
    task = asyncio.get_running_loop().create_task(
        tell_hint(parts, connection, table, state, seat, message.move_number)
    )
    parts.hinting.add(task)
    task.add_done_callback(parts.hinting.discard)


async def tell_hint(
    parts: Parts, connection: Connection, table: Table, state, seat: int, number: int
) -> None:
    """Work a hint out and tell it to the socket that asked (nobody else)."""
    position = (table.id, number, seat)
    try:
        found = await parts.reviews.hint(
            position, type(table.game), table.record.params, state.history()
        )
    except ReviewBusy as busy:
        connection.push(error("busy", str(busy)))
        return
    except Exception as failed:  # the hints process failed: asking again retries
        log.warning("a hint in game %s failed: %s", table.id, failed)
        connection.push(error("unavailable", "the hint could not be worked out: try again"))
        return
    names = parts.service.names(table)
    label = state.move_label(found["action"], names)
    labels = [state.move_label(a, names) for a in found["equal"]]
    told = HintMessage(
        type="hint", seat=seat, move_number=number, label=label, labels=labels, **found
    )
    connection.push(told.model_dump())


async def chat(parts: Parts, connection: Connection, table: Table, message: Chat) -> None:
    seat, token = held(connection)
    with heard_at_the_table(parts.hub, table, seat, "chatting"):
        await parts.service.say(table, seat, token, message.text)


async def why(parts: Parts, connection: Connection, table: Table, message: Why) -> None:
    """Why the seat cannot play a move now, told to this socket alone."""
    seat, _token = held(connection, message.seat)
    names = parts.service.names(table)
    try:
        label = table.state.move_label(message.action, names)
    except Exception:  # (no such move, or none this position can name)
        label = f"move {message.action}"
    told = {"type": "why", "seat": seat, "move_number": table.move_number,
            "action": message.action, "label": label,
            "reason": why_not(table, seat, message.action)}  # fmt: skip
    connection.push(told)


# -- the dispatch tables: a message's class -> its handler ---------------------------------
ANY_SOCKET: dict[type[Message], Callable[[Connection], None]] = {
    Ping: ping,
    Hello: hello_again,
}
SEAT_MESSAGES: dict[type[Message], Callable[[Parts, Connection, Table, Any], Awaitable[None]]] = {
    Switch: switch,
    Move: move,
    Start: start,
    Resign: resign,
    Rename: rename,
    Rematch: rematch,
    GiveToBot: give_to_bot,
    TakeBack: take_back,
    TakeBackAnswer: answer_take_back,
    Hint: hint,
    Chat: chat,
    Why: why,
}
