"""Every message the server sends on a socket fits its model (``tminus.server.outbound``):
whole games of each game played over real sockets, with table talk, a hint, a take-back, a
refused move, pings, a spectator, a late-comer told the talk so far and a rematch; every
message received is validated against ``ServerMessage``, so a field or a message type the
models do not name fails here. And the schema served is the models' own."""

from __future__ import annotations

import random
from contextlib import ExitStack

import pytest
from pydantic import TypeAdapter

from tminus.server.outbound import ServerMessage, messages_schema, server_message
from tminus.server.protocol import ClientMessage

from .helpers import receive_json
from .test_api import app_client

# Each game with rules that end it soon (a turn cap ends a game too) and its seats.
GAMES = {
    "four_way": ({"players": 2}, ["person", "solver"]),  # (a bot: its estimates)
    "sputnik": ({}, ["person", "person"]),
    "three_two_one": ({"players": 3, "rounds": 1, "max_turns": 40}, ["person"] * 3),
    "count_down": ({"players": 3, "max_turns": 30}, ["person"] * 3),
}
FAST_HINTS = {"hint_budget": 0.2, "hint_worlds": 64}


class Socket:
    """A game's socket whose every message received is validated, and kept."""

    def __init__(self, ws) -> None:
        self.ws = ws
        self.received: list[dict] = []

    def send(self, message: dict) -> None:
        self.ws.send_json(message)

    def next(self, awaited: str = "a message") -> dict:
        """The next message (a test failure naming what was ``awaited`` if none comes)."""
        last = self.received[-1]["type"] if self.received else "none"
        message = receive_json(self.ws, f"{awaited} (received: {len(self.received)}, last {last})")
        server_message.validate_python(message)  # (a ValidationError names the field)
        self.received.append(message)
        return message

    def until(self, wanted, awaited: str) -> dict:
        """Messages until one is ``wanted`` (``awaited`` says which, should none come)."""
        while not wanted(message := self.next(awaited)):
            pass
        return message

    def state(self, number: int) -> dict:
        """The first state at ``number`` rows of the log or later."""
        wanted = f"a state at move {number} or later"
        return self.until(lambda m: m["type"] == "state" and m["move_number"] >= number, wanted)

    def drain(self) -> None:
        """Everything sent so far (a ping's pong comes after it)."""
        self.send({"type": "ping"})
        self.until(lambda m: m["type"] == "pong", "the pong to a ping")


def seat_of(kind: str, index: int) -> dict:
    if kind == "person":
        return {"kind": "person", "name": f"P{index}"}
    return {"kind": "bot", "bot": kind}


def create(client, game: str, params: dict, kinds: list[str]) -> dict:
    seats = [seat_of(kind, i) for i, kind in enumerate(kinds)]
    body = {"game": game, "params": params, "seats": seats, "hints": True, "undo": True}
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()


def connect(client, stack, game: dict, seat: int | None) -> Socket:
    socket = Socket(stack.enter_context(client.websocket_connect(f"/ws/games/{game['id']}")))
    if seat is None:
        socket.send({"type": "hello"})
    else:
        token = next(i["token"] for i in game["invites"] if i["seat"] == seat)
        socket.send({"type": "hello", "seat": seat, "token": token, "name": f"Seat {seat}"})
    return socket


def asides(mine: Socket, state: dict) -> None:
    """At a seat's first turn: a line of table talk, a hint, a refused move, a ping."""
    number = state["move_number"]
    mine.send({"type": "chat", "text": "good luck"})
    mine.until(lambda m: m["type"] == "chat", "the table talk said")
    mine.send({"type": "hint", "move_number": number})
    hint = mine.until(lambda m: m["type"] == "hint", "the hint asked for")
    assert hint["action"] in [m["action"] for m in state["legal"]]
    illegal = max(m["action"] for m in state["legal"]) + 1000
    mine.send({"type": "move", "move_number": number, "action": illegal})
    refused = mine.until(lambda m: m["type"] == "error", "an illegal move's refusal")
    assert refused["code"] == "illegal"
    mine.drain()


def take_back(people: dict[int, Socket], state: dict) -> None:
    """The seat that may ask takes back its last move, and every other person accepts."""
    asker, number = people[state["may_take_back"]], state["move_number"]
    asker.send({"type": "take_back", "move_number": number})
    asked = asker.until(
        lambda m: m["type"] == "state" and m["take_back"] is not None, "a take-back asked"
    )
    for seat in asked["take_back"]["waiting"]:
        answer = {"type": "take_back_answer", "move_number": number, "accept": True}
        people[seat].send(answer)
        people[seat].until(
            lambda m: m["type"] == "state" and m["take_back"] is None, "the take-back answered"
        )


