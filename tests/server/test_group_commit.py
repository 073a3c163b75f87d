"""The group commit on SQLite: the short writes (a game made, a seat joined, a person seen, a
bots' lease taken) join the saves' next transaction instead of each holding the one
connection in turn; one that fails there fails alone. On PostgreSQL each is its own."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import select, update

from tminus.server import storage
from tminus.server.service import GameService
from tminus.server.storage import GameRow, SeatRow, Store

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

        async def counted(work, **how):
            self.count += 1
            return await run(work, **how)

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
    lease, (joined, was_paused), resumed, released = await asyncio.wait_for(
        asyncio.gather(*writes), 10
    )
    assert transactions.count == 2  # the move's commit, then the four writes together
    assert lease is True and resumed == set() and released is None and was_paused is False
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


async def paused(store: Store, *game_ids: str) -> None:
    async def work(connection) -> None:
        await connection.execute(
            update(GameRow).where(GameRow.id.in_(game_ids)).values(paused=True)
        )

    await store.transaction(work)


async def test_after_a_refused_group_commit_each_write_hears_its_own_answer(tmp_path, monkeypatch):
    """A batch refused as a whole (a lease for a game that is not there) is written again
    item by item: the move is stored, the join and the return answer what they did, and
    only the lease is refused."""
    service = await new_service(tmp_path / "t.db")
    store = service.store
    table = await a_game_of_two(service)
    waiting = await create(service, "four_way", {"players": 2}, seats("person", "person"))
    away = await a_game_of_two(service)
    await paused(store, away.id)
    transactions = Transactions(store, monkeypatch)
    move = asyncio.create_task(step(service, table))
    await asyncio.wait_for(transactions.holding.wait(), timeout=10)
    writes = [
        asyncio.create_task(store.set_joined(waiting.id, 1, "Bea")),
        asyncio.create_task(store.renew_seen([(away.id, 0)])),
        asyncio.create_task(store.take_lease("no-such-game", "here", 30.0)),
        asyncio.create_task(step(service, away)),  # (a save of the same batch)
    ]
    await asyncio.sleep(0.05)
    transactions.release.set()
    await asyncio.wait_for(move, timeout=10)
    (joined, _), resumed, lease, _ = await asyncio.wait_for(asyncio.gather(*writes), 10)
    assert transactions.count == 6  # the first move's; the four together, refused; each alone
    assert [(s.joined, s.name) for s in joined] == [(False, "Player 1"), (True, "Bea")]
    assert resumed == {away.id}
    assert lease is False
    assert len((await store.load(away.id)).actions) == away.move_number > 0
    await store.close()


async def test_a_short_write_given_up_before_its_group_commit_is_not_made(tmp_path, monkeypatch):
    """A join whose caller stopped waiting (a socket closed) is not written: the seat the
    game in memory knows stays the seat stored."""
    service = await new_service(tmp_path / "t.db")
    store = service.store
    table = await a_game_of_two(service)
    other = await create(service, "four_way", {"players": 2}, seats("person", "person"))
    transactions = Transactions(store, monkeypatch)
    move = asyncio.create_task(step(service, table))
    await asyncio.wait_for(transactions.holding.wait(), timeout=10)
    joined = asyncio.create_task(store.set_joined(other.id, 1, "Bea"))
    await asyncio.sleep(0.05)
    joined.cancel()
    transactions.release.set()
    await asyncio.wait_for(move, timeout=10)
    await asyncio.sleep(0.05)  # (the next group commit, had the join been kept)
    seat = (await store.load(other.id)).seats[1]
    assert (seat.joined, seat.name) == (False, "Player 2")
    await store.close()


async def test_on_postgresql_people_seen_while_one_rejoins_a_paused_game_do_not_deadlock(
    database,
):
    """The chore marking people seen and a join lock the game's row before its seats'."""
    store = await Store(database).open()
    service = GameService(store)
    table = await create(service, "four_way", {"players": 2}, seats("person", "person"))
    await join_all(service, table)
    await paused(store, table.id)
    locked, go_on = asyncio.Event(), asyncio.Event()

    async def joining(connection) -> None:  # (as ``set_joined`` does: the game, then a seat)
        await connection.execute(select(GameRow.id).where(GameRow.id == table.id).with_for_update())
        locked.set()
        await go_on.wait()
        await connection.execute(
            update(SeatRow).where(SeatRow.game_id == table.id, SeatRow.seat == 1).values(name="Bea")
        )

    join = asyncio.create_task(store.transaction(joining))
    await asyncio.wait_for(locked.wait(), timeout=10)
    seen = asyncio.create_task(store.renew_seen([(table.id, 1)]))
    await asyncio.sleep(0.3)  # (the chore waits for the game's row)
    go_on.set()
    await asyncio.wait_for(join, timeout=10)
    assert await asyncio.wait_for(seen, timeout=10) == {table.id}
    await store.close()


async def test_a_bug_met_once_in_a_group_commit_leaves_each_write_made_alone(tmp_path, monkeypatch):
    service = await new_service(tmp_path / "t.db")
    table = await a_game_of_two(service)
    write_saves, met = storage.write_saves, []

    async def broken_once(connection, batch, origin="", clock=None):
        if not met:
            met.append(len(batch))
            raise RuntimeError("planted")
        await write_saves(connection, batch, origin, clock)

    monkeypatch.setattr(storage, "write_saves", broken_once)
    await asyncio.wait_for(step(service, table), timeout=10)
    assert met == [1]
    assert len((await service.store.load(table.id)).actions) == table.move_number > 0
    await service.store.close()


async def one_batchs_status_changes_end_as_made(store: Store) -> None:
    """A batch that sets games' statuses with different fields each: every game ends as its
    last change left it, whatever the order of the shapes (a game started and finished in
    one batch ends finished, with its result)."""
    service = GameService(store)
    first, second = [
        await create(service, "four_way", {"players": 2}, seats("greedy", "greedy"))
        for _ in range(2)
    ]
    third = await create(service, "four_way", {"players": 2}, seats("person", "person"))
    result = {"returns": [1.0, -1.0], "winners": [0], "reason": "test"}
    batch = [
        storage.Save(second.id, 0, [], status="finished", result=result),
        storage.Save(first.id, 0, [], status="playing"),
        storage.Save(third.id, 0, [], status="playing"),  # (a second shape: the status alone)
        storage.Save(first.id, 0, [], status="finished", result=result),
    ]
    await store.transaction(lambda connection: storage.write_saves(connection, batch))
    for game_id in (first.id, second.id):
        stored = await store.load(game_id)
        assert (stored.status, stored.result) == ("finished", result)
    stored = await store.load(third.id)
    assert (stored.status, stored.result) == ("playing", None)
    async with store.engine.connect() as connection:
        finished = dict((await connection.execute(select(GameRow.id, GameRow.finished))).all())
        assert None not in (finished[first.id], finished[second.id])
        assert finished[third.id] is None


async def test_a_batchs_status_changes_end_as_made_on_sqlite(tmp_path):
    store = (await new_service(tmp_path / "t.db")).store
    await one_batchs_status_changes_end_as_made(store)
    await store.close()


async def test_a_batchs_status_changes_end_as_made_on_postgresql(database):
    store = await Store(database).open()
    await one_batchs_status_changes_end_as_made(store)
    await store.close()
