"""Every WebSocket message of whole games, recorded: no seat ever receives what it may not see.

Runs on every registered game with hidden information (3-2-1 Countdown and Count Down once
they are merged) and on a test game whose secrets are unmistakable strings. All seats are
persons on their own sockets, with a spectator; the test plays random legal moves.
"""

from __future__ import annotations

import contextlib
import json
import random
import re

import numpy as np
import pytest
from fastapi.testclient import TestClient

from tminus.core.conformance import check_conformance
from tminus.core.registry import (
    game_class,
    list_games,
    load_game,
    register_game,
    unregister_game,
)
from tminus.review.review import about_equal, compared_to_best
from tminus.server.app import create_app
from tminus.server.limits import Limits
from tminus.server.reviews import SAMPLES
from tminus.server.takeback import TAKE_BACK, play_row

from .helpers import receive_json, receive_text
from .secret_game import WORDS, SecretGame

HINT_WORLDS = SAMPLES  # worlds a hint is played out in here: its first round only
MAX_MOVES = 400
CHAT_AT = {2: "good luck", 9: "<b>nice</b>", 20: "well played"}  # move: a line of table talk
# From these moves on, the first move that may be taken back is asked about by its player;
# the others accept (True) or refuse.
TAKE_BACK_FROM = [(1, True), (4, False), (7, True), (12, True), (30, True)]
HINT_AT = {3, 10, 25}  # moves before which the player to move asks for a hint


@pytest.fixture
def registered():
    register_game(SecretGame)
    yield
    unregister_game(SecretGame.name)


@pytest.fixture
def client(tmp_path, registered):
    # Moves as fast as the test can make them: no rate limit per socket.
    # Hints sampled in a fixed number of worlds, not for a time: what they say is
    # reproducible here (and a few worlds show what a hint tells as well as many).
    limits = Limits(messages_per_second=0, hint_budget=None, hint_worlds=HINT_WORLDS)
    app = create_app(f"sqlite:///{tmp_path / 'games.db'}", 0, limits)
    with TestClient(app) as client:
        yield client


def play_recorded(client, game_name, params, seed):
    """Play a game with random legal moves; return (table, {viewer: [messages]}). Its
    sockets are closed however it ends (one left open would keep the test client's exit
    waiting for it, for good, after a failure)."""
    with contextlib.ExitStack() as sockets_open:
        return play_recorded_with(sockets_open, client, game_name, params, seed)


def play_recorded_with(sockets_open, client, game_name, params, seed):
    rng = random.Random(seed)
    service = client.app.state.service
    players = load_game(game_name, **params).num_players
    persons = [{"kind": "person"}] * players
    created = client.portal.call(service.create, game_name, params, persons, False, None, True)
    table, tokens = created.table, created.tokens
    players = table.game.num_players
    viewers = [*range(players), None]
    records = {v: [] for v in viewers}
    sockets = {}
    for viewer in viewers:
        ws = sockets_open.enter_context(client.websocket_connect(f"/ws/games/{table.id}"))
        token = None if viewer is None else tokens[viewer]
        ws.send_json({"type": "hello", "seat": viewer, "token": token})
        sockets[viewer] = ws
        # A seat's hello is answered to every socket already open (a seat joined); a
        # spectator's to the spectator only.
        told = [None] if viewer is None else viewers[: viewers.index(viewer) + 1]
        for other in told:
            records[other].append(receive_text(sockets[other], f"seat {viewer}'s hello, told"))
    take_backs = list(TAKE_BACK_FROM)
    for turn in range(MAX_MOVES):
        last = {v: last_state(records[v]) for v in viewers}
        if last[None]["status"] != "playing":
            break
        mover = last[None]["to_move"]
        if turn in CHAT_AT:  # table talk reaches everyone, spectators too
            sockets[mover].send_json({"type": "chat", "text": CHAT_AT[turn]})
            for viewer in viewers:
                records[viewer].append(receive_text(sockets[viewer], f"table talk at turn {turn}"))
        if turn in HINT_AT:  # the table is told; the hint goes to the one who asked
            sockets[mover].send_json({"type": "hint", "move_number": last[mover]["move_number"]})
            for viewer in viewers:
                said = f"the table told of a hint at turn {turn}"
                records[viewer].append(receive_text(sockets[viewer], said))
            records[mover].append(receive_text(sockets[mover], f"the hint asked at turn {turn}"))
        choice = rng.choice(last[mover]["legal"])
        sockets[mover].send_json(
            {"type": "move", "move_number": last[mover]["move_number"], "action": choice["action"]}
        )
        for viewer in viewers:
            records[viewer].append(receive_text(sockets[viewer], f"the state after turn {turn}"))
        asker = last_state(records[None])["may_take_back"]
        if take_backs and turn >= take_backs[0][0] and asker is not None:
            take_back_recorded(sockets, records, viewers, asker, take_backs.pop(0)[1])
    if last_state(records[None])["status"] == "finished":  # play again: everyone is told
        sockets[0].send_json({"type": "rematch"})
        for viewer in viewers:
            records[viewer].append(receive_text(sockets[viewer], "the rematch offer"))
        assert last_state(records[None])["rematch"]["id"] == table.record.rematch
    return table, records, tokens


