"""Issue 40: a PostgreSQL outage during games with bots on two processes freezes nothing.

The database is a cluster of this test's own (private_postgres.py), stopped at once in the
middle of the games and started again some seconds later, as a crash and restart would. Every
game must then finish, and both processes must show the same table talk, live and as history.
"""

from __future__ import annotations

import time

import pytest

from .live import LiveServer, create, sit, state_where
from .private_postgres import PrivatePostgres, server_binaries

pytestmark = pytest.mark.skipif(
    server_binaries() is None, reason="no PostgreSQL server binaries: run scripts/test-parts.sh"
)
PERSON, GREEDY = {"kind": "person"}, {"kind": "bot", "bot": "greedy"}
OUTAGE = 6.0  # seconds the database is down


@pytest.fixture
def cluster():
    database = PrivatePostgres()
    database.start()
    yield database
    database.remove()


def said(client) -> list[str]:
    """The table talk a socket was told, live or as history, in the order of the store."""
    lines = {}
    for message in client.messages:
        if message.get("type") == "chat":
            lines.update({line["index"]: line["text"] for line in message["messages"]})
    return [lines[index] for index in sorted(lines)]


def talk(client, text: str) -> None:
    client.send({"type": "chat", "text": text})
    client.until(lambda m: m.get("type") == "chat" and m["messages"][-1]["text"] == text)


def play_to_the_end(server: LiveServer, game: dict, seats: dict, deadline: float) -> None:
    """The people (``seats``: seat -> socket) play their turns until the game ends; the bots
    play theirs."""
    watcher = next(iter(seats.values()))
    state = state_where(watcher, lambda m: m["status"] != "waiting")
    while state["status"] != "finished":
        assert time.monotonic() < deadline, f"stuck at move {state['move_number']}"
        number = state["move_number"]
        mover = seats.get(state["to_move"])
        if mover is not None:
            view = state_where(mover, lambda m, n=number: m["move_number"] >= n)
            if view["move_number"] == number and view["legal"]:
                mover.send({"type": "move", "move_number": number,
                            "action": view["legal"][0]["action"]})  # fmt: skip
        state = state_where(watcher, lambda m, n=number: m["move_number"] > n, timeout=60)


def test_games_with_bots_finish_after_the_database_stops_and_both_processes_talk_alike(
    cluster,
):
    options = ("--bot-lease", "2", "--messages-per-second", "0")
    a, b = (LiveServer(cluster.url, 0.3, options=options).launch() for _ in range(2))
    a.wait(), b.wait()
    try:
        # Games of bots alone, made on either process, and one of two people with two bots.
        bots = [create(server, [GREEDY, GREEDY]) for server in (a, b, a, b)]
        bots.append(create(a, [GREEDY, GREEDY], game="sputnik"))
        people = create(a, [PERSON, GREEDY, PERSON, GREEDY], players=4)
        ada, cy = sit(a, people, 0), sit(b, people, 2)
        state_where(cy, lambda m: m["status"] == "playing")
        talk(ada, "before, from a")
        talk(cy, "before, from b")
        deadline = time.monotonic() + 30
        while min(a.get(f"/api/games/{g['id']}")["move_number"] for g in bots) < 4:
            assert time.monotonic() < deadline, "the bots did not begin"
            time.sleep(0.1)

        cluster.stop()
        cut_at = time.monotonic()
        time.sleep(OUTAGE)
        cluster.start()
        back_at = time.monotonic()

        # Every game of bots moves again, on its own, and finishes.
        stopped_at = {g["id"]: b.get(f"/api/games/{g['id']}")["move_number"] for g in bots}
        moved_after: dict[str, float] = {}  # game -> seconds after the database came back
        deadline = back_at + 120
        while len(moved_after) < len(bots) or any(
            b.get(f"/api/games/{g['id']}")["status"] != "finished" for g in bots
        ):
            for game in bots:
                summary = b.get(f"/api/games/{game['id']}")
                moved = summary["move_number"] > stopped_at[game["id"]]
                if (moved or summary["status"] == "finished") and game["id"] not in moved_after:
                    moved_after[game["id"]] = time.monotonic() - back_at
                assert time.monotonic() < deadline, f"frozen at move {summary['move_number']}"
            time.sleep(0.1)
        for game in bots:
            assert a.get(f"/api/games/{game['id']}/verify")["ok"]
        print(f"database down {back_at - cut_at:.1f} s; every game of bots moved again within "
              f"{max(moved_after.values()):.1f} s of its return")  # fmt: skip

        # The talk after the outage reaches both processes; so does what either missed.
        talk(ada, "after, from a")
        talk(cy, "after, from b")
        play_to_the_end(a, people, {0: ada, 2: cy}, time.monotonic() + 120)
        assert b.get(f"/api/games/{people['id']}")["status"] == "finished"
        expected = ["before, from a", "before, from b", "after, from a", "after, from b"]
        late = [sit(server, people, seat) for server, seat in ((a, 0), (b, 2))]
        for client in late:
            client.until(lambda m: m.get("type") == "chat" and m.get("history"))
        histories = [said(client) for client in late]
        assert histories[0] == histories[1]
        assert [line for line in histories[0] if line in expected] == expected
        assert said(ada) == said(cy) == histories[0]  # live, each socket heard the same
        for client in (ada, cy, *late):
            client.close()
    finally:
        a.stop(), b.stop()
        for name, server in (("a", a), ("b", b)):  # shown if the test fails
            print(f"--- process {name}'s log ---\n{server.log()[-6000:]}")
