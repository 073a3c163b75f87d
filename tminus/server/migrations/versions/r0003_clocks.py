"""Game clocks (issue 37): turn-based and Fischer clocks, and bots standing in for a person
whose time ran out. Games made before have no clock. What a database has already is left
as is.

Revision ID: 0003
Revises: 0002
Created: 2026-12-06
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    games = {column["name"] for column in inspector.get_columns("games")}
    for column in (
        sa.Column("clock", sa.JSON(), nullable=True),
        sa.Column("banks", sa.JSON(), nullable=True),
        sa.Column("turn_since", sa.Float(), nullable=True),
        sa.Column("deadline", sa.Float(), nullable=True),
    ):
        if column.name not in games:
            op.add_column("games", column)
    if "ix_games_deadline" not in {index["name"] for index in inspector.get_indexes("games")}:
        op.create_index("ix_games_deadline", "games", ["deadline"])
    if "stand_in" not in {column["name"] for column in inspector.get_columns("seats")}:
        op.add_column(
            "seats",
            sa.Column("stand_in", sa.Boolean(), nullable=False, server_default=sa.false()),
        )


def downgrade() -> None:
    op.drop_column("seats", "stand_in")
    op.drop_index("ix_games_deadline", "games")
    for column in ("deadline", "turn_since", "banks", "clock"):
        op.drop_column("games", column)
