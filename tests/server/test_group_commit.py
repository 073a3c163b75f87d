"""The group commit on SQLite: the short writes (a game made, a seat joined, a person seen, a
bots' lease taken) join the saves' next transaction instead of each holding the one
connection in turn; one that fails there fails alone. On PostgreSQL each is its own."""

from __future__ import annotations

import asyncio

import pytest

from tminus.server import storage
from tminus.server.service import GameService
from tminus.server.storage import Store

from .helpers import create, join_all, new_service, seats, step

pytestmark = pytest.mark.anyio


class Transactions:
    """Counts a store's transactions (``_run``), and holds the first group commit's saves
    at ``write_saves`` until ``release`` is set, so that what comes meanwhile waits."""

    def __init__(self, store: Store, monkeypatch) -> None:
        self.count = 0
        self.holding = asyncio.Event()
        self.release = asyncio.Event()
        run, write_saves = store._run, storage.write_saves

        async def counted(work, *, write=True):
            self.count += 1
            return await run(work, write=write)

        async def held(connection, batch, origin="", clock=None):
            if not self.release.is_set():
                self.holding.set()
                await self.release.wait()
            await write_saves(connection, batch, origin, clock)

        monkeypatch.setattr(store, "_run", counted)
        monkeypatch.setattr(storage, "write_saves", held)


async def a_game_of_two(service):
    table = await create(service, "four_way", {"players": 2}, seats("person", "greedy"))
    await join_all(service, table)
    return table


async def test_short_writes_asked_during_a_group_commit_are_committed_in_the_next_one(
    tmp_path, monkeypatch
):
    service = await new_service(tmp_path / "t.db")
    store = service.store
    table = await a_game_of_two(service)
    other = await create(service, "four_way", {"players": 2}, seats("person", "person"))
    transactions = Transactions(store, monkeypatch)
    move = asyncio.create_task(step(service, table))  # (a person's move: a save)
    await asyncio.wait_for(transactions.holding.wait(), timeout=10)
    writes = [
        asyncio.create_task(store.take_lease(table.id, "here", 30.0)),
        asyncio.create_task(store.set_joined(other.id, 1, "Bea")),
        asyncio.create_task(store.renew_seen([(other.id, 0)])),
        asyncio.create_task(store.release_leases("nobody")),
    ]
    await asyncio.sleep(0.05)  # (every one of them asked, none written)
    assert not any(write.done() for write in writes)
    transactions.release.set()
    await asyncio.wait_for(move, timeout=10)
    lease, joined, resumed, released = await asyncio.wait_for(asyncio.gather(*writes), 10)
    assert transactions.count == 2  # the move's commit, then the four writes together
    assert lease is True and resumed == set() and released is None
    assert (joined[1].joined, joined[1].name) == (True, "Bea")
    assert await store.take_lease(table.id, "there", 30.0) is False  # (held: it was stored)
    assert (await store.load(other.id)).seats[1].name == "Bea"
    await store.close()


async def test_a_short_write_that_fails_in_a_group_commit_fails_alone(tmp_path, monkeypatch):
    """A lease asked for a game that is not there (no row for it to point to) is refused;
    a move written in the same group commit is stored all the same."""
    service = await new_service(tmp_path / "t.db")
    store = service.store
    table, second = await a_game_of_two(service), await a_game_of_two(service)
    transactions = Transactions(store, monkeypatch)
    first_move = asyncio.create_task(step(service, table))
    await asyncio.wait_for(transactions.holding.wait(), timeout=10)
    taken = asyncio.create_task(store.take_lease("no-such-game", "here", 30.0))
    second_move = asyncio.create_task(step(service, second))
    await asyncio.sleep(0.05)
    transactions.release.set()
    assert await asyncio.wait_for(taken, timeout=10) is False
    await asyncio.wait_for(asyncio.gather(first_move, second_move), timeout=10)
    # the first move's commit; the lease and the second move together (refused); each alone
    assert transactions.count == 4
    assert len((await store.load(second.id)).actions) == second.move_number > 0
    await store.close()


async def test_on_postgresql_a_short_write_does_not_wait_for_the_group_commit(
    database, monkeypatch
):
    store = await Store(database).open()
    service = GameService(store)
    table = await a_game_of_two(service)
    transactions = Transactions(store, monkeypatch)
    move = asyncio.create_task(step(service, table))
    await asyncio.wait_for(transactions.holding.wait(), timeout=10)
    assert await asyncio.wait_for(store.take_lease(table.id, "here", 30.0), 10) is True
    assert not move.done()  # (the lease was committed while the save was held)
    transactions.release.set()
    await asyncio.wait_for(move, timeout=10)
    await store.close()
