"""Pieces of several processes on one database, without PostgreSQL (test_scale_out.py has
the real thing): the news a save publishes and how another copy takes it, bot leases, and
one process per SQLite file."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections import Counter

import pytest
from typer.testing import CliRunner

from tminus.cli import app as cli
from tminus.server import replication, storage
from tminus.server.bots import BotPlayer, Leases, Thought
from tminus.server.fanout import Listener
from tminus.server.pipeline import apply, draft_of
from tminus.server.service import GameError
from tminus.server.storage import (
    FINISHED,
    MAX_NOTICE,
    Save,
    StoreError,
    hold_sqlite,
    own_notice,
    release_sqlite,
)
from tminus.server.store_notices import Chat, Moves

from .helpers import create, join_all, new_service, play_out, seats, step, token

pytestmark = pytest.mark.anyio


@pytest.fixture
def notices(monkeypatch):
    """What the saves would NOTIFY on PostgreSQL: (game id, payload) in commit order."""
    heard: list[tuple[str, str]] = []

    async def notify(_connection, pairs):
        heard.extend(pairs)  # (as another process hears them)

    monkeypatch.setattr(storage, "notify", notify)
    return heard


class Hearing(Listener):
    """Follows games as PostgreSQL's listener does, without a database: who follows what."""

    def __init__(self) -> None:
        self.wanted: Counter[str] = Counter()

    def following(self, game_id: str) -> bool:
        return self.wanted[game_id] > 0

    async def follow(self, game_id: str) -> bool:
        self.wanted[game_id] += 1
        return self.wanted[game_id] == 1  # (began to listen just now)

    def unfollow(self, game_id: str) -> None:
        self.wanted[game_id] -= 1


class Deaf(Listener):
    """A process that follows nothing: every game in memory may be behind."""

    def following(self, game_id: str) -> bool:
        return False


async def two_copies(tmp_path, listener=None):
    """One game, and two services on one file (two processes) with a copy of it each."""
    here = await new_service(tmp_path / "games.db")
    there = await new_service(tmp_path / "games.db", listener=listener)
    table = await create(here, "four_way", {}, seats("person", "person"))
    await join_all(here, table)
    return here, there, table, await there.get(table.id)


async def heard(service, game_id: str, payloads: list[str]) -> None:
    for payload in payloads:
        service.heard(game_id, payload)
    hearing = service.tables[game_id].hearing
    if hearing is not None:
        await hearing


async def test_a_copy_takes_the_news_in_order_and_reads_what_it_missed(tmp_path, notices):
    here, there, mine, theirs = await two_copies(tmp_path)
    told = []
    there.listen(lambda table: told.append(table.move_number))
    notices.clear()
    for _ in range(4):
        await step(here, mine)
    news = [payload for game_id, payload in notices if game_id == mine.id]
    assert len(news) == 4

    await heard(there, mine.id, news[:1])  # applied without reading the store
    assert theirs.state.history() == mine.state.history()[: len(theirs.log)]
    assert told == [theirs.move_number] and theirs.move_number > 0
    await heard(there, mine.id, news[:1])  # heard again (e.g. its own): nothing changes
    assert told == [theirs.move_number]
    await heard(there, mine.id, news[2:3])  # the second was missed: a gap, read from the store
    assert theirs.state.history() == mine.state.history()
    await heard(there, mine.id, news[1:])  # late news of what is known: nothing changes
    assert theirs.state.history() == mine.state.history()
    assert [e.text for e in theirs.log] == [e.text for e in mine.log]
    assert len(told) == 2
    await here.store.close()
    await there.store.close()


