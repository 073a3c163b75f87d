"""The store's tables as SQLAlchemy rows: games, their seats, action logs, table talk and
bot leases. A change here comes with a migration (``tminus/server/migrations``)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, DateTime, Float, ForeignKey, Integer, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def now() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    params: Mapped[dict[str, Any]] = mapped_column(JSON)
    rules_version: Mapped[int] = mapped_column(Integer, default=1)
    commitment: Mapped[str] = mapped_column(String(64))
    seed: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16), index=True)
    # How a finished game ended: {"returns": [...], "winners": [...], "reason": ...}.
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # Why a broken game cannot go on (its log no longer replays under today's rules).
    problem: Mapped[str | None] = mapped_column(Text, nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now, index=True)
    finished: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # Shown in the lobby's public list while in play (else reachable by its link only).
    listed: Mapped[bool] = mapped_column(default=False, index=True)
    to_move: Mapped[int | None] = mapped_column(Integer, nullable=True)  # whose turn it is
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)  # the next game
    # In play, but its people all left long ago: its bots wait until one comes back.
    paused: Mapped[bool] = mapped_column(default=False)
    # How its chance outcomes are drawn from the seed (tminus.server.fairness.DRAW_RULES).
    draw_rule: Mapped[int] = mapped_column(Integer, default=1)
    # Whether a player may ask to take back a move (``tminus.server.undo``), and the last
    # such request: {"seat", "at" (the log's length then), "accepted": [seats], "answer"}.
    undo: Mapped[bool] = mapped_column(default=False)
    take_back: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # Whether a player may ask for the best move now (``hint``): its creator's switch.
    hints: Mapped[bool] = mapped_column(default=False)


class SeatRow(Base):
    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    bot: Mapped[str | None] = mapped_column(String(64), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    joined: Mapped[bool] = mapped_column(default=False)
    # When a socket of this seat was last open (seconds on the database's clock): renewed
    # while one is, by whichever process holds it. A person long away may be given a bot.
    seen: Mapped[float | None] = mapped_column(Float, nullable=True)
    # Votes to give this (away) seat to a bot: {voter seat: bot spec}.
    votes: Mapped[dict[str, str] | None] = mapped_column(JSON, nullable=True)


class ActionRow(Base):
    __tablename__ = "actions"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    index: Mapped[int] = mapped_column(Integer, primary_key=True)
    # (-1, ``tminus.server.takeback.TAKE_BACK``: the last standing decision is taken back.)
    action: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)  # the player, or -1 for chance
    # Said in the log before the action (a bot that fell back on a random move).
    note: Mapped[str | None] = mapped_column(Text, nullable=True)
    # A searching bot's chance to win as it reckoned its move (perfect-information games).
    estimate: Mapped[float | None] = mapped_column(Float, nullable=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class ChatRow(Base):
    """A line of a game's table talk: said by a seat, or (seat None) the table's own notice
    (a request to take a move back and its answer, a seat given to a bot)."""

    __tablename__ = "chat"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    index: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class BotLease(Base):
    """Which process plays a game's bots, until when (seconds on the database's clock)."""

    __tablename__ = "bot_leases"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    holder: Mapped[str] = mapped_column(String(64))
    expires: Mapped[float] = mapped_column(Float, index=True)
