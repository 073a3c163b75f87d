"""What one process tells the others of a committed change: a short JSON notice published
with PostgreSQL's ``NOTIFY`` on the game's channel, in the transaction that commits it (so
it is heard in commit order, once durable). SQLite is for one process: nothing is sent.

Each kind of news is a model (``News``); a notice is one of them as JSON, told apart by the
fields it has (each model forbids the others'), its first field the store that said it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, TypeAdapter
from sqlalchemy import text

MAX_NOTICE = 7_900  # bytes of a NOTIFY payload (PostgreSQL takes fewer than 8,000)


class News(BaseModel):
    """A change other processes apply to their copy of a game."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    by: str = ""  # the store that said it (its own process need not hear it)


class Moves(News):
    """Actions committed from log place ``at`` on ([action, note, estimate] each), and the
    status (and result) they led to, if it changed."""

    at: int
    moves: list[tuple[int, str | None, float | None]]
    status: str | None = None
    result: dict[str, Any] | None = None
    clocks: dict[str, Any] | None = None  # the game's clocks after them, if it has one


class Reload(News):
    """Too much to tell, or a change the log does not hold (a game broken): read the store."""

    at: int = 0
    reload: Literal[True] = True


class Chat(News):
    """Lines of table talk (``store_values.ChatLine`` each)."""

    chat: list[dict[str, Any]]


class Rematch(News):
    """The finished game's rematch was made: its id."""

    rematch: str


class Paused(News):
    """The game was paused (everyone away) or goes on."""

    paused: bool


class SeatNews(BaseModel):
    """A seat as stored: whether its person came, the name shown, a person or a bot."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    joined: bool
    name: str
    kind: str
    bot: str | None
    stand_in: bool = False  # a bot plays for the person, whose time ran out, till they return


class Seats(News):
    """Every seat of the game as stored now (someone joined, renamed, or left to a bot), and
    the game's clocks if that changed them (a timeout, a person back)."""

    seats: list[SeatNews]
    clocks: dict[str, Any] | None = None


class TakeBack(News):
    """The take-back asked for now, or None (answered, or withdrawn)."""

    take_back: dict[str, Any] | None


AnyNews = Moves | Reload | Chat | Rematch | Paused | Seats | TakeBack
any_news: TypeAdapter[AnyNews] = TypeAdapter(AnyNews)


def said_by(origin: str, news: News) -> str:
    """A notice from the store ``origin`` (its first field, for a quick look)."""
    return news.model_copy(update={"by": origin}).model_dump_json()


def read_notice(payload: str) -> AnyNews:
    """The news a notice tells (a ``pydantic.ValidationError`` if it is none of them)."""
    return any_news.validate_json(payload)


def own_notice(origin: str, payload: str) -> bool:
    """Whether a notice was published by the store ``origin`` (this process)."""
    return payload.startswith(f'{{"by":"{origin}",')


# Publishes the notices ``notices_bound`` binds, in their order, if ``when`` holds: a statement
# of its own, or the end of a group commit's (``store_writes.SAVES_IN_ONE_STATEMENT``).
NOTIFY_IF = (
    "SELECT pg_notify(c, p) FROM unnest(CAST(:channels AS text[]), "
    "CAST(:payloads AS text[])) WITH ORDINALITY AS n(c, p, i) WHERE {when} ORDER BY i"
)
NOTIFY_IN_ORDER = NOTIFY_IF.format(when="true")


def notices_bound(pairs: Iterable[tuple[str, str]]) -> dict[str, list[str]]:
    """(game id, payload) pairs as ``NOTIFY_IN_ORDER`` takes them."""
    notices = list(pairs)
    return {"channels": [channel(g) for g, _ in notices], "payloads": [p for _, p in notices]}


async def notify(connection, pairs: Iterable[tuple[str, str]]) -> None:
    """Publish (game id, payload) pairs on the games' channels, in order, in one statement
    of the caller's transaction (they are heard once it commits). On SQLite (one process)
    nothing is told, and ``pairs`` is not even looked at."""
    if connection.dialect.name != "postgresql":
        return
    bound = notices_bound(pairs)
    if bound["channels"]:
        await connection.execute(text(NOTIFY_IN_ORDER), bound)


def channel(game_id: str) -> str:
    """The NOTIFY channel of a game (its id is hex: a plain identifier)."""
    return f"tminus_{game_id}"
