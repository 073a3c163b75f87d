"""The store on a real PostgreSQL (tests/parts.py finds it; scripts/test-parts.sh starts one).

Skipped without one, except on CI (SQLite, the default, is tested everywhere else). The tables
of that database are dropped and made anew.
"""

from __future__ import annotations

import asyncio
import json
from functools import partial

import asyncpg
import pytest
from sqlalchemy import select, text, update

from tminus.server import store_writes
from tminus.server.fairness import verify_export
from tminus.server.service import GameError, GameService
from tminus.server.storage import (
    FINISHED,
    PLAYING,
    WAITING,
    BotLease,
    ClaimLost,
    GameRow,
    Save,
    Store,
    StoreError,
    channel,
    listen_dsn,
    write_saves,
)  # fmt: skip

from ..parts import NO_DATABASE, database_for_tests
from .helpers import create, join_all, play_out, seats, step, token
from .test_clocks import clocked_game, move

URL = database_for_tests()
pytestmark = [
    pytest.mark.skipif(not URL, reason=NO_DATABASE),
    pytest.mark.anyio,
]


@pytest.fixture
async def store(database):
    """A store on a database of its own (``database``, tests/server/conftest.py): tests on
    other workers use the test server at the same time."""
    store = await Store(database).open()
    yield store
    await store.close()


async def test_games_are_stored_rebuilt_and_verified_on_postgresql(store):
    service = GameService(store)
    table = await create(service, "four_way", {"players": 3}, seats("person", "greedy", "random"))
    await join_all(service, table)
    for _ in range(20):
        await step(service, table)
    other = await Store(store.url).open()
    rebuilt = await GameService(other).get(table.id)
    assert rebuilt.state.history() == table.state.history()
    await play_out(service, table)
    assert (await store.load(table.id)).status == FINISHED
    assert verify_export(service.export(table)).ok
    assert (await service.recent(5))[0]["id"] == table.id
    await other.close()


async def test_a_move_claimed_twice_on_postgresql_is_applied_once(store):
    service = GameService(store)
    mine = await create(service, "four_way", {}, seats("person", "person"))
    await join_all(service, mine)
    other = await Store(store.url).open()
    theirs = await GameService(other).get(mine.id)
    seat = mine.state.current_player()
    legal = mine.state.legal_actions()
    await service.move(theirs, seat, token(mine, seat), theirs.move_number, legal[0])
    with pytest.raises(GameError) as info:
        await service.move(mine, seat, token(mine, seat), mine.move_number, legal[-1])
    assert info.value.code == "stale"
    assert (await store.load(mine.id)).actions == theirs.state.history()
    await other.close()


async def test_a_read_sees_one_moment_of_the_database(store):
    """A game's row, seats and log are read together: never a change committed between."""
    service = GameService(store)
    table = await create(service, "four_way", {}, seats("person", "person"))
    other = await Store(store.url).open()
    status = select(GameRow.status).where(GameRow.id == table.id)

    async def read_twice(connection):
        first = await connection.scalar(status)
        async with other.engine.begin() as writer:  # committed between the two reads
            await writer.execute(
                update(GameRow).where(GameRow.id == table.id).values(status=PLAYING)
            )
        return first, await connection.scalar(status)

    assert await store._run(read_twice, write=False) == (WAITING, WAITING)
    assert (await store.load(table.id)).status == PLAYING
    await other.close()


async def listen(store: Store, game_ids) -> tuple[asyncpg.Connection, list[tuple[str, str]]]:
    """A connection that hears the games' notices, and the list of (channel, payload) heard."""
    heard: list[tuple[str, str]] = []
    listening = await asyncpg.connect(listen_dsn(store.url))
    for game_id in game_ids:
        await listening.add_listener(
            channel(game_id), lambda _c, _p, name, text: heard.append((name, text))
        )
    return listening, heard


async def finished_and_lease(store: Store, game_id: str) -> tuple[bool, str | None]:
    """Whether the game's row has a time finished, and who holds its bots' lease."""
    async with store.engine.connect() as connection:
        finished = await connection.scalar(select(GameRow.finished).where(GameRow.id == game_id))
        holder = await connection.scalar(select(BotLease.holder).where(BotLease.game_id == game_id))
    return finished is not None, holder


