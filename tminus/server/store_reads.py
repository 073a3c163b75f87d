"""Reading games back: one game with its log, the newest games, some by id, their ids.
Each read is one snapshot of the database (``StoreBase._run`` with ``write=False``)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select

from tminus.server.store_base import StoreBase
from tminus.server.store_clocks import clocks_of
from tminus.server.store_rows import ActionRow, GameRow, SeatRow
from tminus.server.store_values import PLAYING, Seat, StoredGame


class GameReads(StoreBase):
    """The store's reads of games (the part of ``storage.Store`` that changes nothing)."""

    async def load(self, game_id: str, actions: bool = True, since: int = 0) -> StoredGame | None:
        """A game with its seats and (unless ``actions`` is false) its log from ``since``."""
        games = await self._records(select(GameRow).where(GameRow.id == game_id), actions, since)
        return games[0] if games else None

    async def recent(self, limit: int, listed: bool = False) -> list[StoredGame]:
        """The newest games, without their logs (``moves`` says how long each is); ``listed``:
        only the listed games in play (the lobby's public list)."""
        query = select(GameRow).order_by(GameRow.created.desc()).limit(limit)
        if listed:
            query = query.where(GameRow.listed, GameRow.status == PLAYING)
        return await self._records(query)

    async def some(self, game_ids: list[str]) -> list[StoredGame]:
        """The games of these ids that exist, newest first, without their logs."""
        query = select(GameRow).where(GameRow.id.in_(game_ids)).order_by(GameRow.created.desc())
        return await self._records(query)

    async def ids(self, statuses: tuple[str, ...] | None = None, limit: int | None = None):
        """Game ids, newest first (only those with one of ``statuses`` if given)."""
        query = select(GameRow.id).order_by(GameRow.created.desc())
        if statuses:
            query = query.where(GameRow.status.in_(statuses))
        if limit:
            query = query.limit(limit)

        async def work(connection) -> list[str]:
            return list((await connection.scalars(query)).all())

        return await self._run(work, write=False)

    async def _records(self, query, with_actions: bool = False, since: int = 0) -> list[StoredGame]:
        async def work(connection) -> list[StoredGame]:
            rows = (await connection.execute(query)).mappings().all()
            ids = [row["id"] for row in rows]
            if not ids:
                return []
            seats = await seats_of(connection, ids)
            counts = await log_lengths(connection, ids)
            logs: dict[str, tuple[list, ...]] = {g: ([], [], [], []) for g in ids}
            if with_actions:
                await read_logs(connection, ids, since, logs)
            return [
                stored_game(row, seats[row["id"]], counts.get(row["id"], 0), *logs[row["id"]])
                for row in rows
            ]

        return await self._run(work, write=False)


async def seats_of(connection, ids: list[str]) -> dict[str, list[Seat]]:
    """The seats of these games, in order."""
    seats: dict[str, list[Seat]] = {game_id: [] for game_id in ids}
    seat_rows = await connection.execute(
        select(SeatRow).where(SeatRow.game_id.in_(ids)).order_by(SeatRow.seat)
    )
    for s in seat_rows.mappings():
        seat = Seat(s["seat"], s["kind"], s["bot"], s["token_hash"], s["name"], s["joined"])
        seat.stand_in = bool(s["stand_in"])
        seats[s["game_id"]].append(seat)
    return seats


async def log_lengths(connection, ids: list[str]) -> dict[str, int]:
    """How many actions each of these games has logged (none: missing)."""
    return dict(
        (
            await connection.execute(
                select(ActionRow.game_id, func.count())
                .where(ActionRow.game_id.in_(ids))
                .group_by(ActionRow.game_id)
            )
        ).all()
    )


async def read_logs(
    connection, ids: list[str], since: int, logs: dict[str, tuple[list, ...]]
) -> None:
    """Add each game's log from ``since`` to its (actions, actors, notes, estimates)."""
    actions = await connection.execute(
        select(
            ActionRow.game_id, ActionRow.action, ActionRow.seat, ActionRow.note,
            ActionRow.estimate,
        )
        .where(ActionRow.game_id.in_(ids), ActionRow.index >= since)
        .order_by(ActionRow.game_id, ActionRow.index)
    )  # fmt: skip
    for game_id, *columns in actions:
        for log, value in zip(logs[game_id], columns, strict=True):
            log.append(value)


def stored_clocks(row) -> dict[str, Any] | None:
    """A game's clocks as its row keeps them (None: it has no clock)."""
    if row["clock"] is None or not row["banks"]:
        return None
    running = row["deadline"] is not None and row["status"] == PLAYING
    return clocks_of(row["banks"], row["to_move"] if running else None, row["deadline"])


def stored_game(
    row, seats: list[Seat], moves: int, actions, actors, notes, estimates
) -> StoredGame:
    return StoredGame(
        id=row["id"], game=row["game"], params=dict(row["params"]),
        rules_version=row["rules_version"], commitment=row["commitment"], seed=row["seed"],
        status=row["status"], seats=seats, actions=actions, result=row["result"],
        created=row["created"], problem=row["problem"], moves=moves, actors=actors, notes=notes,
        estimates=estimates,
        listed=bool(row["listed"]), to_move=row["to_move"], rematch=row["rematch"],
        paused=bool(row["paused"]), draw_rule=row["draw_rule"] or 1, undo=bool(row["undo"]),
        take_back=row["take_back"], hints=bool(row["hints"]), rated=bool(row["rated"]),
        clock=row["clock"], clocks=stored_clocks(row),
    )  # fmt: skip
