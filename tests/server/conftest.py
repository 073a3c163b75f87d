"""The server's coroutine tests run on asyncio (anyio's pytest plugin); ``database`` is a
PostgreSQL database of the test's own."""

import asyncio
import secrets

import pytest
from sqlalchemy.engine import make_url

from ..parts import NO_DATABASE, database_for_tests


@pytest.fixture
def anyio_backend():
    return "asyncio"


async def _admin(sql: str) -> None:
    import asyncpg

    url = make_url(database_for_tests()).set(drivername="postgresql")
    connection = await asyncpg.connect(url.render_as_string(hide_password=False))
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


@pytest.fixture
def database():
    """A fresh database next to the test database (tests/parts.py finds it;
    scripts/test-parts.sh starts one): its URL. Dropped afterwards."""
    url = database_for_tests()
    if not url:
        pytest.skip(NO_DATABASE)
    name = f"tminus_test_{secrets.token_hex(4)}"
    try:
        asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
    except Exception as error:  # e.g. a role that may not create databases
        pytest.skip(f"cannot create a database next to TMINUS_TEST_DATABASE_URL: {error}")
    yield make_url(url).set(database=name).render_as_string(hide_password=False)
    asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
