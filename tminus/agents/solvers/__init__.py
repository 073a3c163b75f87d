"""Exact solvers and the agents that play their solutions.

A game names its solvers in its manifest (``GameManifest.solvers``): functions that return
their findings as Markdown, imported on demand (solving can take a few seconds, Sputnik's
a few minutes).
"""

from __future__ import annotations

import os
from pathlib import Path

from tminus.core.manifest import resolve
from tminus.core.registry import manifest, manifests


def cache_root() -> Path:
    """Where solved tables are kept between processes: ``TMINUS_CACHE``, else
    ~/.cache/tminus."""
    return Path(os.environ.get("TMINUS_CACHE", Path.home() / ".cache" / "tminus"))


def games_with_solvers() -> list[str]:
    return [m.name for m in manifests() if m.solvers]


def solver_report(game_name: str) -> str:
    """What the exact solvers of a game found (Markdown); ValueError when it has none."""
    solvers = manifest(game_name).solvers
    if not solvers:
        raise ValueError(
            f"no exact solver for {game_name} yet; solvers: {', '.join(games_with_solvers())}"
        )
    return "\n\n".join(resolve(path)() for path in solvers)