async def heard_within(heard: list, count: int) -> None:
    for _ in range(100):
        if len(heard) >= count:
            break
        await asyncio.sleep(0.02)


@pytest.fixture
def one_statements(monkeypatch) -> list[int]:
    """The sizes of the batches written as one statement committed by itself (on a
    connection that commits each statement so: ``Store._run_held``), as they are written."""
    sizes: list[int] = []
    written = store_writes.write_in_one_statement

    async def counted(connection, batch, told):
        if store_writes.commits_each_statement(connection):
            sizes.append(len(batch))
        await written(connection, batch, told)

    monkeypatch.setattr(store_writes, "write_in_one_statement", counted)
    return sizes


@pytest.mark.parametrize("autocommit", [False, True], ids=["in-a-transaction", "one-statement"])
async def test_a_group_commit_writes_on_postgresql_what_it_writes_on_sqlite(
    store, tmp_path, autocommit, one_statements
):
    """On PostgreSQL a batch is one statement of arrays (``write_in_one_statement``), in a
    transaction or committed by itself on a connection that commits each statement so: read
    back, either way, the games are what SQLite's statements one by one make of the same batch
    (turns, statuses, results, the time finished, bot leases), and the notices are heard in
    the order of the saves."""
    lite = await Store(f"sqlite:///{tmp_path / 'games.db'}").open()
    service = GameService(store)
    ids = []
    for _ in range(3):
        table = await create(service, "four_way", {}, seats("person", "person"))
        await lite.create(await store.load(table.id))
        ids.append(table.id)
    first, second, third = ids
    for each in (store, lite):
        assert await each.take_lease(third, "here", 30.0) and await each.take_lease(
            second, "here", 30.0
        )
        before = [Save(third, 0, [], to_move=1)]  # (kept when only its status changes)
        await each._run(lambda connection, b=before: write_saves(connection, b))
    result = {"returns": [1.0, -1.0], "winners": [0], "reason": "test"}
    batch = [
        Save(
            first,
            0,
            [(0, 5, 0, None, None), (1, 3, -1, "a bot fell back", None)],
            to_move=1,
            status=PLAYING,
            expect=WAITING,
        ),
        Save(second, 0, [(0, 2, 1, None, 0.25)], to_move=-1),  # (nobody's turn)
        Save(first, 2, [(2, 7, 1, None, 0.5)], to_move=0),  # (the game's last save counts)
        Save(third, 0, [(0, 4, 0, None, None)], status=FINISHED, result=result, expect=WAITING),
    ]
    listening, heard = await listen(store, ids)
    await store._run(partial(write_saves, batch=batch, origin="here"), autocommit=autocommit)
    await lite._run(lambda connection: write_saves(connection, batch, "here"))
    for game_id in ids:
        written, expected = await store.load(game_id), await lite.load(game_id)
        assert (
            written.actions, written.actors, written.notes, written.estimates, written.to_move,
            written.status, written.result, await finished_and_lease(store, game_id),
        ) == (
            expected.actions, expected.actors, expected.notes, expected.estimates,
            expected.to_move, expected.status, expected.result,
            await finished_and_lease(lite, game_id),
        )  # fmt: skip
    assert (await store.load(first)).notes == [None, "a bot fell back", None]
    assert (await store.load(first)).to_move == 0 and (await store.load(second)).to_move is None
    assert (await store.load(first)).status == PLAYING and (await store.load(third)).to_move == 1
    assert one_statements == [len(batch)] * autocommit
    finished = await store.load(third)
    assert (finished.status, finished.result) == (FINISHED, result)
    assert await finished_and_lease(store, third) == (True, None)
    assert await finished_and_lease(store, first) == (False, None)
    assert await finished_and_lease(store, second) == (False, "here")
    await heard_within(heard, len(batch))
    assert heard == [(channel(save.game_id), save.notice("here")) for save in batch]
    await listening.close()
    await lite.close()


