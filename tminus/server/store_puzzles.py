"""Puzzles in the store: how hard each has proved (its rating, moved by every try as a
player's is, in one statement so that processes never lose each other's tries), and the
tries of each account (its progress on every device)."""

from __future__ import annotations

from sqlalchemy import select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from tminus.server.store_base import StoreBase
from tminus.server.store_engine import is_shared
from tminus.server.store_rows import LessonFinishedRow, PuzzleRatingRow, PuzzleTryRow, now

K = 16.0  # how far one try moves a puzzle's rating (Elo's K for a settled player)


def expected_score(rating: float, against: float) -> float:
    """Elo's chance that ``rating`` beats ``against``."""
    return 1.0 / (1.0 + 10 ** ((against - rating) / 400))


class PuzzleQueries(StoreBase):
    """The store's puzzles (a part of ``storage.Store``)."""

    async def puzzle_ratings(self, ids: list[str]) -> dict[str, tuple[float, int, int]]:
        """{puzzle id: (rating, tries, solved)} of the puzzles tried so far."""
        query = select(PuzzleRatingRow).where(PuzzleRatingRow.puzzle_id.in_(ids))

        async def work(connection) -> dict[str, tuple[float, int, int]]:
            rows = (await connection.execute(query)).mappings()
            return {r["puzzle_id"]: (r["rating"], r["tries"], r["solved"]) for r in rows}

        return await self._run(work, write=False)

    async def try_puzzle(self, puzzle_id: str, start: float, solver: float, solved: bool) -> float:
        """A try by a solver rated ``solver``: the puzzle's rating moves (from ``start`` on
        its first try), as a player's does when it wins (the solver failed) or loses. Its
        new rating."""
        dialect = _insert(self.url)

        async def work(connection) -> float:
            statement = dialect(PuzzleRatingRow).values(
                puzzle_id=puzzle_id, rating=start, tries=0, solved=0
            )
            await connection.execute(
                statement.on_conflict_do_nothing(index_elements=[PuzzleRatingRow.puzzle_id])
            )
            row = (
                await connection.execute(
                    select(PuzzleRatingRow.rating)
                    .where(PuzzleRatingRow.puzzle_id == puzzle_id)
                    .with_for_update()
                )
            ).one()
            won = 0.0 if solved else 1.0  # (the puzzle "wins" when it is not solved)
            rating = row.rating + K * (won - expected_score(row.rating, solver))
            await connection.execute(
                update(PuzzleRatingRow)
                .where(PuzzleRatingRow.puzzle_id == puzzle_id)
                .values(
                    rating=rating,
                    tries=PuzzleRatingRow.tries + 1,
                    solved=PuzzleRatingRow.solved + int(solved),
                )
            )
            return rating

        return await self._run(work)

    async def record_try(self, account_id: str, puzzle_id: str, solved: bool) -> bool:
        """An account's try: its first counts (True), later ones do not."""
        dialect = _insert(self.url)

        async def work(connection) -> bool:
            result = await connection.execute(
                dialect(PuzzleTryRow)
                .values(account_id=account_id, puzzle_id=puzzle_id, solved=solved, at=now())
                .on_conflict_do_nothing(
                    index_elements=[PuzzleTryRow.account_id, PuzzleTryRow.puzzle_id]
                )
            )
            return bool(result.rowcount)

        return await self._run(work)

    async def tries_of(self, account_id: str) -> list[tuple[str, bool]]:
        """An account's first tries, oldest first: (puzzle id, solved)."""
        query = (
            select(PuzzleTryRow.puzzle_id, PuzzleTryRow.solved)
            .where(PuzzleTryRow.account_id == account_id)
            .order_by(PuzzleTryRow.at)
        )

        async def work(connection) -> list[tuple[str, bool]]:
            return [(p, bool(s)) for p, s in (await connection.execute(query)).all()]

        return await self._run(work, write=False)

    async def finish_lesson(self, account_id: str, game: str) -> None:
        """An account finished a game's lesson (again: nothing changes)."""
        dialect = _insert(self.url)

        async def work(connection) -> None:
            await connection.execute(
                dialect(LessonFinishedRow)
                .values(account_id=account_id, game=game, at=now())
                .on_conflict_do_nothing(
                    index_elements=[LessonFinishedRow.account_id, LessonFinishedRow.game]
                )
            )

        await self._run(work)

    async def lessons_of(self, account_id: str) -> list[str]:
        """The games whose lesson the account finished, first finished first."""
        query = (
            select(LessonFinishedRow.game)
            .where(LessonFinishedRow.account_id == account_id)
            .order_by(LessonFinishedRow.at, LessonFinishedRow.game)
        )

        async def work(connection) -> list[str]:
            return list((await connection.scalars(query)).all())

        return await self._run(work, write=False)


def _insert(url: str):
    """The dialect's INSERT, which has ON CONFLICT."""
    return postgresql_insert if is_shared(url) else sqlite_insert
