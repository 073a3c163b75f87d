"""The greedy players of 4-Way CountDown and Sputnik, for a whole batch at once.

They decide as ``tminus.agents.greedy`` does: 4-Way's choice is the same move, always;
Sputnik's is among the same best moves (its ties are broken by this agent's own random
numbers, as the reference breaks them by its own).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from tminus.agents.greedy.four_way import FourWayGreedy
from tminus.agents.greedy.sputnik import OWN_ROOM, SAVE_HELP
from tminus.batch.bits import popcount
from tminus.batch.four_way import ELEVEN, KEY_BITS, ROLLS, FourWayBatch
from tminus.batch.sputnik import SputnikBatch
from tminus.games.four_way import game as four_way
from tminus.games.four_way.actions import ATTACK, PASS


@cache
def four_way_choices(junior: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """By ``roll << 10 | keys``: the greedy move without attacks, the best flip (-1: none)
    and how many keys it flips. Built from the reference agent's own ``best_flip``."""
    agent = FourWayGreedy(four_way.FourWayGame(variant="junior" if junior else "adult"))
    plain = np.zeros(ROLLS << KEY_BITS, dtype=np.int64)
    best = np.full(ROLLS << KEY_BITS, -1, dtype=np.int64)
    flipped = np.zeros(ROLLS << KEY_BITS, dtype=np.int64)
    for roll in range(ROLLS):
        for keys in range(1 << KEY_BITS):
            index = roll << KEY_BITS | keys
            moves = four_way.moves_for_roll(junior, roll, keys)
            flip = agent.best_flip([a for a in moves if a < ATTACK])
            if flip is not None:
                best[index] = flip
                flipped[index] = len(agent.keys_flipped(flip))
            plain[index] = flip if flip is not None else (moves[0] if moves else PASS)
    return plain, best, flipped


class FourWayBatchGreedy:
    """Hardest keys first; on eleven, attack the leader when that costs it more keys than
    the best flip would win."""

    name = "greedy"

    def __init__(self, env: FourWayBatch, seed: Any = None) -> None:
        self.env = env
        self.plain, self.best, self.flipped = four_way_choices(env.junior)

    def act(self) -> np.ndarray:
        env, n = self.env, self.env.num_players
        index, mover = env.index, env.mover
        # The leader: most keys up; on a tie, the one who plays soonest after the mover.
        counts = [popcount(env.seat_keys(s)).astype(np.int64) for s in range(n)]
        target = np.zeros(env.batch_size, dtype=np.int64)
        best_rank = np.full(env.batch_size, -(8 * 11), dtype=np.int64)  # below every rank
        for seat in range(n):
            rank = np.where(seat == mover, -(8 * 12), counts[seat] * 8 - (seat - mover) % n)
            better = rank > best_rank
            target = np.where(better, seat, target)
            best_rank = np.where(better, rank, best_rank)
        lost = np.choose(target, counts)
        flip = self.best.take(index)
        attack = lost > self.flipped.take(index)
        first = ATTACK + (mover == 0)  # the first legal move: attack seat 0 or 1
        eleven = np.where(attack, ATTACK + target, np.where(flip >= 0, flip, first))
        return np.where(env.roll == ELEVEN, eleven, self.plain.take(index))


class SputnikBatchGreedy:
    """Moves to the cell with the most free galaxies around (base help kept for when it is
    far better); removes next to the opponent with the fewest steps left."""

    name = "greedy"

    def __init__(self, env: SputnikBatch, seed: Any = None) -> None:
        self.env = env
        self.rng = np.random.default_rng(seed)
        board = env.game.board
        self.neighbour_list = np.full((env.cells + 1, 6), env.cells, dtype=np.int64)
        for cell, around in enumerate(board.neighbours):
            self.neighbour_list[cell, : len(around)] = around

    def free_around(self, cell: np.ndarray, rocket: np.ndarray) -> np.ndarray:
        """Steps a rocket would have from ``cell``: neighbours not taken by another rocket,
        holding a galaxy or its own base (``SputnikGreedy.free_around``)."""
        env = self.env
        here, home, _ = env._rocket_cells(None, rocket)
        lands = env.galaxy | env._bit[home]
        others = env.occupied.minus(env._bit[here])
        return (env._around[cell] & lands.minus(others)).count()

    def act(self) -> np.ndarray:
        env = self.env
        move_value = self._move_values()
        removal_value = self._removal_values()
        value = np.concatenate([move_value, removal_value], axis=1)  # (batch, actions)
        legal = env.legal_mask()
        value = np.where(legal, value, -np.inf)
        best = legal & (value == value.max(axis=1, keepdims=True))
        counts = best.sum(axis=1)
        pick = (self.rng.random(env.batch_size) * counts).astype(np.int64)
        ranks = np.cumsum(best, axis=1) - 1
        return np.argmax(best & (ranks == pick[:, None]), axis=1)

    def _move_values(self) -> np.ndarray:
        """(batch, 2K * cells): the value of stepping or helping each rocket onto each cell."""
        env = self.env
        k, n, cells = env.per_player, env.num_players, env.cells
        out = np.zeros((env.batch_size, 2 * k * cells))
        for i in range(k):
            rocket = env.player + n * i
            here, _, _ = env._rocket_cells(None, rocket)
            for slot in range(6):
                target = self.neighbour_list[here, slot]
                value = self.free_around(target, rocket).astype(np.float64)
                inside = target < cells
                rows = np.flatnonzero(inside)
                out[rows, i * cells + target[rows]] = value[rows]
                out[rows, (k + i) * cells + target[rows]] = value[rows] - SAVE_HELP
        return out

    def _removal_values(self) -> np.ndarray:
        """(batch, cells): for each galaxy, what taking it does to the rockets around it:
        +10 / (their steps) for an opponent's, -5 for one's own side, added up in the
        order of the neighbours, as the reference does."""
        env = self.env
        b, cells = env.batch_size, env.cells
        side = np.array(env.game.side_of_rocket)
        mine = np.array(env.game.side_of_seat).take(env.player)
        worth = np.zeros((b, env.rockets + 1))  # the last column: no rocket
        at = np.full((b, cells + 1), env.rockets, dtype=np.int64)
        for r in range(env.rockets):
            rocket = np.full(b, r)
            here, _, _ = env._rocket_cells(None, rocket)
            steps = self.free_around(here, rocket)
            cut = 10.0 / np.maximum(1, steps)
            worth[:, r] = np.where(side[r] == mine, -OWN_ROOM, cut)
            at[env._all, here] = r
        at[:, cells] = env.rockets
        value = np.zeros((b, cells))
        rows = env._all[:, None]
        for slot in range(6):
            neighbour = self.neighbour_list[:cells, slot]
            rocket = at[:, neighbour]
            value = value + worth[rows, rocket]
        return value
