"""Durable games with SQLAlchemy's asyncio engine: SQLite by default, PostgreSQL by a URL.

A game is its parameters, the version of the rules it is played under, its seed (secret
until the end) with the commitment to it, its seats and its action log. Each accepted
action is one row whose primary key (game, index) claims that place in the log: a second
claim on it fails, so two writers can never both apply a move there. Rows are committed
before anyone is told of them, so a game is rebuilt after a crash by replaying its log.

The store is the one truth; the server's games in memory are a cache of it. Nothing here
blocks the event loop (aiosqlite for SQLite, asyncpg for PostgreSQL). A seat's token is kept
only as its SHA-256, and a SQLite file is created readable by its owner only.

Several server processes may share one PostgreSQL database. A save first locks the rows of
its games (in the order of their ids, so that two savers never wait for each other) and
checks that each game is still in the status the change was worked out for: a move after
the end, or a start after a start, is refused like a lost claim. A committed change is
published in the same transaction with ``NOTIFY`` on the game's channel (``channel``), so
that every process that follows the game hears it, in commit order, once it is durable.
The bots of a game are played by the one process holding its lease (``bot_leases``), which
it renews; a lease not renewed in time is taken over by another process. SQLite is for one
process: ``hold_sqlite`` refuses a second.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import secrets
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any, TypedDict

from filelock import FileLock, Timeout
from sqlalchemy import (
    JSON,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    bindparam,
    delete,
    event,
    exists,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from tminus.server.clock import Clock
from tminus.server.limits import BUSY_TIMEOUT
from tminus.server.migrate import migrate

log = logging.getLogger("tminus.server.storage")

WAITING, PLAYING, FINISHED, BROKEN = "waiting", "playing", "finished", "broken"
EXPIRED = "expired"  # waited too long for its players: never started, kept for its links
PERSON, BOT = "person", "bot"
DEFAULT_URL = "sqlite:///tminus.db"
MAX_NOTICE = 7_900  # bytes of a NOTIFY payload (PostgreSQL takes fewer than 8,000)
SCHEMA_LOCK = 7_355_608  # the advisory lock that lets one process at a time make the tables


def now() -> datetime:
    return datetime.now(UTC)


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


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    params: Mapped[dict[str, Any]] = mapped_column(JSON)
    rules_version: Mapped[int] = mapped_column(Integer, default=1)
    commitment: Mapped[str] = mapped_column(String(64))
    seed: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16), index=True)
    # How a finished game ended: {"returns": [...], "winners": [...], "reason": ...}.
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # Why a broken game cannot go on (its log no longer replays under today's rules).
    problem: Mapped[str | None] = mapped_column(Text, nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now, index=True)
    finished: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # Shown in the lobby's public list while in play (else reachable by its link only).
    listed: Mapped[bool] = mapped_column(default=False, index=True)
    to_move: Mapped[int | None] = mapped_column(Integer, nullable=True)  # whose turn it is
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)  # the next game
    # In play, but its people all left long ago: its bots wait until one comes back.
    paused: Mapped[bool] = mapped_column(default=False)
    # How its chance outcomes are drawn from the seed (tminus.server.fairness.DRAW_RULES).
    draw_rule: Mapped[int] = mapped_column(Integer, default=1)
    # Whether a player may ask to take back a move (``tminus.server.undo``), and the last
    # such request: {"seat", "at" (the log's length then), "accepted": [seats], "answer"}.
    undo: Mapped[bool] = mapped_column(default=False)
    take_back: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # Whether a player may ask for the best move now (``hint``): its creator's switch.
    hints: Mapped[bool] = mapped_column(default=False)


class SeatRow(Base):
    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    bot: Mapped[str | None] = mapped_column(String(64), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    joined: Mapped[bool] = mapped_column(default=False)
    # When a socket of this seat was last open (seconds on the database's clock): renewed
    # while one is, by whichever process holds it. A person long away may be given a bot.
    seen: Mapped[float | None] = mapped_column(Float, nullable=True)
    # Votes to give this (away) seat to a bot: {voter seat: bot spec}.
    votes: Mapped[dict[str, str] | None] = mapped_column(JSON, nullable=True)


class ActionRow(Base):
    __tablename__ = "actions"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    index: Mapped[int] = mapped_column(Integer, primary_key=True)
    # (-1, ``tminus.server.takeback.TAKE_BACK``: the last standing decision is taken back.)
    action: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)  # the player, or -1 for chance
    # Said in the log before the action (a bot that fell back on a random move).
    note: Mapped[str | None] = mapped_column(Text, nullable=True)
    # A searching bot's chance to win as it reckoned its move (perfect-information games).
    estimate: Mapped[float | None] = mapped_column(Float, nullable=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class ChatRow(Base):
    """A line of a game's table talk: said by a seat, or (seat None) the table's own notice
    (a request to take a move back and its answer, a seat given to a bot)."""

    __tablename__ = "chat"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    index: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class BotLease(Base):
    """Which process plays a game's bots, until when (seconds on the database's clock)."""

    __tablename__ = "bot_leases"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    holder: Mapped[str] = mapped_column(String(64))
    expires: Mapped[float] = mapped_column(Float, index=True)


def channel(game_id: str) -> str:
    """The NOTIFY channel of a game (its id is hex: a plain identifier)."""
    return f"tminus_{game_id}"


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

    def notice(self, origin: str = "") -> str:
        """What other processes are told: enough to apply the change to their copy (and
        which store said it: ``origin``, so that its own process need not hear it)."""
        news = {"by": origin, "at": self.at}
        news["moves"] = [[action, note, estimate] for _, action, _, note, estimate in self.rows]
        if self.status is not None:
            news["status"], news["result"] = self.status, self.result
        payload = json.dumps(news, separators=(",", ":"))
        if len(payload.encode()) > MAX_NOTICE:  # too big to tell: listeners read the store
            payload = said_by(origin, {"at": self.at, "reload": True})
        return payload


def said_by(origin: str, news: dict[str, Any]) -> str:
    """A notice from the store ``origin`` (its first field, for a quick look)."""
    return json.dumps({"by": origin, **news}, separators=(",", ":"))


def own_notice(origin: str, payload: str) -> bool:
    """Whether a notice was published by the store ``origin`` (this process)."""
    return payload.startswith(f'{{"by":"{origin}",')


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


def async_url(url: str) -> str:
    """The URL with the asyncio driver: aiosqlite for SQLite, asyncpg for PostgreSQL (any
    driver named in the URL, e.g. ``postgresql+psycopg://``, is replaced)."""
    parsed = make_url(url)
    backend = parsed.get_backend_name()
    driver = {"sqlite": "aiosqlite", "postgresql": "asyncpg"}.get(backend)
    if driver is None:
        raise StoreError(f"unsupported database {url!r}: use sqlite:///FILE or postgresql://...")
    return parsed.set(drivername=f"{backend}+{driver}").render_as_string(hide_password=False)


def sqlite_path(url: str) -> Path | None:
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database)


