"""People's accounts in the store: made, found by name, their sessions, the seats they hold,
renamed, deleted. Each method is one transaction (``StoreBase._run``); what it means to
sign up or in is ``tminus.server.accounts``."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, insert, select, update

from tminus.server.store_notices import SeatNews
from tminus.server.store_rows import (
    AccountRow,
    AccountSeatRow,
    LessonFinishedRow,
    PuzzleTryRow,
    RatingChangeRow,
    RatingRow,
    SeatRow,
    SessionRow,
)
from tminus.server.store_seats import SeatChanges
from tminus.server.store_values import ClaimLost, Refusal

FORMER = "Former player"  # the name a deleted account's seats keep in past games


@dataclass
class Account:
    id: str
    name: str
    email: str | None
    reminders: bool
    password_hash: str
    created: Any


def account_of(row) -> Account:
    """An account from its row's mapping."""
    return Account(
        row["id"], row["name"], row["email"], bool(row["reminders"]), row["password_hash"],
        row["created"],
    )  # fmt: skip


@dataclass(frozen=True)
class HeldSeat:
    game_id: str
    seat: int
    token: str


class AccountQueries(SeatChanges):
    """The store's accounts and sessions (a part of ``storage.Store``)."""

    async def create_account(self, account: Account, name_key: str) -> bool:
        """A new account; False if its name (casefolded) is taken."""

        async def work(connection) -> None:
            await connection.execute(
                insert(AccountRow).values(
                    id=account.id, name=account.name, name_key=name_key,
                    password_hash=account.password_hash, email=account.email,
                    reminders=account.reminders, created=account.created,
                    unsubscribe=secrets.token_urlsafe(32),
                )
            )  # fmt: skip

        try:
            await self._run(work)
        except ClaimLost:  # (the unique name)
            return False
        return True

    async def account_named(self, name_key: str) -> Account | None:
        return await self._one(select(AccountRow).where(AccountRow.name_key == name_key))

    async def account(self, account_id: str) -> Account | None:
        return await self._one(select(AccountRow).where(AccountRow.id == account_id))

    async def _one(self, query) -> Account | None:
        async def work(connection) -> Account | None:
            row = (await connection.execute(query)).mappings().first()
            return None if row is None else account_of(row)

        return await self._run(work, write=False)

    async def change_account(self, account_id: str, **values: Any) -> bool:
        """Change an account's name (with ``name_key``), e-mail, reminders or password hash:
        False if the new name is taken."""

        async def work(connection) -> None:
            await connection.execute(
                update(AccountRow).where(AccountRow.id == account_id).values(**values)
            )

        try:
            await self._run(work)
        except ClaimLost:
            return False
        return True

    # -- sessions ---------------------------------------------------------------------------
    async def add_session(self, token_hash: str, account_id: str, csrf: str, seconds: float):
        async def work(connection) -> None:
            now = await connection.scalar(select(self.clock.now()))
            await connection.execute(  # (the account's expired sessions go meanwhile)
                delete(SessionRow).where(
                    SessionRow.account_id == account_id, SessionRow.expires < now
                )
            )
            expires = now + seconds
            await connection.execute(
                insert(SessionRow).values(
                    token_hash=token_hash, account_id=account_id, csrf=csrf, expires=expires
                )
            )

        await self._run(work)

    async def session(self, token_hash: str) -> tuple[Account, str] | None:
        """The account a session cookie is for and the session's CSRF token, unless it
        expired (or never was)."""
        query = (
            select(AccountRow, SessionRow.csrf)
            .join(SessionRow, SessionRow.account_id == AccountRow.id)
            .where(SessionRow.token_hash == token_hash, SessionRow.expires > self.clock.now())
        )

        async def work(connection) -> tuple[Account, str] | None:
            row = (await connection.execute(query)).mappings().first()
            return None if row is None else (account_of(row), row["csrf"])

        return await self._run(work, write=False)

    async def end_sessions(
        self, account_id: str, token_hash: str | None = None, keep: str | None = None
    ) -> None:
        """Sign a session out (``token_hash``), or every session of the account but ``keep``."""
        statement = delete(SessionRow).where(SessionRow.account_id == account_id)
        if token_hash is not None:
            statement = statement.where(SessionRow.token_hash == token_hash)
        if keep is not None:
            statement = statement.where(SessionRow.token_hash != keep)

        async def work(connection) -> None:
            await connection.execute(statement)

        await self._run(work)

    # -- the seats an account holds ---------------------------------------------------------
    async def hold_seat(self, account_id: str, held: HeldSeat) -> None:
        """The account holds this seat (its token checked by the caller); Refusal if
        another account does."""

        async def work(connection) -> None:
            holder = await connection.scalar(
                select(AccountSeatRow.account_id).where(
                    AccountSeatRow.game_id == held.game_id, AccountSeatRow.seat == held.seat
                )
            )
            if holder == account_id:
                await connection.execute(
                    update(AccountSeatRow)
                    .where(AccountSeatRow.game_id == held.game_id, AccountSeatRow.seat == held.seat)
                    .values(token=held.token)
                )
                return
            if holder is not None:
                raise Refusal("forbidden", "another account holds this seat")
            await connection.execute(
                insert(AccountSeatRow).values(
                    game_id=held.game_id, seat=held.seat, account_id=account_id, token=held.token
                )
            )

        try:
            await self._run(work)
        except ClaimLost:  # (claimed by another account at the same moment)
            raise Refusal("forbidden", "another account holds this seat") from None

    async def held_seats(self, account_id: str) -> list[HeldSeat]:
        query = select(AccountSeatRow).where(AccountSeatRow.account_id == account_id)

        async def work(connection) -> list[HeldSeat]:
            rows = (await connection.execute(query)).mappings().all()
            return [HeldSeat(r["game_id"], r["seat"], r["token"]) for r in rows]

        return await self._run(work, write=False)

    async def seat_holders(self, game_id: str) -> dict[int, str]:
        """{seat: account id} of a game's seats that accounts hold."""
        query = select(AccountSeatRow.seat, AccountSeatRow.account_id).where(
            AccountSeatRow.game_id == game_id
        )

        async def work(connection) -> dict[int, str]:
            return {seat: account for seat, account in (await connection.execute(query)).all()}

        return await self._run(work, write=False)

    async def delete_account(self, account_id: str) -> dict[str, list[SeatNews]]:
        """The account, its sessions, ratings, puzzle tries and lessons go; its seats in past games
        keep the name ``FORMER`` (told to the other processes). {game id: its seats now} of
        those games."""

        async def work(connection) -> dict[str, list[SeatNews]]:
            held = (
                await connection.execute(
                    select(AccountSeatRow.game_id, AccountSeatRow.seat).where(
                        AccountSeatRow.account_id == account_id
                    )
                )
            ).all()
            for game_id, seat in held:
                await connection.execute(
                    update(SeatRow)
                    .where(SeatRow.game_id == game_id, SeatRow.seat == seat)
                    .values(name=FORMER)
                )
            for row in (AccountSeatRow, SessionRow, RatingRow, RatingChangeRow, PuzzleTryRow,
                        LessonFinishedRow):  # fmt: skip
                await connection.execute(delete(row).where(row.account_id == account_id))
            await connection.execute(delete(AccountRow).where(AccountRow.id == account_id))
            games = sorted({game_id for game_id, _ in held})
            return {game_id: await self._tell_seats(connection, game_id) for game_id in games}

        return await self._run(work)
