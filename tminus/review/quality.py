"""Whose moves are better: two agents choose in the same positions, and where they choose
differently the review's judges value both moves.

This is how chess engines grade a player's moves by a stronger engine's values, for when
whole games are too few to tell two levels apart: in a game of much luck the result of a
game says little about the moves in it, but each move can be judged on its own.

The positions are the decisions (with more than one legal move) of games saved with their
moves, sampled with a given chance each. In each, both agents choose (seeded by the
position). Where they differ, the judge gives the mover's chance to win after each move:
exact where a solver covers the position, otherwise playouts on common random numbers in
worlds drawn from the mover's information set, so nothing hidden from the mover is read.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from tminus.agents.registry import make_agent
from tminus.core.game import Game, State
from tminus.core.registry import load_game_from
from tminus.review.judges import Estimate
from tminus.review.review import first_verdict, judges_for


@dataclass(frozen=True)
class Position:
    history: tuple[int, ...]  # every action to it, chance outcomes included
    key: tuple[int, ...]  # seeds the agents' choices and the judge
    group: Any = None  # positions of one group (a deal's games) may repeat each other


@dataclass(frozen=True)
class Comparison:
    agents: tuple[str, str]
    # A position's: the first's move's value minus the second's; None: both chose alike.
    gains: list[Estimate | None]
    judges: list[str]
    groups: list[Any]  # each position's group

    @property
    def positions(self) -> int:
        return len(self.gains)

    @property
    def differing(self) -> list[Estimate]:
        return [g for g in self.gains if g is not None]

    def gain(self) -> Estimate:
        """The first agent's mean gain a decision (zero where both chose alike), with its
        standard error over groups: positions of one group (the two games of a duplicate
        deal share their opening) count as one draw, not as independent ones (the
        cluster-robust error; with one position a group, the plain standard error). The
        judge's own noise is part of the spread."""
        values = np.array([0.0 if g is None else g.mean for g in self.gains])
        mean = float(values.mean())
        residuals: dict[Any, float] = {}
        for group, value in zip(self.groups, values, strict=True):
            residuals[group] = residuals.get(group, 0.0) + float(value) - mean
        clusters = len(residuals)
        if clusters < 2:
            raise ValueError("a standard error needs positions from two groups at least")
        spread = sum(r * r for r in residuals.values()) * clusters / (clusters - 1)
        return Estimate(mean, math.sqrt(spread) / len(values))

    def decided(self) -> tuple[int, int]:
        """Differing positions the judge decided for the first, for the second agent: by
        two standard errors, or at all when exact."""
        first = sum(g.mean > 2 * g.error for g in self.differing)
        second = sum(g.mean < -2 * g.error for g in self.differing)
        return first, second


def sample_positions(
    game: Game,
    histories: Sequence[Sequence[int]],
    every: float,
    seed: int = 0,
    groups: Sequence[Any] | None = None,
) -> list[Position]:
    """Each decision with more than one legal move in the games ``histories``, taken with
    chance ``every``; ``groups``: each game's group (its deal), by default its own."""
    if not 0 < every <= 1:
        raise ValueError(f"every is a chance, in (0, 1], not {every}")
    groups = list(range(len(histories))) if groups is None else list(groups)
    if len(groups) != len(histories):
        raise ValueError("give one group for each game")
    rng = np.random.default_rng(seed)
    found = []
    for index, history in enumerate(histories):
        state = game.new_initial_state()
        for step, action in enumerate(history):
            decision = not state.is_chance_node() and len(state.legal_actions()) > 1
            if decision and rng.random() < every:
                key = (seed, index, step)
                found.append(Position(tuple(history[:step]), key, groups[index]))
            state.apply_action(action)
    return found


def judge_position(
    game_name: str,
    params: dict[str, Any],
    agents: Sequence[str],
    position: Position,
    samples: int,
) -> tuple[Estimate | None, str | None]:
    """(The first agent's gain over the second in ``position``, or None when both chose the
    same move; the judge's name)."""
    game = load_game_from(game_name, params)
    state = game.new_initial_state()
    for action in position.history:
        state.apply_action(action)
    first, second = choices(game, agents, state, position.key)
    if first == second:
        return None, None
    seed = int(np.random.default_rng(position.key).integers(2**31))
    judges = judges_for(game, samples, seed, viewer=state.current_player(), precision=None)
    values, judge = first_verdict(judges, state, [first, second])
    return Estimate.of(np.subtract(values[first], values[second]).tolist()), judge.name


def choices(game: Game, agents: Sequence[str], state: State, key: Sequence[int]) -> list[int]:
    """Each agent's move in ``state``, each on a seed of its own drawn from ``key`` (an
    agent's own noise is part of how it plays)."""
    return [
        make_agent(spec, game, seed=[*key, i]).step(state.clone()) for i, spec in enumerate(agents)
    ]


def compare_moves(
    game: Game,
    agents: Sequence[str],
    positions: Sequence[Position],
    samples: int = 2000,
    workers: int = 1,
) -> Comparison:
    """``agents[0]`` against ``agents[1]`` on ``positions``; ``samples`` playouts a move
    where no exact judge covers a position; ``workers`` processes."""
    if len(agents) != 2:
        raise ValueError(f"compare two agents, not {len(agents)}")
    tasks = [(game.name, dict(game.params), tuple(agents), p, samples) for p in positions]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            verdicts = list(pool.map(judge_position, *zip(*tasks, strict=True)))
    else:
        verdicts = [judge_position(*task) for task in tasks]
    judges = sorted({name for _, name in verdicts if name is not None})
    gains = [gain for gain, _ in verdicts]
    return Comparison((agents[0], agents[1]), gains, judges, [p.group for p in positions])


def interval_text(estimate: Estimate, z: float) -> str:
    low, high = estimate.mean - z * estimate.error, estimate.mean + z * estimate.error
    return f"{estimate.mean:+.4f} ({low:+.4f} to {high:+.4f})"
