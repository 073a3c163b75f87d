"""Game clocks in the store (``tminus.server.clocks`` is the arithmetic).

A save that ends a turn charges the seat that moved and starts the next seat's clock, in the
save's transaction and on the database's clock (``turn_ended``). A timeout is acted on by
one process only: it claims the games whose deadline passed (``SELECT … FOR UPDATE SKIP
LOCKED`` on PostgreSQL; SQLite is one process) and moves their deadline ``TIMEOUT_GRACE``
on in the same transaction, so that no other process takes them meanwhile, and, if it dies
before acting, another does once the grace is over.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select, update

from tminus.server.clock import Clock
from tminus.server.clocks import RESIGN, TIMEOUT_GRACE, allowance, charged
from tminus.server.store_engine import is_shared
from tminus.server.store_notices import SeatNews, Seats
from tminus.server.store_rows import GameRow, SeatRow
from tminus.server.store_seats import SeatChanges
from tminus.server.store_values import BOT, PERSON, PLAYING, Save

CLOCK_ROW = select(
    GameRow.clock, GameRow.banks, GameRow.turn_since, GameRow.to_move, GameRow.status
)


async def turn_ended(connection, save: Save, clock: Clock) -> None:
    """(In a save's transaction, before it sets whose turn it is.) The seat whose turn ends
    is charged what it took; the next seat's clock starts. Fills ``save.clocks``."""
    row = (await connection.execute(CLOCK_ROW.where(GameRow.id == save.game_id))).one()
    settings, banks = row.clock, list(row.banks or [])
    if settings is None or not banks:
        return
    now = await connection.scalar(select(clock.now()))
    mover = row.to_move if row.status == PLAYING else None
    next_seat = None if save.to_move is None or save.to_move < 0 else save.to_move
    if save.status not in (None, PLAYING):
        next_seat = None  # (the game ended: every clock stops)
    if mover is not None and row.turn_since is not None:
        banks[mover] = charged(settings, banks[mover], now - row.turn_since)
    deadline = None if next_seat is None else now + allowance(settings, banks[next_seat])
    await connection.execute(
        update(GameRow)
        .where(GameRow.id == save.game_id)
        .values(banks=banks, turn_since=None if next_seat is None else now, deadline=deadline)
    )
    save.clocks = clocks_of(banks, next_seat, deadline)


def clocks_of(banks: list[float], to_move: int | None, deadline: float | None) -> dict[str, Any]:
    return {"left": [round(b, 1) for b in banks], "to_move": to_move, "deadline": deadline}


@dataclass(frozen=True)
class TimedOut:
    """A seat whose time ran out, claimed by this process to act on."""

    game_id: str
    seat: int
    on_timeout: str  # a bot spec, or ``clocks.RESIGN``
    seats: list[SeatNews]  # every seat as stored now (the stand-in in place)
    clocks: dict[str, Any]


class ClockQueries(SeatChanges):
    """The store's timeouts (a part of ``storage.Store``)."""

    async def timed_out(self, limit: int = 20) -> list[TimedOut]:
        """Claim the games in play whose seat to move ran out of time, and act in the store:
        a bot stands in for the seat (told to the other processes), or, for "resign", the
        caller resigns the seat. Another process skips them while the claim lasts."""
        due = (
            select(GameRow.id, GameRow.clock, GameRow.to_move, GameRow.banks, SeatRow.kind)
            .join(SeatRow, (SeatRow.game_id == GameRow.id) & (SeatRow.seat == GameRow.to_move))
            .where(GameRow.status == PLAYING, GameRow.deadline < self.clock.now())
            .order_by(GameRow.deadline)
            .limit(limit)
            .with_for_update(skip_locked=is_shared(self.url), of=GameRow)
        )

        async def work(connection) -> list[TimedOut]:
            claimed = []
            now = await connection.scalar(select(self.clock.now()))
            for game in (await connection.execute(due)).mappings().all():
                seat, banks = game["to_move"], list(game["banks"] or [])
                if seat is None or not banks:
                    continue
                if game["kind"] == BOT:  # (a bot, or one standing in, moves soon: no timeout)
                    await connection.execute(
                        update(GameRow).where(GameRow.id == game["id"]).values(deadline=None)
                    )
                    continue
                banks[seat] = 0.0
                await connection.execute(
                    update(GameRow)
                    .where(GameRow.id == game["id"])
                    .values(deadline=now + TIMEOUT_GRACE, banks=banks)
                )
                on_timeout = game["clock"]["on_timeout"]
                if on_timeout != RESIGN:
                    await self._stand_in(connection, game["id"], seat, on_timeout)
                clocks = clocks_of(banks, seat, now + TIMEOUT_GRACE)
                seats = await self._tell_seats(connection, game["id"], clocks)
                claimed.append(TimedOut(game["id"], seat, on_timeout, seats, clocks))
            return claimed

        return await self._run(work)

    @staticmethod
    async def _stand_in(connection, game_id: str, seat: int, bot: str) -> None:
        """A bot plays for the person of ``seat`` until they come back (their token kept)."""
        await connection.execute(
            update(SeatRow)
            .where(SeatRow.game_id == game_id, SeatRow.seat == seat, SeatRow.kind == PERSON)
            .values(kind=BOT, bot=bot, stand_in=True)
        )

    async def _turn_given_back(self, connection, game_id: str, seat: int) -> dict | None:
        """Back on their own turn, a person has this turn's time again from now (what their
        bank holds, which their timeout emptied: a turn-based move's time)."""
        game = (
            await connection.execute(CLOCK_ROW.where(GameRow.id == game_id).with_for_update())
        ).one()
        if game.clock is None or game.to_move != seat or game.status != PLAYING:
            return None
        now = await connection.scalar(select(self.clock.now()))
        # (A Fischer clock spent by the timeout would flag them again at once: the grace.)
        deadline = now + max(allowance(game.clock, game.banks[seat]), TIMEOUT_GRACE)
        await connection.execute(
            update(GameRow).where(GameRow.id == game_id).values(turn_since=now, deadline=deadline)
        )
        return clocks_of(game.banks, seat, deadline)

    async def come_back(self, game_id: str, seat: int) -> Seats | None:
        """The person a bot stood in for is back: their seat is theirs again (every seat's
        news and the clocks, told to the others), or None if no bot stood in for them."""

        async def work(connection) -> Seats | None:
            back = await connection.execute(
                update(SeatRow)
                .where(SeatRow.game_id == game_id, SeatRow.seat == seat, SeatRow.stand_in)
                .values(kind=PERSON, bot=None, stand_in=False, joined=True)
            )
            if not back.rowcount:
                return None
            clocks = await self._turn_given_back(connection, game_id, seat)
            return Seats(seats=await self._tell_seats(connection, game_id, clocks), clocks=clocks)

        return await self._run(work)
