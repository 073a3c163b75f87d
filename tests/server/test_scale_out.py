"""Issue 16: two real `tminus serve` processes on one real PostgreSQL serve the same games.

Each test makes a database of its own (the ``database`` fixture, tests/server/conftest.py);
without PostgreSQL the tests are skipped.
"""

from __future__ import annotations

import asyncio
import time

import pytest
from sqlalchemy.engine import make_url

from ..parts import NO_DATABASE, database_for_tests
from .live import Client, LiveServer, create, sit, state_where

URL = database_for_tests()
pytestmark = pytest.mark.skipif(not URL, reason=NO_DATABASE)
PERSON = {"kind": "person"}
LEASE = "2"  # seconds: a dead process's bots are taken over quickly


@pytest.fixture
def servers(database):
    """Two server processes on the database (started one after the other)."""
    started: list[LiveServer] = []

    def start(bot_delay: float = 0.0) -> tuple[LiveServer, LiveServer]:
        options = ("--bot-lease", LEASE, "--messages-per-second", "0")
        pair = [LiveServer(database, bot_delay, options=options).launch() for _ in range(2)]
        started.extend(pair)
        return pair[0].wait(), pair[1].wait()

    yield start
    for server in started:
        server.stop()


def lease_holder(database: str, game_id: str) -> str | None:
    import asyncpg

    async def read() -> str | None:
        url = make_url(database).set(drivername="postgresql")
        connection = await asyncpg.connect(url.render_as_string(hide_password=False))
        try:
            return await connection.fetchval(
                "SELECT holder FROM bot_leases WHERE game_id = $1", game_id
            )
        finally:
            await connection.close()

    return asyncio.run(read())


def test_one_game_over_two_processes_is_seen_live_and_each_raced_move_applied_once(servers):
    a, b = servers()
    # A person on each process: each sees the other's moves as they are made.
    game = create(a, [PERSON, PERSON])
    clients = [sit(a, game, 0), sit(b, game, 1)]
    moves = 0
    state = state_where(clients[0], lambda m: m["status"] == "playing")
    while state["status"] != "finished":
        mover = state["to_move"]
        number = state["move_number"]
        client = clients[mover]
        mine = state_where(client, lambda m, n=number: m["move_number"] >= n)
        choice = mine["legal"][-1]["action"]
        client.send({"type": "move", "move_number": number, "action": choice})
        # The other process tells the other seat, which did not ask for anything.
        other = clients[1 - mover]
        state = state_where(other, lambda m, n=number: m["move_number"] > n)
        moved = [e for e in other.messages[-1]["log"] if e["index"] == number]
        assert moved and moved[0]["actor"] == mover
        moves += 1
    assert moves >= 10
    final = state["move_number"]
    ends = [state_where(c, lambda m, n=final: m["move_number"] == n) for c in clients]
    assert [m["status"] for m in ends] == ["finished"] * 2
    assert clients[0].log() == clients[1].log()
    export = b.get(f"/api/games/{game['id']}/export")
    assert export["status"] == "finished" and len(export["actions"]) == state["move_number"]
    assert a.get(f"/api/games/{game['id']}/verify")["ok"]
    for client in clients:
        client.close()

    # The same seat on both processes sends a move for the same position: one is applied.
    races = 0
    while races < 100:
        game = create(a, [PERSON, PERSON])
        seats = [[sit(a, game, seat), sit(b, game, seat)] for seat in (0, 1)]
        raced: dict[int, int] = {}  # move number -> the seat that raced for it
        state = state_where(seats[0][0], lambda m: m["status"] == "playing")
        while state["status"] == "playing" and races < 100:
            number, mover = state["move_number"], state["to_move"]
            pair = seats[mover] if races % 2 else seats[mover][::-1]  # each goes first in turn
            views = [state_where(c, lambda m, n=number: m["move_number"] >= n) for c in pair]
            legal = [m["action"] for m in views[0]["legal"]]
            for client, action in zip(pair, (legal[0], legal[-1]), strict=True):
                client.send({"type": "move", "move_number": number, "action": action})
                client.send({"type": "ping"})  # answered after the move is
            refused = []
            for client in pair:
                seen = len(client.messages)
                client.until(lambda m: m.get("type") == "pong")
                refused += [m for m in client.messages[seen:] if m.get("type") == "error"]
            assert [m["code"] for m in refused] == ["stale"] * len(refused)
            if legal[0] != legal[-1]:  # the two moves differ: exactly one was refused
                assert len(refused) == 1
            raced[number] = mover
            races += 1
            state = state_where(seats[0][0], lambda m, n=number: m["move_number"] > n)
        # Every decision in the stored log is one race's, made for its position: one each.
        log = b.get(f"/api/games/{game['id']}/export")["actions"]
        assert {e["index"]: e["actor"] for e in log if e["actor"] >= 0} == raced
        for pair in seats:
            for client in pair:
                client.close()


