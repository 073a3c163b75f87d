"""The store on PostgreSQL, when a server is given: TMINUS_TEST_DATABASE_URL=postgresql+psycopg://...

Skipped otherwise (SQLite, the default, is tested everywhere else). The tables of that
database are dropped and made anew.
"""

from __future__ import annotations

import os

import pytest

from tminus.server.fairness import verify_export
from tminus.server.service import GameService
from tminus.server.storage import FINISHED, Base, Store

from .helpers import join_all, play_out, seats, step

URL = os.environ.get("TMINUS_TEST_DATABASE_URL")
pytestmark = pytest.mark.skipif(not URL, reason="set TMINUS_TEST_DATABASE_URL to test PostgreSQL")


@pytest.fixture
def store():
    store = Store(URL)
    Base.metadata.drop_all(store.engine)
    Base.metadata.create_all(store.engine)
    yield store
    store.close()


def test_games_are_stored_rebuilt_and_verified_on_postgresql(store):
    service = GameService(store)
    table = service.create("four_way", {"players": 3}, seats("person", "greedy", "random"))
    join_all(service, table)
    for _ in range(20):
        step(service, table)
    rebuilt = GameService(Store(URL)).get(table.id)
    assert rebuilt.state.history() == table.state.history()
    play_out(service, table)
    assert store.load(table.id).status == FINISHED
    assert verify_export(service.export(table)).ok
    assert service.recent(5)[0]["id"] == table.id
