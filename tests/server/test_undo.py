"""Undo (issue 14): a player asks to take back their last move, the other people answer.

The service on a SQLite file: accepted, refused, not the last move, after chance, bots off
and on, a request ended by a move; the log, the export, `verify`, the replay and a game
rebuilt from the store stay exact, and a chance outcome after a move played again is the
one it would have been with no take-back."""

from __future__ import annotations

import pytest

from tminus.server.fairness import verify_export
from tminus.server.service import GameError, put_names
from tminus.server.takeback import TAKE_BACK
from tminus.server.undo import may_ask

from .helpers import join_all, new_service, play_out, seats, step, token

pytestmark = pytest.mark.anyio


async def a_game(service, game="sputnik", kinds=("person", "person"), params=None, **options):
    table = await create_with(service, game, params or {}, seats(*kinds), **options)
    await join_all(service, table)
    return table


async def create_with(service, game, params, kinds, **options):
    from .helpers import TOKENS

    created = await service.create(game, params, kinds, **options)
    TOKENS[created.table.id] = created.tokens
    return created.table


async def until_undoable(service, table, limit: int = 500) -> int:
    """First legal moves until a person's own decision is the last standing action: their
    seat (who may ask now)."""
    for _ in range(limit):
        seat = may_ask(table)
        if seat is not None:
            return seat
        assert not table.state.is_terminal(), "the game ended before a move could be taken back"
        await step(service, table)
    raise AssertionError("no move could be taken back")


async def ask(service, table, seat):
    await service.take_back(table, seat, token(table, seat), table.move_number)


async def answer(service, table, seat, accept):
    return await service.answer_take_back(
        table, seat, token(table, seat), table.move_number, accept
    )


async def refused(work, code: str, words: str) -> None:
    with pytest.raises(GameError) as info:
        await work
    assert info.value.code == code and words in info.value.message, info.value.message


def talk(table) -> list[str]:
    return [line["text"] for line in table.chat or []]


async def test_an_accepted_take_back_undoes_the_move_and_the_log_keeps_both(tmp_path):
    service = await new_service(tmp_path / "games.db")
    table = await a_game(service)
    await service.chat_history(table)  # (the table talk, kept in memory from now on)
    await service.join(table, 0, token(table, 0), "Ada")
    await service.join(table, 1, token(table, 1), "Bea")
    await step(service, table)
    asker = await until_undoable(service, table)
    other = 1 - asker
    before = table.state.history()[:-1]
    move = table.log[-1]
    rows = table.move_number

    await ask(service, table, asker)
    view = service.view(table, other)
    names = ["Ada", "Bea"]
    assert view["take_back"] == {
        "seat": asker, "index": move.index, "move": put_names(move.seen[other], names),
        "accepted": [], "waiting": [other],
    }  # fmt: skip
    assert view["may_take_back"] is None  # (asked already)
    assert table.state.history() == [*before, move.action]  # nothing taken back yet
    assert await answer(service, table, other, True)

    assert table.state.history() == before
    assert table.move_number == rows + 1  # the move stays in the log; the take-back follows
    assert table.log[-2] is move and table.log[-1].action == TAKE_BACK
    assert service.view(table, other)["log"][-1]["takes_back"] == move.index
    assert service.view(table, None)["take_back"] is None
    assert table.state.current_player() == asker  # to play again
    public = put_names(move.seen[-1], names)  # (as a spectator saw it: no secret)
    assert talk(table)[-2:] == [
        f"{names[asker]} asks to take back their move: “{public}”",
        f"{names[other]} accepts: the move is taken back",
    ]
    # The stored game, rebuilt by replay, is the same game.
    service.tables.clear()
    again = await service.get(table.id)
    assert again.state.history() == before and again.taken == 2
    assert [e.text for e in again.log] == [e.text for e in table.log]
    await service.store.close()


