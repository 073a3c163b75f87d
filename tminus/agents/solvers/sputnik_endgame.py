"""Sputnik endgames solved: every two-player position with at most N galaxies left.

The table covers the 2-player, one-rocket game on a board of a given radius (3 by default)
at the start of a turn (``sputnik_kernel`` positions), for every position with at most
``max_galaxies`` galaxies on the board. Such a position is far past the start (every turn
but a base help removes a galaxy), so both rockets have left their bases long ago; each
player's base is either still unused at its corner (the rocket on a galaxy or back on the
base) or used, and galaxies may lie anywhere else.

Positions are solved once for each class under the board's four symmetries that keep the
pair of bases (identity, the mirror through both bases, the half turn that swaps them, and
the two combined; the canonical key is the smallest of the four). The table keeps every
image of the positions that the player to move wins, as a sorted ``uint64`` array (a key
fits 63 bits on radius 3), so a lookup is one binary search with no transform: a covered
position is won when its key is there, lost otherwise.

Building goes up by galaxies left, 0 to N. A turn removes a galaxy, so most children are
in a level already solved; the few that are not (a base help adds a galaxy, a step with
nothing to remove keeps the count) are searched and memoised, up to MEMO_LIMIT at a time
(few are met again from another position). The full table is built by a command and cached
on disk, never in tests (``tminus tables build``, or ``tminus serve`` in the background;
each level's positions are shared by a process a core):

    nice python -m tminus.agents.solvers.sputnik_endgame build [N]
"""

from __future__ import annotations

import fcntl
import json
import multiprocessing
import os
import sys
import time
from array import array
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np

from tminus.agents.base import estimate_of
from tminus.agents.solvers import cache_root
from tminus.agents.solvers.sputnik_kernel import Kernel, kernel
from tminus.games.sputnik.game import SputnikState

DEFAULT_GALAXIES = 5  # the N of the cached table: 5 builds in about 75 s on 2 cores
RADIUS = 3
MEMO_LIMIT = 100_000  # positions outside the solved levels remembered while building


def images(k: Kernel, key: int) -> tuple[int, int, int, int]:
    """The position under the four symmetries (some may coincide)."""
    turned = k.transform(key, k.half_turn_cells)
    return key, k.mirror(key), turned, k.mirror(turned)


def canonical(k: Kernel, key: int) -> int:
    """The smallest key of the position's class under the four symmetries."""
    return min(images(k, key))


def galaxies_left(k: Kernel, key: int) -> int:
    return (key & k.galaxy_mask).bit_count()


def mask_images(k: Kernel, mask: int) -> list[int]:
    """A galaxy mask under the four symmetries."""

    def image(value: int, chunks: list[list[int]]) -> int:
        return sum(table[value >> (10 * i) & 1023] for i, table in enumerate(chunks))

    turned = image(mask, k.half_turn_cells[1])
    return [mask, image(mask, k.mirror_cells[1]), turned, image(turned, k.mirror_cells[1])]


def positions(k: Kernel, galaxies: int, part: int = 0, parts: int = 1) -> Iterator[int]:
    """One position of each symmetry class with exactly ``galaxies`` galaxies, both rockets
    gone from home at least once: the galaxy mask is the smallest of its images, and when
    a symmetry keeps that mask, the smallest key among the position's images. (``part`` of
    ``parts``: only the galaxy sets numbered ``part`` modulo ``parts``, for one worker.)"""
    a, b = k.corners
    for number, chosen in enumerate(combinations(range(k.cells), galaxies)):
        if number % parts != part:
            continue
        mask = sum(1 << c for c in chosen)
        masks = mask_images(k, mask)
        if min(masks) != mask:
            continue
        symmetric = masks.count(mask) > 1
        for mover_base, other_base in _base_pairs(a, b, k.used):
            # An unused base stays at its corner, which then holds no galaxy.
            if (mask & k.bit[mover_base]) or (mask & k.bit[other_base]):
                continue
            for mover_cell in _rocket_cells(chosen, mover_base, k.used):
                for other_cell in _rocket_cells(chosen, other_base, k.used):
                    if other_cell == mover_cell:
                        continue
                    key = k.pack(
                        mask, (mover_cell, mover_base, False), (other_cell, other_base, False)
                    )
                    if not symmetric or key == min(
                        i for i in images(k, key) if i & k.galaxy_mask == mask
                    ):
                        yield key


