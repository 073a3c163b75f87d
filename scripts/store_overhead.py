"""What a statement costs the server's process on PostgreSQL: CPU a transaction of one
statement and a statement inside one transaction, through the store's engine (SQLAlchemy's
asyncio layer over asyncpg, as ``tminus.server.store_engine.make_engine`` makes it) and
through asyncpg alone.

    TMINUS_DATABASE_URL=postgresql://user:pw@127.0.0.1/db python scripts/store_overhead.py

CPU seconds of this process (the database's own work is not counted), the median of five
rounds. At 200 games the server's event loop is the limit, and on PostgreSQL every statement
runs on the loop's thread (``docs/operations.md``, the load): this says what each costs it.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time
from collections.abc import Awaitable, Callable

ROUNDS = 5


async def cpu_each(work: Callable[[], Awaitable[None]], count: int) -> float:
    """Median CPU seconds of one ``work()``, over ``ROUNDS`` rounds of ``count``."""
    await work()  # (warm: a connection, a prepared statement)
    rounds = []
    for _ in range(ROUNDS):
        start = time.process_time()
        for _ in range(count):
            await work()
        rounds.append((time.process_time() - start) / count)
    return statistics.median(rounds)


async def measure(url: str, count: int) -> dict[str, float]:
    import asyncpg
    from sqlalchemy import select

    from tminus.server.store_engine import listen_dsn, make_engine

    engine = make_engine(url)

    async def engine_transaction() -> None:
        async with engine.begin() as connection:
            await connection.execute(select(1))

    figures = {"engine_transaction": await cpu_each(engine_transaction, count)}
    async with engine.begin() as connection:

        async def engine_statement() -> None:
            await connection.execute(select(1))

        figures["engine_statement"] = await cpu_each(engine_statement, count)
    await engine.dispose()

    driver = await asyncpg.connect(listen_dsn(url))  # (a plain asyncpg connection)
    try:

        async def driver_transaction() -> None:
            async with driver.transaction():
                await driver.fetchval("SELECT 1")

        async def driver_statement() -> None:
            await driver.fetchval("SELECT 1")

        figures["driver_transaction"] = await cpu_each(driver_transaction, count)
        async with driver.transaction():
            figures["driver_statement"] = await cpu_each(driver_statement, count)
    finally:
        await driver.close()
    return figures


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", default=os.environ.get("TMINUS_DATABASE_URL"))
    parser.add_argument("--count", type=int, default=1000, help="transactions a round")
    args = parser.parse_args(argv)
    if not args.db or not args.db.startswith("postgresql"):
        raise SystemExit("a PostgreSQL database: TMINUS_DATABASE_URL=postgresql://...")
    figures = asyncio.run(measure(args.db, max(1, args.count)))
    us = {name: round(seconds * 1e6) for name, seconds in figures.items()}
    print(
        f"CPU of this process, median of {ROUNDS} rounds of {args.count}: a transaction of one "
        f"statement {us['engine_transaction']} µs through the store's engine, "
        f"{us['driver_transaction']} µs through asyncpg; a statement in a transaction "
        f"{us['engine_statement']} µs and {us['driver_statement']} µs"
    )
    return figures


if __name__ == "__main__":
    main()