async def test_seats_heard_late_never_undo_what_the_copy_read_since(tmp_path, notices):
    # Two people join on two processes: the first join's notice, committed first, reaches
    # the other process after that process has put the second join in memory from the
    # store's answer (every seat as stored). Told as values, it undid that join.
    here = await new_service(tmp_path / "games.db")
    there = await new_service(tmp_path / "games.db")
    mine = await create(here, "four_way", {"players": 3}, seats("person", "person", "person"))
    theirs = await there.get(mine.id)
    notices.clear()
    await here.join(mine, 2, token(mine, 2))  # Cy, on this process: committed first
    early = [payload for game_id, payload in notices if game_id == mine.id]
    await there.join(theirs, 1, token(theirs, 1))  # Bea, on the other: sees Cy as stored
    assert [s.joined for s in theirs.record.seats] == [False, True, True]
    await heard(there, mine.id, early)  # Cy's notice, heard late: Bea's seat is not undone
    assert [s.joined for s in theirs.record.seats] == [False, True, True]
    await here.store.close()
    await there.store.close()


async def test_moves_heard_after_a_catch_up_never_set_the_copy_back(tmp_path, notices):
    here = await new_service(tmp_path / "games.db")
    there = await new_service(tmp_path / "games.db")
    mine = await create(here, "four_way", {}, seats("person", "person"))
    theirs = await there.get(mine.id)
    notices.clear()
    await join_all(here, mine)  # the game starts: its notice says "playing"
    early = [payload for game_id, payload in notices if game_id == mine.id]
    await play_out(here, mine)
    await there.replicator.catch_up(theirs)  # read past the early notices (finished)
    assert theirs.status == FINISHED
    await heard(there, mine.id, early)  # heard late: "playing" is old news
    assert theirs.status == FINISHED and theirs.state.history() == mine.state.history()
    await here.store.close()
    await there.store.close()


async def test_a_bots_estimate_is_news_to_the_other_copy(tmp_path, notices):
    here = await new_service(tmp_path / "games.db")
    there = await new_service(tmp_path / "games.db")
    mine = await create(here, "four_way", {}, seats("person", "random"))
    await join_all(here, mine)
    theirs = await there.get(mine.id)
    while mine.state.current_player() != 1:
        await step(here, mine)
    await heard(there, mine.id, [payload for _, payload in notices])
    notices.clear()
    move = mine.state.legal_actions()[0]
    assert await here.bot_move(mine, 1, mine.move_number, move, None, 0.25)
    news = [payload for game_id, payload in notices if game_id == mine.id]
    await heard(there, mine.id, news)  # applied from the notice, without the store
    assert theirs.state.history() == mine.state.history()
    assert [e.estimate for e in theirs.log] == [e.estimate for e in mine.log]
    assert 0.25 in [e.estimate for e in theirs.log]
    await here.store.close()
    await there.store.close()


async def test_seats_and_the_end_are_news_too(tmp_path, notices):
    here, there, mine, theirs = await two_copies(tmp_path)
    notices.clear()
    await here.join(mine, 0, token(mine, 0), "Ada")
    await play_out(here, mine)
    await heard(there, mine.id, [payload for _, payload in notices])
    assert theirs.record.seats[0].name == "Ada"
    assert theirs.status == FINISHED and theirs.record.result == mine.record.result
    assert theirs.state.history() == mine.state.history()
    await here.store.close()
    await there.store.close()


async def test_a_copy_nobody_here_follows_is_brought_up_to_date_before_use(tmp_path):
    here, there, mine, theirs = await two_copies(tmp_path, Deaf())
    for _ in range(3):
        await step(here, mine)
    assert theirs.move_number < mine.move_number
    assert await there.get(mine.id) is theirs
    assert theirs.state.history() == mine.state.history()
    # A move made on a copy that is behind loses its claim: stale, and the copy catches up.
    await step(here, mine)
    seat, behind = theirs.state.current_player(), theirs.move_number
    with pytest.raises(GameError) as info:
        await there.move(theirs, seat, token(mine, seat), behind, theirs.state.legal_actions()[0])
    assert info.value.code == "stale"
    assert (
        theirs.state.history() == mine.state.history() == (await there.store.load(mine.id)).actions
    )
    await here.store.close()
    await there.store.close()


