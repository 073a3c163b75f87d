"""Batch engines: thousands of games of one game at once, over NumPy arrays (or JAX).

    import tminus.batch
    env = tminus.batch.make("four_way", 1024, seed=7, players=3)
    while not env.terminal().all():
        env.step(env.sample_legal(env.rng.random(env.batch_size)))
    env.returns(); env.history(0)  # replays in tminus.load_game("four_way", players=3)

Bit-for-bit faithful to the reference engines (same action ids, legal actions, observation
tensors and returns); chance is drawn inside from ``seed``.
"""

from __future__ import annotations

import importlib
from typing import Any

from tminus.batch.base import BatchEnv

BATCH_GAMES = {
    "four_way": "tminus.batch.four_way:FourWayBatch",
    "sputnik": "tminus.batch.sputnik:SputnikBatch",
    "three_two_one": "tminus.batch.three_two_one:ThreeTwoOneBatch",
}
JAX_GAMES = {
    "four_way": "tminus.batch.jax_four_way:FourWayJax",
    "sputnik": "tminus.batch.jax_sputnik:SputnikJax",
    "three_two_one": "tminus.batch.jax_three_two_one:ThreeTwoOneJax",
}
BACKENDS = ("numpy", "jax")


def list_batch_games() -> list[str]:
    return sorted(BATCH_GAMES)


def batch_class(name: str, backend: str = "numpy") -> type:
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; backends: {', '.join(BACKENDS)}")
    table = BATCH_GAMES if backend == "numpy" else JAX_GAMES
    if name not in table:
        raise ValueError(
            f"no {backend} batch engine for {name!r}; batch games: {', '.join(sorted(table))}"
        )
    module, cls = table[name].split(":")
    return getattr(importlib.import_module(module), cls)


def make(
    name: str, batch_size: int, seed: Any = 0, backend: str = "numpy", **options: Any
) -> BatchEnv:
    """A batch of ``batch_size`` games of ``name``; ``options``: the game's parameters and
    ``auto_reset``, ``record_history``."""
    return batch_class(name, backend)(batch_size, seed=seed, **options)


__all__ = ["BATCH_GAMES", "BatchEnv", "batch_class", "list_batch_games", "make"]
