"""A review's playouts on a batch engine: every world × every candidate move, one batch.

Each world (a deal the viewing seat may imagine, or the true position after the end) is
loaded into one row and copied to a row per candidate; the candidates are played in one
step, and the game's batch rollout player (``GameManifest.batch_rollout``, chosen by
measurement: ``scripts/rollout_players.py``) finishes every row at once. Candidates share
their world, so their difference is measured without the luck of the deal; the draws after
the move are common to them too, as far as the games keep in step: the rows of one world
share a stream of luck (``BatchEnv.share_luck``), the k-th random number each draws (for
a deal, a card, the rollout player's coin) being the same.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from tminus.batch import batch_class
from tminus.batch.agents import make_batch_agent
from tminus.batch.base import compiles_first
from tminus.core.game import Game, State
from tminus.core.registry import manifest

# Whether a batch engine not compiled yet (Count Down's, on a fresh install) is compiled at
# its first playouts in this process: half a minute once, then every review is faster. The
# server's review and hint processes say no (``tminus.server.reviews``): the server compiles
# it in the background, and until it is on disk their playouts run on the reference engine,
# so that no hint waits for a compiler.
compile_engines = True


def batch_rollout(game: Game) -> str | None:
    """The batch rollout player of ``game``, or None when its playouts run on the reference
    engine (no batch engine, none chosen, one whose extra is not installed: Count Down's
    needs Numba, or one not compiled yet where ``compile_engines`` is off)."""
    try:
        rollout = manifest(game.name).batch_rollout
        if rollout is not None:
            engine = batch_class(game.name)  # (its module imported: a missing extra says so)
            if not compile_engines and compiles_first(engine):
                return None
        return rollout
    except (KeyError, ValueError):  # a game made in a test has no manifest
        return None


def shares_of_win(returns: np.ndarray, seat: int) -> np.ndarray:
    """``judges.share_of_win`` for rows of returns (games, players) at once."""
    best = returns.max(axis=1, keepdims=True)
    tied = returns == best
    count = tied.sum(axis=1)
    everyone = count == returns.shape[1]
    return np.where(everyone, 1.0 / returns.shape[1], tied[:, seat] / count)


THREADS = 2  # batches a round is cut into, played side by side (NumPy lets go of the GIL)
SPLIT_ROWS = 8192  # rows a round needs before it is cut (a small one is done at once)

Block = tuple[list[State], Sequence[int], int]  # worlds, the moves played in them, the seat


def play_out_batch(
    game: Game,
    blocks: Sequence[tuple[Iterable[State], Sequence[int], int]],
    seed: Any,
    rollout: str,
    threads: int = THREADS,
) -> list[np.ndarray]:
    """For each block (worlds all at one decision, the moves to play there, the seat whose
    share counts), an array (moves, worlds) of that seat's share of the win, all blocks
    played out by the batch agent ``rollout``: in one batch, or, for a large round, in
    ``threads`` batches of about as many rows side by side (two threads played a review's
    round 1.45 times as fast as one on two cores). A world repeated (the same object) is
    loaded once and copied."""
    drawn = [(list(worlds), moves, seat) for worlds, moves, seat in blocks]
    parts = split_rows(drawn, threads)
    if len(parts) == 1:
        return play_out_part(game, drawn, seed, rollout)
    entropy = list(seed) if isinstance(seed, (list, tuple)) else [seed]
    seeds = [None if seed is None else [*entropy, part + 1] for part in range(len(parts))]
    with ThreadPoolExecutor(len(parts)) as pool:
        found = pool.map(play_out_part, [game] * len(parts), parts, seeds, [rollout] * len(parts))
        return [shares for part in found for shares in part]


def split_rows(drawn: list[Block], threads: int) -> list[list[Block]]:
    """``drawn`` cut into at most ``threads`` runs of whole blocks with about as many rows
    each (one run when there are fewer than ``SPLIT_ROWS`` rows)."""
    sizes = np.array([len(worlds) * len(moves) for worlds, moves, _ in drawn])
    total = int(sizes.sum())
    if threads < 2 or total < SPLIT_ROWS or len(drawn) < 2:
        return [drawn]
    # Block i goes to the part its middle row falls in.
    middles = np.cumsum(sizes) - sizes / 2
    part_of = np.minimum((middles * threads / total).astype(int), threads - 1)
    parts = [[b for b, p in zip(drawn, part_of, strict=True) if p == k] for k in range(threads)]
    return [part for part in parts if part]


def play_out_part(game: Game, drawn: list[Block], seed: Any, rollout: str) -> list[np.ndarray]:
    """``play_out_batch`` for blocks whose worlds are drawn, in one batch."""
    rows = sum(len(worlds) * len(moves) for worlds, moves, _ in drawn)
    env = batch_class(game.name)(
        rows, seed=seed, record_history=False, deal=False, **dict(game.params)
    )
    actions = np.zeros(rows, dtype=np.int64)
    streams = np.zeros(rows, dtype=np.int64)  # a world's number: its moves meet one luck
    row, world = 0, 0
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
        streams[row : row + count * len(moves)] = np.tile(
            np.arange(world, world + count), len(moves)
        )
        row += count * len(moves)
        world += count
    env.share_luck(streams)
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
