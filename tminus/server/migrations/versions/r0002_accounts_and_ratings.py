"""Accounts, their sessions and seats, and ratings (issue 37: play over days).

Games gain ``rated`` and ``ratings_applied`` (both false for the games played before).
What a database has already (one marked as before migrations by hand, say) is left as is.

Revision ID: 0002
Revises: 0001
Created: 2026-12-06
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    columns = {column["name"] for column in inspector.get_columns("games")}
    for name in ("rated", "ratings_applied"):
        if name not in columns:
            op.add_column(
                "games", sa.Column(name, sa.Boolean(), nullable=False, server_default=sa.false())
            )
    if "ix_games_ratings_applied" not in {i["name"] for i in inspector.get_indexes("games")}:
        op.create_index("ix_games_ratings_applied", "games", ["ratings_applied"])
    if "accounts" not in inspector.get_table_names():
        create_tables()


def create_tables() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(24), nullable=False),
        sa.Column("name_key", sa.String(24), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("reminders", sa.Boolean(), nullable=False),
        sa.Column("reminded", sa.Float(), nullable=True),
        sa.Column("unsubscribe", sa.String(43), nullable=False, unique=True),
        sa.Column("created", WHEN, nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("expires", sa.Float(), nullable=False),
    )
    op.create_index("ix_sessions_account_id", "sessions", ["account_id"])
    op.create_table(
        "account_seats",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("token", sa.String(64), nullable=False),
    )
    op.create_index("ix_account_seats_account_id", "account_seats", ["account_id"])
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("players", sa.Integer(), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
    )
    op.create_table(
        "rating_changes",
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("before", sa.Float(), nullable=False),
        sa.Column("after", sa.Float(), nullable=False),
        sa.Column("at", WHEN, nullable=False),
    )


def downgrade() -> None:
    for table in ("rating_changes", "ratings", "account_seats", "sessions", "accounts"):
        op.drop_table(table)
    op.drop_index("ix_games_ratings_applied", "games")
    op.drop_column("games", "ratings_applied")
    op.drop_column("games", "rated")
