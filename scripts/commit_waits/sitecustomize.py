"""Where a move's commit waits in a `tminus serve` process, measured from inside.

Put this directory first on PYTHONPATH for a load run; each server process it starts
measures, from 20 s after it starts and for 15 s, every save (``Store.save``: from the
move's commit being asked for to its rows being committed, group commit included) and every
group commit's transaction: the wait to begin it (SQLite: for the one connection), its
statements, and its commit. It writes them to ``$TMPDIR/commit-waits.PID``::

    PYTHONPATH=scripts/commit_waits python -m tminus.server.load --games 200 --seconds 40
    cat /tmp/commit-waits.*

Nothing is imported from its thread (the server imports the store; this waits for it).
"""

from __future__ import annotations

import os
import sys
import tempfile
import threading
import time

saves: list[float] = []
begins: list[float] = []  # waits for the transaction to begin
statements: list[float] = []
commits: list[float] = []
sizes: list[int] = []  # saves per group commit
short: list[int] = []  # short writes per group commit (SQLite: a game made, a seat joined...)


def percentiles(values: list[float]) -> str:
    ordered = sorted(values)
    at = lambda q: ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000  # noqa: E731
    return f"p50 {at(0.5):.1f} ms, p90 {at(0.9):.1f} ms, p99 {at(0.99):.1f} ms"


def instrument(store_class) -> None:
    save, write = store_class.save, store_class._write

    async def timed_save(self, one):
        started = time.perf_counter()
        await save(self, one)
        saves.append(time.perf_counter() - started)

    async def timed_write(self, batch, connection):
        started = time.perf_counter()
        results = await write(self, batch, connection)
        statements.append(time.perf_counter() - started)
        made = sum(type(item).__name__ == "Save" for item in batch)
        sizes.append(made)
        short.append(len(batch) - made)
        return results

    async def timed_run(self, work, *, write=True):
        """``StoreBase._run`` with its transaction's parts timed (group commits only)."""
        if getattr(getattr(work, "func", None), "__func__", None) is not timed_write:
            return await run(self, work, write=write)
        started = time.perf_counter()
        context = self.engine.begin()
        connection = await context.__aenter__()
        begun = time.perf_counter()
        try:
            result = await work(connection)
        except BaseException as error:
            await context.__aexit__(type(error), error, error.__traceback__)
            raise
        done = time.perf_counter()
        await context.__aexit__(None, None, None)
        begins.append(begun - started)
        commits.append(time.perf_counter() - done)
        return result

    run = store_class._run
    store_class.save, store_class._write, store_class._run = timed_save, timed_write, timed_run


def measure() -> None:
    while getattr(sys.modules.get("tminus.server.storage"), "Store", None) is None:
        time.sleep(0.01)
    instrument(sys.modules["tminus.server.storage"].Store)
    time.sleep(20)
    for kept in (saves, begins, statements, commits, sizes, short):
        kept.clear()
    time.sleep(15)
    path = os.path.join(tempfile.gettempdir(), f"commit-waits.{os.getpid()}")
    with open(path, "w", encoding="utf-8") as out:
        out.write(f"saves ({len(saves)}): {percentiles(saves)}\n")
        out.write(
            f"group commits ({len(sizes)}, {sum(sizes) / max(1, len(sizes)):.0f} saves and"
            f" {sum(short) / max(1, len(short)):.1f} short writes each):"
            f" waiting to begin {percentiles(begins)}; statements {percentiles(statements)};"
            f" commit {percentiles(commits)}\n"
        )


if "serve" in sys.argv[1:2]:
    threading.Thread(target=measure, daemon=True).start()
