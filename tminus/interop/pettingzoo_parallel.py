"""A PettingZoo parallel environment over a batch engine (4-Way, Sputnik, 3-2-1).

    from tminus.interop.pettingzoo_parallel import parallel_env
    e = parallel_env("sputnik", players=3)

The games are turn-based: at each ``step`` only the seat to move acts (its action must be
legal, else ``ValueError`` and nothing changes); the others' actions are ignored, and their
``action_mask`` is all zeros. Chance is resolved inside the engine from ``reset(seed=...)``.
Agents are ``player_0`` ... ``player_{n-1}``; rewards come at the end (the returns), a game
ended by the turn cap is *truncated*, any other end *terminated*, and then the agents leave.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from tminus.batch import batch_class
from tminus.interop.spaces import observation_space


class TMinusParallelEnv(ParallelEnv):
    metadata = {"render_modes": [], "is_parallelizable": True}

    def __init__(self, game: str, backend: str = "numpy", **params: Any) -> None:
        self._make = batch_class(game, backend)
        self.params = params
        self.batch = self._make(1, seed=0, **params)
        self.metadata = {**self.metadata, "name": f"tminus_{game}_parallel_v0"}
        self.possible_agents = [f"player_{s}" for s in range(self.batch.num_players)]
        self._seat = {agent: s for s, agent in enumerate(self.possible_agents)}
        self._observation_space = observation_space(self.batch.game)
        self._action_space = spaces.Discrete(self.batch.num_distinct_actions)
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_space  # the same object every time, as PettingZoo asks

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict | None = None):
        self.batch = self._make(1, seed=seed, **self.params)
        self.agents = self.possible_agents[:]
        return self._observations(), {agent: {} for agent in self.agents}

    def step(self, actions: dict[str, int]):
        batch = self.batch
        mover = int(batch.current_player()[0])
        agent = self.possible_agents[mover]
        if agent not in actions:
            raise ValueError(f"{agent} is to move and has no action")
        batch.step(np.array([int(actions[agent])]))  # IllegalActionError is a ValueError
        observations = self._observations()
        ended = bool(batch.terminal()[0])
        capped = ended and bool(batch.ended_by_turn_cap()[0])
        returns = batch.returns()[0]
        rewards = {a: float(returns[self._seat[a]]) if ended else 0.0 for a in self.agents}
        terminations = dict.fromkeys(self.agents, ended and not capped)
        truncations = dict.fromkeys(self.agents, capped)
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        if ended:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        batch = self.batch
        mask = batch.legal_mask()[0].astype(np.int8)
        mover = int(batch.current_player()[0])
        observations = {}
        for agent in self.agents:
            seat = self._seat[agent]
            observations[agent] = {
                "observation": batch.observation_tensor(seat)[0],
                "action_mask": mask if seat == mover else np.zeros_like(mask),
            }
        return observations

    def state(self) -> np.ndarray:
        """The whole position, as the first seat's observation tensor (perfect information
        games show everything; 3-2-1 shows what seat 0 may know)."""
        return self.batch.observation_tensor(0)[0]


def parallel_env(game: str, **params: Any) -> TMinusParallelEnv:
    return TMinusParallelEnv(game, **params)