async def test_a_copy_read_before_a_move_and_kept_is_brought_up_to_date(tmp_path):
    """Two requests rebuild one game at once, the first from before a move made elsewhere:
    the copy kept (the first) is brought up to date, not left behind for good."""
    here, there, mine, _ = await two_copies(tmp_path)
    there.forget(mine.id)
    load, gates = there.store.load, [asyncio.Event(), asyncio.Event()]
    read = asyncio.Event()

    async def held_load(*args, **kwargs):
        record = await load(*args, **kwargs)
        if gates:
            gate = gates.pop(0)
            read.set()
            await gate.wait()
        return record

    there.store.load = held_load
    first, second = gates
    early = asyncio.create_task(there.get(mine.id))
    await read.wait()
    read.clear()
    await step(here, mine)  # (made after the first read)
    late = asyncio.create_task(there.get(mine.id))
    await read.wait()
    first.set()
    kept = await early
    assert kept.move_number < mine.move_number  # kept from the first read
    second.set()
    assert await late is kept
    assert kept.state.history() == mine.state.history()
    await here.store.close()
    await there.store.close()


async def test_a_change_heard_while_its_game_is_read_is_not_lost(tmp_path, notices):
    """The news of a game being read from the store finds no copy to apply to: the copy
    read (perhaps from before the change) is read again once kept."""
    here, there, mine, _ = await two_copies(tmp_path)
    there.forget(mine.id)
    load, gate, read = there.store.load, asyncio.Event(), asyncio.Event()

    async def held_load(*args, **kwargs):
        record = await load(*args, **kwargs)
        read.set()
        await gate.wait()
        return record

    there.store.load = held_load
    reading = asyncio.create_task(there.get(mine.id))
    await read.wait()
    there.store.load = load
    notices.clear()
    await step(here, mine)  # (made after the read)
    for game_id, payload in notices:
        there.heard(game_id, payload)
    gate.set()
    theirs = await reading
    assert theirs.state.history() == mine.state.history()
    assert not there.replicator.missed and not there.replicator.loading
    await here.store.close()
    await there.store.close()


class FirstLegalPool:
    """Bots that play their first legal move, at once, in the test's process."""

    async def think(self, turn, legal, name):
        return Thought(legal[0])

    def stop(self) -> None:
        pass


async def test_bots_answer_a_move_made_elsewhere_on_a_game_not_in_memory(tmp_path, notices):
    here = await new_service(tmp_path / "games.db", listener=Deaf())
    there = await new_service(tmp_path / "games.db", cache_size=0)  # plays the bots
    mine = await create(here, "four_way", {}, seats("person", "random"))
    await join_all(here, mine)
    player = BotPlayer(there, FirstLegalPool(), 0, Leases(there.store, 30))

    async def bots_done() -> None:
        while player.tasks or player.chores:
            await asyncio.gather(*player.tasks.values(), *player.chores)

    assert await player.sweep() == [mine.id]
    await bots_done()
    assert mine.id in player.held and mine.id not in there.tables  # followed, not in memory
    for _ in range(3):  # the person moves here; there hears it and its bot answers
        mine = await here.get(mine.id)
        assert mine.state.current_player() == 0
        notices.clear()
        await step(here, mine)
        for game_id, payload in notices:
            there.heard(game_id, payload)
        await bots_done()
        stored = await here.store.load(mine.id)
        assert len(stored.actions) > mine.move_number  # the bot moved (and chance after it)
    await player.stop()
    await here.store.close()
    await there.store.close()


async def test_no_move_is_stored_after_the_end(tmp_path):
    """A resignation on one process and a move on another: the move is refused."""
    here, there, mine, theirs = await two_copies(tmp_path, Deaf())
    seat = theirs.state.current_player()
    await here.resign(mine, 1 - seat, token(mine, 1 - seat))
    with pytest.raises(GameError) as info:
        # (Forcing the old copy's move through, as if it had not heard of the end.)
        await there.pipeline.commit(theirs, draft_with_move(theirs))
    assert info.value.code == "stale"
    stored = await here.store.load(mine.id)
    assert stored.status == FINISHED and stored.actions == mine.state.history()
    assert theirs.status == FINISHED  # (caught up)
    await here.store.close()
    await there.store.close()


def draft_with_move(table):
    draft = draft_of(table)
    apply(table, draft, table.state.legal_actions()[0])
    return draft


