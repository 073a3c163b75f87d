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

This module is ``Store``, the games' lives (created, saved by group commit, expired,
broken), and what the rest of the server imports. Its parts: the tables (``store_rows``),
the values handed out (``store_values``), the engine and the SQLite file
(``store_engine``), the notices (``store_notices``), transactions (``store_base``), the
rows a save writes (``store_writes``), and the reads, seats, chat and bot leases
(``store_reads``, ``store_seats``, ``store_chat``, ``store_leases``), and the people's
accounts, ratings, clocks, reminders and puzzles (``store_accounts``, ``store_ratings``,
``store_clocks``, ``store_reminders``, ``store_puzzles``). Every notice is
published through ``notify`` and every save written through ``write_saves`` as named here,
so that a test that replaces them hears, or breaks, all of them.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from functools import partial
from typing import Any

from sqlalchemy import select, update

from tminus.server.store_accounts import AccountQueries
from tminus.server.store_base import SCHEMA_LOCK, StoreBase
from tminus.server.store_chat import TableTalk
from tminus.server.store_clocks import ClockQueries
from tminus.server.store_engine import (
    DEFAULT_URL,
    async_url,
    hold_sqlite,
    is_shared,
    listen_dsn,
    make_engine,
    private_file,
    release_sqlite,
    sqlite_path,
    unavailable,
)
from tminus.server.store_leases import LeaseQueries
from tminus.server.store_notices import (
    MAX_NOTICE,
    Moves,
    News,
    Reload,
    Rematch,
    channel,
    notify,
    own_notice,
    said_by,
)
from tminus.server.store_puzzles import PuzzleQueries
from tminus.server.store_ratings import RatingQueries
from tminus.server.store_reads import GameReads, stored_game
from tminus.server.store_reminders import ReminderQueries
from tminus.server.store_rows import (
    ActionRow,
    Base,
    BotLease,
    ChatRow,
    GameRow,
    SeatRow,
    games_set_in_order,
    now,
)
from tminus.server.store_seats import SeatChanges, seat_news
from tminus.server.store_values import (
    BOT,
    BROKEN,
    EXPIRED,
    FINISHED,
    PERSON,
    PLAYING,
    WAITING,
    ChatLine,
    ClaimLost,
    Refusal,
    Save,
    Seat,
    StoredGame,
    StoreError,
    token_hash,
)
from tminus.server.store_writes import (
    LOCK_STATUSES,
    charges_a_clock,
    insert_game,
    write_rows,
)

__all__ = [  # (what the rest of the server and the tests import from here)
    "BOT", "BROKEN", "DEFAULT_URL", "EXPIRED", "FINISHED", "LOCK_STATUSES", "MAX_NOTICE",
    "PERSON", "PLAYING", "SCHEMA_LOCK", "WAITING", "ActionRow", "Base", "BotLease",
    "ChatLine", "ChatRow", "ClaimLost", "GameRow", "Refusal", "Save", "Seat", "SeatRow",
    "Store", "StoreBase", "StoreError", "StoredGame", "async_url", "channel", "hold_sqlite",
    "insert_game", "is_shared", "listen_dsn", "make_engine", "notify", "now", "own_notice",
    "private_file", "release_sqlite", "said_by", "seat_news", "sqlite_path", "stored_game",
    "token_hash", "unavailable", "write_saves",
]  # fmt: skip

log = logging.getLogger("tminus.server.storage")


async def write_saves(connection, batch: list[Save], origin: str = "", clock=None) -> None:
    """The rows and status changes of several saves, told to the other processes
    (``clock``: the store's, that games' clocks run on): in the caller's transaction or, on
    PostgreSQL, on a connection that commits each statement by itself (``Store._commit``, for
    a batch that charges no clock: ``Store.one_statement``).

    The games' rows are locked first, in the order of their ids; a game whose status is no
    longer the one a save expects refuses the whole batch (ClaimLost)."""
    # (Built as they are read, after the rows' clocks are charged: a notice tells them.)
    told = ((save.game_id, save.notice(origin)) for save in batch)
    if connection.dialect.name == "postgresql":
        await write_rows(connection, batch, clock, told)  # (told in the rows' statement)
    else:
        await write_rows(connection, batch, clock)
        await notify(connection, told)  # (SQLite has one process, nobody to tell: not built)


