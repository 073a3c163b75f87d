"""A real server killed with SIGKILL in the middle of games, started again: nothing lost."""

from __future__ import annotations

import time

import pytest

from .live import LiveServer


def create(server, game, params, seats):
    response = server.post("/api/games", {"game": game, "params": params, "seats": seats})
    assert response.status_code == 201, response.text
    return response.json()


def my_turn(message):
    return message.get("type") == "state" and message["legal"]


@pytest.fixture
def server(tmp_path):
    live = LiveServer(tmp_path / "games.db", bot_delay=0.05).start()
    yield live
    live.stop()


def test_games_continue_after_the_server_is_killed(server):
    person = {"kind": "person"}
    duel = create(server, "four_way", {}, [person, {"kind": "bot", "bot": "greedy"}])
    random_bot = {"kind": "bot", "bot": "random"}
    trio = create(server, "four_way", {"players": 3}, [person, person, random_bot])
    bots = create(server, "four_way", {"players": 4}, [{"kind": "bot", "bot": "greedy"}] * 4)
    tokens = {(g["id"], i["seat"]): i["token"] for g in (duel, trio) for i in g["invites"]}

    # Persons play a few moves in the duel and the trio (each seat on its own socket).
    sockets = {key: server.socket(key[0], key[1], token) for key, token in tokens.items()}
    moves_made = 0
    deadline = time.monotonic() + 60
    while moves_made < 12 and time.monotonic() < deadline:
        for client in sockets.values():
            try:
                message = client.receive(timeout=0.2)
            except TimeoutError:
                continue
            if my_turn(message):
                client.send(
                    {"type": "move", "move_number": message["move_number"],
                     "action": message["legal"][0]["action"]}
                )  # fmt: skip
                moves_made += 1
    assert moves_made >= 12
    # What was acknowledged to somebody (sent in a state message) before the kill:
    seen = {key: client.log() for key, client in sockets.items()}
    before = {g["id"]: server.get(f"/api/games/{g['id']}/export") for g in (duel, trio, bots)}
    assert before[bots["id"]]["status"] == "playing", "the bot game ended before the kill"

    server.kill()
    for client in sockets.values():
        client.ws.close()
    server.start()

    for game_id, old in before.items():
        new = server.get(f"/api/games/{game_id}/export")
        assert new["commitment"] == old["commitment"]
        assert new["actions"][: len(old["actions"])] == old["actions"]
    for (game_id, seat), log in seen.items():
        client = server.socket(game_id, seat, tokens[(game_id, seat)])
        client.until(lambda m: m.get("type") == "state")
        assert client.log()[: len(log)] == log  # every move anyone was told of is still there
        client.close()

    # The games go on: the persons of the duel play it to the end against the bot...
    duel_seat = next(i["seat"] for i in duel["invites"])
    client = server.socket(duel["id"], duel_seat, tokens[(duel["id"], duel_seat)])
    while True:
        message = client.until(lambda m: m.get("type") == "state", timeout=60)
        if message["status"] == "finished":
            break
        if message["legal"]:
            client.send(
                {"type": "move", "move_number": message["move_number"],
                 "action": message["legal"][-1]["action"]}
            )  # fmt: skip
    client.close()
    # ...and the bots finish theirs on their own, with every chance outcome from the seed.
    deadline = time.monotonic() + 120
    while server.get(f"/api/games/{bots['id']}")["status"] != "finished":
        assert time.monotonic() < deadline, "the bot game did not resume"
        time.sleep(0.2)
    for game_id in (duel["id"], bots["id"]):
        assert server.get(f"/api/games/{game_id}/verify")["ok"]