def test_a_notice_too_big_for_notify_asks_to_read_the_store_and_names_its_process():
    small = Save("g", 3, [(3, 7, 0, None, 0.75)], FINISHED, {"winners": [0]}).notice("p1")
    assert '"moves":[[7,null,0.75]]' in small and '"status":"finished"' in small
    assert own_notice("p1", small) and not own_notice("p2", small)
    big = Save("g", 3, [(3, 7, 0, "x" * MAX_NOTICE, None)]).notice("p1")
    assert big == '{"by":"p1","at":3,"reload":true}'


async def test_one_process_at_a_time_holds_a_games_bots(tmp_path):
    service = await new_service(tmp_path / "games.db")
    table = await create(service, "four_way", {}, seats("person", "greedy"))
    await join_all(service, table)
    store = service.store
    assert await store.unleased(10) == [table.id]  # in play with bots, played by nobody
    mine, theirs = Leases(store, 30), Leases(store, 30)
    assert await mine.take(table.id) and mine.holds(table.id)
    assert not await theirs.take(table.id) and not theirs.holds(table.id)
    assert await store.unleased(10) == []
    assert await mine.renew() == set()
    # A holder that stops renewing (its lease runs out at once here) loses the game.
    assert await store.take_lease(table.id, mine.holder, -1)
    assert await store.unleased(10) == [table.id]
    theirs.theirs.clear()  # (forget having asked: ask the store again)
    assert await theirs.take(table.id)
    assert await mine.renew() == {table.id} and not mine.holds(table.id)
    await play_out(service, table)  # the end frees the game's lease
    async with store.engine.connect() as connection:
        rows = await connection.execute(storage.select(storage.BotLease))
        assert rows.all() == []
    assert await store.unleased(10) == []
    await store.close()


async def test_a_lease_runs_out_by_the_stores_clock_even_after_the_clock_moved(tmp_path):
    """The statement that takes a lease is made once and kept: it must follow the clock."""
    service = await new_service(tmp_path / "games.db")
    table = await create(service, "four_way", {}, seats("person", "greedy"))
    store = service.store
    assert await store.take_lease(table.id, "mine", 10)
    assert not await store.take_lease(table.id, "theirs", 10)
    store.clock.advance(11)  # mine ran out
    assert await store.take_lease(table.id, "theirs", 10)
    assert not await store.take_lease(table.id, "mine", 10)
    store.clock.advance(5)  # theirs still holds it
    assert not await store.take_lease(table.id, "mine", 10)
    assert await store.take_lease(table.id, "theirs", 10)  # renewed: 10 s from now
    store.clock.advance(9)
    assert not await store.take_lease(table.id, "mine", 10)
    await store.close()


async def test_a_lease_taken_while_the_leases_are_renewed_is_not_lost(tmp_path, monkeypatch):
    """Under load a new game's lease can be taken while the renewal is on its way to the
    store: the renewal does not name it, yet it is ours (it was taken as lost, its bots
    stopped, and nobody played them until the lease ran out)."""
    service = await new_service(tmp_path / "games.db")
    old = await create(service, "four_way", {}, seats("person", "greedy"))
    new = await create(service, "four_way", {}, seats("person", "greedy"))
    await join_all(service, old)
    await join_all(service, new)
    leases = Leases(service.store, 30)
    assert await leases.take(old.id)
    renew_leases = service.store.renew_leases

    async def renewed_before_the_take_lands(holder, seconds, game_ids):
        kept = await renew_leases(holder, seconds, game_ids)  # (the new lease is not there yet)
        assert await leases.take(new.id)
        return kept

    monkeypatch.setattr(service.store, "renew_leases", renewed_before_the_take_lands)
    assert await leases.renew() == set()
    assert leases.holds(old.id) and leases.holds(new.id)
    await service.store.close()


