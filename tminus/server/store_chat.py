"""A game's table talk: lines said by its seats or by the table itself, each claiming the
next place in the game's chat under the game's row lock."""

from __future__ import annotations

from sqlalchemy import func, insert, select

from tminus.server.store_base import StoreBase
from tminus.server.store_notices import Chat
from tminus.server.store_rows import ChatRow, GameRow, now
from tminus.server.store_values import ChatLine


class TableTalk(StoreBase):
    """The store's chat lines (a part of ``storage.Store``)."""

    async def say(self, game_id: str, seat: int | None, words: str) -> ChatLine:
        """Add a line to the game's table talk (its place claimed under the game's row lock)
        and tell the other processes: the line as stored."""

        async def work(connection) -> ChatLine:
            await connection.execute(
                select(GameRow.id).where(GameRow.id == game_id).with_for_update()
            )
            last = await connection.scalar(
                select(func.max(ChatRow.index)).where(ChatRow.game_id == game_id)
            )
            index, at = (last or 0) + 1, now()
            await connection.execute(
                insert(ChatRow).values(game_id=game_id, index=index, seat=seat, text=words, at=at)
            )
            line: ChatLine = {"index": index, "seat": seat, "text": words, "at": at.isoformat()}
            await self.tell(connection, [(game_id, Chat(chat=[dict(line)]))])
            return line

        return await self._run(work)

    async def chat(self, game_id: str, limit: int) -> list[ChatLine]:
        """The last ``limit`` lines of a game's table talk, oldest first."""
        query = (
            select(ChatRow.index, ChatRow.seat, ChatRow.text, ChatRow.at)
            .where(ChatRow.game_id == game_id)
            .order_by(ChatRow.index.desc())
            .limit(limit)
        )

        async def work(connection) -> list[ChatLine]:
            rows = (await connection.execute(query)).all()
            return [
                {"index": index, "seat": seat, "text": words, "at": at.isoformat()}
                for index, seat, words, at in reversed(rows)
            ]

        return await self._run(work, write=False)
