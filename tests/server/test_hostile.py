"""Issue 15: no client can freeze a game, exhaust memory or stop a restart.

One test (or more) for each finding: the slow reader, the create flood, the bot storm, the
locked database, binary frames and deep JSON, the pipelined hello, an unreplayable stored
game beside healthy ones (and, in test_schema.py, the schema against what is answered).
"""

from __future__ import annotations

import json
import sqlite3
import time
import tracemalloc
from pathlib import Path

import pytest
from starlette.websockets import WebSocketDisconnect
from typer.testing import CliRunner

from tminus.agents.levels import levels
from tminus.cli import app as cli

from .helpers import receive_json
from .live import LiveServer, RawSocket
from .test_api import app_client, call, create, seated, service, stored_ids

PERSON = {"kind": "person"}


@pytest.fixture
def live(tmp_path):
    servers = []

    def start(*options: str) -> LiveServer:
        server = LiveServer(tmp_path / "games.db", options=options).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


# -- 1. a spectator that never reads ------------------------------------------------------
def test_a_socket_that_does_not_read_is_closed_and_the_game_goes_on(live):
    server = live("--send-timeout", "1", "--messages-per-second", "0")
    game = server.post("/api/games", {"game": "sputnik", "params": {"radius": 12},
                                      "seats": [PERSON, PERSON]}).json()  # fmt: skip
    # A spectator with a tiny receive buffer that never reads what it is sent.
    slow = RawSocket(server, f"/ws/games/{game['id']}", rcvbuf=4096,
                     pipelined=json.dumps({"type": "hello"}))  # fmt: skip
    seats = [server.socket(game["id"], i["seat"], i["token"]) for i in game["invites"]]
    started = [seat.until(lambda m: m.get("type") == "state" and m["status"] == "playing")
               for seat in seats]  # fmt: skip
    states = started
    moves = 0
    while moves < 400 and states[0]["status"] == "playing":
        mover = next(i for i, s in enumerate(states) if s["legal"])
        seats[mover].send({"type": "move", "move_number": states[mover]["move_number"],
                           "action": states[mover]["legal"][-1]["action"]})  # fmt: skip
        number = states[mover]["move_number"]
        # Every move reaches both seats (a recv that waits 10 s fails the test).
        states = [seat.until(lambda m, n=number: m.get("type") == "state"
                             and m["move_number"] > n, timeout=10) for seat in seats]  # fmt: skip
        moves += 1
    assert moves == 400  # (today: 248 moves fill the buffers of the old server)
    assert slow.until_closed(timeout=30), "the server did not close the socket that never reads"
    for seat in seats:
        seat.close()


# -- 2. a flood of games: a limit per client, and memory bounded by the games in play --------
def test_games_created_from_one_address_are_limited_with_retry_after(tmp_path):
    with app_client(tmp_path / "games.db", creates_per_minute=5) as client:
        for _ in range(5):
            create(client, [PERSON, PERSON])
        response = client.post("/api/games", json={"game": "four_way", "seats": [PERSON, PERSON]})
        assert response.status_code == 429 and int(response.headers["Retry-After"]) >= 1
        assert response.json()["code"] == "rate_limited"
        assert "5 a minute" in response.json()["message"]
        assert len(stored_ids(client)) == 5


def test_memory_stays_bounded_by_the_cache_whatever_is_created(tmp_path):
    big = {"game": "sputnik", "params": {"radius": 12}, "seats": [PERSON, PERSON]}
    with app_client(tmp_path / "games.db", creates_per_minute=0, cache_size=4) as client:
        tracemalloc.start()
        sizes = []
        for _ in range(2):  # (the first batch also fills the game's own caches, made once)
            for _ in range(30):
                assert client.post("/api/games", json=big).status_code == 201
            sizes.append(tracemalloc.get_traced_memory()[0])
        tracemalloc.stop()
        assert len(service(client).tables) <= 4
        # 30 waiting games of Sputnik at radius 12 held 3 MB each; now next to nothing stays.
        print(f"memory grown by the second 30 games: {(sizes[1] - sizes[0]) / 1e6:.2f} MB")
        assert sizes[1] - sizes[0] < 3e6