def take_back_recorded(sockets, records, viewers, asker, accept):
    """``asker`` asks to take back its move, and the other seats answer (all accept, or
    the first refuses): each step is a state and a line of table talk, to everyone."""
    number = last_state(records[None])["move_number"]
    steps = [(asker, {"type": "take_back", "move_number": number})]
    others = [v for v in viewers if v is not None and v != asker]
    answer = {"type": "take_back_answer", "move_number": number, "accept": accept}
    steps += [(other, answer) for other in (others if accept else others[:1])]
    for seat, message in steps:
        sockets[seat].send_json(message)
        for viewer in viewers:
            told = f"a take-back's state and table talk ({message['type']})"
            records[viewer].extend(receive_text(sockets[viewer], told) for _ in range(2))
    taken = last_state(records[None])["move_number"] == number + 1
    assert taken == accept


def last_state(texts):
    return next(m for m in map(json.loads, reversed(texts)) if m["type"] == "state")


TABLE_LINE = re.compile(
    r".+ (asks to take back their move: “.+”|accepts: the move is taken back"
    r"|accepts \(waiting for .+\)|refuses: the move stands|asks for a hint)"
)


def check_chat(message, tokens, seed):
    """A chat message: lines of table talk, and nothing else (no token, no seed)."""
    assert set(message) <= {"type", "messages", "history"}
    for line in message["messages"]:
        assert set(line) == {"index", "seat", "text", "at"}
        if line["seat"] is None:  # the table's own: a take-back asked for and answered
            assert TABLE_LINE.fullmatch(line["text"]), line["text"]
        else:
            assert line["text"] in CHAT_AT.values()
    text = json.dumps(message)
    assert seed not in text and not any(token in text for token in tokens.values())


def check_hint(state, seat, message):
    """The hint reads nothing ``seat`` cannot see: a world that seat cannot tell from this
    one (other hands, the deck's order redrawn) gets the same hint."""
    imagined = state.resample_hidden(seat, np.random.default_rng(11))
    found = compared_to_best(
        imagined, seat, samples=SAMPLES, seed=len(state.history()), max_samples=HINT_WORLDS
    )
    best, value, _ = found[0]
    assert message["action"] == best and message["chance"] == value.mean
    assert message["equal"] == about_equal(found) and message["worlds"] == value.count
    assert set(message) == {
        "type", "seat", "move_number", "label", "labels", "action", "chance", "error", "width",
        "equal", "worlds", "note",
    }  # fmt: skip
    assert message["note"] is None  # (only a Sputnik duel's hint waits for a table)