def _base_pairs(a: int, b: int, used: int) -> list[tuple[int, int]]:
    """The mover's and the opponent's bases: each at its own corner or used."""
    return [(m, o) for m in (a, b, used) for o in (a, b, used) if m == o == used or m != o]


def _rocket_cells(galaxies: tuple[int, ...], base: int, used: int) -> tuple[int, ...]:
    """A rocket stands on a galaxy, or on its own unused base."""
    return galaxies if base == used else (*galaxies, base)


@dataclass
class EndgameTable:
    """The positions of ``radius`` with at most ``max_galaxies`` galaxies that the player
    to move wins (sorted keys)."""

    radius: int
    max_galaxies: int
    won: np.ndarray  # sorted uint64 keys: every image of every won position
    positions: int  # classes of positions covered (won or lost), one per symmetry class
    build_seconds: float  # processor time

    def __post_init__(self) -> None:
        self.kernel = kernel(self.radius)

    def covers(self, key: int) -> bool:
        """Whether ``key`` is in the table (few enough galaxies, both rockets gone from home)."""
        w = self.kernel.width
        flags = key >> (self.kernel.shift + 4 * w)
        return flags == 0 and galaxies_left(self.kernel, key) <= self.max_galaxies

    def wins(self, key: int) -> bool:
        """Whether the player to move wins ``key`` with perfect play (it must be covered)."""
        if not self.covers(key):
            raise ValueError(f"position {key} has more than {self.max_galaxies} galaxies")
        target = np.uint64(key)
        index = int(np.searchsorted(self.won, target))
        return index < len(self.won) and self.won[index] == target

    @property
    def nbytes(self) -> int:
        return int(self.won.nbytes)

    def save(self, path: Path) -> None:
        """The keys as a ``.npy`` file (``path``), which every process maps into memory
        and so shares, and what was built beside it (``path`` with ``.json``)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        about = {
            "radius": self.radius,
            "max_galaxies": self.max_galaxies,
            "positions": self.positions,
            "build_seconds": self.build_seconds,
        }
        for target, write in (
            (path, lambda handle: np.save(handle, self.won)),
            (path.with_suffix(".json"), lambda handle: handle.write(json.dumps(about).encode())),
        ):
            part = target.with_name(f"{target.name}.{os.getpid()}.part")
            try:
                with open(part, "wb") as handle:
                    write(handle)
                os.replace(part, target)  # whole or not at all
            finally:
                part.unlink(missing_ok=True)

    @classmethod
    def load(cls, path: Path) -> EndgameTable:
        about = json.loads(path.with_suffix(".json").read_text())
        won = np.load(path, mmap_mode="r")  # pages shared by every process that reads it
        return cls(
            about["radius"], about["max_galaxies"], won, about["positions"], about["build_seconds"]
        )


class _LevelSolver:
    """Won/lost for positions of the level being built, looking solved levels up; the few
    children outside them (base helps, steps with nothing to remove) are memoised."""

    def __init__(self, k: Kernel, known: Callable[[int], bool | None]) -> None:
        self.kernel = k
        self.known = known  # a solved level's value, or None
        self.memo: dict[int, bool] = {}

    def solve(self, key: int) -> bool:
        k = self.kernel
        return k.wins_at_once(key) or any(not self.wins(c) for c in k.successors(key))

    def wins(self, key: int) -> bool:
        value = self.known(key)
        if value is None:
            value = self.memo.get(key)
        if value is None:
            value = self.memo[key] = self.solve(key)
        return value


def _level_won(
    k: Kernel, known: Callable[[int], bool | None], level: int, part: int = 0, parts: int = 1
) -> tuple[np.ndarray, int]:
    """Every image of the won positions of ``level`` (``part`` of ``parts`` of it), and how
    many positions were solved."""
    solver = _LevelSolver(k, known)
    won = array("Q")
    count = 0
    for key in positions(k, level, part, parts):
        count += 1
        if solver.solve(key):
            won.extend(images(k, key))
        if len(solver.memo) > MEMO_LIMIT:  # few are met again: keep memory flat
            solver.memo.clear()
    return np.frombuffer(won, dtype=np.uint64).copy(), count


# What the workers of the level being built read (they are forked with it: nothing copied).
_forked: tuple[Kernel, Callable[[int], bool | None]] | None = None


def _forked_part(job: tuple[int, int, int]) -> tuple[np.ndarray, int]:
    assert _forked is not None
    return _level_won(*_forked, *job)


def _solve_level(
    k: Kernel, known: Callable[[int], bool | None], level: int, jobs: int
) -> tuple[np.ndarray, int]:
    """A level's won keys and count, split over ``jobs`` forked processes (one: here)."""
    global _forked
    if jobs <= 1:
        return _level_won(k, known, level)
    _forked = (k, known)
    try:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            parts = pool.map(_forked_part, [(level, part, jobs) for part in range(jobs)])
    finally:
        _forked = None
    return np.concatenate([won for won, _ in parts]), sum(count for _, count in parts)


