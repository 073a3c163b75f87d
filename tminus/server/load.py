"""Load test: many bot-only games at once over WebSockets, on loopback, bounded in time.

    python -m tminus.server.load --games 50 --seconds 30

starts `tminus serve` on a free loopback port with a fresh SQLite file and no bot delay
(or uses ``--url`` of a server already running on this machine), keeps ``--games`` bot-only
games running (a finished game is replaced by a new one), watches each through a spectator
WebSocket, and reports the moves per second delivered. It stops by itself after
``--seconds``; it refuses any address that is not loopback.
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

import httpx
from websockets.asyncio.client import connect


@dataclass
class Tally:
    moves: int = 0  # players' decisions delivered to the spectators
    actions: int = 0  # every action, chance included
    finished: int = 0
    started: int = 0
    elapsed: float = 0.0
    errors: list[str] = field(default_factory=list)


def loopback_only(url: str) -> None:
    host = urlparse(url).hostname or ""
    try:
        ok = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        ok = False
    if not ok:
        raise SystemExit(f"refusing {url}: the load test only talks to loopback addresses")


async def watch_games(
    url: str, slot: int, game: str, lineup: list[str], deadline: float, tally: Tally
) -> None:
    """One of the concurrent slots: a game at a time, watched to its end, until the deadline."""
    seats = [{"kind": "bot", "bot": spec} for spec in lineup]
    params = {"players": len(lineup)} if len(lineup) != 2 else {}
    ws_base = url.replace("http", "ws", 1)
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        while time.monotonic() < deadline:
            body = {"game": game, "params": params, "seats": seats}
            for attempt in range(3):
                try:  # a kept-alive connection may have been closed by the server meanwhile
                    response = await client.post("/api/games", json=body)
                    break
                except httpx.TransportError as error:
                    if attempt == 2:
                        tally.errors.append(repr(error))
                        return
            if response.status_code != 201:
                tally.errors.append(response.text)
                return
            game_id = response.json()["id"]
            tally.started += 1
            async with connect(f"{ws_base}/ws/games/{game_id}", max_size=2**24) as ws:
                await ws.send(json.dumps({"type": "hello"}))
                while True:
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        return
                    try:
                        message = json.loads(await asyncio.wait_for(ws.recv(), remaining))
                    except TimeoutError:
                        return
                    if message.get("type") != "state":
                        continue
                    tally.actions += len(message["log"])
                    tally.moves += sum(1 for e in message["log"] if e["actor"] >= 0)
                    if message["status"] == "finished":
                        tally.finished += 1
                        break


async def run(url: str, games: int, seconds: float, game: str, lineup: list[str]) -> Tally:
    tally = Tally()
    start = time.monotonic()
    deadline = start + seconds
    await asyncio.gather(
        *(watch_games(url, i, game, lineup, deadline, tally) for i in range(games))
    )
    tally.elapsed = time.monotonic() - start
    return tally


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db_path: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    command = [
        sys.executable, "-m", "tminus.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
        "--db", f"sqlite:///{db_path}", "--bot-delay", "0",
    ]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, env=dict(os.environ))
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            if httpx.get(f"{url}/api/catalog", timeout=1).status_code == 200:
                return process, url
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("the server did not start")


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50, help="concurrent games")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long to run (max 600)")
    parser.add_argument("--game", default="four_way")
    parser.add_argument("--bots", default="greedy,greedy,greedy,greedy", help="seat lineup")
    parser.add_argument("--url", help="a running server on loopback (default: start one)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    seconds = min(max(args.seconds, 0.5), 600.0)
    games = min(max(args.games, 1), 500)
    lineup = [b.strip() for b in args.bots.split(",") if b.strip()]
    process = None
    with tempfile.TemporaryDirectory() as tmp:
        if args.url:
            loopback_only(args.url)
            url = args.url.rstrip("/")
        else:
            process, url = start_server(Path(tmp) / "load.db")
        try:
            tally = asyncio.run(run(url, games, seconds, args.game, lineup))
        finally:
            if process is not None:
                process.terminate()
                process.wait(timeout=20)
    figures = {
        "games_concurrent": games,
        "seconds": round(tally.elapsed, 2),
        "games_started": tally.started,
        "games_finished": tally.finished,
        "moves": tally.moves,
        "actions": tally.actions,
        "moves_per_second": round(tally.moves / tally.elapsed, 1),
        "actions_per_second": round(tally.actions / tally.elapsed, 1),
        "errors": tally.errors[:5],
    }
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(
            f"{games} concurrent {args.game} games ({','.join(lineup)}) "
            f"for {figures['seconds']} s: {figures['moves_per_second']} moves/s "
            f"({figures['actions_per_second']} actions/s with chance), "
            f"{tally.finished} games finished, {len(tally.errors)} errors"
        )
    return figures


if __name__ == "__main__":  # pragma: no cover
    main()
