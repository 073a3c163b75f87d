"""Hearing what other processes commit, and catching up with the store.

Several processes may serve one game (on PostgreSQL). A process *watches* the games it has
sockets on: it hears every change the others commit (``Replicator.heard``, from
``tminus.server.fanout``) and applies it to its copy, in order; a change it missed (a gap)
is read from the store (``catch_up``). It *follows* the games it plays the bots of without
keeping them in memory: news of such a game is passed on (``listen_absent``) and the game is
read again. A game in memory that nobody here follows may be behind, so it is brought up to
date before use.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, cast

from tminus.server.fanout import Listener
from tminus.server.memory import CHAT_KEPT, Memory
from tminus.server.pipeline import apply, draft_of, rebuild
from tminus.server.storage import BOT, BROKEN, FINISHED, Store, StoredGame, StoreError
from tminus.server.store_notices import (
    AnyNews,
    Chat,
    Paused,
    Reload,
    Rematch,
    SeatNews,
    Seats,
    TakeBack,
    read_notice,
)
from tminus.server.store_values import ChatLine
from tminus.server.tables import (
    GameError,
    Table,
    Unreplayable,
    await_store,
    seat_state,
    to_move_of,
    unavailable,
)

log = logging.getLogger("tminus.server")
NEW_GAME_FOLLOWED = 60.0  # seconds a game made here is followed before a socket comes


class Replicator:
    """Keeps the games in memory up to date with what other processes commit."""

    def __init__(self, store: Store, memory: Memory, listener: Listener) -> None:
        self.store = store
        self.memory = memory
        self.listener = listener
        self.absent_listeners: list[Callable[[str], None]] = []
        self.loading: Counter[str] = Counter()  # games being read from the store, how often
        self.missed: set[str] = set()  # games that changed while being read

    # -- watching and following ------------------------------------------------------------
    async def watch(self, table: Table) -> Table:
        """Keep ``table`` in memory and up to date until ``unwatch``: the changes other
        processes commit are heard and applied; those made before are read now."""
        self.memory.pin(table)
        try:
            await self.follow(table.id)
        except BaseException:
            self.memory.unpin(table)
            raise
        return table

    def unwatch(self, table: Table) -> None:
        self.unfollow(table.id)
        self.memory.unpin(table)

    async def follow(self, game_id: str) -> None:
        """Hear the changes of a game from now on, until ``unfollow`` (in memory or not:
        news of a game not in memory go to ``listen_absent``'s callbacks)."""
        try:
            if await self.listener.follow(game_id) and game_id in self.memory.tables:
                await self.catch_up(self.memory.tables[game_id])  # what changed before
        except StoreError as error:
            self.listener.unfollow(game_id)
            raise unavailable(error) from None
        except BaseException:
            self.listener.unfollow(game_id)
            raise

    def unfollow(self, game_id: str) -> None:
        self.listener.unfollow(game_id)

    async def follow_new(self, game_id: str) -> Callable[[], None]:
        """A game about to be made here is followed from before it is stored, for
        ``NEW_GAME_FOLLOWED`` seconds: whatever another process changes in it is heard, so
        the copy made here stays current and its first sockets need not read it back (on
        PostgreSQL that read-back was a twentieth of a busy server's work). If the
        notifications are down, it is not: its first socket reads it back, as any game's.
        Returns what lets the game go at once (if it could not be made)."""
        try:
            began = await self.listener.follow(game_id)
        except StoreError:
            began = False
        except BaseException:
            self.listener.unfollow(game_id)
            raise
        if not began:  # (SQLite: nothing to hear; or the notifications are down)
            self.listener.unfollow(game_id)
            return lambda: None
        # (Followed a minute whether or not a socket comes: the LISTEN costs PostgreSQL next
        # to nothing, and a socket that comes later follows it on its own.)
        held = True

        def let_go() -> None:  # (once: when the hold ends, or sooner)
            nonlocal held
            if held:
                held = False
                timer.cancel()
                self.listener.unfollow(game_id)

        timer = asyncio.get_running_loop().call_later(NEW_GAME_FOLLOWED, let_go)
        return let_go

    def listen_absent(self, listener: Callable[[str], None]) -> None:
        """``listener(game_id)`` is called when a followed game not in memory changed."""
        self.absent_listeners.append(listener)

    def current(self, table: Table) -> bool:
        """Whether ``table`` is known to be up to date: every change of it is heard here,
        or it is over (nothing changes a finished game's play)."""
        return self.listener.following(table.id) or table.status == FINISHED

    # -- a game read from the store while news of it may come ------------------------------
    @contextmanager
    def reading(self, game_id: Any) -> Iterator[None]:
        """While a game is read from the store, news of it is noted (see ``heard``)."""
        self.loading[game_id] += 1
        try:
            yield
        finally:
            self.loading[game_id] -= 1
            if self.loading[game_id] <= 0:
                del self.loading[game_id]

    def missed_while_read(self, game_id: Any) -> bool:
        """Whether news of the game came while it was read (said once: then forgotten)."""
        if game_id in self.missed:
            self.missed.discard(game_id)
            return True
        return False

    # -- hearing news ----------------------------------------------------------------------
    def heard(self, game_id: str, payload: str) -> None:
        """Another process (or this one) committed a change of ``game_id``: apply it to the
        copy in memory, after the news heard before it. A game not in memory needs nothing."""
        table = self.memory.tables.get(game_id)
        if table is None:  # read from the store when next used (it is behind nothing then)
            if game_id in self.loading:
                self.missed.add(game_id)  # (perhaps read before this change)
            for listener in self.absent_listeners:
                listener(game_id)
            return
        table.news.append(payload)
        if table.hearing is None or table.hearing.done():
            table.hearing = asyncio.get_running_loop().create_task(self._hear(table))

    async def _hear(self, table: Table) -> None:
        try:
            async with table.lock:
                changed = False
                while table.news:
                    changed |= await self._take_news(table, read_notice(table.news.popleft()))
                if changed:
                    self.memory.changed(table)
        except (GameError, StoreError) as error:
            # Not applied: drop the copy, so that the game is read anew when next used. Table
            # talk does not depend on the copy: what was heard of it is said all the same.
            log.warning("game %s could not be brought up to date: %s", table.id, error)
            unheard = [read_notice(payload) for payload in table.news]
            table.news.clear()
            for news in unheard:
                if isinstance(news, Chat):
                    self.memory.said(table, chat_lines(news))
            self.memory.forget(table.id)

    async def _take_news(self, table: Table, news: AnyNews) -> bool:
        """Apply one notice (``store_notices``): whether anything changed."""
        match news:
            case Chat():
                self.memory.said(table, chat_lines(news))
                return False
            case Rematch(rematch=rematch):
                table.record.rematch = rematch
                return True
            case Seats() | Paused() | TakeBack() | Reload():
                # Seats, pause and take-back are told as values, as they were at that commit;
                # but this copy may hold newer ones already: its own changes are put in memory
                # from the store's answer (a join takes every seat as stored: other processes'
                # joins too), not from their notices, and a catch-up reads what was committed
                # after. A notice committed before them, heard after, would undo them: the
                # values are read as stored now instead (never older than the copy's).
                return await self.catch_up_locked(table)
        if news.at > table.move_number:  # a gap: read what was missed
            return await self.catch_up_locked(table)
        if news.at + len(news.moves) < table.move_number:
            return False  # older than the copy (a catch-up read past it): its clocks and status too
        moves = news.moves[table.move_number - news.at :]  # (those before are known here)
        if news.clocks is not None:
            table.record.clocks = news.clocks
        return absorb(table, moves, news.status, news.result)

    # -- catching up with the store --------------------------------------------------------
    async def catch_up(self, table: Table) -> None:
        """Read from the store what ``table`` has not seen yet, and tell those watching:
        the moves, seats and status, then the table talk."""
        async with table.lock:
            if await self.catch_up_locked(table):
                self.memory.changed(table)
        await self._catch_up_talk(table)

    async def _catch_up_talk(self, table: Table) -> None:
        """The table talk said on other processes while this one was not listening (its
        LISTEN connection lost): read back and told, so every process shows the same."""
        if table.chat is None:
            return  # never read here: it is read whole when first asked for
        stored = await await_store(self.store.chat(table.id, CHAT_KEPT))
        known = {line["index"] for line in table.chat}
        missed = [line for line in stored if line["index"] not in known]
        if missed:
            self.memory.said(table, missed)

    async def catch_up_locked(self, table: Table) -> bool:
        """(Under the game's lock.) The actions after the copy's, status and seats."""
        record = await self.store.load(table.id, actions=True, since=table.move_number)
        if record is None:
            return False
        changed = take_seats(table, [seat_state(s) for s in record.seats])
        if record.paused != table.record.paused:
            table.record.paused, changed = record.paused, True
        if record.take_back != table.record.take_back:
            table.record.take_back, changed = record.take_back, True
        if record.clocks != table.record.clocks:
            table.record.clocks, changed = record.clocks, True
        if record.moves != table.move_number + len(record.actions):  # not a continuation
            return replace(table, await self.store.load(table.id)) or changed
        if record.status == BROKEN:
            table.record.problem = record.problem
        try:
            moves = list(zip(record.actions, record.notes, record.estimates, strict=True))
            return absorb(table, moves, record.status, record.result) or changed
        except Exception:  # the copy went astray: replay the whole stored log
            return replace(table, await self.store.load(table.id))


# -- what was committed elsewhere, applied to a copy -----------------------------------------
def take_seats(table: Table, seats: list[SeatNews]) -> bool:
    """Seats as stored (``store_seats.seat_news``), put in memory: whether any changed."""
    changed = False
    for entry, news in zip(table.record.seats, seats, strict=False):
        if seat_state(entry) != news:
            entry.joined, entry.name, entry.kind, entry.bot = (
                news.joined,
                news.name,
                news.kind,
                news.bot,
            )
            entry.stand_in = news.stand_in
            if entry.kind == BOT and not entry.stand_in:
                entry.token_hash = None  # (given to a bot: its person's link is void)
            changed = True
    return changed


def absorb(table: Table, moves: list, status: str | None, result: dict[str, Any] | None) -> bool:
    """Committed actions ([action, note, estimate] each) and status, put in memory."""
    if moves:
        draft = draft_of(table)
        for action, note, estimate in moves:
            apply(table, draft, action, note, estimate)
        table.state, table.taken = draft.state, draft.taken
        table.log.extend(draft.entries)
        table.record.moves = table.move_number
    changed = bool(moves)
    if status is not None and status != table.record.status:
        table.record.status = status
        table.record.result = result or table.record.result
        changed = True
    table.record.to_move = to_move_of(table)
    return changed


def replace(table: Table, record: StoredGame | None) -> bool:
    """Put the game as stored into ``table`` (the same object those holding it see)."""
    if record is None:
        return False
    try:
        fresh = rebuild(record)
    except Unreplayable as error:
        table.record.status, table.record.problem = BROKEN, str(error)
        return True
    table.record, table.game, table.state, table.log, table.taken = (
        fresh.record, fresh.game, fresh.state, fresh.log, fresh.taken
    )  # fmt: skip
    return True


def is_behind(table: Table, other: Table) -> bool:
    """Whether ``other``, a copy of the same game, has seen a change ``table`` has not."""
    seats = [seat_state(s) for s in table.record.seats]
    return (
        other.move_number > table.move_number
        or (other.status != table.status and table.status != FINISHED)
        or seats != [seat_state(s) for s in other.record.seats]
        or other.record.paused != table.record.paused
        or other.record.take_back != table.record.take_back
    )


def chat_lines(news: Chat) -> list[ChatLine]:
    """The lines of table talk a notice tells, as the store keeps them."""
    return cast(list[ChatLine], news.chat)  # (told by ``store_chat`` from ChatLine values)
