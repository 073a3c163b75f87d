"""Where a batch of games is played: this process, a pool of local processes, or Ray.

Each game is fully determined by the batch and its index, and results come back in
index order, so every backend gives exactly the same results for the same seed.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed

from tminus.sim.runner import Batch, GameResult, play_indices

BACKENDS = ("local", "ray")


def chunks(games: int, size: int) -> list[range]:
    return [range(start, min(start + size, games)) for start in range(0, games, size)]


def default_chunk_size(games: int, workers: int) -> int:
    # Several chunks per worker keep them all busy; chunks of games amortise start-up.
    return max(1, min(500, games // (workers * 4) or 1))


def run_batch(
    batch: Batch,
    games: int,
    backend: str = "local",
    workers: int | None = None,
    address: str | None = None,
    progress: Callable[[int], None] | None = None,
    chunk_size: int | None = None,
) -> list[GameResult]:
    """Play games 0..games-1 of ``batch``; ``workers=1`` plays them in this process."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; backends: {', '.join(BACKENDS)}")
    if games < 1:
        raise ValueError("play at least one game")
    workers = workers or os.cpu_count() or 1
    if workers < 1:
        raise ValueError("workers must be at least 1")
    parts = chunks(games, chunk_size or default_chunk_size(games, workers))
    if backend == "ray":
        return _run_on_ray(batch, parts, address, progress)
    if workers == 1:
        results: list[GameResult] = []
        for part in parts:
            results += play_indices(batch, part)
            if progress:
                progress(len(part))
        return results
    return _run_on_processes(batch, parts, workers, progress)


def _run_on_processes(batch, parts, workers, progress) -> list[GameResult]:
    done: dict[int, list[GameResult]] = {}
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(play_indices, batch, part): n for n, part in enumerate(parts)}
        for future in as_completed(futures):
            done[futures[future]] = future.result()
            if progress:
                progress(len(done[futures[future]]))
    return [result for n in range(len(parts)) for result in done[n]]


def _run_on_ray(batch, parts, address, progress) -> list[GameResult]:
    try:
        import ray
    except ImportError:  # pragma: no cover - depends on the extra being installed
        raise ValueError("the ray backend needs the extra: pip install 'tminus[ray]'") from None
    started_here = not ray.is_initialized()
    if started_here:
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    try:
        remote = ray.remote(play_indices)
        pending = {remote.remote(batch, list(part)): n for n, part in enumerate(parts)}
        done: dict[int, list[GameResult]] = {}
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            n = pending.pop(ready[0])
            done[n] = ray.get(ready[0])
            if progress:
                progress(len(done[n]))
        return [result for n in range(len(parts)) for result in done[n]]
    finally:
        if started_here:
            ray.shutdown()
