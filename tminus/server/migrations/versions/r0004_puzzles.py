"""Puzzles (issue 38): each puzzle's rating, moved by every try, and each account's tries.

Revision ID: 0004
Revises: 0003
Created: 2026-12-06
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    tables = set(sa.inspect(op.get_bind()).get_table_names())
    if "puzzle_ratings" not in tables:
        op.create_table(
            "puzzle_ratings",
            sa.Column("puzzle_id", sa.String(32), primary_key=True),
            sa.Column("rating", sa.Float(), nullable=False),
            sa.Column("tries", sa.Integer(), nullable=False),
            sa.Column("solved", sa.Integer(), nullable=False),
        )
    if "puzzle_tries" not in tables:
        op.create_table(
            "puzzle_tries",
            sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), primary_key=True),
            sa.Column("puzzle_id", sa.String(32), primary_key=True),
            sa.Column("solved", sa.Boolean(), nullable=False),
            sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        )


def downgrade() -> None:
    op.drop_table("puzzle_tries")
    op.drop_table("puzzle_ratings")
