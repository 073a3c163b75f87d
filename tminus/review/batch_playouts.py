"""A review's playouts on a batch engine: every world × every candidate move, one batch.

Each world (a deal the viewing seat may imagine, or the true position after the end) is
loaded into one row and copied to a row per candidate; the candidates are played in one
step, and the game's batch rollout player (``GameManifest.batch_rollout``, chosen by
measurement: ``scripts/rollout_players.py``) finishes every row at once. Candidates share
their world, so their difference is measured without the luck of the deal; the draws after
the move are the batch's own.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from tminus.batch import batch_class
from tminus.batch.agents import make_batch_agent
from tminus.core.game import Game, State
from tminus.core.registry import manifest


def batch_rollout(game: Game) -> str | None:
    """The batch rollout player of ``game``, or None when its playouts run on the reference
    engine (no batch engine, or none chosen)."""
    try:
        return manifest(game.name).batch_rollout
    except (KeyError, ValueError):  # a game made in a test has no manifest
        return None


def shares_of_win(returns: np.ndarray, seat: int) -> np.ndarray:
    """``judges.share_of_win`` for rows of returns (games, players) at once."""
    best = returns.max(axis=1, keepdims=True)
    tied = returns == best
    count = tied.sum(axis=1)
    everyone = count == returns.shape[1]
    return np.where(everyone, 1.0 / returns.shape[1], tied[:, seat] / count)


def play_out_batch(
    game: Game,
    blocks: Sequence[tuple[Iterable[State], Sequence[int], int]],
    seed: Any,
    rollout: str,
) -> list[np.ndarray]:
    """For each block (worlds all at one decision, the moves to play there, the seat whose
    share counts), an array (moves, worlds) of that seat's share of the win, all blocks
    played out at once by the batch agent ``rollout``. A world repeated (the same object)
    is loaded once and copied."""
    drawn = [(list(worlds), moves, seat) for worlds, moves, seat in blocks]
    rows = sum(len(worlds) * len(moves) for worlds, moves, _ in drawn)
    env = batch_class(game.name)(
        rows, seed=seed, record_history=False, deal=False, **dict(game.params)
    )
    actions = np.zeros(rows, dtype=np.int64)
    row = 0
    for worlds, moves, _ in drawn:
        count = len(worlds)
        first = np.arange(row, row + count)
        if all(world is worlds[0] for world in worlds):
            env.load([row], [worlds[0]])
            env.copy_rows(first[1:], np.full(count - 1, row))
        else:
            env.load(first, worlds)
        for k in range(1, len(moves)):
            env.copy_rows(first + k * count, first)
        actions[row : row + count * len(moves)] = np.repeat(np.asarray(moves), count)
        row += count * len(moves)
    env.step(actions)
    player = make_batch_agent(rollout, env, seed=seed)
    while not env.terminal().all():
        env.step(player.act(), check=False)
    returns = env.returns()
    found, row = [], 0
    for worlds, moves, seat in drawn:
        size = len(worlds) * len(moves)
        found.append(shares_of_win(returns[row : row + size], seat).reshape(len(moves), -1))
        row += size
    return found
