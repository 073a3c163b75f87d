"""Bot leases: which process plays a game's bots, until when (seconds on the database's
clock). A lease is taken, renewed by its holder, given up, or, not renewed in time, taken
over by another process (see ``tminus.server.bots``)."""

from __future__ import annotations

from sqlalchemy import Float, bindparam, delete, exists, select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from tminus.server.store_base import StoreBase
from tminus.server.store_engine import is_shared
from tminus.server.store_rows import BotLease, GameRow, SeatRow
from tminus.server.store_values import BOT, PLAYING, ClaimLost


class LeaseQueries(StoreBase):
    """The store's bot leases (a part of ``storage.Store``)."""

    async def take_lease(self, game_id: str, holder: str, seconds: float) -> bool:
        """Take (or renew) the lease of a game's bots for ``seconds``: only if nobody holds
        it, ``holder`` does, or its holder let it expire. Whether ``holder`` has it now."""
        upsert = self.lease_upsert()
        values = {"game_id": game_id, "holder": holder, "seconds": seconds}

        async def work(connection) -> bool:
            return (await connection.execute(upsert, values)).first() is not None

        try:
            return await self._run_soon(work)
        except ClaimLost:  # the game is gone (its row, that the lease points to)
            return False

    def lease_upsert(self):
        """``take_lease``'s statement, made once for the store's clock: made anew for every
        game, its parts were most of what the garbage collector had to free under load."""
        made = self._lease_upsert
        if made is not None and made[0] == self.clock.ahead:
            return made[1]
        dialect = postgresql_insert if is_shared(self.url) else sqlite_insert
        statement = dialect(BotLease).values(
            game_id=bindparam("game_id"),
            holder=bindparam("holder"),
            expires=self.clock.now() + bindparam("seconds", type_=Float()),
        )
        upsert = statement.on_conflict_do_update(
            index_elements=[BotLease.game_id],
            set_={"holder": statement.excluded.holder, "expires": statement.excluded.expires},
            where=(BotLease.holder == statement.excluded.holder)
            | (BotLease.expires < self.clock.now()),
        ).returning(BotLease.holder)
        self._lease_upsert = (self.clock.ahead, upsert)
        return upsert

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

        return await self._run_soon(work)

    async def release_leases(self, holder: str | None, game_ids=None) -> None:
        """Give up leases (``holder`` None: everybody's; ``game_ids`` None: all of them)."""
        statement = delete(BotLease)
        if holder is not None:
            statement = statement.where(BotLease.holder == holder)
        if game_ids is not None:
            statement = statement.where(BotLease.game_id.in_(list(game_ids)))

        async def work(connection) -> None:
            await connection.execute(statement)

        await self._run_soon(work)

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