def make_engine(url: str, busy_timeout: float = BUSY_TIMEOUT) -> AsyncEngine:
    """An engine for ``url``. SQLite gets write-ahead logging (commits survive a killed
    process) and gives up on a locked file after ``busy_timeout`` seconds."""
    if make_url(url).get_backend_name() == "sqlite":
        # One connection: SQLite takes one writer at a time, and writers that wait for each
        # other sleep in SQLite's busy handler (milliseconds each) instead of queueing here.
        engine = create_async_engine(
            async_url(url),
            connect_args={"timeout": busy_timeout},
            pool_size=1,
            max_overflow=0,
            pool_timeout=busy_timeout + 5,
        )

        @event.listens_for(engine.sync_engine, "connect")
        def _sqlite_pragmas(connection, _record) -> None:
            cursor = connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    # No ping before each use (a round trip per transaction): a connection found broken is
    # dropped by the pool, and the request that met it is answered `unavailable` (retry).
    return create_async_engine(async_url(url), pool_size=10, max_overflow=10)


def is_shared(url: str) -> bool:
    """Whether several server processes may use this database (PostgreSQL: yes)."""
    return make_url(url).get_backend_name() == "postgresql"


def listen_dsn(url: str) -> str:
    """The URL for a plain asyncpg connection (the one that LISTENs)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


_held: dict[Path, list] = {}  # SQLite files this process serves: [lock, holders]


def hold_sqlite(url: str) -> None:
    """Refuse to serve a SQLite file another process serves (SQLite is for one process).

    The lock (``FILE.lock``, next to it) is held until ``release_sqlite`` or the process
    ends, however it ends. One process may hold it more than once."""
    path = sqlite_path(url)
    if path is None:
        return
    path = path.resolve()
    if path in _held:
        _held[path][1] += 1
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    lock = FileLock(f"{path}.lock", mode=0o600)
    try:
        lock.acquire(timeout=0)
    except Timeout:
        raise StoreError(
            f"another T-minus server is already using {path}: a SQLite file is served by one "
            "process. Stop that one, or run several processes on PostgreSQL "
            "(--db postgresql://...)"
        ) from None
    _held[path] = [lock, 1]


def release_sqlite(url: str) -> None:
    path = sqlite_path(url)
    if path is None:
        return
    held = _held.get(path.resolve())
    if held is not None:
        held[1] -= 1
        if held[1] <= 0:
            held[0].release()
            del _held[path.resolve()]


def private_file(path: Path) -> None:
    """Create the SQLite file readable and writable by its owner only (it holds the seeds)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
    if path.stat().st_mode & 0o077:
        path.chmod(0o600)


