"""The games in memory, and who is told when they change.

Games leave memory when nobody needs them: a game with sockets open or a bot thinking is
pinned; the others stay in a small cache of recently used games and are rebuilt from the
store by replay when asked for again. Those listening (the sockets' hub, the bots) are told
of each change once it is in memory, and of each new line of table talk.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Callable

from tminus.server.limits import CACHE_SIZE
from tminus.server.storage import ChatLine
from tminus.server.tables import Table

CHAT_KEPT = 100  # lines of table talk a page is given when it opens (all are stored)


class Memory:
    def __init__(self, cache_size: int = CACHE_SIZE) -> None:
        self.cache_size = cache_size
        self.tables: OrderedDict[str, Table] = OrderedDict()
        self.pins: Counter[str] = Counter()
        self.listeners: list[Callable[[Table], None]] = []
        self.chat_listeners: list[Callable[[Table, list[ChatLine]], None]] = []

    # -- who is told of changes ------------------------------------------------------------
    def listen(self, listener: Callable[[Table], None]) -> None:
        """``listener(table)`` is called after each committed change of a game."""
        self.listeners.append(listener)

    def listen_chat(self, listener: Callable[[Table, list[ChatLine]], None]) -> None:
        """``listener(table, lines)`` is called with each new line of a game's table talk."""
        self.chat_listeners.append(listener)

    def changed(self, table: Table) -> None:
        """A change of ``table`` is in memory now: those listening are told."""
        table.version += 1
        for listener in self.listeners:
            listener(table)

    def said(self, table: Table, lines: list[ChatLine]) -> None:
        """New lines of table talk (stored already): kept, if the talk was read, and told."""
        if table.chat is not None:
            known = {line["index"] for line in table.chat}
            table.chat.extend(line for line in lines if line["index"] not in known)
            table.chat.sort(key=lambda line: line["index"])
            del table.chat[:-CHAT_KEPT]
        for listener in self.chat_listeners:
            listener(table, lines)

    # -- pinned games and a small cache of the others --------------------------------------
    def pin(self, table: Table) -> None:
        """Keep ``table`` in memory until as many ``unpin`` calls (a socket, a thinking bot)."""
        self.pins[table.id] += 1
        self.tables[table.id] = table

    def unpin(self, table: Table) -> None:
        self.pins[table.id] -= 1
        if self.pins[table.id] <= 0:
            del self.pins[table.id]
        self.evict()

    def forget(self, game_id: str) -> None:
        """Drop a game from memory (it is rebuilt from the store when asked for again)."""
        self.tables.pop(game_id, None)

    def keep(self, table: Table) -> None:
        """Keep ``table`` as the most recently used game (another may leave memory)."""
        self.tables[table.id] = table
        self.tables.move_to_end(table.id)
        self.evict()

    def evict(self) -> None:
        # Every bot's move unpins its game: look through the games only when the idle ones
        # may be too many. (Pinned games are in memory, but for one forgotten while pinned:
        # it lets one more idle game stay until its pins end.)
        if len(self.tables) - len(self.pins) <= self.cache_size:
            return
        idle = [game_id for game_id in self.tables if game_id not in self.pins]
        for game_id in idle[: max(0, len(idle) - self.cache_size)]:
            del self.tables[game_id]
