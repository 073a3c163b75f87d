"""Ratings in the store: a finished rated game applied to its players' ratings exactly once
(the game's row locked, ``ratings_applied`` set in the same transaction, whichever process
gets there first), the leaderboards and an account's history. The arithmetic is
``tminus.server.ratings``."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select, update

from tminus.server.ratings import Belief, bot_belief, newcomer, rate, shown
from tminus.server.store_base import StoreBase
from tminus.server.store_engine import is_shared
from tminus.server.store_rows import (
    AccountRow,
    AccountSeatRow,
    GameRow,
    RatingChangeRow,
    RatingRow,
    SeatRow,
    now,
)
from tminus.server.store_values import BOT, FINISHED


@dataclass(frozen=True)
class Standing:
    """A line of a leaderboard or of a profile's ratings."""

    name: str
    game: str
    players: int
    rating: int
    games: int


# A standing's columns: the account's name and its rating at one game and player count.
STANDING = (AccountRow.name, RatingRow.game, RatingRow.players, RatingRow.mu, RatingRow.sigma,
            RatingRow.games)  # fmt: skip


class RatingQueries(StoreBase):
    """The store's ratings (a part of ``storage.Store``)."""

    async def games_to_rate(self, limit: int = 20) -> list[str]:
        """Finished rated games whose ratings are not applied yet."""
        query = (
            select(GameRow.id)
            .where(GameRow.status == FINISHED, GameRow.rated, ~GameRow.ratings_applied)
            .limit(limit)
        )

        async def work(connection) -> list[str]:
            return list((await connection.scalars(query)).all())

        return await self._run(work, write=False)

    async def apply_ratings(self, game_id: str) -> dict[str, tuple[int, int]]:
        """Apply a finished rated game to its accounts' ratings, once: {account id: (shown
        rating before, after)} ({} if it was applied already, or is not such a game)."""
        locked = (
            select(GameRow)
            .where(
                GameRow.id == game_id,
                GameRow.status == FINISHED,
                GameRow.rated,
                ~GameRow.ratings_applied,
            )
            .with_for_update(skip_locked=is_shared(self.url))
        )

        async def work(connection) -> dict[str, tuple[int, int]]:
            game = (await connection.execute(locked)).mappings().first()
            if game is None:  # (applied, or being applied by another process now)
                return {}
            changes = await self._rate(connection, game)
            await connection.execute(
                update(GameRow).where(GameRow.id == game_id).values(ratings_applied=True)
            )
            return changes

        return await self._run(work)

    async def _rate(self, connection, game) -> dict[str, tuple[int, int]]:
        """Rate a game (its row's mapping) in the caller's transaction."""
        seats = (
            (
                await connection.execute(
                    select(SeatRow).where(SeatRow.game_id == game["id"]).order_by(SeatRow.seat)
                )
            )
            .mappings()
            .all()
        )
        holders = await self._holders(connection, game["id"])
        players = len(seats)
        playing = {s["seat"] for s in seats if s["kind"] != BOT or s["stand_in"]}
        # (A seat voted to a bot plays no more for its person: it is not rated as theirs.)
        holders = {seat: account for seat, account in holders.items() if seat in playing}
        known = await self._beliefs(connection, game["game"], players, set(holders.values()))
        beliefs = []
        for seat in seats:
            account = holders.get(seat["seat"])
            if account is not None:
                beliefs.append(known.get(account, newcomer()))
            elif seat["kind"] == BOT:
                beliefs.append(bot_belief(game["game"], seat["bot"]))
            else:
                beliefs.append(newcomer())  # (a person with no account: rated as a newcomer)
        result = game["result"] or {}
        places: list[int | None] = list(result.get("placings") or [None] * players)
        after = rate(beliefs, places)
        changes: dict[str, tuple[int, int]] = {}
        for seat, account in holders.items():
            if places[seat] is None:
                continue
            changes[account] = (shown(beliefs[seat]), shown(after[seat]))
            await self._keep(
                connection, account, game["game"], players, after[seat], account in known
            )
            await connection.execute(
                insert(RatingChangeRow).values(
                    account_id=account, game_id=game["id"], game=game["game"], players=players,
                    place=places[seat], before=changes[account][0], after=changes[account][1],
                    at=game["finished"] or now(),
                )
            )  # fmt: skip
        return changes

    @staticmethod
    async def _holders(connection, game_id: str) -> dict[int, str]:
        """{seat: account} of the accounts that hold exactly one seat of the game (an account
        at several seats, a hot-seat, plays against itself: none of them is rated)."""
        rows = (
            await connection.execute(
                select(AccountSeatRow.seat, AccountSeatRow.account_id).where(
                    AccountSeatRow.game_id == game_id
                )
            )
        ).all()
        count = Counter(account for _, account in rows)
        return {seat: account for seat, account in rows if count[account] == 1}

    @staticmethod
    async def _beliefs(connection, game: str, players: int, accounts: set[str]):
        rows = (
            await connection.execute(
                select(RatingRow)
                .where(
                    RatingRow.account_id.in_(list(accounts)),
                    RatingRow.game == game,
                    RatingRow.players == players,
                )
                .with_for_update()  # (two games of one person rated at once: one waits)
            )
        ).mappings()
        return {row["account_id"]: Belief(row["mu"], row["sigma"]) for row in rows}

    @staticmethod
    async def _keep(connection, account, game: str, players, belief: Belief, known: bool) -> None:
        if known:
            await connection.execute(
                update(RatingRow)
                .where(
                    RatingRow.account_id == account,
                    RatingRow.game == game,
                    RatingRow.players == players,
                )
                .values(mu=belief.mu, sigma=belief.sigma, games=RatingRow.games + 1)
            )
        else:
            await connection.execute(
                insert(RatingRow).values(
                    account_id=account, game=game, players=players, mu=belief.mu,
                    sigma=belief.sigma, games=1,
                )
            )  # fmt: skip

    # -- reading them -----------------------------------------------------------------------
    async def leaderboard(self, game: str, players: int, limit: int = 50) -> list[Standing]:
        """The best-rated accounts at ``game`` with ``players`` players."""
        query = (
            select(*STANDING)
            .join(RatingRow, RatingRow.account_id == AccountRow.id)
            .where(RatingRow.game == game, RatingRow.players == players)
            .order_by((RatingRow.mu - 3 * RatingRow.sigma).desc(), AccountRow.name_key)
            .limit(limit)
        )
        return await self._standings(query)

    async def standings_of(self, account_id: str) -> list[Standing]:
        """An account's ratings, at every game and player count it was rated at."""
        query = (
            select(*STANDING)
            .join(RatingRow, RatingRow.account_id == AccountRow.id)
            .where(AccountRow.id == account_id)
            .order_by(RatingRow.game, RatingRow.players)
        )
        return await self._standings(query)

    async def _standings(self, query) -> list[Standing]:
        async def work(connection) -> list[Standing]:
            return [
                Standing(r.name, r.game, r.players, shown(Belief(r.mu, r.sigma)), r.games)
                for r in (await connection.execute(query)).all()
            ]

        return await self._run(work, write=False)

    async def rating_history(self, account_id: str) -> list[dict[str, Any]]:
        """Each rated game's change of the account's rating, oldest first."""
        query = (
            select(RatingChangeRow)
            .where(RatingChangeRow.account_id == account_id)
            .order_by(RatingChangeRow.at, RatingChangeRow.game_id)
        )

        async def work(connection) -> list[dict[str, Any]]:
            return [
                {"game_id": r["game_id"], "game": r["game"], "players": r["players"],
                 "place": r["place"], "before": round(r["before"]), "after": round(r["after"]),
                 "at": r["at"].isoformat()}
                for r in (await connection.execute(query)).mappings()
            ]  # fmt: skip

        return await self._run(work, write=False)