async def test_a_lease_released_while_the_leases_are_renewed_stays_released(tmp_path, monkeypatch):
    """A game's lease given up (its game ended) while the renewal was on its way: the
    renewal may still name it, yet it is not ours any more (another process may take it)."""
    service = await new_service(tmp_path / "games.db")
    table = await create(service, "four_way", {}, seats("person", "greedy"))
    await join_all(service, table)
    leases = Leases(service.store, 30)
    assert await leases.take(table.id)
    renew_leases = service.store.renew_leases

    async def renewed_then_released(holder, seconds, game_ids):
        kept = await renew_leases(holder, seconds, game_ids)  # (names the game)
        await leases.release([table.id])
        return kept

    monkeypatch.setattr(service.store, "renew_leases", renewed_then_released)
    assert await leases.renew() == set()
    assert not leases.holds(table.id)
    await service.store.close()


def test_a_second_process_on_one_sqlite_file_is_refused(tmp_path):
    url = f"sqlite:///{tmp_path / 'games.db'}"
    holder = subprocess.Popen(
        [sys.executable, "-c",
         f"from tminus.server.storage import hold_sqlite; hold_sqlite({url!r}); print('held', "
         "flush=True); input()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout.readline().strip() == "held"
        result = CliRunner().invoke(cli, ["serve", "--db", url])
        assert result.exit_code == 2
        assert "another T-minus server is already using" in result.output
        assert "PostgreSQL" in result.output and "Traceback" not in result.output
        with pytest.raises(StoreError, match="served by one process"):
            hold_sqlite(url)
    finally:
        holder.kill()
        holder.wait()
    hold_sqlite(url)  # its process is gone (killed): the file is free
    hold_sqlite(url)  # (one process may hold it twice)
    release_sqlite(url)
    release_sqlite(url)


async def test_a_bug_while_writing_fails_the_waiting_moves_and_the_next_move_is_written(
    tmp_path, monkeypatch
):
    """An unexpected error in the group commit, met again when each move is written alone,
    reaches every move waiting on it (none hangs) and nothing is stored; the next move is
    written as usual."""
    service = await new_service(tmp_path / "t.db")
    table = await create(service, "four_way", {"players": 2}, seats("person", "person"))
    await join_all(service, table)
    moves_before = table.move_number
    written = storage.write_saves

    async def broken(connection, batch, origin="", clock=None):
        raise RuntimeError("planted")

    monkeypatch.setattr(storage, "write_saves", broken)
    with pytest.raises(RuntimeError, match="planted"):
        await asyncio.wait_for(step(service, table), timeout=10)
    assert table.move_number == moves_before
    assert len((await service.store.load(table.id)).actions) == moves_before
    monkeypatch.setattr(storage, "write_saves", written)
    await asyncio.wait_for(step(service, table), timeout=10)
    assert len((await service.store.load(table.id)).actions) == table.move_number > moves_before
    await service.store.close()


async def test_a_pause_and_a_return_are_news_to_the_other_process(tmp_path, notices):
    """A game paused by one process is paused in the other's copy; a person back on the
    other process resumes it, and the first process hears that."""
    here, there, mine, theirs = await two_copies(tmp_path)
    notices.clear()
    assert await here.pause_abandoned(-1.0) == [mine.id]  # (everyone away: any time is long)
    assert mine.record.paused
    await heard(there, mine.id, [payload for _, payload in notices])
    assert theirs.record.paused
    notices.clear()
    await there.renew_seen([(mine.id, 0)])  # Ada opens the game on the other process
    assert not theirs.record.paused
    await heard(here, mine.id, [payload for _, payload in notices])
    assert not mine.record.paused
    await here.store.close()
    await there.store.close()


def test_a_bot_worker_answers_with_the_move_and_the_bots_estimate():
    from tests.four_way.helpers import play, started
    from tminus.agents.solvers.four_way import FourWaySolverAgent
    from tminus.games.four_way.game import FourWayGame
    from tminus.server.bots import Turn, think

    state = play(started(), "dice 3,4")  # seat 0 to flip
    game = state.game
    turn = Turn("g", FourWayGame, dict(game.params), tuple(state.history()), 0, "solver", 1)
    action, estimate = think(turn, budget=30.0)
    solver = FourWaySolverAgent(game)
    assert action in state.legal_actions()
    assert estimate == solver.chance_to_win(state, action)  # the exact chance, as said
    turn = Turn("h", FourWayGame, dict(game.params), tuple(state.history()), 0, "greedy", 1)
    assert think(turn, budget=30.0)[1] is None  # greedy keeps no estimate


async def test_table_talk_heard_with_news_that_cannot_be_applied_is_still_said(
    tmp_path, monkeypatch
):
    # The store fails while the copy catches up on a gap: the copy is dropped, and the
    # line of table talk heard after the gap still reaches the sockets here.
    here, there, mine, theirs = await two_copies(tmp_path)
    lines = []
    there.listen_chat(lambda table, said: lines.extend(said))

    async def failing_load(game_id, **options):
        raise storage.StoreError("the database is locked")

    monkeypatch.setattr(there.store, "load", failing_load)
    line = {"index": 0, "seat": 0, "text": "gg", "at": 0}
    gap = storage.said_by("p1", Moves(at=theirs.move_number + 5, moves=[]))
    await heard(there, mine.id, [gap, storage.said_by("p1", Chat(chat=[line]))])
    assert lines == [line]
    assert mine.id not in there.tables  # read anew when next used
    await here.store.close()
    await there.store.close()


async def bots_turn(tmp_path):
    """A 4-Way game of a person and a bot, at the bot's turn, and a player of its bots."""
    service = await new_service(tmp_path / "games.db")
    table = await create(service, "four_way", {}, seats("person", "random"))
    await join_all(service, table)
    while table.bot_to_move() is None:
        await step(service, table)
    return service, table, BotPlayer(service, FirstLegalPool(), 0, Leases(service.store, 30))


def failing_reads(monkeypatch, service, errors: list[GameError]) -> None:
    """The service's reads fail with ``errors``, one a read, then work again."""
    read = service.get

    async def get(game_id, *args, **kwargs):
        if errors:
            raise errors.pop(0)
        return await read(game_id, *args, **kwargs)

    monkeypatch.setattr(service, "get", get)


async def test_bots_stopped_by_a_store_outage_play_again_once_it_answers(tmp_path, monkeypatch):
    """Issue 40: after an outage, games sat at a bot's turn for good (the task had ended,
    its lease still renewed). Now the keeper plays them again once the store answers."""
    service, table, player = await bots_turn(tmp_path)
    before = table.move_number
    outage = GameError("unavailable", "the database cannot be reached")
    failing_reads(monkeypatch, service, [outage, outage])
    player.changed(table)
    await asyncio.gather(*player.tasks.values())
    assert table.id in player.stalled and player.leases.holds(table.id)  # kept, not dropped
    assert (await service.store.load(table.id)).actions[before:] == []
    await player.restart_stalled()  # the store still fails: it waits on
    assert table.id in player.stalled
    await player.restart_stalled()  # the store answers: the bot plays
    await asyncio.gather(*player.tasks.values())
    assert player.stalled == set()
    assert len((await service.store.load(table.id)).actions) > before
    await player.stop()
    await service.store.close()


async def test_bots_stopped_by_any_other_error_let_their_lease_go(tmp_path, monkeypatch):
    service, table, player = await bots_turn(tmp_path)
    failing_reads(monkeypatch, service, [GameError("broken", "the log no longer replays")])
    player.changed(table)
    await asyncio.gather(*player.tasks.values())
    await asyncio.gather(*player.chores)
    assert not player.leases.holds(table.id) and table.id not in player.held
    assert table.id in await service.store.unleased(10)  # another process may take it
    await player.stop()
    await service.store.close()


async def test_table_talk_missed_while_not_listening_is_read_back(tmp_path, notices):
    """Issue 40: after a lost LISTEN connection, one process's history and live feed lacked
    lines the database held. Catching up reads the talk back too, and tells it."""
    here, there, table, copy = await two_copies(tmp_path)
    assert await there.chat_history(copy) == []  # read once: kept in memory from now on
    told: list[str] = []
    there.listen_chat(lambda _table, lines: told.extend(x["text"] for x in lines))
    for words in ("good luck", "have fun"):
        await here.say(table, 0, token(table, 0), words)  # (there does not hear of it)
    assert await there.chat_history(copy) == []
    await there.catch_up(copy)
    assert [line["text"] for line in await there.chat_history(copy)] == ["good luck", "have fun"]
    assert told == ["good luck", "have fun"]
    await there.catch_up(copy)  # nothing new: nothing told twice
    assert told == ["good luck", "have fun"]
    await here.store.close()
    await there.store.close()


def read_backs(service, monkeypatch) -> list[str]:
    """The games ``service`` reads back from the store (catches up with), in order."""
    read_back: list[str] = []
    catch_up = service.replicator.catch_up

    async def counted_catch_up(table):
        read_back.append(table.id)
        await catch_up(table)

    monkeypatch.setattr(service.replicator, "catch_up", counted_catch_up)
    return read_back


async def test_a_game_made_here_is_followed_from_before_it_is_stored_and_not_read_back(
    tmp_path, monkeypatch
):
    hearing = Hearing()
    service = await new_service(tmp_path / "games.db", listener=hearing)
    followed_when_stored = []
    store_create = service.store.create

    async def create_game(record):
        followed_when_stored.append(hearing.following(record.id))
        await store_create(record)

    monkeypatch.setattr(service.store, "create", create_game)
    read_back = read_backs(service, monkeypatch)
    table = await create(service, "four_way", {}, seats("person", "person"))
    assert followed_when_stored == [True]
    await service.watch(table)  # (its first socket)
    assert read_back == []
    service.unwatch(table)
    assert hearing.wanted[table.id] == 1  # (still held as a new game)
    # Once the hold ends, nobody here follows it: a socket then reads it back.
    monkeypatch.setattr(replication, "NEW_GAME_FOLLOWED", 0.05)
    later = await create(service, "four_way", {}, seats("person", "person"))
    await asyncio.sleep(0.3)
    assert not hearing.following(later.id)
    await service.watch(later)
    assert read_back == [later.id]
    service.unwatch(later)


async def test_news_of_a_new_game_heard_before_its_copy_is_kept_is_read(tmp_path, monkeypatch):
    """Between the insert's commit and the copy kept in memory, another process may already
    change the game: its news then find no copy to go to, so the game is read once more."""
    service = await new_service(tmp_path / "games.db", listener=Hearing())
    store_create = service.store.create

    async def create_then_hear(record):
        await store_create(record)
        service.replicator.heard(record.id, "(another process's news)")  # (no copy yet)

    monkeypatch.setattr(service.store, "create", create_then_hear)
    read_back = read_backs(service, monkeypatch)
    table = await create(service, "four_way", {}, seats("person", "person"))
    assert read_back == [table.id]
    assert not service.replicator.missed  # (said once, then forgotten)


async def test_a_game_that_could_not_be_stored_is_let_go_at_once(tmp_path, monkeypatch):
    hearing = Hearing()
    service = await new_service(tmp_path / "games.db", listener=hearing)
    tried = []

    async def refuse(record):
        tried.append(record.id)
        raise StoreError("the disk is full")

    monkeypatch.setattr(service.store, "create", refuse)
    with pytest.raises(GameError, match="the disk is full"):
        await create(service, "four_way", {}, seats("person", "person"))
    assert len(tried) == 1 and not hearing.following(tried[0])
    assert tried[0] not in service.replicator.loading
    await service.store.close()


async def test_a_game_let_go_after_its_hold_ended_is_unfollowed_once(tmp_path, monkeypatch):
    """A store slower than the hold: the hold's end and the failure each let the game go,
    and only one of them unfollows it (a second would undo another follower's follow)."""
    monkeypatch.setattr(replication, "NEW_GAME_FOLLOWED", 0.01)
    hearing = Hearing()
    service = await new_service(tmp_path / "games.db", listener=hearing)
    tried = []

    async def refuse_slowly(record):
        tried.append(record.id)
        await asyncio.sleep(0.1)  # (the hold ends meanwhile)
        raise StoreError("the disk is full")

    monkeypatch.setattr(service.store, "create", refuse_slowly)
    with pytest.raises(GameError, match="the disk is full"):
        await create(service, "four_way", {}, seats("person", "person"))
    assert hearing.wanted[tried[0]] == 0
    await service.store.close()
