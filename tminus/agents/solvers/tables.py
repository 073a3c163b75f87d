"""The solved tables the bots, hints, reviews and puzzles read, by name: where each is kept
(``cache_root``), whether it is built, and how to build it.

A table missing is never an error: whoever reads it falls back to search until it is built
(``tminus tables build``, or ``tminus serve``, which builds what is missing in the
background). Each build runs in a process of its own (``python -m
tminus.agents.solvers.tables build NAME``), printing ``progress DONE TOTAL`` lines, so that
several build at once, one a core, and a server's can run at the lowest priority.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tminus.agents.solvers import four_way_duel, sputnik_endgame

Progress = Callable[[float, float], None]  # (done, total), in the table's own units


@dataclass(frozen=True)
class SolvedTable:
    name: str
    about: str  # what it is, for people
    used_by: str
    path: Callable[[], Path]
    build: Callable[[Progress], None]  # builds and saves it (a no-op when it is there)
    units: str  # what ``progress`` counts
    saved_last: str = ""  # the suffix of a file saved after ``path``, if any: then it is whole

    def built(self) -> bool:
        last = self.path().with_suffix(self.saved_last) if self.saved_last else self.path()
        return self.path().exists() and last.exists()


def _duel(junior: bool) -> Callable[[Progress], None]:
    def build(progress: Progress) -> None:
        progress(0, 1)
        four_way_duel.solve(junior)  # (solved once, then read from disk)
        progress(1, 1)

    return build


def _endgame(progress: Progress) -> None:
    levels = sputnik_endgame.DEFAULT_GALAXIES + 1
    progress(0, levels)
    sputnik_endgame.build_once(
        sputnik_endgame.DEFAULT_GALAXIES, lambda level, _count, _s: progress(level + 1, levels)
    )
    if sputnik_endgame.cached_table() is None:  # (its lock taken: another process builds it)
        raise SystemExit(BUSY)
    progress(levels, levels)


BUSY = 3  # a build's exit status when another process is building the table now


TABLES = {
    t.name: t
    for t in (
        SolvedTable(
            "four_way_duel_adult",
            "4-Way CountDown for two, adult rules, solved: every position's chance to win",
            "the 4-Way solver and expert, hints, reviews, puzzles",
            lambda: four_way_duel.solved_path(False),
            _duel(False),
            "table",
        ),
        SolvedTable(
            "four_way_duel_junior",
            "4-Way CountDown for two, junior rules, solved",
            "the 4-Way solver and expert, hints, reviews, puzzles",
            lambda: four_way_duel.solved_path(True),
            _duel(True),
            "table",
        ),
        SolvedTable(
            "sputnik_endgame",
            f"Sputnik for two (radius 3): every position with at most "
            f"{sputnik_endgame.DEFAULT_GALAXIES} galaxies left, won or lost",
            "Sputnik's two-player expert, hints, reviews",
            lambda: sputnik_endgame.cache_path(),
            _endgame,
            "galaxy levels",
            saved_last=".json",
        ),
    )
}


def table_named(name: str) -> SolvedTable:
    """The table called ``name``; ValueError naming the tables there are."""
    if name not in TABLES:
        raise ValueError(f"no table {name!r}; tables: {', '.join(TABLES)}")
    return TABLES[name]


def missing() -> list[SolvedTable]:
    return [t for t in TABLES.values() if not t.built()]


def build_process(name: str, low_priority: bool = False, quiet: bool = False) -> subprocess.Popen:
    """A process building table ``name`` (its ``progress`` lines on stdout unless
    ``quiet``); at the lowest priority when asked (a server's players come first)."""
    return module_process([__name__, "build", table_named(name).name], low_priority, quiet)


def module_process(
    arguments: list[str], low_priority: bool = False, quiet: bool = False
) -> subprocess.Popen:
    """``python -m`` with ``arguments`` in a process of its own (its output on a pipe unless
    ``quiet``), at the lowest priority when asked."""
    command = [sys.executable, "-m", *arguments]
    nice = shutil.which("nice") if low_priority else None
    return subprocess.Popen(
        [nice, "-n", "19", *command] if nice else command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL if quiet else subprocess.PIPE,
        stderr=subprocess.DEVNULL if quiet else subprocess.STDOUT,
        text=True,
        start_new_session=True,  # (a server's Ctrl-C is not the builder's)
    )


def build_missing_in_background() -> list[str]:
    """Start a low-priority build of every table missing (one process each): their names."""
    started = missing()
    for table in started:
        build_process(table.name, low_priority=True, quiet=True)
    return [t.name for t in started]


def main(arguments: list[str]) -> None:
    if len(arguments) != 2 or arguments[0] != "build":
        raise SystemExit(f"usage: python -m {__name__} build NAME ({', '.join(TABLES)})")
    table = table_named(arguments[1])
    table.build(lambda done, total: print(f"progress {done:g} {total:g}", flush=True))


if __name__ == "__main__":
    main(sys.argv[1:])
