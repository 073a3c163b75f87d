"""How long a group commit takes when the event loop is busy, and how many turns of the loop
it waits for: ``--saves`` saves of two actions each (one game each), written as the store
writes a group commit (``Store._commit``: on PostgreSQL one statement committed by itself,
since these saves charge no clock; on SQLite a few statements of one step each), alone on the
loop and then among ``--others`` tasks that each take 0.5 ms a turn (a loop as busy as a
server's at 200 games: a turn of about 10 ms).

    TMINUS_DATABASE_URL=postgresql://user:pw@127.0.0.1/db python scripts/group_commit_laps.py
    TMINUS_DATABASE_URL=sqlite:////tmp/laps.db python scripts/group_commit_laps.py

On SQLite, which works in this process, each step of a statement lets go of the GIL, and
taking it back from a loop that never rests waits up to the switch interval (5 ms): the turns
counted are mostly those waits. (With fewer than about ten tasks of 0.5 ms, a group commit on
SQLite here may never end: not understood yet; the store in a server, whose loop rests while
it waits for its sockets, has not shown it.)

Every round trip to the database waits at least one turn of the loop, so on a busy loop a
group commit takes about as many turns as it waits for: what ``docs/operations.md`` (the
load) calls the cost of a statement there. Median of ``--batches`` group commits. The games
it writes are left in that database: give it one of its own.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1]))  # (the tests' helpers make the games)

TURN = 0.0005  # seconds each other task takes a turn


async def other_work(laps: list[int], running: asyncio.Event) -> None:
    while running.is_set():
        laps[0] += 1
        started = time.perf_counter()
        while time.perf_counter() - started < TURN:
            pass
        await asyncio.sleep(0)


async def group_commits(url: str, saves: int, batches: int, others: int) -> tuple[float, float]:
    """Median seconds and turns of the loop a group commit took, with ``others`` tasks."""
    from tests.server.helpers import create, seats
    from tminus.server.service import GameService
    from tminus.server.storage import Save, Store

    store = await Store(url).open()
    service = GameService(store)
    games = [(await create(service, "four_way", {}, seats("person", "person"))).id]
    while len(games) < saves:
        games.append((await create(service, "four_way", {}, seats("person", "person"))).id)
    laps, running = [0], asyncio.Event()
    running.set()
    tasks = [asyncio.create_task(other_work(laps, running)) for _ in range(others)]
    seconds, turns = [], []
    for index in range(0, 2 * (batches + 1), 2):
        batch = [
            Save(game, index, [(index, 1, 0, None, None), (index + 1, 2, -1, None, 0.5)], to_move=1)
            for game in games
        ]
        laps[0], started = 0, time.perf_counter()
        await store._commit(batch)
        seconds.append(time.perf_counter() - started)
        turns.append(laps[0] / max(1, others))
    running.clear()
    await asyncio.gather(*tasks)
    await store.close()
    return statistics.median(seconds[1:]), statistics.median(turns[1:])  # (first: warming)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", default=os.environ.get("TMINUS_DATABASE_URL"))
    parser.add_argument("--saves", type=int, default=90, help="saves a group commit")
    parser.add_argument("--batches", type=int, default=50, help="group commits measured")
    parser.add_argument("--others", type=int, default=20, help="other tasks on the busy loop")
    args = parser.parse_args(argv)
    if not args.db:
        raise SystemExit(
            "a database of its own: TMINUS_DATABASE_URL=postgresql://... or sqlite:///..."
        )
    for others in (0, args.others):
        seconds, turns = asyncio.run(group_commits(args.db, args.saves, args.batches, others))
        loop = "alone on the loop" if not others else f"among {others} tasks of 0.5 ms a turn"
        waited = f", {turns:g} turns of the loop" if others else ""
        print(f"a group commit of {args.saves} saves {loop}: {seconds * 1000:.1f} ms{waited}")


if __name__ == "__main__":
    main()
