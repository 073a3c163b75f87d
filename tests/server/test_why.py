"""Why can't I? (issue 38) at the table: a seat asks why a move is not possible and is told
the rule, to its socket alone; an illegal move's refusal says the rule too; the moves a
position can name are listed for the asking."""

from __future__ import annotations

from tminus.server.outbound import server_message

from .helpers import receive_json
from .test_api import PERSON, client, create  # noqa: F401 (client: a fixture)


def until(ws, kind):
    while True:
        message = receive_json(ws, f"a message of type {kind!r}")
        if message["type"] == kind:
            return message


def playing(ws):
    """The first state with a seat to move."""
    while True:
        state = until(ws, "state")
        if state["status"] == "playing" and state["to_move"] is not None:
            return state


def test_a_seat_asks_why_and_is_told_the_rule(client):  # noqa: F811
    game = create(client, [PERSON, PERSON], players=2)
    gid = game["id"]
    with (
        client.websocket_connect(f"/ws/games/{gid}") as ws0,
        client.websocket_connect(f"/ws/games/{gid}") as ws1,
    ):
        for seat, ws in enumerate((ws0, ws1)):
            ws.send_json({"type": "hello", "seat": seat, "token": game["invites"][seat]["token"]})
        states = [playing(ws) for ws in (ws0, ws1)]
        mover = states[0]["to_move"]
        state, sockets = states[mover], (ws0, ws1)
        legal = {m["action"] for m in state["legal"]}
        illegal = next(a for a in range(31) if a not in legal)
        sockets[mover].send_json({"type": "why", "action": illegal})
        told = until(sockets[mover], "why")
        server_message.validate_python(told)  # (its shape is the published schema's)
        assert told["seat"] == mover and told["action"] == illegal and told["label"]
        assert told["reason"] and "not possible now" not in told["reason"]  # a rule, named
        sockets[mover].send_json({"type": "why", "action": min(legal)})
        assert until(sockets[mover], "why")["reason"] is None  # (it is possible)
        other = sockets[1 - mover]
        other.send_json({"type": "why", "action": min(legal)})
        assert until(other, "why")["reason"].startswith("It is not your turn")
        other.send_json({"type": "why", "action": "flip"})
        assert until(other, "error")["code"] == "bad_request"
        # A refused move says the rule too, with the legal moves.
        number = state["move_number"]
        sockets[mover].send_json({"type": "move", "move_number": number, "action": illegal})
        refused = until(sockets[mover], "error")
        assert refused["code"] == "illegal" and told["reason"] in refused["message"]
        assert "legal moves:" in refused["message"]


def test_a_spectator_asks_nothing(client):  # noqa: F811
    game = create(client, [PERSON, {"kind": "bot", "bot": "greedy"}], players=2)
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        ws.send_json({"type": "hello"})
        until(ws, "state")
        ws.send_json({"type": "why", "action": 3})
        assert until(ws, "error")["code"] == "forbidden"


def test_the_moves_a_position_can_name_are_listed(client):  # noqa: F811
    game = create(client, [PERSON, PERSON], game="sputnik", players=2)
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        ws.send_json({"type": "hello", "seat": 0, "token": game["invites"][0]["token"]})
        ws.send_json({"type": "start"})
        state = playing(ws)
    listed = client.get(f"/api/games/{game['id']}/moves").json()
    assert listed["move_number"] == state["move_number"]
    labels = {m["action"]: m["label"] for m in listed["moves"]}
    assert len(labels) == 111 and labels[0].startswith("Move to d1")
    assert {m["action"] for m in state["legal"]} < set(labels)
    assert client.get("/api/games/nope/moves").status_code == 404