# -- 3. a storm of search bots ----------------------------------------------------------------
def process_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_bots_think_outside_the_servers_process_and_are_limited(tmp_path):
    deep = {"kind": "bot", "bot": levels("four_way", players=4)[2]["spec"]}  # a search
    with app_client(tmp_path / "games.db", max_search_bots=4, bot_workers=1) as client:
        create(client, [deep] * 4, players=4)
        refused = client.post("/api/games", json={"game": "four_way", "seats": [PERSON, deep]})
        assert refused.status_code == 429 and refused.json()["code"] == "busy"
        assert "search bots" in refused.json()["message"] and refused.headers["Retry-After"]
        worker = client.app.state.bots.pool.lanes[0].process.pid
        thought = process_cpu(worker)
        started = time.process_time()  # this process: the server, and the test asking it
        latencies = []
        deadline = time.monotonic() + 120
        while process_cpu(worker) - thought < 1.5:
            assert time.monotonic() < deadline, "the bots did not think"
            began = time.perf_counter()
            assert client.get("/api/catalog").status_code == 200
            latencies.append(time.perf_counter() - began)
            time.sleep(0.1)  # a few questions a second: the asking costs next to nothing
        bots_cpu = process_cpu(worker) - thought
        server_cpu = time.process_time() - started
        latencies.sort()
        print(f"bots {bots_cpu:.2f} s CPU, server {server_cpu:.2f} s; /api/catalog p99 "
              f"{latencies[int(len(latencies) * 0.99)] * 1000:.1f} ms")  # fmt: skip
        assert server_cpu < bots_cpu / 2


def test_games_with_bots_thinking_are_limited_server_wide(tmp_path):
    greedy = {"kind": "bot", "bot": "greedy"}
    with app_client(tmp_path / "games.db", 5.0, max_bot_games=1) as client:
        create(client, [greedy] * 4, players=4)  # its bots wait 5 s before each move
        second = client.post("/api/games", json={"game": "four_way", "seats": [PERSON, greedy]})
        assert second.status_code == 429 and second.json()["code"] == "busy"
        assert "1 games have bots playing" in second.json()["message"]
        # Persons alone need no bot: always welcome.
        assert (
            client.post(
                "/api/games", json={"game": "four_way", "seats": [PERSON, PERSON]}
            ).status_code
            == 201
        )


# -- 4. a locked database -----------------------------------------------------------------------
def test_a_locked_database_is_a_clear_retryable_error_everywhere(tmp_path):
    with app_client(tmp_path / "games.db", busy_timeout=0.2) as client:
        game = create(client, [PERSON, PERSON])
        with (
            client.websocket_connect(f"/ws/games/{game['id']}") as ws0,
            client.websocket_connect(f"/ws/games/{game['id']}") as ws1,
        ):
            seated(client, ws0, game, 0)
            state = seated(client, ws1, game, 1)
            first = receive_json(ws0, "seat 0's state once seat 1 joined")
            mover, view = (ws0, first) if first["legal"] else (ws1, state)
            move = {"type": "move", "move_number": view["move_number"],
                    "action": view["legal"][0]["action"]}  # fmt: skip
            with sqlite3.connect(tmp_path / "games.db") as db:
                db.execute("BEGIN EXCLUSIVE")
                response = client.post("/api/games", json={"game": "four_way",
                                                           "seats": [PERSON, PERSON]})  # fmt: skip
                assert response.status_code == 503 and response.headers["Retry-After"] == "1"
                assert response.json()["type"] == "error"
                assert response.json()["code"] == "unavailable"
                assert "database is locked" in response.json()["message"]
                mover.send_json(move)
                answer = receive_json(mover, "the refusal of a move while the database is locked")
                assert answer["code"] == "unavailable" and "try again" in answer["message"]
                assert client.get("/api/catalog").status_code == 200
                mover.send_json({"type": "ping"})
                pong = receive_json(mover, "the pong while the database is locked")
                assert pong == {"type": "pong"}  # the socket stays
            mover.send_json(move)  # the same move, once the database is free again
            moved = receive_json(mover, "the state after the move retried")
            assert moved["move_number"] > view["move_number"]


