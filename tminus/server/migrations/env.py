"""Alembic's environment: the migrations run on the connection T-minus opened
(``tminus.server.migrate``), or, for a developer's ``alembic revision --autogenerate``, on
the database named in alembic.ini."""

from alembic import context
from sqlalchemy import create_engine

from tminus.server.storage import Base

config = context.config


def run(connection) -> None:
    # (render_as_batch: SQLite alters a table by copying it; Alembic does that for us)
    context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if "connection" in config.attributes:
    run(config.attributes["connection"])
else:
    with create_engine(config.get_main_option("sqlalchemy.url") or "").connect() as connection:
        run(connection)
        connection.commit()