def check_messages(table, records, tokens):
    """Each message holds exactly the seat's view, recomputed here by replaying the log (its
    rows: actions and take-backs)."""
    rows = [entry.action for entry in table.log]
    players = table.game.num_players
    for viewer, texts in records.items():
        log: list[str] = []
        # Messages come in move order: replay the log along with them.
        state = table.game.new_initial_state()
        expected_log: list[str] = []
        standing: list[tuple[int, str]] = []  # (actor, line as this viewer reads it)
        for text in texts:
            message = json.loads(text)
            if message["type"] == "chat":
                check_chat(message, tokens, table.record.seed)
                continue
            if message["type"] == "hint":  # to the seat that asked, at the position it saw
                assert message["seat"] == viewer and message["move_number"] == len(expected_log)
                check_hint(state, viewer, message)
                continue
            assert message["type"] == "state"
            number = message["move_number"]
            assert number >= len(expected_log)
            names = [seat["name"] for seat in message["seats"]]
            for action in rows[len(expected_log) : number]:
                if action == TAKE_BACK:
                    expected_log.append(f"Taken back: {standing.pop()[1]}")
                else:
                    standing.append((state.current_player(), state.narrate(action, names, viewer)))
                    expected_log.append(standing[-1][1])
                state = play_row(table.game, state, action)
            if viewer is None:
                assert message["observation"] == state.public_observation()
            else:
                assert message["observation"] == state.observation(viewer)
            del log[message["log_from"] :]
            log.extend(entry["text"] for entry in message["log"])
            assert log == expected_log
            request = message["take_back"]
            if request is not None:  # the move asked about, as this viewer saw it
                assert (request["seat"], request["move"]) == standing[-1]
            legal = [m["action"] for m in message["legal"]]
            mine = viewer is not None and state.current_player() == viewer
            assert legal == (
                state.legal_actions() if mine and message["status"] == "playing" else []
            )
            if message["status"] != "finished":
                assert message["seed"] is None and table.record.seed not in text
            for token in tokens.values():
                assert token not in text
            assert set(message) == {
                "type", "id", "game", "title", "params", "status", "seat", "move_number",
                "to_move", "observation", "legal", "log_from", "log", "seats", "commitment",
                "seed", "result", "rematch", "paused", "undo", "may_take_back", "take_back",
                "hints", "rated", "clock", "clocks",
            }  # fmt: skip
    assert len(records) == players + 1
    said = [m for m in map(json.loads, records[None]) if m["type"] == "chat"]
    talk = [m["messages"][0]["text"] for m in said if m["messages"][0]["seat"] is not None]
    assert talk == list(CHAT_AT.values())[: len(talk)]


@pytest.mark.parametrize("seed", range(6))
def test_no_secret_word_reaches_another_seat(client, seed):
    params = {"players": 2 + seed % 2}
    table, records, tokens = play_recorded(client, "secret_words", params, seed)
    check_messages(table, records, tokens)
    words = table.state.words
    for viewer, texts in records.items():
        for text in texts:
            if json.loads(text).get("status") == "finished":
                continue
            for seat, word in enumerate(words):
                # A word shared with the viewer's own may of course appear.
                if seat != viewer and (viewer is None or words[viewer] != word):
                    assert WORDS[word] not in text, (viewer, seat)
    # The secrets were really sent to their owners (the check above is not vacuous).
    for seat, word in enumerate(words):
        assert any(WORDS[word] in text for text in records[seat])


@pytest.mark.parametrize("players", [2, 3])
def test_the_secret_game_keeps_the_contract(registered, players):
    check_conformance(SecretGame(players=players), seeds=range(50))


HIDDEN = [g for g in list_games() if game_class(g).information == "imperfect"]


@pytest.mark.parametrize("game_name", HIDDEN)
@pytest.mark.parametrize("seed", range(2))
def test_registered_hidden_information_games_leak_nothing(client, game_name, seed):
    configurations = game_class(game_name).configurations()
    params = configurations[seed % len(configurations)]
    table, records, tokens = play_recorded(client, game_name, params, seed)
    check_messages(table, records, tokens)
    # (Long games: a move was taken back, and a take-back refused, in each.)
    assert TAKE_BACK in [entry.action for entry in table.log]
    assert any("refuses: the move stands" in text for text in records[None])


def test_an_unfinished_game_exports_only_what_a_spectator_sees(client):
    service = client.app.state.service
    created = client.portal.call(
        service.create, "secret_words", {"players": 3}, [{"kind": "person"}] * 3
    )
    table = created.table
    client.portal.call(service.start, table, 0, created.tokens[0])
    export = client.get(f"/api/games/{table.id}/export").json()
    text = json.dumps(export)
    assert export["seed"] is None and table.record.seed not in text
    assert not any(word in text for word in WORDS)
    assert all(set(entry) == {"index", "actor", "text"} for entry in export["actions"])
    assert [e["text"] for e in export["actions"]] == [f"a word to seat {s}" for s in range(3)]