async def test_a_refusal_ends_the_request_and_that_move_is_not_asked_for_again(tmp_path):
    service = await new_service(tmp_path / "games.db")
    table = await a_game(service, kinds=("person", "person", "person"), params={"players": 3})
    await service.chat_history(table)
    asker = await until_undoable(service, table)
    others = [s for s in range(3) if s != asker]
    history = table.state.history()
    await ask(service, table, asker)
    assert not await answer(service, table, others[0], True)  # one of two: not yet
    assert service.view(table, asker)["take_back"]["waiting"] == [others[1]]
    await refused(answer(service, table, others[0], True), "bad_state", "answered already")
    assert not await answer(service, table, others[1], False)
    assert table.state.history() == history
    assert service.view(table, asker)["take_back"] is None
    assert service.view(table, asker)["may_take_back"] is None
    await refused(ask(service, table, asker), "bad_state", "refused")
    await refused(answer(service, table, others[0], True), "bad_state", "no take-back")
    assert "refuses: the move stands" in talk(table)[-1]
    assert table.state.history() == history and TAKE_BACK not in [e.action for e in table.log]
    await service.store.close()


async def test_only_the_player_of_the_last_standing_decision_may_ask(tmp_path):
    service = await new_service(tmp_path / "games.db")
    table = await a_game(service)
    await refused(ask(service, table, 0), "bad_state", "only the last move")  # chance last
    asker = await until_undoable(service, table)
    await refused(ask(service, table, 1 - asker), "bad_state", "only the last move")
    await refused(
        service.take_back(table, asker, "not the token", table.move_number),
        "forbidden",
        "not valid",
    )
    await refused(
        service.take_back(table, asker, token(table, asker), table.move_number - 1),
        "stale",
        "stale",
    )
    await refused(
        service.take_back(table, asker, token(table, asker), "3"), "bad_request", "integer"
    )
    await refused(answer(service, table, 1 - asker, True), "bad_state", "no take-back")
    await ask(service, table, asker)
    await refused(ask(service, table, asker), "bad_state", "asked for already")
    await refused(answer(service, table, asker, True), "bad_state", "your own request")
    # A move ends the request: it was for the position before it.
    await step(service, table)
    assert service.view(table, 0)["take_back"] is None
    await refused(answer(service, table, 1 - asker, True), "bad_state", "no take-back")
    assert TAKE_BACK not in [e.action for e in table.log]
    await service.store.close()


async def test_no_take_back_after_a_chance_outcome(tmp_path):
    service = await new_service(tmp_path / "games.db")
    table = await a_game(service, game="four_way")  # the dice roll after every move
    for _ in range(6):
        mover = table.state.current_player()
        await step(service, table)
        assert table.log[-1].actor == -1 and may_ask(table) is None
        await refused(ask(service, table, mover), "bad_state", "before any roll")
    await service.store.close()


async def test_with_a_bot_take_backs_are_off_unless_turned_on_and_then_the_bot_accepts(tmp_path):
    service = await new_service(tmp_path / "games.db")
    persons = await a_game(service)
    off = await a_game(service, kinds=("person", "greedy"))
    on = await a_game(service, kinds=("person", "greedy"), undo=True)
    assert (persons.record.undo, off.record.undo, on.record.undo) == (True, False, True)
    assert service.summary(off)["undo"] is False and service.view(on, 0)["undo"] is True
    await until_person_decided(service, off)
    assert may_ask(off) is None and service.view(off, 0)["may_take_back"] is None
    await refused(ask(service, off, 0), "bad_state", "take-backs are off")
    await service.chat_history(on)
    await until_person_decided(service, on)
    history = on.state.history()
    await ask(service, on, 0)  # nobody to wait for: the bot accepts at once
    assert on.state.history() == history[:-1] and on.log[-1].action == TAKE_BACK
    bot = on.record.seats[1].name
    move = put_names(on.log[-2].seen[-1], ["Player 1", bot])
    assert talk(on)[-2:] == [
        f"Player 1 asks to take back their move: “{move}”",
        f"{bot} accepts: the move is taken back",
    ]
    assert (await service.store.load(on.id)).take_back["answer"] == "accepted"
    # A persons' game may be made with take-backs off, too.
    strict = await a_game(service, undo=False)
    assert strict.record.undo is False and service.view(strict, 0)["undo"] is False
    await service.store.close()