def test_bots_go_on_when_their_process_is_killed_and_games_resume_after_a_restart(
    servers, database
):
    a, b = servers(bot_delay=0.2)  # a game of some seconds, to be killed in the middle
    bots = create(a, [{"kind": "bot", "bot": "greedy"}] * 2)
    people = create(b, [PERSON, PERSON])
    clients = [sit(a, people, 0), sit(b, people, 1)]
    # Some moves of the bots' game, and of the persons' game.
    deadline = time.monotonic() + 30
    while a.get(f"/api/games/{bots['id']}")["move_number"] < 6:
        assert time.monotonic() < deadline, "the bots did not play"
        time.sleep(0.05)
    holder = lease_holder(database, bots["id"])
    owner, other = (a, b) if holder and f":{a.process.pid}:" in holder else (b, a)
    assert holder and f":{owner.process.pid}:" in holder
    played = play_some(clients, 6)

    owner.kill()  # mid-game, holding the bots' lease: the other process takes it over
    deadline = time.monotonic() + 60
    while (summary := other.get(f"/api/games/{bots['id']}"))["status"] != "finished":
        assert time.monotonic() < deadline, f"the bots stopped at move {summary['move_number']}"
        time.sleep(0.1)
    assert lease_holder(database, bots["id"]) is None  # (released at the end of the game)
    assert other.get(f"/api/games/{bots['id']}/verify")["ok"]

    # Both processes die; both start again; the persons take their seats on the other process.
    for client in clients:
        client.ws.close()
    other.kill()
    a.launch(), b.launch()
    a.wait(), b.wait()
    again = [sit(b, people, 0), sit(a, people, 1)]
    for client, log in zip(again, played, strict=True):
        state_where(client, lambda m: True)
        assert client.log()[: len(log)] == log  # every move anyone was told of is there
    finished = play_some(again, 10_000, choice=-1)
    assert finished[0] == finished[1]
    assert b.get(f"/api/games/{people['id']}")["status"] == "finished"
    assert a.get(f"/api/games/{people['id']}/verify")["ok"]
    for client in again:
        client.close()


def play_some(clients: list[Client], moves: int, choice: int = 0) -> list[list[str]]:
    """The seats (one socket each) play ``moves`` moves or to the end: each socket's log."""
    state = state_where(clients[0], lambda m: m["status"] != "waiting")
    for _ in range(moves):
        if state["status"] == "finished":
            break
        number = state["move_number"]
        client = clients[state["to_move"]]
        view = state_where(client, lambda m, n=number: m["move_number"] >= n)
        action = view["legal"][choice]["action"]
        client.send({"type": "move", "move_number": number, "action": action})
        states = [state_where(c, lambda m, n=number: m["move_number"] > n) for c in clients]
        state = states[0]
    return [c.log() for c in clients]


def test_people_on_two_processes_vote_a_bot_into_the_seat_of_one_who_left(servers):
    a, b = servers()
    game = create(a, [PERSON, PERSON, PERSON], players=3)  # Ada (seat 0) never comes
    bea, cy = sit(a, game, 1), sit(b, game, 2)
    # Both seated before the vote: a vote counts only the people present (Cy's hello, on
    # the other process, may be answered after the game has started).
    state_where(bea, lambda m: m["seats"][1]["joined"] and m["seats"][2]["joined"])
    bea.send({"type": "start"})
    state_where(cy, lambda m: m["status"] == "playing")
    bea.send({"type": "bot", "seat": 0, "bot": "greedy"})  # one of two: not yet
    cy.until(lambda m: m.get("type") == "chat" and "asks that" in m["messages"][0]["text"])
    cy.send({"type": "bot", "seat": 0, "bot": "greedy"})  # two of two, on the other process
    for client in (bea, cy):
        state_where(client, lambda m: m["seats"][0]["kind"] == "bot")
        told = lambda m: m.get("type") == "chat" and "left;" in m["messages"][0]["text"]  # noqa: E731
        if not any(told(m) for m in client.messages):  # (said before the seat's state, or after)
            client.until(told)
    # The bot plays Ada's turns, whichever process plays it; the people play theirs.
    deadline = time.monotonic() + 60
    while not any(e["actor"] == 0 for e in a.get(f"/api/games/{game['id']}/export")["actions"]):
        assert time.monotonic() < deadline, "the bot never played for Ada"
        state = state_where(bea, lambda m: True)
        mover = {1: bea, 2: cy}.get(state["to_move"])
        if mover is not None:
            mine = state_where(mover, lambda m, n=state["move_number"]: m["move_number"] >= n)
            if mine["legal"]:
                mover.send({"type": "move", "move_number": mine["move_number"],
                            "action": mine["legal"][0]["action"]})  # fmt: skip
        state_where(bea, lambda m, n=state["move_number"]: m["move_number"] > n)
    for client in (bea, cy):
        client.close()


def test_what_another_process_does_before_a_new_games_first_socket_here_is_seen(servers):
    """A game made here is followed from before it is stored, and its first socket here does
    not read it back: a line of talk said on the other process meanwhile is heard all the
    same (as is the other seat's join, which starts the game). This guards the outcome: a
    read-back would see the same, so ``test_shared``'s
    ``test_a_game_made_here_is_followed_from_before_it_is_stored_and_not_read_back`` is the
    one that fails without the following."""
    a, b = servers()
    game = create(a, [PERSON, PERSON])
    there = sit(b, game, 1)
    there.send({"type": "chat", "text": "said before seat 0 came"})
    there.until(lambda m: m.get("type") == "chat" and not m["history"])
    here = sit(a, game, 0)
    talk = here.until(lambda m: m.get("type") == "chat")
    assert [line["text"] for line in talk["messages"]][-1:] == ["said before seat 0 came"]
    state_where(here, lambda m: m["status"] == "playing")
    for client in (there, here):
        client.close()
