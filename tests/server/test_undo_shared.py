"""Undo on several processes, without PostgreSQL (test_undo_scale_out.py has the real thing):
two services on one file, each with its copy of a game. A take-back is claimed like a move:
a move and a take-back racing for one place never both succeed; the last yes is counted by
the store, not by a copy; another copy applies the request and the take-back it hears."""

from __future__ import annotations

import pytest

from tminus.server import storage, undo
from tminus.server.fanout import Listener
from tminus.server.service import GameError
from tminus.server.takeback import TAKE_BACK

from .helpers import new_service, step, token
from .test_shared import Deaf, heard
from .test_undo import a_game, until_undoable

pytestmark = pytest.mark.anyio


@pytest.fixture
def notices(monkeypatch):
    """What the saves and the take-back requests would NOTIFY on PostgreSQL: (game id,
    payload) in commit order."""
    told: list[tuple[str, str]] = []

    async def notify(_connection, pairs):
        told.extend(pairs)  # (as another process hears them)

    for module in (storage, undo):
        monkeypatch.setattr(module, "notify", notify)
    return told


async def two_copies(tmp_path, players: int = 2, listener=None):
    here = await new_service(tmp_path / "games.db")
    # (Deaf: hears nothing, so it is brought up to date when read.)
    there = await new_service(tmp_path / "games.db", listener=listener or Deaf())
    kinds = ["person"] * players
    mine = await a_game(here, kinds=kinds, params={"players": players})
    asker = await until_undoable(here, mine)
    return here, there, mine, await there.get(mine.id), asker


async def close(*services) -> None:
    for service in services:
        await service.store.close()


async def test_a_take_back_then_a_move_for_the_same_place_the_move_is_stale(tmp_path):
    here, there, mine, theirs, asker = await two_copies(tmp_path)
    at = mine.move_number
    await here.take_back(mine, asker, token(mine, asker), at)
    await here.answer_take_back(mine, 1 - asker, token(mine, 1 - asker), at, True)
    # The other copy has not heard of it: the asker's next move there claims the same place.
    assert theirs.move_number == at
    with pytest.raises(GameError) as info:
        action = theirs.state.legal_actions()[0]
        await there.move(theirs, asker, token(mine, asker), at, action)
    assert info.value.code == "stale"
    stored = await here.store.load(mine.id)
    assert stored.actions[at] == TAKE_BACK and len(stored.actions) == at + 1
    assert theirs.state.history() == mine.state.history()  # (caught up)
    assert theirs.log[-1].action == TAKE_BACK and theirs.taken == 2
    await close(here, there)


async def test_a_move_then_the_last_yes_for_the_same_place_the_yes_is_stale(tmp_path):
    here, there, mine, theirs, asker = await two_copies(tmp_path)
    at = mine.move_number
    await here.take_back(mine, asker, token(mine, asker), at)
    theirs = await there.get(mine.id)  # (reads the request)
    assert theirs.record.take_back["answer"] == "asked"
    await step(here, mine)  # the asker plays on instead, here
    with pytest.raises(GameError) as info:
        await there.answer_take_back(theirs, 1 - asker, token(mine, 1 - asker), at, True)
    assert info.value.code == "stale"
    stored = await here.store.load(mine.id)
    assert TAKE_BACK not in stored.actions and stored.take_back["answer"] == "asked"
    assert theirs.state.history() == mine.state.history() == stored.actions
    assert there.view(theirs, 1 - asker)["take_back"] is None  # (the move ended the request)
    await close(here, there)


async def test_the_last_yes_is_counted_by_the_store_not_by_a_copy(tmp_path):
    """Three people; the second yes is given on a copy that has not heard of the first."""
    here, there, mine, theirs, asker = await two_copies(tmp_path, players=3)
    at = mine.move_number
    first, second = (s for s in range(3) if s != asker)
    await here.take_back(mine, asker, token(mine, asker), at)
    theirs = await there.get(mine.id)
    await here.answer_take_back(mine, first, token(mine, first), at, True)
    assert theirs.record.take_back["accepted"] == []  # (not heard)
    assert await there.answer_take_back(theirs, second, token(mine, second), at, True)
    stored = await here.store.load(mine.id)
    assert stored.actions[at:] == [TAKE_BACK] and stored.take_back["answer"] == "accepted"
    assert stored.take_back["accepted"] == [first, second]
    assert theirs.state.history() == stored.actions[: at - 1]
    await close(here, there)


async def test_another_process_applies_the_request_and_the_take_back_it_hears(tmp_path, notices):
    here, there, mine, theirs, asker = await two_copies(tmp_path, listener=Listener())
    at = mine.move_number
    notices.clear()
    await here.take_back(mine, asker, token(mine, asker), at)
    await heard(there, mine.id, [payload for _, payload in notices])
    other = 1 - asker
    assert there.view(theirs, other)["take_back"] == here.view(mine, other)["take_back"]
    notices.clear()
    await here.answer_take_back(mine, other, token(mine, other), at, True)
    news = [payload for _, payload in notices]
    await heard(there, mine.id, news)
    assert theirs.state.history() == mine.state.history()
    assert [e.text for e in theirs.log] == [e.text for e in mine.log]
    assert theirs.taken == mine.taken == 2
    assert there.view(theirs, other) | {"take_back": 0} == here.view(mine, other) | {"take_back": 0}
    assert theirs.record.take_back == mine.record.take_back
    await heard(there, mine.id, news)  # heard twice: nothing changes
    assert theirs.move_number == mine.move_number
    await step(here, mine)  # and the game goes on there as here
    notices_after = [payload for _, payload in notices if payload not in news]
    await heard(there, mine.id, notices_after)
    assert theirs.state.history() == mine.state.history()
    await close(here, there)


async def test_two_take_backs_in_a_row_and_a_gap_read_from_the_store(tmp_path, notices):
    here, there, mine, theirs, _ = await two_copies(tmp_path, listener=Listener())
    notices.clear()
    for _ in range(2):  # (sputnik: a move, then a galaxy removed, both taken back)
        seat = await until_undoable(here, mine)
        at = mine.move_number
        await here.take_back(mine, seat, token(mine, seat), at)
        await here.answer_take_back(mine, 1 - seat, token(mine, 1 - seat), at, True)
    moves = [p for _, p in notices if '"moves"' in p]
    await heard(there, mine.id, moves[-1:])  # only the last: a gap, read from the store
    assert theirs.state.history() == mine.state.history()
    assert theirs.taken == mine.taken == 4
    assert theirs.record.take_back == mine.record.take_back
    await close(here, there)
