"""Exact solvers and the agents that play their solutions.

A game names its solvers in its manifest (``GameManifest.solvers``): functions that return
their findings as Markdown, imported on demand (solving can take a few seconds, Sputnik's
a few minutes). A solver that takes a while also takes ``progress`` (a
``tminus.core.progress.Steps``), to tell how far it got.
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Callable
from pathlib import Path

from tminus.core.manifest import resolve
from tminus.core.progress import Steps
from tminus.core.registry import manifest, manifests


def cache_root() -> Path:
    """Where solved tables are kept between processes: ``TMINUS_CACHE``, else
    ~/.cache/tminus."""
    return Path(os.environ.get("TMINUS_CACHE", Path.home() / ".cache" / "tminus"))


def games_with_solvers() -> list[str]:
    return [m.name for m in manifests() if m.solvers]


def solver_report(game_name: str, progress: Steps | None = None) -> str:
    """What the exact solvers of a game found (Markdown); ValueError when it has none.
    The solvers that tell their progress tell ``progress``."""
    solvers = manifest(game_name).solvers
    if not solvers:
        raise ValueError(
            f"no exact solver for {game_name} yet; solvers: {', '.join(games_with_solvers())}"
        )
    return "\n\n".join(run_solver(resolve(path), progress) for path in solvers)


def run_solver(solver: Callable[..., str], progress: Steps | None) -> str:
    """A solver's findings, with ``progress`` if it takes it (the quick ones do not)."""
    if progress is not None and "progress" in inspect.signature(solver).parameters:
        return solver(progress=progress)
    return solver()