@pytest.mark.parametrize("seed", range(2))
def test_a_hot_seat_socket_is_sent_only_the_view_of_the_seat_it_plays_now(client, seed):
    """Seats 0 and 1 on one device (one socket), seat 2 elsewhere: each message the device
    gets is one seat's view, the seat it was passed to, with no other seat's word."""
    rng = random.Random(seed)
    service = client.app.state.service
    created = client.portal.call(
        service.create, "secret_words", {"players": 3}, [{"kind": "person"}] * 3
    )
    table, tokens = created.table, created.tokens
    device = client.websocket_connect(f"/ws/games/{table.id}").__enter__()
    device.send_json({"type": "hello", "seat": 0, "token": tokens[0],
                      "seats": [{"seat": 1, "token": tokens[1]}]})  # fmt: skip
    other = client.websocket_connect(f"/ws/games/{table.id}").__enter__()
    other.send_json({"type": "hello", "seat": 2, "token": tokens[2]})
    received = [receive_json(device, "the device's first state")]
    while received[-1]["status"] != "playing":  # (its seats joined, then seat 2: started)
        received.append(receive_json(device, "the started game, at the device"))
    last = {2: receive_json(other, "seat 2's first state")}
    while last[2]["status"] != "playing":
        last[2] = receive_json(other, "the started game, at seat 2")
    device.send_json({"type": "switch", "seat": 2})
    assert receive_json(device, "a switch refused")["code"] == "forbidden"  # not its seat
    # Passed to seat 1 once whoever moves first: a game may end before seat 1's turn.
    device.send_json({"type": "switch", "seat": 1})
    received.append(receive_json(device, "the device passed to seat 1"))
    assert received[-1]["seat"] == 1
    for _ in range(MAX_MOVES):
        state = received[-1]
        if state["status"] != "playing":
            break
        mover = state["to_move"]
        socket = other if mover == 2 else device
        if mover != 2 and state["seat"] != mover:  # passed to the next person at the device
            device.send_json({"type": "switch", "seat": mover})
            received.append(receive_json(device, f"the device passed to seat {mover}"))
            state = received[-1]
        view = state if mover != 2 else last[2]
        choice = rng.choice(view["legal"])
        socket.send_json({"type": "move", "move_number": view["move_number"],
                          "action": choice["action"]})  # fmt: skip
        received.append(receive_json(device, f"the state after seat {mover}'s move, at the device"))
        last[2] = receive_json(other, f"the state after seat {mover}'s move, at seat 2")
    device.__exit__(None, None, None)
    other.__exit__(None, None, None)
    states = [m for m in received if m["type"] == "state"]
    assert {m["seat"] for m in states} == {0, 1}
    history = table.state.history()
    words = table.state.words
    for message in states:
        replayed = table.game.new_initial_state()
        for action in history[: message["move_number"]]:
            replayed.apply_action(action)
        assert message["observation"] == replayed.observation(message["seat"])
        if message["status"] != "finished":
            for seat, word in enumerate(words):
                if word != words[message["seat"]]:
                    assert WORDS[word] not in json.dumps(message), (message["seat"], seat)


def test_a_hot_seat_hello_names_valid_seats_of_its_own(client, registered):
    service = client.app.state.service
    created = client.portal.call(
        service.create, "secret_words", {"players": 2}, [{"kind": "person"}] * 2
    )
    path = f"/ws/games/{created.table.id}"
    for hello in (
        {"type": "hello", "seat": 0, "token": created.tokens[0],
         "seats": [{"seat": 1, "token": "wrong"}]},
        {"type": "hello", "seats": [{"seat": 1, "token": created.tokens[1]}]},
    ):  # fmt: skip
        with client.websocket_connect(path) as ws:
            ws.send_json(hello)
            assert receive_json(ws, "a bad hello's refusal")["code"] in ("forbidden", "bad_request")
    assert not any(s.joined for s in created.table.record.seats)
