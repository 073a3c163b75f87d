"""The store's tables as SQLAlchemy rows: games, their seats, action logs, table talk, bot
leases, and the people's accounts, sessions, seats and ratings, and the one order in which
several games' rows are locked. A change to a table comes with a migration
(``tminus/server/migrations``)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    Update,
    select,
    text,
    update,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def now() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    __tablename__ = "games"
    # The rated games whose ratings are not applied yet, in an index of their own: every
    # process looks for them every few seconds (``RatingQueries.games_to_rate``), and an
    # index of ``ratings_applied`` alone held every unrated game (22-28 ms a look at
    # 200,000 finished games; 0.6 ms with this one). It names all three columns the search
    # compares: with status alone SQLite, which keeps no statistics here, chose between it
    # and the index of every game's status by chance.
    __table_args__ = (
        Index(
            "ix_games_to_rate",
            "status",
            "rated",
            "ratings_applied",
            sqlite_where=text("rated = 1 AND ratings_applied = 0"),
            postgresql_where=text("rated AND NOT ratings_applied"),
        ),
    )

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
    # Whether its result changes its players' ratings (``tminus.server.ratings``), and
    # whether it has (once, by whichever process finished it or found it finished).
    rated: Mapped[bool] = mapped_column(default=False)
    ratings_applied: Mapped[bool] = mapped_column(default=False)
    # Its clock (``tminus.server.clocks``: None for none), each seat's bank of seconds, when
    # the turn of the seat to move began and when its time runs out (the database's clock).
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    banks: Mapped[list[float] | None] = mapped_column(JSON, nullable=True)
    turn_since: Mapped[float | None] = mapped_column(Float, nullable=True)
    deadline: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)


def games_set_in_order(conditions: list, **values: Any) -> Update:
    """Set ``values`` on the games that meet ``conditions``, returning their ids, with their
    rows locked first in the order of their ids (one statement: no list of ids to bind).
    Every statement that locks several games and waits for them locks them in that order (a
    group commit, LOCK_STATUSES, ``renew_seen``): one that locked them in the order it found
    them could hold one game while it waits for another that a group commit holds, waiting
    for the first (a deadlock: PostgreSQL would end one of them, and a batch of moves with
    it). (``timed_out`` takes games in the order of their deadlines, but never waits: it skips
    a game locked.)"""
    locked = select(GameRow.id).where(*conditions).order_by(GameRow.id).with_for_update()
    return (
        update(GameRow)
        .where(GameRow.id.in_(locked.scalar_subquery()))
        .values(**values)
        .returning(GameRow.id)
    )


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
    # A bot plays for its person, whose time ran out, until they come back (their token kept).
    stand_in: Mapped[bool] = mapped_column(default=False)


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


class AccountRow(Base):
    """A person who signed up: found by name on every device (``tminus.server.accounts``)."""

    __tablename__ = "accounts"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(24))
    name_key: Mapped[str] = mapped_column(String(24), unique=True)  # the name, casefolded
    password_hash: Mapped[str] = mapped_column(String(200))  # argon2id, with its salt
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    reminders: Mapped[bool] = mapped_column(default=False)  # e-mail allowed
    reminded: Mapped[float | None] = mapped_column(Float, nullable=True)  # last mailed (db clock)
    unsubscribe: Mapped[str] = mapped_column(String(43), unique=True)  # the e-mails' link
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class SessionRow(Base):
    """A signed-in browser: its cookie kept as a SHA-256 only, and the token its
    state-changing requests must repeat (against cross-site request forgery)."""

    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    csrf: Mapped[str] = mapped_column(String(64))
    expires: Mapped[float] = mapped_column(Float)  # seconds on the database's clock


class AccountSeatRow(Base):
    """A seat an account holds, with its invite token: the account's browsers play it (the
    token is what the invite link gives; only the account's sessions read it back)."""

    __tablename__ = "account_seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    token: Mapped[str] = mapped_column(String(64))


class RatingRow(Base):
    """An account's rating at one game and player count (openskill's mu and sigma)."""

    __tablename__ = "ratings"

    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(64), primary_key=True)
    players: Mapped[int] = mapped_column(Integer, primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)


class RatingChangeRow(Base):
    """A rated game's effect on one account's rating: its history, for the profile's chart."""

    __tablename__ = "rating_changes"

    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    players: Mapped[int] = mapped_column(Integer)
    place: Mapped[int] = mapped_column(Integer)  # 1 for the winner(s)
    before: Mapped[float] = mapped_column(Float)  # the shown rating, before and after
    after: Mapped[float] = mapped_column(Float)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class PuzzleRatingRow(Base):
    """How hard a puzzle has proved (``tminus.puzzles``): its rating, moved by every try."""

    __tablename__ = "puzzle_ratings"

    puzzle_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    tries: Mapped[int] = mapped_column(Integer, default=0)
    solved: Mapped[int] = mapped_column(Integer, default=0)


class LessonFinishedRow(Base):
    """A lesson (Learn to play) an account finished: its progress on every device."""

    __tablename__ = "lessons_finished"

    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(64), primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class PuzzleTryRow(Base):
    """An account's first try at a puzzle: its progress on every device."""

    __tablename__ = "puzzle_tries"

    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    puzzle_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    solved: Mapped[bool] = mapped_column(default=False)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
