"""scripts/group_commit_laps.py: how long a group commit waits on a busy event loop."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).parents[2] / "scripts" / "group_commit_laps.py"


@pytest.mark.parametrize("kind", ["postgresql", "sqlite"])
def test_it_prints_a_group_commits_time_alone_and_its_turns_on_a_busy_loop(
    kind, database, tmp_path
):
    url = database if kind == "postgresql" else f"sqlite:///{tmp_path / 'laps.db'}"
    others = "4" if kind == "postgresql" else "20"  # (fewer on SQLite: see the script)
    out = subprocess.run(
        [sys.executable, str(SCRIPT), "--saves", "4", "--batches", "3", "--others", others],
        capture_output=True, text=True, check=True, timeout=120,
        env={**os.environ, "TMINUS_DATABASE_URL": url},
    ).stdout  # fmt: skip
    alone, busy = out.splitlines()
    assert re.fullmatch(r"a group commit of 4 saves alone on the loop: [\d.]+ ms", alone), out
    found = re.fullmatch(
        rf"a group commit of 4 saves among {others} tasks of 0\.5 ms a turn: ([\d.]+) ms, "
        r"([\d.]+) turns"
        r" of the loop",
        busy,
    )
    assert found, out
    # Its round trips (on PostgreSQL one statement committed by itself) wait a turn at least.
    assert float(found[2]) >= 1 and float(found[1]) >= 1 * 0.5 * int(others), out


def test_it_asks_for_a_database_of_its_own():
    environment = {k: v for k, v in os.environ.items() if k != "TMINUS_DATABASE_URL"}
    done = subprocess.run(
        [sys.executable, str(SCRIPT)], capture_output=True, text=True, env=environment
    )
    assert done.returncode != 0 and "a database of its own" in done.stderr