# -- 5. binary frames and deep JSON ----------------------------------------------------------------
def test_a_binary_frame_is_refused_with_a_message_and_a_close_frame(client):
    game = create(client, [PERSON, PERSON])
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        seated(client, ws, game, 0)
        ws.send_bytes(b"\x00\x01binary")
        answer = receive_json(ws, "the refusal of a binary frame")
        assert answer == {"type": "error", "code": "bad_request",
                          "message": "binary frames are not accepted: send JSON text"}  # fmt: skip
        with pytest.raises(WebSocketDisconnect) as closed:
            receive_json(ws, "the close after the binary frame")
        assert closed.value.code == 1003


def test_deeply_nested_json_is_refused_and_the_socket_stays(client):
    game = create(client, [PERSON, PERSON])
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        seated(client, ws, game, 0)
        for deep in ("[" * 2000 + "]" * 2000, '{"a":' * 800 + "1" + "}" * 800):
            ws.send_text(deep)
            answer = receive_json(ws, "the refusal of deeply nested JSON")
            assert answer["type"] == "error" and answer["code"] == "bad_request"
            ws.send_json({"type": "ping"})
            assert receive_json(ws, "the pong after the refusal") == {"type": "pong"}


@pytest.fixture
def client(tmp_path):
    with app_client(tmp_path / "games.db") as client:
        yield client


# -- 6. the hello: pipelined with the handshake, or never said ---------------------------------
def test_a_hello_pipelined_with_the_handshake_is_answered_and_silence_is_not_waited_for(live):
    server = live("--hello-timeout", "0.5")
    game = server.post("/api/games", {"game": "four_way", "params": {},
                                      "seats": [PERSON, PERSON]}).json()  # fmt: skip
    hello = json.dumps({"type": "hello", "seat": 0, "token": game["invites"][0]["token"]})
    eager = RawSocket(server, f"/ws/games/{game['id']}", pipelined=hello)
    assert eager.handshake().startswith("HTTP/1.1 101")
    opcode, payload = eager.receive(timeout=10)
    assert opcode == 1 and json.loads(payload)["type"] == "state"
    assert json.loads(payload)["seat"] == 0
    silent = RawSocket(server, f"/ws/games/{game['id']}")
    silent.handshake()
    opcode, payload = silent.receive(timeout=10)
    assert json.loads(payload) == {"type": "error", "code": "bad_request",
                                   "message": "no hello within 0.5 s"}  # fmt: skip
    assert silent.until_closed(timeout=10)
    eager.close()


def test_sockets_per_address_and_messages_per_socket_are_limited(tmp_path):
    with app_client(tmp_path / "games.db", sockets_per_client=2, messages_per_second=1,
                    message_burst=3) as client:  # fmt: skip
        game = create(client, [PERSON, PERSON])
        path = f"/ws/games/{game['id']}"
        with client.websocket_connect(path) as ws0, client.websocket_connect(path) as ws1:
            with client.websocket_connect(path) as third:
                refused = receive_json(third, "the refusal of a third socket")
                assert (
                    refused["code"] == "rate_limited" and "too many sockets" in refused["message"]
                )
                with pytest.raises(WebSocketDisconnect) as closed:
                    receive_json(third, "the third socket's close")
                assert closed.value.code == 4429
            seated(client, ws0, game, 0)
            for _ in range(3):
                ws0.send_json({"type": "ping"})
                assert receive_json(ws0, "a pong within the burst") == {"type": "pong"}
            ws0.send_json({"type": "ping"})
            answer = receive_json(ws0, "the refusal of a ping over the rate")
            assert answer["code"] == "rate_limited" and "1 a second" in answer["message"]
            ws1.send_json({"type": "hello"})
            other = receive_json(ws1, "the spectator's state on the other socket")
            assert other["type"] == "state"  # other sockets are not held back


