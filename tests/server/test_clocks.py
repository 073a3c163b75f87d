"""Game clocks (issue 37): turn-based time per move with a reserve, Fischer clocks; only the
seat to move has its clock running, on the database's clock, kept in the store across
restarts; a timeout resigns the seat or lets a bot stand in until its person comes back, and
is acted on by one process only."""

from __future__ import annotations

import asyncio

import pytest

from tminus.server.clocks import allowance, charged, check_clock, first_banks
from tminus.server.service import GameError, GameService
from tminus.server.storage import BOT, FINISHED, PERSON, PLAYING, Store

from .helpers import TOKENS, new_service, seats, token

pytestmark = pytest.mark.anyio
DAY = 86_400
TURN = {"kind": "turn", "per_move": 3_600, "reserve": 7_200, "on_timeout": "greedy"}


def test_turn_based_time_beyond_the_move_comes_from_the_reserve():
    assert allowance(TURN, 7_200) == 10_800
    assert charged(TURN, 7_200, 1_000) == 7_200  # within the hour: the reserve is untouched
    assert charged(TURN, 7_200, 4_600) == 6_200
    assert charged(TURN, 7_200, 50_000) == 0
    assert first_banks(TURN, 3) == [7_200] * 3


def test_a_fischer_clock_adds_its_increment_after_each_turn():
    fischer = {"kind": "fischer", "minutes": 1, "increment": 2, "on_timeout": "resign"}
    assert first_banks(fischer, 2) == [60, 60]
    assert allowance(fischer, 60) == 60
    assert charged(fischer, 60, 10) == 52
    assert charged(fischer, 5, 10) == 2  # (out of time: the increment alone)


@pytest.mark.parametrize(
    ("clock", "words"),
    [
        ({"kind": "blitz"}, "kind is 'turn' or 'fischer'"),
        ({"kind": "turn", "per_move": 60}, "per_move is a whole number from 3600 to 259200"),
        ({"kind": "turn", "per_move": 3_600, "reserve": 10**7}, "reserve is a whole number"),
        ({"kind": "turn", "per_move": 3_600.5}, "per_move is a whole number"),
        ({"kind": "fischer", "minutes": 0}, "minutes is a whole number from 1 to 180"),
        ({"kind": "fischer", "minutes": 5, "increment": 61}, "increment is a whole number"),
        ({"kind": "turn", "per_move": 3_600, "on_timeout": "nobody"}, "when time runs out"),
        ({"kind": "turn", "per_move": 3_600, "delay": 3}, "has no delay"),
        ("fast", "a clock is an object"),
    ],
)
async def test_a_bad_clock_is_refused_clearly_and_makes_no_game(tmp_path, clock, words):
    service = await new_service(tmp_path / "games.db")
    with pytest.raises(GameError, match=words) as refused:
        await service.create("four_way", {"players": 2}, seats("person", "person"), clock=clock)
    assert refused.value.code == "bad_request"
    assert await service.store.ids() == []
    await service.store.close()


def test_the_levels_are_the_timeout_choices():
    assert check_clock(TURN, ["greedy"])["on_timeout"] == "greedy"
    assert check_clock({"kind": "turn", "per_move": 3_600}, [])["on_timeout"] == "resign"


async def clocked_game(service: GameService, clock=TURN):
    created = await service.create(
        "four_way", {"players": 2}, seats("person", "person"), clock=clock
    )
    table = created.table
    TOKENS[table.id] = created.tokens
    for seat in (0, 1):
        await service.join(table, seat, created.tokens[seat])
    assert table.status == PLAYING
    return table


async def db_now(store: Store) -> float:
    from sqlalchemy import select

    async with store.engine.connect() as connection:
        return await connection.scalar(select(store.clock.now()))


async def move(service, table):
    seat = table.state.current_player()
    action = table.state.legal_actions()[0]
    await service.move(table, seat, token(table, seat), table.move_number, action)
    return seat


async def test_only_the_seat_to_move_has_its_clock_running(tmp_path):
    service = await new_service(tmp_path / "games.db")
    table = await clocked_game(service)
    clocks = table.record.clocks
    first = clocks["to_move"]
    assert first == table.state.current_player() and clocks["left"] == [7_200, 7_200]
    assert clocks["deadline"] == pytest.approx(await db_now(service.store) + 10_800, abs=5)
    service.store.clock.advance(3_600 + 1_000)  # an hour and a bit on the first move
    # The table counts down from the time the clocks read (moved on as the database's is).
    shown = service.summary(table)["clocks"]
    assert shown["deadline"] - shown["now"] == pytest.approx(10_800 - 4_600, abs=5)
    while table.state.current_player() == first:  # (a turn may be several decisions)
        await move(service, table)
    clocks = table.record.clocks
    assert clocks["left"][first] == pytest.approx(6_200, abs=5)
    assert clocks["left"][1 - first] == 7_200 and clocks["to_move"] == 1 - first
    # The store keeps them: a restarted server reads the same clocks.
    again = await GameService(service.store).get(table.id)
    assert again.record.clocks == clocks
    await service.store.close()


