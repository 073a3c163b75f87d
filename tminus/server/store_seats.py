"""Who sits at a game: people joining and naming their seats, being seen (a socket open),
games paused while all their people are away, and an away person's seat voted to a bot."""

from __future__ import annotations

from typing import Any

from sqlalchemy import bindparam, delete, exists, select, update

from tminus.server.store_base import StoreBase
from tminus.server.store_notices import Paused, SeatNews, Seats
from tminus.server.store_rows import BotLease, GameRow, SeatRow, games_set_in_order
from tminus.server.store_values import BOT, PERSON, PLAYING, Refusal


def seat_news(row) -> SeatNews:
    """What the other processes are told of a seat (a row's mapping)."""
    return SeatNews(
        joined=bool(row["joined"]), name=row["name"], kind=row["kind"], bot=row["bot"],
        stand_in=bool(row["stand_in"]),
    )  # fmt: skip


# The statements of a join, built once (a join is a game's most frequent short write).
LOCK_FOR_A_JOIN = select(GameRow.paused).where(GameRow.id == bindparam("b_game")).with_for_update()
SEATS_OF_A_GAME = (
    select(SeatRow).where(SeatRow.game_id == bindparam("b_game")).order_by(SeatRow.seat)
)


class SeatChanges(StoreBase):
    """The store's changes of seats (a part of ``storage.Store``)."""

    async def set_joined(
        self, game_id: str, seat: int, name: str | None = None
    ) -> tuple[list[SeatNews], bool]:
        """A person took their seat (and perhaps named it): they are seen now, and a paused
        game of theirs goes on (as ``renew_seen`` does). Returns every seat's ``seat_news``
        as stored now, other processes' joins included, and whether the game was paused;
        tells the others."""
        values: dict[str, Any] = {"joined": True, "seen": self.clock.now()}
        if name:
            values["name"] = name

        async def work(connection) -> tuple[list[SeatNews], bool]:
            # Joins of one game wait for each other: the last one sees everybody seated.
            paused = await connection.scalar(LOCK_FOR_A_JOIN, {"b_game": game_id})
            await connection.execute(
                update(SeatRow)
                .where(SeatRow.game_id == game_id, SeatRow.seat == seat)
                .values(**values)
            )
            resumed = bool(paused) and await self._unpause(connection, game_id)
            return await self._tell_seats(connection, game_id), resumed

        return await self._run_soon(work)

    async def _unpause(self, connection, game_id: str) -> bool:
        """A person is back: a paused game goes on (told to the other processes)."""
        resumed = await connection.execute(
            update(GameRow).where(GameRow.id == game_id, GameRow.paused).values(paused=False)
        )
        if resumed.rowcount:
            await self.tell(connection, [(game_id, Paused(paused=False))])
        return bool(resumed.rowcount)

    async def pause_abandoned(self, seconds: float) -> list[str]:
        """Games in play whose people have all been away ``seconds`` or more are paused
        (nobody plays their bots until a person is back): their ids, each told to the
        other processes."""

        async def work(connection) -> list[str]:
            recent = (await connection.scalar(select(self.clock.now()))) - seconds
            # (A game with a clock is not paused: its clock deals with those away.)
            people = exists().where(SeatRow.game_id == GameRow.id, SeatRow.kind == PERSON)
            here = exists().where(
                SeatRow.game_id == GameRow.id, SeatRow.kind == PERSON, SeatRow.seen > recent
            )
            abandoned = [
                GameRow.status == PLAYING,
                ~GameRow.paused,
                GameRow.deadline.is_(None),
                people,
                ~here,
            ]
            paused = list(
                (await connection.scalars(games_set_in_order(abandoned, paused=True))).all()
            )
            if paused:
                await connection.execute(delete(BotLease).where(BotLease.game_id.in_(paused)))
            await self.tell(connection, [(g, Paused(paused=True)) for g in paused])
            return paused

        return await self._run(work)

    async def _tell_seats(
        self, connection, game_id: str, clocks: dict[str, Any] | None = None
    ) -> list[SeatNews]:
        """Every seat's news as stored now, told to the other processes (with the game's
        ``clocks`` if they changed too)."""
        rows = await connection.execute(SEATS_OF_A_GAME, {"b_game": game_id})
        seats = [seat_news(row) for row in rows.mappings()]
        await self.tell(connection, [(game_id, Seats(seats=seats, clocks=clocks))])
        return seats

    async def renew_seen(self, seats: list[tuple[str, int]]) -> set[str]:
        """These (game, seat) have a socket open now: they are here (a paused game of
        theirs goes on). The ids of the games that were paused."""
        if not seats:
            return set()

        # Every person with a socket open is marked seen every few seconds: one statement
        # for all (two a seat, 400 at 200 games, held SQLite's one connection from the
        # moves for 140-150 ms).
        seen = (
            update(SeatRow)
            .where(SeatRow.game_id == bindparam("b_game"), SeatRow.seat == bindparam("b_seat"))
            .values(seen=self.clock.now())
        )

        async def work(connection) -> set[str]:
            # A game's row is locked before its seats', as a join does: in the other order,
            # a person rejoining a paused game meanwhile deadlocked with this on PostgreSQL.
            here = sorted(set(seats))
            paused = await connection.scalars(
                select(GameRow.id)
                .where(GameRow.id.in_(sorted({game_id for game_id, _ in here})), GameRow.paused)
                .order_by(GameRow.id)
                .with_for_update()
            )
            paused_ids = paused.all()
            await connection.execute(seen, [{"b_game": g, "b_seat": seat} for g, seat in here])
            return {game_id for game_id in paused_ids if await self._unpause(connection, game_id)}

        return await self._run_soon(work)

    async def give_to_bot(
        self, game_id: str, seat: int, voter: int, bot: str, away: float
    ) -> tuple[bool, int, int, list[SeatNews]]:
        """``voter`` votes to give the seat of a person away ``away`` seconds or more to the
        bot ``bot``. The seat is the bot's at once if ``voter`` made the game (seat 0) or a
        majority of the other people present voted so. Returns (given, votes, present,
        every seat's news); refuses (Refusal) a vote that cannot count."""

        async def work(connection) -> tuple[bool, int, int, list[SeatNews]]:
            status, clock = (
                await connection.execute(
                    select(GameRow.status, GameRow.clock)
                    .where(GameRow.id == game_id)
                    .with_for_update()
                )
            ).one()
            if status != PLAYING:
                raise Refusal("bad_state", "a seat is given to a bot only while the game is on")
            if clock is not None:
                raise Refusal(
                    "bad_state",
                    "this game has a clock: a person away keeps their seat until their time "
                    "runs out, and then what its maker chose happens",
                )
            clock = await connection.scalar(select(self.clock.now()))
            seats = await connection.execute(select(SeatRow).where(SeatRow.game_id == game_id))
            rows = {row["seat"]: row for row in seats.mappings()}
            recent = clock - away
            here = {s for s, r in rows.items() if r["kind"] == PERSON and (r["seen"] or 0) > recent}
            check_vote(rows.get(seat), seat, voter, here, away)
            votes = {v: b for v, b in (rows[seat]["votes"] or {}).items() if int(v) in here}
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


def check_vote(target, seat: int, voter: int, here: set[int], away: float) -> None:
    """Refuse a vote to give ``seat`` (its row: ``target``) to a bot that cannot count."""
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
