"""Load test: many games at once over WebSockets, on loopback, bounded in time.

    python -m tminus.server.load --games 50 --seconds 30

starts `tminus serve` on a free loopback port with a fresh SQLite file, no bot delay and
no per-client limits (or uses ``--url`` of a server already running on this machine), and
keeps ``--games`` games running (a finished game is replaced by a new one). Each game's
seats follow ``--bots``: a bot spec, or ``person`` for a seat this tool plays itself (its
first legal move, at once). It reports the moves per second delivered (players' decisions,
bots' and persons') and the **move round trip** of the persons' moves, as the client
measures it: from sending a move to receiving the state that holds it (the server commits
the move, works out the next views and sends them in between). It stops by itself after
``--seconds`` (every wait is bounded by what is left); it refuses any address that is not
loopback.
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

import httpx
from websockets.asyncio.client import connect

GRACE = 5.0  # seconds past the deadline for everything to close
PERSON = "person"


@dataclass
class Tally:
    moves: int = 0  # players' decisions delivered
    actions: int = 0  # every action, chance included
    finished: int = 0
    started: int = 0
    elapsed: float = 0.0
    round_trips: list[float] = field(default_factory=list)  # seconds, persons' moves
    errors: list[str] = field(default_factory=list)


def loopback_only(url: str) -> None:
    host = urlparse(url).hostname or ""
    try:
        ok = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        ok = False
    if not ok:
        raise SystemExit(f"refusing {url}: the load test only talks to loopback addresses")


class Deadline:
    def __init__(self, seconds: float) -> None:
        self.at = time.monotonic() + seconds

    def left(self) -> float:
        return self.at - time.monotonic()


async def play_games(
    url: str, game: str, lineup: list[str], deadline: Deadline, tally: Tally
) -> None:
    """One of the concurrent slots: a game at a time, played to its end, until the deadline."""
    seats = [{"kind": PERSON} if s == PERSON else {"kind": "bot", "bot": s} for s in lineup]
    params = {"players": len(lineup)} if len(lineup) != 2 else {}
    body = {"game": game, "params": params, "seats": seats}
    async with httpx.AsyncClient(base_url=url) as client:
        while deadline.left() > 0:
            try:
                response = await client.post("/api/games", json=body, timeout=deadline.left())
            except (httpx.HTTPError, ValueError) as error:
                if deadline.left() > 0:
                    tally.errors.append(f"create: {error!r}")
                await asyncio.sleep(0.05)
                continue
            if response.status_code != 201:
                tally.errors.append(f"create: {response.status_code} {response.text[:200]}")
                await asyncio.sleep(min(1.0, max(0.0, deadline.left())))
                continue
            tally.started += 1
            try:
                await asyncio.wait_for(play_one(url, response.json(), tally), deadline.left())
            except TimeoutError:
                return
            except Exception as error:  # a refused or dropped socket: count it, go on
                tally.errors.append(f"socket: {error!r}")


async def play_one(url: str, created: dict, tally: Tally) -> None:
    """Watch (and play the persons' seats of) one game to its end."""
    ws_url = url.replace("http", "ws", 1) + f"/ws/games/{created['id']}"
    hellos = [{"type": "hello", "seat": i["seat"], "token": i["token"]} for i in created["invites"]]
    sockets = []
    try:
        for hello in hellos or [{"type": "hello"}]:
            ws = await connect(ws_url, max_size=2**24, open_timeout=None)
            sockets.append(ws)
            await ws.send(json.dumps(hello))
        await asyncio.gather(
            *(seat(ws, i == 0, bool(hellos), tally) for i, ws in enumerate(sockets))
        )
    finally:
        for ws in sockets:
            await ws.close()


async def seat(ws, counts: bool, plays: bool, tally: Tally) -> None:
    sent_at: dict[int, float] = {}  # move number a move was made for -> when it was sent
    while True:
        message = json.loads(await ws.recv())
        if message.get("type") == "error":
            if message["code"] != "stale":
                tally.errors.append(f"{message['code']}: {message['message']}")
            continue
        if message.get("type") != "state":
            continue
        number = message["move_number"]
        for made_for in [n for n in sent_at if n < number]:
            tally.round_trips.append(time.monotonic() - sent_at.pop(made_for))
        if counts:
            tally.actions += len(message["log"])
            tally.moves += sum(1 for e in message["log"] if e["actor"] >= 0)
        if message["status"] == "finished":
            tally.finished += counts
            return
        if plays and message["legal"] and number not in sent_at:
            sent_at[number] = time.monotonic()
            move = {"type": "move", "move_number": number, "action": message["legal"][0]["action"]}
            await ws.send(json.dumps(move))


async def run(url: str, games: int, seconds: float, game: str, lineup: list[str]) -> Tally:
    tally = Tally()
    deadline = Deadline(seconds)
    start = time.monotonic()
    slots = [
        asyncio.create_task(play_games(url, game, lineup, deadline, tally)) for _ in range(games)
    ]
    done, pending = await asyncio.wait(slots, timeout=seconds + GRACE)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    for task in done:
        if task.exception() is not None:
            tally.errors.append(repr(task.exception()))
    tally.elapsed = min(time.monotonic() - start, seconds)
    return tally


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db_path: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    command = [
        sys.executable, "-m", "tminus.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
        "--db", f"sqlite:///{db_path}", "--bot-delay", "0", "--creates-per-minute", "0",
        "--max-bot-games", "100000", "--sockets-per-client", "100000",
        "--max-sockets", "100000", "--messages-per-second", "0",
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


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) of a process and its descendants so far (Linux; else 0)."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    for entry in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = entry.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if entry.parent.name == str(pid) or descends(int(entry.parent.name), pid):
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def descends(pid: int, ancestor: int) -> bool:
    for _ in range(8):
        try:
            pid = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            return False
        if pid == ancestor:
            return True
        if pid <= 1:
            return False
    return False


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50, help="concurrent games")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long to run (max 600)")
    parser.add_argument("--game", default="four_way")
    parser.add_argument(
        "--bots", default="person,greedy,greedy,greedy", help="seat lineup (person: this tool)"
    )
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
        cpu_before = cpu_seconds(process.pid) if process else 0.0
        client_before = time.process_time()
        try:
            tally = asyncio.run(run(url, games, seconds, args.game, lineup))
            server_cpu = cpu_seconds(process.pid) - cpu_before if process else None
            client_cpu = time.process_time() - client_before
        finally:
            if process is not None:
                process.terminate()
                process.wait(timeout=20)
    p50, p99 = percentile(tally.round_trips, 50), percentile(tally.round_trips, 99)
    figures = {
        "games_concurrent": games,
        "seconds": round(tally.elapsed, 2),
        "games_started": tally.started,
        "games_finished": tally.finished,
        "moves": tally.moves,
        "actions": tally.actions,
        "moves_per_second": round(tally.moves / tally.elapsed, 1),
        "actions_per_second": round(tally.actions / tally.elapsed, 1),
        "round_trips": len(tally.round_trips),
        "round_trip_ms_p50": None if p50 is None else round(p50 * 1000, 2),
        "round_trip_ms_p99": None if p99 is None else round(p99 * 1000, 2),
        # CPU the server (and its bot workers) spent per move: what an idle machine would
        # need, whatever else ran meanwhile.
        "server_cpu_ms_per_move": (
            round(server_cpu * 1000 / tally.moves, 3) if server_cpu and tally.moves else None
        ),
        "client_cpu_ms_per_move": (
            round(client_cpu * 1000 / tally.moves, 3) if tally.moves else None
        ),
        "load_average": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
        "errors": len(tally.errors),
        "first_errors": tally.errors[:5],
    }
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        latency = (
            f"move round trip p50 {figures['round_trip_ms_p50']} ms, "
            f"p99 {figures['round_trip_ms_p99']} ms ({len(tally.round_trips)} moves)"
            if tally.round_trips
            else "no person seat: no round trip measured"
        )
        print(
            f"{games} concurrent {args.game} games ({','.join(lineup)}) "
            f"for {figures['seconds']} s: {figures['moves_per_second']} moves/s "
            f"({figures['actions_per_second']} actions/s with chance), {latency}, "
            f"{tally.finished} games finished, {len(tally.errors)} errors"
        )
        if figures["server_cpu_ms_per_move"] is not None:
            print(
                f"  CPU a move: server (with bot workers) {figures['server_cpu_ms_per_move']} ms, "
                f"this tool {figures['client_cpu_ms_per_move']} ms; machine load average "
                f"{figures['load_average']:.1f} on {os.cpu_count()} cores"
            )
        for problem in figures["first_errors"]:
            print(f"  error: {problem}")
    return figures


if __name__ == "__main__":  # pragma: no cover
    main()
