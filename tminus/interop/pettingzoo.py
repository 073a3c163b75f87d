"""Every T-minus game as a PettingZoo AEC environment.

    from tminus.interop.pettingzoo import env
    e = env("four_way", players=3)

Agents are ``player_0`` ... ``player_{n-1}`` (the seats). Chance is resolved inside the
environment with a generator seeded by ``reset(seed=...)``. Rewards come at the end (the
game's returns); a game ended by the turn cap is *truncated*, any other end *terminated*.
Observations are ``{"observation": tensor, "action_mask": legal actions}``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from tminus.core.game import IllegalActionError, State
from tminus.core.registry import load_game
from tminus.interop.spaces import observation_space, observe, resolve_chance


class TMinusAECEnv(AECEnv):
    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "is_parallelizable": False}
    agent_selection: str  # set by reset() and every step()

    def __init__(self, game: str, render_mode: str | None = None, **params: Any) -> None:
        super().__init__()
        self.game = load_game(game, **params)
        self.metadata = {**self.metadata, "name": f"tminus_{game}_v0"}
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.possible_agents = [f"player_{s}" for s in range(self.game.num_players)]
        self._seat = {agent: s for s, agent in enumerate(self.possible_agents)}
        obs_space = observation_space(self.game)
        act_space = spaces.Discrete(self.game.num_distinct_actions)
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, act_space)
        self.state: State | None = None  # the game in play, from reset() on
        self._rng = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self._rng = np.random.default_rng(seed)
        self.state = self.game.new_initial_state()
        resolve_chance(self.state, self._rng)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._after_move(self.state)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return observe(self._started(), self._seat[agent])

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self._started()
        if action is None:  # (None is the action of an agent whose game is over)
            raise ValueError(f"{agent}: the game goes on, None is not an action")
        try:
            state.apply_action(int(action))
        except (IllegalActionError, TypeError) as error:
            raise ValueError(f"{agent}: {error}") from None
        self._cumulative_rewards[agent] = 0.0
        resolve_chance(state, self._rng)
        self._after_move(state)
        self._accumulate_rewards()
        if self.render_mode == "human":
            print(self.render())

    def _after_move(self, state: State) -> None:
        if state.is_terminal():
            capped = state.ended_by_turn_cap()
            for agent, value in zip(self.agents, state.returns(), strict=True):
                self.rewards[agent] = float(value)
                self.terminations[agent] = not capped
                self.truncations[agent] = capped
            # Whoever moved last steps out first; the others follow with step(None).
            if self.agent_selection not in self.agents:
                self.agent_selection = self.agents[0]
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = self.possible_agents[state.current_player()]

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return self._started().render(None)

    def _started(self) -> State:
        """The game in play (env() wraps this environment so as to refuse any call before
        reset(); the raw environment says so here)."""
        if self.state is None:
            raise RuntimeError("call reset() first")
        return self.state

    def close(self) -> None:
        pass


def raw_env(game: str, render_mode: str | None = None, **params: Any) -> TMinusAECEnv:
    return TMinusAECEnv(game, render_mode=render_mode, **params)


def env(game: str, render_mode: str | None = None, **params: Any):
    """The environment with PettingZoo's order and bounds checks around it."""
    wrapped = wrappers.AssertOutOfBoundsWrapper(raw_env(game, render_mode, **params))
    return wrappers.OrderEnforcingWrapper(wrapped)
