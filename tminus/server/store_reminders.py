"""Reminders in the store: whom to e-mail now, claimed by one process.

An account that allowed reminders and gave an address is due when a turn-based game of its
has been waiting for it since its last e-mail, or such a game's deadline is near and no
e-mail went since that came within reach; and never more than one e-mail every ``every``
seconds. The accounts due are locked (``SKIP LOCKED`` on PostgreSQL) and marked reminded in
the same transaction: another process skips them, and none is reminded twice (an e-mail
that then fails to go is not retried: at most once).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import select, update

from tminus.server.store_base import StoreBase
from tminus.server.store_engine import is_shared
from tminus.server.store_rows import AccountRow, AccountSeatRow, GameRow, SeatRow
from tminus.server.store_values import PERSON, PLAYING


@dataclass(frozen=True)
class Waiting:
    """A game waiting for the person's move."""

    game_id: str
    game: str  # its name, e.g. four_way
    seat: int
    token: str
    deadline: float  # (the database's clock)


@dataclass
class Reminder:
    name: str
    email: str
    unsubscribe: str
    now: float
    games: list[Waiting] = field(default_factory=list)


class ReminderQueries(StoreBase):
    """The store's reminders (a part of ``storage.Store``)."""

    async def claim_reminders(self, every: float, warning: float) -> list[Reminder]:
        """The reminders to send now, each account marked reminded (see the module)."""
        accounts = (
            select(AccountRow.id, AccountRow.name, AccountRow.email, AccountRow.unsubscribe,
                   AccountRow.reminded)
            .where(AccountRow.reminders, AccountRow.email.is_not(None))
            .with_for_update(skip_locked=is_shared(self.url))
        )  # fmt: skip
        waiting = (
            select(AccountSeatRow.account_id, AccountSeatRow.seat, AccountSeatRow.token,
                   GameRow.id, GameRow.game, GameRow.clock, GameRow.turn_since, GameRow.deadline)
            .join(GameRow, GameRow.id == AccountSeatRow.game_id)
            .join(SeatRow, (SeatRow.game_id == GameRow.id) & (SeatRow.seat == GameRow.to_move))
            .where(GameRow.status == PLAYING, GameRow.deadline.is_not(None),
                   AccountSeatRow.seat == GameRow.to_move, SeatRow.kind == PERSON)
        )  # fmt: skip

        async def work(connection) -> list[Reminder]:
            now = await connection.scalar(select(self.clock.now()))
            due: dict[str, tuple[Reminder, float]] = {}
            for row in (await connection.execute(accounts)).all():
                last = row.reminded or 0.0
                if now - last >= every:
                    due[row.id] = (Reminder(row.name, row.email, row.unsubscribe, now), last)
            if not due:
                return []
            rows = await connection.execute(waiting.where(AccountSeatRow.account_id.in_(list(due))))
            for row in rows.all():
                reminder, last = due[row.account_id]
                if (row.clock or {}).get("kind") != "turn":
                    continue  # (a live game's clock is watched at the table)
                new_turn = (row.turn_since or 0.0) > last
                near = row.deadline - now < warning and last < row.deadline - warning
                if new_turn or near:
                    reminder.games.append(
                        Waiting(row.id, row.game, row.seat, row.token, row.deadline)
                    )
            sent = [reminder for reminder, _ in due.values() if reminder.games]
            if sent:
                await connection.execute(
                    update(AccountRow)
                    .where(AccountRow.unsubscribe.in_([r.unsubscribe for r in sent]))
                    .values(reminded=now)
                )
            return sent

        return await self._run(work)

    async def unsubscribe(self, token: str) -> str | None:
        """No more e-mails for the account of this link: its name (None: no such link)."""

        async def work(connection) -> str | None:
            name = await connection.scalar(
                update(AccountRow)
                .where(AccountRow.unsubscribe == token)
                .values(reminders=False)
                .returning(AccountRow.name)
            )
            return name

        return await self._run(work)