async def until_person_decided(service, table) -> None:
    """Play until seat 0 (the person) has just decided and may still decide (sputnik: a
    move, then a galaxy to remove)."""
    for _ in range(100):
        if table.log and table.log[-1].actor == 0 and table.state.current_player() == 0:
            return
        await step(service, table)
    raise AssertionError("the person never moved twice in a row")


async def test_the_export_verify_and_replay_of_a_game_with_take_backs_are_exact(tmp_path):
    service = await new_service(tmp_path / "games.db")
    # (long enough for two take-backs whatever the dice: a decision that may be taken back
    # is one followed by the same player's next, before any roll)
    table = await a_game(service, game="count_down", params={"players": 2, "max_turns": 60})
    undone = []
    for _ in range(2):  # two take-backs, each followed by another move
        asker = await until_undoable(service, table)
        undone.append(table.log[-1].index)
        await ask(service, table, asker)
        await answer(service, table, 1 - asker, True)
        await step(service, table)
    await play_out(service, table)
    export = service.export(table)
    marks = [e for e in export["actions"] if e.get("take_back")]
    assert [e["index"] for e in export["actions"] if e.get("taken_back")] == undone
    assert len(marks) == 2 and all("action" not in e for e in marks)
    assert all(e["text"].startswith("Taken back: ") for e in marks)
    result = verify_export(export)
    assert result.ok, result.problems
    assert result.taken_back == 2 and "taken back" in result.notes[0]
    # A take-back the log does not allow is caught: one of a chance outcome, or forged.
    chance = next(i for i, e in enumerate(export["actions"]) if e["actor"] == -1 and i > 4)
    forgery = {"index": chance + 1, "actor": 0, "take_back": True}
    forged = {**export, "actions": [*export["actions"][: chance + 1], forgery]}
    assert "take-back of a chance outcome" in verify_export(forged).problems[0]
    # The replay steps through the take-backs: the step after one is the step before the move.
    frames = list(service.replay_frames(table))
    assert len(frames) == table.move_number + 1
    for mark in marks:
        assert frames[mark["index"] + 1]["public"] == frames[mark["index"] - 1]["public"]
    # The store's raw log (a broken game's export) lists them the same way.
    record = await service.store.load(table.id)
    raw = service.export(record)["actions"]
    assert [e.get("take_back", False) for e in raw] == [
        e.get("take_back", False) for e in export["actions"]
    ]
    assert [e.get("taken_back", False) for e in raw] == [
        e.get("taken_back", False) for e in export["actions"]
    ]
    await service.store.close()


async def test_a_chance_outcome_after_a_move_played_again_is_the_one_without_the_take_back(
    tmp_path,
):
    """Twin games with one seed: in one a move is taken back and another played, in the
    other that one is played at once. Every action after it, dice included, is the same."""
    service = await new_service(tmp_path / "games.db")
    params = {"players": 2, "max_turns": 60}
    kinds = ("person", "person")
    mine = await create_with(service, "count_down", params, seats(*kinds))
    twin = await create_with(service, "count_down", params, seats(*kinds))
    twin.record.seed = mine.record.seed  # (the same dice, in memory: enough here)
    await join_all(service, mine)
    await join_all(service, twin)
    asker = await until_undoable(service, mine)
    point = mine.move_number - 1  # (the move taken back is the last)
    while twin.move_number < point:
        await step(service, twin)
    assert twin.state.history() == mine.state.history()[:-1]
    await ask(service, mine, asker)
    await answer(service, mine, 1 - asker, True)
    legal = mine.state.legal_actions()
    other = legal[-1] if legal[-1] != mine.log[-2].action else legal[0]
    for table in (mine, twin):  # another move, then the same moves to the end
        await service.move(table, asker, token(table, asker), table.move_number, other)
        await play_out(service, table)
    assert mine.state.history() == twin.state.history()
    assert mine.move_number == twin.move_number + 2
    assert [e for e in twin.log[point:] if e.actor == -1], "no chance after the take-back"
    await service.store.close()
