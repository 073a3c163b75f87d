"""The game service: create, join, start, move, resign, resume after a restart, export.

Asynchronous and free of the web: the app (``tminus.server.app``) holds the sockets and
listens for changes (``GameService.listen``). ``GameService`` is put together here from its
parts, each a module of its own:

- ``tables``: a game in memory (``Table``), a change in the works (``Draft``), ``GameError``;
- ``memory``: the games kept in memory (pinned, or recently used) and who is told of changes;
- ``pipeline``: a change worked out on a draft, committed, and only then put in memory and
  told (the store is the one truth, the games in memory a cache of it);
- ``replication``: what other processes commit, heard and applied; the store caught up with;
- ``lifecycle`` and ``together``: what players ask of the service (see ``parts``);
- ``views`` and ``catalog``: what each seat may see of a game, what the lobby offers.

The parts with state of their own (memory, replication, the pipeline) are objects the
service holds; what players ask (lifecycle, together) are the service's own methods, given
by the classes it is made of, as the sockets and bots call them on the service.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Any

from tminus.server import views
from tminus.server.catalog import (
    bot_levels,
    catalog,
    is_search,
    player_counts,
    refuse_local_only,
    title_of,
)
from tminus.server.fanout import Listener
from tminus.server.lifecycle import Lifecycle, joins_anew
from tminus.server.limits import CACHE_SIZE
from tminus.server.memory import Memory
from tminus.server.pipeline import Pipeline
from tminus.server.replication import Replicator
from tminus.server.storage import ChatLine, Store, StoredGame
from tminus.server.tables import (
    Created,
    Draft,
    GameError,
    LogEntry,
    Table,
    put_names,
    unavailable,
)
from tminus.server.timekeeping import Timekeeping
from tminus.server.together import Together

__all__ = [  # (what other modules import from here)
    "Created",
    "Draft",
    "GameError",
    "GameService",
    "LogEntry",
    "Table",
    "bot_levels",
    "catalog",
    "is_search",
    "joins_anew",
    "player_counts",
    "put_names",
    "refuse_local_only",
    "title_of",
    "unavailable",
]


class GameService(Lifecycle, Together, Timekeeping):
    def __init__(
        self, store: Store, cache_size: int = CACHE_SIZE, listener: Listener | None = None
    ) -> None:
        self.store = store
        self.memory = Memory(cache_size)
        # (The default listener: one process, nothing to hear.)
        self.replicator = Replicator(store, self.memory, listener or Listener())
        self.pipeline = Pipeline(store, self.memory, self.replicator)

    # -- the games in memory (``memory``) --------------------------------------------------
    @property
    def tables(self) -> OrderedDict[str, Table]:
        return self.memory.tables

    def listen(self, listener: Callable[[Table], None]) -> None:
        self.memory.listen(listener)

    def listen_chat(self, listener: Callable[[Table, list[ChatLine]], None]) -> None:
        self.memory.listen_chat(listener)

    def pin(self, table: Table) -> None:
        self.memory.pin(table)

    def unpin(self, table: Table) -> None:
        self.memory.unpin(table)

    def forget(self, game_id: str) -> None:
        self.memory.forget(game_id)

    # -- what other processes commit (``replication``) -------------------------------------
    async def watch(self, table: Table) -> Table:
        return await self.replicator.watch(table)

    def unwatch(self, table: Table) -> None:
        self.replicator.unwatch(table)

    async def follow(self, game_id: str) -> None:
        await self.replicator.follow(game_id)

    def unfollow(self, game_id: str) -> None:
        self.replicator.unfollow(game_id)

    def listen_absent(self, listener: Callable[[str], None]) -> None:
        self.replicator.listen_absent(listener)

    def heard(self, game_id: str, payload: str) -> None:
        self.replicator.heard(game_id, payload)

    async def catch_up(self, table: Table) -> None:
        await self.replicator.catch_up(table)

    # -- what each seat may see (``views``) ------------------------------------------------
    def view(self, table: Table, seat: int | None, log_from: int = 0) -> dict[str, Any]:
        return views.view(table, seat, log_from, self.now())

    def summary(self, table: Table | StoredGame) -> dict[str, Any]:
        return views.summary(table, self.now())

    @staticmethod
    def export(table: Table | StoredGame) -> dict[str, Any]:
        return views.export(table)

    @staticmethod
    def replay_frames(table: Table, start: int = 0, stop: int | None = None) -> Iterator:
        return views.replay_frames(table, start, stop)
