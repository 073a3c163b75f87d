"""Every T-minus game as a single-agent Gymnasium environment, the other seats played by bots.

    from tminus.interop.gymnasium import TMinusEnv
    e = TMinusEnv("four_way", seat=0, opponents="greedy", players=3)

Observations are ``{"observation": tensor, "action_mask": legal actions}`` (the mask is also
in ``info``). An illegal action changes nothing: it returns ``illegal_reward`` and says why in
``info["error"]``. The reward is the seat's return at the end.
"""

from __future__ import annotations

from itertools import cycle, islice
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from tminus.agents.registry import make_agent
from tminus.core.game import IllegalActionError, State
from tminus.core.registry import load_game
from tminus.interop.spaces import action_mask, observation_space, observe, resolve_chance


class TMinusEnv(gymnasium.Env):
    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        game: str,
        seat: int = 0,
        opponents: str = "random",
        render_mode: str | None = None,
        illegal_reward: float | None = None,
        **params: Any,
    ) -> None:
        self.game = load_game(game, **params)
        if not 0 <= seat < self.game.num_players:
            raise ValueError(
                f"seat {seat} does not exist: seats are 0 to {self.game.num_players - 1}"
            )
        if render_mode not in (None, "ansi"):
            raise ValueError("render_mode must be None or 'ansi'")
        self.seat = seat
        self.render_mode = render_mode
        others = [s for s in range(self.game.num_players) if s != seat]
        names = [n.strip() for n in opponents.split(",") if n.strip()] or ["random"]
        self.opponent_specs = dict(zip(others, islice(cycle(names), len(others)), strict=True))
        for spec in set(self.opponent_specs.values()):
            make_agent(spec, self.game, seed=0)  # a bad name fails here, clearly
        self.illegal_reward = (
            self.game.min_utility if illegal_reward is None else float(illegal_reward)
        )
        self.observation_space = observation_space(self.game)
        self.action_space = spaces.Discrete(self.game.num_distinct_actions)
        self.state: State | None = None  # the game in play, from reset() on

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        seeds = self.np_random.integers(2**63, size=len(self.opponent_specs) + 1)
        self._chance = np.random.default_rng(seeds[0])
        self._opponents = {
            s: make_agent(spec, self.game, seed=int(seed_))
            for (s, spec), seed_ in zip(self.opponent_specs.items(), seeds[1:], strict=True)
        }
        self.state = self.game.new_initial_state()
        self._play_others(self.state)
        return observe(self.state, self.seat), self._info(self.state)

    def step(self, action):
        state = self.state
        if state is None:
            raise RuntimeError("call reset() before step()")
        try:
            state.apply_action(int(action))
        except (IllegalActionError, TypeError, ValueError) as error:
            info = {**self._info(state), "illegal_action": True, "error": str(error)}
            return observe(state, self.seat), self.illegal_reward, False, False, info
        self._play_others(state)
        terminal = state.is_terminal()
        capped = terminal and state.ended_by_turn_cap()
        reward = float(state.returns()[self.seat]) if terminal else 0.0
        return observe(state, self.seat), reward, terminal and not capped, capped, self._info(state)

    def _play_others(self, state: State) -> None:
        """Chance and the bots move until it is this seat's turn or the game is over."""
        while not state.is_terminal():
            resolve_chance(state, self._chance)
            player = state.current_player()
            if player == self.seat or player < 0:
                break
            state.apply_action(self._opponents[player].step(state))

    def _info(self, state: State) -> dict[str, Any]:
        return {"action_mask": action_mask(state, self.seat)}

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.state is None:
            return None
        return self.state.render(self.seat)


def register_all() -> list[str]:
    """Register ``tminus/<game>-v0`` with Gymnasium for every game (idempotent)."""
    from tminus.batch import list_batch_games
    from tminus.core.registry import list_games

    ids = []
    for name in list_games():
        env_id = f"tminus/{name}-v0"
        if env_id not in gymnasium.registry:
            # gymnasium.make_vec runs the games of a batch engine where there is one.
            vector = (
                "tminus.interop.gymnasium_vector:TMinusVectorEnv"
                if name in list_batch_games()
                else None
            )
            gymnasium.register(
                id=env_id,
                entry_point="tminus.interop.gymnasium:TMinusEnv",
                vector_entry_point=vector,
                kwargs={"game": name},
            )
        ids.append(env_id)
    return ids


register_all()