def unavailable(error: DBAPIError, url: str) -> StoreError:
    """A database error in words, with the database named and no password shown."""
    reason = str(getattr(error, "orig", None) or error).splitlines()[0]
    where = make_url(url).render_as_string(hide_password=True)
    return StoreError(f"the game store {where} cannot be used: {reason}")


class Store:
    """Every read and write of games; each method is one transaction. Call ``open`` first."""

    def __init__(
        self, url: str = DEFAULT_URL, busy_timeout: float = BUSY_TIMEOUT, clock: Clock | None = None
    ) -> None:
        self.url = url
        self.busy_timeout = busy_timeout
        self.clock = clock or Clock()  # (the database's: one for every process)
        self.engine: AsyncEngine | None = None
        self.reader: AsyncEngine | None = None  # the engine for reads (one snapshot each)
        self.pending: list = []  # saves waiting for the next group commit
        self.origin = secrets.token_hex(6)  # names this store in the notices it publishes
        self.writer: asyncio.Task | None = None

    async def open(self) -> Store:
        """Connect, create the tables (and the SQLite file, 0600) and bring old files up to date.

        A damaged or foreign file raises StoreError with a sentence, not a traceback."""
        path = sqlite_path(self.url)
        if path is not None:
            private_file(path)
        self.engine = make_engine(self.url, self.busy_timeout)
        # A read of several statements (a game's row, seats and log) sees one moment of the
        # database, not a change committed between two of them (SQLite's one connection
        # does that already).
        self.reader = (
            self.engine.execution_options(isolation_level="REPEATABLE READ")
            if is_shared(self.url)
            else self.engine
        )
        try:
            async with self.engine.begin() as connection:
                if is_shared(self.url):  # processes starting together make the tables once
                    await connection.execute(select(func.pg_advisory_xact_lock(SCHEMA_LOCK)))
                await connection.run_sync(migrate, Base.metadata)
        except DBAPIError as error:
            await self.engine.dispose()
            hint = " (is it a T-minus database? move it away or restore a backup)" * bool(path)
            raise StoreError(str(unavailable(error, self.url)) + hint) from None
        return self

    async def check(self) -> None:
        """Open and close: StoreError with a sentence if the database cannot be used."""
        await self.open()
        await self.close()

    async def close(self) -> None:
        if self.engine is not None:
            await self.engine.dispose()

    async def _run(self, work, *, write: bool = True):
        """One transaction; database errors become StoreError, a lost claim ClaimLost."""
        # (Both engines are made by ``open``, which must come first.)
        assert self.engine is not None and self.reader is not None, "Store.open() first"
        try:
            context = self.engine.begin() if write else self.reader.connect()
            async with context as connection:
                return await work(connection)
        except IntegrityError:
            raise ClaimLost() from None
        except DBAPIError as error:
            raise unavailable(error, self.url) from None
        except OSError as error:
            raise StoreError(f"the game store cannot be used: {error}") from None

    async def ping(self) -> None:
        """Reach the database once (StoreError if it cannot be reached): `/readyz`."""

        async def work(connection) -> None:
            await connection.scalar(select(1))

        await self._run(work, write=False)

    async def transaction(self, work, *, write: bool = True):
        """``work(connection)`` in one transaction, as every method here runs (for the
        server's other modules: take-backs, ``tminus.server.undo``)."""
        return await self._run(work, write=write)

    async def create(self, game: StoredGame) -> None:
        await self._run(partial(insert_game, game))

    async def create_rematch(self, previous: str, game: StoredGame) -> str:
        """Make ``game`` the rematch of the finished game ``previous``, unless it has one
        already (made meanwhile, perhaps by another process): the rematch's id, either way."""

        async def work(connection) -> str:
            taken = await connection.execute(
                update(GameRow)
                .where(
                    GameRow.id == previous, GameRow.rematch.is_(None), GameRow.status == FINISHED
                )
                .values(rematch=game.id)
            )
            if taken.rowcount != 1:
                return await connection.scalar(
                    select(GameRow.rematch).where(GameRow.id == previous)
                )
            await insert_game(game, connection)
            await notify(connection, [(previous, said_by(self.origin, {"rematch": game.id}))])
            return game.id

        return await self._run(work)

    async def save(self, save: Save) -> None:
        """Commit a change: its log rows and status, published to the game's channel.

        The primary key (game, index) refuses a second action at the same index, and a game
        no longer in the status ``save.expect`` refuses the change: ClaimLost. Saves that
        arrive while one is being written are committed together, in one transaction (a
        group commit); each returns once its rows are committed.
        """
        done = asyncio.get_running_loop().create_future()
        self.pending.append((save, done))
        if self.writer is None or self.writer.done():
            self.writer = asyncio.create_task(self._write_pending())
        await done

    async def _write_pending(self) -> None:
        while self.pending:
            batch, self.pending = self.pending, []
            try:
                await self._run(partial(self._write, [s for s, _ in batch]))
            except ClaimLost:  # one of them lost its claim: find which, each on its own
                for item in batch:
                    await self._settle(item)
            except StoreError as error:
                for _, done in batch:
                    if not done.done():
                        done.set_exception(StoreError(str(error)))
            except Exception as error:  # a bug: every waiting save hears it, none hangs
                log.exception("writing %d saves failed", len(batch))
                for _, done in batch:
                    if not done.done():
                        done.set_exception(error)
            else:
                for _, done in batch:
                    if not done.done():
                        done.set_result(None)

    async def _settle(self, item) -> None:
        save, done = item
        try:
            await self._run(partial(self._write, [save]))
        except (ClaimLost, StoreError) as error:
            if not done.done():
                done.set_exception(error)
        else:
            if not done.done():
                done.set_result(None)

    async def _write(self, batch: list[Save], connection) -> None:
        await write_saves(connection, batch, self.origin)

    async def set_joined(self, game_id: str, seat: int, name: str | None = None) -> list[list[Any]]:
        """A person took their seat (and perhaps named it). Returns every seat's ``seat_news``
        as stored now, other processes' joins included, and tells the others."""
        values: dict[str, Any] = {"joined": True, "seen": self.clock.now()}
        if name:
            values["name"] = name

        async def work(connection) -> list[list[Any]]:
            # Joins of one game wait for each other: the last one sees everybody seated.
            await connection.execute(
                select(GameRow.id).where(GameRow.id == game_id).with_for_update()
            )
            await connection.execute(
                update(SeatRow)
                .where(SeatRow.game_id == game_id, SeatRow.seat == seat)
                .values(**values)
            )
            return await self._tell_seats(connection, game_id)

        return await self._run(work)

    async def _unpause(self, connection, game_id: str) -> bool:
        """A person is back: a paused game goes on (told to the other processes)."""
        resumed = await connection.execute(
            update(GameRow).where(GameRow.id == game_id, GameRow.paused).values(paused=False)
        )
        if resumed.rowcount:
            await notify(connection, [(game_id, said_by(self.origin, {"paused": False}))])
        return bool(resumed.rowcount)

    async def pause_abandoned(self, seconds: float) -> list[str]:
        """Games in play whose people have all been away ``seconds`` or more are paused
        (nobody plays their bots until a person is back): their ids, each told to the
        other processes."""

        async def work(connection) -> list[str]:
            recent = (await connection.scalar(select(self.clock.now()))) - seconds
            people = exists().where(SeatRow.game_id == GameRow.id, SeatRow.kind == PERSON)
            here = exists().where(
                SeatRow.game_id == GameRow.id, SeatRow.kind == PERSON, SeatRow.seen > recent
            )
            paused = list(
                (
                    await connection.scalars(
                        update(GameRow)
                        .where(GameRow.status == PLAYING, ~GameRow.paused, people, ~here)
                        .values(paused=True)
                        .returning(GameRow.id)
                    )
                ).all()
            )
            if paused:
                await connection.execute(delete(BotLease).where(BotLease.game_id.in_(paused)))
            await notify(connection, [(g, said_by(self.origin, {"paused": True})) for g in paused])
            return paused

        return await self._run(work)

    async def _tell_seats(self, connection, game_id: str) -> list[list[Any]]:
        """Every seat's news as stored now, told to the other processes."""
        rows = await connection.execute(
            select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.seat)
        )
        seats = [seat_news(row) for row in rows.mappings()]
        await notify(connection, [(game_id, said_by(self.origin, {"seats": seats}))])
        return seats

    async def renew_seen(self, seats: list[tuple[str, int]]) -> set[str]:
        """These (game, seat) have a socket open now: they are here (a paused game of
        theirs goes on). The ids of the games that were paused."""
        if not seats:
            return set()

        async def work(connection) -> set[str]:
            resumed = set()
            for game_id, seat in sorted(set(seats)):  # (in order: writers never cross)
                await connection.execute(
                    update(SeatRow)
                    .where(SeatRow.game_id == game_id, SeatRow.seat == seat)
                    .values(seen=self.clock.now())
                )
                if await self._unpause(connection, game_id):
                    resumed.add(game_id)
            return resumed

        return await self._run(work)

    async def give_to_bot(
        self, game_id: str, seat: int, voter: int, bot: str, away: float
    ) -> tuple[bool, int, int, list[list[Any]]]:
        """``voter`` votes to give the seat of a person away ``away`` seconds or more to the
        bot ``bot``. The seat is the bot's at once if ``voter`` made the game (seat 0) or a
        majority of the other people present voted so. Returns (given, votes, present,
        every seat's news); refuses (Refusal) a vote that cannot count."""

        async def work(connection) -> tuple[bool, int, int, list[list[Any]]]:
            status = await connection.scalar(
                select(GameRow.status).where(GameRow.id == game_id).with_for_update()
            )
            if status != PLAYING:
                raise Refusal("bad_state", "a seat is given to a bot only while the game is on")
            clock = await connection.scalar(select(self.clock.now()))
            seats = await connection.execute(select(SeatRow).where(SeatRow.game_id == game_id))
            rows = {row["seat"]: row for row in seats.mappings()}
            recent = clock - away
            here = {s for s, r in rows.items() if r["kind"] == PERSON and (r["seen"] or 0) > recent}
            target = rows.get(seat)
            if target is None or target["kind"] != PERSON:
                raise Refusal("bad_request", f"seat {seat} is not a person's: no bot is needed")
            if seat == voter:
                raise Refusal("forbidden", "you are here: your own seat is not given to a bot")
            if seat in here:
                raise Refusal(
                    "bad_state",
                    f"{target['name']} is still here (or was less than {away:g} s ago): a seat "
                    "is given to a bot once its person has been away that long",
                )
            votes = {v: b for v, b in (target["votes"] or {}).items() if int(v) in here}
            votes[str(voter)] = bot
            present = len(here)
            given = voter == 0 or 2 * len(votes) > present
            values = (
                {"kind": BOT, "bot": bot, "token_hash": None, "votes": None, "joined": True}
                if given
                else {"votes": votes}
            )
            await connection.execute(
                update(SeatRow)
                .where(SeatRow.game_id == game_id, SeatRow.seat == seat)
                .values(**values)
            )
            return given, len(votes), present, await self._tell_seats(connection, game_id)

        return await self._run(work)

    async def say(self, game_id: str, seat: int | None, words: str) -> ChatLine:
        """Add a line to the game's table talk (its place claimed under the game's row lock)
        and tell the other processes: the line as stored."""

        async def work(connection) -> ChatLine:
            await connection.execute(
                select(GameRow.id).where(GameRow.id == game_id).with_for_update()
            )
            last = await connection.scalar(
                select(func.max(ChatRow.index)).where(ChatRow.game_id == game_id)
            )
            index, at = (last or 0) + 1, now()
            await connection.execute(
                insert(ChatRow).values(game_id=game_id, index=index, seat=seat, text=words, at=at)
            )
            line: ChatLine = {"index": index, "seat": seat, "text": words, "at": at.isoformat()}
            await notify(connection, [(game_id, said_by(self.origin, {"chat": [line]}))])
            return line

        return await self._run(work)

    async def chat(self, game_id: str, limit: int) -> list[ChatLine]:
        """The last ``limit`` lines of a game's table talk, oldest first."""
        query = (
            select(ChatRow.index, ChatRow.seat, ChatRow.text, ChatRow.at)
            .where(ChatRow.game_id == game_id)
            .order_by(ChatRow.index.desc())
            .limit(limit)
        )

        async def work(connection) -> list[ChatLine]:
            rows = (await connection.execute(query)).all()
            return [
                {"index": index, "seat": seat, "text": words, "at": at.isoformat()}
                for index, seat, words, at in reversed(rows)
            ]

        return await self._run(work, write=False)

    async def expire_waiting(self, seconds: float) -> list[str]:
        """Games still waiting for players ``seconds`` after they were made expire: their
        ids (each told to the other processes as a change of status)."""
        cutoff = datetime.fromtimestamp(now().timestamp() - seconds, UTC)

        async def work(connection) -> list[str]:
            expired = list(
                (
                    await connection.scalars(
                        update(GameRow)
                        .where(GameRow.status == WAITING, GameRow.created < cutoff)
                        .values(status=EXPIRED)
                        .returning(GameRow.id)
                    )
                ).all()
            )
            news = {"at": 0, "moves": [], "status": EXPIRED, "result": None}
            await notify(connection, [(g, said_by(self.origin, news)) for g in expired])
            return expired

        return await self._run(work)

    async def mark_broken(self, game_id: str, problem: str) -> None:
        """The game's log no longer replays: it stops here, with the reason kept."""

        async def work(connection) -> None:
            await connection.execute(
                update(GameRow)
                .where(GameRow.id == game_id)
                .values(status=BROKEN, problem=problem[:2000])
            )
            await notify(connection, [(game_id, said_by(self.origin, {"reload": True}))])

        await self._run(work)

    async def set_rules_version(self, game_id: str, version: int) -> None:
        async def work(connection) -> None:
            await connection.execute(
                update(GameRow).where(GameRow.id == game_id).values(rules_version=version)
            )

        await self._run(work)

    async def load(self, game_id: str, actions: bool = True, since: int = 0) -> StoredGame | None:
        """A game with its seats and (unless ``actions`` is false) its log from ``since``."""
        games = await self._records(select(GameRow).where(GameRow.id == game_id), actions, since)
        return games[0] if games else None

    async def recent(self, limit: int, listed: bool = False) -> list[StoredGame]:
        """The newest games, without their logs (``moves`` says how long each is); ``listed``:
        only the listed games in play (the lobby's public list)."""
        query = select(GameRow).order_by(GameRow.created.desc()).limit(limit)
        if listed:
            query = query.where(GameRow.listed, GameRow.status == PLAYING)
        return await self._records(query)

    async def some(self, game_ids: list[str]) -> list[StoredGame]:
        """The games of these ids that exist, newest first, without their logs."""
        query = select(GameRow).where(GameRow.id.in_(game_ids)).order_by(GameRow.created.desc())
        return await self._records(query)

    async def ids(self, statuses: tuple[str, ...] | None = None, limit: int | None = None):
        """Game ids, newest first (only those with one of ``statuses`` if given)."""
        query = select(GameRow.id).order_by(GameRow.created.desc())
        if statuses:
            query = query.where(GameRow.status.in_(statuses))
        if limit:
            query = query.limit(limit)

        async def work(connection) -> list[str]:
            return list((await connection.scalars(query)).all())

        return await self._run(work, write=False)

    async def _records(self, query, with_actions: bool = False, since: int = 0) -> list[StoredGame]:
        async def work(connection) -> list[StoredGame]:
            rows = (await connection.execute(query)).mappings().all()
            ids = [row["id"] for row in rows]
            if not ids:
                return []
            seats: dict[str, list[Seat]] = {game_id: [] for game_id in ids}
            seat_rows = await connection.execute(
                select(SeatRow).where(SeatRow.game_id.in_(ids)).order_by(SeatRow.seat)
            )
            for s in seat_rows.mappings():
                seats[s["game_id"]].append(
                    Seat(s["seat"], s["kind"], s["bot"], s["token_hash"], s["name"], s["joined"])
                )
            counts = dict(
                (
                    await connection.execute(
                        select(ActionRow.game_id, func.count())
                        .where(ActionRow.game_id.in_(ids))
                        .group_by(ActionRow.game_id)
                    )
                ).all()
            )
            logs: dict[str, tuple[list, ...]] = {g: ([], [], [], []) for g in ids}
            if with_actions:
                actions = await connection.execute(
                    select(
                        ActionRow.game_id, ActionRow.action, ActionRow.seat, ActionRow.note,
                        ActionRow.estimate,
                    )
                    .where(ActionRow.game_id.in_(ids), ActionRow.index >= since)
                    .order_by(ActionRow.game_id, ActionRow.index)
                )  # fmt: skip
                for game_id, *columns in actions:
                    for log, value in zip(logs[game_id], columns, strict=True):
                        log.append(value)
            return [
                stored_game(row, seats[row["id"]], counts.get(row["id"], 0), *logs[row["id"]])
                for row in rows
            ]

        return await self._run(work, write=False)

    # -- bot leases ---------------------------------------------------------------------------
    async def take_lease(self, game_id: str, holder: str, seconds: float) -> bool:
        """Take (or renew) the lease of a game's bots for ``seconds``: only if nobody holds
        it, ``holder`` does, or its holder let it expire. Whether ``holder`` has it now."""
        dialect = postgresql_insert if is_shared(self.url) else sqlite_insert
        statement = dialect(BotLease).values(
            game_id=game_id, holder=holder, expires=self.clock.now() + seconds
        )
        upsert = statement.on_conflict_do_update(
            index_elements=[BotLease.game_id],
            set_={"holder": holder, "expires": statement.excluded.expires},
            where=(BotLease.holder == holder) | (BotLease.expires < self.clock.now()),
        ).returning(BotLease.holder)

        async def work(connection) -> bool:
            return (await connection.execute(upsert)).first() is not None

        try:
            return await self._run(work)
        except ClaimLost:  # the game is gone (its row, that the lease points to)
            return False

    async def renew_leases(self, holder: str, seconds: float, game_ids) -> set[str]:
        """Extend the leases of these games that ``holder`` still has: the ids of those
        games. (A lease its holder no longer plays is left to run out, for any to take.)"""

        async def work(connection) -> set[str]:
            renewed = await connection.execute(
                update(BotLease)
                .where(BotLease.holder == holder, BotLease.game_id.in_(list(game_ids)))
                .values(expires=self.clock.now() + seconds)
                .returning(BotLease.game_id)
            )
            return set(renewed.scalars())

        return await self._run(work)

    async def release_leases(self, holder: str | None, game_ids=None) -> None:
        """Give up leases (``holder`` None: everybody's; ``game_ids`` None: all of them)."""
        statement = delete(BotLease)
        if holder is not None:
            statement = statement.where(BotLease.holder == holder)
        if game_ids is not None:
            statement = statement.where(BotLease.game_id.in_(list(game_ids)))

        async def work(connection) -> None:
            await connection.execute(statement)

        await self._run(work)

    async def unleased(self, limit: int) -> list[str]:
        """Games in play with bots whose lease nobody holds (never taken, or expired)."""
        bots = exists().where(SeatRow.game_id == GameRow.id, SeatRow.kind == BOT)
        held = exists().where(BotLease.game_id == GameRow.id, BotLease.expires >= self.clock.now())
        query = (
            select(GameRow.id)
            .where(GameRow.status == PLAYING, ~GameRow.paused, bots, ~held)
            .order_by(GameRow.created)
            .limit(limit)
        )

        async def work(connection) -> list[str]:
            return list((await connection.scalars(query)).all())

        return await self._run(work, write=False)


