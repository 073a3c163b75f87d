"""Durable games with SQLAlchemy 2: SQLite by default, PostgreSQL by a database URL.

A game is its parameters, its seed (secret until the end) with the commitment to it, its
seats and its action log. Each accepted action is one row, committed before anyone is told
of it, so that a game is rebuilt after a crash by replaying its log.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    DateTime,
    ForeignKey,
    Integer,
    String,
    create_engine,
    event,
    select,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, relationship

WAITING, PLAYING, FINISHED = "waiting", "playing", "finished"
PERSON, BOT = "person", "bot"
DEFAULT_URL = "sqlite:///tminus.db"


def now() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    params: Mapped[dict[str, Any]] = mapped_column(JSON)
    commitment: Mapped[str] = mapped_column(String(64))
    seed: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16), index=True)
    # How a finished game ended: {"returns": [...], "winners": [...], "reason": ...}.
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    finished: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    seats: Mapped[list[SeatRow]] = relationship(
        back_populates="game_row", order_by="SeatRow.seat", cascade="all, delete-orphan"
    )


class SeatRow(Base):
    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    bot: Mapped[str | None] = mapped_column(String(64), nullable=True)
    token: Mapped[str | None] = mapped_column(String(64), nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    joined: Mapped[bool] = mapped_column(default=False)
    game_row: Mapped[GameRow] = relationship(back_populates="seats")


class ActionRow(Base):
    __tablename__ = "actions"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    index: Mapped[int] = mapped_column(Integer, primary_key=True)
    action: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)  # the player, or -1 for chance
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


@dataclass
class Seat:
    seat: int
    kind: str
    bot: str | None
    token: str | None
    name: str
    joined: bool = False


@dataclass
class StoredGame:
    id: str
    game: str
    params: dict[str, Any]
    commitment: str
    seed: str
    status: str
    seats: list[Seat]
    actions: list[int]
    result: dict[str, Any] | None
    created: datetime


def make_engine(url: str = DEFAULT_URL) -> Engine:
    """An engine for ``url``; SQLite gets write-ahead logging (commits survive a killed process)."""
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(connection, _record) -> None:
            cursor = connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


class Store:
    """Every read and write of games; each method is one transaction."""

    def __init__(self, url: str = DEFAULT_URL) -> None:
        self.engine = make_engine(url)
        Base.metadata.create_all(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    def create(self, game: StoredGame) -> None:
        with Session(self.engine) as session, session.begin():
            row = GameRow(
                id=game.id, game=game.game, params=game.params, commitment=game.commitment,
                seed=game.seed, status=game.status, result=None, created=game.created,
            )  # fmt: skip
            row.seats = [
                SeatRow(seat=s.seat, kind=s.kind, bot=s.bot, token=s.token, name=s.name)
                for s in game.seats
            ]
            session.add(row)

    def save(
        self,
        game_id: str,
        actions: list[tuple[int, int, int]],
        status: str | None = None,
        result: dict[str, Any] | None = None,
    ) -> None:
        """Commit new actions (index, action, seat) and the status, in one transaction.

        The primary key (game, index) refuses a second action at the same index.
        """
        with Session(self.engine) as session, session.begin():
            session.add_all(
                ActionRow(game_id=game_id, index=index, action=action, seat=seat)
                for index, action, seat in actions
            )
            if status is not None:
                row = session.get(GameRow, game_id)
                row.status = status
                if result is not None:
                    row.result = result
                if status == FINISHED:
                    row.finished = now()

    def set_joined(self, game_id: str, seat: int, name: str | None = None) -> None:
        with Session(self.engine) as session, session.begin():
            row = session.get(SeatRow, (game_id, seat))
            row.joined = True
            if name:
                row.name = name

    def load(self, game_id: str) -> StoredGame | None:
        with Session(self.engine) as session:
            row = session.get(GameRow, game_id)
            if row is None:
                return None
            actions = session.scalars(
                select(ActionRow.action)
                .where(ActionRow.game_id == game_id)
                .order_by(ActionRow.index)
            ).all()
            return StoredGame(
                id=row.id, game=row.game, params=dict(row.params), commitment=row.commitment,
                seed=row.seed, status=row.status,
                seats=[Seat(s.seat, s.kind, s.bot, s.token, s.name, s.joined) for s in row.seats],
                actions=list(actions), result=row.result, created=row.created,
            )  # fmt: skip

    def ids(self, statuses: tuple[str, ...] | None = None, limit: int | None = None) -> list[str]:
        """Game ids, newest first (only those with one of ``statuses`` if given)."""
        query = select(GameRow.id).order_by(GameRow.created.desc())
        if statuses:
            query = query.where(GameRow.status.in_(statuses))
        if limit:
            query = query.limit(limit)
        with Session(self.engine) as session:
            return list(session.scalars(query).all())
