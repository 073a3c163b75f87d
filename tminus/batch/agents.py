"""Vectorised players for batch engines: random everywhere, greedy where its rule is simple.

An agent is made for one batch and answers ``act()``: one action per game, for the seat
to move in each (anything for games that are over). Mixed line-ups (a different agent per
seat) are ``SeatedAgents``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from tminus.agents.registry import level_spec
from tminus.batch.base import BatchEnv
from tminus.core.manifest import resolve
from tminus.core.registry import manifest


class BatchRandom:
    """Uniformly random legal moves, like ``tminus.agents.random_agent.RandomAgent``."""

    name = "random"

    def __init__(self, env: BatchEnv, seed: Any = None) -> None:
        self.env = env
        self.rng = np.random.default_rng(seed)

    def act(self) -> np.ndarray:
        return self.env.sample_legal(self.rng.random(self.env.batch_size))


def batch_agent_names(game: str) -> list[str]:
    """Random, and the game's own vectorised agents (``GameManifest.batch_agents``)."""
    return ["random", *manifest(game).batch_agents]


def make_batch_agent(name: str, env: BatchEnv, seed: Any = None):
    """A vectorised agent by name or level name (easy is random, medium greedy) for
    ``env``; ValueError naming those that exist."""
    spec = level_spec(name, env.game)
    if spec == "random":
        return BatchRandom(env, seed)
    path = manifest(env.name).batch_agents.get(spec)
    if path is not None:
        return resolve(path)(env, seed)
    meaning = f" ({spec})" if spec != name else ""
    raise ValueError(
        f"no vectorised agent {name!r}{meaning} for {env.name}; "
        f"vectorised agents: {', '.join(batch_agent_names(env.name))}"
    )


class SeatedAgents:
    """Agent ``names[s]`` plays seat ``s`` in every game of the batch."""

    def __init__(self, env: BatchEnv, names: Sequence[str], seed: Any = 0) -> None:
        if len(names) != env.num_players:
            raise ValueError(f"{env.name} with {env.num_players} players needs that many agents")
        self.env = env
        kinds = sorted(set(names))
        agents = {n: make_batch_agent(n, env, seed=[*np.atleast_1d(seed), i])
                  for i, n in enumerate(kinds)}  # fmt: skip
        self.by_seat = [agents[n] for n in names]
        self.single = agents[kinds[0]] if len(kinds) == 1 else None

    def act(self) -> np.ndarray:
        if self.single is not None:
            return self.single.act()
        seats = self.env.current_player()
        actions = np.zeros(self.env.batch_size, dtype=np.int64)
        done: dict[int, np.ndarray] = {}
        for seat, agent in enumerate(self.by_seat):
            mine = seats == seat
            if mine.any():
                chosen = done.setdefault(id(agent), agent.act())
                actions[mine] = chosen[mine]
        return actions
