"""scripts/decision_mix.py: the decision mix quoted for a Count Down batch engine."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).parents[2] / "scripts" / "decision_mix.py"


def test_the_mix_counts_every_decision_of_whole_games_by_phase():
    out = subprocess.run(
        [sys.executable, str(SCRIPT), "count_down", "--players", "2", "--seconds", "0"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    head, shares = out.strip().splitlines()
    assert head.startswith("count_down, 2 players: ") and "1 games" in head
    percents = {
        p.rsplit(" ", 1)[0]: float(p.rsplit(" ", 1)[1][:-1]) for p in shares.strip().split(", ")
    }
    assert abs(sum(percents.values()) - 100) < 0.5, percents
    assert {"play again", "direction", "meeting"} <= percents.keys()
    assert "roll" not in percents  # (chance is not a decision)