async def notify(connection, notices: list[tuple[str, str]]) -> None:
    """Publish (game id, payload) pairs on the games' channels, in order, in one statement
    of the caller's transaction (they are heard once it commits)."""
    if not notices or connection.dialect.name != "postgresql":
        return
    await connection.execute(
        text(
            "SELECT pg_notify(c, p) FROM unnest(CAST(:channels AS text[]), "
            "CAST(:payloads AS text[])) WITH ORDINALITY AS n(c, p, i) ORDER BY i"
        ),
        {"channels": [channel(g) for g, _ in notices], "payloads": [p for _, p in notices]},
    )


# The statements of every save, built once: a batch runs each once (the turns as one
# executemany), so a move costs no statement compilation and one round trip per statement.
LOCK_STATUSES = (
    select(GameRow.id, GameRow.status)
    .where(GameRow.id.in_(bindparam("ids", expanding=True)))
    .order_by(GameRow.id)
    .with_for_update()
)
SET_TURN = (
    update(GameRow).where(GameRow.id == bindparam("b_id")).values(to_move=bindparam("b_turn"))
)


async def write_saves(connection, batch: list[Save], origin: str = "") -> None:
    """The rows and status changes of several saves, in the caller's transaction.

    The games' rows are locked first, in the order of their ids; a game whose status is no
    longer the one a save expects refuses the whole batch (ClaimLost)."""
    at = now()
    ids = sorted({save.game_id for save in batch})
    statuses = dict((await connection.execute(LOCK_STATUSES, {"ids": ids})).all())
    for save in batch:
        if save.expect is not None and statuses.get(save.game_id) != save.expect:
            raise ClaimLost()
    rows = [
        {"game_id": save.game_id, "index": index, "action": action, "seat": seat,
         "note": note, "estimate": estimate, "at": at}
        for save in batch
        for index, action, seat, note, estimate in save.rows
    ]  # fmt: skip
    if rows:
        await connection.execute(insert(ActionRow), rows)
    turns = {  # each game's last save says whose turn it is now
        save.game_id: None if save.to_move < 0 else save.to_move
        for save in batch
        if save.to_move is not None
    }
    if turns:
        await connection.execute(
            SET_TURN, [{"b_id": game_id, "b_turn": turn} for game_id, turn in sorted(turns.items())]
        )
    for save in batch:
        if save.status is not None:
            values: dict[str, Any] = {"status": save.status}
            if save.result is not None:
                values["result"] = save.result
            if save.status == FINISHED:
                values["finished"] = at
            await connection.execute(
                update(GameRow).where(GameRow.id == save.game_id).values(**values)
            )
    finished = [save.game_id for save in batch if save.status == FINISHED]
    if finished:  # nobody plays their bots any more
        await connection.execute(delete(BotLease).where(BotLease.game_id.in_(finished)))
    await notify(connection, [(save.game_id, save.notice(origin)) for save in batch])


