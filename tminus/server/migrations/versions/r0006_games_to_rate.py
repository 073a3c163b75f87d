"""The rated games not yet applied to ratings get an index of their own
(``ix_games_to_rate``), in place of the index of ``ratings_applied``, which held every
unrated game.

Revision ID: 0006
Revises: 0005
Created: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    indexes = {index["name"] for index in sa.inspect(op.get_bind()).get_indexes("games")}
    if "ix_games_ratings_applied" in indexes:
        op.drop_index("ix_games_ratings_applied", "games")
    if "ix_games_to_rate" not in indexes:
        op.create_index(
            "ix_games_to_rate",
            "games",
            ["status", "rated", "ratings_applied"],
            sqlite_where=sa.text("rated = 1 AND ratings_applied = 0"),
            postgresql_where=sa.text("rated AND NOT ratings_applied"),
        )


def downgrade() -> None:
    op.drop_index("ix_games_to_rate", "games")
    op.create_index("ix_games_ratings_applied", "games", ["ratings_applied"])