@pytest.mark.parametrize("lost", ["a status not expected", "a place in the log taken"])
async def test_a_batch_in_one_statement_that_loses_a_claim_writes_and_tells_nothing(
    store, lost, one_statements
):
    """``write_in_one_statement``: if one game of the batch is not in the status its save
    expects, or one row's place in the log is taken, ClaimLost, and no game of the batch
    changes, and nothing is told."""
    service = GameService(store)
    tables = [await create(service, "four_way", {}, seats("person", "person")) for _ in range(2)]
    first, second = [table.id for table in tables]
    taken = Save(second, 0, [(0, 1, 0, None, None)])
    await store._run(lambda connection: write_saves(connection, [taken]), autocommit=True)
    before = [await store.load(game_id) for game_id in (first, second)]
    index = 0 if lost == "a place in the log taken" else 1
    batch = [
        Save(first, 0, [(0, 5, 0, None, None)], to_move=1, status=PLAYING, expect=WAITING),
        Save(second, index, [(index, 2, 1, None, None)], to_move=1, expect=WAITING),
    ]
    if lost == "a status not expected":
        batch[1].expect = PLAYING
    listening, heard = await listen(store, (first, second))
    with pytest.raises(ClaimLost):
        await store._run(lambda connection: write_saves(connection, batch), autocommit=True)
    assert one_statements == [1, len(batch)]
    for game_id, was in zip((first, second), before, strict=True):
        now = await store.load(game_id)
        assert (now.actions, now.status, now.to_move) == (was.actions, was.status, was.to_move)
    await asyncio.sleep(0.3)
    assert heard == []
    await listening.close()


async def test_the_connection_held_for_group_commits_outlives_a_lost_claim_not_a_failure(store):
    """The group commits' connection is kept from one to the next, through a lost claim; one
    that fails (its server process ended, as in a restart) is dropped: that commit fails,
    and the next one opens another connection."""
    service = GameService(store)
    table = await create(service, "four_way", {}, seats("person", "person"))

    async def commit(*saves: Save) -> None:
        await store._run(partial(write_saves, batch=list(saves)), autocommit=True)

    await commit(Save(table.id, 0, [(0, 1, 0, None, None)]))
    held = store.held
    assert held is not None
    with pytest.raises(ClaimLost):
        await commit(Save(table.id, 0, [(0, 2, 0, None, None)]))
    await commit(Save(table.id, 1, [(1, 2, 0, None, None)]))
    assert store.held is held
    pid = (await held.get_raw_connection()).driver_connection.get_server_pid()
    async with store.engine.connect() as connection:
        assert await connection.scalar(text(f"SELECT pg_terminate_backend({pid})"))
    with pytest.raises(StoreError):
        await commit(Save(table.id, 2, [(2, 3, 0, None, None)]))
    assert store.held is None
    await commit(Save(table.id, 2, [(2, 3, 0, None, None)]))
    assert (await store.load(table.id)).actions == [1, 2, 3]
    assert store.held not in (None, held)


async def test_a_clock_is_never_charged_on_a_connection_that_commits_each_statement(store):
    """Charging a clock takes statements of its own before the batch's: they would each be
    committed by themselves, so such a batch is refused there, and nothing is written."""
    service = GameService(store)
    table = await create(service, "four_way", {}, seats("person", "person"))
    timed = Save(table.id, 0, [(0, 1, 0, None, None)], to_move=1, clocked=True)
    with pytest.raises(ValueError, match="clock"):
        await store._run(partial(write_saves, batch=[timed]), autocommit=True)
    assert (await store.load(table.id)).actions == []


async def test_closing_the_store_lets_a_group_commit_under_way_end_and_opens_no_other(store):
    """``close`` waits for the group commit being written on the held connection (it is not
    cut off), and no commit opens a connection after it."""
    service = GameService(store)
    table = await create(service, "four_way", {}, seats("person", "person"))
    await store.save(Save(table.id, 0, [(0, 1, 0, None, None)]))
    assert store.held is not None
    under_way = asyncio.create_task(store.save(Save(table.id, 1, [(1, 2, 0, None, None)])))
    await asyncio.sleep(0)  # (its writer has begun)
    await store.close()
    await under_way
    assert store.held is None
    with pytest.raises(StoreError, match="closed"):
        await store._run(partial(write_saves, batch=[]), autocommit=True)
    again = await Store(store.url).open()
    assert (await again.load(table.id)).actions == [1, 2]
    await again.close()


