"""The database's schema brought to the newest migration (Alembic; the migrations are in
tminus/server/migrations/versions, one file per change of the tables in ``store_rows``).

A new database gets the tables as the models describe them and is marked as at the newest
migration (Alembic's cookbook: create_all, then stamp); tests/server/test_migrations.py
proves that the migrations make the same tables. A database made before migrations is
recognised by having tables but no alembic_version: the first migration brings it to the
schema of December 2026, whatever version made it.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, MetaData, inspect

MIGRATIONS = Path(__file__).with_name("migrations")


def config_for(connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


@cache
def scripts() -> ScriptDirectory:
    return ScriptDirectory.from_config(config_for())


def newest() -> str | None:
    """The newest migration's revision."""
    return scripts().get_current_head()


def migrate(connection: Connection, metadata: MetaData) -> None:
    """Bring the database to the newest migration, in the caller's transaction."""
    if not inspect(connection).get_table_names():  # a new database
        metadata.create_all(connection)
        MigrationContext.configure(connection).stamp(scripts(), "head")
    elif MigrationContext.configure(connection).get_current_revision() != newest():
        upgrade(connection)


def upgrade(connection: Connection) -> None:
    """Run every migration the database has not had."""
    command.upgrade(config_for(connection), "head")
