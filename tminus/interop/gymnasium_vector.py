"""A Gymnasium vector environment over a batch engine: ``num_envs`` games in NumPy arrays.

    import gymnasium, tminus.interop.gymnasium
    envs = gymnasium.make_vec("tminus/four_way-v0", num_envs=1024, players=3, opponents="greedy")

One seat (``seat``) is the learner in every game; the other seats are vectorised bots
(``random``, or ``greedy`` for 4-Way and Sputnik). As ``TMinusEnv``: observations are
``{"observation": tensors, "action_mask": legal actions}`` (the mask also in ``info``), the
reward is the seat's return at the end, a game ended by the turn cap is *truncated*, and an
illegal action changes nothing in its game and earns ``illegal_reward``. A finished game
starts again at the next ``step`` (Gymnasium's next-step autoreset).
"""

from __future__ import annotations

from itertools import cycle, islice
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from tminus.batch import batch_class
from tminus.batch.agents import make_batch_agent
from tminus.interop.spaces import observation_space


class TMinusVectorEnv(VectorEnv):
    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(
        self,
        game: str,
        num_envs: int = 1,
        seat: int = 0,
        opponents: str = "random",
        illegal_reward: float | None = None,
        backend: str = "numpy",
        **params: Any,
    ) -> None:
        self._make = batch_class(game, backend)
        self.batch = self._make(num_envs, seed=0, record_history=False, **params)
        reference = self.batch.game
        if not 0 <= seat < reference.num_players:
            raise ValueError(
                f"seat {seat} does not exist: seats are 0 to {reference.num_players - 1}"
            )
        self.game_name, self.params, self.backend = game, params, backend
        self.seat = seat
        self.num_envs = num_envs
        others = [s for s in range(reference.num_players) if s != seat]
        names = [n.strip() for n in opponents.split(",") if n.strip()] or ["random"]
        self.opponent_names = dict(zip(others, islice(cycle(names), len(others)), strict=True))
        for name in set(self.opponent_names.values()):
            make_batch_agent(name, self.batch, seed=0)  # a bad name fails here, clearly
        self.illegal_reward = (
            reference.min_utility if illegal_reward is None else float(illegal_reward)
        )
        self.single_observation_space = observation_space(reference)
        self.single_action_space = spaces.Discrete(reference.num_distinct_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._done = np.zeros(num_envs, dtype=bool)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        seeds = self.np_random.integers(2**63, size=2)
        self.batch = self._make(
            self.num_envs, seed=int(seeds[0]), record_history=False, **self.params
        )
        agents = {name: make_batch_agent(name, self.batch, seed=[int(seeds[1]), i])
                  for i, name in enumerate(sorted(set(self.opponent_names.values())))}  # fmt: skip
        self._opponents = {seat: agents[name] for seat, name in self.opponent_names.items()}
        self._done = np.zeros(self.num_envs, dtype=bool)
        self._play_others()
        return self._observe(), self._info()

    def step(self, actions):
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise ValueError(f"step takes one action per game: shape ({self.num_envs},)")
        batch = self.batch
        restart = self._done
        if restart.any():  # next-step autoreset: these games start again, their action unused
            batch.reset(np.flatnonzero(restart))
        mine = ~restart & (batch.current_player() == self.seat)
        inside = (actions >= 0) & (actions < batch.num_distinct_actions)
        index = np.where(inside, actions, 0).astype(np.int64)
        legal = mine & inside & batch.legal_mask()[np.arange(self.num_envs), index]
        illegal = mine & ~legal
        batch.step(index, check=False, where=legal)
        self._play_others()
        terminal = batch.terminal() & ~restart
        capped = terminal & batch.ended_by_turn_cap()
        rewards = np.where(terminal, batch.returns()[:, self.seat], 0.0)
        rewards = np.where(illegal, self.illegal_reward, rewards)
        self._done = terminal
        info = self._info()
        info["illegal_action"] = illegal
        return self._observe(), rewards, terminal & ~capped, capped, info

    def _play_others(self) -> None:
        """The bots move until it is the learner's turn or the game is over, in every game."""
        batch = self.batch
        while True:
            player = batch.current_player()
            theirs = (player >= 0) & (player != self.seat)
            if not theirs.any():
                return
            actions = np.zeros(self.num_envs, dtype=np.int64)
            done: dict[int, np.ndarray] = {}
            for seat, agent in self._opponents.items():
                here = player == seat
                if here.any():
                    actions[here] = done.setdefault(id(agent), agent.act())[here]
            batch.step(actions, check=False, where=theirs)

    def _mask(self) -> np.ndarray:
        mask = self.batch.legal_mask().astype(np.int8)
        mask[self.batch.current_player() != self.seat] = 0
        return mask

    def _observe(self) -> dict[str, np.ndarray]:
        return {
            "observation": self.batch.observation_tensor(self.seat),
            "action_mask": self._mask(),
        }

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask()}