async def test_the_group_commit_on_postgresql_is_one_statement_unless_a_clock_is_charged(
    store, tmp_path, one_statements
):
    """Moves of games without a clock are written in one statement by themselves; a move of
    a game with a clock (charged in statements of their own) in a transaction."""
    service = GameService(store)
    table = await create(service, "four_way", {}, seats("person", "person"))
    await join_all(service, table)
    await step(service, table)
    timed = await clocked_game(service)
    await move(service, timed)
    assert len(one_statements) >= 2  # (the start, perhaps with chance, and the move)
    assert (await store.load(table.id)).actions == table.state.history()
    written = len(one_statements)
    await move(service, timed)  # (written in a transaction: the clocks are charged)
    assert len(one_statements) == written
    plain = Save("a", 1, [(1, 0, 0, None, None)], to_move=1)
    timed = Save("b", 1, [(1, 0, 0, None, None)], to_move=1, clocked=True)
    unturned = Save("b", 1, [(1, 0, 0, None, None)], clocked=True)  # (its clock runs on)
    assert store.one_statement([plain, unturned]) and not store.one_statement([plain, timed])
    lite = await Store(f"sqlite:///{tmp_path / 'games.db'}").open()
    assert not lite.one_statement([plain])
    await lite.close()


async def test_a_clocked_games_move_is_told_on_postgresql_with_its_clocks(store):
    """The notice goes in the statement of the rows, after the clocks are charged: it tells
    the other processes the clocks as stored."""
    service = GameService(store)
    table = await clocked_game(service)
    heard: list[dict] = []
    listening = await asyncpg.connect(listen_dsn(store.url))
    await listening.add_listener(
        channel(table.id), lambda _c, _p, _name, text: heard.append(json.loads(text))
    )
    await move(service, table)
    for _ in range(100):
        if heard:
            break
        await asyncio.sleep(0.02)
    await listening.close()
    told = [notice for notice in heard if notice.get("moves")]
    assert len(told) == 1 and told[0]["clocks"] is not None
    stored = await store.load(table.id)
    assert told[0]["clocks"]["left"] == [round(bank, 1) for bank in stored.clocks["left"]]
    assert told[0]["clocks"]["to_move"] == stored.to_move == table.state.current_player()


@pytest.mark.parametrize("sweep", ["pause_abandoned", "expire_waiting"])
async def test_a_sweep_locks_its_games_in_the_order_of_their_ids(store, sweep):
    """A sweep over many games (pausing the abandoned, expiring the unjoined) locks their
    rows in the order of their ids, as a group commit does. Held on the lowest id, it holds
    no other game while it waits: locking them in the order it found them, it could hold one
    a group commit waits for while it waits for one that commit holds (a deadlock)."""
    service = GameService(store)
    in_table_order = text("SELECT id FROM games ORDER BY ctid")  # (as a scan finds them)
    async with store.engine.connect() as connection:
        while True:  # until a scan would find some game before the one of the lowest id
            table = await create(service, "four_way", {}, seats("person", "person"))
            if sweep == "pause_abandoned":
                await join_all(service, table)  # (in play, its people away from now on)
            found = list(await connection.scalars(in_table_order))
            await connection.rollback()
            if found[0] != min(found):
                break
    lowest, *others = sorted(found)
    lock = "SELECT id FROM games WHERE id = :id FOR UPDATE"
    async with store.engine.connect() as holder:
        await holder.execute(text(lock), {"id": lowest})
        pid = await holder.scalar(text("SELECT pg_backend_pid()"))
        swept = asyncio.create_task(getattr(store, sweep)(-1.0))  # (any age is old enough)
        waiting = text(  # (waiting for the holder: not for another test's lock)
            "SELECT count(*) FROM pg_stat_activity WHERE :pid = ANY(pg_blocking_pids(pid))"
        )
        async with store.engine.connect() as watcher:
            for _ in range(200):
                if await watcher.scalar(waiting, {"pid": pid}):
                    break
                await watcher.rollback()
                await asyncio.sleep(0.02)
            else:
                pytest.fail("the sweep never waited for the lowest game")
        for game_id in others:  # none of them is held by the sweep
            await holder.execute(text(lock + " NOWAIT"), {"id": game_id})
        await holder.rollback()
    assert sorted(await swept) == sorted(found)
