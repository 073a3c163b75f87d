"""The schema of December 2026, the first under Alembic.

A database with no tables gets them all. A database made by a T-minus from before
migrations has the tables, perhaps without the columns added since: they are added (with
the defaults those games were played under), and plain seat tokens are replaced by their
hashes, as the hand-written upgrade of those versions did.

Revision ID: 0001
Revises:
Created: 2026-12-05
"""

import hashlib
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    tables = set(sa.inspect(op.get_bind()).get_table_names())
    if "games" not in tables:
        create_games()
    if "seats" not in tables:
        create_seats()
    if "actions" not in tables:
        create_actions()
    if "chat" not in tables:
        create_chat()
    if "bot_leases" not in tables:
        create_bot_leases()
    if tables:
        add_the_columns_of_later_versions()
        hash_plain_tokens()
    create_missing_indexes()


def create_games() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("params", sa.JSON(), nullable=False),
        sa.Column("rules_version", sa.Integer(), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("problem", sa.Text(), nullable=True),
        sa.Column("created", WHEN, nullable=False),
        sa.Column("finished", WHEN, nullable=True),
        sa.Column("listed", sa.Boolean(), nullable=False),
        sa.Column("to_move", sa.Integer(), nullable=True),
        sa.Column("rematch", sa.String(32), nullable=True),
        sa.Column("paused", sa.Boolean(), nullable=False),
        sa.Column("draw_rule", sa.Integer(), nullable=False),
        sa.Column("undo", sa.Boolean(), nullable=False),
        sa.Column("take_back", sa.JSON(), nullable=True),
        sa.Column("hints", sa.Boolean(), nullable=False),
    )


def create_seats() -> None:
    op.create_table(
        "seats",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("bot", sa.String(64), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("joined", sa.Boolean(), nullable=False),
        sa.Column("seen", sa.Float(), nullable=True),
        sa.Column("votes", sa.JSON(), nullable=True),
    )


def create_actions() -> None:
    op.create_table(
        "actions",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("index", sa.Integer(), primary_key=True),
        sa.Column("action", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column("estimate", sa.Float(), nullable=True),
        sa.Column("at", WHEN, nullable=False),
    )


def create_chat() -> None:
    op.create_table(
        "chat",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("index", sa.Integer(), primary_key=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("at", WHEN, nullable=False),
    )


def create_bot_leases() -> None:
    op.create_table(
        "bot_leases",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("holder", sa.String(64), nullable=False),
        sa.Column("expires", sa.Float(), nullable=False),
    )


# Columns added by T-minus versions before migrations, with the value a game stored before
# each one was played under (games made before draw rules drew by rule 1; before rules
# versions, by version 1).
LATER_COLUMNS: dict[str, list[sa.Column[Any]]] = {
    "games": [
        sa.Column("rules_version", sa.Integer(), server_default="1"),
        sa.Column("problem", sa.Text()),
        sa.Column("listed", sa.Boolean(), server_default=sa.false()),
        sa.Column("rematch", sa.String(32)),
        sa.Column("paused", sa.Boolean(), server_default=sa.false()),
        sa.Column("to_move", sa.Integer()),
        sa.Column("draw_rule", sa.Integer(), server_default="1"),
        sa.Column("undo", sa.Boolean(), server_default=sa.false()),
        sa.Column("take_back", sa.JSON()),
        sa.Column("hints", sa.Boolean(), server_default=sa.false()),
    ],
    "actions": [sa.Column("note", sa.Text()), sa.Column("estimate", sa.Float())],
    "seats": [
        sa.Column("seen", sa.Float()),
        sa.Column("votes", sa.JSON()),
        sa.Column("token_hash", sa.String(64)),
    ],
}


def add_the_columns_of_later_versions() -> None:
    inspector = sa.inspect(op.get_bind())
    for table, columns in LATER_COLUMNS.items():
        present = {c["name"] for c in inspector.get_columns(table)}
        for column in columns:
            if column.name not in present:
                op.add_column(table, column)


INDEXES = {"games": ["created", "listed", "status"], "bot_leases": ["expires"]}


def create_missing_indexes() -> None:
    """The indexes of the tables (a column added later had none in older databases)."""
    inspector = sa.inspect(op.get_bind())
    for table, columns in INDEXES.items():
        present = {index["name"] for index in inspector.get_indexes(table)}
        for column in columns:
            if f"ix_{table}_{column}" not in present:
                op.create_index(f"ix_{table}_{column}", table, [column])


def hash_plain_tokens() -> None:
    """The first versions kept each seat's token; only its hash is kept now (SHA-256, as
    ``storage.token_hash``), and the plain token is blanked."""
    bind = op.get_bind()
    if "token" not in {c["name"] for c in sa.inspect(bind).get_columns("seats")}:
        return
    rows = bind.execute(sa.text("SELECT game_id, seat, token FROM seats WHERE token IS NOT NULL"))
    blank = sa.text(
        "UPDATE seats SET token_hash = :h, token = NULL WHERE game_id = :g AND seat = :s"
    )
    for game_id, seat, token in rows.all():
        bind.execute(
            blank, {"h": hashlib.sha256(token.encode()).hexdigest(), "g": game_id, "s": seat}
        )


def downgrade() -> None:
    raise NotImplementedError("the first schema under migrations has nothing before it")
