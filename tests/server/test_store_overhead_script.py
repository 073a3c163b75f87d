"""scripts/store_overhead.py: what a statement costs the server's process on PostgreSQL."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).parents[2] / "scripts" / "store_overhead.py"


def test_it_prints_the_cpu_of_a_transaction_and_a_statement_each_way(database):
    out = subprocess.run(
        [sys.executable, str(SCRIPT), "--count", "20"],
        capture_output=True, text=True, check=True,
        env={**os.environ, "TMINUS_DATABASE_URL": database},
    ).stdout  # fmt: skip
    figures = [int(number) for number in re.findall(r"\d+", out)]
    rounds, count, *costs = figures
    assert (rounds, count) == (5, 20) and len(costs) == 4 and all(c > 0 for c in costs), out
    engine_transaction, driver_transaction, engine_statement, driver_statement = costs
    assert engine_statement < engine_transaction and driver_statement < driver_transaction, out


def test_it_asks_for_a_postgresql_database():
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--db", "sqlite:///x.db"], capture_output=True, text=True
    )
    assert done.returncode != 0 and "PostgreSQL" in done.stderr
