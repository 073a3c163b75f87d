"""Undo over the socket: ``take_back`` and ``take_back_answer``, validated by pydantic; every
refusal has the one error shape and changes nothing; a spectator changes nothing; the
``undo`` option at creation; a hot-seat device asks and answers for the seats it holds."""

from __future__ import annotations

import pytest

from .helpers import receive_json
from .test_api import PERSON, app_client, assert_refused, call, seated, service
from .test_together import until


@pytest.fixture
def client(tmp_path):
    with app_client(tmp_path / "games.db") as client:
        yield client


def sputnik(client, seats=(PERSON, PERSON), **options):
    body = {"game": "sputnik", "seats": list(seats), **options}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def until_may_ask(ws, state):
    """The first legal move, and again, until the one who moved may take it back: the
    state then."""
    while state["may_take_back"] is None:
        assert state["legal"], "not this socket's turn"
        number = state["move_number"]
        ws.send_json({"type": "move", "move_number": number, "action": state["legal"][0]["action"]})
        state = until(ws, lambda m, n=number: m["type"] == "state" and m["move_number"] > n)
    return state


def first_mover(client, game, sockets):
    """Both seated; the socket of the seat to move, its seat and its state."""
    states = [seated(client, ws, game, seat) for seat, ws in enumerate(sockets)]
    states[0] = receive_json(sockets[0], "seat 0's state once Bea arrived")  # started
    mover = states[1]["to_move"]
    state = states[mover] if states[mover]["status"] == "playing" else states[0]
    return mover, state


def test_asked_then_accepted_over_the_socket_everyone_sees_it_and_spectators_cannot_answer(
    client,
):
    game = sputnik(client)
    path = f"/ws/games/{game['id']}"
    with (
        client.websocket_connect(path) as ws0,
        client.websocket_connect(path) as ws1,
        client.websocket_connect(path) as eve,
    ):
        sockets = [ws0, ws1]
        mover, state = first_mover(client, game, sockets)
        mine, theirs = sockets[mover], sockets[1 - mover]
        eve.send_json({"type": "hello"})
        receive_json(eve, "the spectator's state")
        state = until_may_ask(mine, state)
        assert state["may_take_back"] == mover and state["undo"] is True
        number = state["move_number"]
        # A spectator asks and answers nothing.
        eve.send_json({"type": "take_back", "move_number": number})
        assert until(eve, lambda m: m["type"] == "error")["code"] == "forbidden"
        mine.send_json({"type": "take_back", "move_number": number})
        asked = until(theirs, lambda m: m["type"] == "state" and m["take_back"])
        assert asked["take_back"]["seat"] == mover and asked["take_back"]["waiting"] == [1 - mover]
        assert asked["move_number"] == number  # (nothing moved: a request is not a move)
        seen = until(eve, lambda m: m["type"] == "state" and m["take_back"])
        assert seen["take_back"]["move"] == asked["take_back"]["move"]  # (a public move)
        line = until(eve, lambda m: m["type"] == "chat")["messages"][0]
        assert line["seat"] is None and "asks to take back their move" in line["text"]
        eve.send_json({"type": "take_back_answer", "move_number": number, "accept": False})
        assert until(eve, lambda m: m["type"] == "error")["code"] == "forbidden"
        theirs.send_json({"type": "take_back_answer", "move_number": number, "accept": True})
        for ws in (mine, theirs, eve):
            back = until(ws, lambda m: m["type"] == "state" and m["move_number"] == number + 1)
            assert back["take_back"] is None and back["to_move"] == mover
            assert back["log"][-1]["takes_back"] == number - 1
            assert back["log"][-1]["text"].startswith("Taken back: ")
        assert back["observation"] != state["observation"]
    table = call(client, service(client).get, game["id"])
    assert len(table.state.history()) == number - 1


