"""Batch engines: thousands of games of one game at once, over NumPy arrays (or JAX).

    import tminus.batch
    env = tminus.batch.make("four_way", 1024, seed=7, players=3)
    while not env.terminal().all():
        env.step(env.sample_legal(env.rng.random(env.batch_size)))
    env.returns(); env.history(0)  # replays in tminus.load_game("four_way", players=3)

Bit-for-bit faithful to the reference engines (same action ids, legal actions, observation
tensors and returns); chance is drawn inside from ``seed``. A game names its batch engines
in its manifest (``GameManifest.batch``: backend -> class).
"""

from __future__ import annotations

from typing import Any

from tminus.batch.base import BatchEnv
from tminus.core.manifest import resolve
from tminus.core.registry import manifest, manifests

BACKENDS = ("numpy", "jax")


def list_batch_games(backend: str = "numpy") -> list[str]:
    return [m.name for m in manifests() if backend in m.batch]


def batch_class(name: str, backend: str = "numpy") -> type:
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; backends: {', '.join(BACKENDS)}")
    games = list_batch_games(backend)
    if name not in games:
        raise ValueError(f"no {backend} batch engine for {name!r}; batch games: {', '.join(games)}")
    return resolve(manifest(name).batch[backend])


def make(
    name: str, batch_size: int, seed: Any = 0, backend: str = "numpy", **options: Any
) -> BatchEnv:
    """A batch of ``batch_size`` games of ``name``; ``options``: the game's parameters and
    ``auto_reset``, ``record_history``."""
    return batch_class(name, backend)(batch_size, seed=seed, **options)


__all__ = ["BatchEnv", "batch_class", "list_batch_games", "make"]