def _cpu_seconds() -> float:
    """Processor time of this process and of its children that have ended (the workers)."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def build(
    radius: int = RADIUS,
    max_galaxies: int = DEFAULT_GALAXIES,
    progress: Callable[[int, int, float], None] | None = None,
    jobs: int = 1,
) -> EndgameTable:
    """Solve every position with at most ``max_galaxies`` galaxies; ``progress(level,
    positions so far, seconds)`` after each level. ``jobs`` processes share each level
    (forked: they read the levels below from this process's memory).

    A level's children are nearly all in the level just below, so only that level's won
    keys are kept as a set; older levels are sorted arrays, and the level being built
    collects its keys in a flat array: N = 5 builds in well under 1 GB."""
    k = kernel(radius)
    started = _cpu_seconds()  # processor time: the machine may be shared
    won_by_level: list[np.ndarray] = []  # sorted keys: every image of each won position
    below: set[int] = set()  # the same keys of the level just below, for fast lookups
    flags_shift = k.shift + 4 * k.width

    def known(key: int) -> bool | None:
        if key >> flags_shift:
            return None
        level = galaxies_left(k, key)
        if level >= len(won_by_level):
            return None
        if level == len(won_by_level) - 1:
            return key in below
        keys = won_by_level[level]
        index = int(np.searchsorted(keys, np.uint64(key)))
        return index < len(keys) and int(keys[index]) == key

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20 * k.cells + 1000))
    count = 0
    try:
        for level in range(max_galaxies + 1):
            keys, solved = _solve_level(k, known, level, jobs)
            count += solved
            below = set()  # (not needed past its level: its memory goes first)
            won_by_level.append(sorted_unique(keys))
            below = set(keys.tolist()) if level < max_galaxies else set()
            if progress:
                progress(level, count, _cpu_seconds() - started)
    finally:
        sys.setrecursionlimit(limit)
    below.clear()
    every = np.concatenate(won_by_level)
    won_by_level.clear()
    every.sort()
    return EndgameTable(radius, max_galaxies, every, count, _cpu_seconds() - started)


def sorted_unique(keys: np.ndarray) -> np.ndarray:
    """``keys`` sorted in place, each once: ``np.unique`` hashes, and needs about seven
    times the memory of 36 million keys."""
    keys.sort()
    if len(keys) < 2:
        return keys
    return keys[np.concatenate(([True], keys[1:] != keys[:-1]))]


def cache_path(radius: int = RADIUS, max_galaxies: int = DEFAULT_GALAXIES) -> Path:
    return cache_root() / f"sputnik_endgame_r{radius}_g{max_galaxies}.npy"


_loaded: dict[tuple[int, int], EndgameTable] = {}


def cached_table(radius: int = RADIUS, max_galaxies: int = DEFAULT_GALAXIES) -> EndgameTable | None:
    """The table built by the command, from the cache on disk (None: not built yet).

    A table found is kept; a missing one is looked for again next time, so a process that
    started before the build finished (a server's bot workers) plays with it from then on."""
    found = _loaded.get((radius, max_galaxies))
    if found is not None:
        return found
    path = cache_path(radius, max_galaxies)
    if not (path.exists() and path.with_suffix(".json").exists()):  # (.json is saved last)
        return None
    found = _loaded[radius, max_galaxies] = EndgameTable.load(path)
    return found


def forget_loaded_tables() -> None:
    """Read the tables from disk again next time (for tests)."""
    _loaded.clear()


def being_built(max_galaxies: int = DEFAULT_GALAXIES) -> bool:
    """Whether a process on this machine is building the table now (its lock is held)."""
    lock_path = cache_path(RADIUS, max_galaxies).with_suffix(".lock")
    if not lock_path.exists():
        return False
    with open(lock_path) as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(lock, fcntl.LOCK_UN)
        return False


def build_once(
    max_galaxies: int,
    progress: Callable[[int, int, float], None] | None = None,
    jobs: int | None = None,
) -> EndgameTable | None:
    """Build and save the table unless it is saved already or another process is building
    it now (None): one build for every process of a server on this machine. ``jobs``
    processes share the work (default: one a core)."""
    path = cache_path(RADIUS, max_galaxies)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_suffix(".lock"), "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)  # let go when this process ends
        except BlockingIOError:
            return None
        if cached_table(RADIUS, max_galaxies) is not None:
            return None
        table = build(RADIUS, max_galaxies, progress, jobs or len(os.sched_getaffinity(0)))
        table.save(path)
        return table


class WholeBoard:
    """The radius-2 board solved whole by ``sputnik.Solver``, read like a table."""

    def __init__(self, radius: int = 2) -> None:
        from tminus.agents.solvers.sputnik import shared_solver

        self.solver = shared_solver(radius)
        self.kernel = self.solver.kernel

    def covers(self, key: int) -> bool:
        return True

    def wins(self, key: int) -> bool:
        return self.solver.wins(key)


def solvable(game: Any) -> bool:
    """Whether ``game`` is Sputnik for two players with a rocket each: the game the solver
    and the endgame tables know."""
    return game.name == "sputnik" and game.num_players == 2 and game.rockets_per_player == 1


def oracle_for(game: Any, table: EndgameTable | None = None) -> EndgameTable | WholeBoard | None:
    """What knows the exact value of ``game``'s positions: the whole radius-2 board, or
    the endgame table (``table``, else the cached one) for larger boards; None: nothing."""
    if not solvable(game):
        return None
    radius = game.board.radius
    if radius == 2:
        return WholeBoard(2)
    table = table if table is not None else cached_table(radius)
    return table if table is not None and table.radius == radius else None


def chance_to_win(
    oracle: EndgameTable | WholeBoard, state: SputnikState, seat: int
) -> float | None:
    """``seat``'s chance to win (1 or 0) with perfect play by both; None: not covered."""
    if state.is_terminal():
        return 1.0 if seat in state.winners() else 0.0 if state.winners() else 0.5
    if state.phase() == "move":
        key = oracle.kernel.position_of(state)
        if not oracle.covers(key):
            return None
        return float(oracle.wins(key) == (state.current_player() == seat))
    # The mover still has a galaxy to remove: the value of its best removal.
    values = []
    for removal in state.legal_actions():
        after = state.clone()
        after.apply_action(removal)
        value = chance_to_win(oracle, after, state.current_player())
        if value is None:
            return None
        values.append(value)
    best = max(values)
    return best if state.current_player() == seat else 1.0 - best


class SputnikEndgameAgent:
    """Plays perfectly inside the endgame table (a winning move whenever the position is
    won; when it is lost, the search's move, which makes the win hardest to find), and
    plays as ``search`` elsewhere (``search``: an agent name, the other options go to it).

    Without a cached table (build it: see the module) it is its search alone."""

    name = "endgame"

    def __init__(self, game: Any, seed: object = None, search: str = "alphabeta", **options):
        from tminus.agents.registry import make_agent

        spec = ":".join([search, *(f"{k}={v}" for k, v in options.items())])
        self.search = make_agent(spec, game, seed=seed)
        self.oracle = oracle_for(game)

    def step(self, state: SputnikState) -> int:
        legal = state.legal_actions()
        self.estimate: float | None = None  # exact inside the table (agent protocol)
        if self.oracle is not None and len(legal) > 1:
            action = self.winning_action(self.oracle, state, legal)
            if action is not None:
                self.estimate = 1.0
                return action
        action = self.search.step(state)
        exact = (
            None
            if self.oracle is None
            else chance_to_win(self.oracle, state, state.current_player())
        )
        self.estimate = exact if exact is not None else estimate_of(self.search)
        return action

    @staticmethod
    def winning_action(
        oracle: EndgameTable | WholeBoard, state: SputnikState, legal: list[int]
    ) -> int | None:
        me = state.current_player()
        for action in legal:
            after = state.clone()
            after.apply_action(action)
            if chance_to_win(oracle, after, me) == 1.0:
                return action
        return None


def lookups_a_second(table: EndgameTable, samples: int = 20_000, seed: int = 0) -> float:
    """How many random covered positions the table answers a second."""
    rng = np.random.default_rng(seed)
    k = table.kernel
    keys = []
    for _ in range(samples):
        level = int(rng.integers(2, table.max_galaxies + 1))
        cells = rng.choice(k.cells, size=level, replace=False)
        mask = sum(1 << int(c) for c in cells)
        mover, other = (int(c) for c in cells[:2])
        keys.append(k.pack(mask, (mover, k.used, False), (other, k.used, False)))
    start = time.perf_counter()
    for key in keys:
        table.wins(key)
    return samples / (time.perf_counter() - start)


def bench_figures(
    radius: int = RADIUS, max_galaxies: int = DEFAULT_GALAXIES
) -> dict[str, float] | None:
    """N, positions, size, build time and lookup speed of the cached table (None: not
    built), for ``tminus bench``."""
    table = cached_table(radius, max_galaxies)
    if table is None:
        return None
    return {
        "radius": radius,
        "max_galaxies": table.max_galaxies,
        "positions": table.positions,
        "won": len(table.won),
        "megabytes": table.nbytes / 1e6,
        "build_seconds": table.build_seconds,
        "lookups_per_second": lookups_a_second(table),
    }


def main(arguments: list[str]) -> None:
    if not arguments or arguments[0] not in ("build", "bench"):
        raise SystemExit("usage: python -m tminus.agents.solvers.sputnik_endgame build|bench [N]")
    n = int(arguments[1]) if len(arguments) > 1 else DEFAULT_GALAXIES
    if arguments[0] == "build":

        def report(level: int, count: int, seconds: float) -> None:
            print(f"level {level}: {count:,} positions, {seconds:.1f} s", flush=True)

        table = build_once(n, report)
        if table is None and cached_table(RADIUS, n) is None:
            print(f"another process is building {cache_path(RADIUS, n)}: not building it twice")
            return
        print(("saved" if table else "built already:"), cache_path(RADIUS, n))
    figures = bench_figures(RADIUS, n)
    if figures is None:
        raise SystemExit(f"no table at {cache_path(RADIUS, n)}: build it first (build {n})")
    for name, value in figures.items():
        print(f"{name}: {value:,.2f}" if isinstance(value, float) else f"{name}: {value:,}")


if __name__ == "__main__":
    main(sys.argv[1:])
