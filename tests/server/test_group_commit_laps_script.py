"""scripts/group_commit_laps.py: how long a group commit waits on a busy event loop."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).parents[2] / "scripts" / "group_commit_laps.py"


def test_it_prints_a_group_commits_time_alone_and_its_turns_on_a_busy_loop(database):
    out = subprocess.run(
        [sys.executable, str(SCRIPT), "--saves", "4", "--batches", "3", "--others", "4"],
        capture_output=True, text=True, check=True,
        env={**os.environ, "TMINUS_DATABASE_URL": database},
    ).stdout  # fmt: skip
    alone, busy = out.splitlines()
    assert re.fullmatch(r"a group commit of 4 saves alone on the loop: [\d.]+ ms", alone), out
    found = re.fullmatch(
        r"a group commit of 4 saves among 4 tasks of 0\.5 ms a turn: ([\d.]+) ms, ([\d.]+) turns"
        r" of the loop",
        busy,
    )
    assert found, out
    # Its one round trip (a statement committed by itself) waits a turn at least.
    assert float(found[2]) >= 1 and float(found[1]) >= 1 * 0.5 * 4, out


def test_it_asks_for_a_postgresql_database():
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--db", "sqlite:///x.db"], capture_output=True, text=True
    )
    assert done.returncode != 0 and "PostgreSQL" in done.stderr