async def insert_game(game: StoredGame, connection) -> None:
    """A new game's row and seats, in the caller's transaction."""
    await connection.execute(
        insert(GameRow),
        [
            {
                "id": game.id, "game": game.game, "params": game.params,
                "rules_version": game.rules_version, "commitment": game.commitment,
                "seed": game.seed, "status": game.status, "result": None,
                "created": game.created, "listed": game.listed, "draw_rule": game.draw_rule,
                "undo": game.undo, "hints": game.hints,
            }
        ],
    )  # fmt: skip
    await connection.execute(
        insert(SeatRow),
        [
            {"game_id": game.id, "seat": s.seat, "kind": s.kind, "bot": s.bot,
             "token_hash": s.token_hash, "name": s.name, "joined": s.joined}
            for s in game.seats
        ],
    )  # fmt: skip


def seat_news(row) -> list[Any]:
    """What the other processes are told of a seat (a row's mapping): [joined, name, kind,
    bot]."""
    return [bool(row["joined"]), row["name"], row["kind"], row["bot"]]


def stored_game(
    row, seats: list[Seat], moves: int, actions, actors, notes, estimates
) -> StoredGame:
    return StoredGame(
        id=row["id"], game=row["game"], params=dict(row["params"]),
        rules_version=row["rules_version"], commitment=row["commitment"], seed=row["seed"],
        status=row["status"], seats=seats, actions=actions, result=row["result"],
        created=row["created"], problem=row["problem"], moves=moves, actors=actors, notes=notes,
        estimates=estimates,
        listed=bool(row["listed"]), to_move=row["to_move"], rematch=row["rematch"],
        paused=bool(row["paused"]), draw_rule=row["draw_rule"] or 1, undo=bool(row["undo"]),
        take_back=row["take_back"], hints=bool(row["hints"]),
    )  # fmt: skip