def play(people: dict[int, Socket], eve: Socket, rng: random.Random) -> dict:
    """The game to its end, each person playing a random legal move when its turn comes
    (the first time, with its asides; once, a take-back); the spectator ``eve`` follows
    it. Its last state."""
    done = -1  # the last position acted on (move_number only grows)
    took_back = False

    def news(m: dict) -> bool:
        if m["type"] != "state" or m["move_number"] <= done:
            return False
        return m["status"] == "finished" or m["to_move"] in people

    awaited = "the spectator's next state: a person to move, or the end"
    while (state := eve.until(news, awaited))["status"] != "finished":
        done = state["move_number"]
        if state["may_take_back"] is not None and not took_back:
            take_back(people, state)
            took_back = True
            continue
        mine = people[state["to_move"]]
        seen = mine.state(done)
        assert seen["move_number"] == done and seen["legal"]
        if not any(m["type"] == "hint" for m in mine.received):
            asides(mine, seen)
        action = rng.choice(seen["legal"])["action"]
        mine.send({"type": "move", "move_number": done, "action": action})
    return state


@pytest.mark.parametrize("game", list(GAMES))
def test_every_message_of_a_whole_game_fits_the_schema(tmp_path, game):
    params, kinds = GAMES[game]
    with app_client(tmp_path / "games.db", **FAST_HINTS) as client:
        made = create(client, game, params, kinds)
        with ExitStack() as stack:
            eve = connect(client, stack, made, None)
            persons = [s for s, kind in enumerate(kinds) if kind == "person"]
            people = {seat: connect(client, stack, made, seat) for seat in persons}
            last = play(people, eve, random.Random(game))
            assert last["result"] is not None
            people[persons[0]].send({"type": "rematch"})
            eve.until(lambda m: m["type"] == "state" and m["rematch"] is not None, "a rematch")
            late = connect(client, stack, made, None)
            late.until(lambda m: m["type"] == "chat" and m["history"], "the talk so far")
            sockets = [eve, late, *people.values()]
            for socket in sockets:
                socket.drain()
        received = [m for s in sockets for m in s.received]
        assert {m["type"] for m in received} == {"state", "chat", "hint", "error", "pong"}
        lines = [line for m in received if m["type"] == "state" for line in m["log"]]
        if "person" in kinds[1:]:  # (a bot moves at once: no take-back asked)
            assert any("takes_back" in line for line in lines)
        else:
            assert any("estimate" in line for line in lines)


def test_a_resignation_and_a_refused_hello_fit_the_schema(tmp_path):
    with app_client(tmp_path / "games.db") as client:
        made = create(client, "four_way", {"players": 2}, ["person", "person"])
        with client.websocket_connect(f"/ws/games/{made['id']}") as ws:
            stranger = Socket(ws)
            stranger.send({"type": "hello", "seat": 0, "token": "not the token"})
            refused = stranger.until(lambda m: m["type"] == "error", "a wrong token's refusal")
            assert refused["code"] == "forbidden"

        with ExitStack() as stack:
            ada, bea = (connect(client, stack, made, seat) for seat in (0, 1))
            ada.state(0)
            bea.state(0)
            ada.send({"type": "resign"})
            over = bea.until(
                lambda m: m["type"] == "state" and m["status"] == "finished", "the resigned end"
            )
        assert over["result"]["reason"] == "resigned" and over["result"]["resigned"] == 0


def test_the_served_schema_is_the_models_schema(tmp_path):
    with app_client(tmp_path / "games.db") as client:
        served = client.get("/api/schema/messages")
    assert served.status_code == 200
    assert served.json() == messages_schema()
    server = TypeAdapter(ServerMessage).json_schema(mode="serialization")
    assert served.json()["server"] == {"title": "ServerMessage", **server}
    assert served.json()["client"] == {
        "title": "ClientMessage",
        **TypeAdapter(ClientMessage).json_schema(),
    }
    told_apart = served.json()["server"]["discriminator"]["mapping"]
    assert sorted(told_apart) == ["chat", "error", "hint", "pong", "state", "why"]