class Store(
    GameReads,
    AccountQueries,
    ClockQueries,
    SeatChanges,
    TableTalk,
    LeaseQueries,
    RatingQueries,
    ReminderQueries,
    PuzzleQueries,
):
    """Every read and write of games; each method is one transaction. Call ``open`` first."""

    async def tell(self, connection, news: list[tuple[str, News]]) -> None:
        """Publish (game id, news) said by this store, in the caller's transaction."""
        await notify(connection, [(game_id, said_by(self.origin, n)) for game_id, n in news])

    async def create(self, game: StoredGame) -> None:
        await self._run_soon(partial(insert_game, game))

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
            await self.tell(connection, [(previous, Rematch(rematch=game.id))])
            return game.id

        return await self._run(work)

    async def save(self, save: Save) -> None:
        """Commit a change: its log rows and status, published to the game's channel.

        The primary key (game, index) refuses a second action at the same index, and a game
        no longer in the status ``save.expect`` refuses the change: ClaimLost. Saves that
        arrive while one is being written are committed together, in one transaction (a
        group commit); each returns once its rows are committed.
        """
        await self._in_group_commit(save)

    async def _in_group_commit(self, item: Save | Callable[[Any], Awaitable[Any]]):
        """A save, or a short write (``StoreBase._run_soon``), in the next group commit: what
        a write returns, once committed."""
        done = asyncio.get_running_loop().create_future()
        self.pending.append((item, done))
        if self.writer is None or self.writer.done():
            self.writer = asyncio.create_task(self._write_pending())
        return await done

    async def _write_pending(self) -> None:
        while self.pending:
            batch, self.pending = self.pending, []
            # A short write whose caller gave up waiting is not made: the caller will not
            # take its result into memory (a save is made all the same, as it always was).
            batch = [(i, done) for i, done in batch if isinstance(i, Save) or not done.cancelled()]
            if not batch:
                continue
            try:
                results = await self._commit([item for item, _ in batch])
            except StoreError as error:  # (the database cannot be used: nobody's is written)
                for _, done in batch:
                    if not done.done():
                        done.set_exception(StoreError(str(error)))
            except Exception as error:  # a lost claim, or a bug: each alone hears its own
                if not isinstance(error, ClaimLost):
                    log.exception("writing %d saves and short writes together failed", len(batch))
                await self._each_alone(batch)
            else:
                for (_, done), result in zip(batch, results, strict=True):
                    if not done.done():
                        done.set_result(result)

    async def _each_alone(self, batch) -> None:
        for item, done in batch:
            try:
                result = await self._commit([item])
            except Exception as error:
                if not done.done():
                    done.set_exception(error)
            else:
                if not done.done():
                    done.set_result(result[0])

    async def _commit(self, batch: list) -> list:
        """Commit the short writes and saves of ``batch``: what each returns."""
        return await self._run(partial(self._write, batch), autocommit=self.one_statement(batch))

    def one_statement(self, batch: list) -> bool:
        """Whether ``batch`` is written as one statement committed by itself: on PostgreSQL,
        saves that charge no clock (a clock is charged in statements of its own, and a short
        write is a transaction of its own there: ``StoreBase._run_soon``)."""
        return is_shared(self.url) and all(
            isinstance(item, Save) and not charges_a_clock(item) for item in batch
        )

    async def _write(self, batch: list, connection) -> list:
        """The short writes first, in the order asked, then the saves, together. No short
        write reads or changes what a save writes (games' status and turn, actions, clocks),
        but for the bots' lease of a game a save ends: that save deletes it after them."""
        results = [None if isinstance(item, Save) else await item(connection) for item in batch]
        saves = [item for item in batch if isinstance(item, Save)]
        if saves:
            await write_saves(connection, saves, self.origin, self.clock)
        return results

    async def expire_waiting(self, seconds: float) -> list[str]:
        """Games still waiting for players ``seconds`` after they were made expire: their
        ids (each told to the other processes as a change of status)."""
        cutoff = datetime.fromtimestamp(now().timestamp() - seconds, UTC)

        async def work(connection) -> list[str]:
            old = [GameRow.status == WAITING, GameRow.created < cutoff]
            expired = list(
                (await connection.scalars(games_set_in_order(old, status=EXPIRED))).all()
            )
            news = Moves(at=0, moves=[], status=EXPIRED)
            await self.tell(connection, [(g, news) for g in expired])
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
            await self.tell(connection, [(game_id, Reload())])

        await self._run(work)

    async def set_rules_version(self, game_id: str, version: int) -> None:
        async def work(connection) -> None:
            await connection.execute(
                update(GameRow).where(GameRow.id == game_id).values(rules_version=version)
            )

        await self._run(work)
