"""Load test: many games at once over WebSockets, on loopback, bounded in time.

    python -m tminus.server.load --games 50 --seconds 30
    TMINUS_DATABASE_URL=postgresql://user:pw@host/db \
        python -m tminus.server.load --games 50 --processes 2
    python -m tminus.server.load --games 50 --servers http://127.0.0.1:8001,http://127.0.0.1:8002

starts `tminus serve` on a free loopback port with a fresh SQLite file, no bot delay and no
per-client limits (``TMINUS_DATABASE_URL`` or ``--db``: on that database instead,
``--processes`` of them on PostgreSQL; ``--servers``: servers already running on this
machine, e.g. behind nothing), and keeps ``--games`` games running (a finished game is
replaced by a new one); the games are shared out among the servers in turn, each played on
the server that created it. Each game's seats follow ``--bots``: a bot spec, or ``person``
for a seat this tool plays itself (its first legal move, at once). It reports the moves per
second delivered (players' decisions, bots' and persons') and the **move round trip** of
the persons' moves, as the client measures it: from sending a move to receiving the state
that holds it (the server commits the move, works out the next views and sends them in
between), and again for the moves sent from ``--warm-up`` seconds after its first games
were all made (the start, when every game is made and joined at once, left out). It stops
by itself after ``--seconds`` (every wait is bounded by what is left), resigning the games
it leaves unfinished; it refuses any address that is not loopback. With the servers it
started it also reports the CPU each spent per move (and a PostgreSQL server's on this
machine) and what one process delivered, for sizing.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ipaddress
import json
import math
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
WARM_UP = 5.0  # seconds after the first games are all made: the start's burst is over
PERSON = "person"


@dataclass
class Tally:
    moves: int = 0  # players' decisions delivered
    actions: int = 0  # every action, chance included
    finished: int = 0
    started: int = 0
    elapsed: float = 0.0
    round_trips: list[float] = field(default_factory=list)  # seconds, persons' moves
    settle_at: float = math.inf  # (monotonic) moves sent from then on: counted as settled too
    settled: list[float] = field(default_factory=list)  # the round trips of those moves
    errors: list[str] = field(default_factory=list)


def loopback_only(url: str) -> None:
    host = urlparse(url).hostname or ""
    try:
        ok = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        ok = False
    if not ok:
        raise SystemExit(f"refusing {url}: the load test only talks to loopback addresses")


@dataclass
class Settling:
    """The run settles ``warm_up`` seconds after each of its ``games`` slots made its first
    game (at the start every game is made and joined at once: at 200 games that took several
    seconds). A run whose slots did not all make one never settles (no settled figures)."""

    games: int
    warm_up: float
    tallies: list[Tally]
    made: int = 0

    def first_made(self) -> None:
        self.made += 1
        if self.made == self.games:
            for tally in self.tallies:
                tally.settle_at = time.monotonic() + self.warm_up


class Deadline:
    def __init__(self, seconds: float) -> None:
        self.at = time.monotonic() + seconds

    def left(self) -> float:
        return self.at - time.monotonic()


async def play_games(
    url: str, game: str, lineup: list[str], deadline: Deadline, tally: Tally, settling: Settling
) -> None:
    """One of the concurrent slots: a game at a time, played to its end, until the deadline."""
    seats = [{"kind": PERSON} if s == PERSON else {"kind": "bot", "bot": s} for s in lineup]
    params = {"players": len(lineup)}  # (always named: the games' defaults differ)
    body = {"game": game, "params": params, "seats": seats}
    # A game outlasts the server's keep-alive (uvicorn: 5 s), so the next create must not
    # reuse a connection the server may be closing at that moment: keep them 1 s at most.
    limits = httpx.Limits(keepalive_expiry=1.0)
    async with httpx.AsyncClient(base_url=url, limits=limits) as client:
        first = True
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
            if first:
                settling.first_made()
                first = False
            try:
                async with asyncio.timeout(deadline.left()):
                    await play_one(url, response.json(), tally)
            except TimeoutError:
                return
            except Exception as error:  # a refused or dropped socket: count it, go on
                tally.errors.append(f"socket: {error!r}")


async def play_one(url: str, created: dict, tally: Tally) -> None:
    """Watch (and play the persons' seats of) one game to its end; if the time is up first,
    resign it (so that no game is left waiting for this tool)."""
    ws_url = url.replace("http", "ws", 1) + f"/ws/games/{created['id']}"
    hellos = [{"type": "hello", "seat": i["seat"], "token": i["token"]} for i in created["invites"]]
    sockets = []
    finished = False
    try:
        for hello in hellos or [{"type": "hello"}]:
            ws = await connect(ws_url, max_size=2**24, open_timeout=None)
            sockets.append(ws)
            await ws.send(json.dumps(hello))
        await asyncio.gather(
            *(seat(ws, i == 0, bool(hellos), tally) for i, ws in enumerate(sockets))
        )
        finished = True
    finally:
        if hellos and sockets and not finished:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(1):
                    await sockets[0].send(json.dumps({"type": "resign"}))
        for ws in sockets:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(1):
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
            sent = sent_at.pop(made_for)
            tally.round_trips.append(time.monotonic() - sent)
            if sent >= tally.settle_at:
                tally.settled.append(tally.round_trips[-1])
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


async def run(
    urls: list[str], games: int, seconds: float, game: str, lineup: list[str], warm_up: float
) -> list[Tally]:
    """Play for ``seconds``: the tally of each server (the games are shared out in turn); the
    moves sent once the run settled (``Settling``) are counted as settled too."""
    start = time.monotonic()
    tallies = [Tally() for _ in urls]
    settling = Settling(games, warm_up, tallies)
    deadline = Deadline(seconds)
    slots = [
        asyncio.create_task(
            play_games(
                urls[i % len(urls)], game, lineup, deadline, tallies[i % len(urls)], settling
            )
        )
        for i in range(games)
    ]
    done, pending = await asyncio.wait(slots, timeout=seconds + GRACE)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    for i, task in enumerate(slots):
        if task in done and task.exception() is not None:
            tallies[i % len(urls)].errors.append(repr(task.exception()))
    for tally in tallies:
        tally.elapsed = min(time.monotonic() - start, seconds)
    return tallies


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db_url: str) -> tuple[subprocess.Popen, str]:
    port = free_port()
    command = [
        sys.executable, "-m", "tminus.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
        "--bot-delay", "0", "--creates-per-minute", "0",
        "--max-bot-games", "100000", "--sockets-per-client", "100000",
        "--max-sockets", "100000", "--messages-per-second", "0",
        "--connections-per-address", "100000",  # (every game's connections come from here)
        "--no-build-tables",  # (a table's build in the background would be measured too)
    ]  # fmt: skip
    # The URL goes in the environment: on the command line every user of the machine sees it.
    env = {**os.environ, "TMINUS_DATABASE_URL": db_url}
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, env=env)
    return process, f"http://127.0.0.1:{port}"


def wait_until_up(process: subprocess.Popen, url: str) -> None:
    for _ in range(300):
        if process.poll() is not None:
            raise SystemExit(f"the server on {url} did not start (exit code {process.returncode})")
        try:
            if httpx.get(f"{url}/api/catalog", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("the server did not start")


def rss_mb(pid: int) -> float | None:
    """Resident memory of a process (Linux), in MB."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def cpu_seconds(pid: int, reaped: bool = False) -> float:
    """CPU time (user + system) of a process and its descendants so far (Linux; else 0);
    ``reaped``: with its children that ended and that it waited for (a database's
    connections and workers come and go)."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    for entry in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = entry.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if entry.parent.name == str(pid) or descends(int(entry.parent.name), pid):
            total += (int(fields[11]) + int(fields[12])) / tick
            if reaped and entry.parent.name == str(pid):
                total += (int(fields[13]) + int(fields[14])) / tick
    return total


def database_server(db: str) -> int | None:
    """The process id of the PostgreSQL server (its postmaster) that holds ``db``, if it
    runs on this machine and may be seen here: its CPU is counted beside the servers'.
    None for SQLite (which works inside the servers) or a database elsewhere."""
    from sqlalchemy import text

    from tminus.server.store_engine import is_shared, make_engine

    if not is_shared(db):
        return None

    async def postmaster() -> int | None:
        engine = make_engine(db)
        try:
            async with engine.connect() as connection:  # (read while its process lives)
                process = int(await connection.scalar(text("SELECT pg_backend_pid()")))
                parent = parent_of(process)
                # (A server in a container numbers its processes apart: the pid it gives
                # may be another process here. A connection's parent is the postmaster,
                # whose own parent is no PostgreSQL process.)
                if command_of(process) == command_of(parent) == "postgres":
                    return None if command_of(parent_of(parent)) == "postgres" else parent
                return None
        finally:
            await engine.dispose()

    try:
        return asyncio.run(postmaster())
    except Exception:  # (unreachable, no /proc: the figure is left out)
        return None


def parent_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def command_of(pid: int) -> str:
    return Path(f"/proc/{pid}/comm").read_text().strip()


def descends(pid: int, ancestor: int) -> bool:
    for _ in range(8):
        try:
            pid = parent_of(pid)
        except (OSError, ValueError, IndexError):
            return False
        if pid == ancestor:
            return True
        if pid <= 1:
            return False
    return False


def percentile(values: list[float], q: int) -> float | None:
    """The ``q``-th percentile (1 to 99) of ``values``."""
    if not values:
        return None
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50, help="concurrent games")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long to run (max 600)")
    parser.add_argument("--game", default="four_way")
    parser.add_argument(
        "--bots", default="person,greedy,greedy,greedy", help="seat lineup (person: this tool)"
    )
    parser.add_argument("--url", help="a running server on loopback (default: start one)")
    parser.add_argument(
        "--servers", help="running servers on loopback, comma-separated: the games are shared"
    )
    parser.add_argument(
        "--db",
        default=os.environ.get("TMINUS_DATABASE_URL"),
        help="start the servers on this database (default: TMINUS_DATABASE_URL, else a fresh "
        "SQLite file); a URL with a password belongs in TMINUS_DATABASE_URL, not here",
    )
    parser.add_argument(
        "--processes", type=int, default=1, help="server processes to start (PostgreSQL)"
    )
    parser.add_argument(
        "--warm-up", type=float, default=WARM_UP,
        help="seconds after the first games are made from which round trips also count as "
        "settled",
    )  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    return parser.parse_args(argv)


def start_servers(db: str, count: int) -> tuple[list[subprocess.Popen], list[str]]:
    """``count`` server processes on ``db``, each up (all killed if one fails to start)."""
    if count > 1 and db.startswith("sqlite"):
        raise SystemExit("several processes need PostgreSQL: TMINUS_DATABASE_URL=postgresql://...")
    processes: list[subprocess.Popen] = []
    urls: list[str] = []
    try:
        for _ in range(count):
            process, url = start_server(db)
            processes.append(process)
            urls.append(url)
        for process, url in zip(processes, urls, strict=True):
            wait_until_up(process, url)
    except BaseException:
        for process in processes:
            process.kill()
        raise
    return processes, urls


def stop_servers(processes: list[subprocess.Popen]) -> None:
    for process in processes:
        process.terminate()
    for process in processes:
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


def main(argv: list[str] | None = None) -> dict:
    args = arguments(argv)
    if args.warm_up < 0:
        raise SystemExit("--warm-up is 0 seconds or more")
    seconds = min(max(args.seconds, 0.5), 600.0)
    games = min(max(args.games, 1), 500)
    lineup = [b.strip() for b in args.bots.split(",") if b.strip()]
    given = [u.strip().rstrip("/") for u in (args.servers or args.url or "").split(",")]
    given = [u for u in given if u]
    for url in given:
        loopback_only(url)
    processes: list[subprocess.Popen] = []
    with tempfile.TemporaryDirectory() as tmp:
        urls = given
        if not given:
            db = args.db or f"sqlite:///{Path(tmp) / 'load.db'}"
            processes, urls = start_servers(db, max(1, args.processes))
        database = database_server(args.db) if processes and args.db else None
        database_before = cpu_seconds(database, reaped=True) if database else 0.0
        cpu_before = [cpu_seconds(p.pid) for p in processes]
        client_before = time.process_time()
        load_before = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
        try:
            tallies = asyncio.run(run(urls, games, seconds, args.game, lineup, args.warm_up))
            server_cpu = [
                cpu_seconds(p.pid) - b for p, b in zip(processes, cpu_before, strict=True)
            ]
            client_cpu = time.process_time() - client_before
            database_cpu = cpu_seconds(database, reaped=True) - database_before if database else 0
            memory = [rss_mb(p.pid) for p in processes]
        finally:
            stop_servers(processes)
    figures = report(urls, tallies, games, server_cpu if processes else [], client_cpu)
    figures["database_cpu_ms_per_move"] = per_move(database_cpu, figures["moves"])
    figures["load_average_before"] = load_before
    figures["server_rss_mb"] = (
        [None if m is None else round(m, 1) for m in memory] if processes else []
    )
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print_report(figures, args.game, lineup)
    return figures


def report(urls, tallies: list[Tally], games: int, server_cpu: list[float], client_cpu: float):
    """The figures of a run: in all, and for each server."""
    total = Tally(elapsed=max(t.elapsed for t in tallies))
    for tally in tallies:
        for name in ("moves", "actions", "finished", "started"):
            setattr(total, name, getattr(total, name) + getattr(tally, name))
        total.round_trips += tally.round_trips
        total.settled += tally.settled
        total.errors += tally.errors
    figures = figures_of(total, games)
    figures["servers"] = []
    for i, (url, tally) in enumerate(zip(urls, tallies, strict=True)):
        share = figures_of(tally, len(range(i, games, len(urls))))
        share["url"] = url
        if server_cpu:
            share["server_cpu_ms_per_move"] = per_move(server_cpu[i], tally.moves)
        figures["servers"].append(share)
    # CPU the servers (and their bot workers) spent per move: what an idle machine would
    # need, whatever else ran meanwhile.
    figures["server_cpu_ms_per_move"] = (
        per_move(sum(server_cpu), total.moves) if server_cpu else None
    )
    figures["client_cpu_ms_per_move"] = per_move(client_cpu, total.moves)
    figures["load_average"] = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    figures["cores"] = os.cpu_count()
    return figures


def per_move(cpu: float, moves: int) -> float | None:
    return round(cpu * 1000 / moves, 3) if cpu and moves else None


def figures_of(tally: Tally, games: int) -> dict:
    p50, p99 = percentile(tally.round_trips, 50), percentile(tally.round_trips, 99)
    settled_p50, settled_p99 = percentile(tally.settled, 50), percentile(tally.settled, 99)
    elapsed = tally.elapsed or 1.0
    return {
        "games_concurrent": games,
        "seconds": round(tally.elapsed, 2),
        "games_started": tally.started,
        "games_finished": tally.finished,
        "moves": tally.moves,
        "actions": tally.actions,
        "moves_per_second": round(tally.moves / elapsed, 1),
        "actions_per_second": round(tally.actions / elapsed, 1),
        "round_trips": len(tally.round_trips),
        "round_trip_ms_p50": None if p50 is None else round(p50 * 1000, 2),
        "round_trip_ms_p99": None if p99 is None else round(p99 * 1000, 2),
        # (Those of the moves sent after the warm-up: at the start every game is being made
        # and joined at once, a burst a server in service does not see.)
        "round_trips_settled": len(tally.settled),
        "round_trip_ms_p50_settled": None if settled_p50 is None else round(settled_p50 * 1000, 2),
        "round_trip_ms_p99_settled": None if settled_p99 is None else round(settled_p99 * 1000, 2),
        "errors": len(tally.errors),
        "first_errors": tally.errors[:5],
    }


def print_report(figures: dict, game: str, lineup: list[str]) -> None:
    servers = figures["servers"]
    latency = (
        f"move round trip p50 {figures['round_trip_ms_p50']} ms, "
        f"p99 {figures['round_trip_ms_p99']} ms ({figures['round_trips']} moves"
        + (
            f"; of those sent after the warm-up, p50 {figures['round_trip_ms_p50_settled']} ms,"
            f" p99 {figures['round_trip_ms_p99_settled']} ms"
            if figures["round_trips_settled"]
            else ""
        )
        + ")"
        if figures["round_trips"]
        else "no person seat: no round trip measured"
    )
    print(
        f"{figures['games_concurrent']} concurrent {game} games ({','.join(lineup)}) on "
        f"{len(servers)} server process{'es' * (len(servers) > 1)} for {figures['seconds']} s: "
        f"{figures['moves_per_second']} moves/s ({figures['actions_per_second']} actions/s "
        f"with chance), {latency}, {figures['games_finished']} games finished, "
        f"{figures['errors']} errors"
    )
    if len(servers) > 1:
        for share in servers:
            print(
                f"  {share['url']}: {share['games_concurrent']} games, "
                f"{share['moves_per_second']} moves/s, p50 {share['round_trip_ms_p50']} ms, "
                f"p99 {share['round_trip_ms_p99']} ms"
                + (
                    f", CPU a move {share['server_cpu_ms_per_move']} ms"
                    if share.get("server_cpu_ms_per_move")
                    else ""
                )
            )
    if figures["server_cpu_ms_per_move"] is not None:
        database = figures.get("database_cpu_ms_per_move")
        print(
            f"  CPU a move: servers (with bot workers) {figures['server_cpu_ms_per_move']} ms, "
            + (f"PostgreSQL {database} ms, " if database else "")
            + f"this tool {figures['client_cpu_ms_per_move']} ms; machine load average "
            f"{figures['load_average_before']:.1f} before, {figures['load_average']:.1f} after, "
            f"on {figures['cores']} cores"
        )
        per_process = figures["moves_per_second"] / len(servers)
        memory = [m for m in figures["server_rss_mb"] if m]
        print(
            f"  sizing: one process delivered {per_process:.0f} moves/s with "
            f"{figures['games_concurrent'] / len(servers):.0f} games in play at p99 "
            f"{figures['round_trip_ms_p99']} ms"
            + (f", {max(memory):.0f} MB resident" if memory else "")
            + "; on an idle core it would make about "
            f"{1000 / figures['server_cpu_ms_per_move']:.0f} moves/s (bot workers included)"
        )
    for problem in figures["first_errors"]:
        print(f"  error: {problem}")


if __name__ == "__main__":  # pragma: no cover
    main()
