"""The bot leases this process holds, remembered so that the store is asked only when it
must be: one process at a time plays a game's bots (``Store.take_lease``)."""

from __future__ import annotations

import os
import secrets
import socket
import time

from tminus.server.limits import BOT_LEASE
from tminus.server.storage import Store


class Leases:
    """The bot leases this process holds (each for ``seconds`` on the database's clock).

    ``take`` asks the store only when it does not know: a lease it holds is its own until
    ``seconds`` after it was last taken or renewed (measured from before the asking, so
    never later than the store's expiry); one another process holds is not asked for again
    before half that time."""

    def __init__(self, store: Store, seconds: float = BOT_LEASE) -> None:
        self.store = store
        self.seconds = seconds
        self.holder = f"{socket.gethostname()[:30]}:{os.getpid()}:{secrets.token_hex(4)}"
        self.mine: dict[str, float] = {}  # game id -> (monotonic) until when surely ours
        self.theirs: dict[str, float] = {}  # game id -> (monotonic) when to ask again

    def holds(self, game_id: str) -> bool:
        return self.mine.get(game_id, 0.0) > time.monotonic()

    async def take(self, game_id: str) -> bool:
        asked = time.monotonic()
        if self.holds(game_id):
            return True
        if self.theirs.get(game_id, 0.0) > asked:
            return False
        if await self.store.take_lease(game_id, self.holder, self.seconds):
            self.mine[game_id] = asked + self.seconds
            self.theirs.pop(game_id, None)
            return True
        self.mine.pop(game_id, None)
        self.theirs[game_id] = asked + self.seconds / 2
        return False

    async def renew(self) -> set[str]:
        """Renew every lease held: the ids of the games whose lease was lost meanwhile.
        Only leases held before asking can be lost: one taken while the renewal was under
        way may be missing from what it renewed, and is ours all the same."""
        asked = time.monotonic()
        held = set(self.mine)
        kept = await self.store.renew_leases(self.holder, self.seconds, held)
        lost = (held & set(self.mine)) - kept
        for game_id in kept & set(self.mine):  # (one released meanwhile stays released)
            self.mine[game_id] = asked + self.seconds
        for game_id in lost:
            del self.mine[game_id]
        now = time.monotonic()
        self.theirs = {g: t for g, t in self.theirs.items() if t > now}
        return lost

    async def release(self, game_ids=None) -> None:
        """Give leases up (all of them if ``game_ids`` is None) for others to take at once."""
        released = list(self.mine) if game_ids is None else list(game_ids)
        for game_id in released:
            self.mine.pop(game_id, None)
        await self.store.release_leases(self.holder, None if game_ids is None else released)