# -- 7. a restart with a game that no longer replays ----------------------------------------------
def test_the_server_starts_beside_a_game_that_no_longer_replays(tmp_path):
    db = tmp_path / "games.db"
    with app_client(db) as client:
        healthy = create(client, [PERSON, {"kind": "bot", "bot": "greedy"}])
        doomed = create(client, [PERSON, PERSON])
        for g in (healthy, doomed):
            call(client, service(client).start, call(client, service(client).get, g["id"]),
                 g["invites"][0]["seat"], g["invites"][0]["token"])  # fmt: skip
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE actions SET action = 77 WHERE game_id = ? AND \"index\" = 1",
                           (doomed["id"],))  # fmt: skip
    with app_client(db) as client:
        summary = client.get(f"/api/games/{doomed['id']}").json()
        assert summary["status"] == "broken" and "does not replay" in summary["problem"]
        export = client.get(f"/api/games/{doomed['id']}/export").json()
        assert export["status"] == "broken" and export["actions"][1]["action"] == 77
        assert client.get(f"/api/games/{healthy['id']}").json()["status"] == "playing"
        with client.websocket_connect(f"/ws/games/{doomed['id']}") as ws:
            ws.send_json({"type": "hello"})
            answer = receive_json(ws, "the refusal of a game that no longer replays")
            assert answer["code"] == "broken" and "cannot go on" in answer["message"]


# -- 8. one error shape, security headers, bounded bodies, a damaged database -----------------
def test_every_error_has_one_shape(client):
    for path, status in (("/nowhere", 404), ("/api/games/x", 404), ("/api/games?limit=x", 400),
                         ("/api/rules/chess", 404)):  # fmt: skip
        response = client.get(path)
        assert response.status_code == status
        assert set(response.json()) == {"type", "code", "message"}, path
    response = client.delete("/api/catalog")
    assert response.status_code == 405 and response.json()["type"] == "error"


def test_pages_and_answers_carry_security_headers(client):
    for path in ("/", "/api/catalog", "/static/js/game.js", "/nowhere"):
        headers = client.get(path).headers
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert "script-src 'self'" in headers["content-security-policy"]
        assert headers["x-frame-options"] == "DENY"
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "no-referrer"


def test_a_body_over_the_limit_is_refused_without_echoing_it(tmp_path):
    with app_client(tmp_path / "games.db", max_body=1000) as client:
        body = json.dumps({"game": "four_way", "seats": [PERSON, PERSON], "x": "y" * 5000})
        response = client.post("/api/games", content=body,
                               headers={"content-type": "application/json"})  # fmt: skip
        assert response.status_code == 413 and response.json()["code"] == "too_large"
        assert len(response.content) < 300 and "yyyy" not in response.text

        def chunks():  # no Content-Length: counted as it comes
            for _ in range(10):
                yield b" " * 500

        response = client.post("/api/games", content=chunks(),
                               headers={"content-type": "application/json"})  # fmt: skip
        assert response.status_code == 413
        assert stored_ids(client) == []


def test_a_damaged_database_is_one_clear_sentence(tmp_path):
    damaged = tmp_path / "games.db"
    damaged.write_bytes(b"this is not a database" * 500)
    result = CliRunner().invoke(cli, ["serve", "--db", f"sqlite:///{damaged}"])
    assert result.exit_code == 2
    assert "file is not a database" in result.output and "restore a backup" in result.output
    assert "Traceback" not in result.output
