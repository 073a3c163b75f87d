"""The database's schema by Alembic (tminus/server/migrations), on SQLite and PostgreSQL:
a new database gets exactly the tables the models describe, and a database made by a
T-minus from before migrations is brought up to date with its games intact."""

from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import event, inspect, text

from tminus.server.migrate import newest, upgrade
from tminus.server.service import GameService
from tminus.server.storage import Base, Store, make_engine, token_hash

from .helpers import create, join_all, seats, step, token

pytestmark = pytest.mark.anyio

# What the first T-minus servers stored, before any of the later columns and tables.
LATER = {
    "games": ["rules_version", "problem", "listed", "rematch", "paused", "to_move", "draw_rule",
              "undo", "take_back", "hints"],
    "actions": ["note", "estimate"],
    "seats": ["seen", "votes", "token_hash"],
}  # fmt: skip


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    return request.getfixturevalue("database")


async def schema(store: Store) -> tuple[str | None, list]:
    """The database's migration, and how its tables differ from the models."""

    def read(connection):
        version = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
        return version, compare_metadata(MigrationContext.configure(connection), Base.metadata)

    async with store.engine.connect() as connection:
        return await connection.run_sync(read)


async def test_the_migrations_make_the_tables_the_models_describe(url):
    """From an empty database, the migrations alone (a new database is made from the models
    and stamped: both must give the same tables)."""
    engine = make_engine(url)
    async with engine.begin() as connection:
        await connection.run_sync(upgrade)
    await engine.dispose()
    store = await Store(url).open()
    version, differences = await schema(store)
    assert version == newest() == "0006"
    assert differences == []
    await store.close()


async def test_a_new_database_is_made_from_the_models_at_the_newest_migration(url):
    store = await Store(url).open()
    version, differences = await schema(store)
    await store.close()
    assert version == newest()
    assert differences == []


async def test_an_old_database_is_brought_up_to_date_and_its_games_go_on(url):
    service = GameService(await Store(url).open())
    table = await create(service, "four_way", {"players": 2}, seats("person", "greedy"))
    await join_all(service, table)
    await step(service, table)
    moves, ada = table.move_number, token(table, 0)
    await service.store.close()
    await make_it_old(url, table.id, ada)

    store = await Store(url).open()
    version, _ = await schema(store)
    assert version == newest()
    async with store.engine.connect() as connection:
        columns = await connection.run_sync(
            lambda c: {t: {col["name"] for col in inspect(c).get_columns(t)} for t in LATER}
        )
        indexes = await connection.run_sync(
            lambda c: {index["name"] for index in inspect(c).get_indexes("games")}
        )
        hashed = (await connection.execute(
            text("SELECT token_hash, token FROM seats WHERE game_id = :g AND seat = 0"),
            {"g": table.id},
        )).one()  # fmt: skip
    for name, added in LATER.items():
        assert set(added) <= columns[name]
    assert "ix_games_listed" in indexes and "ix_games_to_rate" in indexes
    assert "ix_games_ratings_applied" not in indexes  # (made by 0002, replaced by 0006)
    assert hashed == (token_hash(ada), None)  # the plain token is kept no more
    service = GameService(store)
    again = await service.get(table.id)
    assert again.move_number == moves and again.record.draw_rule == 1
    service.authorize(again, 0, ada)  # Ada's link still holds her seat
    await step(service, again)
    assert again.move_number > moves
    await store.close()


async def make_it_old(url: str, game_id: str, ada: str) -> None:
    """The database as the first T-minus servers left it: no migrations, none of the later
    columns or tables, and seats that keep their plain tokens."""
    store = await Store(url).open()
    async with store.engine.begin() as connection:
        await connection.execute(text("DROP TABLE alembic_version"))
        await connection.execute(text("DROP TABLE chat"))
        await connection.execute(text("DROP TABLE bot_leases"))
        await connection.execute(text("DROP INDEX ix_games_listed"))
        later_tables = ("lessons_finished", "puzzle_tries", "puzzle_ratings", "rating_changes",
                        "ratings", "account_seats", "sessions", "accounts")  # fmt: skip
        for later in later_tables:
            await connection.execute(text(f"DROP TABLE {later}"))
        await connection.execute(text("DROP INDEX ix_games_to_rate"))
        await connection.execute(text("DROP INDEX ix_games_deadline"))
        later = ("rated", "ratings_applied", "clock", "banks", "turn_since", "deadline")
        for column in later:
            await connection.execute(text(f"ALTER TABLE games DROP COLUMN {column}"))
        await connection.execute(text("ALTER TABLE seats DROP COLUMN stand_in"))
        for table, columns in LATER.items():
            for column in columns:
                await connection.execute(text(f"ALTER TABLE {table} DROP COLUMN {column}"))
        await connection.execute(text("ALTER TABLE seats ADD COLUMN token VARCHAR(64)"))
        await connection.execute(
            text("UPDATE seats SET token = :t WHERE game_id = :g AND seat = 0"),
            {"t": ada, "g": game_id},
        )
    await store.close()


async def test_the_look_for_games_to_rate_uses_their_own_index(url):
    """The rating chore's search (every few seconds, on every process) goes through the
    index of the rated games not yet applied, not through every unrated game."""
    store = await Store(url).open()
    said: list[tuple[str, object]] = []

    def heard(_connection, _cursor, statement, parameters, _context, _many):
        if "ratings_applied" in statement:
            said.append((statement, parameters))

    event.listen(store.engine.sync_engine, "before_cursor_execute", heard)
    assert await store.games_to_rate() == []
    event.remove(store.engine.sync_engine, "before_cursor_execute", heard)
    [(statement, parameters)] = said
    async with store.engine.begin() as connection:
        if store.engine.dialect.name == "sqlite":
            explain = "EXPLAIN QUERY PLAN "
        else:  # (on a table this small the planner would rather read it all)
            await connection.exec_driver_sql("SET LOCAL enable_seqscan = off")
            explain = "EXPLAIN "
        plan = await connection.exec_driver_sql(explain + statement, parameters)
        said_plan = " ".join(str(row[-1]) for row in plan.all())
    assert "ix_games_to_rate" in said_plan, said_plan
    await store.close()
