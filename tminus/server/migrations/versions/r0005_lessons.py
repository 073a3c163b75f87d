"""Learn to play (issue 38): the lessons each account finished.

Revision ID: 0005
Revises: 0004
Created: 2026-12-06
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if "lessons_finished" not in set(sa.inspect(op.get_bind()).get_table_names()):
        op.create_table(
            "lessons_finished",
            sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), primary_key=True),
            sa.Column("game", sa.String(64), primary_key=True),
            sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        )


def downgrade() -> None:
    op.drop_table("lessons_finished")