async def test_a_timeout_lets_the_chosen_bot_stand_in_until_its_person_comes_back(tmp_path):
    service = await new_service(tmp_path / "games.db")
    table = await clocked_game(service)
    seat = table.state.current_player()
    assert await service.act_on_timeouts() == []  # (not yet)
    service.store.clock.advance(10_800 + 1)
    assert [t.id for t in await service.act_on_timeouts()] == [table.id]
    entry = table.record.seats[seat]
    assert (entry.kind, entry.bot, entry.stand_in) == (BOT, "greedy", True)
    assert table.bot_to_move() == seat and table.record.clocks["left"][seat] == 0
    talk = [line["text"] for line in await service.chat_history(table)]
    assert any("time ran out" in line and "plays for" in line for line in talk)
    assert await service.act_on_timeouts() == []  # acted on once
    # A restarted server knows the stand-in, and the person's link still holds the seat.
    table = await GameService(service.store).get(table.id)
    assert table.record.seats[seat].stand_in
    service = GameService(service.store)
    table = await service.get(table.id)
    await service.join(table, seat, token(table, seat))  # they open the game again
    entry = table.record.seats[seat]
    assert (entry.kind, entry.bot, entry.stand_in) == (PERSON, None, False)
    assert table.record.clocks["to_move"] == seat
    assert table.record.clocks["deadline"] == pytest.approx(
        await db_now(service.store) + 3_600, abs=5
    )  # a move's time again (the reserve is spent)
    await service.store.close()


async def test_a_timeout_resigns_the_seat_when_the_creator_chose_so(tmp_path):
    service = await new_service(tmp_path / "games.db")
    table = await clocked_game(service, {**TURN, "on_timeout": "resign"})
    seat = table.state.current_player()
    service.store.clock.advance(10_800 + 1)
    await service.act_on_timeouts()
    assert table.status == FINISHED
    assert table.record.result["reason"] == "time" and table.record.result["resigned"] == seat
    assert table.record.clocks["to_move"] is None  # every clock stopped
    await service.store.close()


async def test_a_clocked_game_is_not_paused_while_its_people_are_away(tmp_path):
    service = await new_service(tmp_path / "games.db")
    table = await clocked_game(service)
    plain = await service.create("four_way", {"players": 2}, seats("person", "greedy"))
    await service.join(plain.table, 0, plain.tokens[0])
    service.store.clock.advance(2 * DAY)
    assert await service.pause_abandoned(3_600) == [plain.table.id]
    assert not table.record.paused
    await service.store.close()


async def test_two_processes_act_on_a_timeout_once(database):
    first = GameService(await Store(database).open())
    second = GameService(await Store(database).open())
    table = await clocked_game(first)
    for service in (first, second):
        service.store.clock.advance(10_800 + 1)
    acted = await asyncio.gather(*(s.act_on_timeouts() for s in (first, second, first, second)))
    assert sum(len(a) for a in acted) == 1
    stored = await second.store.load(table.id, actions=False)
    assert [s.stand_in for s in stored.seats].count(True) == 1
    await second.store.close()
    await first.store.close()


def test_over_http_a_clocked_rated_game_is_made_and_a_bad_clock_refused(tmp_path):
    from fastapi.testclient import TestClient

    from tminus.server.app import create_app
    from tminus.server.limits import Limits

    app = create_app(f"sqlite:///{tmp_path / 'games.db'}", 0.0, Limits(messages_per_second=0))
    with TestClient(app) as client:
        body = {"game": "four_way", "params": {"players": 2},
                "seats": [{"kind": "person"}, {"kind": "bot", "bot": "greedy"}]}  # fmt: skip
        bad = client.post("/api/games", json={**body, "clock": {"kind": "turn", "per_move": 5}})
        assert bad.status_code == 400 and "per_move" in bad.json()["message"]
        assert client.get("/api/games?limit=200").json() == []
        made = client.post("/api/games", json={**body, "clock": TURN, "rated": True})
        assert made.status_code == 201, made.text
        summary = made.json()
        assert summary["rated"] and summary["clock"] == TURN
        assert summary["clocks"]["left"] == [7_200, 7_200] and summary["clocks"]["to_move"] is None


async def test_in_a_clocked_game_nobody_votes_an_away_person_out(tmp_path):
    service = await new_service(tmp_path / "games.db")
    table = await clocked_game(service)
    with pytest.raises(GameError, match="this game has a clock") as refused:
        await service.give_to_bot(table, 0, token(table, 0), 1, "greedy", 0)
    assert refused.value.code == "bad_state" and table.record.seats[1].kind == PERSON
    await service.store.close()


async def test_a_bots_turn_never_times_out(tmp_path):
    service = await new_service(tmp_path / "games.db")
    fischer = {"kind": "fischer", "minutes": 1, "increment": 0, "on_timeout": "resign"}
    created = await service.create(
        "four_way", {"players": 2}, seats("person", "greedy"), clock=fischer
    )
    table = created.table
    await service.join(table, 0, created.tokens[0])
    while (seat := table.state.current_player()) == 0:  # (the bot waits: no bot player here)
        action = table.state.legal_actions()[0]
        await service.move(table, 0, created.tokens[0], table.move_number, action)
    assert seat == 1
    service.store.clock.advance(3_600)
    assert await service.act_on_timeouts() == []
    assert table.status == PLAYING
    stored = await service.store.load(table.id, actions=False)
    assert stored.clocks["deadline"] is None  # (cleared: its next move starts the next clock)
    await service.store.close()


async def test_a_rematch_gives_a_stood_in_seat_back_to_its_person(tmp_path):
    service = await new_service(tmp_path / "games.db")
    table = await clocked_game(service)
    late = table.state.current_player()
    service.store.clock.advance(10_800 + 1)
    await service.act_on_timeouts()
    other = 1 - late
    await service.resign(table, other, token(table, other))
    rematch = await service.rematch(table, other, token(table, other))
    back = [s for s in rematch.record.seats if s.name == table.record.seats[late].name]
    assert [(s.kind, s.bot, s.stand_in, s.joined) for s in back] == [(PERSON, None, False, False)]
    assert rematch.status != PLAYING  # (it waits for that person)
    await service.store.close()