def test_a_refused_take_back_and_malformed_messages_change_nothing(client):
    game = sputnik(client)
    path = f"/ws/games/{game['id']}"
    with client.websocket_connect(path) as ws0, client.websocket_connect(path) as ws1:
        sockets = [ws0, ws1]
        mover, state = first_mover(client, game, sockets)
        mine, theirs = sockets[mover], sockets[1 - mover]
        state = until_may_ask(mine, state)
        number = state["move_number"]
        game_id = game["id"]
        for message, code, words in [
            ({"type": "take_back"}, "bad_request", "move_number: Field required"),
            ({"type": "take_back", "move_number": "5"}, "bad_request", "malformed"),
            ({"type": "take_back", "move_number": number, "x": 1}, "bad_request", "malformed"),
            ({"type": "take_back", "move_number": number, "seat": 1 - mover}, "forbidden",
             "does not hold that seat"),
            ({"type": "take_back", "move_number": number - 1}, "stale", "stale"),
            ({"type": "take_back_answer", "move_number": number, "accept": "yes"}, "bad_request",
             "malformed"),
            ({"type": "take_back_answer", "move_number": number}, "bad_request", "accept"),
            ({"type": "take_back_answer", "move_number": number, "accept": True}, "bad_state",
             "no take-back"),
        ]:  # fmt: skip
            assert_refused(mine, client, game_id, message, code, words)
        until(theirs, lambda m: m["type"] == "state" and m["move_number"] == number)
        assert_refused(
            theirs, client, game_id, {"type": "take_back", "move_number": number},
            "bad_state", "only the last move",
        )  # fmt: skip
        mine.send_json({"type": "take_back", "move_number": number})
        until(theirs, lambda m: m["type"] == "state" and m["take_back"])
        theirs.send_json({"type": "take_back_answer", "move_number": number, "accept": False})
        after = until(mine, lambda m: m["type"] == "state" and m["take_back"] is None)
        assert after["move_number"] == number and after["may_take_back"] is None
        told = until(mine, lambda m: m["type"] == "chat" and "refuses" in m["messages"][0]["text"])
        assert told["messages"][0]["text"].endswith("refuses: the move stands")
        assert_refused(
            mine, client, game_id, {"type": "take_back", "move_number": number},
            "bad_state", "refused",
        )  # fmt: skip
    stored = call(client, service(client).store.load, game["id"])
    assert len(stored.actions) == number and -1 not in stored.actions


def test_the_undo_option_at_creation(client):
    greedy = {"kind": "bot", "bot": "greedy"}
    assert sputnik(client)["undo"] is True
    assert sputnik(client, undo=False)["undo"] is False
    assert sputnik(client, (PERSON, greedy))["undo"] is False
    assert sputnik(client, (PERSON, greedy), undo=True)["undo"] is True
    bad = client.post(
        "/api/games", json={"game": "sputnik", "seats": [PERSON, PERSON], "undo": "maybe"}
    )
    assert bad.status_code == 400 and "undo" in bad.json()["message"]
    # With a bot and take-backs on, the bot accepts at once.
    game = sputnik(client, (PERSON, greedy), undo=True)
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        state = seated(client, ws, game, 0)
        while not (state["log"] and state["may_take_back"] == 0):
            if state["legal"]:
                number = state["move_number"]
                action = state["legal"][0]["action"]
                ws.send_json({"type": "move", "move_number": number, "action": action})
            state = until(ws, lambda m: m["type"] == "state")
            if state["may_take_back"] == 0:
                break
        number = state["move_number"]
        ws.send_json({"type": "take_back", "move_number": number})
        back = until(ws, lambda m: m["type"] == "state" and m["move_number"] > number)
        assert back["log"][-1].get("takes_back") == number - 1 and back["to_move"] == 0


def test_a_hot_seat_device_asks_and_answers_for_the_seats_it_holds(client):
    game = sputnik(client)
    tokens = [invite["token"] for invite in game["invites"]]
    with client.websocket_connect(f"/ws/games/{game['id']}") as device:
        device.send_json({"type": "hello", "seat": 0, "token": tokens[0],
                          "seats": [{"seat": 1, "token": tokens[1]}]})  # fmt: skip
        state = until(device, lambda m: m["type"] == "state" and m["status"] == "playing")
        while state["may_take_back"] is None:
            if state["to_move"] != state["seat"]:
                device.send_json({"type": "switch", "seat": state["to_move"]})
                state = until(device, lambda m: m["type"] == "state")
            number = state["move_number"]
            action = state["legal"][0]["action"]
            device.send_json({"type": "move", "move_number": number, "action": action})
            state = until(device, lambda m, n=number: m["type"] == "state" and m["move_number"] > n)
        asker = state["may_take_back"]
        other = 1 - asker
        number = state["move_number"]
        device.send_json({"type": "switch", "seat": other})  # the device shows the other seat
        until(device, lambda m: m["type"] == "state" and m["seat"] == other)
        device.send_json({"type": "take_back", "move_number": number, "seat": asker})
        asked = until(device, lambda m: m["type"] == "state" and m["take_back"])
        assert asked["take_back"]["waiting"] == [other] and asked["seat"] == other
        device.send_json({"type": "take_back_answer", "move_number": number, "accept": True})
        back = until(device, lambda m: m["type"] == "state" and m["move_number"] > number)
        assert back["log"][-1]["takes_back"] == number - 1 and back["to_move"] == asker
