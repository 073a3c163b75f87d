"""The audit's probes of issue 40, rerun against a real `tminus serve` with its default limits.

    python scripts/limits_probe.py [--connections 1000] [--rematch-seconds 60]

It prints, for a server on loopback with an SQLite file of its own:
- how long silent and slowloris connections stay open, and how many of them an address keeps;
- whether a normal request is answered meanwhile;
- how many games a resign-and-rematch loop makes in a minute (and how many were refused).
The PostgreSQL outage figure comes from tests/server/test_outage.py (`pytest -s` prints it).
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.sync.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.server.live import LiveServer, create

GREEDY = {"kind": "bot", "bot": "greedy"}


def open_connections(server: LiveServer, count: int, slow: bool) -> list[socket.socket]:
    sockets = []
    for _ in range(count):
        try:
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        except OSError:
            continue
        if slow:
            sock.send(b"GET /api/catalog HTTP/1.1\r\n")
        sock.setblocking(False)
        sockets.append(sock)
    return sockets


def still_open(sockets: list[socket.socket], slow: bool) -> int:
    """How many the server has not closed; slow ones are sent one more byte of a header."""
    open_now = 0
    for sock in sockets:
        try:
            if sock.recv(1024) == b"":
                continue
        except BlockingIOError:
            pass
        except OSError:
            continue
        if slow:
            try:
                sock.send(b"X")
            except OSError:
                continue
        open_now += 1
    return open_now


def answer_to(server: LiveServer, address: str) -> str:
    """What a normal request from ``address`` (another loopback address: another client)
    gets while the probe's connections are open."""
    transport = httpx.HTTPTransport(local_address=address)
    try:
        with httpx.Client(transport=transport, timeout=5) as client:
            return f"was answered {client.get(server.url + '/api/catalog').status_code}"
    except httpx.HTTPError as error:
        return f"was refused ({type(error).__name__})"


def probe_connections(server: LiveServer, count: int, slow: bool) -> None:
    kind = "slowloris" if slow else "silent"
    started = time.monotonic()
    sockets = open_connections(server, count, slow)
    print(f"{kind}: {len(sockets)} connections opened from 127.0.0.1; meanwhile a normal "
          f"request from there {answer_to(server, '127.0.0.1')}, and from 127.0.0.2 "
          f"{answer_to(server, '127.0.0.2')}")  # fmt: skip
    seen = None
    while time.monotonic() - started < 60:
        open_now = still_open(sockets, slow)
        if open_now != seen:
            print(f"  after {time.monotonic() - started:5.1f} s: {open_now} still open")
            seen = open_now
        if open_now == 0:
            break
        time.sleep(1 if slow else 0.25)
    for sock in sockets:
        sock.close()


def probe_rematches(server: LiveServer, seconds: float) -> None:
    game = create(server, [{"kind": "person"}, GREEDY])
    game_id, seat, token = game["id"], 0, game["invites"][0]["token"]
    made, refused, started = 1, 0, time.monotonic()
    while time.monotonic() - started < seconds:
        with connect(f"ws://127.0.0.1:{server.port}/ws/games/{game_id}") as ws:
            ws.send(json.dumps({"type": "hello", "seat": seat, "token": token}))
            ws.send(json.dumps({"type": "resign"}))
            while json.loads(ws.recv(10)).get("status") != "finished":
                pass
            ws.send(json.dumps({"type": "rematch"}))
            answer = json.loads(ws.recv(10))
            while answer.get("type") != "error" and not answer.get("rematch"):
                answer = json.loads(ws.recv(10))
        if answer.get("type") == "error":
            refused += 1
            time.sleep(1)
            continue
        game_id, seat = answer["rematch"]["id"], answer["rematch"]["seats"][seat]
        made += 1
    took = time.monotonic() - started
    print(f"rematch loop: {made} games made in {took:.0f} s "
          f"({made * 60 / took:.0f} a minute), {refused} rematches refused")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=1000)
    parser.add_argument("--rematch-seconds", type=float, default=60)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        server = LiveServer(Path(folder) / "games.db").start()
        try:
            probe_connections(server, arguments.connections, slow=False)
            probe_connections(server, arguments.connections, slow=True)
            probe_rematches(server, arguments.rematch_seconds)
        finally:
            server.stop()


if __name__ == "__main__":
    main()
